//! One RATTLE step: the half-step's `3n + m` equations solved by Newton's method
//! with their exact Jacobian, then the end's velocity (linear in `μ`), in buffers
//! kept from step to step ([`Workspace`]) so that a step allocates nothing.

use alloc::vec::Vec;

use super::MAX_ITERATIONS;
use crate::mechanics::{DiscreteLayout, DiscreteTerms, DynamicsError};

/// The terms at one point, copied out of the evaluator into buffers that are
/// reused from step to step (matrices row-major).
#[derive(Clone, Debug, Default)]
pub(super) struct At {
    /// `M`, `n × n`.
    mass: Vec<f64>,
    forcing: Vec<f64>,
    momentum: Vec<f64>,
    /// `K = ∂P/∂q`, `n × n`.
    k: Vec<f64>,
    /// `A`, `m × n`.
    jacobian: Vec<f64>,
    residuals: Vec<f64>,
    /// `R = ∂r/∂q`, `m × n`.
    r: Vec<f64>,
    positions: Vec<f64>,
}

/// `values` into `buffer` (which keeps its capacity).
fn refill(buffer: &mut Vec<f64>, values: &[f64]) {
    buffer.clear();
    buffer.extend_from_slice(values);
}

/// `out = matrix · x` for a row-major `rows × x.len()` matrix.
fn times(matrix: &[f64], x: &[f64], out: &mut [f64]) {
    let cols = x.len();
    for (o, row) in out.iter_mut().zip(matrix.chunks_exact(cols.max(1))) {
        *o = row.iter().zip(x).map(|(a, b)| a * b).sum();
    }
}

/// `out = matrixᵀ · y` for a row-major `y.len() × out.len()` matrix.
fn times_transposed(matrix: &[f64], y: &[f64], out: &mut [f64]) {
    let cols = out.len();
    out.fill(0.0);
    for (row, &yj) in matrix.chunks_exact(cols.max(1)).zip(y) {
        for (o, a) in out.iter_mut().zip(row) {
            *o += a * yj;
        }
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn largest(x: &[f64]) -> f64 {
    x.iter().fold(0.0, |m, v| m.max(v.abs()))
}

impl At {
    /// The terms at `(q, v, t)`.
    pub(super) fn evaluate(
        &mut self,
        terms: &mut DiscreteTerms,
        parameters: &[f64],
        q: &[f64],
        v: &[f64],
        t: f64,
    ) -> Result<(), DynamicsError> {
        if !terms.evaluate(q, v, parameters) {
            return Err(DynamicsError::NonFinite { what: crate::message::run::step_term(), t });
        }
        let l = terms.layout;
        let x = &terms.values;
        refill(&mut self.mass, &x[l.mass()]);
        refill(&mut self.forcing, &x[l.forcing()]);
        refill(&mut self.momentum, &x[l.momentum()]);
        refill(&mut self.k, &x[l.momentum_derivative()]);
        refill(&mut self.jacobian, &x[l.jacobian()]);
        refill(&mut self.residuals, &x[l.residuals()]);
        refill(&mut self.r, &x[l.residual_derivative()]);
        refill(&mut self.positions, &x[l.positions()]);
        Ok(())
    }

    /// `vᵀ M v`.
    fn kinetic_size(&self, v: &[f64], scratch: &mut Vec<f64>) -> f64 {
        scratch.resize(v.len(), 0.0);
        times(&self.mass, v, scratch);
        dot(v, scratch)
    }
}

/// What a step needs besides the model, kept from step to step so that a step
/// allocates nothing once the first has sized it: the terms at the three points of
/// the half-step, Newton's unknowns, residuals and Jacobians, and the dense LU's
/// buffers ([`crate::math::Workspace`], which does not consume its matrix as
/// nalgebra's `LU` does).
#[derive(Clone, Debug, Default)]
pub struct Workspace {
    e0: At,
    e1: At,
    em: At,
    q0: Vec<f64>,
    p0: Vec<f64>,
    x: Vec<f64>,
    candidate: Vec<f64>,
    delta: Vec<f64>,
    residual: Vec<f64>,
    jac: Vec<f64>,
    trial_residual: Vec<f64>,
    trial_jac: Vec<f64>,
    /// `(q₀ + q₁)/2`, `(q₁ − q₀)/h`, `g`, and an `n`-vector of scratch.
    mid: Vec<f64>,
    rate: Vec<f64>,
    g: Vec<f64>,
    scratch: Vec<f64>,
    /// `M⁻¹ Aᵀ` (`n × m`, row-major) and the end's `μ`.
    minv_at: Vec<f64>,
    lu: crate::math::Workspace,
}

/// The first half-step's equations at the unknowns `x = (v₀, q₁, v₁, λ)`, from
/// `(q₀, p₀)` at `t` with step `h`: their residual and exact Jacobian (row-major).
struct HalfStep<'a> {
    terms: &'a mut DiscreteTerms,
    parameters: &'a [f64],
    t: f64,
    h: f64,
}

/// The buffers [`HalfStep::residual_and_jacobian`] works in.
struct Points<'a> {
    e0: &'a mut At,
    e1: &'a mut At,
    em: &'a mut At,
    mid: &'a mut Vec<f64>,
    rate: &'a mut Vec<f64>,
    g: &'a mut Vec<f64>,
}

