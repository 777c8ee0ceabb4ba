//! Compilation of many expressions together into one [`Program`]: the inner loop of
//! every simulation.
//!
//! Shared subexpressions are computed once twice over: the graph is hash-consed, and
//! lowering numbers values, so that also partial products and sums that recur
//! across outputs (`a*m` in `a*m*sin(φ)` and `a*m*cos(φ)`) become one instruction.
//! Negative terms become subtractions and negative powers divisions, so the code is
//! what one would write by hand.

mod block;
mod native;
mod program;

pub use block::{Arithmetic, Block, Numbers, Value};
pub use native::{part_addresses, CompiledCode, CompilesAlone, NativeEvaluator};
pub use program::{Evaluator, Instr, Op, Program, Reg, ShapeError};

use alloc::string::String;
use alloc::vec::Vec;
use hashbrown::HashMap;

use super::graph::{ExprGraph, ExprId, Function, Node};
use core::ops::Neg;

use super::number::Number;
use super::symbols::{SymbolId, SymbolKind};

/// Whether two slices hold the same numbers bit for bit: how the evaluators tell
/// that their registers hold a call's inputs already.
pub(crate) fn same_bits(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
}

/// Why expressions could not be compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompileError {
    /// An expression uses a symbol that is not among the inputs.
    UnboundSymbol(String),
    /// A definition without a body (its batch failed to resolve).
    UndefinedDefinition(String),
}

crate::message::words_are_the_message!(CompileError);

impl CompileError {
    /// Why, as a message with an id; its English is what `Display` writes.
    pub fn message(&self) -> crate::message::Message {
        use crate::message::problem;
        match self {
            CompileError::UnboundSymbol(name) => problem::compile_unbound(name),
            CompileError::UndefinedDefinition(name) => problem::compile_undefined(name),
        }
    }
}

/// Where an operand lives before registers are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Operand {
    Input(u32),
    Constant(u32),
    Temp(u32),
}

struct Lowering<'g> {
    graph: &'g ExprGraph,
    inputs: HashMap<SymbolId, u32>,
    constants: Vec<f64>,
    constant_index: HashMap<u64, u32>,
    /// Instructions with the first temporary each writes.
    code: Vec<(Op, Operand, Operand, u32)>,
    temps: u32,
    /// Arguments whose sine and cosine are both needed: computed by one `SinCos`.
    sin_cos_args: hashbrown::HashSet<ExprId>,
    numbering: HashMap<(Op, Operand, Operand), Operand>,
    lowered: HashMap<ExprId, Operand>,
}

impl ExprGraph {
    /// Compiles `outputs` into one program whose inputs are the values of `inputs`,
    /// in that order.
    pub fn compile(&self, outputs: &[ExprId], inputs: &[SymbolId]) -> Result<Program, CompileError> {
        self.compile_with_block(outputs, inputs, |_, _| Vec::new())
    }

    /// Like [`ExprGraph::compile`], with straight-line code written by `block` after
    /// the outputs: it receives their values and returns the program's outputs (a
    /// model's linear solve, `formulations/elimination.rs`, whose code a native
    /// back end compiles with the terms it reads).
    pub fn compile_with_block(
        &self,
        outputs: &[ExprId],
        inputs: &[SymbolId],
        block: impl FnOnce(&mut Block, &[Value]) -> Vec<Value>,
    ) -> Result<Program, CompileError> {
        self.compile_with_block_and_tail(outputs, inputs, block, &[])
    }

    /// Like [`ExprGraph::compile_with_block`], with `tail` compiled after the block
    /// as the last outputs, sharing the values computed before it: a model's
    /// diagnostics (energy, residuals, Hamel's terms) after its right-hand side, so
    /// that a back end can run them only for a sample, from the values the
    /// right-hand side left ([`Program::body_instructions_for_first`] says where
    /// they start).
    pub fn compile_with_block_and_tail(
        &self,
        outputs: &[ExprId],
        inputs: &[SymbolId],
        block: impl FnOnce(&mut Block, &[Value]) -> Vec<Value>,
        tail: &[ExprId],
    ) -> Result<Program, CompileError> {
        self.compile_with_blocks(outputs, inputs, block, tail, |_, _| Vec::new())
    }

