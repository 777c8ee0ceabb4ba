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
        let x = self.rebuilt_with(e, |g, c| g.replace_subexpressions(c, with, memo));
        memo.insert(e, x);
        x
    }

    /// The direct subexpressions of `e`, in order (none for numbers, symbols and
    /// definitions, which are leaves of a printed or rebuilt expression).
    pub fn children(&self, e: ExprId) -> Vec<ExprId> {
        match self.node(e) {
            Node::Number(_) | Node::Symbol(_) | Node::Definition(_) => Vec::new(),
            Node::Add(xs) | Node::Mul(xs) => xs.to_vec(),
            Node::Pow(a, b) | Node::Atan2(a, b) => alloc::vec![*a, *b],
            Node::Call(_, u) => alloc::vec![*u],
        }
    }

    /// `e` rebuilt canonically with each child `c` replaced by `with(self, c)`, in
    /// [`children`](Self::children)'s order: the one step of every bottom-up rewrite
    /// (expansion, tidying, substitution of subexpressions). A leaf is `e` itself.
    pub(super) fn rebuilt_with(&mut self, e: ExprId, mut with: impl FnMut(&mut Self, ExprId) -> ExprId) -> ExprId {
        let children: Vec<ExprId> = self.children(e).into_iter().map(|c| with(self, c)).collect();
        self.rebuild(e, &children)
    }

    /// `e` rebuilt canonically with `children` (as [`children`](Self::children)
    /// lists them) in place of its own; a leaf is `e` itself.
    fn rebuild(&mut self, e: ExprId, children: &[ExprId]) -> ExprId {
        match self.node(e).clone() {
            Node::Add(_) => self.add(children),
            Node::Mul(_) => self.mul(children),
            Node::Pow(..) => self.pow(children[0], children[1]),
            Node::Call(f, _) => self.call(f, children[0]),
            Node::Atan2(..) => self.atan2(children[0], children[1]),
            Node::Number(_) | Node::Symbol(_) | Node::Definition(_) => e,
        }
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
            _ => {
                let children: Vec<ExprId> =
                    self.children(e).into_iter().map(|c| self.substitute_memo(c, with, memo)).collect();
                self.rebuild(e, &children)
            }
        };
        memo.insert(e, x);
        x
    }
}
