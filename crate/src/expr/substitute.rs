//! Substitution of expressions for symbols, e.g. `a = 0` to split the equations of
//! motion `R(q, v, a, t) = M a − F` into mass matrix and forcing.

use alloc::vec::Vec;
use hashbrown::HashMap;

use super::graph::{ExprGraph, ExprId, Node};
use super::symbols::SymbolId;

impl ExprGraph {
    /// `e` with every symbol `s` for which `with(s)` is `Some(x)` replaced by `x`,
    /// inside definitions too (a definition that changes is inlined; one that does
    /// not stays shared). The result is canonical.
    pub fn substitute(&mut self, e: ExprId, with: &dyn Fn(SymbolId) -> Option<ExprId>) -> ExprId {
        let mut memo = HashMap::new();
        self.substitute_memo(e, with, &mut memo)
    }

    /// `e` with each subexpression that is a key of `with` replaced by its value
    /// (outermost first; definitions are left as they are). `memo` carries the work
    /// over calls that share subexpressions.
    pub fn replace_subexpressions(
        &mut self,
        e: ExprId,
        with: &HashMap<ExprId, ExprId>,
        memo: &mut HashMap<ExprId, ExprId>,
    ) -> ExprId {
        match with.get(&e) {
            Some(&x) => x,
            None => self.replace_below(e, with, memo),
        }
    }

    /// `e` with the subexpressions strictly below it replaced as in
    /// [`replace_subexpressions`](Self::replace_subexpressions), `e` itself kept: the
    /// body of a named subexpression in terms of the names below it.
    pub fn replace_below(
        &mut self,
        e: ExprId,
        with: &HashMap<ExprId, ExprId>,
        memo: &mut HashMap<ExprId, ExprId>,
    ) -> ExprId {
        if let Some(&x) = memo.get(&e) {
            return x;
        }
        let x = match self.node(e).clone() {
            Node::Number(_) | Node::Symbol(_) | Node::Definition(_) => e,
            Node::Add(terms) => {
                let terms: Vec<ExprId> = terms.iter().map(|&t| self.replace_subexpressions(t, with, memo)).collect();
                self.add(&terms)
            }
            Node::Mul(factors) => {
                let factors: Vec<ExprId> =
                    factors.iter().map(|&f| self.replace_subexpressions(f, with, memo)).collect();
                self.mul(&factors)
            }
            Node::Pow(b, x) => {
                let (b, x) = (self.replace_subexpressions(b, with, memo), self.replace_subexpressions(x, with, memo));
                self.pow(b, x)
            }
            Node::Call(f, u) => {
                let u = self.replace_subexpressions(u, with, memo);
                self.call(f, u)
            }
            Node::Atan2(y, x) => {
                let (y, x) = (self.replace_subexpressions(y, with, memo), self.replace_subexpressions(x, with, memo));
                self.atan2(y, x)
            }
        };
        memo.insert(e, x);
        x
    }

    fn substitute_memo(
        &mut self,
        e: ExprId,
        with: &dyn Fn(SymbolId) -> Option<ExprId>,
        memo: &mut HashMap<ExprId, ExprId>,
    ) -> ExprId {
        if let Some(&x) = memo.get(&e) {
            return x;
        }
        let x = match self.node(e).clone() {
            Node::Number(_) => e,
            Node::Symbol(s) => with(s).unwrap_or(e),
            Node::Definition(d) => match self.definition(d).body {
                Some(body) => {
                    let replaced = self.substitute_memo(body, with, memo);
                    if replaced == body {
                        e
                    } else {
                        replaced
                    }
                }
                None => e,
            },
            Node::Add(terms) => {
                let terms: Vec<ExprId> = terms.iter().map(|&t| self.substitute_memo(t, with, memo)).collect();
                self.add(&terms)
            }
            Node::Mul(factors) => {
                let factors: Vec<ExprId> = factors.iter().map(|&f| self.substitute_memo(f, with, memo)).collect();
                self.mul(&factors)
            }
            Node::Pow(b, x) => {
                let (b, x) = (self.substitute_memo(b, with, memo), self.substitute_memo(x, with, memo));
                self.pow(b, x)
            }
            Node::Call(f, u) => {
                let u = self.substitute_memo(u, with, memo);
                self.call(f, u)
            }
            Node::Atan2(y, x) => {
                let (y, x) = (self.substitute_memo(y, with, memo), self.substitute_memo(x, with, memo));
                self.atan2(y, x)
            }
        };
        memo.insert(e, x);
        x
    }
}