    /// Like [`ExprGraph::compile_with_block_and_tail`], with `tail_block` written
    /// against the tail's values and its results appended to the tail's outputs:
    /// what a sample reads, reduced in the program to the few numbers it stores
    /// and tests (a finiteness flag, `x − x` summed, is not an expression the
    /// graph keeps: it simplifies to 0).
    pub fn compile_with_blocks(
        &self,
        outputs: &[ExprId],
        inputs: &[SymbolId],
        block: impl FnOnce(&mut Block, &[Value]) -> Vec<Value>,
        tail: &[ExprId],
        tail_block: impl FnOnce(&mut Block, &[Value]) -> Vec<Value>,
    ) -> Result<Program, CompileError> {
        let every: Vec<ExprId> = outputs.iter().chain(tail).copied().collect();
        let mut l = Lowering {
            graph: self,
            inputs: inputs.iter().enumerate().map(|(i, &s)| (s, i as u32)).collect(),
            constants: Vec::new(),
            constant_index: HashMap::new(),
            code: Vec::new(),
            temps: 0,
            sin_cos_args: self.sin_cos_pairs(&every),
            numbering: HashMap::new(),
            lowered: HashMap::new(),
        };
        let mut emitted = Vec::with_capacity(outputs.len());
        let mut outs = Vec::with_capacity(outputs.len());
        for &e in outputs {
            outs.push(l.lower(e)?);
            emitted.push(l.code.len() as u32);
        }
        let values: Vec<Value> = outs.iter().map(|&o| Value(o)).collect();
        let appended = block(&mut Block { lowering: &mut l }, &values);
        if !appended.is_empty() {
            outs = appended.into_iter().map(|Value(o)| o).collect();
            let end = l.code.len() as u32;
            emitted = alloc::vec![end; outs.len()];
        }
        let mut tail_values = Vec::with_capacity(tail.len());
        for &e in tail {
            let o = l.lower(e)?;
            tail_values.push(Value(o));
            outs.push(o);
            emitted.push(l.code.len() as u32);
        }
        for Value(o) in tail_block(&mut Block { lowering: &mut l }, &tail_values) {
            outs.push(o);
            emitted.push(l.code.len() as u32);
        }
        let (n_in, n_const) = (inputs.len() as u32, l.constants.len() as u32);
        let place = |o: Operand| match o {
            Operand::Input(i) => i,
            Operand::Constant(k) => n_in + k,
            Operand::Temp(t) => n_in + n_const + t,
        };
        let code: Vec<Instr> = l
            .code
            .iter()
            .map(|&(op, a, b, t)| Instr { op, dst: n_in + n_const + t, a: place(a), b: place(b) })
            .collect();
        Ok(Program {
            inputs: inputs.len(),
            constants: l.constants,
            code,
            outputs: outs.into_iter().map(place).collect(),
            registers: (n_in + n_const + l.temps) as usize,
            body_emitted: emitted.clone(),
            emitted,
            prologue: 0,
            slow_from: inputs.len(),
            invariant: Vec::new(),
        })
    }

    /// Arguments `u` such that both `sin(u)` and `cos(u)` are reachable from `outputs`.
    fn sin_cos_pairs(&self, outputs: &[ExprId]) -> hashbrown::HashSet<ExprId> {
        let (mut sines, mut cosines) = (hashbrown::HashSet::new(), hashbrown::HashSet::new());
        self.walk(outputs, true, |_, node| match node {
            Node::Call(Function::Sin, u) => {
                sines.insert(*u);
            }
            Node::Call(Function::Cos, u) => {
                cosines.insert(*u);
            }
            _ => {}
        });
        sines.intersection(&cosines).copied().collect()
    }
}

