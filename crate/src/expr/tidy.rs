//! Forms for reading. The canonical form keeps sums expanded, which the compiler and
//! the derivations want; a reader wants `m φ̇ (ẋ sin φ + a φ̇ cos φ)` and `ẋ tan φ`.
//! [`ExprGraph::tidy`] rewrites an expression for printing only, and never changes its
//! value where it is finite:
//! - the factors common to every term of a sum, at their least positive integer power,
//!   and the terms' common numeric factor and sign (when a symbol is common too) are
//!   taken out where that prints no longer: `a m φ̇² + m ẋ φ̇ → m φ̇ (ẋ + a φ̇)`;
//! - `sin(u)^p cos(u)^(-p)` becomes `tan(u)^p`;
//! - a small sum holding products of sums is distributed where that prints shorter,
//!   so that terms cancelling only once multiplied out do cancel: a rotation
//!   matrix's products, `cos ψ (sin ψ cos φ + cos ψ sin θ sin φ) − sin ψ (cos ψ cos φ −
//!   sin ψ sin θ sin φ)`, are `sin θ sin φ`;
//! - terms of a sum that share a factor which is itself a sum are collected where
//!   that prints shorter: `X·(−Y) + X·Y + Z → Z` for sums `X`, `Y`.
//!
//! - `sqrt(P)` where `P` is `cos²u` or `sin²u` in disguise is `|cos u|`, `|sin u|`.
//!
//! `sin² + cos² = 1` is the canonical form's own rule (every `sin²` factor of a term is
//! tried), so it also applies inside the sums this leaves.

use alloc::vec::Vec;
use hashbrown::HashMap;

use super::graph::{ExprGraph, ExprId, Function, Node};
use super::number::{Number, Rational};

/// Pseudo-random points at which an identity `P = Y²` is tested (each a chance of
/// 2⁻⁵³-ish of a false match for a polynomial that is not identically zero).
const IDENTITY_POINTS: u64 = 6;

/// Estimated printed lengths up to which the exact text is measured instead.
const EXACT_LENGTH_BELOW: usize = 400;

/// Largest sum (in nodes, counted as a tree) tried distributed: expanding is local
/// and bounded, so a large entry is simplified sum by sum from the inside out.
const LOCAL_EXPANSION_NODES: usize = 160;

