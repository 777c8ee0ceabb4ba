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
    /// The kinetic size `vᵀ M v` of the last steps, for [`Rattle::instability`].
    growth: GrowthWatch,
}

/// A step past the scheme's stability limit, found by [`Rattle::instability`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Instability {
    /// When the growth was seen.
    pub t: f64,
    /// When it started: the last state that was still sane.
    pub from: f64,
    /// How many times `vᵀ M v` grew from `from` to `t`.
    pub growth: f64,
    /// Steps between `from` and `t`.
    pub steps: usize,
    /// The stiffest frequency of the motion at `from` (rad per unit time), from the
    /// model's terms there, or from the growth per step where those fail.
    pub omega: f64,
    /// The stability limit `2/ω` (two significant digits, rounded down).
    pub limit: f64,
    /// A step that resolves that motion: `h ω = 0.2`, where a linear mode's energy
    /// error, `(h ω)²/4`, is 1 % (one significant digit, rounded down). At the limit
    /// it is 100 %: stable is not accurate.
    pub suggested: f64,
}

/// The growth of `vᵀ M v` over the last steps: RATTLE, like every symmetric
/// scheme of its kind, is stable only for `h ω < 2` (ω the stiffest frequency of
/// the motion); past it a mode's amplitude is multiplied at every step and the
/// energy explodes while every Newton solve still converges.
///
/// The test is on orders of magnitude over a few steps, against the largest size
/// seen before them (so that a turning point, where `v` is nearly zero, is no
/// reference): a kinetic energy that grows 10⁸-fold within [`WINDOW`] steps, at
/// least 1.5-fold each, is no motion a step resolves. Just past the limit a mode
/// grows slowly (3.5-fold a step at `h ω = 2.1`), hence the window's length; a
/// motion from rest growing as a power of `t` grows 1.5-fold a step for a few steps
/// only (`t²`: 4, 2.25, 1.8, 1.6, 1.4), far from 10⁸.
#[derive(Clone, Debug, Default)]
struct GrowthWatch {
    /// `(t, q, v, vᵀ M v)` of the last `WINDOW + 1` states, oldest first.
    recent: Vec<(f64, Vec<f64>, Vec<f64>, f64)>,
    /// The largest `vᵀ M v` before them.
    before: f64,
}

/// Steps over which the growth is judged.
const WINDOW: usize = 16;
/// Growth over the window that is an instability.
const EXPLODED: f64 = 1e8;
/// Growth over the window that, where Newton then fails, says the failure is the
/// instability's (the gallery sleigh at `dt = 2`: 16-fold in two steps).
const GROWING: f64 = 10.0;
/// `h ω` of the step suggested: a linear mode's energy error `(h ω)²/4` is 1 %.
const RESOLVED: f64 = 0.2;
/// The least growth each step of the window must show.
const EACH_STEP: f64 = 1.5;
/// … and where Newton failed: more than a fall from rest shows (`t²`: 4, 2.25, 1.8).
const EACH_STEP_FAILED: f64 = 3.0;

impl Instability {
    /// What it says, for a step `dt`: the growth, the stiffest motion's `ω` and the
    /// steps to take, each to a few digits.
    pub fn message(&self, dt: f64) -> crate::message::Message {
        use crate::math::{Short, ShortTime};
        crate::message::run::unstable(
            Short(dt),
            ShortTime(self.growth),
            self.steps,
            ShortTime(self.from),
            ShortTime(self.t),
            ShortTime(self.omega),
            Short(self.limit),
            Short(self.suggested),
        )
    }
}

impl GrowthWatch {
    fn push(&mut self, t: f64, q: &[f64], v: &[f64], size: f64) {
        if self.recent.len() > WINDOW {
            let (.., oldest) = self.recent.remove(0);
            self.before = self.before.max(oldest);
        }
        self.recent.push((t, q.to_vec(), v.to_vec(), size));
    }

