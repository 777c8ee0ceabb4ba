//! Layer 6: stepping a model under one method. This is what the web page calls every
//! frame and what `nhlab run` calls in batch: create, advance to a time, read the
//! samples (state, energy, residuals, compulsion).

mod blame;
mod initial;
mod sample_block;
mod samples;
pub mod split_choice;
mod validity;

pub use initial::{
    initial_state, initial_state_with_warnings, state_given, state_with_warnings, State, StateOrigin,
    VELOCITY_TOLERANCE,
};

use alloc::vec::Vec;
use nalgebra::DVector;

use crate::formulations::{self, Method};
use crate::integrators::{Dopri5, IntegrationError, IntegratorKind, Rattle, Rk4, System};
use crate::mechanics::{DiscreteTerms, DynamicsError, NumericModel};
pub use sample_block::{lagrange_program_with_diagnostics, MAX_COMPILED_DIAGNOSTICS};
pub use samples::{Iter, SampleRef, Samples, Widths, NO_SAMPLES};
use samples::{Measures, Scalars};
pub use validity::{
    describe as describe_validity_event, describe_message as describe_validity_message, Condition, ValidityEvent,
    TIME_TOLERANCE,
};

pub use crate::scenario::{OnInvalid, Stabilization};

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

/// How each contact's force is found at `initial` (the analysis a run makes at its
/// start), with whether it is determined; `None` without contacts.
pub fn contact_analysis(numeric: &NumericModel, initial: &State) -> Option<Vec<crate::mechanics::ContactInfo>> {
    let mut numeric = numeric.clone();
    numeric.contacts.as_ref()?;
    validity::prepare(&mut numeric, initial.t, &initial.q);
    numeric.contacts.as_ref().map(|c| c.contacts().to_vec())
}

/// Makes the contact analysis of a run starting at `initial` once, into `numeric`,
/// for every run cloned from it: the runs of one parameter set under several
/// methods make the same choice (it follows the true motion, whatever the method),
/// and for a large model it is most of a run's set-up (30 rolling balls: 0.13 s a
/// run, 28 runs 3 s). A run of a model prepared so does not choose again.
pub fn prepare_contacts(numeric: &mut NumericModel, initial: &State) {
    validity::prepare(numeric, initial.t, &initial.q);
}

/// Each contact's force at a state, with how it is found.
pub type ContactForcesAt = (Vec<crate::mechanics::ContactForce>, Vec<crate::mechanics::ContactInfo>);

/// The contact forces at `state` under `method` (`nhlab eval`), with how each is
/// found; `None` without contacts or for a vakonomic run.
pub fn contact_forces_at(
    numeric: &mut NumericModel,
    method: Method,
    state: &State,
) -> Result<Option<ContactForcesAt>, DynamicsError> {
    validity::prepare(numeric, state.t, &state.q);
    let mut y = state.q.clone();
    y.extend(&state.v);
    y.extend(&state.mu);
    if !validity::forces_at(numeric, method, state.t, &y, None)? {
        return Ok(None);
    }
    Ok(numeric.contacts.as_ref().map(|c| (c.forces().to_vec(), c.contacts().to_vec())))
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
    use crate::math::{Short, ShortTime};
    use crate::message::run;
    match e {
        IntegrationError::System(e) => e.message(),
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
    }
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

/// The terms a structure-preserving integrator steps, or why it cannot run: it
/// steps the Lagrange–d'Alembert equations (the method `lagrange`; the others
/// give the same motion for the constraints it takes, or another one), within the
/// class [`crate::mechanics::discrete_applicability`] checks.
fn structure_preserving_terms(
    numeric: &NumericModel,
    kind: IntegratorKind,
    method: Method,
) -> Result<DiscreteTerms, SimulationError> {
    use crate::message::{run, Part};
    let refuse = |why: crate::message::Message| IntegrationError::System(DynamicsError::Unsupported(why));
    if method != Method::Lagrange {
        return Err(refuse(run::sp_lagrange_only(kind.id(), method.id())));
    }
    match &numeric.discrete {
        Some(Ok(terms)) => Ok(terms.clone()),
        Some(Err(why)) => Err(refuse(run::sp_not_this_model(kind.id(), Part(why.clone())))),
        None => Err(refuse(run::sp_needs_terms(kind.id()))),
    }
}

/// Why the structure-preserving schemes cannot step `numeric` from `initial`,
/// beyond their class: constraints redundant there (the gallery's robot, four
/// rolling constraints of rank three), where the half-step's multipliers are not
/// unique and its Newton matrix is singular. `None` where they can.
pub fn redundant_for_structure_preserving(
    numeric: &mut NumericModel,
    initial: &State,
) -> Option<crate::message::Message> {
    let terms = numeric.evaluate(initial.t, &initial.q, &initial.v).ok()?;
    let count = terms.jacobian.nrows();
    let rank = crate::mechanics::independent_rows(&terms.jacobian).len();
    (rank < count).then(|| crate::message::run::sp_redundant(rank, count))
}

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

/// One recorded point of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Time.
    pub t: f64,
    /// Coordinates.
    pub q: Vec<f64>,
    /// Velocities.
    pub v: Vec<f64>,
    /// `T + V`.
    pub energy: f64,
    /// `μ` (vakonomic only; empty otherwise).
    pub mu: Vec<f64>,
    /// Every constraint's residual as written: `φ(q, t)` for a holonomic one,
    /// `f(q, v, t)` for the others.
    pub residuals: Vec<f64>,
    /// Every constraint's velocity-level residual `f` (`φ_q v + φ_t` for a
    /// holonomic one; the same as [`Sample::residuals`] for the others).
    pub velocity_residuals: Vec<f64>,
    /// Gauss's compulsion of the method's accelerations (NaN unless
    /// [`Settings::compulsion`] asked for it).
    pub compulsion: f64,
    /// Hamel's E-vector at this state (one per independent coordinate of the
    /// model's split); `None` without a split or where it is singular.
    pub e_vector: Option<Vec<f64>>,
    /// Each contact's [`crate::mechanics::ContactForce::columns`] in turn (empty
    /// without contacts or when not asked for; NaN where not determined).
    pub contact_forces: Vec<f64>,
}

