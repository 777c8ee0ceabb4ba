//! The lowered form: straight-line SSA code over a flat register file, and the
//! interpreter that runs it.
//!
//! Registers `0..inputs` hold the inputs, the next `constants.len()` the constants,
//! and every instruction writes a fresh register after those (two for
//! [`Op::SinCos`]), in increasing order. The form is kept this simple on purpose:
//! each [`Op`] is one WebAssembly instruction or one call of an imported function,
//! so a later step can emit it as a wasm module at run time.

use alloc::vec::Vec;

use crate::expr::Function;
use crate::math;

/// Index of a register.
pub type Reg = u32;

/// An operation: binary ones read `a` and `b`, unary ones only `a`.
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Neg,
    Recip,
    Sqrt,
    /// Integer power by repeated squaring. (A payload-free 16-byte encoding with the
    /// exponent in `b` measured slower here: wall time is layout-sensitive.)
    Powi(i32),
    Powf,
    Atan2,
    /// Sine into `dst` and cosine into `dst + 1`, in one call: mechanics models take
    /// both of the same angle all the time.
    SinCos,
    /// An elementary function of one argument (the graph's own list).
    Call(Function),
}

impl Op {
    /// Whether the operation reads register `b`.
    pub fn is_binary(self) -> bool {
        matches!(self, Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Powf | Op::Atan2)
    }

    /// Whether `a op b = b op a`.
    pub fn is_commutative(self) -> bool {
        matches!(self, Op::Add | Op::Mul)
    }
}

/// One instruction: `dst = op(a, b)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instr {
    /// The operation.
    pub op: Op,
    /// Where the result goes.
    pub dst: Reg,
    /// First operand.
    pub a: Reg,
    /// Second operand (ignored by unary operations).
    pub b: Reg,
}

/// Compiled straight-line code for several outputs at once.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub(crate) inputs: usize,
    pub(crate) constants: Vec<f64>,
    pub(crate) code: Vec<Instr>,
    pub(crate) outputs: Vec<Reg>,
    pub(crate) registers: usize,
    /// How many instructions had been emitted once output `k` was lowered: outputs
    /// are lowered in order, so `code[..emitted[k]]` computes outputs `0..=k`.
    /// (Counts in the order of lowering, before [`Program::hoist`].)
    pub(crate) emitted: Vec<u32>,
    /// The instructions at the front of `code` that read only constants and slow
    /// inputs (see [`Program::hoist`]); 0 when not hoisted.
    pub(crate) prologue: usize,
    /// Like `emitted`, counting only the instructions after the prologue:
    /// `code[prologue..prologue + body_emitted[k]]` computes outputs `0..=k` once
    /// the prologue has run.
    pub(crate) body_emitted: Vec<u32>,
    /// The first slow input (`inputs` when none is slow).
    pub(crate) slow_from: usize,
    /// Per register: whether its value depends on the slow inputs and constants only.
    pub(crate) invariant: Vec<bool>,
}

/// Input or output slices of the wrong length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the compiled function takes {expected_inputs} inputs and {expected_outputs} outputs, got {inputs} and {outputs}"
)]
pub struct ShapeError {
    /// Inputs expected.
    pub expected_inputs: usize,
    /// Outputs expected.
    pub expected_outputs: usize,
    /// Inputs given.
    pub inputs: usize,
    /// Outputs given.
    pub outputs: usize,
}

impl Program {
    /// Number of inputs.
    pub fn input_count(&self) -> usize {
        self.inputs
    }

    /// Number of outputs.
    pub fn output_count(&self) -> usize {
        self.outputs.len()
    }

    /// The instructions.
    pub fn code(&self) -> &[Instr] {
        &self.code
    }

    /// The constants, in register order after the inputs.
    pub fn constants(&self) -> &[f64] {
        &self.constants
    }

    /// The registers holding the outputs, in order.
    pub fn output_registers(&self) -> &[Reg] {
        &self.outputs
    }

    /// How many instructions compute the first `k` outputs (what
    /// [`Evaluator::eval_first`] runs for them).
    pub fn instructions_for_first(&self, k: usize) -> usize {
        k.checked_sub(1).and_then(|last| self.emitted.get(last)).map_or(0, |&e| e as usize)
    }

    /// How many instructions after the prologue of [`Program::hoist`] compute the
    /// first `k` outputs once the prologue has run: where a back end splits the
    /// body to run the later outputs only on demand.
    pub fn body_instructions_for_first(&self, k: usize) -> usize {
        k.checked_sub(1).and_then(|last| self.body_emitted.get(last)).map_or(0, |&e| e as usize)
    }

    /// Size of the register file.
    pub fn register_count(&self) -> usize {
        self.registers
    }