impl HalfStep<'_> {
    #[allow(clippy::too_many_arguments)]
    fn residual_and_jacobian(
        &mut self,
        at: Points<'_>,
        q0: &[f64],
        p0: &[f64],
        x: &[f64],
        residual: &mut Vec<f64>,
        jac: &mut Vec<f64>,
    ) -> Result<(), DynamicsError> {
        let DiscreteLayout { n, m } = self.terms.layout;
        let (h, t) = (self.h, self.t);
        let Points { e0, e1, em, mid, rate, g } = at;
        let (v0, rest) = x.split_at(n);
        let (q1, rest) = rest.split_at(n);
        let (v1, lambda) = rest.split_at(n);
        e0.evaluate(self.terms, self.parameters, q0, v0, t)?;
        e1.evaluate(self.terms, self.parameters, q1, v1, t + h)?;
        mid.clear();
        mid.extend(q0.iter().zip(q1).map(|(a, b)| (a + b) * 0.5));
        rate.clear();
        rate.extend(q0.iter().zip(q1).map(|(a, b)| (b - a) / h));
        em.evaluate(self.terms, self.parameters, mid, rate, t + 0.5 * h)?;
        let size = 3 * n + m;
        residual.clear();
        residual.resize(size, 0.0);
        // g₀ + A₀ᵀ λ, with g₀ = F₀ + K₀ v₀.
        g.resize(n, 0.0);
        times(&e0.k, v0, g);
        times_transposed(&e0.jacobian, lambda, &mut residual[..n]);
        for i in 0..n {
            let pull = e0.forcing[i] + g[i] + residual[i];
            residual[i] = e0.momentum[i] - p0[i] - pull * (0.5 * h);
            residual[n + i] = q1[i] - q0[i] - (v0[i] + v1[i]) * (0.5 * h);
            residual[2 * n + i] = e1.momentum[i] - e0.momentum[i];
        }
        let holonomic = &self.terms.holonomic;
        for j in 0..m {
            residual[3 * n + j] = if holonomic[j] { e1.positions[j] } else { em.residuals[j] };
        }
        jac.clear();
        jac.resize(size * size, 0.0);
        for i in 0..n {
            let row = &mut jac[i * size..(i + 1) * size];
            for (k, x) in row[..n].iter_mut().enumerate() {
                // M₀ − h/2 K₀ᵀ
                *x = e0.mass[i * n + k] - e0.k[k * n + i] * (0.5 * h);
            }
            for j in 0..m {
                row[3 * n + j] = e0.jacobian[j * n + i] * (-0.5 * h);
            }
            let row = &mut jac[(n + i) * size..(n + i + 1) * size];
            row[i] = -0.5 * h;
            row[n + i] = 1.0;
            row[2 * n + i] = -0.5 * h;
            let row = &mut jac[(2 * n + i) * size..(2 * n + i + 1) * size];
            for k in 0..n {
                row[k] = -e0.mass[i * n + k];
                row[n + k] = e1.k[i * n + k];
                row[2 * n + k] = e1.mass[i * n + k];
            }
        }
        for j in 0..m {
            let row = &mut jac[(3 * n + j) * size..(3 * n + j + 1) * size];
            for k in 0..n {
                row[n + k] = if holonomic[j] {
                    e1.jacobian[j * n + k]
                } else {
                    0.5 * em.r[j * n + k] + em.jacobian[j * n + k] / h
                };
            }
        }
        Ok(())
    }
}

