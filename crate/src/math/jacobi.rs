//! Jacobi's symmetric eigen-decomposition and one-sided (Hestenes) SVD, for the
//! formulations that are defined by them (Udwadia–Kalaba, Gauss) and a body's
//! principal moments.
//!
//! Why not nalgebra's `symmetric_eigen` and `svd`: with `std` they call the
//! platform's float functions (`hypot` among them), which differ in the last bit
//! between glibc and wasm, so the page's CSV differed from `nhlab run`'s on the
//! rolling disk and the Chaplygin sphere. Jacobi's rotations need only `+ − × ÷`
//! and `sqrt`, all correctly rounded on every target, so these give the same bits
//! everywhere; they are also accurate to the last digits for the small, well-scaled
//! matrices of a mechanical model. Sizes here are the number of coordinates, so the
//! `O(n³)` per sweep is immaterial.

use alloc::vec::Vec;

use nalgebra::{DMatrix, DVector};

/// Sweeps allowed before giving up; Jacobi converges quadratically, in well under ten
/// for the sizes of a model, and a non-finite input stops at the first sweep's check.
const MAX_SWEEPS: usize = 60;

/// `(c, s)` of the rotation that zeroes the off-diagonal of `[[α, γ], [γ, β]]`
/// (Golub & Van Loan's `sym.schur2`), from `sqrt` and arithmetic only.
fn rotation(alpha: f64, beta: f64, gamma: f64) -> (f64, f64) {
    let tau = (beta - alpha) / (2.0 * gamma);
    let t = if tau.abs() > 1e150 {
        0.5 / tau
    } else {
        let root = crate::math::sqrt(1.0 + tau * tau);
        if tau >= 0.0 {
            1.0 / (tau + root)
        } else {
            -1.0 / (-tau + root)
        }
    };
    let c = 1.0 / crate::math::sqrt(1.0 + t * t);
    (c, c * t)
}

/// Whether `γ` is negligible beside `α` and `β` (or any of them is not finite).
fn negligible(alpha: f64, beta: f64, gamma: f64) -> bool {
    let scale = f64::EPSILON * crate::math::sqrt((alpha * beta).abs());
    gamma.abs().partial_cmp(&scale) != Some(core::cmp::Ordering::Greater)
}

/// Cyclic sweeps over the pairs `p < q` of `0..n`, until a whole sweep rotates
/// nothing (`rotate` says whether it rotated) or [`MAX_SWEEPS`] have run.
fn sweep(n: usize, mut rotate: impl FnMut(usize, usize) -> bool) {
    for _ in 0..MAX_SWEEPS {
        let mut rotated = false;
        for p in 0..n {
            for q in p + 1..n {
                rotated |= rotate(p, q);
            }
        }
        if !rotated {
            break;
        }
    }
}

/// Eigenvalues and eigenvectors (as columns) of the symmetric matrix `a`; only the
/// lower triangle is read. Non-finite input gives non-finite eigenvalues.
pub fn symmetric_eigen(a: &DMatrix<f64>) -> (DVector<f64>, DMatrix<f64>) {
    let n = a.nrows();
    let mut m = DMatrix::from_fn(n, n, |i, j| if i >= j { a[(i, j)] } else { a[(j, i)] });
    let mut v = DMatrix::identity(n, n);
    if m.iter().all(|x| x.is_finite()) {
        sweep(n, |p, q| {
            let (alpha, beta, gamma) = (m[(p, p)], m[(q, q)], m[(p, q)]);
            if negligible(alpha, beta, gamma) {
                return false;
            }
            let (c, s) = rotation(alpha, beta, gamma);
            rotate_columns(&mut m, p, q, c, s);
            rotate_rows(&mut m, p, q, c, s);
            m[(p, q)] = 0.0;
            m[(q, p)] = 0.0;
            rotate_columns(&mut v, p, q, c, s);
            true
        });
    }
    (DVector::from_iterator(n, (0..n).map(|i| m[(i, i)])), v)
}

fn rotate_columns(m: &mut DMatrix<f64>, p: usize, q: usize, c: f64, s: f64) {
    for k in 0..m.nrows() {
        let (x, y) = (m[(k, p)], m[(k, q)]);
        m[(k, p)] = c * x - s * y;
        m[(k, q)] = s * x + c * y;
    }
}

fn rotate_rows(m: &mut DMatrix<f64>, p: usize, q: usize, c: f64, s: f64) {
    for k in 0..m.ncols() {
        let (x, y) = (m[(p, k)], m[(q, k)]);
        m[(p, k)] = c * x - s * y;
        m[(q, k)] = s * x + c * y;
    }
}

/// The Moore–Penrose inverse of `a` (`m × n`), ignoring singular values at or below
/// `relative_tolerance` times the largest; `None` when `a` is not finite.
///
/// With more rows than columns (redundant constraints: more rows than coordinates)
/// it is the transpose of `(aᵀ)⁺`: the Jacobi sweeps then pair the `n` columns, not the
/// `m` rows, and cost `n²m` rather than `m²n + m³` (128 redundant rows of a 5-coordinate
/// disk made each Udwadia–Kalaba step 0.15 s).
pub fn pseudo_inverse(a: &DMatrix<f64>, relative_tolerance: f64) -> Option<DMatrix<f64>> {
    if a.nrows() > a.ncols() {
        return pseudo_inverse_of_wide(&a.transpose(), relative_tolerance).map(|p| p.transpose());
    }
    pseudo_inverse_of_wide(a, relative_tolerance)
}

