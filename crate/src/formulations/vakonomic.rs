//! Vakonomic dynamics: `M_v q̈ + C μ̇ = F_v`, `A q̈ = b`, with the multipliers `μ`
//! part of the state (their initial values a free family parameter, paper 004's
//! integration constants). For integrable constraints the motion equals
//! `lagrange` (paper 002 eq 5.7); for genuinely nonholonomic ones it differs.

use nalgebra::DVector;

use super::Solution;
use crate::mechanics::{DynamicsError, NumericModel};

pub(super) fn solve(
    numeric: &mut NumericModel,
    t: f64,
    q: &[f64],
    v: &[f64],
    mu: &[f64],
) -> Result<Solution, DynamicsError> {
    let terms = numeric.evaluate_dynamics(t, q, v)?;
    let m = terms.jacobian.nrows();
    let mu = DVector::from_iterator(m, (0..m).map(|j| mu.get(j).copied().unwrap_or(0.0)));
    // `[[M_v, C], [A, 0]] [q̈; μ̇] = [F_v; b]` is the multipliers' saddle point with
    // `M_v`, `F_v` for `M`, `F` and the reaction `−Cᵀ`; where constraints are
    // redundant its fallback takes an independent subset and the minimum-norm `μ̇`.
    // Which of the redundant rows' multipliers moves does not change the motion:
    // with `f_r = Σ c_s f_s`, `μᵀf = Σ_s (μ_s + μ_r c_s) f_s`.
    let mut saddle = terms.clone();
    let Some(vk) = numeric.vakonomic_terms(t, q, v, mu.as_slice()) else {
        return Err(DynamicsError::Unsupported(crate::message::run::vakonomic_not_derived_here()));
    };
    let vk = vk?;
    saddle.mass.copy_from(&vk.mass);
    saddle.forcing.copy_from(&vk.forcing);
    let reaction = -vk.rates.transpose();
    let solution = super::saddle_point(
        &saddle,
        &reaction,
        &mut crate::math::Workspace::default(),
        t,
        crate::mechanics::SingularMatrix::VakonomicSaddle,
    )?;
    Ok(Solution {
        accelerations: solution.accelerations,
        multipliers: Some(mu),
        multiplier_rates: solution.multipliers,
    })
}
