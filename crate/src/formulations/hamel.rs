//! Hamel's embedding (paper 000, eqs 4–11): `Ψ q̈₂ = G`, the dependent accelerations
//! from the constraints. Right only where the E-vector vanishes; the lab integrates
//! it as a method of its own so that users see it drift from the truth.
//!
//! The split is fixed (from `[hamel] dependent` or chosen at the initial state). When
//! it turns singular along a run the method stops with a message saying where.

use nalgebra::{DMatrix, DVector};

use super::Solution;
use crate::mechanics::{DynamicsError, NumericModel};

/// A split whose `A₁` is this close to singular ([`split_margin`]) or closer is
/// refused: solving with it would lose more than 8 digits.
pub(crate) const SPLIT_TOLERANCE: f64 = 1e-8;

/// Completes `q̈₂` with the dependent accelerations `q̈₁ = A₁⁻¹(b − A₂ q̈₂)`.
pub(crate) fn complete(
    jacobian: &DMatrix<f64>,
    bias: &DVector<f64>,
    dependent: &[usize],
    independent: &[usize],
    qdd2: &DVector<f64>,
    t: f64,
) -> Result<DVector<f64>, DynamicsError> {
    let n = jacobian.ncols();
    let a1 = jacobian.select_columns(dependent);
    let a2 = jacobian.select_columns(independent);
    let rhs = bias - a2 * qdd2;
    let qdd1 = a1.lu().solve(&rhs).ok_or(DynamicsError::Singular { what: "A₁", t, hint: "" })?;
    let mut qdd = DVector::zeros(n);
    for (k, &i) in independent.iter().enumerate() {
        qdd[i] = qdd2[k];
    }
    for (k, &i) in dependent.iter().enumerate() {
        qdd[i] = qdd1[k];
    }
    Ok(qdd)
}

/// Whether `A₁` (the columns `dependent` of `A`) is far enough from singular:
/// [`split_margin`] above [`SPLIT_TOLERANCE`].
pub(crate) fn split_is_regular(jacobian: &DMatrix<f64>, dependent: &[usize]) -> bool {
    split_margin(jacobian, dependent) > SPLIT_TOLERANCE
}

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

/// Why Hamel's embedding does not apply to a model without constraints.
pub(crate) const NO_CONSTRAINTS: &str =
    "Hamel's embedding has nothing to embed: the scenario has no constraints (hamel would be lagrange)";

pub(super) fn solve(numeric: &mut NumericModel, t: f64, q: &[f64], v: &[f64]) -> Result<Solution, DynamicsError> {
    if numeric.m() == 0 {
        return Err(DynamicsError::Unsupported(NO_CONSTRAINTS.into()));
    }
    if !numeric.nonlinear_constraints.is_empty() {
        return Err(DynamicsError::Unsupported(alloc::format!("{}", crate::mechanics::SplitError::Nonlinear)));
    }
    let terms = numeric.evaluate_dynamics(t, q, v)?;
    let (jacobian, bias) = (terms.jacobian.clone(), terms.bias.clone());
    let Some(hamel) = numeric.hamel_terms(t, q, v) else {
        return Err(DynamicsError::Unsupported(
            "Hamel's embedding needs constraints linear in the velocities and a regular split".into(),
        ));
    };
    let h = hamel?;
    if !split_is_regular(&jacobian, &h.dependent) {
        return Err(DynamicsError::Singular {
            what: super::HAMEL_SPLIT,
            t,
            hint: "; the dependent coordinates cannot be solved for here: choose others in [hamel] dependent",
        });
    }
    let qdd2 = h.psi.clone().lu().solve(&h.g).ok_or(DynamicsError::Singular { what: "Ψ", t, hint: "" })?;
    let (dependent, independent) = (h.dependent.clone(), h.independent.clone());
    let accelerations = complete(&jacobian, &bias, &dependent, &independent, &qdd2, t)?;
    Ok(Solution { accelerations, multipliers: None, multiplier_rates: None })
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let mut seed = 7u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64 * 4.0 - 2.0
        };
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
}
