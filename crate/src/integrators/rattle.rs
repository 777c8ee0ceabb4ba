//! Structure-preserving integrators for nonholonomic systems: a reversible,
//! second-order nonholonomic RATTLE from the discrete Lagrange–d'Alembert
//! principle, and its symmetric triple-jump composition, of order 4.
//!
//! The step (derived in the reference, "Structure-preserving integrators") works
//! with the momentum `p = P(q, v) = ∂T/∂v` and `g(q, v) = ∂L/∂q + Q = F + K v`
//! ([`crate::mechanics::DiscreteTerms`]); with `h` the step:
//!
//! ```text
//! P(q₀, v₀) = p₀ + h/2 (g(q₀, v₀) + A(q₀)ᵀ λ)      the half-step momentum p½
//! q₁ = q₀ + h/2 (v₀ + v₁),   P(q₁, v₁) = p½
//! φ(q₁) = 0 (holonomic),  r((q₀ + q₁)/2, (q₁ − q₀)/h) = 0 (nonholonomic)
//! p₁ = p½ + h/2 (g(q₁, v₁) + A(q₁)ᵀ μ),   r(q₁, v(q₁, p₁)) = 0
//! ```
//!
//! The first four lines are solved together by Newton's method with their exact
//! Jacobian (`∂P/∂v = M`, `∂P/∂q = K`, `∂g/∂v = Kᵀ`, `∂r/∂q = R`); the last is
//! linear in `μ`. Swapping the ends and the sign of `h` gives the same equations
//! (the discrete constraint at the midpoint is symmetric, and the end's velocity
//! constraint holds at the start already), so the step is symmetric: of even
//! order, 2, and its inverse is the step with `−h`. It is reversible under
//! `v ↦ −v` when `T` has no term linear in the velocities; Modin & Verdier's test
//! (the gallery's) breaks exactly that. This is McLachlan & Perlmutter's
//! reversible discretisation (J. Nonlinear Sci. 16, 2006) of the constraint, in
//! the RATTLE form of Ferraro, Iglesias & Martín de Diego (Nonlinearity 21, 2008),
//! written for a configuration-dependent `M(q)`.
//!
//! Hand-written on nalgebra's LU (the system has `3n + m` unknowns) rather than a
//! crate: no nonlinear solver crate is `no_std` and gives the exact-Jacobian
//! Newton with the bounded, named failure the lab needs.

use alloc::vec::Vec;
use nalgebra::{DMatrix, DVector};

use crate::mechanics::{DiscreteLayout, DiscreteTerms, DynamicsError};

/// Newton iterations a step may take before it is rejected.
pub const MAX_ITERATIONS: usize = 30;

/// Yoshida's triple jump: `γ₁ = 1/(2 − 2^{1/3})`, and `1 − 2γ₁` in the middle.
const TRIPLE_JUMP: f64 = 1.351_207_191_959_657_8;

/// The stepper: its order, and the last step's ends for dense output.
#[derive(Clone, Debug)]
pub struct Rattle {
    /// 2, or 4 for the composition.
    order: u32,
    /// `(t, q, v)` at the last step's start and end.
    start: (f64, Vec<f64>, Vec<f64>),
    end: (f64, Vec<f64>, Vec<f64>),
    /// The last step's Newton iterations, the most of its substeps (for the tests
    /// and the benchmark).
    pub iterations: usize,
}

impl Rattle {
    /// A stepper of order 2 (`rattle`) or 4 (`rattle4`).
    pub fn new(order: u32) -> Rattle {
        Rattle { order, start: (0.0, Vec::new(), Vec::new()), end: (0.0, Vec::new(), Vec::new()), iterations: 0 }
    }

