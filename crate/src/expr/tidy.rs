//! Forms for reading. The canonical form keeps sums expanded, which the compiler and
//! the derivations want; a reader wants `m φ̇ (ẋ sin φ + a φ̇ cos φ)` and `ẋ tan φ`.
//! [`ExprGraph::tidy`] rewrites an expression for printing only, and never changes its
//! value where it is finite:
//! - the factors common to every term of a sum, at their least positive integer power,
//!   and the terms' common numeric factor and sign (when a symbol is common too) are
//!   taken out where that prints no longer: `a m φ̇² + m ẋ φ̇ → m φ̇ (ẋ + a φ̇)`;
//! - `sin(u)^p cos(u)^(-p)` becomes `tan(u)^p`.
//!
//! `sin² + cos² = 1` is the canonical form's own rule (every `sin²` factor of a term is
//! tried), so it also applies inside the sums this leaves.

use alloc::vec::Vec;
use hashbrown::HashMap;

use super::graph::{ExprGraph, ExprId, Function, Node};
use super::number::{Number, Rational};

/// Estimated printed lengths up to which the exact text is measured instead.
const EXACT_LENGTH_BELOW: usize = 400;

/// What [`ExprGraph::tidy_memo`] keeps between calls: the rewritten forms and the
/// estimated printed lengths.
#[derive(Default)]
pub(crate) struct TidyMemo {
    done: HashMap<ExprId, ExprId>,
    lengths: HashMap<ExprId, usize>,
}

/// A product as its numeric coefficient and its factors as `(base, integer power)`;
/// a power that is not an integer is one factor of power 1.
struct Factored {
    coefficient: Number,
    factors: Vec<(ExprId, i64)>,
}

impl ExprGraph {
    /// `e` rewritten for reading (see the module's documentation).
    pub fn tidy(&mut self, e: ExprId) -> ExprId {
        self.tidy_memo(e, &mut TidyMemo::default())
    }

    /// [`tidy`](Self::tidy) with `memo` keeping what was rewritten across calls on
    /// the same graph (shared subexpressions are rewritten once).
    pub(crate) fn tidy_memo(&mut self, e: ExprId, memo: &mut TidyMemo) -> ExprId {
        if let Some(&x) = memo.done.get(&e) {
            return x;
        }
        let x = match self.node(e).clone() {
            Node::Number(_) | Node::Symbol(_) | Node::Definition(_) => e,
            Node::Add(terms) => {
                let terms: Vec<ExprId> = terms.iter().map(|&t| self.tidy_memo(t, memo)).collect();
                let sum = self.add(&terms);
                self.take_out_common_factors(sum, memo)
            }
            Node::Mul(factors) => {
                let factors: Vec<ExprId> = factors.iter().map(|&f| self.tidy_memo(f, memo)).collect();
                let product = self.mul(&factors);
                self.tangents(product)
            }
            Node::Pow(b, x) => {
                let (b, x) = (self.tidy_memo(b, memo), self.tidy_memo(x, memo));
                let power = self.pow(b, x);
                self.tangents(power)
            }
            Node::Call(f, u) => {
                let u = self.tidy_memo(u, memo);
                self.call(f, u)
            }
            Node::Atan2(y, x) => {
                let (y, x) = (self.tidy_memo(y, memo), self.tidy_memo(x, memo));
                self.atan2(y, x)
            }
        };
        memo.done.insert(e, x);
        x
    }

    fn factored(&self, e: ExprId) -> Factored {
        let mut coefficient = Number::ONE;
        let mut factors = Vec::new();
        let children: Vec<ExprId> = match self.node(e) {
            Node::Mul(fs) => fs.to_vec(),
            _ => alloc::vec![e],
        };
        for f in children {
            match self.node(f) {
                Node::Number(n) => coefficient = coefficient * *n,
                Node::Pow(b, x) => match self.as_number(*x).and_then(|n| n.as_integer()) {
                    Some(k) => factors.push((*b, k)),
                    None => factors.push((f, 1)),
                },
                _ => factors.push((f, 1)),
            }
        }
        Factored { coefficient, factors }
    }

    /// `G (t₁/G + t₂/G + …)` for the largest common factor `G` of a sum's terms, or the
    /// sum as it is when they have none.
    fn take_out_common_factors(&mut self, sum: ExprId, memo: &mut TidyMemo) -> ExprId {
        let Node::Add(terms) = self.node(sum) else { return sum };
        let terms = terms.to_vec();
        let parts: Vec<Factored> = terms.iter().map(|&t| self.factored(t)).collect();
        let mut common: Vec<(ExprId, i64)> = Vec::new();
        for &(base, power) in &parts[0].factors {
            if power <= 0 {
                continue;
            }
            let least = parts[1..].iter().try_fold(power, |least, p| {
                p.factors.iter().find(|(b, k)| *b == base && *k > 0).map(|&(_, k)| least.min(k))
            });
            if let Some(k) = least {
                common.push((base, k));
            }
        }
        if common.is_empty() {
            return sum;
        }
        let coefficient = common_coefficient(&parts);
        // Each term divided by the common factor, power by power: dividing by the
        // product `G` as built would not do, as `2·S` for a sum `S` is built as the
        // sum `2S`, which no longer cancels the `S` in the terms.
        let inside: Vec<ExprId> = parts
            .iter()
            .map(|p| {
                let mut factors: Vec<ExprId> = p
                    .factors
                    .iter()
                    .map(|&(base, k)| {
                        let k = k - common.iter().find(|c| c.0 == base).map_or(0, |c| c.1);
                        let k = self.integer(k);
                        self.pow(base, k)
                    })
                    .collect();
                let c = match coefficient {
                    Some((_, reciprocal)) => p.coefficient * reciprocal,
                    None => p.coefficient,
                };
                factors.push(self.number(c));
                self.mul(&factors)
            })
            .collect();
        let mut outside: Vec<ExprId> = common
            .iter()
            .map(|&(base, k)| {
                let k = self.integer(k);
                self.pow(base, k)
            })
            .collect();
        outside.extend(coefficient.map(|(c, _)| self.number(c)));
        outside.push(self.add(&inside));
        let factored = self.mul(&outside);
        // Only where it reads no longer: `x - x y` stays, `x (1 - y)` is longer.
        if self.printed_length(factored, memo) <= self.printed_length(sum, memo) {
            factored
        } else {
            sum
        }
    }

