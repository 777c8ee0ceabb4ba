//! The hook for machine code compiled from a [`Program`] outside the core (the
//! `nhlab-native` crate compiles it with Cranelift for the command line), so that
//! the core stays `no_std`, free of `unsafe` and small in wasm. The core calls such
//! code through [`NativeEvaluator`], which runs the prologue only when a slow input
//! changed, as [`super::Evaluator`] does.

use alloc::sync::Arc;
use alloc::vec::Vec;

use super::{same_bits, Program};

/// A [`Program`] compiled to machine code, giving the interpreter's values. Its
/// inputs and outputs come in parts (a model's `t`, `q`, `v` and parameters; its
/// `q̈`, `λ` and a flag), each a slice of the length fixed when compiling, so that
/// a caller passes its own buffers and nothing is copied.
///
/// Code may have a tail: outputs compiled after the body's (a model's
/// diagnostics), run on demand by [`CompiledCode::tail`] from the values the last
/// body left in the register file, so that a right-hand side does not compute
/// them at every stage and a sample does not compute the right-hand side again.
pub trait CompiledCode: Send + Sync + core::fmt::Debug {
    /// Runs the prologue (the instructions that read only constants and slow
    /// inputs), leaving its values in `registers` (the program's register file).
    /// False, and nothing run, when a slice has the wrong length.
    fn prologue(&self, inputs: &[&[f64]], registers: &mut [f64]) -> bool;
    /// Runs the rest but the tail: the body's `outputs` from `inputs` and the
    /// prologue's values in `registers`, leaving in `registers` what the tail
    /// reads and, with a tail, the fast inputs (every part but the last, in
    /// order) in its first slots, which are the inputs' own and otherwise unused:
    /// what [`NativeEvaluator::holds`] compares with, so that a right-hand side
    /// keeps no copy of its inputs. False, and nothing run, when a slice has the
    /// wrong length.
    fn body(&self, inputs: &[&[f64]], registers: &mut [f64], outputs: &mut [&mut [f64]]) -> bool;
    /// Runs the tail: its `outputs` from the values the prologue and the body left
    /// in `registers`, the inputs among them (the caller makes sure that they are
    /// the inputs it asks for). False, and nothing run, when there is no tail or a
    /// slice has the wrong length.
    fn tail(&self, _registers: &mut [f64], _outputs: &mut [&mut [f64]]) -> bool {
        false
    }
    /// Whether the code has a tail.
    fn has_tail(&self) -> bool {
        false
    }
}

/// A part of a model that runs one [`Program`] whose outputs are one part, and
/// that a host may compile to machine code and have it run instead (the contact
/// forces, the structure-preserving integrators' terms, a linearisation's
/// derivatives): the command line compiles them with Cranelift, the page to
/// WebAssembly, each with one function for all of them.
pub trait CompilesAlone {
    /// The program every evaluation runs.
    fn program(&self) -> &Program;
    /// The lengths of the parts its inputs come in (`t`, `q`, `v`, …, the
    /// parameters last: the slow inputs).
    fn input_parts(&self) -> Vec<usize>;
    /// Runs [`CompilesAlone::program`] as `native` from now on (compiled for
    /// [`CompilesAlone::input_parts`] and one output part); `None` interprets it
    /// again.
    fn set_native(&mut self, native: Option<NativeEvaluator>);
}

/// Runs [`CompiledCode`] with its own registers, remembering the slow inputs (the
/// last input part) and, for the tail, the inputs the body last ran for.
#[derive(Clone, Debug)]
pub struct NativeEvaluator {
    code: Arc<dyn CompiledCode>,
    registers: Vec<f64>,
    /// The slow inputs the prologue last ran for, if `primed`.
    slow: Vec<f64>,
    primed: bool,
    /// How many fast inputs the code takes, once `primed`; after a body, code
    /// with a tail left their values in the first registers.
    fast: usize,
    body_ran: bool,
    /// The code's [`CompiledCode::has_tail`], asked once.
    has_tail: bool,
    /// Whether the tail has run since the body last ran.
    tail_ran: bool,
}