    /// Steps `(q, v)` (`y`, `q` first) from `t` by `h` (negative steps back).
    pub fn step(
        &mut self,
        terms: &mut DiscreteTerms,
        parameters: &[f64],
        t: f64,
        y: &mut [f64],
        h: f64,
    ) -> Result<(), DynamicsError> {
        let n = terms.layout.n;
        self.start = (t, y[..n].to_vec(), y[n..2 * n].to_vec());
        self.iterations = 0;
        let fractions: &[f64] =
            if self.order == 4 { &[TRIPLE_JUMP, 1.0 - 2.0 * TRIPLE_JUMP, TRIPLE_JUMP] } else { &[1.0] };
        let mut at = t;
        for &f in fractions {
            let iterations = substep(terms, parameters, at, y, f * h)?;
            self.iterations = self.iterations.max(iterations);
            at += f * h;
        }
        self.end = (t + h, y[..n].to_vec(), y[n..2 * n].to_vec());
        Ok(())
    }

    /// The state at `t` inside the last step into `y`: the cubic Hermite
    /// interpolant of `q` through both ends' `q` and `v`, and its derivative for
    /// `v` (both ends exact, second order inside). False before the first step.
    pub fn interpolate(&self, t: f64, y: &mut [f64]) -> bool {
        let (t0, q0, v0) = &self.start;
        let (t1, q1, v1) = &self.end;
        let n = q0.len();
        let h = t1 - t0;
        if n == 0 || h == 0.0 || y.len() < 2 * n {
            return false;
        }
        let s = (t - t0) / h;
        let (h00, h10, h01, h11) = (
            2.0 * s * s * s - 3.0 * s * s + 1.0,
            s * s * s - 2.0 * s * s + s,
            -2.0 * s * s * s + 3.0 * s * s,
            s * s * s - s * s,
        );
        let (d00, d10, d01, d11) =
            (6.0 * s * s - 6.0 * s, 3.0 * s * s - 4.0 * s + 1.0, -6.0 * s * s + 6.0 * s, 3.0 * s * s - 2.0 * s);
        for i in 0..n {
            y[i] = h00 * q0[i] + h10 * h * v0[i] + h01 * q1[i] + h11 * h * v1[i];
            y[n + i] = (d00 * q0[i] + d01 * q1[i]) / h + d10 * v0[i] + d11 * v1[i];
        }
        true
    }
}

/// Row-major `rows × cols` block of `values` as a matrix.
fn matrix(values: &[f64], rows: usize, cols: usize) -> DMatrix<f64> {
    DMatrix::from_row_slice(rows, cols, values)
}

/// The terms at one point, copied out of the evaluator.
struct At {
    mass: DMatrix<f64>,
    forcing: DVector<f64>,
    momentum: DVector<f64>,
    /// `K = ∂P/∂q`.
    k: DMatrix<f64>,
    jacobian: DMatrix<f64>,
    residuals: DVector<f64>,
    /// `R = ∂r/∂q`.
    r: DMatrix<f64>,
    positions: DVector<f64>,
}

fn evaluate(terms: &mut DiscreteTerms, parameters: &[f64], q: &[f64], v: &[f64], t: f64) -> Result<At, DynamicsError> {
    if !terms.evaluate(q, v, parameters) {
        return Err(DynamicsError::NonFinite { what: crate::message::run::step_term(), t });
    }
    let DiscreteLayout { n, m } = terms.layout;
    let l = terms.layout;
    let x = &terms.values;
    Ok(At {
        mass: matrix(&x[l.mass()], n, n),
        forcing: DVector::from_column_slice(&x[l.forcing()]),
        momentum: DVector::from_column_slice(&x[l.momentum()]),
        k: matrix(&x[l.momentum_derivative()], n, n),
        jacobian: matrix(&x[l.jacobian()], m, n),
        residuals: DVector::from_column_slice(&x[l.residuals()]),
        r: matrix(&x[l.residual_derivative()], m, n),
        positions: DVector::from_column_slice(&x[l.positions()]),
    })
}

