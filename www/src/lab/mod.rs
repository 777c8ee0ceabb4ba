//! The lab's state, in plain Rust (tested natively): one prepared scenario, one run
//! per chosen method, stepped towards a display clock.
//!
//! Runs take exactly the steps `nhlab run` takes (`Simulation::step` towards the
//! scenario's `t_end`, whatever the frame rate), so the page's samples, its CSV and a
//! share link's run are the command line's, number for number. Between steps the
//! display shows a state interpolated at the clock (dense output), which is never
//! recorded.

use nhlab::derivation::{derive, Derivation};
use nhlab::export::{samples_table_for, step_comment, RunSamples};
use nhlab::formulations::Method;
use nhlab::mechanics::Needs;
use nhlab::prepare::Prepared;
use nhlab::scenario::{IntegratorKind, Problem, Problems, Scenario, SourceMap};
use nhlab::scene::{Projection, ScenePlayer};
use nhlab::simulation::{Diagnostics, Sample, SampleRef, Samples, Settings, Simulation, NO_SAMPLES};
use nhlab::view::View;

use crate::i18n::tr;
use crate::layout::{ContactLayout, Layout, SceneLayout};
use crate::rows::{Columns, RowFormat};

mod arrows;
mod motion;
mod recorder;
mod run;
mod text;

use arrows::force_arrows;
pub use arrows::ArrowScale;
use recorder::{sample_is_finite, Recorder};
pub(crate) use run::stop_words;
use run::Outputs;
pub use run::Run;
pub use text::{describe_all, export_code, read, TextProblem};
pub(crate) use text::{problems, said_briefly};

/// The lab: a scenario and its runs.
pub struct Lab {
    prepared: Prepared,
    view: Outputs,
    runs: Vec<Run>,
    /// Start and end of the runs.
    pub t0: f64,
    /// End of the runs: the scenario's, or later once [`Lab::extend`]ed.
    pub t_end: f64,
    /// The scenario's `t_end − t0`: what the display density and a restart go by.
    span: f64,
    now: f64,
    /// Warnings about the text (unknown fields), positioned.
    pub warnings: Vec<TextProblem>,
    /// Samples a run may record: [`MAX_SAMPLES_PER_RUN`] (smaller in tests).
    sample_limit: usize,
    /// Whether Lagrange's right-hand side runs compiled code ([`crate::kernel`]),
    /// or why not.
    compiled: Result<bool, String>,
}

impl Lab {
    /// Loads TOML (or JSON, when the text starts with `{`) and starts every method of
    /// `run.methods` at the initial state.
    ///
    /// Derives what the runs and the plots need: the E-vector's Hamel split (a
    /// default panel) and the vakonomic equations only when that method runs.
    pub fn new(text: &str) -> Result<Lab, Vec<TextProblem>> {
        let needs = |s: &Scenario| Needs::for_methods(&s.run.chosen_methods(), true);
        Lab::new_for(text, needs)
    }

    /// As [`Lab::new`], with what printing `method`'s equations needs derived as well
    /// (the helper's, for the equations panel). Deriving every method at once, as it
    /// did, took seconds for a large model (the vakonomic equations above all) beside
    /// the runner's first steps on a two-core machine.
    pub fn for_equations(text: &str, method: Method) -> Result<Lab, Vec<TextProblem>> {
        Lab::new_for(text, |s| {
            let mut methods = s.run.chosen_methods();
            methods.push(method);
            Needs::for_methods(&methods, true)
        })
    }

    fn new_for(text: &str, needs: impl Fn(&Scenario) -> Needs) -> Result<Lab, Vec<TextProblem>> {
        let (scenario, map) = read(text)?;
        let needs = needs(&scenario);
        Lab::from_read_for(&scenario, map, needs, &mut |_| {})
    }

    /// As [`Lab::new`] for a scenario already read ([`read`]).
    pub fn from_read(scenario: &Scenario, map: SourceMap) -> Result<Lab, Vec<TextProblem>> {
        Lab::from_read_telling(scenario, map, &mut |_| {})
    }

