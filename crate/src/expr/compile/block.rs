//! Straight-line code that a caller appends to a compiled program, written against
//! the values of its outputs: a model's linear solve for its own sizes and
//! sparsity (`formulations/elimination.rs`), so that a native back end compiles the
//! right-hand side as one function, not a function and then loops over dense
//! matrices.
//!
//! Operands that are constants when compiling are folded: a structural zero of `M`
//! or `A` removes the products it would enter, and `1·x` is `x`. Folding is exact
//! IEEE arithmetic, so a folded value equals the one computed at run time, except
//! that `0·x` is `0` even where `x` would be infinite or NaN at run time; callers
//! check the block's results for finiteness (the Lagrange solve folds that check
//! into its flag, `formulations/elimination.rs`), and every run-time value still reaches
//! one of them.

use super::{Lowering, Op, Operand};
use crate::expr::Function;

/// A value in a [`Block`]: an output before the block, a constant or a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value(pub(super) Operand);

/// Arithmetic that emits instructions into the program being compiled.
pub struct Block<'l, 'g> {
    pub(super) lowering: &'l mut Lowering<'g>,
}

/// Arithmetic on values some of which are known constants, folding what is known:
/// [`Block`] emits the rest as instructions; a counter (`formulations/elimination.rs`)
/// counts them beforehand, with the same folding.
pub trait Arithmetic {
    /// A value: known or not.
    type V: Copy;
    /// The constant `x`.
    fn constant(&mut self, x: f64) -> Self::V;
    /// `v`'s value when it is a constant.
    fn known(&self, v: Self::V) -> Option<f64>;
    /// `op(a, b)` on values not both known.
    fn emit(&mut self, op: Op, a: Self::V, b: Self::V) -> Self::V;

    /// `a + b`.
    fn add(&mut self, a: Self::V, b: Self::V) -> Self::V {
        match (self.known(a), self.known(b)) {
            (Some(x), Some(y)) => self.constant(x + y),
            (Some(0.0), _) => b,
            (_, Some(0.0)) => a,
            _ => self.emit(Op::Add, a, b),
        }
    }

    /// `a − b`.
    fn sub(&mut self, a: Self::V, b: Self::V) -> Self::V {
        match (self.known(a), self.known(b)) {
            (Some(x), Some(y)) => self.constant(x - y),
            (_, Some(0.0)) => a,
            (Some(0.0), _) => self.emit(Op::Neg, b, b),
            _ => self.emit(Op::Sub, a, b),
        }
    }

    /// `a · b`.
    fn mul(&mut self, a: Self::V, b: Self::V) -> Self::V {
        match (self.known(a), self.known(b)) {
            (Some(x), Some(y)) => self.constant(x * y),
            (Some(0.0), _) | (_, Some(0.0)) => self.constant(0.0),
            (Some(1.0), _) => b,
            (_, Some(1.0)) => a,
            _ => self.emit(Op::Mul, a, b),
        }
    }

    /// `a / b`.
    fn div(&mut self, a: Self::V, b: Self::V) -> Self::V {
        match (self.known(a), self.known(b)) {
            (Some(x), Some(y)) => self.constant(x / y),
            (Some(0.0), _) => a,
            (_, Some(1.0)) => a,
            _ => self.emit(Op::Div, a, b),
        }
    }

    /// `(1 + sign(a − b))/2`: 1 where `a > b`, 0 where `a < b`, ½ at a tie and NaN
    /// where either is NaN: a comparison as arithmetic, for code without branches
    /// (a pivot accepted, a shortcut taken).
    fn above(&mut self, a: Self::V, b: Self::V) -> Self::V {
        let difference = self.sub(a, b);
        let sign = self.unary(Op::Call(Function::Sign), difference);
        let one = self.constant(1.0);
        let half = self.constant(0.5);
        let step = self.add(one, sign);
        self.mul(step, half)
    }

    /// `|a|` or `sign(a)` (`op` calls [`Function::Abs`] or [`Function::Sign`]).
    fn unary(&mut self, op: Op, a: Self::V) -> Self::V {
        match (op, self.known(a)) {
            (Op::Call(Function::Abs), Some(x)) => self.constant(crate::math::abs(x)),
            (Op::Call(Function::Sign), Some(x)) => self.constant(crate::math::sign(x)),
            _ => self.emit(op, a, a),
        }
    }

    /// `1 / a`.
    fn recip(&mut self, a: Self::V) -> Self::V {
        match self.known(a) {
            Some(x) => self.constant(1.0 / x),
            None => self.emit(Op::Recip, a, a),
        }
    }
}

/// Arithmetic on plain numbers with nothing folded: each operation as the
/// compiled code does it (a written-out algorithm run on numbers, for a shortcut
/// or a test).
pub struct Numbers;

impl Arithmetic for Numbers {
    type V = f64;
    fn constant(&mut self, x: f64) -> f64 {
        x
    }
    fn known(&self, _: f64) -> Option<f64> {
        None
    }
    fn emit(&mut self, op: Op, a: f64, b: f64) -> f64 {
        match op {
            Op::Add => a + b,
            Op::Sub => a - b,
            Op::Mul => a * b,
            Op::Div => a / b,
            Op::Neg => -a,
            Op::Call(Function::Sign) => crate::math::sign(a),
            Op::Call(Function::Abs) => crate::math::abs(a),
            Op::Recip => 1.0 / a,
            other => unreachable!("{other:?}"),
        }
    }
}

impl Arithmetic for Block<'_, '_> {
    type V = Value;

    fn constant(&mut self, x: f64) -> Value {
        Value(self.lowering.constant(x))
    }

    fn known(&self, v: Value) -> Option<f64> {
        match v.0 {
            Operand::Constant(k) => self.lowering.constants.get(k as usize).copied(),
            _ => None,
        }
    }

    fn emit(&mut self, op: Op, a: Value, b: Value) -> Value {
        Value(self.lowering.emit(op, a.0, b.0))
    }
}