/// The first half-step's equations at the unknowns `x = (v₀, q₁, v₁, λ)`, from
/// `(q₀, p₀)` at `t` with step `h`: their residual and exact Jacobian.
struct HalfStep<'a> {
    terms: &'a mut DiscreteTerms,
    parameters: &'a [f64],
    holonomic: Vec<bool>,
    q0: DVector<f64>,
    p0: DVector<f64>,
    t: f64,
    h: f64,
}

impl HalfStep<'_> {
    fn residual_and_jacobian(&mut self, x: &DVector<f64>) -> Result<(DVector<f64>, DMatrix<f64>), DynamicsError> {
        let DiscreteLayout { n, m } = self.terms.layout;
        let (q0, h, t) = (&self.q0, self.h, self.t);
        let v0 = x.rows(0, n).into_owned();
        let q1 = x.rows(n, n).into_owned();
        let v1 = x.rows(2 * n, n).into_owned();
        let lambda = x.rows(3 * n, m).into_owned();
        let e0 = evaluate(self.terms, self.parameters, q0.as_slice(), v0.as_slice(), t)?;
        let e1 = evaluate(self.terms, self.parameters, q1.as_slice(), v1.as_slice(), t + h)?;
        let mid = (q0 + &q1) * 0.5;
        let rate = (&q1 - q0) / h;
        let em = evaluate(self.terms, self.parameters, mid.as_slice(), rate.as_slice(), t + 0.5 * h)?;
        let g0 = &e0.forcing + &e0.k * &v0;
        let size = 3 * n + m;
        let mut residual = DVector::zeros(size);
        residual
            .rows_mut(0, n)
            .copy_from(&(&e0.momentum - &self.p0 - (&g0 + e0.jacobian.transpose() * &lambda) * (0.5 * h)));
        residual.rows_mut(n, n).copy_from(&(&q1 - q0 - (&v0 + &v1) * (0.5 * h)));
        residual.rows_mut(2 * n, n).copy_from(&(&e1.momentum - &e0.momentum));
        for j in 0..m {
            residual[3 * n + j] = if self.holonomic[j] { e1.positions[j] } else { em.residuals[j] };
        }
        let mut jac = DMatrix::zeros(size, size);
        jac.view_mut((0, 0), (n, n)).copy_from(&(&e0.mass - e0.k.transpose() * (0.5 * h)));
        jac.view_mut((0, 3 * n), (n, m)).copy_from(&(e0.jacobian.transpose() * (-0.5 * h)));
        for i in 0..n {
            jac[(n + i, i)] = -0.5 * h;
            jac[(n + i, n + i)] = 1.0;
            jac[(n + i, 2 * n + i)] = -0.5 * h;
        }
        jac.view_mut((2 * n, 0), (n, n)).copy_from(&(-&e0.mass));
        jac.view_mut((2 * n, n), (n, n)).copy_from(&e1.k);
        jac.view_mut((2 * n, 2 * n), (n, n)).copy_from(&e1.mass);
        for j in 0..m {
            for k in 0..n {
                jac[(3 * n + j, n + k)] =
                    if self.holonomic[j] { e1.jacobian[(j, k)] } else { 0.5 * em.r[(j, k)] + em.jacobian[(j, k)] / h };
            }
        }
        Ok((residual, jac))
    }
}