    /// [`Lab::from_read`], telling `starting` the prepared model before its runs
    /// start (the runner says so to the page: a load stopped for its time blames
    /// the part that was slow).
    pub fn from_read_telling(
        scenario: &Scenario,
        map: SourceMap,
        starting: &mut dyn FnMut(&Prepared),
    ) -> Result<Lab, Vec<TextProblem>> {
        let needs = Needs::for_methods(&scenario.run.chosen_methods(), true);
        Lab::from_read_for(scenario, map, needs, starting)
    }

    fn from_read_for(
        scenario: &Scenario,
        map: SourceMap,
        needs: Needs,
        starting: &mut dyn FnMut(&Prepared),
    ) -> Result<Lab, Vec<TextProblem>> {
        let mut prepared = Prepared::from_scenario_for(scenario, map, needs).map_err(problems)?;
        let lagrange = prepared.model.scenario.run.chosen_methods().contains(&Method::Lagrange);
        let compiled =
            if lagrange { crate::kernel::use_for_lagrange(&prepared.model, &mut prepared.numeric) } else { Ok(false) };
        // The contact forces' terms compiled too; where the module cannot be made
        // they are interpreted, to the same bits, so a failure here changes nothing
        // a user sees.
        let _ = crate::kernel::use_for_contacts(&mut prepared.numeric);
        let _ = crate::kernel::use_for_structure_preserving(&mut prepared.numeric);
        starting(&prepared);
        let mut lab = Lab::from_prepared(prepared)?;
        lab.compiled = compiled;
        Ok(lab)
    }

    /// Starts the runs of a prepared scenario.
    pub fn from_prepared(prepared: Prepared) -> Result<Lab, Vec<TextProblem>> {
        let unplaced = |field: &str, message: &nhlab::message::Message| {
            vec![TextProblem { field: field.into(), line: None, column: None, message: crate::i18n::message(message) }]
        };
        let view = View::new(&prepared.model).map_err(|e| unplaced("view", &e.message()))?;
        let scene = ScenePlayer::new(&prepared.model).map_err(|e| unplaced("scene", &e.message()))?;
        let scene = (!scene.elements().is_empty()).then_some(scene);
        let view = Outputs::new(view, scene);
        let run = &prepared.model.scenario.run;
        let t0 = prepared.initial.t;
        let t_end = run.t_end_or_default();
        if t_end <= t0 {
            // The checks refuse it with its place; this guards a scenario built otherwise.
            let (t0, end) = (nhlab::math::Short(t0), nhlab::math::Short(t_end));
            return Err(unplaced("run.t_end", &nhlab::message::problem::end_before_start(t0, end)));
        }
        let warnings = prepared.map.warnings.iter().map(TextProblem::from_problem).collect();
        let mut lab = Lab {
            prepared,
            view,
            runs: Vec::new(),
            t0,
            t_end,
            span: t_end - t0,
            now: t0,
            warnings,
            sample_limit: MAX_SAMPLES_PER_RUN,
            compiled: Ok(false),
        };
        lab.restart();
        Ok(lab)
    }

    /// Sets parameter `slot` (an `[inputs]` entry taken as an argument: the page's
    /// live control) in every run from its next step on; the runs go on from where
    /// they are. False when the slot is not an input's or the value is not finite
    /// (nothing changes).
    pub fn set_input(&mut self, slot: usize, value: f64) -> bool {
        if !value.is_finite() || !self.prepared.model.inputs.contains(&slot) {
            return false;
        }
        for run in &mut self.runs {
            if let Some(sim) = run.sim.as_mut() {
                sim.set_parameter(slot, value);
            }
            if let Some(x) = run.parameters.get_mut(slot) {
                *x = value;
            }
        }
        true
    }

