//! Why a run ended: by design (Hamel's split turned singular, a contact that
//! lifted off or slipped under `on_invalid = "stop"`) or by a failure, in words with
//! an id that a page says in its language.

use super::*;

/// Why a run stopped before its end, as a front end says it: information (an end by
/// design) or a failure, each with its words (a message with an id). One reading of a
/// stopping error for the command line, the page and the long run.
#[derive(Clone, Debug, PartialEq)]
pub enum StopReason {
    /// Ended by design ([`ended_by_design`]): Hamel's split turned singular, or a
    /// contact lifted off or slipped under `[run] on_invalid = "stop"`.
    EndedByDesign(crate::message::Message),
    /// Failed: the integrator's reason or the dynamics' ([`failure`]).
    Failed(crate::message::Message),
}

impl StopReason {
    /// Why a run that stopped on `e` stopped; `dependent` names Hamel's split's
    /// dependent coordinates (`y`, `x, y`) for its end.
    pub fn of(e: &SimulationError, dependent: Option<&str>) -> StopReason {
        match design_end(e, dependent) {
            Some(message) => StopReason::EndedByDesign(message),
            None => StopReason::Failed(failure(e)),
        }
    }
}

/// Where a run that stopped on `e` ended by design rather than failed: Hamel's
/// embedding is undefined from the time its split turns singular, an event of the
/// mechanics the lab shows as information (in the page and on the command line
/// alike), not a failure of the integration. The time it ended, else `None`.
pub fn ended_by_design(e: &IntegrationError<DynamicsError>) -> Option<f64> {
    match e {
        IntegrationError::System(DynamicsError::Singular {
            what: crate::mechanics::SingularMatrix::HamelSplit,
            t,
            ..
        }) => Some(*t),
        IntegrationError::System(DynamicsError::ContactInvalid { t, .. }) => Some(*t),
        _ => None,
    }
}

/// The words for a run that [`ended_by_design`]: Hamel's split turned singular
/// ([`hamel_end_message`], with the split's dependent coordinates), or a contact
/// lifted off or slipped under `[run] on_invalid = "stop"`.
pub fn design_end_message(
    e: &IntegrationError<DynamicsError>,
    dependent: Option<&str>,
) -> Option<alloc::string::String> {
    design_end(e, dependent).map(|m| m.english)
}

/// Why a run stopped, as a message with an id ([`crate::message::run`]) that a page
/// says in its language; its English is what `Display` writes.
pub fn failure(e: &SimulationError) -> crate::message::Message {
    e.integrator_message().unwrap_or_else(DynamicsError::message)
}

/// [`design_end_message`] with its id and parameters (a page translates it).
pub fn design_end(e: &IntegrationError<DynamicsError>, dependent: Option<&str>) -> Option<crate::message::Message> {
    match e {
        IntegrationError::System(DynamicsError::ContactInvalid { message, .. }) => Some(message.clone()),
        _ => ended_by_design(e).map(|t| hamel_end(t, dependent)),
    }
}

/// The words for a run of Hamel's embedding that ended at `t`, its split having
/// the dependent coordinates `dependent` (`y`, `x, y`).
pub fn hamel_end_message(t: f64, dependent: Option<&str>) -> alloc::string::String {
    hamel_end(t, dependent).english
}

/// [`hamel_end_message`] with its id and parameters.
pub fn hamel_end(t: f64, dependent: Option<&str>) -> crate::message::Message {
    use crate::message::Message;
    let at = crate::math::ShortTime(t);
    let english = alloc::format!(
        "Hamel's embedding ends at t = {at}: its split (dependent {}) is singular there; \
         choose other dependent coordinates in [hamel] to follow it further",
        dependent.unwrap_or("the dependent coordinates")
    );
    match dependent {
        Some(names) => Message::new("run.hamel-ends", english).arg("t", at).arg("dependent", names),
        None => Message::new("run.hamel-ends.unnamed", english).arg("t", at),
    }
}
