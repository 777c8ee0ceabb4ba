//! Gauss's principle of least constraint (paper 002 §4): among accelerations that
//! satisfy `A q̈ = b`, the true one minimises `Z = ½(q̈ − a)ᵀ M (q̈ − a)`.
//!
//! Solved on the constraint set itself: `q̈ = q̈_p + N z` with `q̈_p = A⁺b` and `N` a
//! basis of the null space of `A` (eigenvectors of `AᵀA` for zero eigenvalues);
//! then `(NᵀMN) z = NᵀM(a − q̈_p)`. No multipliers appear. The pseudo-inverse and the
//! eigenvectors are Jacobi's (`jacobi.rs`): the same bits on every target.

use nalgebra::DMatrix;

use super::Solution;
use crate::mechanics::{DynamicsError, Terms};

const RANK_TOLERANCE: f64 = 1e-10;

pub(super) fn solve(terms: &Terms, t: f64) -> Result<Solution, DynamicsError> {
    let a = super::unconstrained(terms, t)?;
    let (n, m) = (terms.mass.nrows(), terms.jacobian.nrows());
    if m == 0 {
        return Ok(Solution { accelerations: a, multipliers: None, multiplier_rates: None });
    }
    let aj = &terms.jacobian;
    let pinv = crate::math::jacobi::pseudo_inverse(aj, RANK_TOLERANCE).ok_or(DynamicsError::Singular {
        what: crate::mechanics::SingularMatrix::Symbol("A"),
        t,
        hint: crate::mechanics::SingularHint::None,
    })?;
    let particular = pinv * &terms.bias;
    let mut residual = aj * &particular;
    residual -= &terms.bias;
    if residual.norm() > 1e-8 * (1.0 + terms.bias.norm()) {
        return Err(DynamicsError::Singular {
            what: crate::mechanics::SingularMatrix::Symbol("A"),
            t,
            hint: crate::mechanics::SingularHint::Inconsistent,
        });
    }
    let (eigenvalues, eigenvectors) = crate::math::jacobi::symmetric_eigen(&(aj.transpose() * aj));
    let scale = eigenvalues.iter().cloned().fold(0.0, f64::max).max(f64::MIN_POSITIVE);
    let free: alloc::vec::Vec<usize> = (0..n).filter(|&k| eigenvalues[k] <= RANK_TOLERANCE * scale).collect();
    if free.is_empty() {
        return Ok(Solution { accelerations: particular, multipliers: None, multiplier_rates: None });
    }
    // The right-hand side runs at every stage of a run: each product is made once
    // (`NᵀM` serves both sides), in as few matrices as the arithmetic allows.
    let basis = DMatrix::from_fn(n, free.len(), |r, c| eigenvectors[(r, free[c])]);
    let projected_mass = basis.transpose() * &terms.mass;
    let reduced = &projected_mass * &basis;
    let mut difference = a;
    difference -= &particular;
    let rhs = projected_mass * difference;
    let z = reduced.cholesky().ok_or(DynamicsError::NotPositiveDefinite { t })?.solve(&rhs);
    let mut accelerations = basis * z;
    accelerations += &particular;
    Ok(Solution { accelerations, multipliers: None, multiplier_rates: None })
}
