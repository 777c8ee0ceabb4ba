//! Hamel's embedding (paper 000, eqs 4–11): `Ψ q̈₂ = G`, the dependent accelerations
//! from the constraints. Right only where the E-vector vanishes; the lab integrates
//! it as a method of its own so that users see it drift from the truth.
//!
//! The split is fixed (from `[hamel] dependent` or chosen at the initial state). When
//! it turns singular along a run the method stops with a message saying where.

use nalgebra::{DMatrix, DVector};

use super::Solution;
use crate::mechanics::{DynamicsError, NumericModel};

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
    let qdd1 = a1.lu().solve(&rhs).ok_or(DynamicsError::Singular {
        what: crate::mechanics::SingularMatrix::Symbol("A₁"),
        t,
        hint: crate::mechanics::SingularHint::None,
    })?;
    let mut qdd = DVector::zeros(n);
    for (k, &i) in independent.iter().enumerate() {
        qdd[i] = qdd2[k];
    }
    for (k, &i) in dependent.iter().enumerate() {
        qdd[i] = qdd1[k];
    }
    Ok(qdd)
}

pub(super) fn solve(numeric: &mut NumericModel, t: f64, q: &[f64], v: &[f64]) -> Result<Solution, DynamicsError> {
    if numeric.m() == 0 {
        return Err(DynamicsError::Unsupported(crate::message::run::hamel_no_constraints()));
    }
    if !numeric.nonlinear_constraints.is_empty() {
        return Err(DynamicsError::Unsupported(crate::mechanics::SplitError::Nonlinear.message()));
    }
    let terms = numeric.evaluate_dynamics(t, q, v)?;
    let (jacobian, bias) = (terms.jacobian.clone(), terms.bias.clone());
    let Some(hamel) = numeric.hamel_terms(t, q, v) else {
        return Err(DynamicsError::Unsupported(crate::message::run::hamel_needs_regular_split()));
    };
    let h = hamel?;
    if !h.split_regular {
        return Err(DynamicsError::Singular {
            what: crate::mechanics::SingularMatrix::HamelSplit,
            t,
            hint: crate::mechanics::SingularHint::ChooseDependent,
        });
    }
    let qdd2 = h.psi.clone().lu().solve(&h.g).ok_or(DynamicsError::Singular {
        what: crate::mechanics::SingularMatrix::Symbol("Ψ"),
        t,
        hint: crate::mechanics::SingularHint::None,
    })?;
    let (dependent, independent) = (h.dependent.clone(), h.independent.clone());
    let (jacobian, bias) = if h.combined {
        let a1t = jacobian.select_columns(&dependent).transpose();
        (&a1t * &jacobian, &a1t * &bias)
    } else {
        (jacobian, bias)
    };
    let accelerations = complete(&jacobian, &bias, &dependent, &independent, &qdd2, t)?;
    Ok(Solution { accelerations, multipliers: None, multiplier_rates: None })
}
