//! The first-order system's linear part `J = ∂(v, q̈)/∂(q, v)` at one state, exact:
//! from the compiled terms and their compiled derivatives, under Lagrange's
//! equations (which the ideal formulations equal) or Hamel's embedding.

use alloc::vec::Vec;

use nalgebra::{DMatrix, DVector};

use super::{Derivatives, StabilityError, TermDerivatives};
use crate::formulations::{accelerations, Method};
use crate::mechanics::{NumericModel, Terms};

/// A state's terms, `q̈`, the terms' derivatives by each variable and the Jacobian
/// `J = ∂(v, q̈)/∂(q, v)` they give.
pub(super) type FirstOrder = (Terms, DVector<f64>, Vec<TermDerivatives>, DMatrix<f64>);

/// A model compiled for evaluation and its terms' derivatives compiled with it:
/// what `J` is evaluated from, at any state.
pub(super) struct Compiled<'m> {
    pub numeric: &'m mut NumericModel,
    pub derivatives: &'m mut Derivatives,
}

impl Compiled<'_> {
    /// The terms, `q̈`, the term derivatives and `J` under `method`.
    pub(super) fn first_order(
        &mut self,
        method: Method,
        t: f64,
        q: &[f64],
        v: &[f64],
    ) -> Result<FirstOrder, StabilityError> {
        if method == Method::Hamel {
            self.hamel(t, q, v)
        } else {
            self.lagrange(t, q, v)
        }
    }

    /// `J = ∂(v, q̈)/∂(q, v)` (2n×2n) of `q̈ = a(q, v)` at `(t, q, v)`, exact: with
    /// the terms, `q̈` and the term derivatives it came from.
    fn lagrange(&mut self, t: f64, q: &[f64], v: &[f64]) -> Result<FirstOrder, StabilityError> {
        let Compiled { numeric, derivatives } = self;
        let terms = numeric.evaluate(t, q, v).map_err(|e| StabilityError::Dynamics(e.message()))?.clone();
        let parameters = numeric.parameters.clone();
        let d = derivatives.at(t, q, v, &parameters).ok_or(StabilityError::NonFinite)?;
        let (full, qdd) = system_jacobian(&terms, &d)?;
        Ok((terms, qdd, d, full))
    }

    /// As [`Compiled::lagrange`] for Hamel's embedding `Ψ q̈₂ = G`, `A₁ q̈₁ + A₂ q̈₂ = b`:
    /// `∂q̈₂ = Ψ⁻¹(∂G − ∂Ψ q̈₂)` and `∂q̈₁ = A₁⁻¹(∂b − ∂A q̈ − A₂ ∂q̈₂)`.
    fn hamel(&mut self, t: f64, q: &[f64], v: &[f64]) -> Result<FirstOrder, StabilityError> {
        let Compiled { numeric, derivatives } = self;
        let dynamics = |e: crate::mechanics::DynamicsError| StabilityError::Dynamics(e.message());
        if !derivatives.has_hamel() {
            // A caller's mistake, not the model's: said as written.
            let why = "Hamel's embedding needs its own derivatives (Derivatives::with_hamel)";
            return Err(StabilityError::Dynamics(crate::message::phrase::verbatim(why)));
        }
        let qdd = accelerations(Method::Hamel, numeric, t, q, v).map_err(dynamics)?.accelerations;
        let h = match numeric.hamel_terms(t, q, v) {
            Some(h) => h.map_err(dynamics)?.clone(),
            None => return Err(StabilityError::Dynamics(crate::message::stability::no_hamel_split())),
        };
        let terms = numeric.evaluate(t, q, v).map_err(dynamics)?.clone();
        let parameters = numeric.parameters.clone();
        let d = derivatives.at(t, q, v, &parameters).ok_or(StabilityError::NonFinite)?;
        let n = q.len();
        let psi = h.psi.clone().lu();
        // The split's rows: `A`, or `A₁ᵀA` where some constraints are redundant (the
        // derivative of `A₁ᵀ` meets `A q̈ − b = 0`, so only `A₁ᵀ` multiplies below).
        let weights = h.combined.then(|| terms.jacobian.select_columns(&h.dependent).transpose());
        let split_jacobian = match &weights {
            Some(w) => w * &terms.jacobian,
            None => terms.jacobian.clone(),
        };
        let a1 = split_jacobian.select_columns(&h.dependent).lu();
        let a2 = split_jacobian.select_columns(&h.independent);
        let qdd2 = DVector::from_iterator(h.independent.len(), h.independent.iter().map(|&i| qdd[i]));
        let mut full = DMatrix::zeros(2 * n, d.len());
        for i in 0..n {
            full[(i, n + i)] = 1.0;
        }
        for (k, dk) in d.iter().enumerate() {
            let dqdd2 = psi
                .solve(&(&dk.g - &dk.psi * &qdd2))
                .ok_or(StabilityError::Singular(crate::message::stability::hamel_psi()))?;
            let missed = &dk.bias - &dk.jacobian * &qdd;
            let rest = match &weights {
                Some(w) => w * missed,
                None => missed,
            } - &a2 * &dqdd2;
            let dqdd1 = a1.solve(&rest).ok_or(StabilityError::Singular(crate::message::stability::hamel_a1()))?;
            for (j, &i) in h.independent.iter().enumerate() {
                full[(n + i, k)] = dqdd2[j];
            }
            for (j, &i) in h.dependent.iter().enumerate() {
                full[(n + i, k)] = dqdd1[j];
            }
        }
        Ok((terms, qdd, d, full))
    }
}

