//! Whether a run's contacts hold: the ideal model assumes every contact pushes
//! (`N > 0`) and, with a declared friction coefficient `μ`, that the friction it
//! needs is available (`|F_t| ≤ μ N`). After every step the forces are found at the
//! step's end; where a condition changed inside the step, the instant is located
//! by bisection on the integrator's dense output (to [`TIME_TOLERANCE`]), and the run
//! either marks the span ([`ValidityEvent`]) or stops there (`[run] on_invalid`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::formulations::{self, Method};
use crate::mechanics::{ContactForce, ContactForces, ContactInfo, ContactState, DynamicsError, NumericModel};
use crate::message::Message;

/// The assumption a contact broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Condition {
    /// `N < 0`: the surface would have to pull.
    LiftOff,
    /// `|F_t| > μ N`: more friction than the contact has.
    Slip,
    /// The declared `μ` is not finite (`sqrt(1 - t)` past t = 1): slip is not
    /// judged there. Not a failure of the model: it marks a span and stops no run.
    FrictionNotFinite,
}

impl Condition {
    /// Every condition, in the order of `status`'s flags.
    pub const ALL: [Condition; 3] = [Condition::LiftOff, Condition::Slip, Condition::FrictionNotFinite];

    /// `lift-off`, `slip` or `friction-not-finite`.
    pub fn id(self) -> &'static str {
        match self {
            Condition::LiftOff => "lift-off",
            Condition::Slip => "slip",
            Condition::FrictionNotFinite => "friction-not-finite",
        }
    }

    /// Whether a run with `on_invalid = "stop"` stops where it starts: where the
    /// rolling model fails, not where it cannot be judged.
    pub fn stops(self) -> bool {
        self != Condition::FrictionNotFinite
    }
}

/// A span of a run where a contact's assumption fails.
#[derive(Clone, Debug, PartialEq)]
pub struct ValidityEvent {
    /// The contact, by its place among the model's contacts.
    pub contact: usize,
    /// What failed.
    pub condition: Condition,
    /// When it started (located to [`TIME_TOLERANCE`], or the run's start).
    pub start: f64,
    /// When it ended; `None` while it lasts.
    pub end: Option<f64>,
}

/// How closely an event's time is located.
pub const TIME_TOLERANCE: f64 = 1e-11;

/// Most bisections for one event: from a step of 10¹⁰ units to the tolerance.
const MAX_BISECTIONS: usize = 80;

/// A run's watch over its contacts.
#[derive(Clone, Debug, Default)]
pub(crate) struct Watch {
    /// Per contact: lifted off, slipping, friction not finite, at the last check.
    pub invalid: Vec<[bool; 3]>,
    /// The spans so far.
    pub events: Vec<ValidityEvent>,
    /// A contact already failing at the start of a run that is to stop there.
    pub stop_at_start: Option<(usize, Condition)>,
}

/// Chooses, once per compiled model, how the contact forces are found: from the
/// true (Lagrange) motion at two random admissible velocities at `(t, q)`.
pub(crate) fn prepare(numeric: &mut NumericModel, t: f64, q: &[f64]) {
    if numeric.contacts.as_ref().is_none_or(|c| c.is_chosen()) {
        return;
    }
    let n = numeric.n();
    let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
    let mut states = Vec::new();
    for _ in 0..2 {
        let mut v: Vec<f64> = (0..n).map(|_| random(&mut seed)).collect();
        for _ in 0..3 {
            let Ok(terms) = numeric.evaluate(t, q, &v) else { break };
            if terms.jacobian.nrows() == 0 {
                break;
            }
            let step = super::least_norm(&terms.jacobian, &terms.residuals);
            v.iter_mut().zip(step.iter()).for_each(|(x, d)| *x -= d);
        }
        let Ok(solution) = formulations::accelerations_with_multipliers(Method::Lagrange, numeric, t, q, &v, &[])
        else {
            break;
        };
        states.push((v, solution.accelerations.as_slice().to_vec()));
    }
    let parameters = numeric.parameters.clone();
    let Some(contacts) = numeric.contacts.as_mut() else { return };
    let states: Vec<ContactState<'_>> =
        states.iter().map(|(v, a)| ContactState { t, q, v, accelerations: a, parameters: &parameters }).collect();
    if states.len() == 2 {
        contacts.choose(&states);
    }
}

/// The contact forces at `(t, y)` under `method` into the compiled model's
/// [`crate::mechanics::ContactForces::forces`] (NaN where not given); `known` is
/// the derivative of `y` when the integrator has it. False when there are none to
/// find (no contacts, a vakonomic run).
pub(crate) fn forces_at(
    numeric: &mut NumericModel,
    method: Method,
    t: f64,
    y: &[f64],
    known: Option<&[f64]>,
) -> Result<bool, DynamicsError> {
    let n = numeric.n();
    match &numeric.contacts {
        None => return Ok(false),
        _ if method == Method::Vakonomic => return Ok(false),
        // Found at this state already (a step's end is checked, then sampled).
        Some(c) if c.found_at(t, y, &numeric.parameters) => return Ok(true),
        Some(_) => {}
    }
    let (q, v) = (&y[..n], &y[n..2 * n]);
    let solved;
    let accelerations = match known {
        Some(dy) => &dy[n..2 * n],
        None => {
            solved = formulations::accelerations_with_multipliers(method, numeric, t, q, v, &y[2 * n..])?.accelerations;
            solved.as_slice()
        }
    };
    let NumericModel { contacts, parameters, .. } = numeric;
    let Some(contacts) = contacts.as_mut() else { return Ok(false) };
    let state = ContactState { t, q, v, accelerations, parameters };
    // Forces that do not balance (an embedding off the true motion) are NaN.
    let _ = contacts.at(&state);
    Ok(true)
}

