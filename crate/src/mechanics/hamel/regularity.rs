//! Whether a Hamel split is usable at a state: how far `A₁` (the dependent
//! coordinates' columns of `A`) is from singular, by numbers and written out as a
//! program (a sample's machine code decides most cases with one flag). Shared by
//! the compiled model's Hamel terms, the formulation and a run's samples.

use alloc::borrow::Cow;

use nalgebra::DMatrix;

use crate::expr::{Arithmetic, Numbers};

/// A split whose `A₁` is this close to singular ([`split_margin`]) or closer is
/// refused: solving with it would lose more than 8 digits.
pub(crate) const SPLIT_TOLERANCE: f64 = 1e-8;

/// Whether `A₁` (the columns `dependent` of `A`) is far enough from singular:
/// [`split_margin`] above [`SPLIT_TOLERANCE`].
pub(crate) fn split_is_regular(jacobian: &DMatrix<f64>, dependent: &[usize]) -> bool {
    split_margin(jacobian, dependent) > SPLIT_TOLERANCE
}

/// [`split_is_regular`] for `A` given row-major (`m` rows of `n` entries) and
/// `det A₁` already computed (Hamel's terms include it). For at most [`SMALL`]
/// constraints a determinant large against the rows' norms settles it without an
/// elimination: `Â₁`'s rows have norm ≤ 1, so `σ_max ≤ √r`, `σ_min ≥ |det Â₁| /
/// r^((r−1)/2)` and [`split_margin`] `≥ σ_min / √r ≥ |det Â₁| / r^(r/2)`. The
/// shortcut asks that bound to clear the tolerance by a wide factor, so that the
/// rounding of a determinant computed by elimination cannot decide; otherwise, and
/// for more constraints, [`split_is_regular`] decides.
#[inline]
pub(crate) fn split_is_regular_rows(rows: &[f64], n: usize, dependent: &[usize], determinant: f64) -> bool {
    shortcut_holds(rows, n, dependent.len(), determinant) || split_is_regular_by_elimination(rows, n, dependent)
}

/// The `r` rows a split is built on, row-major (`n` entries a row), from `A`'s
/// `m` rows `all`: `A` itself, borrowed, where the constraints are independent;
/// with `combined` (`HamelSplit::combined`: some constraints are combinations of the
/// others) `A₁ᵀA`, `A₁` the `dependent` columns of every row.
pub(crate) fn split_rows<'a, A: Arithmetic>(
    arithmetic: &mut A,
    all: &'a [A::V],
    n: usize,
    dependent: &[usize],
    combined: bool,
) -> Cow<'a, [A::V]> {
    if !combined {
        return Cow::Borrowed(all);
    }
    let m = all.len() / n.max(1);
    let mut out = alloc::vec::Vec::with_capacity(dependent.len() * n);
    for &d in dependent {
        for c in 0..n {
            let mut sum = arithmetic.constant(0.0);
            for j in 0..m {
                let term = arithmetic.mul(all[j * n + d], all[j * n + c]);
                sum = arithmetic.add(sum, term);
            }
            out.push(sum);
        }
    }
    Cow::Owned(out)
}

/// [`split_rows`] of numbers.
pub(crate) fn split_rows_of_numbers<'a>(
    all: &'a [f64],
    n: usize,
    dependent: &[usize],
    combined: bool,
) -> Cow<'a, [f64]> {
    split_rows(&mut Numbers, all, n, dependent, combined)
}

/// [`split_is_regular_rows`]'s shortcut: `r ≤ SMALL` rows, each square norm and
/// their product normal numbers, and the bound above its margin.
#[inline]
fn shortcut_holds(rows: &[f64], n: usize, r: usize, determinant: f64) -> bool {
    if r == 0 || r > SMALL || rows.len() != r * n {
        return false;
    }
    // Squared, so that no root is taken (every sample of a run asks), and only
    // where each square is a normal number: a subnormal one has lost digits.
    let normal = |x: f64| (f64::MIN_POSITIVE..=f64::MAX).contains(&x);
    let (mut norms_squared, mut every_normal) = (1.0, true);
    for i in 0..r {
        let mut square = 0.0;
        for x in &rows[i * n..(i + 1) * n] {
            square += x * x;
        }
        every_normal &= normal(square);
        norms_squared *= square;
    }
    let bound_squared = determinant * determinant / (norms_squared * SCALE_SQUARED[r - 1]);
    every_normal && normal(norms_squared) && bound_squared > SHORTCUT_MARGIN * SHORTCUT_MARGIN
}