/// `[[0, I], [∂q̈/∂q, ∂q̈/∂v]]` and Lagrange's `q̈` itself: one solve per variable
/// and one for `q̈` and `λ`, with the saddle matrix factored once.
fn system_jacobian(terms: &Terms, d: &[TermDerivatives]) -> Result<(DMatrix<f64>, DVector<f64>), StabilityError> {
    let n = terms.mass.nrows();
    // Redundant constraints (two wheels on one axle): where the rank holds near the
    // reference, the motion is that of an independent subset of the rows, whose
    // multipliers are unique; it is differentiated instead.
    let rows = crate::mechanics::independent_rows(&terms.jacobian);
    let m = rows.len();
    let jacobian = terms.jacobian.select_rows(&rows);
    let mut saddle = DMatrix::zeros(n + m, n + m);
    saddle.view_mut((0, 0), (n, n)).copy_from(&terms.mass);
    saddle.view_mut((0, n), (n, m)).copy_from(&(-jacobian.transpose()));
    saddle.view_mut((n, 0), (m, n)).copy_from(&jacobian);
    let lu = saddle.lu();
    let mut rhs = DVector::zeros(n + m);
    rhs.rows_mut(0, n).copy_from(&terms.forcing);
    rhs.rows_mut(n, m).copy_from(&terms.bias.select_rows(&rows));
    if !lu.solve_mut(&mut rhs) {
        return Err(StabilityError::Singular(crate::message::stability::saddle()));
    }
    let (qdd, lambda) = (rhs.rows(0, n).into_owned(), rhs.rows(n, m).into_owned());
    let mut full = DMatrix::zeros(2 * n, d.len());
    for i in 0..n {
        full[(i, n + i)] = 1.0;
    }
    // `[∂F − ∂M q̈ + ∂A₁ᵀ λ; ∂b₁ − ∂A₁ q̈]` for each variable, in one reused vector
    // (a map's point differentiates by 16 variables).
    let mut rhs = DVector::zeros(n + m);
    for (k, dk) in d.iter().enumerate() {
        for i in 0..n {
            let by_mass: f64 = (0..n).map(|j| dk.mass[(i, j)] * qdd[j]).sum();
            let by_multipliers: f64 = rows.iter().zip(lambda.iter()).map(|(&r, l)| dk.jacobian[(r, i)] * l).sum();
            rhs[i] = dk.forcing[i] - by_mass + by_multipliers;
        }
        for (row, &r) in rows.iter().enumerate() {
            let by_jacobian: f64 = (0..n).map(|j| dk.jacobian[(r, j)] * qdd[j]).sum();
            rhs[n + row] = dk.bias[r] - by_jacobian;
        }
        if !lu.solve_mut(&mut rhs) {
            return Err(StabilityError::Singular(crate::message::stability::saddle()));
        }
        for i in 0..n {
            full[(n + i, k)] = rhs[i];
        }
    }
    Ok((full, qdd))
}
