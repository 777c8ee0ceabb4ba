//! Routh's equations with Lagrange multipliers: `M q̈ = F + Aᵀλ`, `A q̈ = b`. For
//! nonlinear constraints `A = ∂f/∂v`: Chetaev's model.

use super::dense::Workspace;
use super::{saddle_point, Solution};
use crate::mechanics::{DynamicsError, Terms};

pub(super) fn solve(terms: &Terms, workspace: &mut Workspace, t: f64) -> Result<Solution, DynamicsError> {
    if terms.jacobian.nrows() == 0 {
        let a = super::unconstrained(terms, t)?;
        return Ok(Solution {
            accelerations: a,
            multipliers: Some(nalgebra::DVector::zeros(0)),
            multiplier_rates: None,
        });
    }
    saddle_point(terms, &terms.jacobian, workspace, t, "the matrix [[M, −Aᵀ], [A, 0]] of Lagrange's equations")
}