/// Newton's starting point: the half-step's unknowns from the continuous
/// motion's accelerations at the start (`M q̈ = F + Aᵀλ`, `A q̈ = −R v`), good
/// to `O(h²)` in the velocities and `O(h³)` in `q₁`; a plain `v₀ = v` where that
/// system is singular.
fn predictor(start: &At, q0: &DVector<f64>, v: &DVector<f64>, h: f64) -> DVector<f64> {
    let n = q0.len();
    let m = start.jacobian.nrows();
    let mut kkt = DMatrix::zeros(n + m, n + m);
    kkt.view_mut((0, 0), (n, n)).copy_from(&start.mass);
    kkt.view_mut((0, n), (n, m)).copy_from(&(-start.jacobian.transpose()));
    kkt.view_mut((n, 0), (m, n)).copy_from(&start.jacobian);
    let mut rhs = DVector::zeros(n + m);
    rhs.rows_mut(0, n).copy_from(&start.forcing);
    rhs.rows_mut(n, m).copy_from(&(-(&start.r * v)));
    let solved = kkt.lu().solve(&rhs).filter(|s| s.iter().all(|x| x.is_finite()));
    let (a, lambda) = match &solved {
        Some(s) => (s.rows(0, n).into_owned(), s.rows(n, m).into_owned()),
        None => (DVector::zeros(n), DVector::zeros(m)),
    };
    let mut x = DVector::zeros(3 * n + m);
    let half = v + &a * (0.5 * h);
    x.rows_mut(0, n).copy_from(&half);
    x.rows_mut(n, n).copy_from(&(q0 + v * h + &a * (0.5 * h * h)));
    x.rows_mut(2 * n, n).copy_from(&half);
    x.rows_mut(3 * n, m).copy_from(&lambda);
    x
}

