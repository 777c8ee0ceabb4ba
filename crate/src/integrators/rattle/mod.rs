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
//! Hand-written (the system has `3n + m` unknowns) rather than a crate: no
//! nonlinear solver crate is `no_std` and gives the exact-Jacobian Newton with the
//! bounded, named failure the lab needs. Its buffers and the dense LU
//! ([`crate::math::Workspace`]) live in a [`Workspace`] the stepper keeps, so that a
//! step allocates nothing: nalgebra's dynamic matrices, allocated at every
//! iteration, were most of a small model's step.

use alloc::vec::Vec;
use nalgebra::DMatrix;

use crate::mechanics::{DiscreteTerms, DynamicsError};

mod newton;

use newton::{continuous_motion, substep, At, Workspace};

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
    /// The step's buffers, reused.
    workspace: Workspace,
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
            workspace: Workspace::default(),
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
            let (iterations, start_size, end_size) = substep(terms, parameters, at, y, f * h, &mut self.workspace)?;
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
    let (mut at, mut lu) = (At::default(), crate::math::Workspace::default());
    let mut accelerations = |q: &[f64], v: &[f64]| -> Option<Vec<f64>> {
        at.evaluate(terms, parameters, q, v, 0.0).ok()?;
        continuous_motion(&at, v, &mut lu).then(|| lu.rhs[..n].to_vec())
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
        for i in 0..n {
            jacobian[(n + i, j)] = (up[i] - down[i]) / (2.0 * step);
        }
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
