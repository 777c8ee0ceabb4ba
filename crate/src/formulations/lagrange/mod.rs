//! Routh's equations with Lagrange multipliers: `M q̈ = F + Aᵀλ`, `A q̈ = b`. For
//! nonlinear constraints `A = ∂f/∂v`: Chetaev's model.

mod fast;
mod program;

pub(crate) use program::{hoist, with_tail};
pub use program::{lagrange_parts, lagrange_program, lagrange_program_within, MAX_COMPILED_INSTRUCTIONS};

use super::{saddle_point, Solution};
use crate::math::Workspace;
use crate::mechanics::{DynamicsError, NumericModel, Terms};

/// `q̈` into `accelerations`, returning `λ`: the integrator's right-hand side,
/// with no allocation. The range-space method (`fast.rs`) where it applies,
/// else the pivoted LU of the saddle matrix, whose errors name the culprit.
pub fn solve_into<'a>(
    numeric: &'a mut NumericModel,
    t: f64,
    q: &[f64],
    v: &[f64],
    accelerations: &mut [f64],
) -> Result<&'a [f64], DynamicsError> {
    if !fast::solve(numeric, t, q, v, accelerations) {
        let (terms, workspace) = numeric.evaluate_with_workspace(t, q, v)?;
        let s = solve(terms, workspace, t)?;
        accelerations.copy_from_slice(s.accelerations.as_slice());
        let multipliers = s.multipliers.unwrap_or_default();
        numeric.lagrange.multipliers.copy_from_slice(multipliers.as_slice());
    }
    Ok(&numeric.lagrange.multipliers)
}

pub(super) fn solve(terms: &Terms, workspace: &mut Workspace, t: f64) -> Result<Solution, DynamicsError> {
    if terms.jacobian.nrows() == 0 {
        let a = super::unconstrained(terms, t)?;
        return Ok(Solution {
            accelerations: a,
            multipliers: Some(nalgebra::DVector::zeros(0)),
            multiplier_rates: None,
        });
    }
    saddle_point(terms, &terms.jacobian, workspace, t, crate::mechanics::SingularMatrix::LagrangeSaddle)
}