/// Solver and scratch for the samples' compulsion, reused from sample to sample.
#[derive(Default)]
struct CompulsionWork {
    solver: formulations::RangeSpace,
    scratch: Vec<f64>,
}

/// Why a run stopped early.
pub type SimulationError = IntegrationError<DynamicsError>;

/// The right-hand side `y = (q, v[, μ]) ↦ (v, q̈[, μ̇])` of one method.
struct Dynamics<'a> {
    numeric: &'a mut NumericModel,
    method: Method,
}

impl System for Dynamics<'_> {
    type Error = DynamicsError;

    // Inlined into the integrator's step, as a bare loop's is: for a small model
    // a call per stage is a visible part of the step.
    #[inline(always)]
    fn rhs(&mut self, t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), DynamicsError> {
        let n = self.numeric.n();
        let (q, rest) = y.split_at(n);
        let (v, mu) = rest.split_at(n);
        if self.method == Method::Lagrange {
            dy[..n].copy_from_slice(v);
            formulations::lagrange_into(self.numeric, t, q, v, &mut dy[n..2 * n])?;
            return Ok(());
        }
        let solution = formulations::accelerations_with_multipliers(self.method, self.numeric, t, q, v, mu)?;
        dy[..n].copy_from_slice(v);
        dy[n..2 * n].copy_from_slice(solution.accelerations.as_slice());
        if let Some(rates) = &solution.multiplier_rates {
            dy[2 * n..].copy_from_slice(rates.as_slice());
        }
        Ok(())
    }
}

enum Stepper {
    Rk4(Rk4),
    Dopri5(alloc::boxed::Box<Dopri5>),
    /// The nonholonomic RATTLE with the terms it steps.
    Rattle(alloc::boxed::Box<(Rattle, DiscreteTerms)>),
}

/// A running simulation of one method.
pub struct Simulation {
    numeric: NumericModel,
    settings: Settings,
    t: f64,
    y: Vec<f64>,
    stepper: Stepper,
    samples: Samples,
    /// The time at the start of the last step, for [`Simulation::sample_in_last_step`].
    previous_t: f64,
    /// RK4's grid: `t = origin + k·dt` exactly, never an accumulated sum of steps.
    grid: Grid,
    /// Steps taken so far.
    steps: u64,
    /// The time at the start of the current window of [`STALL_WINDOW`] steps.
    window_t: f64,
    /// For the samples' compulsion.
    compulsion: CompulsionWork,
    /// The contacts' conditions and the spans where they failed (`None` without
    /// contacts, or for a vakonomic run).
    watch: Option<validity::Watch>,
}

/// Steps between two checks that the run is getting anywhere.
const STALL_WINDOW: u64 = 10_000;

