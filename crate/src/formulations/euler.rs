//! Routh's equations with Shen's Euler-condition reaction (paper 003 eqs 30, 36–38):
//! `M q̈ = F + Rᵀλ`, `A q̈ = b`, with `R_k = Σ_l (1/l) ∂g_l/∂v_k` for the parts `g_l`
//! of `f` homogeneous of degree `l` in `v`. Computed without splitting `f`:
//!
//! `R(q, v, t) = ∫₀¹ ∂f/∂v (q, s·v, t) ds`
//!
//! by 8-point Gauss–Legendre quadrature, exact for constraints polynomial in `v` up
//! to degree 16 and for any `f` homogeneous of one degree (the integrand is then a
//! power of `s`). For linear `f`, `R = A` and the method equals `lagrange`.

use nalgebra::DMatrix;

use super::{saddle_point, Solution};
use crate::mechanics::{DynamicsError, NumericModel};

/// Gauss–Legendre nodes and weights on [0, 1], 8 points.
const NODES: [(f64, f64); 8] = {
    // Nodes x_i and weights w_i on [-1, 1], mapped by s = (1 + x)/2, w/2.
    const X: [f64; 4] =
        [0.183_434_642_495_649_8, 0.525_532_409_916_329, 0.796_666_477_413_626_7, 0.960_289_856_497_536_3];
    const W: [f64; 4] =
        [0.362_683_783_378_362, 0.313_706_645_877_887_3, 0.222_381_034_453_374_5, 0.101_228_536_290_376_3];
    let mut out = [(0.0, 0.0); 8];
    let mut i = 0;
    while i < 4 {
        out[2 * i] = ((1.0 - X[i]) / 2.0, W[i] / 2.0);
        out[2 * i + 1] = ((1.0 + X[i]) / 2.0, W[i] / 2.0);
        i += 1;
    }
    out
};

/// `R(q, v, t) = ∫₀¹ ∂f/∂v(q, s v, t) ds`.
pub fn euler_reaction(numeric: &mut NumericModel, t: f64, q: &[f64], v: &[f64]) -> Result<DMatrix<f64>, DynamicsError> {
    let mut r = DMatrix::zeros(numeric.m(), numeric.n());
    let mut scaled = alloc::vec![0.0; v.len()];
    for &(s, w) in &NODES {
        for (x, &vi) in scaled.iter_mut().zip(v) {
            *x = s * vi;
        }
        r += numeric.jacobian_at(t, q, &scaled)? * w;
    }
    Ok(r)
}

pub(super) fn solve(numeric: &mut NumericModel, t: f64, q: &[f64], v: &[f64]) -> Result<Solution, DynamicsError> {
    let reaction = euler_reaction(numeric, t, q, v)?;
    let (terms, workspace) = numeric.evaluate_with_workspace(t, q, v)?;
    if terms.jacobian.nrows() == 0 {
        return super::lagrange::solve(terms, workspace, t);
    }
    saddle_point(terms, &reaction, workspace, t, crate::mechanics::SingularMatrix::EulerSaddle)
}

#[cfg(test)]
mod tests {
    use super::NODES;

    #[test]
    fn quadrature_is_exact_to_degree_15() {
        for p in 0..16 {
            let integral: f64 = NODES.iter().map(|&(s, w)| w * libm::pow(s, p as f64)).sum();
            assert!((integral - 1.0 / (p as f64 + 1.0)).abs() < 1e-14, "s^{p}: {integral}");
        }
    }
}