    /// The length of `e` printed as text: exact for short expressions; for long ones
    /// (where printing as a tree can be far larger than the graph) an estimate
    /// from the graph, memoised, that saturates.
    fn printed_length(&self, e: ExprId, memo: &mut TidyMemo) -> usize {
        let estimate = self.estimated_length(e, &mut memo.lengths);
        if estimate <= EXACT_LENGTH_BELOW {
            self.to_text(e).len()
        } else {
            estimate
        }
    }

    fn estimated_length(&self, e: ExprId, lengths: &mut HashMap<ExprId, usize>) -> usize {
        if let Some(&n) = lengths.get(&e) {
            return n;
        }
        let compound = |g: &ExprGraph, x: ExprId| matches!(g.node(x), Node::Add(_) | Node::Mul(_) | Node::Pow(..));
        let n = match self.node(e).clone() {
            Node::Number(_) => 3,
            Node::Symbol(s) => self.symbol(s).name.len() + 2,
            Node::Definition(d) => self.definition(d).name.len(),
            Node::Add(terms) => {
                terms.iter().fold(3 * (terms.len() - 1), |n, &t| n.saturating_add(self.estimated_length(t, lengths)))
            }
            Node::Mul(factors) => factors.iter().fold(factors.len() - 1, |n, &f| {
                let parens = if matches!(self.node(f), Node::Add(_)) { 2 } else { 0 };
                n.saturating_add(self.estimated_length(f, lengths) + parens)
            }),
            Node::Pow(b, x) => {
                let parens = if compound(self, b) { 2 } else { 0 } + if compound(self, x) { 2 } else { 0 };
                self.estimated_length(b, lengths).saturating_add(self.estimated_length(x, lengths)) + 1 + parens
            }
            Node::Call(f, u) => self.estimated_length(u, lengths).saturating_add(f.name().len() + 2),
            Node::Atan2(y, x) => {
                self.estimated_length(y, lengths).saturating_add(self.estimated_length(x, lengths)) + 9
            }
        };
        lengths.insert(e, n);
        n
    }

    /// `sin(u)^p cos(u)^(-p) → tan(u)^p` in a product.
    fn tangents(&mut self, product: ExprId) -> ExprId {
        let parts = self.factored(product);
        let mut factors = parts.factors.clone();
        let mut changed = false;
        for i in 0..factors.len() {
            let (base, p) = factors[i];
            let Node::Call(Function::Sin, u) = *self.node(base) else { continue };
            if p <= 0 {
                continue;
            }
            let cos = self.call(Function::Cos, u);
            if let Some(j) = factors.iter().position(|&(b, k)| b == cos && k == -p) {
                factors[i] = (self.call(Function::Tan, u), p);
                factors[j].1 = 0;
                changed = true;
            }
        }
        if !changed {
            return product;
        }
        let mut out: Vec<ExprId> = factors
            .into_iter()
            .filter(|&(_, k)| k != 0)
            .map(|(b, k)| {
                let k = self.integer(k);
                self.pow(b, k)
            })
            .collect();
        out.push(self.number(parts.coefficient));
        self.mul(&out)
    }
}

/// The terms' common numeric factor and its reciprocal: the rational gcd of exact
/// coefficients, negative when every term is; `None` when it is 1 or a coefficient is
/// not exact.
fn common_coefficient(parts: &[Factored]) -> Option<(Number, Number)> {
    let rationals: Option<Vec<Rational>> = parts.iter().map(|p| p.coefficient.as_rational()).collect();
    let rationals = rationals?;
    let (mut num, mut den) = (0i64, 1i64);
    for r in &rationals {
        num = gcd(num, r.numer().checked_abs()?);
        den = lcm(den, r.denom())?;
    }
    if num == 0 {
        return None;
    }
    let sign = if rationals.iter().all(|r| r.numer() < 0) { -1 } else { 1 };
    let c = Rational::new(sign * num, den)?;
    let reciprocal = Rational::new(sign * den, num)?;
    (c != Rational::integer(1)).then_some((Number::Rational(c), Number::Rational(reciprocal)))
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn lcm(a: i64, b: i64) -> Option<i64> {
    (a / gcd(a, b)).checked_mul(b)
}
