//! Shen's Euler-condition reaction `R` in symbolic form, for printing (paper 003
//! eq 30): `R_k = Σ_l (1/l) ∂g_l/∂v_k` for the parts `g_l` of `f` homogeneous of
//! degree `l` in `v`, which is `R = ∫₀¹ ∂f/∂v(q, s·v, t) ds`.
//!
//! Three routes, tried in order, each exact:
//! - `f` positively homogeneous of one degree `l` (Euler's identity `v·∂f/∂v = l f`,
//!   tested at several generic points: the canonical forms do not reduce
//!   `u/√u` to `√u`, so a symbolic proof would miss Appell's constraint):
//!   `R = (1/l) ∂f/∂v` — Appell's `ż + k√(ẋ² + ẏ²)` is of degree 1;
//! - `∂f/∂v(q, s v, t)` polynomial in `s` (a polynomial constraint, of mixed degrees):
//!   its coefficients `c_j` give `R = Σ_j c_j/(j + 1)`;
//! - otherwise, entry by entry, the integral itself, with its integrand in a fresh
//!   symbol `s`.
//!
//! The numbers the `euler` method integrates come from quadrature of the same
//! integral (`formulations/euler.rs`); tests check the two agree.

use alloc::vec::Vec;
use hashbrown::HashMap;

use super::constraint::{Constraint, ConstraintKind};
use crate::expr::{ExprGraph, ExprId, Node, SymbolId};

/// Highest polynomial degree in `s` tried before falling back to the integral.
const MAX_DEGREE: usize = 16;

/// One constraint's row of `R`.
#[derive(Clone, Debug)]
pub enum ReactionRow {
    /// `R` in closed form, one entry per coordinate.
    Closed(Vec<ExprId>),
    /// Entry by entry: `Ok(closed form)`, or `Err(integrand)` where
    /// `R_k = ∫₀¹ integrand ds`, the integrand being `∂f/∂v_k(q, s v, t)`.
    Integral {
        /// The integration variable.
        s: SymbolId,
        /// One entry per coordinate.
        entries: Vec<Result<ExprId, ExprId>>,
    },
}

/// The Euler-condition reaction row of constraint `c`. Linear constraints give
/// `R = A` (the row is `c.jacobian`).
pub fn reaction_row(g: &mut ExprGraph, c: &Constraint) -> ReactionRow {
    if c.kind != ConstraintKind::NonlinearNonholonomic {
        return ReactionRow::Closed(c.jacobian.clone());
    }
    if let Some(degree) = homogeneous_degree(g, c) {
        let inverse = g.rational(1, degree);
        let row = c.jacobian.iter().map(|&a| g.mul2(inverse, a)).collect();
        return ReactionRow::Closed(row);
    }
    let s = g.declare_fresh_auxiliary("s");
    let s_expr = g.symbol_expr(s);
    let velocities: Vec<SymbolId> = (0..g.coordinate_count()).map(|i| g.coordinate(i)[1]).collect();
    let scaled: Vec<ExprId> = velocities.iter().map(|&v| g.mul2(s_expr, g.symbol_expr(v))).collect();
    let integrands: Vec<ExprId> = c
        .jacobian
        .iter()
        .map(|&a| {
            let e = g.substitute(a, &|sym| velocities.iter().position(|&v| v == sym).map(|k| scaled[k]));
            g.expand(e)
        })
        .collect();
    let entries: Vec<Result<ExprId, ExprId>> =
        integrands.iter().map(|&e| polynomial_integral(g, e, s).ok_or(e)).collect();
    if entries.iter().all(Result::is_ok) {
        ReactionRow::Closed(entries.into_iter().flatten().collect())
    } else {
        ReactionRow::Integral { s, entries }
    }
}

