//! The range-space solve of [`crate::math::RangeSpace`], written out as straight-line code for
//! one model's sizes and sparsity and compiled after `M`, `F`, `A` and `b` into a
//! program of its own ([`super::lagrange_program`]), for a
//! native back end to compile to machine code (`nhlab-native`).
//!
//! Why: for a small system the loops over dense matrices cost more than the terms,
//! and most of their work is on entries
//! that are zero for every state (`M`'s and `A`'s structural zeros, folded away
//! here). What reads only the parameters (a constant `M`, as the turntable's) is
//! hoisted with the rest and runs when a parameter changes. Under the interpreter
//! this measured slower than the loops (the sleigh: 221 against 180 ns a call), so
//! the interpreter keeps the loops.
//!
//! The operations are those of [`super::RangeSpace`] in the same order, so values
//! agree with it bit for bit (up to the sign of a zero). The caller checks the
//! pivots against the same thresholds and takes the general route when they fail.
//! Large or dense systems, whose code would grow as `n³`, keep the loops
//! ([`instruction_estimate`] against [`MAX_INSTRUCTIONS`]).

use alloc::vec::Vec;

use super::{MASS_PIVOT, SCHUR_PIVOT};
use crate::expr::{Arithmetic, Function, Op};

/// Largest elimination, in instructions, written out: beyond it the machine code
/// grows faster than the loops' cost (and its compile time with it).
pub const MAX_INSTRUCTIONS: usize = 4000;

/// How many instructions [`eliminate`] emits for terms whose known entries are
/// `known` (`M`, `F`, `A`, `b` in the program's order; `None` where not constant),
/// before value numbering merges repeats.
pub fn instruction_estimate(n: usize, m: usize, known: &[Option<f64>]) -> usize {
    let mut counter = Counter(0);
    eliminate(&mut counter, n, m, known);
    counter.0
}

/// Counts instructions instead of emitting them.
struct Counter(usize);

impl Arithmetic for Counter {
    type V = Option<f64>;
    fn constant(&mut self, x: f64) -> Option<f64> {
        Some(x)
    }
    fn known(&self, v: Option<f64>) -> Option<f64> {
        v
    }
    fn emit(&mut self, _: Op, _: Option<f64>, _: Option<f64>) -> Option<f64> {
        self.0 += 1;
        None
    }
}

/// `[q̈; λ; accepted]` from `terms = [M; F; A; b]` (row-major, as the model's
/// program lists them). The flag `accepted` is 1 exactly where
/// [`super::RangeSpace`] would accept its factors (every pivot finite and above its
/// tolerance times its diagonal entry) and every `q̈` and `λ` is finite; anything
/// else (0, ½, NaN) means the caller must take the general route. It is computed in
/// the program, two instructions an output, so that a caller tests one number
/// instead of looping over the results, which for a small model costs a good part
/// of the call.
pub fn eliminate<A: Arithmetic>(a: &mut A, n: usize, m: usize, terms: &[A::V]) -> Vec<A::V> {
    eliminate_with(a, n, m, terms, Rows::Independent)
}

/// How [`eliminate_with`] treats the constraints' rows.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Rows {
    /// Independent: a Schur pivot below the tolerance fails the flag
    /// ([`eliminate`], bit for bit [`super::RangeSpace`]).
    Independent,
    /// Redundant (two wheels on one axle): at each evaluation a row whose Schur
    /// pivot falls below the tolerance — a combination of the rows before it there —
    /// is left out (its multiplier 0), as the lab chooses independent rows at each
    /// state; with `check`, every row must then hold to the lab's consistency
    /// tolerance (else the flag fails: the constraints ask for different
    /// accelerations). The code has no branch: the choice is arithmetic.
    MayRepeat { check: bool },
}