    /// How many times the size grew from the window's sane start to now, where every
    /// step of it grew `each`-fold at least; `None` otherwise.
    fn growth(&self, each: f64) -> Option<(usize, f64)> {
        let last = self.recent.last()?.3;
        // The longest run of steps, ending now, in which each grew by `each`.
        let mut from = self.recent.len() - 1;
        while from > 0 && self.recent[from].3 >= each * self.recent[from - 1].3 {
            from -= 1;
        }
        let reference = self.before.max(self.recent[from].3);
        let steps = self.recent.len() - 1 - from;
        (steps > 0 && reference > 0.0 && last.is_finite()).then(|| (from, last / reference))
    }
}

impl Rattle {
    /// A stepper of order 2 (`rattle`) or 4 (`rattle4`).
    pub fn new(order: u32) -> Rattle {
        Rattle {
            order,
            start: (0.0, Vec::new(), Vec::new()),
            end: (0.0, Vec::new(), Vec::new()),
            iterations: 0,
            growth: GrowthWatch::default(),
        }
    }

    /// Whether the last steps grew the kinetic size by orders of magnitude
    /// (`GrowthWatch`); `failed`: a step has just failed (Newton), where a
    /// smaller growth already says why. Estimates a stable step from the stiffest
    /// frequency at the last sane state (`terms` are evaluated there).
    pub fn instability(&self, terms: &mut DiscreteTerms, parameters: &[f64], failed: bool) -> Option<Instability> {
        let (from, growth) = self.growth.growth(if failed { EACH_STEP_FAILED } else { EACH_STEP })?;
        if growth < if failed { GROWING } else { EXPLODED } {
            return None;
        }
        let (t_from, q, v, _) = &self.growth.recent[from];
        let (t, ..) = self.growth.recent.last()?;
        let recent = &self.growth.recent;
        let h = recent[recent.len() - 1].0 - recent[recent.len() - 2].0;
        let omega = fastest_rate(terms, parameters, q, v).filter(|w| w.is_finite() && *w > 0.0);
        // Without an estimate: the amplitude's growth per step `ρ` of a linear
        // mode past the limit, `h ω = √(2 + ρ + 1/ρ)`.
        let steps = self.growth.recent.len() - 1 - from;
        let rho = libm::pow(growth, 0.5 / steps as f64);
        let omega = omega.unwrap_or_else(|| crate::math::sqrt(2.0 + rho + 1.0 / rho) / h.abs());
        Some(Instability {
            t: *t,
            from: *t_from,
            growth,
            steps,
            omega,
            limit: round_down(2.0 / omega, 2),
            suggested: round_down(RESOLVED / omega, 1),
        })
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
        let mut size = 0.0;
        for &f in fractions {
            let (iterations, start_size, end_size) = substep(terms, parameters, at, y, f * h)?;
            if self.growth.recent.is_empty() {
                self.growth.push(t, &self.start.1, &self.start.2, start_size);
            }
            self.iterations = self.iterations.max(iterations);
            size = end_size;
            at += f * h;
        }
        self.end = (t + h, y[..n].to_vec(), y[n..2 * n].to_vec());
        self.growth.push(t + h, &y[..n], &y[n..2 * n], size);
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

/// The fastest rate of the motion near `(q, v)`: the largest `|λ|` of the Jacobian
/// of the first-order system `(q̇, v̇) = (v, a(q, v))`, by central differences, `a`
/// the continuous accelerations under the constraints (`M a = F + Aᵀλ`,
/// `A a = −R v`, as the predictor solves them). For an oscillator it is its `ω`;
/// it also sees what the velocities and the constraints drive (the sleigh, which
/// has no stiffness at all).
fn fastest_rate(terms: &mut DiscreteTerms, parameters: &[f64], q: &[f64], v: &[f64]) -> Option<f64> {
    let n = terms.layout.n;
    let mut accelerations = |q: &[f64], v: &[f64]| -> Option<DVector<f64>> {
        let at = evaluate(terms, parameters, q, v, 0.0).ok()?;
        Some(continuous_motion(&at, &DVector::from_column_slice(v))?.0)
    };
    let mut jacobian = DMatrix::zeros(2 * n, 2 * n);
    for i in 0..n {
        jacobian[(i, n + i)] = 1.0;
    }
    let mut state: Vec<f64> = q.iter().chain(v).copied().collect();
    for j in 0..2 * n {
        let step = 1e-6 * (1.0 + state[j].abs());
        let x = state[j];
        state[j] = x + step;
        let up = accelerations(&state[..n], &state[n..])?;
        state[j] = x - step;
        let down = accelerations(&state[..n], &state[n..])?;
        state[j] = x;
        jacobian.view_mut((n, j), (n, 1)).copy_from(&((up - down) / (2.0 * step)));
    }
    let eigenvalues = crate::math::eigenvalues(&jacobian).ok()?;
    Some(eigenvalues.iter().map(|z| crate::math::sqrt(z.re * z.re + z.im * z.im)).fold(0.0, f64::max))
}

/// `x` rounded down to `digits` significant digits (`0.437`, 1 → `0.4`).
fn round_down(x: f64, digits: i32) -> f64 {
    if !(x.is_finite() && x > 0.0) {
        return x;
    }
    let scale = libm::pow(10.0, libm::floor(libm::log10(x)) + 1.0 - f64::from(digits));
    // Through the decimal text, so that 0.4 is 0.4 and not 0.4000000000000001.
    let digits = libm::floor(x / scale * (1.0 + 1e-12));
    let value = digits * scale;
    alloc::format!("{:.*e}", 15, value).parse().unwrap_or(value)
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

/// The continuous motion's accelerations and multipliers at a point (`M q̈ = F +
/// Aᵀλ`, `A q̈ = −R v`); `None` where that system is singular.
fn continuous_motion(at: &At, v: &DVector<f64>) -> Option<(DVector<f64>, DVector<f64>)> {
    let n = v.len();
    let m = at.jacobian.nrows();
    let mut kkt = DMatrix::zeros(n + m, n + m);
    kkt.view_mut((0, 0), (n, n)).copy_from(&at.mass);
    kkt.view_mut((0, n), (n, m)).copy_from(&(-at.jacobian.transpose()));
    kkt.view_mut((n, 0), (m, n)).copy_from(&at.jacobian);
    let mut rhs = DVector::zeros(n + m);
    rhs.rows_mut(0, n).copy_from(&at.forcing);
    rhs.rows_mut(n, m).copy_from(&(-(&at.r * v)));
    let solved = kkt.lu().solve(&rhs).filter(|s| s.iter().all(|x| x.is_finite()))?;
    Some((solved.rows(0, n).into_owned(), solved.rows(n, m).into_owned()))
}

/// Newton's starting point: the half-step's unknowns from the continuous
/// motion's accelerations at the start, good to `O(h²)` in the velocities and
/// `O(h³)` in `q₁`; a plain `v₀ = v` where that system is singular.
fn predictor(start: &At, q0: &DVector<f64>, v: &DVector<f64>, h: f64) -> DVector<f64> {
    let n = q0.len();
    let m = start.jacobian.nrows();
    let (a, lambda) = continuous_motion(start, v).unwrap_or_else(|| (DVector::zeros(n), DVector::zeros(m)));
    let mut x = DVector::zeros(3 * n + m);
    let half = v + &a * (0.5 * h);
    x.rows_mut(0, n).copy_from(&half);
    x.rows_mut(n, n).copy_from(&(q0 + v * h + &a * (0.5 * h * h)));
    x.rows_mut(2 * n, n).copy_from(&half);
    x.rows_mut(3 * n, m).copy_from(&lambda);
    x
}

/// One RATTLE step of `h` from `t`: the Newton iterations it took, and `vᵀ M v`
/// at its start and end.
fn substep(
    terms: &mut DiscreteTerms,
    parameters: &[f64],
    t: f64,
    y: &mut [f64],
    h: f64,
) -> Result<(usize, f64, f64), DynamicsError> {
    let DiscreteLayout { n, m } = terms.layout;
    let q0 = DVector::from_column_slice(&y[..n]);
    let v_start = DVector::from_column_slice(&y[n..2 * n]);
    let start = evaluate(terms, parameters, q0.as_slice(), v_start.as_slice(), t)?;
    let start_size = v_start.dot(&(&start.mass * &v_start));
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
    Ok((iterations, start_size, v_end.dot(&(&e1.mass * &v_end))))
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
