//! The Udwadia–Kalaba equation (paper 000, eqs 15–17), computed literally:
//! `q̈ = a + M^{-1/2} (A M^{-1/2})⁺ (b − A a)` with `a = M⁻¹F`, the symmetric root
//! from an eigen-decomposition and the Moore–Penrose inverse from an SVD (both Jacobi's,
//! `jacobi.rs`, so the page and the command line compute the same bits). Redundant
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
    let (eigenvalues, eigenvectors) = crate::math::jacobi::symmetric_eigen(&terms.mass);
    if eigenvalues.iter().any(|&l| l.is_nan() || l <= 0.0) {
        return Err(DynamicsError::NotPositiveDefinite { t });
    }
    let inv_sqrt = DVector::from_iterator(eigenvalues.len(), eigenvalues.iter().map(|&l| 1.0 / crate::math::sqrt(l)));
    let m_inv_half = &eigenvectors * nalgebra::DMatrix::from_diagonal(&inv_sqrt) * eigenvectors.transpose();
    let b_matrix = &terms.jacobian * &m_inv_half;
    let pinv = crate::math::jacobi::pseudo_inverse(&b_matrix, RANK_TOLERANCE).ok_or(DynamicsError::Singular {
        what: crate::mechanics::SingularMatrix::Symbol("A M^{-1/2}"),
        t,
        hint: crate::mechanics::SingularHint::None,
    })?;
    let correction = &m_inv_half * pinv * (&terms.bias - &terms.jacobian * &a);
    Ok(Solution { accelerations: a + correction, multipliers: None, multiplier_rates: None })
}