/// One RATTLE step of `h` from `t`; the Newton iterations it took.
fn substep(
    terms: &mut DiscreteTerms,
    parameters: &[f64],
    t: f64,
    y: &mut [f64],
    h: f64,
) -> Result<usize, DynamicsError> {
    let DiscreteLayout { n, m } = terms.layout;
    let q0 = DVector::from_column_slice(&y[..n]);
    let v_start = DVector::from_column_slice(&y[n..2 * n]);
    let start = evaluate(terms, parameters, q0.as_slice(), v_start.as_slice(), t)?;
    let x0 = predictor(&start, &q0, &v_start, h);
    let p0 = start.momentum;
    let mut x = x0;
    let scale = 1.0 + q0.amax().max(v_start.amax());
    let holonomic = terms.holonomic.clone();
    let mut half = HalfStep { terms, parameters, holonomic, q0: q0.clone(), p0, t, h };
    let mut converged_at = None;
    let mut previous = f64::INFINITY;
    let (mut residual, mut jac) = half.residual_and_jacobian(&x)?;
    for iteration in 1..=MAX_ITERATIONS {
        let Some(mut delta) = jac.clone().lu().solve(&(-&residual)) else {
            return Err(DynamicsError::Singular {
                what: crate::mechanics::SingularMatrix::Newton,
                t,
                hint: crate::mechanics::SingularHint::RedundantOrLargeStep,
            });
        };
        if delta.iter().any(|d| !d.is_finite()) {
            return Err(DynamicsError::NonFinite { what: crate::message::run::step(), t });
        }
        // Backtracking: a full step that makes the residual larger is halved (at
        // most eight times), which keeps a large step's Newton from wandering off.
        let mut tried = 0;
        let next = loop {
            let candidate = &x + &delta;
            let evaluated = half.residual_and_jacobian(&candidate);
            match evaluated {
                Ok((r, j)) if r.amax() < residual.amax() || tried == 8 || r.amax() <= 1e-13 * scale => {
                    break (candidate, r, j)
                }
                Err(e) if tried == 8 => return Err(e),
                _ => {
                    delta *= 0.5;
                    tried += 1;
                }
            }
        };
        (x, residual, jac) = next;
        // Converged once the update is round-off beside the state (Newton's next
        // would be its square), or has stopped shrinking at the level of
        // round-off.
        let size_now = delta.rows(0, 3 * n).amax();
        let stalled = iteration > 3 && size_now >= previous && size_now <= 1e-9 * scale;
        if size_now <= 1e-13 * scale || stalled {
            converged_at = Some(iteration);
            break;
        }
        previous = size_now;
    }
    let Some(iterations) = converged_at else {
        return Err(DynamicsError::NotConverged { t, h, iterations: MAX_ITERATIONS });
    };
    let q1 = x.rows(n, n).into_owned();
    let v1 = x.rows(2 * n, n).into_owned();
    let e1 = evaluate(terms, parameters, q1.as_slice(), v1.as_slice(), t + h)?;
    let g1 = &e1.forcing + &e1.k * &v1;
    // The end's velocity: v = v₁ + h/2 M₁⁻¹ (g₁ + A₁ᵀ μ), with μ from r(q₁, v) = 0.
    let Some(lu) = Some(e1.mass.clone().lu()).filter(|lu| lu.is_invertible()) else {
        return Err(DynamicsError::Singular {
            what: crate::mechanics::SingularMatrix::Mass,
            t: t + h,
            hint: crate::mechanics::SingularHint::None,
        });
    };
    let free = lu.solve(&g1).unwrap_or_else(|| DVector::zeros(n));
    let mut change = free.clone();
    if m > 0 {
        let minv_at = lu.solve(&e1.jacobian.transpose()).unwrap_or_else(|| DMatrix::zeros(n, m));
        let s = &e1.jacobian * &minv_at;
        let rhs = -(&e1.residuals * (2.0 / h)) - &e1.jacobian * &free;
        let Some(mu) = s.lu().solve(&rhs) else {
            return Err(DynamicsError::Singular {
                what: crate::mechanics::SingularMatrix::Symbol("A M⁻¹ Aᵀ"),
                t: t + h,
                hint: crate::mechanics::SingularHint::RedundantHere,
            });
        };
        change += minv_at * mu;
    }
    let v_end = &v1 + change * (0.5 * h);
    y[..n].copy_from_slice(q1.as_slice());
    y[n..2 * n].copy_from_slice(v_end.as_slice());
    Ok(iterations)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mechanics::{Model, NumericModel};

    /// The Newton matrix is the exact Jacobian of the half-step's equations:
    /// central differences agree to 1e-6 (relative) on the rolling disk at a state
    /// off its start, every unknown moved.
    #[test]
    fn the_half_steps_jacobian_is_its_derivative() {
        let text =
            include_str!("../../../scenarios/rolling-disk.toml").replace("[run]\n", "[run]\nintegrator = \"rattle\"\n");
        let (scenario, map) = crate::scenario::load_toml(&text).expect("loads");
        let model = Model::build(&scenario, &map).expect("builds");
        let numeric = NumericModel::new(&model).expect("compiles");
        let mut terms = numeric.discrete.clone().expect("asked").expect("applies");
        let DiscreteLayout { n, m } = terms.layout;
        let q0 = DVector::from_fn(n, |i, _| 0.1 + 0.07 * i as f64);
        let v0 = DVector::from_fn(n, |i, _| 0.8 - 0.3 * i as f64);
        let p0 = evaluate(&mut terms, &numeric.parameters, q0.as_slice(), v0.as_slice(), 0.0).expect("finite").momentum;
        let holonomic = terms.holonomic.clone();
        let mut half = HalfStep {
            terms: &mut terms,
            parameters: &numeric.parameters,
            holonomic,
            q0: q0.clone(),
            p0,
            t: 0.0,
            h: 0.1,
        };
        let x = DVector::from_fn(3 * n + m, |i, _| 0.3 + 0.11 * (i as f64).sin());
        let (_, jac) = half.residual_and_jacobian(&x).expect("finite");
        let step = 1e-6;
        for k in 0..x.len() {
            let (mut up, mut down) = (x.clone(), x.clone());
            up[k] += step;
            down[k] -= step;
            let column = (half.residual_and_jacobian(&up).expect("finite").0
                - half.residual_and_jacobian(&down).expect("finite").0)
                / (2.0 * step);
            let gap = (&column - jac.column(k)).amax();
            assert!(gap <= 1e-6 * (1.0 + column.amax()), "unknown {k}: {gap:e}\n{column}\n{}", jac.column(k));
        }
    }
}