    /// A ready-to-run evaluator with a copy of this program and its own registers.
    pub fn evaluator(&self) -> Evaluator {
        self.clone().into_evaluator()
    }

    /// A ready-to-run evaluator that owns this program and its registers.
    pub fn into_evaluator(self) -> Evaluator {
        let mut registers = alloc::vec![0.0; self.register_count()];
        registers[self.inputs..self.inputs + self.constants.len()].copy_from_slice(&self.constants);
        Evaluator { program: self, registers, loaded: false, computed: 0, slow_changes: 0 }
    }

    /// Moves to the front, in their order, the instructions whose value depends only
    /// on constants and on the inputs from `slow_from` on (a model's parameters,
    /// which change between runs, not between calls): an [`Evaluator`] runs them
    /// only when one of those inputs has changed. `M` of the turntable and the sums
    /// of masses of a chain are such values. Values are unchanged: the code is in
    /// SSA form, so moving an instruction ahead of ones it does not read is exact.
    pub fn hoist(mut self, slow_from: usize) -> Program {
        let slow_from = slow_from.min(self.inputs);
        let first_temp = self.inputs + self.constants.len();
        let mut invariant = alloc::vec![false; self.registers];
        invariant[slow_from..first_temp].fill(true);
        let mut prologue = Vec::new();
        let mut body = Vec::new();
        let mut body_before = Vec::with_capacity(self.code.len() + 1);
        for ins in &self.code {
            body_before.push(body.len() as u32);
            let reads_varying = !invariant[ins.a as usize] || (ins.op.is_binary() && !invariant[ins.b as usize]);
            if reads_varying {
                body.push(*ins);
            } else {
                invariant[ins.dst as usize] = true;
                if ins.op == Op::SinCos {
                    invariant[ins.dst as usize + 1] = true;
                }
                prologue.push(*ins);
            }
        }
        body_before.push(body.len() as u32);
        self.body_emitted = self.emitted.iter().map(|&e| body_before[e as usize]).collect();
        self.prologue = prologue.len();
        prologue.extend(body);
        self.code = prologue;
        self.slow_from = slow_from;
        self.invariant = invariant;
        self
    }

    /// Whether output `k` depends only on constants and the slow inputs of
    /// [`Program::hoist`] (false for every output of a program not hoisted).
    pub fn output_is_invariant(&self, k: usize) -> bool {
        self.outputs.get(k).is_some_and(|&r| self.invariant.get(r as usize).copied().unwrap_or(false))
    }

    /// How many instructions run only when a slow input changes.
    pub fn prologue_len(&self) -> usize {
        self.prologue
    }

    fn run_code(&self, code: &[Instr], r: &mut [f64]) {
        for ins in code {
            let a = r[ins.a as usize];
            let v = match ins.op {
                Op::Add => a + r[ins.b as usize],
                Op::Sub => a - r[ins.b as usize],
                Op::Mul => a * r[ins.b as usize],
                Op::Div => a / r[ins.b as usize],
                Op::Neg => -a,
                Op::Recip => 1.0 / a,
                Op::Sqrt => math::sqrt(a),
                Op::Powi(n) => powi_cold(a, n),
                Op::Powf => math::powf(a, r[ins.b as usize]),
                Op::Atan2 => math::atan2(a, r[ins.b as usize]),
                Op::SinCos => {
                    let (s, c) = math::sin_cos(a);
                    r[ins.dst as usize + 1] = c;
                    s
                }
                Op::Call(f) => f.apply(a),
            };
            r[ins.dst as usize] = v;
        }
    }
}

/// Kept out of line so that the dispatch loop stays small.
#[inline(never)]
fn powi_cold(x: f64, n: i32) -> f64 {
    math::powi(x, n)
}

/// Runs a [`Program`] with no allocation per call.
///
/// It remembers what its registers hold: called again with the same inputs (bit
/// for bit), it runs only the instructions not run yet for them. An integrator's
/// last stage and the sample taken at the same state share one evaluation that
/// way, the sample running only the diagnostics after `M`, `F`, `A`, `b`.
#[derive(Clone, Debug)]
pub struct Evaluator {
    program: Program,
    registers: Vec<f64>,
    /// Whether the registers hold the inputs of a call (and the prologue's values
    /// for its slow inputs).
    loaded: bool,
    /// How many instructions after the prologue have run for the loaded inputs.
    computed: usize,
    /// How many times the slow inputs have been loaded with new values.
    slow_changes: u64,
}

