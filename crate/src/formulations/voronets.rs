//! Voronets' equations: the true motion in the independent velocities, without
//! multipliers (Chaplygin's when nothing depends on the dependent coordinates).
//!
//! Computed in Maggi's projected form, which is the same set of equations: with
//! `v₁ = X v₂ + β` and `N = [X; I]`, `Nᵀ(M q̈ − F) = 0` and `q̈ = N q̈₂ + γ` give
//! `(NᵀMN) q̈₂ = Nᵀ(F − M γ)`. The split is re-chosen at every state as the
//! best-conditioned one (column-pivoted QR of `A`), so it never goes singular.

use nalgebra::DVector;

use super::hamel::complete;
use super::Solution;
use crate::mechanics::{DynamicsError, NumericModel};

/// Why Voronets' equations do not apply: the constraints named are nonlinear in the
/// velocities, and the elimination `v₁ = X v₂ + β` needs linear ones.
pub(crate) fn nonlinear_reason(names: &[alloc::string::String]) -> crate::message::Message {
    let list = names.join("`, `");
    if names.len() == 1 {
        crate::message::run::voronets_nonlinear_one(list)
    } else {
        crate::message::run::voronets_nonlinear_other(list)
    }
}

pub(super) fn solve(numeric: &mut NumericModel, t: f64, q: &[f64], v: &[f64]) -> Result<Solution, DynamicsError> {
    if !numeric.nonlinear_constraints.is_empty() {
        return Err(DynamicsError::Unsupported(nonlinear_reason(&numeric.nonlinear_constraints)));
    }
    let (terms, workspace) = numeric.evaluate_with_workspace(t, q, v)?;
    let m = terms.jacobian.nrows();
    if m == 0 {
        return super::lagrange::solve(terms, workspace, t).map(|s| Solution {
            multipliers: None,
            multiplier_rates: None,
            ..s
        });
    }
    // Redundant constraints: the motion is that of an independent subset, which
    // must then meet the rest (checked below).
    let rows = crate::mechanics::independent_rows(&terms.jacobian);
    let (full_jacobian, full_bias) = (terms.jacobian.clone(), terms.bias.clone());
    let (jacobian, bias) = if rows.len() < m {
        (full_jacobian.select_rows(&rows), full_bias.select_rows(&rows))
    } else {
        (full_jacobian.clone(), full_bias.clone())
    };
    // Every row vanishes here (`φ y = 0` at `φ = y = 0`): nothing to eliminate, the
    // motion is the free one where the rows' `b` allow it.
    let accelerations =
        if rows.is_empty() { super::unconstrained(terms, t)? } else { eliminated(terms, &jacobian, &bias, t)? };
    if rows.len() < m {
        super::every_row_met(&full_jacobian, &full_bias, &rows, &accelerations, t)?;
    }
    Ok(Solution { accelerations, multipliers: None, multiplier_rates: None })
}

/// `q̈` by eliminating the dependent velocities of the independent rows `A q̈ = b`.
fn eliminated(
    terms: &crate::mechanics::Terms,
    jacobian: &nalgebra::DMatrix<f64>,
    bias: &DVector<f64>,
    t: f64,
) -> Result<DVector<f64>, DynamicsError> {
    let n = jacobian.ncols();
    let (dependent, independent) = crate::mechanics::best_split(jacobian);
    let a1 = jacobian.select_columns(&dependent);
    let a2 = jacobian.select_columns(&independent);
    let lu = a1.lu();
    let x = -lu.solve(&a2).ok_or(DynamicsError::Singular {
        what: crate::mechanics::SingularMatrix::RedundantA,
        t,
        hint: crate::mechanics::SingularHint::None,
    })?;
    let a1_inv_b = lu.solve(bias).ok_or(DynamicsError::Singular {
        what: crate::mechanics::SingularMatrix::Symbol("A₁"),
        t,
        hint: crate::mechanics::SingularHint::None,
    })?;
    let k = independent.len();
    let mut null = nalgebra::DMatrix::zeros(n, k);
    let mut gamma = DVector::zeros(n);
    for (s, &i) in independent.iter().enumerate() {
        null[(i, s)] = 1.0;
    }
    for (j, &d) in dependent.iter().enumerate() {
        for s in 0..k {
            null[(d, s)] = x[(j, s)];
        }
        gamma[d] = a1_inv_b[j];
    }
    let psi = null.transpose() * &terms.mass * &null;
    let h = null.transpose() * (&terms.forcing - &terms.mass * &gamma);
    let qdd2 = psi.cholesky().ok_or(DynamicsError::NotPositiveDefinite { t })?.solve(&h);
    complete(jacobian, bias, &dependent, &independent, &qdd2, t)
}
