//! The Udwadia–Kalaba equation (paper 000, eqs 15–17), computed literally:
//! `q̈ = a + M^{-1/2} (A M^{-1/2})⁺ (b − A a)` with `a = M⁻¹F`, the symmetric root
//! from an eigen-decomposition and the Moore–Penrose inverse from an SVD. Redundant
//! but consistent constraints are fine: the pseudo-inverse ignores the repetition.

use nalgebra::DVector;

use super::Solution;
use crate::mechanics::{DynamicsError, Terms};

/// Singular values below this fraction of the largest count as zero.
const RANK_TOLERANCE: f64 = 1e-12;

pub(super) fn solve(terms: &Terms, t: f64) -> Result<Solution, DynamicsError> {
    let a = super::unconstrained(terms, t)?;
    if terms.jacobian.nrows() == 0 {
        return Ok(Solution { accelerations: a, multipliers: None, multiplier_rates: None });
    }
    let eigen = terms.mass.clone().symmetric_eigen();
    if eigen.eigenvalues.iter().any(|&l| l.is_nan() || l <= 0.0) {
        return Err(DynamicsError::NotPositiveDefinite { t });
    }
    let inv_sqrt =
        DVector::from_iterator(eigen.eigenvalues.len(), eigen.eigenvalues.iter().map(|&l| 1.0 / crate::math::sqrt(l)));
    let m_inv_half = &eigen.eigenvectors * nalgebra::DMatrix::from_diagonal(&inv_sqrt) * eigen.eigenvectors.transpose();
    let b_matrix = &terms.jacobian * &m_inv_half;
    let svd = b_matrix.svd(true, true);
    let largest = svd.singular_values.iter().cloned().fold(0.0, f64::max);
    let pinv = svd
        .pseudo_inverse(RANK_TOLERANCE * largest.max(f64::MIN_POSITIVE))
        .map_err(|_| DynamicsError::Singular { what: "A M^{-1/2}", t, hint: "" })?;
    let correction = &m_inv_half * pinv * (&terms.bias - &terms.jacobian * &a);
    Ok(Solution { accelerations: a + correction, multipliers: None, multiplier_rates: None })
}