/// What [`ExprGraph::tidy_memo`] keeps between calls: the rewritten forms and the
/// estimated printed lengths.
#[derive(Default)]
pub(crate) struct TidyMemo {
    done: HashMap<ExprId, ExprId>,
    lengths: HashMap<ExprId, usize>,
    /// Sizes as trees, saturating (what [`LOCAL_EXPANSION_NODES`] bounds).
    sizes: HashMap<ExprId, usize>,
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
                let sum = self.collect_common_sums(sum, memo);
                let factored = self.take_out_common_factors(sum, memo);
                match self.distributed(sum, memo) {
                    Some(expanded) => {
                        let expanded = self.take_out_common_factors(expanded, memo);
                        if self.printed_length(expanded, memo) < self.printed_length(factored, memo) {
                            expanded
                        } else {
                            factored
                        }
                    }
                    None => factored,
                }
            }
            Node::Mul(factors) => {
                let factors: Vec<ExprId> = factors.iter().map(|&f| self.tidy_memo(f, memo)).collect();
                let product = self.mul(&factors);
                self.tangents(product)
            }
            Node::Pow(b, x) => {
                let (b, x) = (self.tidy_memo(b, memo), self.tidy_memo(x, memo));
                let half = self.as_number(x).is_some_and(|n| n.to_f64() == 0.5);
                match half.then(|| self.trigonometric_root(b)).flatten() {
                    Some(root) => self.call(Function::Abs, root),
                    None => {
                        let power = self.pow(b, x);
                        self.tangents(power)
                    }
                }
            }
            Node::Call(..) | Node::Atan2(..) => self.rebuilt_with(e, |g, c| g.tidy_memo(c, memo)),
        };
        memo.done.insert(e, x);
        x
    }

    /// `sum` with its products of sums (and small powers of sums) distributed, when
    /// it has any and is small enough to try ([`LOCAL_EXPANSION_NODES`]); its terms
    /// cancel and `sin² + cos²` collapse as the canonical form builds it.
    fn distributed(&mut self, sum: ExprId, memo: &mut TidyMemo) -> Option<ExprId> {
        let Node::Add(terms) = self.node(sum) else { return None };
        let is_sum = |g: &ExprGraph, x: ExprId| matches!(g.node(x), Node::Add(_));
        let product_of_sums = terms.iter().any(|&t| match self.node(t) {
            Node::Mul(factors) => {
                factors.iter().any(|&f| is_sum(self, f) || matches!(self.node(f), Node::Pow(b, _) if is_sum(self, *b)))
            }
            Node::Pow(b, _) => is_sum(self, *b),
            _ => false,
        });
        if !product_of_sums || self.tree_size(sum, &mut memo.sizes) > LOCAL_EXPANSION_NODES {
            return None;
        }
        let expanded = self.expand(sum);
        (expanded != sum).then_some(expanded)
    }

    /// `X (t₁/X + t₂/X) + …` for each sum `X` that is a factor of two or more terms,
    /// where that prints shorter (the collected quotients distributed when small, so
    /// that they can cancel).
    fn collect_common_sums(&mut self, sum: ExprId, memo: &mut TidyMemo) -> ExprId {
        let Node::Add(terms) = self.node(sum) else { return sum };
        let mut terms = terms.to_vec();
        let parts: Vec<Factored> = terms.iter().map(|&t| self.factored(t)).collect();
        let mut candidates: Vec<ExprId> = Vec::new();
        for p in &parts {
            for &(base, k) in &p.factors {
                if k >= 1 && matches!(self.node(base), Node::Add(_)) && !candidates.contains(&base) {
                    candidates.push(base);
                }
            }
        }
        let mut changed = false;
        let mut consumed = alloc::vec![false; terms.len()];
        for x in candidates {
            let group: Vec<usize> = (0..terms.len())
                .filter(|&i| !consumed[i] && parts[i].factors.iter().any(|&(b, k)| b == x && k >= 1))
                .collect();
            // Two or more terms, not all of them: the common factors of all the terms are
            // taken out after this, with their numbers.
            if group.len() < 2 || group.len() == terms.len() {
                continue;
            }
            let quotients: Vec<ExprId> = group
                .iter()
                .map(|&i| {
                    let p = &parts[i];
                    let mut factors: Vec<ExprId> = p
                        .factors
                        .iter()
                        .map(|&(b, k)| {
                            let k = self.integer(if b == x { k - 1 } else { k });
                            self.pow(b, k)
                        })
                        .collect();
                    factors.push(self.number(p.coefficient));
                    self.mul(&factors)
                })
                .collect();
            let inner = self.add(&quotients);
            let inner = match self.distributed(inner, memo) {
                Some(expanded)
                    if self.tree_size(expanded, &mut memo.sizes) < self.tree_size(inner, &mut memo.sizes) =>
                {
                    expanded
                }
                _ => inner,
            };
            let inner = self.take_out_common_factors(inner, memo);
            let collected = self.mul2(x, inner);
            let before: usize = group.iter().map(|&i| self.printed_length(terms[i], memo) + 3).sum();
            if self.printed_length(collected, memo) < before {
                for (k, &i) in group.iter().enumerate() {
                    consumed[i] = true;
                    terms[i] = if k == 0 { collected } else { self.zero() };
                }
                changed = true;
            }
        }
        if changed {
            self.add(&terms)
        } else {
            sum
        }
    }

    /// The number of nodes of `e` printed as a tree (shared parts counted each time),
    /// saturating; definitions count as one.
    fn tree_size(&self, e: ExprId, sizes: &mut HashMap<ExprId, usize>) -> usize {
        if let Some(&n) = sizes.get(&e) {
            return n;
        }
        let n = match self.node(e).clone() {
            Node::Number(_) | Node::Symbol(_) | Node::Definition(_) => 1,
            Node::Add(xs) | Node::Mul(xs) => xs.iter().fold(1usize, |n, &x| n.saturating_add(self.tree_size(x, sizes))),
            Node::Pow(a, b) | Node::Atan2(a, b) => {
                1usize.saturating_add(self.tree_size(a, sizes)).saturating_add(self.tree_size(b, sizes))
            }
            Node::Call(_, u) => 1usize.saturating_add(self.tree_size(u, sizes)),
        };
        sizes.insert(e, n);
        n
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
                n.saturating_add(self.estimated_length(f, lengths)).saturating_add(parens)
            }),
            Node::Pow(b, x) => {
                let parens = if compound(self, b) { 2 } else { 0 } + if compound(self, x) { 2 } else { 0 };
                self.estimated_length(b, lengths)
                    .saturating_add(self.estimated_length(x, lengths))
                    .saturating_add(1 + parens)
            }
            Node::Call(f, u) => self.estimated_length(u, lengths).saturating_add(f.name().len() + 2),
            Node::Atan2(y, x) => {
                self.estimated_length(y, lengths).saturating_add(self.estimated_length(x, lengths)).saturating_add(9)
            }
        };
        lengths.insert(e, n);
        n
    }

    /// `Y = cos u` where `P` is `cos²u` in disguise (a rolling disk's
    /// `sqrt(sin²θ cos²θ + sin⁴θ − 2 sin²θ + 1)`), likewise `sin u`: `sqrt(P)` is
    /// then `|Y|`, the square roots of perfect squares that `unit(…)` and `norm(…)`
    /// leave. `P = Y²` is tested at [`IDENTITY_POINTS`] pseudo-random values of every
    /// symbol, where a polynomial in sines and cosines that is not identically zero
    /// is not zero (a zero test by evaluation, as computer algebra systems make it).
    /// The sign is the caller's: printing writes `|Y|`, a model fixes it from the
    /// start (`mechanics::bodies`).
    pub(crate) fn trigonometric_root(&mut self, p: ExprId) -> Option<ExprId> {
        if self.tree_size(p, &mut HashMap::new()) > LOCAL_EXPANSION_NODES {
            return None;
        }
        let mut angles: Vec<ExprId> = Vec::new();
        self.walk(&[p], true, |_, node| {
            if let Node::Call(Function::Sin | Function::Cos, u) = node {
                if !angles.contains(u) {
                    angles.push(*u);
                }
            }
        });
        for u in angles.into_iter().take(8) {
            for f in [Function::Cos, Function::Sin] {
                let y = self.call(f, u);
                let two = self.integer(2);
                let square = self.pow(y, two);
                if self.equal_everywhere(p, square) {
                    return Some(y);
                }
            }
        }
        None
    }

    /// Whether `a` and `b` agree at [`IDENTITY_POINTS`] pseudo-random values of every
    /// symbol (to 1e-9 of their size).
    fn equal_everywhere(&self, a: ExprId, b: ExprId) -> bool {
        (0..IDENTITY_POINTS).all(|k| {
            let value = |s: super::symbols::SymbolId| {
                let h = (s.index() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
                    ^ (k + 1).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                let h = h ^ (h >> 31);
                -2.0 + 4.0 * ((h >> 11) as f64 / (1u64 << 53) as f64)
            };
            let (x, y) = (self.evaluate(a, &value), self.evaluate(b, &value));
            x.is_finite() && y.is_finite() && (x - y).abs() <= 1e-9 * (1.0 + x.abs() + y.abs())
        })
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