impl NativeEvaluator {
    /// An evaluator of `code`, compiled from `program`.
    pub fn new(program: &Program, code: Arc<dyn CompiledCode>) -> Self {
        NativeEvaluator {
            has_tail: code.has_tail(),
            code,
            registers: alloc::vec![0.0; program.registers],
            slow: Vec::new(),
            primed: false,
            fast: 0,
            body_ran: false,
            tail_ran: false,
        }
    }

    /// Evaluates the body's outputs at `inputs`, in the parts the code was
    /// compiled for (the last part holds the slow inputs of [`Program::hoist`]);
    /// false when the shapes are wrong.
    pub fn eval(&mut self, inputs: &[&[f64]], outputs: &mut [&mut [f64]]) -> bool {
        let (slow, fast) = inputs.split_last().map_or((&[][..], &[][..]), |(slow, fast)| (*slow, fast));
        self.body_ran = false;
        self.tail_ran = false;
        if !(self.primed && same_bits(&self.slow, slow)) {
            self.primed = self.code.prologue(inputs, &mut self.registers);
            if !self.primed {
                return false;
            }
            self.slow.clear();
            self.slow.extend_from_slice(slow);
            // The prologue checked the parts' lengths, which the body checks
            // again: the count holds while the slow inputs do.
            self.fast = fast.iter().map(|part| part.len()).sum();
        }
        let ran = self.code.body(inputs, &mut self.registers, outputs);
        // With a tail, the code stored the fast inputs (a copy here cost a small
        // model's right-hand side a fifth of its time).
        self.body_ran = ran && self.has_tail;
        ran
    }

    /// Whether the code has a tail ([`CompiledCode::tail`]).
    pub fn has_tail(&self) -> bool {
        self.has_tail
    }

    /// Whether the last [`NativeEvaluator::eval`] ran for exactly these inputs (bit
    /// for bit), so that [`NativeEvaluator::eval_tail`] may follow it.
    pub fn holds(&self, inputs: &[&[f64]]) -> bool {
        let Some((slow, fast)) = inputs.split_last() else { return false };
        if !self.body_ran || !same_bits(&self.slow, slow) {
            return false;
        }
        let Some(mut held) = self.registers.get(..self.fast) else { return false };
        for part in fast {
            let Some((now, rest)) = held.split_at_checked(part.len()) else { return false };
            if !same_bits(now, part) {
                return false;
            }
            held = rest;
        }
        held.is_empty()
    }

    /// Evaluates the tail's outputs at `inputs`, which must be those of the last
    /// [`NativeEvaluator::eval`] ([`NativeEvaluator::holds`]); false otherwise,
    /// without a tail or when the shapes are wrong. It runs each time it is asked,
    /// so that its outputs may go to a new place each time (a sample's columns go
    /// straight into the sample's row).
    pub fn eval_tail(&mut self, inputs: &[&[f64]], outputs: &mut [&mut [f64]]) -> bool {
        self.tail_ran = self.holds(inputs) && self.code.tail(&mut self.registers, outputs);
        self.tail_ran
    }

    /// Whether [`NativeEvaluator::eval_tail`] has run for exactly these inputs
    /// since the body last ran (how a caller tells that a sample's numbers came
    /// from the tail).
    pub fn tail_holds(&self, inputs: &[&[f64]]) -> bool {
        self.tail_ran && self.holds(inputs)
    }
}

/// Writes each part's address (a pointer, or an offset in wasm's memory) into
/// `out`, in place, when the slices have exactly the lengths `parts` the code was
/// compiled for and `out` has room for them: the check every back end makes
/// before running its code. False, `out` partly written, otherwise. (Filled in
/// place, not returned: a returned array is copied with wide moves that stall on
/// the narrow stores that just wrote it, which cost a small model's right-hand
/// side a tenth of its time.)
pub fn part_addresses<A: Copy>(
    parts: &[usize],
    slices: impl ExactSizeIterator<Item = (usize, A)>,
    out: &mut [A],
) -> bool {
    if slices.len() != parts.len() || parts.len() > out.len() {
        return false;
    }
    for ((slot, (len, address)), &want) in out.iter_mut().zip(slices).zip(parts) {
        if len != want {
            return false;
        }
        *slot = address;
    }
    true
}