    /// Back to the initial state, every run afresh.
    pub fn restart(&mut self) {
        self.t_end = self.t0 + self.span;
        let p = &self.prepared;
        let mut runs = Vec::new();
        // Each method with the scenario's values, then with each `[compare]` set's.
        let starts: Vec<(&[f64], &nhlab::simulation::State)> =
            core::iter::once((p.numeric.parameters.as_slice(), &p.initial))
                .chain(p.sets.iter().map(|s| (s.parameters.as_slice(), &s.initial)))
                .collect();
        // Each set's model, its contacts analysed once for all its methods' runs.
        let set_models: Vec<nhlab::mechanics::NumericModel> = starts
            .iter()
            .map(|&(parameters, initial)| {
                let mut numeric = p.numeric.clone();
                numeric.parameters.copy_from_slice(parameters);
                nhlab::simulation::prepare_contacts(&mut numeric, initial);
                numeric
            })
            .collect();
        let run = &p.model.scenario.run;
        let each = nhlab::scenario::method_integrator_runs(&run.chosen_methods(), &run.integrator_kinds());
        for (method, integrator_index, integrator) in each {
            for (set, (&(parameters, initial), set_model)) in starts.iter().zip(&set_models).enumerate() {
                // The page draws no compulsion: samples skip it.
                let settings = Settings {
                    compulsion: false,
                    integrator,
                    ..Settings::from_scenario(&p.model.scenario.run, method)
                };
                let holonomic: Vec<bool> = p.model.constraints.iter().map(|c| c.is_holonomic()).collect();
                let contacts = p.model.contacts.as_ref().map_or(0, |c| c.contacts.len());
                let format =
                    RowFormat { outputs: self.view.per_sample(), e_components: self.e_components().len(), contacts };
                let hamel_dependent = p.model.hamel_dependent_names();
                let mut run = Run {
                    method,
                    set,
                    integrator,
                    integrator_index,
                    parameters: parameters.to_vec(),
                    sim: None,
                    error: None,
                    ended: false,
                    hamel_dependent,
                    rows: Vec::new(),
                    format,
                    holonomic,
                    recorded: 0,
                    current: None,
                    arrow_scale: None,
                };
                let numeric = set_model.clone();
                match nhlab::formulations::why_not(&p.model, method) {
                    Err(why) => run.error = Some(tr("run.cannot-run", &[("why", &crate::i18n::message(&why))])),
                    Ok(()) => match Simulation::new(numeric, settings, initial) {
                        Ok(sim) => run.sim = Some(sim),
                        Err(e) => {
                            run.error = Some(tr(
                                "run.cannot-start",
                                &[("why", &crate::i18n::message(&nhlab::simulation::failure(&e)))],
                            ))
                        }
                    },
                }
                runs.push(run);
            }
        }
        self.runs = runs;
        self.now = self.t0;
        self.record_new_samples();
    }

    /// The scenario.
    pub fn scenario(&self) -> &Scenario {
        &self.prepared.model.scenario
    }

    /// The prepared model.
    pub fn prepared(&self) -> &Prepared {
        &self.prepared
    }

    /// The parameters' names in the order the text writes them (the source map's
    /// places, TOML or JSON alike; reading the text again for it would take a TOML
    /// editor into the runner's module).
    pub fn parameter_order(&self) -> Vec<&str> {
        let map = &self.prepared.map;
        let mut names: Vec<&str> = self.scenario().parameters.keys().map(String::as_str).collect();
        names.sort_by_key(|name| map.key(&format!("parameters.{name}")).unwrap_or((usize::MAX, 0)));
        names
    }

    /// Whether Lagrange's right-hand side runs compiled code, or why not.
    pub fn compiled(&self) -> &Result<bool, String> {
        &self.compiled
    }

    /// Interprets Lagrange's right-hand side from now on (the benchmark's
    /// comparison); the runs restart.
    pub fn interpret(&mut self) {
        self.prepared.numeric.set_native_lagrange(None);
        self.compiled = Ok(false);
        self.restart();
    }

