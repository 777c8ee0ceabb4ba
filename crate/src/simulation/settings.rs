//! How to run: the method, the integrator and its tolerances, drift control, what
//! a sample measures and the run's limits.

use super::*;

/// How to run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// The method.
    pub method: Method,
    /// The integrator.
    pub integrator: IntegratorKind,
    /// Relative tolerance (dopri5).
    pub rtol: f64,
    /// Absolute tolerance (dopri5).
    pub atol: f64,
    /// Step (rk4).
    pub dt: f64,
    /// Drift control.
    pub stabilization: Stabilization,
    /// Bounds on the work and memory of one run.
    pub limits: Limits,
    /// Whether each sample computes Gauss's compulsion (an LDLᵀ of `M` per sample):
    /// only `nhlab run --plot` draws it, so the command line asks for it there and
    /// the page never does. Samples not asked have `compulsion` NaN.
    pub compulsion: bool,
    /// What each sample computes besides the state: `nhlab run --columns` asks only
    /// for the columns it writes ([`Diagnostics::ALL`] by default).
    pub diagnostics: Diagnostics,
    /// What the run does where a contact lifts off or slips. The contacts are
    /// checked, and the spans kept ([`Simulation::validity_events`]), whenever the
    /// samples record the contact forces or the run is to stop.
    pub on_invalid: OnInvalid,
}

/// The per-sample quantities beyond the state. They are the main program's outputs
/// after `M`, `F`, `A`, `b` (Hamel's terms last): at a sample where the integrator's
/// last stage left the program, only those instructions run; a run asked for the state alone skips
/// them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Diagnostics {
    /// `T + V` (else NaN).
    pub energy: bool,
    /// The constraints' residuals, and the holonomic ones' velocity residuals (else empty).
    pub residuals: bool,
    /// Hamel's E-vector (else `None`).
    pub e_vector: bool,
    /// The contact forces (else empty).
    pub contacts: bool,
}

impl Diagnostics {
    /// Everything: what the page plots and `nhlab run` writes by default.
    pub const ALL: Diagnostics = Diagnostics { energy: true, residuals: true, e_vector: true, contacts: true };
    /// The state alone.
    pub const NONE: Diagnostics = Diagnostics { energy: false, residuals: false, e_vector: false, contacts: false };
}

/// Bounds on one run, so that no scenario can run unbounded: a stiff system, an
/// absurd `t_end` or a tiny step stops with a message naming the time reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most steps one run may take (default [`Limits::DEFAULT_STEPS`]).
    pub max_steps: u64,
    /// Most samples one run may record, the first included (default
    /// [`Limits::DEFAULT_SAMPLES`]; a sample holds the whole state, so this bounds memory).
    pub max_samples: usize,
}

impl Limits {
    /// One million steps: minutes at most for the gallery's models.
    pub const DEFAULT_STEPS: u64 = 1_000_000;
    /// 200,000 samples: about 400 MB at the peak of `nhlab run` for a small model
    /// (samples, table and text together), twice what the page records.
    pub const DEFAULT_SAMPLES: usize = 200_000;
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_steps: Limits::DEFAULT_STEPS, max_samples: Limits::DEFAULT_SAMPLES }
    }
}

impl Settings {
    /// The scenario's `[run]` settings for `method`, with the spec's defaults.
    pub fn from_scenario(run: &crate::scenario::RunSpec, method: Method) -> Self {
        Settings {
            method,
            integrator: run.integrator_kind(),
            rtol: run.rtol.unwrap_or(1e-9),
            atol: run.atol.unwrap_or(1e-12),
            dt: run.dt.unwrap_or(0.01),
            stabilization: run.stabilization_kind(),
            limits: Limits::default(),
            compulsion: true,
            diagnostics: Diagnostics::ALL,
            on_invalid: run.on_invalid_kind(),
        }
    }
}
