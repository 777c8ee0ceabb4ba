//! Vakonomic dynamics: `M_v q̈ + C μ̇ = F_v`, `A q̈ = b`, with the multipliers `μ`
//! part of the state (their initial values a free family parameter, paper 004's
//! integration constants). For integrable constraints the motion equals
//! `lagrange` (paper 002 eq 5.7); for genuinely nonholonomic ones it differs.

use nalgebra::{DMatrix, DVector};

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
    let (a, b) = (terms.jacobian.clone(), terms.bias.clone());
    let (m, n) = a.shape();
    let mu = DVector::from_iterator(m, (0..m).map(|j| mu.get(j).copied().unwrap_or(0.0)));
    let Some(vk) = numeric.vakonomic_terms(t, q, v, mu.as_slice()) else {
        return Err(DynamicsError::Unsupported("the vakonomic equations could not be derived for this model".into()));
    };
    let vk = vk?;
    let mut k = DMatrix::zeros(n + m, n + m);
    k.view_mut((0, 0), (n, n)).copy_from(&vk.mass);
    k.view_mut((0, n), (n, m)).copy_from(&vk.rates);
    k.view_mut((n, 0), (m, n)).copy_from(&a);
    let mut rhs = DVector::zeros(n + m);
    rhs.rows_mut(0, n).copy_from(&vk.forcing);
    rhs.rows_mut(n, m).copy_from(&b);
    let x = k.lu().solve(&rhs).filter(|x| x.iter().all(|v| v.is_finite())).ok_or(DynamicsError::Singular {
        what: "the matrix [[M_v, Aᵀ], [A, 0]] of the vakonomic equations",
        t,
        hint: "; the constraints may be redundant (the vakonomic equations need independent ones; lagrange, udwadia-kalaba, gauss and euler handle redundant ones)",
    })?;
    Ok(Solution {
        accelerations: x.rows(0, n).into_owned(),
        multipliers: Some(mu),
        multiplier_rates: Some(x.rows(n, m).into_owned()),
    })
}
