//! Drift control: the state projected back onto the constraints.

use super::*;

/// Projects positions onto `φ = 0` (Gauss–Newton) and velocities onto `f = 0` in
/// the metric of `M`, in place.
pub(super) fn project(numeric: &mut NumericModel, t: f64, y: &mut [f64]) -> Result<(), DynamicsError> {
    let n = numeric.n();
    if numeric.m() == 0 {
        return Ok(());
    }
    for _ in 0..3 {
        let (q, rest) = y.split_at(n);
        let terms = numeric.evaluate(t, q, &rest[..n])?;
        let phi = terms.position_residuals.clone();
        if phi.amax() <= 1e-14 {
            break;
        }
        // Rows of A for holonomic constraints are ∂φ/∂q.
        let correction = least_norm(&terms.jacobian, &phi);
        for i in 0..n {
            y[i] -= correction[i];
        }
    }
    let (q, rest) = y.split_at(n);
    let terms = numeric.evaluate(t, q, &rest[..n])?;
    let m_inv = terms.mass.clone().cholesky().ok_or(DynamicsError::NotPositiveDefinite { t })?;
    let a = &terms.jacobian;
    let m_inv_at = m_inv.solve(&a.transpose());
    let s = a * &m_inv_at;
    let lambda = s.lu().solve(&terms.residuals).ok_or(DynamicsError::Singular {
        what: crate::mechanics::SingularMatrix::Symbol("A M⁻¹ Aᵀ"),
        t,
        hint: crate::mechanics::SingularHint::None,
    })?;
    let dv = m_inv_at * lambda;
    for i in 0..n {
        y[n + i] -= dv[i];
    }
    Ok(())
}

/// The least-norm `x` with `J x = r`, rows of `J` that are zero ignored.
pub(crate) fn least_norm(j: &nalgebra::DMatrix<f64>, r: &DVector<f64>) -> DVector<f64> {
    let svd = j.clone().svd(true, true);
    let tol = 1e-12 * svd.singular_values.max().max(f64::MIN_POSITIVE);
    svd.solve(r, tol).unwrap_or_else(|_| DVector::zeros(j.ncols()))
}
