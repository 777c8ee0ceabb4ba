//! Layer 6: stepping a model under one method. This is what the web page calls every
//! frame and what `nhlab run` calls in batch: create, advance to a time, read the
//! samples (state, energy, residuals, compulsion).

mod blame;
mod contact_setup;
mod drift;
mod ends;
mod initial;
mod record;
mod sample_block;
mod samples;
mod settings;
pub mod split_choice;
mod validity;

pub use contact_setup::{contact_analysis, contact_forces_at, prepare_contacts, ContactForcesAt};
pub use ends::{design_end, design_end_message, ended_by_design, failure, hamel_end, hamel_end_message, StopReason};
pub use record::Sample;
pub use settings::{Diagnostics, Limits, Settings};

use drift::{least_norm, project};
use record::{measure, record, CompulsionWork};

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