impl Lowering<'_> {
    fn constant(&mut self, x: f64) -> Operand {
        let next = self.constants.len() as u32;
        let k = *self.constant_index.entry(x.to_bits()).or_insert(next);
        if k == next {
            self.constants.push(x);
        }
        Operand::Constant(k)
    }

    fn emit(&mut self, op: Op, mut a: Operand, mut b: Operand) -> Operand {
        if !op.is_binary() {
            b = a;
        } else if op.is_commutative() && b < a {
            core::mem::swap(&mut a, &mut b);
        }
        if let Some(&r) = self.numbering.get(&(op, a, b)) {
            return r;
        }
        let r = Operand::Temp(self.temps);
        self.temps += if op == Op::SinCos { 2 } else { 1 };
        self.code.push((op, a, b, self.temps - if op == Op::SinCos { 2 } else { 1 }));
        self.numbering.insert((op, a, b), r);
        r
    }

    fn lower(&mut self, e: ExprId) -> Result<Operand, CompileError> {
        if let Some(&r) = self.lowered.get(&e) {
            return Ok(r);
        }
        let g = self.graph;
        let r = match g.node(e) {
            Node::Number(n) => self.constant(n.to_f64()),
            Node::Symbol(s) => match g.symbol(*s).kind {
                SymbolKind::Pi => self.constant(core::f64::consts::PI),
                _ => match self.inputs.get(s) {
                    Some(&i) => Operand::Input(i),
                    None => return Err(CompileError::UnboundSymbol(g.display_symbol(*s))),
                },
            },
            Node::Definition(d) => match g.definition(*d).body {
                Some(body) => self.lower(body)?,
                None => return Err(CompileError::UndefinedDefinition(g.definition(*d).name.clone())),
            },
            Node::Add(terms) => self.lower_sum(terms)?,
            Node::Mul(factors) => {
                let (c, rest) = match g.node(factors[0]) {
                    Node::Number(c) => (*c, &factors[1..]),
                    _ => (Number::ONE, &factors[..]),
                };
                let magnitude = self.lower_product(c.abs(), rest)?;
                if c.is_negative() {
                    self.emit(Op::Neg, magnitude, magnitude)
                } else {
                    magnitude
                }
            }
            Node::Pow(b, x) => match g.as_number(*x) {
                Some(n) if n.is_negative() => {
                    let p = self.lower_power(*b, n.neg())?;
                    self.emit(Op::Recip, p, p)
                }
                Some(n) => self.lower_power(*b, n)?,
                None => {
                    let (b, x) = (self.lower(*b)?, self.lower(*x)?);
                    self.emit(Op::Powf, b, x)
                }
            },
            Node::Call(f @ (Function::Sin | Function::Cos), u) if self.sin_cos_args.contains(u) => {
                let u = self.lower(*u)?;
                match self.emit(Op::SinCos, u, u) {
                    Operand::Temp(k) if *f == Function::Cos => Operand::Temp(k + 1),
                    sine => sine,
                }
            }
            Node::Call(f, u) => {
                let u = self.lower(*u)?;
                self.emit(Op::Call(*f), u, u)
            }
            Node::Atan2(y, x) => {
                let (y, x) = (self.lower(*y)?, self.lower(*x)?);
                self.emit(Op::Atan2, y, x)
            }
        };
        self.lowered.insert(e, r);
        Ok(r)
    }

    /// A sum with negative terms subtracted.
    fn lower_sum(&mut self, terms: &[ExprId]) -> Result<Operand, CompileError> {
        let g = self.graph;
        let mut signed = Vec::with_capacity(terms.len());
        for &t in terms {
            let (negative, magnitude) = match g.node(t) {
                Node::Number(n) if n.is_negative() => (true, self.constant(n.neg().to_f64())),
                Node::Mul(fs) => match g.as_number(fs[0]) {
                    Some(c) if c.is_negative() => (true, self.lower_product(c.neg(), &fs[1..])?),
                    _ => (false, self.lower(t)?),
                },
                _ => (false, self.lower(t)?),
            };
            signed.push((negative, magnitude));
        }
        let first = signed.iter().position(|&(negative, _)| !negative).unwrap_or(0);
        let (negative, mut acc) = signed[first];
        if negative {
            acc = self.emit(Op::Neg, acc, acc);
        }
        for (i, &(negative, x)) in signed.iter().enumerate() {
            if i != first {
                acc = self.emit(if negative { Op::Sub } else { Op::Add }, acc, x);
            }
        }
        Ok(acc)
    }

    /// `c * Π factors` for `c > 0`, with negative powers as one division.
    fn lower_product(&mut self, c: Number, factors: &[ExprId]) -> Result<Operand, CompileError> {
        let g = self.graph;
        let mut numerator = Vec::with_capacity(factors.len() + 1);
        let mut denominator = Vec::new();
        if !c.is_one() {
            numerator.push(self.constant(c.to_f64()));
        }
        for &f in factors {
            match g.node(f) {
                Node::Pow(b, x) => match g.as_number(*x) {
                    Some(n) if n.is_negative() => denominator.push(self.lower_power(*b, n.neg())?),
                    _ => numerator.push(self.lower(f)?),
                },
                _ => numerator.push(self.lower(f)?),
            }
        }
        let num = self.chain(Op::Mul, &numerator);
        let den = self.chain(Op::Mul, &denominator);
        Ok(match (num, den) {
            (Some(n), Some(d)) => self.emit(Op::Div, n, d),
            (Some(n), None) => n,
            (None, Some(d)) => self.emit(Op::Recip, d, d),
            (None, None) => self.constant(1.0),
        })
    }

    fn chain(&mut self, op: Op, xs: &[Operand]) -> Option<Operand> {
        let (&first, rest) = xs.split_first()?;
        Some(rest.iter().fold(first, |acc, &x| self.emit(op, acc, x)))
    }

    /// `b^e` for a positive number `e`.
    fn lower_power(&mut self, b: ExprId, e: Number) -> Result<Operand, CompileError> {
        let base = self.lower(b)?;
        Ok(if e.is_one() {
            base
        } else if e == Number::HALF {
            self.emit(Op::Sqrt, base, base)
        } else if e == Number::from(2) {
            self.emit(Op::Mul, base, base)
        } else if let Some(n) = e.as_integer().and_then(|n| i32::try_from(n).ok()) {
            self.emit(Op::Powi(n), base, base)
        } else {
            let x = self.constant(e.to_f64());
            self.emit(Op::Powf, base, x)
        })
    }
}