    /// The runs, in `run.methods` order.
    pub fn runs(&self) -> &[Run] {
        &self.runs
    }

    /// The display clock.
    pub fn now(&self) -> f64 {
        self.now
    }

    /// The view's labels: trajectory x, trajectory y, then each series.
    pub fn view_labels(&self) -> &[String] {
        &self.view.view.labels
    }

    /// The view's axis labels, with units where the scenario gives them.
    pub fn axis_labels(&self) -> Vec<String> {
        self.view.view.axis_labels()
    }

    /// The scene's elements' labels and projection (`None`: nothing to draw), and the
    /// number of trailed elements (their columns follow the view's in each row).
    pub fn scene(&self) -> Option<(Vec<String>, Projection, usize)> {
        let scene = self.view.scene.as_ref()?;
        let mut labels: Vec<String> = scene.elements().iter().map(|e| e.label.clone()).collect();
        labels.extend(
            self.contact_names().iter().map(|n| crate::i18n::tr("scene.force-of", &[("name", &crate::i18n::name(n))])),
        );
        Some((labels, scene.projection(), self.view.trails()))
    }

    /// The contacts as the plots name them, with what the model determines of their
    /// forces (the analysis a run makes at its start).
    fn contact_layout(&self) -> Vec<ContactLayout> {
        let p = &self.prepared;
        let found = nhlab::simulation::contact_analysis(&p.numeric, &p.initial).unwrap_or_default();
        found
            .into_iter()
            .map(|c| ContactLayout { name: c.name, friction: c.friction, determined: c.determined })
            .collect()
    }

    /// The contacts' names: each has an arrow in the scene, after its elements.
    fn contact_names(&self) -> Vec<String> {
        self.prepared
            .model
            .contacts
            .as_ref()
            .map_or(Vec::new(), |c| c.contacts.iter().map(|c| c.name.clone()).collect())
    }

    /// Run `index`'s scene at the display clock, flat ([`crate::scene::encode`]), and
    /// the labels of elements it could not draw there; empty without a scene or a state.
    pub fn picture(&mut self, index: usize) -> (Vec<f64>, Vec<String>) {
        let (Some(scene), Some(run)) = (self.view.scene.as_mut(), self.runs.get(index)) else {
            return (Vec::new(), Vec::new());
        };
        let parameters = &run.parameters;
        let Some((shown, _)) = &run.current else { return (Vec::new(), Vec::new()) };
        let mut picture = scene.picture(parameters, shown.t, &shown.q, &shown.v);
        let elements = scene.elements().len();
        if let Some(run) = self.runs.get_mut(index) {
            picture.items.extend(force_arrows(run, &picture, elements));
        }
        (crate::scene::encode(&picture), picture.hidden)
    }

    /// The layout of the scenario, for the page.
    pub fn layout(&self) -> Layout {
        let lab = self;
        let constraints = &lab.prepared().model.constraints;
        let contacts = lab.contact_layout();
        let mut layout = Layout {
            t0: lab.t0,
            t_end: lab.t_end,
            view_labels: lab.view_labels().to_vec(),
            axis_labels: lab.axis_labels(),
            time_label: {
                let units = &lab.scenario().units;
                nhlab::view::axis_label("t", nhlab::view::unit_of(units, "t").as_deref())
            },
            coordinates: lab.prepared().model.coordinate_names().to_vec(),
            e_components: lab.e_components(),
            constraints: !constraints.is_empty(),
            any_holonomic: constraints.iter().any(|c| c.is_holonomic()),
            methods: lab.runs().iter().map(|r| r.method.id().to_string()).collect(),
            sets: lab.runs().iter().map(|r| r.set).collect(),
            integrators: lab.runs().iter().map(|r| r.integrator_index).collect(),
            integrator_labels: lab.integrator_labels(),
            set_labels: lab.set_labels(),
            energy_changes: energy_changes(&lab.prepared().model),
            energy_function: nhlab::mechanics::energy_form(&lab.prepared().model)
                == nhlab::mechanics::EnergyForm::EnergyFunction,
            panels: Vec::new(),
            scene: lab.scene().map(|(labels, projection, trails)| SceneLayout {
                labels,
                projection: projection.id().into(),
                trails,
                // The switch is there where some force is drawn (determined whole).
                forces: if contacts.iter().any(|c| c.determined == [true, true]) { contacts.len() } else { 0 },
            }),
            contacts: contacts.clone(),
        };
        layout.panels = crate::layout::panels(&layout);
        layout
    }