/// Which conditions hold for each contact, in the order of [`Condition::ALL`].
pub(crate) fn status(contacts: &ContactForces) -> Vec<[bool; 3]> {
    let unknown_friction = contacts.friction_not_finite();
    contacts
        .forces()
        .iter()
        .zip(unknown_friction)
        .map(|(force, &unknown)| {
            let [lift_off, slip] = force.fails();
            [lift_off, slip, unknown]
        })
        .collect()
}

/// A span in words, as the command line's notes and the page's contact panel say
/// it, its instants to nine digits (they are located to 1e-11): `` `coin rolls on
/// ground` (rolling[0]) slips (|F_t| > μ N) from t = 0.685303105 until t = 1.12908``. An end after `until` (the page's clock) is not said yet; a span still
/// open at an infinite `until` lasts to the run's end.
pub fn describe(event: &ValidityEvent, contact: &ContactInfo, until: f64) -> String {
    describe_message(event, contact, until).english
}

/// [`describe`] with its id and parameters (a page translates it).
pub fn describe_message(event: &ValidityEvent, contact: &ContactInfo, until: f64) -> Message {
    let (what, kind) = match event.condition {
        Condition::LiftOff => ("lifts off (N < 0)", "lifts-off"),
        Condition::Slip => ("slips (|F_t| > μ N)", "slips"),
        Condition::FrictionNotFinite => ("", "friction-not-finite"),
    };
    let start = crate::math::short_number(event.start);
    let (span, how, end) = match event.end {
        Some(end) if end <= until => {
            let end = crate::math::short_number(end);
            (format!(" until t = {end}"), "until", Some(end))
        }
        None if until == f64::INFINITY => (String::from(" to the run's end"), "to-end", None),
        _ => (String::from(" on"), "on", None),
    };
    let english = if event.condition == Condition::FrictionNotFinite {
        format!(
            "`{}` ({}): its friction coefficient ({}.friction) is not finite from t = {start}{span}: slip is \
             not judged there",
            contact.name, contact.field, contact.field
        )
    } else {
        format!(
            "`{}` ({}) {what} from t = {start}{span}: the rolling model does not hold there",
            contact.name, contact.field
        )
    };
    let id = match (kind, how) {
        ("friction-not-finite", "until") => "contact.friction-not-finite.until",
        ("friction-not-finite", "to-end") => "contact.friction-not-finite.to-end",
        ("friction-not-finite", _) => "contact.friction-not-finite.on",
        ("lifts-off", "until") => "contact.lifts-off.until",
        ("lifts-off", "to-end") => "contact.lifts-off.to-end",
        ("lifts-off", _) => "contact.lifts-off.on",
        (_, "until") => "contact.slips.until",
        (_, "to-end") => "contact.slips.to-end",
        _ => "contact.slips.on",
    };
    let message = Message::new(id, english).arg("name", &contact.name).arg("field", &contact.field).arg("start", start);
    match end {
        Some(end) => message.arg("end", end),
        None => message,
    }
}

/// The words for an event that stopped a run.
pub(crate) fn stop_message(name: &str, field: &str, condition: Condition, t: f64, force: &ContactForce) -> Message {
    let at = crate::math::short_number(t);
    match condition {
        Condition::LiftOff => Message::new(
            "contact.lifts-off.stop",
            format!(
                "`{name}` ({field}) lifts off at t = {at}: its normal force falls to zero and would have to pull \
                 ([run] on_invalid = \"stop\")"
            ),
        )
        .arg("name", name)
        .arg("field", field)
        .arg("t", at),
        // A friction coefficient that is not finite stops no run (`Condition::stops`).
        Condition::Slip | Condition::FrictionNotFinite => {
            let (needed, mu) = (crate::math::Short(force.mu_needed), crate::math::Short(force.mu));
            Message::new(
                "contact.slips.stop",
                format!(
                    "`{name}` ({field}) starts to slip at t = {at}: it needs a friction coefficient of {needed}, \
                     and has {mu} ([run] on_invalid = \"stop\")"
                ),
            )
            .arg("name", name)
            .arg("field", field)
            .arg("t", at)
            .arg("needed", needed)
            .arg("mu", mu)
        }
    }
}

/// The bisection: the first time in `(from, to]` where `changed` holds, given that
/// it does not at `from` and does at `to`.
pub(crate) fn locate(
    mut from: f64,
    mut to: f64,
    changed: &mut dyn FnMut(f64) -> Result<bool, DynamicsError>,
) -> Result<f64, DynamicsError> {
    for _ in 0..MAX_BISECTIONS {
        if to - from <= TIME_TOLERANCE * to.abs().max(1.0) {
            break;
        }
        let mid = from + 0.5 * (to - from);
        if changed(mid)? {
            to = mid;
        } else {
            from = mid;
        }
    }
    Ok(to)
}

/// Uniform in `[-1, 1)`, from a xorshift: the same numbers on every machine.
fn random(state: &mut u64) -> f64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    (*state >> 11) as f64 / (1u64 << 52) as f64 - 1.0
}