/// The continuous motion's accelerations and multipliers at a point (`M q̈ = F +
/// Aᵀλ`, `A q̈ = −R v`), in `lu.rhs` (`n` accelerations, then `m` multipliers);
/// false where that system is singular.
pub(super) fn continuous_motion(at: &At, v: &[f64], lu: &mut crate::math::Workspace) -> bool {
    let n = v.len();
    let m = at.residuals.len();
    lu.reset(n + m);
    for i in 0..n {
        for k in 0..n {
            lu.set(i, k, at.mass[i * n + k]);
        }
        for j in 0..m {
            lu.set(i, n + j, -at.jacobian[j * n + i]);
            lu.set(n + j, i, at.jacobian[j * n + i]);
        }
        lu.rhs[i] = at.forcing[i];
    }
    for j in 0..m {
        lu.rhs[n + j] = -dot(&at.r[j * n..(j + 1) * n], v);
    }
    lu.solve()
}

/// Newton's starting point into `x`: the half-step's unknowns from the continuous
/// motion's accelerations at the start, good to `O(h²)` in the velocities and
/// `O(h³)` in `q₁`; a plain `v₀ = v` where that system is singular.
fn predictor(start: &At, q0: &[f64], v: &[f64], h: f64, lu: &mut crate::math::Workspace, x: &mut Vec<f64>) {
    let n = q0.len();
    let m = start.residuals.len();
    let solved = continuous_motion(start, v, lu);
    x.clear();
    x.resize(3 * n + m, 0.0);
    for i in 0..n {
        let a = if solved { lu.rhs[i] } else { 0.0 };
        let half = v[i] + a * (0.5 * h);
        x[i] = half;
        x[n + i] = q0[i] + v[i] * h + a * (0.5 * h * h);
        x[2 * n + i] = half;
    }
    for j in 0..m {
        x[3 * n + j] = if solved { lu.rhs[n + j] } else { 0.0 };
    }
}