impl Evaluator {
    /// The program this evaluator runs.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// Evaluates every output at `inputs` into `out`. Values are not checked: a
    /// caller that needs finite numbers checks `out` (NaN and infinities pass
    /// through as IEEE arithmetic makes them).
    #[inline]
    pub fn eval(&mut self, inputs: &[f64], out: &mut [f64]) -> Result<(), ShapeError> {
        let p = &self.program;
        if inputs.len() != p.inputs || out.len() != p.outputs.len() {
            return Err(ShapeError {
                expected_inputs: p.inputs,
                expected_outputs: p.outputs.len(),
                inputs: inputs.len(),
                outputs: out.len(),
            });
        }
        let end = p.code.len() - p.prologue;
        self.run_prefix(inputs, end);
        let p = &self.program;
        for (o, &r) in out.iter_mut().zip(&p.outputs) {
            *o = self.registers[r as usize];
        }
        Ok(())
    }

    /// How many times the slow inputs of [`Program::hoist`] have been loaded with
    /// new values: a caller that keeps values derived from invariant outputs knows
    /// they are stale when this changes.
    pub fn slow_changes(&self) -> u64 {
        self.slow_changes
    }

    /// Loads `inputs` (unless the registers hold them already) and runs the body up
    /// to instruction `end`, skipping what has run for these inputs.
    fn run_prefix(&mut self, inputs: &[f64], end: usize) {
        // The callers have checked the shape.
        let _ = self.load(inputs);
        self.run_body_to(end);
    }

    /// Whether the registers hold exactly `inputs` (bit for bit), loaded by the
    /// last call: what has run for them is not run again.
    pub fn holds(&self, inputs: &[f64]) -> bool {
        self.loaded && super::same_bits(&self.registers[..self.program.inputs], inputs)
    }

    /// Loads `inputs`, unless the registers hold them already bit for bit, and runs
    /// the prologue when a slow input changed.
    pub fn load(&mut self, inputs: &[f64]) -> Result<(), ShapeError> {
        let p = &self.program;
        if inputs.len() != p.inputs {
            return Err(ShapeError {
                expected_inputs: p.inputs,
                expected_outputs: p.outputs.len(),
                inputs: inputs.len(),
                outputs: p.outputs.len(),
            });
        }
        let same = super::same_bits;
        let held = &self.registers[..p.inputs];
        if self.loaded && same(held, inputs) {
            return Ok(());
        }
        let slow_changed = !self.loaded || !same(&held[p.slow_from..], &inputs[p.slow_from..]);
        self.registers[..p.inputs].copy_from_slice(&inputs[..p.inputs]);
        if slow_changed {
            p.run_code(&p.code[..p.prologue], &mut self.registers);
            self.slow_changes += 1;
        }
        self.loaded = true;
        self.computed = 0;
        Ok(())
    }

    /// Runs the body up to instruction `end` for the loaded inputs, skipping what
    /// has run for them.
    fn run_body_to(&mut self, end: usize) {
        if end > self.computed {
            let p = &self.program;
            let body = &p.code[p.prologue..];
            p.run_code(&body[self.computed..end], &mut self.registers);
            self.computed = end;
        }
    }

    /// After [`Evaluator::load`]: runs what the first `k` outputs need (see
    /// [`Evaluator::eval_first`]); read them with [`Evaluator::read_outputs`].
    pub fn compute_first(&mut self, k: usize) {
        if let Some(last) = k.min(self.program.outputs.len()).checked_sub(1) {
            let end = self.program.body_emitted[last] as usize;
            self.run_body_to(end);
        }
    }

    /// Copies outputs `first..first + out.len()` (computed by
    /// [`Evaluator::compute_first`]) into `out`: a caller reads only what changed.
    pub fn read_outputs(&self, first: usize, out: &mut [f64]) {
        for (o, &r) in out.iter_mut().zip(self.program.outputs.get(first..).unwrap_or_default()) {
            *o = self.registers[r as usize];
        }
    }

    /// Evaluates only the first `out.len()` outputs, running only the instructions
    /// they need (outputs are compiled in order, so these come first): a model's
    /// right-hand side skips the diagnostics compiled after it (energy, residuals),
    /// which are half the program of a small system.
    #[inline]
    pub fn eval_first(&mut self, inputs: &[f64], out: &mut [f64]) -> Result<(), ShapeError> {
        let p = &self.program;
        if inputs.len() != p.inputs || out.len() > p.outputs.len() {
            return Err(ShapeError {
                expected_inputs: p.inputs,
                expected_outputs: p.outputs.len(),
                inputs: inputs.len(),
                outputs: out.len(),
            });
        }
        let Some(last) = out.len().checked_sub(1) else { return Ok(()) };
        let end = p.body_emitted[last] as usize;
        self.run_prefix(inputs, end);
        let p = &self.program;
        for (o, &r) in out.iter_mut().zip(&p.outputs) {
            *o = self.registers[r as usize];
        }
        Ok(())
    }
}
