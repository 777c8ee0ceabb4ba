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
#[derive(Clone, Debug, PartialEq)]
pub enum IntegrationError<E> {
    /// The right-hand side failed.
    System(E),
    /// The adaptive step became too small to make progress.
    StepSizeCollapse {
        /// When.
        t: f64,
        /// The last step tried.
        h: f64,
    },
    /// A fixed step too small to change the time (`t + dt == t` in floating point).
    NoProgress {
        /// When.
        t: f64,
        /// The step.
        dt: f64,
    },
    /// The steps became so small that the run cannot reach its end: a window of
    /// steps advanced the time by a negligible part of the run.
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
    Limit {
        /// When.
        t: f64,
        /// What was counted: `steps` or `samples`.
        what: &'static str,
        /// The limit.
        limit: u64,
    },
    /// The caller's own bound (the command line's wall clock) stopped the run.
    Interrupted {
        /// When.
        t: f64,
    },
    /// The state became NaN or infinite.
    NonFinite {
        /// When.
        t: f64,
    },
    /// A fixed step so small that the run to its end would take a million times
    /// more steps than its limit (`dt = 1e-300`): refused before the first.
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
    Unstable {
        /// The step.
        dt: f64,
        /// What was seen, and the step suggested.
        instability: Instability,
    },
}

impl<E> IntegrationError<E> {
    /// Why the integration stopped, as a message with an id ([`crate::message::run`])
    /// that a page says in its language; the right-hand side's own error otherwise.
    pub fn integrator_message(&self) -> Result<crate::message::Message, &E> {
        use crate::math::{Short, ShortTime};
        use crate::message::run;
        Ok(match self {
            IntegrationError::System(e) => return Err(e),
            IntegrationError::StepSizeCollapse { t, h } => run::step_collapsed(alloc::format!("{h:e}"), Short(*t)),
            IntegrationError::NoProgress { t, dt } => run::no_progress(alloc::format!("{dt:e}"), Short(*t)),
            IntegrationError::Stalled { t, steps, advanced } => {
                run::stalled(Short(*t), steps, alloc::format!("{advanced:e}"))
            }
            IntegrationError::TooLong { t, t_end, steps, advanced, needed } => {
                run::too_long(ShortTime(*t_end), steps, ShortTime(*advanced), ShortTime(*t), ShortTime(*needed))
            }
            IntegrationError::Limit { t, what: "samples", limit } => run::sample_limit(Short(*t), limit),
            IntegrationError::Limit { t, limit, .. } => run::step_limit(Short(*t), limit),
            IntegrationError::Interrupted { t } => run::interrupted(Short(*t)),
            IntegrationError::NonFinite { t } => run::state_not_finite(Short(*t)),
            IntegrationError::StepTooSmall { dt, t_end, needed, limit } => {
                run::step_too_small(Short(*dt), ShortTime(*t_end), ShortTime(*needed), limit)
            }
            IntegrationError::Unstable { dt, instability } => instability.message(*dt),
        })
    }
}

/// The words are the messages', written once ([`IntegrationError::integrator_message`]).
impl<E: core::fmt::Display> core::fmt::Display for IntegrationError<E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.integrator_message() {
            Ok(m) => f.write_str(&m.english),
            Err(e) => e.fmt(f),
        }
    }
}

impl<E: core::fmt::Debug + core::fmt::Display> core::error::Error for IntegrationError<E> {}