/// A window of steps that advances the time by less than this part of the run
/// stalls it: at that rate the run would need more than 10¹⁰ steps.
const STALL_FRACTION: f64 = 1e-6;

/// A mean step below this part of the time it is at (or of 1) is a stall: the steps
/// have shrunk to where the system is stiff or singular.
const STALLED_STEP: f64 = 1e-9;

/// The fixed-step grid `tₖ = origin + k·dt`.
#[derive(Clone, Copy, Debug)]
struct Grid {
    origin: f64,
    /// Grid points reached so far.
    k: u64,
}

impl Simulation {
    /// Starts at `initial`, recording it as the first sample.
    pub fn new(mut numeric: NumericModel, settings: Settings, initial: &State) -> Result<Self, SimulationError> {
        numeric.baumgarte = match settings.stabilization {
            Stabilization::Baumgarte { alpha, beta } => Some((alpha, beta)),
            _ => None,
        };
        let mut y = initial.q.clone();
        y.extend(&initial.v);
        if settings.method == Method::Vakonomic {
            y.extend(&initial.mu);
        }
        let dim = y.len();
        let stepper = match settings.integrator {
            IntegratorKind::Rk4 => Stepper::Rk4(Rk4::new(dim)),
            IntegratorKind::Dopri5 => {
                Stepper::Dopri5(alloc::boxed::Box::new(Dopri5::new(dim, settings.rtol, settings.atol)))
            }
            kind @ (IntegratorKind::Rattle | IntegratorKind::Rattle4) => {
                let terms = structure_preserving_terms(&numeric, kind, settings.method)?;
                if let Some(why) = redundant_for_structure_preserving(&mut numeric, initial) {
                    let why = crate::message::run::sp_not_this_model(kind.id(), crate::message::Part(why));
                    return Err(IntegrationError::System(DynamicsError::Unsupported(why)));
                }
                let order = if kind == IntegratorKind::Rattle4 { 4 } else { 2 };
                Stepper::Rattle(alloc::boxed::Box::new((Rattle::new(order), terms)))
            }
        };
        let grid = Grid { origin: initial.t, k: 0 };
        let mut sim = Simulation {
            numeric,
            settings,
            t: initial.t,
            y,
            stepper,
            samples: Samples::default(),
            previous_t: initial.t,
            grid,
            steps: 0,
            window_t: initial.t,
            compulsion: CompulsionWork::default(),
            watch: None,
        };
        let n = sim.numeric.n();
        let wanted = sim.settings.diagnostics;
        let contacts = sim.numeric.contacts.as_ref().map_or(0, |c| c.contacts().len());
        // The contacts are watched with their columns, or where the run is to stop at
        // a failing one (a run asked for the state alone does none of it).
        let asked = wanted.contacts || sim.settings.on_invalid == OnInvalid::Stop;
        let watched = contacts > 0 && sim.settings.method != Method::Vakonomic && asked;
        if watched {
            validity::prepare(&mut sim.numeric, initial.t, &initial.q);
        }
        sim.samples = Samples::new(Widths {
            n,
            mu: dim - 2 * n,
            residuals: if wanted.residuals { sim.numeric.m() } else { 0 },
            e: if wanted.e_vector { sim.numeric.e_components().unwrap_or(0) } else { 0 },
            contacts: if watched && wanted.contacts { contacts * crate::mechanics::CONTACT_COLUMNS } else { 0 },
        });
        if watched {
            let (t, y) = (sim.t, sim.y.clone());
            let invalid = sim.status_at(t, &y, None).map_err(IntegrationError::System)?;
            let mut watch = validity::Watch { invalid: invalid.clone(), events: Vec::new(), stop_at_start: None };
            for (contact, flags) in invalid.iter().enumerate() {
                for (c, condition) in Condition::ALL.into_iter().enumerate() {
                    if !flags[c] {
                        continue;
                    }
                    // A run to stop where a contact fails stops at the start (its
                    // first step says so), telling that story alone.
                    if sim.settings.on_invalid == OnInvalid::Stop && condition.stops() {
                        watch.stop_at_start.get_or_insert((contact, condition));
                    } else {
                        watch.events.push(ValidityEvent { contact, condition, start: t, end: None });
                    }
                }
            }
            sim.watch = Some(watch);
        }
        sim.record_now()?;
        Ok(sim)
    }

    /// The current time.
    pub fn time(&self) -> f64 {
        self.t
    }