/// [`split_is_regular_rows`]'s shortcut written as arithmetic, for a compiled
/// sample (`crate::simulation::lagrange_program_with_diagnostics`): 1 exactly where
/// each row's square norm and their product are normal numbers and the bound
/// clears its margin, each compared strictly through `(1 + sign(x))/2` (a tie
/// gives ½, a NaN gives NaN, so anything but 1 leaves the decision to
/// [`split_is_regular_by_elimination`]); 0 where [`split_is_regular_rows`]
/// takes no shortcut (more than [`SMALL`] rows, or not `r` of them).
pub(crate) fn split_shortcut<A: Arithmetic>(a: &mut A, rows: &[A::V], n: usize, r: usize, determinant: A::V) -> A::V {
    if r == 0 || r > SMALL || rows.len() != r * n {
        return a.constant(0.0);
    }
    let (smallest, largest) = (a.constant(f64::MIN_POSITIVE), a.constant(f64::MAX));
    let mut every = a.constant(1.0);
    let normal = |a: &mut A, every: A::V, x: A::V| {
        let low = a.above(x, smallest);
        let high = a.above(largest, x);
        let both = a.mul(low, high);
        a.mul(every, both)
    };
    let mut norms_squared = a.constant(1.0);
    for row in rows.chunks_exact(n) {
        let mut square = a.constant(0.0);
        for &x in row {
            let x2 = a.mul(x, x);
            square = a.add(square, x2);
        }
        every = normal(a, every, square);
        norms_squared = a.mul(norms_squared, square);
    }
    every = normal(a, every, norms_squared);
    let scale = a.constant(SCALE_SQUARED[r - 1]);
    let denominator = a.mul(norms_squared, scale);
    let determinant_squared = a.mul(determinant, determinant);
    let bound_squared = a.div(determinant_squared, denominator);
    let margin = a.constant(SHORTCUT_MARGIN * SHORTCUT_MARGIN);
    let clears = a.above(bound_squared, margin);
    a.mul(every, clears)
}

/// [`split_is_regular_rows`] without the shortcut: kept out of line, so that
/// the shortcut, which settles a sample's test in a few dozen instructions, is
/// inlined alone.
#[inline(never)]
pub(crate) fn split_is_regular_by_elimination(rows: &[f64], n: usize, dependent: &[usize]) -> bool {
    let jacobian = DMatrix::from_row_slice(rows.len().checked_div(n).unwrap_or(0), n, rows);
    split_is_regular(&jacobian, dependent)
}

/// How far above [`SPLIT_TOLERANCE`] the determinant's bound must be for
/// [`split_is_regular_rows`] to skip the elimination.
const SHORTCUT_MARGIN: f64 = 1e-3;

/// `r^r` for `r = 1..=SMALL`: the square of the bound's scale `r^(r/2)`.
const SCALE_SQUARED: [f64; SMALL] = [1.0, 4.0, 27.0, 256.0];

/// Splits of at most this many constraints are judged on the stack: every sample
/// of a run judges its split, and allocating there cost as much as the test.
const SMALL: usize = 4;

/// [`split_margin`] for `r ≤ SMALL` constraints, by Gauss–Jordan elimination with
/// partial pivoting in a stack array.
fn small_split_margin(jacobian: &DMatrix<f64>, dependent: &[usize]) -> f64 {
    let r = dependent.len();
    // [Â₁ | I], rows scaled to unit length over all of A's row.
    let mut a = [[0.0f64; 2 * SMALL]; SMALL];
    for (i, row) in a.iter_mut().enumerate().take(r) {
        let norm = crate::math::sqrt(jacobian.row(i).iter().map(|x| x * x).sum::<f64>());
        if norm == 0.0 {
            return 0.0;
        }
        for (k, &c) in dependent.iter().enumerate() {
            row[k] = jacobian[(i, c)] / norm;
        }
        row[SMALL + i] = 1.0;
    }
    for col in 0..r {
        let pivot_row = (col..r).fold(col, |best, i| if a[i][col].abs() > a[best][col].abs() { i } else { best });
        if a[pivot_row][col] == 0.0 {
            return 0.0;
        }
        a.swap(col, pivot_row);
        let pivot = a[col][col];
        for x in a[col].iter_mut() {
            *x /= pivot;
        }
        let pivot_values = a[col];
        for (i, row) in a.iter_mut().enumerate().take(r) {
            if i != col {
                let factor = row[col];
                for (x, p) in row.iter_mut().zip(&pivot_values) {
                    *x -= factor * p;
                }
            }
        }
    }
    // ‖Â₁⁻¹‖₁: the largest column sum of |entries| of the right half.
    let largest = (0..r).map(|c| (0..r).map(|i| a[i][SMALL + c].abs()).sum::<f64>()).fold(0.0, f64::max);
    1.0 / largest
}