/// [`eliminate`] for rows that may repeat each other ([`Rows`]). The accelerations
/// are those of the lab; the multipliers are one set giving the same reaction (the
/// lab's are the minimum-norm ones).
pub fn eliminate_with<A: Arithmetic>(a: &mut A, n: usize, m: usize, terms: &[A::V], rows: Rows) -> Vec<A::V> {
    let (mass, rest) = terms.split_at(n * n);
    let (forcing, rest) = rest.split_at(n);
    let (jacobian, bias) = rest.split_at(m * n);
    let mass_factors = factor_ldl(a, n, mass, None);
    // Y = L⁻¹Aᵀ, column j from row j of A.
    let y: Vec<Vec<A::V>> = jacobian
        .chunks_exact(n.max(1))
        .take(m)
        .map(|row| {
            let mut column = row.to_vec();
            forward_unit(a, &mass_factors.l, &mut column);
            column
        })
        .collect();
    let mut schur = Vec::with_capacity(m * m);
    for j in 0..m {
        for i in 0..m {
            schur.push(if i <= j { weighted_dot(a, &y[j], &y[i], &mass_factors.inv_d) } else { a.constant(0.0) });
        }
    }
    let dropping = matches!(rows, Rows::MayRepeat { .. }).then_some(SCHUR_PIVOT);
    let schur_factors = factor_ldl(a, m, &schur, dropping);
    // z = L⁻¹F; λ = S⁻¹ (b − Yᵀ D⁻¹ z).
    let mut z = forcing.to_vec();
    forward_unit(a, &mass_factors.l, &mut z);
    let mut lambda: Vec<A::V> = (0..m)
        .map(|j| {
            let s = weighted_dot(a, &y[j], &z, &mass_factors.inv_d);
            a.sub(bias[j], s)
        })
        .collect();
    forward_unit(a, &schur_factors.l, &mut lambda);
    for (x, &d) in lambda.iter_mut().zip(&schur_factors.inv_d) {
        *x = a.mul(*x, d);
    }
    backward_unit(a, &schur_factors.l, &mut lambda);
    // q̈ = L⁻ᵀ D⁻¹ (z + Y λ).
    let mut out = z;
    for (column, &l) in y.iter().zip(&lambda) {
        for (o, &yk) in out.iter_mut().zip(column) {
            let p = a.mul(yk, l);
            *o = a.add(*o, p);
        }
    }
    for (x, &d) in out.iter_mut().zip(&mass_factors.inv_d) {
        *x = a.mul(*x, d);
    }
    backward_unit(a, &mass_factors.l, &mut out);
    let mut flag = a.constant(1.0);
    for (i, &pivot) in mass_factors.d.iter().enumerate() {
        let accepted = accepted(a, pivot, mass[i * n + i], MASS_PIVOT);
        flag = a.mul(flag, accepted);
    }
    match rows {
        Rows::Independent => {
            for (j, &pivot) in schur_factors.d.iter().enumerate() {
                let accepted = accepted(a, pivot, schur[j * m + j], SCHUR_PIVOT);
                flag = a.mul(flag, accepted);
            }
        }
        Rows::MayRepeat { check } => {
            // A pivot exactly at its tolerance kept half a row: 1 − 4k(1 − k) is 0 there.
            for &keep in &schur_factors.keep {
                let one = a.constant(1.0);
                let dropped = a.sub(one, keep);
                let mixed = a.mul(keep, dropped);
                let four = a.constant(4.0);
                let mixed = a.mul(four, mixed);
                let whole = a.sub(one, mixed);
                flag = a.mul(flag, whole);
            }
            if check {
                for j in 0..m {
                    let met = row_met(a, &jacobian[j * n..(j + 1) * n], bias[j], &out);
                    flag = a.mul(flag, met);
                }
            }
        }
    }
    // NaN where a result is not finite (x − x), so that a caller tests one number.
    for &x in out.iter().chain(&lambda) {
        let finite = a.sub(x, x);
        flag = a.add(flag, finite);
    }
    out.into_iter().chain(lambda).chain(core::iter::once(flag)).collect()
}

/// 1 where `pivot > tolerance·|diagonal|` and `pivot` is finite, as `factor_ldl` of
/// [`crate::math::RangeSpace`] decides; 0 or ½ where not, NaN where a value is NaN:
/// `(1 + sign(pivot − tolerance·|diagonal|))/2 + (pivot − pivot)`.
fn accepted<A: Arithmetic>(a: &mut A, pivot: A::V, diagonal: A::V, tolerance: f64) -> A::V {
    let size = a.unary(Op::Call(Function::Abs), diagonal);
    let tolerance = a.constant(tolerance);
    let bound = a.mul(tolerance, size);
    let above = a.above(pivot, bound);
    // NaN where the pivot is infinite.
    let finite = a.sub(pivot, pivot);
    a.add(above, finite)
}

/// 1 where row `A_j q̈ = b_j` holds as the lab requires
/// (`|A_j q̈ − b_j| ≤ tol (1 + Σ|A_jk q̈_k| + |b_j|)`, `formulations::every_row_met`), 0
/// where it does not, NaN where a value is NaN.
fn row_met<A: Arithmetic>(a: &mut A, row: &[A::V], bias: A::V, qdd: &[A::V]) -> A::V {
    let mut dot = a.constant(0.0);
    let mut size = a.constant(1.0);
    for (&x, &y) in row.iter().zip(qdd) {
        let p = a.mul(x, y);
        dot = a.add(dot, p);
        let magnitude = a.unary(Op::Call(Function::Abs), p);
        size = a.add(size, magnitude);
    }
    let miss = a.sub(dot, bias);
    let miss = a.unary(Op::Call(Function::Abs), miss);
    let magnitude = a.unary(Op::Call(Function::Abs), bias);
    let size = a.add(size, magnitude);
    let tolerance = a.constant(super::CONSISTENCY_TOLERANCE);
    let bound = a.mul(tolerance, size);
    a.above(bound, miss)
}

/// `L` (unit lower, rows of their strict part), `D` and `1/D`; with dropping, each
/// pivot's `keep` (1 kept, 0 dropped).
struct Factors<V> {
    l: Vec<Vec<V>>,
    d: Vec<V>,
    inv_d: Vec<V>,
    keep: Vec<V>,
}