/// One RATTLE step of `h` from `t`: the Newton iterations it took, and `vᵀ M v`
/// at its start and end.
pub(super) fn substep(
    terms: &mut DiscreteTerms,
    parameters: &[f64],
    t: f64,
    y: &mut [f64],
    h: f64,
    w: &mut Workspace,
) -> Result<(usize, f64, f64), DynamicsError> {
    let DiscreteLayout { n, m } = terms.layout;
    refill(&mut w.q0, &y[..n]);
    let v_start = &y[n..2 * n];
    w.e0.evaluate(terms, parameters, &w.q0, v_start, t)?;
    let start_size = w.e0.kinetic_size(v_start, &mut w.scratch);
    predictor(&w.e0, &w.q0, v_start, h, &mut w.lu, &mut w.x);
    refill(&mut w.p0, &w.e0.momentum);
    let scale = 1.0 + largest(&w.q0).max(largest(v_start));
    let mut half = HalfStep { terms, parameters, t, h };
    macro_rules! points {
        () => {
            Points { e0: &mut w.e0, e1: &mut w.e1, em: &mut w.em, mid: &mut w.mid, rate: &mut w.rate, g: &mut w.g }
        };
    }
    let mut converged_at = None;
    let mut previous = f64::INFINITY;
    half.residual_and_jacobian(points!(), &w.q0, &w.p0, &w.x, &mut w.residual, &mut w.jac)?;
    let size = 3 * n + m;
    for iteration in 1..=MAX_ITERATIONS {
        w.lu.reset(size);
        w.lu.matrix.copy_from_slice(&w.jac);
        for (b, r) in w.lu.rhs.iter_mut().zip(&w.residual) {
            *b = -r;
        }
        if !w.lu.solve() {
            // A solution that is not finite is a non-finite step; a pivot at zero, a
            // singular Newton matrix.
            if w.lu.rhs.iter().any(|d| !d.is_finite()) && !jacobian_is_singular(&w.jac, size) {
                return Err(DynamicsError::NonFinite { what: crate::message::run::step(), t });
            }
            return Err(DynamicsError::Singular {
                what: crate::mechanics::SingularMatrix::Newton,
                t,
                hint: crate::mechanics::SingularHint::RedundantOrLargeStep,
            });
        }
        refill(&mut w.delta, &w.lu.rhs);
        // Backtracking: a full step that makes the residual larger is halved (at
        // most eight times), which keeps a large step's Newton from wandering off.
        let mut tried = 0;
        let now = largest(&w.residual);
        loop {
            w.candidate.clear();
            w.candidate.extend(w.x.iter().zip(&w.delta).map(|(a, b)| a + b));
            let evaluated = half.residual_and_jacobian(
                points!(),
                &w.q0,
                &w.p0,
                &w.candidate,
                &mut w.trial_residual,
                &mut w.trial_jac,
            );
            match evaluated {
                Ok(())
                    if largest(&w.trial_residual) < now
                        || tried == 8
                        || largest(&w.trial_residual) <= 1e-13 * scale =>
                {
                    break
                }
                Err(e) if tried == 8 => return Err(e),
                _ => {
                    for d in &mut w.delta {
                        *d *= 0.5;
                    }
                    tried += 1;
                }
            }
        }
        core::mem::swap(&mut w.x, &mut w.candidate);
        core::mem::swap(&mut w.residual, &mut w.trial_residual);
        core::mem::swap(&mut w.jac, &mut w.trial_jac);
        // Converged once the update is round-off beside the state (Newton's next
        // would be its square), or has stopped shrinking at the level of
        // round-off.
        let size_now = largest(&w.delta[..3 * n]);
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
    end_velocity(terms, parameters, t, h, w)?;
    let end_size = w.e1.kinetic_size(&w.g, &mut w.scratch);
    y[..n].copy_from_slice(&w.x[n..2 * n]);
    y[n..2 * n].copy_from_slice(&w.g);
    Ok((iterations, start_size, end_size))
}

/// Whether the Newton matrix has a zero pivot (a singular matrix rather than an
/// overflow): solved again on a copy.
fn jacobian_is_singular(jac: &[f64], size: usize) -> bool {
    let mut lu = crate::math::Workspace::default();
    lu.reset(size);
    lu.matrix.copy_from_slice(jac);
    lu.rhs.fill(1.0);
    !lu.solve() && lu.rhs.iter().all(|x| x.is_finite())
}

/// The step's end velocity into `w.g`, from Newton's `(q₁, v₁)` in `w.x`: `v = v₁ +
/// h/2 M₁⁻¹ (g₁ + A₁ᵀ μ)`, with `μ` from `r(q₁, v) = 0` (`w.e1` left at `(q₁, v₁)`).
fn end_velocity(
    terms: &mut DiscreteTerms,
    parameters: &[f64],
    t: f64,
    h: f64,
    w: &mut Workspace,
) -> Result<(), DynamicsError> {
    let DiscreteLayout { n, m } = terms.layout;
    let (q1, v1) = (&w.x[n..2 * n], &w.x[2 * n..3 * n]);
    w.e1.evaluate(terms, parameters, q1, v1, t + h)?;
    let e1 = &w.e1;
    let singular_mass = || DynamicsError::Singular {
        what: crate::mechanics::SingularMatrix::Mass,
        t: t + h,
        hint: crate::mechanics::SingularHint::None,
    };
    // M₁⁻¹ [g₁ | A₁ᵀ]: one factorisation per right-hand side (n + m of them, small).
    let solve_mass = |rhs: &dyn Fn(usize) -> f64, lu: &mut crate::math::Workspace| -> bool {
        lu.reset(n);
        lu.matrix.copy_from_slice(&e1.mass);
        for i in 0..n {
            lu.rhs[i] = rhs(i);
        }
        lu.solve()
    };
    w.scratch.resize(n, 0.0);
    times(&e1.k, v1, &mut w.scratch);
    let forcing = &e1.forcing;
    let scratch = &w.scratch;
    if !solve_mass(&|i| forcing[i] + scratch[i], &mut w.lu) {
        return Err(singular_mass());
    }
    // `free` = M₁⁻¹ g₁, kept in `w.mid`.
    refill(&mut w.mid, &w.lu.rhs);
    w.g.clear();
    w.g.extend_from_slice(&w.mid);
    if m > 0 {
        w.minv_at.clear();
        w.minv_at.resize(n * m, 0.0);
        for j in 0..m {
            let row = &e1.jacobian[j * n..(j + 1) * n];
            if !solve_mass(&|i| row[i], &mut w.lu) {
                return Err(singular_mass());
            }
            for i in 0..n {
                w.minv_at[i * m + j] = w.lu.rhs[i];
            }
        }
        // (A₁ M₁⁻¹ A₁ᵀ) μ = −2/h r₁ − A₁ M₁⁻¹ g₁
        w.lu.reset(m);
        for a in 0..m {
            let row = &e1.jacobian[a * n..(a + 1) * n];
            for b in 0..m {
                let s: f64 = (0..n).map(|i| row[i] * w.minv_at[i * m + b]).sum();
                w.lu.set(a, b, s);
            }
            w.lu.rhs[a] = -(e1.residuals[a] * (2.0 / h)) - dot(row, &w.mid);
        }
        if !w.lu.solve() {
            return Err(DynamicsError::Singular {
                what: crate::mechanics::SingularMatrix::Symbol("A M⁻¹ Aᵀ"),
                t: t + h,
                hint: crate::mechanics::SingularHint::RedundantHere,
            });
        }
        for i in 0..n {
            w.g[i] += (0..m).map(|b| w.minv_at[i * m + b] * w.lu.rhs[b]).sum::<f64>();
        }
    }
    for (g, v) in w.g.iter_mut().zip(v1) {
        *g = v + *g * (0.5 * h);
    }
    Ok(())
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
        let text = include_str!("../../../../scenarios/rolling-disk.toml")
            .replace("[run]\n", "[run]\nintegrator = \"rattle\"\n");
        let (scenario, map) = crate::scenario::load_toml(&text).expect("loads");
        let model = Model::build(&scenario, &map).expect("builds");
        let numeric = NumericModel::new(&model).expect("compiles");
        let mut terms = numeric.discrete.clone().expect("asked").expect("applies");
        let DiscreteLayout { n, m } = terms.layout;
        let q0: Vec<f64> = (0..n).map(|i| 0.1 + 0.07 * i as f64).collect();
        let v0: Vec<f64> = (0..n).map(|i| 0.8 - 0.3 * i as f64).collect();
        let mut w = Workspace::default();
        w.e0.evaluate(&mut terms, &numeric.parameters, &q0, &v0, 0.0).expect("finite");
        let p0 = w.e0.momentum.clone();
        let mut half = HalfStep { terms: &mut terms, parameters: &numeric.parameters, t: 0.0, h: 0.1 };
        let size = 3 * n + m;
        let x: Vec<f64> = (0..size).map(|i| 0.3 + 0.11 * (i as f64).sin()).collect();
        let mut residual_at = |x: &[f64], w: &mut Workspace| {
            let (mut r, mut j) = (Vec::new(), Vec::new());
            let points =
                Points { e0: &mut w.e0, e1: &mut w.e1, em: &mut w.em, mid: &mut w.mid, rate: &mut w.rate, g: &mut w.g };
            half.residual_and_jacobian(points, &q0, &p0, x, &mut r, &mut j).expect("finite");
            (r, j)
        };
        let (_, jac) = residual_at(&x, &mut w);
        let step = 1e-6;
        for k in 0..size {
            let (mut up, mut down) = (x.clone(), x.clone());
            up[k] += step;
            down[k] -= step;
            let (r_up, _) = residual_at(&up, &mut w);
            let (r_down, _) = residual_at(&down, &mut w);
            let column: Vec<f64> = r_up.iter().zip(&r_down).map(|(a, b)| (a - b) / (2.0 * step)).collect();
            let exact: Vec<f64> = (0..size).map(|i| jac[i * size + k]).collect();
            let gap = column.iter().zip(&exact).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
            assert!(gap <= 1e-6 * (1.0 + largest(&column)), "unknown {k}: {gap:e}\n{column:?}\n{exact:?}");
        }
    }
}