    /// Lets the runs go on to `t_end` where that is later than their end: an
    /// open-ended run, steered by its inputs (the page extends it while it plays once
    /// an input has moved, so that a cart-pole can be balanced for as long as one
    /// likes). Each run is bounded by the page's sample limit all the same. Returns
    /// the end the runs now have.
    pub fn extend(&mut self, t_end: f64) -> f64 {
        if t_end.is_finite() && t_end > self.t_end {
            self.t_end = t_end;
        }
        self.t_end
    }

    /// Whether every run has reached `t_end` or stopped.
    pub fn finished(&self) -> bool {
        self.runs.iter().all(|r| r.finished(self.t_end))
    }

    /// Moves the display clock to `target` (clamped to the run) and steps every run
    /// until it has passed the clock, at most `max_steps` steps each. Returns the
    /// number of steps taken. A run that fails keeps its samples and its message.
    pub fn advance(&mut self, target: f64, max_steps: usize) -> usize {
        self.now = target.clamp(self.t0, self.t_end);
        let mut recorder = Recorder { view: &mut self.view, display_dt: self.span / DISPLAY_POINTS };
        let mut steps = 0;
        for run in &mut self.runs {
            steps += run.catch_up(self.now, self.t_end, max_steps, self.sample_limit, &mut recorder);
        }
        self.record_new_samples();
        steps
    }

    /// Records samples not yet in the columns (the first one, and a failed step's
    /// last), and every run's state at the clock.
    fn record_new_samples(&mut self) {
        let Lab { runs, view, now, .. } = self;
        for run in runs {
            let parameters = &run.parameters;
            let Some(sim) = run.sim.as_mut() else { continue };
            let samples = sim.samples();
            for s in samples.iter().skip(run.recorded) {
                run.format.push(&mut run.rows, s, view.at(parameters, s), true, &run.holonomic);
            }
            run.recorded = samples.len();
            let Some(last) = samples.last().map(|s| s.to_sample()) else { continue };
            let shown = if run.error.is_none() && *now < last.t {
                sim.sample_in_last_step(*now).ok().filter(|s| sample_is_finite(s)).unwrap_or(last)
            } else {
                last
            };
            let mut row = Vec::with_capacity(run.format.width());
            run.format.push(&mut row, &shown, view.at(parameters, &shown), false, &run.holonomic);
            run.current = Some((shown, row));
        }
    }

    /// What run `index` has recorded from row `from` on, at most `max_rows` rows,
    /// flat ([`RowFormat`]), and its row at the clock (empty before the
    /// first sample). A `from` past its rows (the runs restarted) starts from 0.
    /// Returns `(from, rows, current)`.
    pub fn rows_since(&self, index: usize, from: usize, max_rows: usize) -> (usize, Vec<f64>, Vec<f64>) {
        let Some(run) = self.runs.get(index) else { return (0, Vec::new(), Vec::new()) };
        let (count, width) = (run.row_count(), run.format.width());
        let from = if from > count { 0 } else { from };
        let to = count.min(from.saturating_add(max_rows));
        let current = run.current.as_ref().map_or_else(Vec::new, |(_, row)| row.clone());
        (from, run.rows[from * width..to * width].to_vec(), current)
    }