/// `L D Lᵀ` of a symmetric `n×n` matrix (row-major, lower triangle read), as
/// `range_space::factor_ldl` computes it. With `dropping`, a pivot at or below that
/// part of its diagonal entry is dropped: its `1/D` is 0, so its row of `L` below
/// and its unknown are 0 (a semidefinite matrix of a row that depends on those
/// before it).
fn factor_ldl<A: Arithmetic>(a: &mut A, n: usize, matrix: &[A::V], dropping: Option<f64>) -> Factors<A::V> {
    let mut f =
        Factors { l: Vec::with_capacity(n), d: Vec::with_capacity(n), inv_d: Vec::with_capacity(n), keep: Vec::new() };
    for i in 0..n {
        let mut row: Vec<A::V> = Vec::with_capacity(i);
        for j in 0..i {
            let mut s = matrix[i * n + j];
            for ((&x, &dk), &y) in row.iter().zip(&f.d).zip(&f.l[j]).take(j) {
                let p = a.mul(x, dk);
                let p = a.mul(p, y);
                s = a.sub(s, p);
            }
            row.push(a.mul(s, f.inv_d[j]));
        }
        let mut pivot = matrix[i * n + i];
        for (&x, &dk) in row.iter().zip(&f.d) {
            let p = a.mul(x, x);
            let p = a.mul(p, dk);
            pivot = a.sub(pivot, p);
        }
        f.l.push(row);
        f.d.push(pivot);
        let inv = match dropping {
            None => a.recip(pivot),
            Some(tolerance) => {
                // keep / (keep·pivot + 1 − keep): 1/pivot kept, 0 dropped.
                let keep = accepted(a, pivot, matrix[i * n + i], tolerance);
                let one = a.constant(1.0);
                let dropped = a.sub(one, keep);
                let kept = a.mul(keep, pivot);
                let safe = a.add(kept, dropped);
                f.keep.push(keep);
                a.div(keep, safe)
            }
        };
        f.inv_d.push(inv);
    }
    f
}

/// `Σ x_k y_k w_k`, from zero.
fn weighted_dot<A: Arithmetic>(a: &mut A, x: &[A::V], y: &[A::V], w: &[A::V]) -> A::V {
    let mut s = a.constant(0.0);
    for ((&x, &y), &w) in x.iter().zip(y).zip(w) {
        let p = a.mul(x, y);
        let p = a.mul(p, w);
        s = a.add(s, p);
    }
    s
}

/// `x ← L⁻¹ x` for unit lower `L`.
fn forward_unit<A: Arithmetic>(a: &mut A, l: &[Vec<A::V>], x: &mut [A::V]) {
    for i in 1..x.len() {
        let mut s = x[i];
        for k in 0..i {
            let p = a.mul(l[i][k], x[k]);
            s = a.sub(s, p);
        }
        x[i] = s;
    }
}

/// `x ← L⁻ᵀ x` for unit lower `L`.
fn backward_unit<A: Arithmetic>(a: &mut A, l: &[Vec<A::V>], x: &mut [A::V]) {
    for i in (0..x.len()).rev() {
        let xi = x[i];
        for k in 0..i {
            let p = a.mul(l[i][k], xi);
            x[k] = a.sub(x[k], p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::Numbers;
    use alloc::vec;

    /// A unit mass in the plane (`M = I`, `F = (0, −1)`) under rows `A` and `b`.
    fn solve(rows: &[[f64; 2]], bias: &[f64], check: bool) -> Vec<f64> {
        let mut terms = vec![1.0, 0.0, 0.0, 1.0, 0.0, -1.0];
        terms.extend(rows.iter().flatten());
        terms.extend(bias);
        eliminate_with(&mut Numbers, 2, rows.len(), &terms, Rows::MayRepeat { check })
    }

    /// A row repeated (scaled) is left out and the motion is the other rows'; rows
    /// that ask for different accelerations fail the flag, as the lab refuses them.
    #[test]
    fn a_repeated_row_is_left_out_and_rows_in_conflict_fail() {
        let out = solve(&[[1.0, 1.0], [2.0, 2.0], [1.0, -1.0]], &[0.5, 1.0, 0.25], true);
        // x'' + y'' = 0.5 and x'' − y'' = 0.25.
        assert_eq!((out[0], out[1]), (0.375, 0.125));
        assert_eq!(out[3], 0.0, "the repeated row's multiplier");
        assert_eq!(out[5], 1.0, "accepted: {out:?}");
        let out = solve(&[[1.0, 1.0], [2.0, 2.0]], &[0.5, 1.5], true);
        assert_eq!(out[4], 0.0, "rows in conflict: {out:?}");
        // Unchecked (a derivative's solve), the kept rows' motion alone.
        let out = solve(&[[1.0, 1.0], [2.0, 2.0]], &[0.5, 1.5], false);
        assert_eq!((out[0] + out[1], out[4]), (0.5, 1.0));
    }
}
