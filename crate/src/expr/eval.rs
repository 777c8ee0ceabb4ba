//! Direct evaluation of an expression by walking the graph: simple and slow, for
//! one-off values and as an independent check of the compiled evaluator.

use hashbrown::HashMap;

use super::graph::{ExprGraph, ExprId, Node};
use super::symbols::{SymbolId, SymbolKind};
use crate::math;

impl ExprGraph {
    /// The value of `e` with each symbol's value given by `value`. Shared
    /// subexpressions are evaluated once.
    pub fn evaluate(&self, e: ExprId, value: &dyn Fn(SymbolId) -> f64) -> f64 {
        let mut memo = HashMap::new();
        self.evaluate_memo(e, value, &mut memo)
    }

    fn evaluate_memo(&self, e: ExprId, value: &dyn Fn(SymbolId) -> f64, memo: &mut HashMap<ExprId, f64>) -> f64 {
        if let Some(&v) = memo.get(&e) {
            return v;
        }
        let mut ev = |x: ExprId| self.evaluate_memo(x, value, memo);
        let v = match self.node(e) {
            Node::Number(n) => n.to_f64(),
            Node::Symbol(s) if self.symbol(*s).kind == SymbolKind::Pi => core::f64::consts::PI,
            Node::Symbol(s) => value(*s),
            Node::Definition(id) => self.definition(*id).body.map_or(f64::NAN, ev),
            Node::Add(cs) => cs.iter().map(|&c| ev(c)).sum(),
            Node::Mul(cs) => cs.iter().map(|&c| ev(c)).product(),
            Node::Pow(b, x) => {
                let (b, x) = (ev(*b), ev(*x));
                if x == libm::trunc(x) && x.abs() <= i32::MAX as f64 {
                    math::powi(b, x as i32)
                } else {
                    math::powf(b, x)
                }
            }
            Node::Call(f, u) => f.apply(ev(*u)),
            Node::Atan2(y, x) => {
                let y = ev(*y);
                math::atan2(y, ev(*x))
            }
        };
        memo.insert(e, v);
        v
    }
}