/// [`pseudo_inverse`] by one-sided Jacobi on `G = aᵀ`, for `m ≤ n`: rotations `W` make
/// the columns `h_j` of `G W` orthogonal, so `a = Σ w_j σ_j u_jᵀ` with `σ_j = |h_j|`,
/// `u_j = h_j / σ_j`, and `a⁺ = Σ h_j w_jᵀ / σ_j²` over the kept `σ_j`.
fn pseudo_inverse_of_wide(a: &DMatrix<f64>, relative_tolerance: f64) -> Option<DMatrix<f64>> {
    if !a.iter().all(|x| x.is_finite()) {
        return None;
    }
    let (m, n) = (a.nrows(), a.ncols());
    let mut h = a.transpose();
    let mut w = DMatrix::<f64>::identity(m, m);
    let dot = |h: &DMatrix<f64>, i: usize, j: usize| (0..n).map(|k| h[(k, i)] * h[(k, j)]).sum::<f64>();
    sweep(m, |p, q| {
        let (alpha, beta, gamma) = (dot(&h, p, p), dot(&h, q, q), dot(&h, p, q));
        if negligible(alpha, beta, gamma) {
            return false;
        }
        let (c, s) = rotation(alpha, beta, gamma);
        rotate_columns(&mut h, p, q, c, s);
        rotate_columns(&mut w, p, q, c, s);
        true
    });
    let squares: Vec<f64> = (0..m).map(|j| dot(&h, j, j)).collect();
    let largest = squares.iter().cloned().fold(0.0, f64::max);
    let cut = relative_tolerance * relative_tolerance * largest;
    let mut inverse = DMatrix::zeros(n, m);
    for (j, &square) in squares.iter().enumerate() {
        if square > cut && square > 0.0 {
            for r in 0..n {
                let scaled = h[(r, j)] / square;
                for c in 0..m {
                    inverse[(r, c)] += scaled * w[(c, j)];
                }
            }
        }
    }
    Some(inverse)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eigen_reconstructs_and_is_orthogonal() {
        let a = DMatrix::from_row_slice(3, 3, &[4.0, 1.0, -2.0, 1.0, 3.0, 0.5, -2.0, 0.5, 5.0]);
        let (values, vectors) = symmetric_eigen(&a);
        let back = &vectors * DMatrix::from_diagonal(&values) * vectors.transpose();
        assert!((back - &a).amax() < 1e-14);
        assert!((vectors.transpose() * &vectors - DMatrix::identity(3, 3)).amax() < 1e-15);
        assert!((values.sum() - 12.0).abs() < 1e-14);
    }

    #[test]
    fn pseudo_inverse_meets_penrose_conditions_with_a_repeated_row() {
        let a = DMatrix::from_row_slice(3, 4, &[1.0, 2.0, 0.0, -1.0, 0.0, 1.0, 3.0, 1.0, 1.0, 2.0, 0.0, -1.0]);
        let p = pseudo_inverse(&a, 1e-12).unwrap();
        assert!((&a * &p * &a - &a).amax() < 1e-14);
        assert!((&p * &a * &p - &p).amax() < 1e-14);
        assert!(((&a * &p).transpose() - &a * &p).amax() < 1e-14);
        assert!(((&p * &a).transpose() - &p * &a).amax() < 1e-14);
    }

    /// Tall matrices (more rows than columns, as redundant constraints make) go
    /// through their transpose: the four Penrose conditions hold there too, for
    /// full and deficient column rank, and the result is the sweeps' over the rows.
    #[test]
    fn a_tall_pseudo_inverse_meets_penrose_conditions() {
        let row = |k: f64| [1.0 * k, -2.0 * k, 0.5 * k, 3.0 * k, 0.25];
        for rank_two in [false, true] {
            let rows: Vec<f64> = (0..40)
                .flat_map(|i| {
                    let k = 1.0 + i as f64;
                    let mut r = row(k);
                    if rank_two {
                        r[4] = 0.25 * k; // every row a multiple of one: rank one
                        r[1] += if i % 2 == 0 { 1.0 } else { 0.0 };
                    }
                    r
                })
                .collect();
            let a = DMatrix::from_row_slice(40, 5, &rows);
            let p = pseudo_inverse(&a, 1e-12).unwrap();
            let scale = a.amax() * p.amax();
            assert!((&a * &p * &a - &a).amax() < 1e-12 * a.amax() * scale, "rank two: {rank_two}");
            assert!((&p * &a * &p - &p).amax() < 1e-12 * p.amax() * scale);
            assert!(((&a * &p).transpose() - &a * &p).amax() < 1e-12 * scale);
            assert!(((&p * &a).transpose() - &p * &a).amax() < 1e-12 * scale);
            // The sweeps over the 40 rows themselves (as before) agree.
            let direct = pseudo_inverse_of_wide(&a, 1e-12).unwrap();
            assert!((&p - &direct).amax() < 1e-10 * p.amax(), "rank two: {rank_two}");
        }
    }
}