/// The degree `l` (1 to [`MAX_DEGREE`]) for which Euler's identity
/// `v·∂f/∂v = l f` holds at every one of several generic points, if any.
fn homogeneous_degree(g: &mut ExprGraph, c: &Constraint) -> Option<i64> {
    let n = g.coordinate_count();
    let terms: Vec<ExprId> = (0..n)
        .map(|i| {
            let v = g.symbol_expr(g.coordinate(i)[1]);
            g.mul2(v, c.jacobian[i])
        })
        .collect();
    let euler_sum = g.add(&terms);
    let mut degree = None;
    for point in 0..GENERIC_POINTS {
        let value = |sym: SymbolId| generic_value(sym.index(), point);
        let (lhs, f) = (g.evaluate(euler_sum, &value), g.evaluate(c.velocity_residual, &value));
        let ratio = lhs / f;
        if !ratio.is_finite() || f.abs() < 1e-6 {
            return None;
        }
        let l = *degree.get_or_insert(libm::round(ratio));
        if !(1.0..=MAX_DEGREE as f64).contains(&l) || (lhs - l * f).abs() > 1e-11 * (lhs.abs() + (l * f).abs()) {
            return None;
        }
    }
    degree.map(|l| l as i64)
}

/// Points at which Euler's identity is tested.
const GENERIC_POINTS: u64 = 6;

/// A value for symbol `index` at generic point `point`: deterministic, in
/// ±[0.35, 1.6], of varied sign (a splitmix64 hash).
fn generic_value(index: usize, point: u64) -> f64 {
    let mut z = (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ point.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    let unit = (z >> 11) as f64 / (1u64 << 53) as f64;
    let magnitude = 0.35 + 1.25 * unit;
    if z & 1 == 0 {
        magnitude
    } else {
        -magnitude
    }
}

/// `∫₀¹ e ds` when `e` is a polynomial in `s` of degree at most [`MAX_DEGREE`]:
/// with `c_j = (dʲe/dsʲ)(0)/j!`, the integral is `Σ c_j/(j + 1)`. Whether `e` is
/// such a polynomial, and its degree, is read from its structure first: repeated
/// differentiation of a transcendental expression would grow without bound.
fn polynomial_integral(g: &mut ExprGraph, e: ExprId, s: SymbolId) -> Option<ExprId> {
    let degree = polynomial_degree(g, e, s, &mut HashMap::new())?;
    if degree > MAX_DEGREE {
        return None;
    }
    let zero = g.zero();
    let mut derivative = e;
    let mut terms = Vec::new();
    let mut factorial: i64 = 1;
    for j in 0..=degree + 1 {
        if g.is_zero(derivative) {
            let sum = g.add(&terms);
            return Some(g.expand(sum));
        }
        let at_zero = g.substitute(derivative, &|sym| (sym == s).then_some(zero));
        let weight = g.rational(1, factorial * (j as i64 + 1));
        terms.push(g.mul2(weight, at_zero));
        let next = g.diff(derivative, s);
        derivative = g.expand(next);
        factorial *= j as i64 + 1;
    }
    None
}

/// The degree of `e` as a polynomial in the symbol `s`, or `None` when it is not one
/// (`s` inside a function, a fractional or negative power, or a definition).
fn polynomial_degree(
    g: &ExprGraph,
    e: ExprId,
    s: SymbolId,
    memo: &mut HashMap<ExprId, Option<usize>>,
) -> Option<usize> {
    if let Some(&d) = memo.get(&e) {
        return d;
    }
    let free = |x: ExprId| !g.free_symbols(x).contains(&s);
    let d = match g.node(e) {
        Node::Number(_) => Some(0),
        Node::Symbol(x) => Some(usize::from(*x == s)),
        _ if free(e) => Some(0),
        Node::Add(xs) => xs.iter().map(|&x| polynomial_degree(g, x, s, memo)).try_fold(0, |a, d| d.map(|d| a.max(d))),
        Node::Mul(xs) => {
            xs.iter().map(|&x| polynomial_degree(g, x, s, memo)).try_fold(0usize, |a, d| d.map(|d| a.saturating_add(d)))
        }
        Node::Pow(base, exponent) => match g.as_number(*exponent).and_then(|n| n.as_integer()) {
            Some(k) if k >= 0 => polynomial_degree(g, *base, s, memo).map(|d| d.saturating_mul(k as usize)),
            _ => None,
        },
        Node::Definition(_) | Node::Call(..) | Node::Atan2(..) => None,
    };
    memo.insert(e, d);
    d
}