    /// The current state.
    pub fn state(&self) -> State {
        let n = self.numeric.n();
        State { t: self.t, q: self.y[..n].to_vec(), v: self.y[n..2 * n].to_vec(), mu: self.y[2 * n..].to_vec() }
    }

    /// Samples recorded so far: the start and every accepted step.
    pub fn samples(&self) -> &Samples {
        &self.samples
    }

    /// Frees the samples held, once the caller has written them (the command line
    /// streams a long run in pieces); they still count towards the sample limit.
    pub fn release_samples(&mut self) {
        self.samples.release();
    }

    /// The samples, the run ended.
    pub fn into_samples(self) -> Samples {
        self.samples
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The spans so far where a contact lifted off or slipped, in the order they
    /// started (empty without contacts).
    pub fn validity_events(&self) -> &[ValidityEvent] {
        self.watch.as_ref().map_or(&[], |w| &w.events[..])
    }

    /// How each contact's force is found, and whether it is determined (`None`
    /// without contacts).
    pub fn contacts(&self) -> Option<&[crate::mechanics::ContactInfo]> {
        self.numeric.contacts.as_ref().map(|c| c.contacts())
    }

    /// Which conditions fail at `(t, y)` (`known`: its derivative, when the
    /// integrator has it); none where the forces are not determined.
    fn status_at(&mut self, t: f64, y: &[f64], known: Option<&[f64]>) -> Result<Vec<[bool; 3]>, DynamicsError> {
        validity::forces_at(&mut self.numeric, self.settings.method, t, y, known)?;
        let Some(contacts) = self.numeric.contacts.as_ref() else { return Ok(Vec::new()) };
        Ok(validity::status(contacts))
    }

    /// After a step: where a contact's condition changed inside it, the instant,
    /// located on the dense output; the spans updated. The first instant a
    /// condition failed when the run is to stop there.
    fn check_contacts(&mut self) -> Result<Option<(f64, usize, Condition)>, DynamicsError> {
        let Some(before) = self.watch.as_ref().map(|w| w.invalid.clone()) else { return Ok(None) };
        let known = self.derivative_at_end();
        let (t, y) = (self.t, self.y.clone());
        let now = self.status_at(t, &y, known.as_deref())?;
        let mut stop: Option<(f64, usize, Condition)> = None;
        for (k, (was, is)) in before.iter().zip(&now).enumerate() {
            for (c, condition) in Condition::ALL.into_iter().enumerate() {
                if was[c] == is[c] {
                    continue;
                }
                let from = self.previous_t;
                let at = validity::locate(from, t, &mut |s| {
                    let y = self.state_in_last_step(s)?;
                    Ok(self.status_at(s, &y, None)?.get(k).is_some_and(|x| x[c] == is[c]))
                })?;
                let Some(watch) = self.watch.as_mut() else { continue };
                if is[c] {
                    watch.events.push(ValidityEvent { contact: k, condition, start: at, end: None });
                    let stops = self.settings.on_invalid == OnInvalid::Stop && condition.stops();
                    if stops && stop.is_none_or(|(s, ..)| at < s) {
                        stop = Some((at, k, condition));
                    }
                } else if let Some(open) = watch
                    .events
                    .iter_mut()
                    .rev()
                    .find(|e| e.contact == k && e.condition == condition && e.end.is_none())
                {
                    open.end = Some(at);
                }
            }
        }
        if let Some(watch) = self.watch.as_mut() {
            watch.invalid = now;
            // A run that stops at an instant tells that one story: the stop's own
            // message. The span it would have opened is not kept (it would say
            // "to the run's end" beside "stopped at"), nor anything the step found
            // after the stop, and a span that ended after it lasts to the run's end.
            if let Some((at, ..)) = stop {
                watch.events.retain(|e| e.start < at);
                watch.events.iter_mut().filter(|e| e.end.is_some_and(|end| end > at)).for_each(|e| e.end = None);
            }
        }
        Ok(stop)
    }

    /// The derivative at the step's end where the integrator has it (Dopri5's last
    /// stage; not after a projection moved the state).
    fn derivative_at_end(&self) -> Option<Vec<f64>> {
        match &self.stepper {
            Stepper::Dopri5(dp) if self.settings.stabilization != Stabilization::Projection => {
                dp.derivative_at_end(self.t).map(<[f64]>::to_vec)
            }
            _ => None,
        }
    }

    /// The compiled model (to change parameters between runs).
    pub fn numeric_mut(&mut self) -> &mut NumericModel {
        &mut self.numeric
    }

    /// Sets parameter `index` from the next step on, the run going on from where it
    /// is: an input moved by the page's control. The step's carried derivative
    /// (Dormand–Prince's last stage) is forgotten, since it was of the old value.
    /// False (and nothing changed) when `index` is out of range or `value` not finite.
    pub fn set_parameter(&mut self, index: usize, value: f64) -> bool {
        let Some(slot) = self.numeric.parameters.get_mut(index) else { return false };
        if !value.is_finite() {
            return false;
        }
        *slot = value;
        if let Stepper::Dopri5(dp) = &mut self.stepper {
            dp.restart();
        }
        true
    }

    /// The sample at `(t, y)`, owned (for display between steps; not recorded).
    fn sample_at(&mut self, t: f64, y: &[f64]) -> Result<Sample, DynamicsError> {
        let w = self.samples.widths();
        let mut columns = alloc::vec![0.0; 2 * w.residuals + w.e + w.contacts];
        let row = Measures { columns: &mut columns, residuals: w.residuals, contacts: w.contacts };
        let scalars = measure(&mut self.numeric, &self.settings, &mut self.compulsion, t, y, None, row)?;
        let n = self.numeric.n();
        let contact_forces = columns.split_off(2 * w.residuals + w.e);
        let e = columns.split_off(2 * w.residuals);
        let velocity_residuals = columns.split_off(w.residuals);
        let residuals = columns;
        Ok(Sample {
            t,
            q: y[..n].to_vec(),
            v: y[n..2 * n].to_vec(),
            energy: scalars.energy,
            mu: y[2 * n..].to_vec(),
            residuals,
            velocity_residuals,
            compulsion: scalars.compulsion,
            e_vector: scalars.e_defined.then_some(e),
            contact_forces,
        })
    }

    /// Records the sample at `(t, y)` (a state other than the current one).
    fn record_at(&mut self, t: f64, y: &[f64], known: Option<&[f64]>) -> Result<(), SimulationError> {
        let Simulation { numeric, settings, compulsion, samples, .. } = self;
        record(samples, numeric, settings, compulsion, t, y, known)
    }

    /// Records the sample at the current state, which is borrowed in place, as is
    /// Dopri5's last stage (the derivative at the step's end, unless projection has
    /// moved the state since) when the compulsion asks for it.
    fn record_now(&mut self) -> Result<(), SimulationError> {
        let Simulation { numeric, settings, compulsion, samples, stepper, t, y, .. } = self;
        let contacts = settings.diagnostics.contacts && numeric.contacts.is_some();
        let known = match stepper {
            Stepper::Dopri5(dp)
                if (settings.compulsion || contacts) && settings.stabilization != Stabilization::Projection =>
            {
                dp.derivative_at_end(*t)
            }
            _ => None,
        };
        record(samples, numeric, settings, compulsion, *t, y, known)
    }

    /// Advances to `t_end`, recording a sample after every accepted step (rk4: every
    /// `dt`, the last step shortened to land on `t_end`).
    pub fn advance_to(&mut self, t_end: f64) -> Result<(), SimulationError> {
        self.advance(t_end, &[])
    }

    /// Advances to the last of `times` (ascending), recording a sample exactly at each
    /// of them (dopri5: from the dense output) instead of at every step.
    pub fn advance_sampling(&mut self, times: &[f64]) -> Result<(), SimulationError> {
        match times.last() {
            Some(&end) => self.advance(end, times),
            None => Ok(()),
        }
    }

    /// Takes one step towards `t_end` (one accepted dopri5 step, or one rk4 step of
    /// `dt`) and records its sample; returns `false`, doing nothing, once at `t_end`.
    ///
    /// Steps depend only on `t_end`, never on how often this is called, so a page
    /// stepping in frames reproduces `advance_to(t_end)` sample for sample.
    pub fn step(&mut self, t_end: f64) -> Result<bool, SimulationError> {
        if self.t >= t_end {
            return Ok(false);
        }
        self.step_once(t_end, &[], &mut 0)?;
        Ok(true)
    }

    /// A sample at `t` inside the last step, for display between steps: from the
    /// integrator's dense output (and projected like the steps, when projection is
    /// on). `t` is clamped to the step.
    pub fn sample_in_last_step(&mut self, t: f64) -> Result<Sample, SimulationError> {
        let t = t.clamp(self.previous_t, self.t);
        let y = self.state_in_last_step(t).map_err(IntegrationError::System)?;
        self.sample_at(t, &y).map_err(IntegrationError::System)
    }

    /// The state at `t` inside the last step: the step's end at its end, the dense
    /// output inside it, projected onto the constraints when projection is on.
    fn state_in_last_step(&mut self, t: f64) -> Result<Vec<f64>, DynamicsError> {
        let mut y = self.y.clone();
        if t < self.t {
            match &self.stepper {
                Stepper::Dopri5(dp) => dp.interpolate(t, &mut y),
                Stepper::Rk4(rk4) => rk4.interpolate(t, &mut y),
                Stepper::Rattle(rattle) => rattle.0.interpolate(t, &mut y),
            };
            if self.settings.stabilization == Stabilization::Projection {
                project(&mut self.numeric, t, &mut y)?;
            }
        }
        Ok(y)
    }

    fn advance(&mut self, t_end: f64, sample_times: &[f64]) -> Result<(), SimulationError> {
        self.advance_while(t_end, sample_times, &mut |_| true)
    }

    /// [`advance_to`](Self::advance_to) (no `sample_times`) or
    /// [`advance_sampling`](Self::advance_sampling), asking `keep_going` before every
    /// step, with the number of samples held: the bound of a caller with a clock (the
    /// core has none) or one that writes the samples out in pieces, which stops the
    /// run with [`IntegrationError::Interrupted`], its samples kept.
    pub fn advance_while(
        &mut self,
        t_end: f64,
        sample_times: &[f64],
        keep_going: &mut dyn FnMut(usize) -> bool,
    ) -> Result<(), SimulationError> {
        let t_end = if sample_times.is_empty() { t_end } else { sample_times.last().copied().unwrap_or(self.t) };
        let mut next_sample = sample_times.iter().position(|&s| s > self.t).unwrap_or(sample_times.len());
        while self.t < t_end {
            if !keep_going(self.samples.len()) {
                return Err(IntegrationError::Interrupted { t: self.t });
            }
            self.step_once(t_end, sample_times, &mut next_sample)?;
        }
        Ok(())
    }

    /// One step, then the samples it covers: those of `sample_times` from
    /// `next_sample` on, or (with no sample times) the step's end.
    fn step_once(&mut self, t_end: f64, sample_times: &[f64], next_sample: &mut usize) -> Result<(), SimulationError> {
        let t0 = self.t;
        if let Some((k, condition)) = self.watch.as_mut().and_then(|w| w.stop_at_start.take()) {
            let (name, field, force) = match self.numeric.contacts.as_ref() {
                Some(c) => (c.contacts()[k].name.clone(), c.contacts()[k].field.clone(), c.forces()[k]),
                None => return Ok(()),
            };
            let message = validity::stop_message(&name, &field, condition, t0, &force);
            return Err(IntegrationError::System(DynamicsError::ContactInvalid { message, t: t0 }));
        }
        let limits = self.settings.limits;
        if self.steps >= limits.max_steps {
            return Err(IntegrationError::Limit { t: t0, what: "steps", limit: limits.max_steps });
        }
        if self.steps > 0 && self.steps.is_multiple_of(STALL_WINDOW) {
            let advanced = t0 - self.window_t;
            if advanced < STALL_FRACTION * (t_end - self.grid.origin) {
                // Steps small for the time they are at are a stall (stiff or singular
                // there); steps of an ordinary size, an end too far away.
                let step = advanced / STALL_WINDOW as f64;
                if step < STALLED_STEP * t0.abs().max(1.0) {
                    return Err(IntegrationError::Stalled { t: t0, steps: STALL_WINDOW, advanced });
                }
                let needed = (t_end - t0) / step;
                return Err(IntegrationError::TooLong { t: t0, t_end, steps: STALL_WINDOW, advanced, needed });
            }
            self.window_t = t0;
        }
        self.steps += 1;
        self.previous_t = t0;
        // The fixed-step integrators' next grid point `t₀ + k·dt`, or `t_end` when
        // that comes first (a step shortened to land there leaves the grid as it was).
        let dt = self.settings.dt;
        let target = self.grid.origin + (self.grid.k + 1) as f64 * dt;
        let t1 = target.min(t_end);
        let fixed = !matches!(self.stepper, Stepper::Dopri5(_));

        if fixed && t1 <= t0 {
            return Err(IntegrationError::NoProgress { t: t0, dt });
        }
        // A fixed step so small that the run could not cover a millionth of its span
        // within its step limit (`dt = 1e-300`): said at once, with the count, rather
        // than as the stall or the singular Newton matrix it leads to. (A long run
        // that merely outlasts its limit runs to it, as before.)
        let needed = (t_end - t0) / dt;
        if fixed && self.steps == 1 && needed > 1e6 * limits.max_steps as f64 {
            return Err(IntegrationError::StepTooSmall { dt, t_end, needed, limit: limits.max_steps });
        }
        let mut dynamics = Dynamics { numeric: &mut self.numeric, method: self.settings.method };
        match &mut self.stepper {
            Stepper::Rk4(rk4) => {
                rk4.step(&mut dynamics, t0, &mut self.y, t1 - t0)?;
                self.t = t1;
            }
            Stepper::Dopri5(dp) => {
                dp.step(&mut dynamics, &mut self.t, &mut self.y, t_end)?;
            }
            Stepper::Rattle(rattle) => {
                let (stepper, terms) = &mut **rattle;
                let parameters = &self.numeric.parameters;
                // A step past the scheme's stability limit: said as such, whether
                // the energy explodes while Newton converges, or Newton gives up
                // after the energy grew.
                if let Err(e) = stepper.step(terms, parameters, t0, &mut self.y, t1 - t0) {
                    return Err(match stepper.instability(terms, parameters, true) {
                        Some(instability) => IntegrationError::Unstable { dt, instability },
                        None => IntegrationError::System(e),
                    });
                }
                if let Some(instability) = stepper.instability(terms, parameters, false) {
                    return Err(IntegrationError::Unstable { dt, instability });
                }
                if self.y.iter().any(|x| !x.is_finite()) {
                    return Err(IntegrationError::NonFinite { t: t1 });
                }
                self.t = t1;
            }
        }
        if fixed && t1 == target {
            self.grid.k += 1;
        }
        // The structure-preserving steps meet the constraints themselves.
        let structure_preserving = matches!(self.stepper, Stepper::Rattle(_));
        if self.settings.stabilization == Stabilization::Projection && !structure_preserving {
            project(&mut self.numeric, self.t, &mut self.y).map_err(IntegrationError::System)?;
            if let Stepper::Dopri5(dp) = &mut self.stepper {
                dp.restart();
            }
        }
        let stop = self.check_contacts().map_err(IntegrationError::System)?;
        let end = stop.map_or(self.t, |(at, ..)| at);
        // Samples inside this step come from the dense output; one at the step's
        // end is the step's (projected) state itself.
        while *next_sample < sample_times.len() && sample_times[*next_sample] <= end {
            let ts = sample_times[*next_sample];
            let y = self.state_in_last_step(ts).map_err(IntegrationError::System)?;
            self.record_at(ts, &y, None)?;
            *next_sample += 1;
        }
        if let Some((at, k, condition)) = stop {
            // The run ends at the instant, its last sample there.
            let y = self.state_in_last_step(at).map_err(IntegrationError::System)?;
            if sample_times.last().is_none_or(|&last| last > at) {
                self.record_at(at, &y, None)?;
            }
            self.y = y;
            self.t = at;
            validity::forces_at(&mut self.numeric, self.settings.method, at, &self.y.clone(), None)
                .map_err(IntegrationError::System)?;
            let (name, field, force) = match self.numeric.contacts.as_ref() {
                Some(c) => (c.contacts()[k].name.clone(), c.contacts()[k].field.clone(), c.forces()[k]),
                None => return Ok(()),
            };
            let message = validity::stop_message(&name, &field, condition, at, &force);
            return Err(IntegrationError::System(DynamicsError::ContactInvalid { message, t: at }));
        }
        if sample_times.is_empty() {
            self.record_now()?;
        }
        Ok(())
    }
}

/// Records the sample at `(t, y)`, within the sample limit, measured straight into
/// its row of `samples`; nothing is allocated but the samples' own growth. (A free
/// function over the simulation's fields, so that a sample at the current state
/// borrows it in place.)
fn record(
    samples: &mut Samples,
    numeric: &mut NumericModel,
    settings: &Settings,
    compulsion: &mut CompulsionWork,
    t: f64,
    y: &[f64],
    known: Option<&[f64]>,
) -> Result<(), SimulationError> {
    let limit = settings.limits.max_samples;
    if samples.recorded() >= limit {
        return Err(IntegrationError::Limit { t, what: "samples", limit: limit as u64 });
    }
    if settings.diagnostics == Diagnostics::NONE && !settings.compulsion {
        samples.push_state(t, y);
        return Ok(());
    }
    samples
        .push_with(t, y, |row| measure(numeric, settings, compulsion, t, y, known, row))
        .map_err(IntegrationError::System)
}

/// Measures the sample at `(t, y)` besides its state: the scalars, and the
/// residuals and E-vector into `row`. `known` is the derivative of `y` there when
/// the integrator has it already (its last stage), which saves the compulsion a
/// solve.
fn measure(
    numeric: &mut NumericModel,
    settings: &Settings,
    work: &mut CompulsionWork,
    t: f64,
    y: &[f64],
    known: Option<&[f64]>,
    mut row: Measures<'_>,
) -> Result<Scalars, DynamicsError> {
    let n = numeric.n();
    let (q, v, mu) = (&y[..n], &y[n..2 * n], &y[2 * n..]);
    let wanted = settings.diagnostics;
    let (mut energy, mut compulsion) = (f64::NAN, f64::NAN);
    if settings.compulsion {
        // Only the compulsion needs the accelerations: solved here when the
        // integrator has not given them.
        let solved = match known {
            None => formulations::accelerations_with_multipliers(settings.method, numeric, t, q, v, mu)?.accelerations,
            Some(_) => DVector::zeros(0),
        };
        let terms = numeric.evaluate(t, q, v)?;
        let accelerations = known.map_or(solved.as_slice(), |dy| &dy[n..2 * n]);
        compulsion = formulations::compulsion_with(terms, accelerations, t, &mut work.solver, &mut work.scratch)?;
    }
    let mut e_defined = false;
    let with_residuals = row.residuals > 0;
    let (columns, contact_columns) = row.without_contacts();
    // First: the diagnostics below read where the last right-hand side left the
    // machine code (its tail), which finding the accelerations here would move.
    if !contact_columns.is_empty() && validity::forces_at(numeric, settings.method, t, y, known)? {
        if let Some(contacts) = &numeric.contacts {
            for (out, force) in contact_columns.chunks_mut(crate::mechanics::CONTACT_COLUMNS).zip(contacts.forces()) {
                out.copy_from_slice(&force.columns());
            }
        }
    }
    if wanted.energy || wanted.residuals || wanted.e_vector {
        // One pass of the program gives them all (the E-vector's terms follow
        // them); the columns not recorded are left out.
        let (value, defined) = sample_block::diagnostics(numeric, t, q, v, columns, with_residuals)?;
        e_defined = defined;
        if wanted.energy {
            energy = value;
        }
    }
    Ok(Scalars { energy, compulsion, e_defined })
}

/// Projects positions onto `φ = 0` (Gauss–Newton) and velocities onto `f = 0` in
/// the metric of `M`, in place.
fn project(numeric: &mut NumericModel, t: f64, y: &mut [f64]) -> Result<(), DynamicsError> {
    let n = numeric.n();
    if numeric.m() == 0 {
        return Ok(());
    }
    for _ in 0..3 {
        let (q, rest) = y.split_at(n);
        let terms = numeric.evaluate(t, q, &rest[..n])?;
        let phi = terms.position_residuals.clone();
        if phi.amax() <= 1e-14 {
            break;
        }
        // Rows of A for holonomic constraints are ∂φ/∂q.
        let correction = least_norm(&terms.jacobian, &phi);
        for i in 0..n {
            y[i] -= correction[i];
        }
    }
    let (q, rest) = y.split_at(n);
    let terms = numeric.evaluate(t, q, &rest[..n])?;
    let m_inv = terms.mass.clone().cholesky().ok_or(DynamicsError::NotPositiveDefinite { t })?;
    let a = &terms.jacobian;
    let m_inv_at = m_inv.solve(&a.transpose());
    let s = a * &m_inv_at;
    let lambda = s.lu().solve(&terms.residuals).ok_or(DynamicsError::Singular {
        what: crate::mechanics::SingularMatrix::Symbol("A M⁻¹ Aᵀ"),
        t,
        hint: crate::mechanics::SingularHint::None,
    })?;
    let dv = m_inv_at * lambda;
    for i in 0..n {
        y[n + i] -= dv[i];
    }
    Ok(())
}

/// The least-norm `x` with `J x = r`, rows of `J` that are zero ignored.
pub(crate) fn least_norm(j: &nalgebra::DMatrix<f64>, r: &DVector<f64>) -> DVector<f64> {
    let svd = j.clone().svd(true, true);
    let tol = 1e-12 * svd.singular_values.max().max(f64::MIN_POSITIVE);
    svd.solve(r, tol).unwrap_or_else(|_| DVector::zeros(j.ncols()))
}
