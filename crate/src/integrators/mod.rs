//! Integrators for `y' = f(t, y)`: classical RK4 with a fixed step (`rk4.rs`) and
//! the adaptive Dormand–Prince 5(4) pair with 4th-order dense output
//! (`dopri5.rs`); Butcher tableaus are plain data (`tableau.rs`). And the
//! structure-preserving nonholonomic RATTLE of orders 2 and 4 (`rattle.rs`), which
//! steps a mechanical system's own terms, not `f`.

mod dopri5;
mod rattle;
mod rk4;
mod tableau;

pub use dopri5::{Dopri5, StepReport};
pub use rattle::{Instability, Rattle, MAX_ITERATIONS as RATTLE_MAX_ITERATIONS};
pub use rk4::Rk4;
pub use tableau::{Tableau, DORMAND_PRINCE_54};

pub use crate::scenario::IntegratorKind;

/// A first-order system `y' = f(t, y)`.
pub trait System {
    /// The error the right-hand side may report.
    type Error;
    /// Writes `f(t, y)` into `dy`.
    fn rhs(&mut self, t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), Self::Error>;
}

/// Why integration stopped.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum IntegrationError<E> {
    /// The right-hand side failed.
    #[error("{0}")]
    System(E),
    /// The adaptive step became too small to make progress.
    #[error("the step size collapsed to {h:e} at t = {}: the system is too stiff or singular there", crate::math::Short(*t))]
    StepSizeCollapse {
        /// When.
        t: f64,
        /// The last step tried.
        h: f64,
    },
    /// A fixed step too small to change the time (`t + dt == t` in floating point).
    #[error("the step dt = {dt:e} does not advance the time at t = {}: choose a larger dt", crate::math::Short(*t))]
    NoProgress {
        /// When.
        t: f64,
        /// The step.
        dt: f64,
    },
    /// The steps became so small that the run cannot reach its end: a window of
    /// steps advanced the time by a negligible part of the run.
    #[error(
        "the integrator stalled at t = {}: {steps} steps advanced the time by only {advanced:e}; the system is stiff or singular here (a constraint's Jacobian may vanish)",
        crate::math::Short(*t)
    )]
    Stalled {
        /// When.
        t: f64,
        /// Steps in the window.
        steps: u64,
        /// How far they advanced the time.
        advanced: f64,
    },
    /// The run goes at a steady pace but too slowly to reach its end: a window of
    /// steps advanced the time by a negligible part of the run, with steps that are
    /// not small for the time they are at (a plain oscillator asked to run to
    /// `t = 1e300`).
    #[error(
        "the run cannot reach t = {}: its last {steps} steps advanced the time by {} (to t = {}), so it would need about {} steps; choose a shorter end time",
        crate::math::ShortTime(*t_end),
        crate::math::ShortTime(*advanced),
        crate::math::ShortTime(*t),
        crate::math::ShortTime(*needed)
    )]
    TooLong {
        /// When.
        t: f64,
        /// The end asked for.
        t_end: f64,
        /// Steps in the window.
        steps: u64,
        /// How far they advanced the time.
        advanced: f64,
        /// Steps the rest of the run would take at that pace.
        needed: f64,
    },
    /// A bound on the run was reached (steps or samples).
    #[error("the run stopped at t = {}: it reached its limit of {limit} {what}", crate::math::Short(*t))]
    Limit {
        /// When.
        t: f64,
        /// What was counted: `steps` or `samples`.
        what: &'static str,
        /// The limit.
        limit: u64,
    },
    /// The caller's own bound (the command line's wall clock) stopped the run.
    #[error("the run stopped at t = {}: it was interrupted", crate::math::Short(*t))]
    Interrupted {
        /// When.
        t: f64,
    },
    /// The state became NaN or infinite.
    #[error("the state is not finite at t = {}", crate::math::Short(*t))]
    NonFinite {
        /// When.
        t: f64,
    },
    /// A fixed step so small that the run to its end would take a million times
    /// more steps than its limit (`dt = 1e-300`): refused before the first.
    #[error("{}", crate::message::run::step_too_small(crate::math::Short(*dt), crate::math::ShortTime(*t_end), crate::math::ShortTime(*needed), limit).english)]
    StepTooSmall {
        /// The step.
        dt: f64,
        /// The run's end.
        t_end: f64,
        /// Steps it would take.
        needed: f64,
        /// The limit on steps.
        limit: u64,
    },
    /// A structure-preserving step past its stability limit: the kinetic energy
    /// grew by orders of magnitude over a few steps ([`Instability`]). (Its words
    /// are the message's, written once.)
    #[error("{}", instability.message(*dt).english)]
    Unstable {
        /// The step.
        dt: f64,
        /// What was seen, and the step suggested.
        instability: Instability,
    },
}