/// `1 / ‖Â₁⁻¹‖₁`, where `Â` is `A` with each row scaled to unit length: an estimate
/// (within a factor √r) of `A₁`'s smallest singular value relative to its
/// constraints, 0 when singular (NaN for non-finite entries). Scaling a constraint
/// does not change it, and a long chain of well-conditioned constraints keeps it
/// moderate, where a determinant test shrinks geometrically with the chain's length
/// (24 trailers were called singular by one, with a condition number of 34).
pub(crate) fn split_margin(jacobian: &DMatrix<f64>, dependent: &[usize]) -> f64 {
    if !jacobian.iter().all(|x| x.is_finite()) {
        return f64::NAN;
    }
    if dependent.len() <= SMALL && jacobian.nrows() == dependent.len() {
        return small_split_margin(jacobian, dependent);
    }
    general_split_margin(jacobian, dependent)
}

/// [`split_margin`] with nalgebra's inverse, for any size.
fn general_split_margin(jacobian: &DMatrix<f64>, dependent: &[usize]) -> f64 {
    if jacobian.nrows() != dependent.len() {
        return 0.0; // A₁ is not square: no split
    }
    let mut a1 = jacobian.select_columns(dependent);
    for (i, mut row) in a1.row_iter_mut().enumerate() {
        let norm = jacobian.row(i).norm();
        if norm == 0.0 {
            return 0.0;
        }
        row /= norm;
    }
    match a1.try_inverse() {
        Some(inverse) => 1.0 / (0..inverse.ncols()).map(|c| inverse.column(c).lp_norm(1)).fold(0.0, f64::max),
        None => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Numbers uniform in [−2, 2) from `seed` (a linear congruential generator).
    fn uniform(mut seed: u64) -> impl FnMut() -> f64 {
        move || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64 * 4.0 - 2.0
        }
    }

    /// Lower-triangular ones: `det = 1` while the rows' norms multiply to √(n!), yet
    /// it is far from singular (the inverse is bidiagonal 1, −1).
    fn chain(n: usize) -> DMatrix<f64> {
        DMatrix::from_fn(n, n, |i, j| if j <= i { 1.0 } else { 0.0 })
    }

    #[test]
    fn a_long_well_conditioned_chain_is_regular() {
        let a = chain(36);
        let all: alloc::vec::Vec<usize> = (0..36).collect();
        let margin = split_margin(&a, &all);
        assert!(margin > 1e-2, "{margin}");
        assert!(split_is_regular(&a, &all));
        // The determinant test this replaces called it singular.
        let scale: f64 = (0..36).map(|i| a.row(i).norm()).product();
        assert!(a.determinant().abs() < 1e-8 * scale);
    }

    #[test]
    fn scaling_a_constraint_changes_nothing() {
        let mut a = DMatrix::from_row_slice(3, 4, &[1.0, 0.3, -0.2, 0.5, 0.1, 2.0, 0.7, -1.0, 0.4, -0.6, 1.5, 0.2]);
        let split = [0, 1, 2];
        let before = split_margin(&a, &split);
        a.row_mut(1).scale_mut(1e-9);
        a.row_mut(2).scale_mut(1e7);
        let after = split_margin(&a, &split);
        assert!((before - after).abs() < 1e-12 * before, "{before} {after}");
    }

    #[test]
    fn singular_and_nearly_singular_splits_are_refused() {
        let mut a = DMatrix::from_row_slice(2, 3, &[1.0, 2.0, 0.5, 2.0, 4.0, -1.0]);
        assert!(!split_is_regular(&a, &[0, 1]), "dependent rows");
        // The stack route agrees with nalgebra's inverse, on splits of 1 to 4.
        let mut next = uniform(7);
        for r in 1..=4 {
            for _ in 0..50 {
                let a = DMatrix::from_fn(r, r + 2, |_, _| next());
                let split: alloc::vec::Vec<usize> = (0..r).map(|k| (k + 1) % (r + 2)).collect();
                let (small, general) = (small_split_margin(&a, &split), general_split_margin(&a, &split));
                assert!((small - general).abs() <= 1e-12 * general.abs().max(1.0), "{small} vs {general}");
            }
        }
        assert!(split_is_regular(&a, &[0, 2]));
        a[(1, 1)] = 4.0 + 1e-10;
        assert!(!split_is_regular(&a, &[0, 1]), "condition number 1e11");
        a[(0, 0)] = f64::NAN;
        assert!(!split_is_regular(&a, &[0, 2]), "not finite");
        let zero_row = DMatrix::from_row_slice(2, 2, &[1.0, 0.0, 0.0, 0.0]);
        assert_eq!(split_margin(&zero_row, &[0, 1]), 0.0);
        // A 1×1 A₁ tiny beside the rest of its row (the knife edge at φ = π/2).
        let knife = DMatrix::from_row_slice(1, 3, &[-1.0, 6e-17, 0.0]);
        assert!(!split_is_regular(&knife, &[1]));
        assert!(split_is_regular(&knife, &[0]));
    }

    /// The determinant's shortcut: where it calls a split regular the margin clears
    /// the tolerance (it is a lower bound of the margin), and its answer is the full
    /// test's, on random splits of 1 to 4, on splits made nearly singular, and on
    /// rows scaled far apart.
    #[test]
    fn the_determinant_shortcut_agrees_with_the_full_test() {
        let mut next = uniform(11);
        let mut shortcut_taken = 0;
        for r in 1..=4 {
            for trial in 0..400 {
                let n = r + 2;
                let mut a = DMatrix::from_fn(r, n, |_, _| next());
                let split: alloc::vec::Vec<usize> = (0..r).map(|k| (2 * k + 1) % n).collect();
                if trial % 4 == 1 && r > 1 {
                    // Nearly dependent: the last row of A₁ a combination of the first.
                    let eps = [1e-3, 1e-7, 1e-9, 1e-12][trial / 4 % 4];
                    for (k, &c) in split.iter().enumerate() {
                        a[(r - 1, c)] = 0.7 * a[(0, c)] + eps * (k as f64 + 1.0);
                    }
                }
                if trial % 4 == 2 {
                    a.row_mut(0).scale_mut(1e-9);
                    a.row_mut(r - 1).scale_mut(1e8);
                }
                let det = a.select_columns(&split).determinant();
                let rows: alloc::vec::Vec<f64> = a.transpose().iter().copied().collect();
                let margin = split_margin(&a, &split);
                let fast = split_is_regular_rows(&rows, n, &split, det);
                assert_eq!(fast, split_is_regular(&a, &split), "r = {r}, trial {trial}: margin {margin}");
                let norms: f64 = (0..r).map(|i| a.row(i).norm()).product();
                let scale = (r as f64).powf(r as f64 / 2.0);
                if det.abs() / (norms * scale) > SHORTCUT_MARGIN {
                    shortcut_taken += 1;
                    assert!(margin >= det.abs() / (norms * scale) * (1.0 - 1e-12), "the bound holds: {margin}");
                }
            }
        }
        assert!(shortcut_taken > 400, "the shortcut decided {shortcut_taken} of 1600");
        // Rows whose squares are subnormal or overflow: the full test decides, as it
        // would alone.
        for scale in [1e-160, 1e-200, 1e160, 1e200] {
            let mut a = DMatrix::from_row_slice(2, 3, &[1.0, 0.2, 0.3, 0.1, 1.0, 0.4]);
            a.row_mut(1).scale_mut(scale);
            let det = a.select_columns(&[0, 1]).determinant();
            let rows: alloc::vec::Vec<f64> = a.transpose().iter().copied().collect();
            assert_eq!(split_is_regular_rows(&rows, 3, &[0, 1], det), split_is_regular(&a, &[0, 1]), "{scale}");
        }
        // Wrong sizes (more constraints than dependent coordinates) go to the full test.
        let a = DMatrix::from_row_slice(2, 3, &[1.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
        let rows: alloc::vec::Vec<f64> = a.transpose().iter().copied().collect();
        assert!(!split_is_regular_rows(&rows, 3, &[0], 1.0));
    }

    /// The compiled shortcut (`split_shortcut`) gives 1 exactly where the Rust one
    /// holds, on random splits, on rows whose squares (or only their product) are
    /// subnormal or overflow, on a NaN, and on a split of more rows than it judges.
    #[test]
    fn the_compiled_shortcut_is_the_rust_one() {
        let mut next = uniform(13);
        let (mut cases, mut held) = (0, 0);
        for r in 1..=5 {
            for trial in 0..200 {
                let n = r + 2;
                let mut rows: alloc::vec::Vec<f64> = (0..r * n).map(|_| next()).collect();
                let scale = [1.0, 1e-160, 1e160, 1e-3, 1.0][trial % 5];
                rows[..n].iter_mut().for_each(|x| *x *= scale);
                if trial % 5 == 4 && r > 1 {
                    // Each square normal, their product not.
                    let every = if trial % 10 == 4 { 1e-100 } else { 1e100 };
                    rows.iter_mut().for_each(|x| *x *= every);
                }
                let determinant = if trial % 7 == 3 { f64::NAN } else { next() * 10f64.powi(-(trial as i32 % 9)) };
                let compiled = split_shortcut(&mut Numbers, &rows, n, r, determinant);
                let holds = shortcut_holds(&rows, n, r, determinant);
                assert_eq!(compiled == 1.0, holds, "r = {r}, trial {trial}: compiled {compiled}");
                cases += 1;
                held += usize::from(holds);
            }
        }
        assert!(held > 100 && held < cases - 100, "{held} of {cases} held");
    }
}
