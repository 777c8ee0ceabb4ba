//! Expansion: products of sums distributed and small integer powers of sums
//! multiplied out, so that terms which cancel only after distribution do cancel
//! (`m*(x' - a*φ'*sin φ)*cos φ + …`). Canonical construction does not expand by
//! itself, because expansion can grow an expression a lot; derivations call this
//! where they want a normal form, and a size limit keeps it from blowing up.

use alloc::vec::Vec;
use hashbrown::HashMap;

use super::graph::{ExprGraph, ExprId, Node};

/// Most terms one product may expand into; larger products stay factored.
pub const MAX_EXPANDED_TERMS: usize = 256;
/// Highest integer power of a sum that is multiplied out.
pub const MAX_EXPANDED_POWER: i64 = 4;

impl ExprGraph {
    /// `e` with products distributed over sums (within [`MAX_EXPANDED_TERMS`]) and
    /// powers of sums up to [`MAX_EXPANDED_POWER`] multiplied out, everywhere
    /// including inside function arguments. Definitions stay as they are.
    ///
    /// What was expanded is remembered for the graph's lifetime (nodes never change,
    /// definitions are leaves here): the entries of `M` and `F` share most of their
    /// subterms, and expanding each afresh was half of deriving a large model.
    pub fn expand(&mut self, e: ExprId) -> ExprId {
        let mut memo = core::mem::take(&mut self.expanded);
        let x = self.expand_memo(e, &mut memo);
        self.expanded = memo;
        x
    }

    fn expand_memo(&mut self, e: ExprId, memo: &mut HashMap<ExprId, ExprId>) -> ExprId {
        if let Some(&x) = memo.get(&e) {
            return x;
        }
        let x = match self.node(e).clone() {
            Node::Number(_) | Node::Symbol(_) | Node::Definition(_) => e,
            // The node is already cloned: its terms are not copied again.
            Node::Add(terms) => {
                let terms: Vec<ExprId> = terms.iter().map(|&t| self.expand_memo(t, memo)).collect();
                self.add(&terms)
            }
            Node::Mul(factors) => {
                let factors: Vec<ExprId> = factors.iter().map(|&f| self.expand_memo(f, memo)).collect();
                self.distribute(&factors)
            }
            Node::Pow(b, x) => {
                let (b, x) = (self.expand_memo(b, memo), self.expand_memo(x, memo));
                match (self.as_number(x).and_then(|n| n.as_integer()), self.node(b)) {
                    (Some(n), Node::Add(_)) if (2..=MAX_EXPANDED_POWER).contains(&n) => {
                        let copies = alloc::vec![b; n as usize];
                        self.distribute(&copies)
                    }
                    _ => self.pow(b, x),
                }
            }
            Node::Call(..) | Node::Atan2(..) => self.rebuilt_with(e, |g, c| g.expand_memo(c, memo)),
        };
        memo.insert(e, x);
        x
    }

    /// [`expand`](Self::expand) when `e` has at most `budget` nodes, whatever the
    /// size of the result: for printing a quantity whose expanded form reads better
    /// (`T` of a body, where `sin² + cos²` collapse only once distributed).
    pub fn expand_for_reading(&mut self, e: ExprId, budget: usize) -> ExprId {
        if self.size(e) <= budget {
            self.expand(e)
        } else {
            e
        }
    }

    /// How many terms [`expand`](Self::expand) would give `e` before cancelling
    /// (function arguments count as one term; saturating).
    fn expanded_terms(&self, e: ExprId, memo: &mut HashMap<ExprId, usize>) -> usize {
        if let Some(&n) = memo.get(&e) {
            return n;
        }
        let n = match self.node(e) {
            Node::Add(terms) => terms.iter().fold(0usize, |n, &t| n.saturating_add(self.expanded_terms(t, memo))),
            Node::Mul(factors) => factors.iter().fold(1usize, |n, &f| {
                let k = self.expanded_terms(f, memo);
                // A product past the limit stays factored: one term.
                if n.saturating_mul(k) <= MAX_EXPANDED_TERMS {
                    n * k
                } else {
                    n
                }
            }),
            Node::Pow(b, x) => match (self.as_number(*x).and_then(|n| n.as_integer()), self.node(*b)) {
                (Some(k), Node::Add(_)) if (2..=MAX_EXPANDED_POWER).contains(&k) => {
                    let base = self.expanded_terms(*b, memo);
                    base.saturating_pow(k as u32).min(MAX_EXPANDED_TERMS)
                }
                _ => 1,
            },
            _ => 1,
        };
        memo.insert(e, n);
        n
    }

    /// Number of distinct nodes reachable from `e` (through definitions too): the
    /// size that derivations budget against.
    pub fn size(&self, e: ExprId) -> usize {
        let mut n = 0;
        self.walk(&[e], true, |_, _| n += 1);
        n
    }

    /// [`expand`](Self::expand) when `e` has at most `budget` nodes and its expansion
    /// is no larger than `e`, else `e` as it is. Expansion makes cancellations
    /// visible but can multiply the size of a product of sums (a rolling contact's
    /// terms); past the budget, readability is lost anyway
    /// and speed wins.
    pub fn expand_within(&mut self, e: ExprId, budget: usize) -> ExprId {
        let size = self.size(e);
        // Each term of the expansion is at least one node of its own: more terms
        // than `e` has nodes cannot come out smaller, so skip the work (most of the
        // bicycle's derive went into expansions that were then thrown away).
        if size > budget || self.expanded_terms(e, &mut HashMap::new()) > size {
            return e;
        }
        let expanded = self.expand(e);
        if self.size(expanded) <= size {
            expanded
        } else {
            e
        }
    }

    /// The product of already expanded factors, distributed over the sums among
    /// them when the result stays within [`MAX_EXPANDED_TERMS`].
    fn distribute(&mut self, factors: &[ExprId]) -> ExprId {
        let mut terms: Vec<Vec<ExprId>> = alloc::vec![Vec::new()];
        let mut plain: Vec<ExprId> = Vec::new();
        let mut count = 1usize;
        for &f in factors {
            match self.node(f) {
                Node::Add(ts) if count.saturating_mul(ts.len()) <= MAX_EXPANDED_TERMS => {
                    let ts = ts.to_vec();
                    count *= ts.len();
                    terms = terms
                        .iter()
                        .flat_map(|prefix| {
                            ts.iter().map(move |&t| {
                                let mut p = prefix.clone();
                                p.push(t);
                                p
                            })
                        })
                        .collect();
                }
                _ => plain.push(f),
            }
        }
        let products: Vec<ExprId> = terms
            .into_iter()
            .map(|mut p| {
                p.extend_from_slice(&plain);
                self.mul(&p)
            })
            .collect();
        self.add(&products)
    }
}