    /// The CSV of every run's recorded samples: the same text `nhlab run` writes for
    /// the same scenario and methods once the runs are complete.
    pub fn csv(&self) -> String {
        let sets = &self.prepared.sets;
        let overlay = self.prepared.model.scenario.run.integrator_kinds().len() > 1;
        let borrowed: Vec<RunSamples> = self
            .runs
            .iter()
            .map(|r| RunSamples {
                method: r.method,
                set: r.set.checked_sub(1).map(|k| sets[k].name.as_str()),
                integrator: overlay.then(|| r.integrator.id()),
                samples: r.samples().into(),
            })
            .collect();
        let comment = self.runs.first().and_then(|r| r.sim.as_ref()).map(|s| step_comment(s.settings()));
        samples_table_for(&self.prepared.model, &borrowed, comment.unwrap_or_default(), Diagnostics::ALL).to_csv()
    }

    /// The equations of `method`.
    pub fn derive(&self, method: Method) -> Result<Derivation, String> {
        derive(&self.prepared.model, method).map_err(|e| crate::i18n::message(&e.message()))
    }

    /// Why Hamel's split (and with it the E-vector) is not available, if it is not.
    pub fn hamel_unavailable(&self) -> Option<String> {
        self.prepared.model.hamel.as_ref().err().map(|e| crate::i18n::message(&e.message()))
    }

    /// The integrators' ids when the scenario overlays several; empty otherwise.
    pub fn integrator_labels(&self) -> Vec<String> {
        let kinds = self.prepared.model.scenario.run.integrator_kinds();
        if kinds.len() > 1 {
            kinds.iter().map(|k| k.id().to_string()).collect()
        } else {
            Vec::new()
        }
    }

    /// The legend labels of `[compare]`'s parameter sets (`heavy: m = 3`), in order.
    pub fn set_labels(&self) -> Vec<String> {
        let p = &self.prepared;
        p.sets.iter().map(|s| s.label(&p.model, &p.numeric.parameters)).collect()
    }

    /// Names of the independent coordinates (the E-vector's components).
    pub fn e_components(&self) -> Vec<String> {
        let names = self.prepared.model.coordinate_names();
        match &self.prepared.model.hamel {
            Ok(h) => h.independent.iter().map(|&i| names[i].clone()).collect(),
            Err(_) => Vec::new(),
        }
    }
}

/// Why the energy the page plots may change along the true motion: the core's
/// reasons, and the inputs that do work once a slider or a key moves them.
fn energy_changes(model: &nhlab::mechanics::Model) -> Vec<String> {
    use nhlab::mechanics::EnergyChange;
    let name = |c: &str| crate::i18n::name(c);
    let mut why: Vec<String> = nhlab::mechanics::energy_changes(model)
        .iter()
        .map(|change| match change {
            EnergyChange::ForcesAct => tr("panel.energy.why.forces", &[]),
            EnergyChange::MassesVary => tr("panel.energy.why.masses", &[]),
            EnergyChange::EnergyDependsOnTime => tr("panel.energy.why.time", &[]),
            EnergyChange::ConstraintDependsOnTime(c) => tr("panel.energy.why.rheonomic", &[("name", &name(c))]),
            EnergyChange::ConstraintNotHomogeneous(c) => tr("panel.energy.why.not-homogeneous", &[("name", &name(c))]),
        })
        .collect();
    let inputs = nhlab::mechanics::inputs_that_work(model);
    if !inputs.is_empty() {
        why.push(tr("panel.energy.why.inputs", &[("names", &inputs.join(", "))]));
    }
    why
}

/// Samples one run may record in the page (about 40 MB with its plotted columns):
/// past it the run stops with a message instead of exhausting the tab's memory.
pub const MAX_SAMPLES_PER_RUN: usize = 100_000;

/// Plotted points per run at least: a step longer than `(t_end − t₀) / DISPLAY_POINTS`
/// is drawn through points of its dense output, so curves stay smooth where the
/// integrator takes long steps. They are display points only: the recorded samples
/// (and the CSV) are the integrator's steps.
pub const DISPLAY_POINTS: f64 = 400.0;

#[cfg(test)]
mod tests;
