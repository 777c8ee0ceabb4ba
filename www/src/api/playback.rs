//! What only the runner does with a [`WebLab`]: read a scenario first and say how
//! large it is ([`ReadScenario`]), tell the page what to show around the plots
//! ([`WebLab::info`]), take its inputs, and send it the rows, the current state and
//! the scene of each run ([`WebLab::update`]). The runner's module only (feature
//! `runner`): the helper steps a lab for a CSV but sends no rows, and without these
//! its module is smaller.

use wasm_bindgen::prelude::*;

use nhlab::formulations::Method;

use super::runner::WebLab;
use super::to_js;
use crate::i18n::tr;
use crate::lab::{describe_all, read, Lab};
use crate::layout::Layout;

/// A scenario read from its text, nothing derived yet. The runner reads, tells the
/// page how large the scenario is, then derives ([`WebLab::from_read`]): a load
/// stopped for its time can say which part was slow, and the text is read once.
#[wasm_bindgen]
pub struct ReadScenario {
    text: String,
    scenario: nhlab::scenario::Scenario,
    map: nhlab::scenario::SourceMap,
}

#[wasm_bindgen]
impl ReadScenario {
    /// Reads `text` (TOML, or JSON when it starts with `{`); the error lists every
    /// problem as `line L, column C: field: message`.
    #[wasm_bindgen(constructor)]
    pub fn new(text: &str) -> Result<ReadScenario, JsError> {
        let (scenario, map) = read(text).map_err(|p| JsError::new(&describe_all(&p)))?;
        Ok(ReadScenario { text: text.to_string(), scenario, map })
    }

    /// How large it is: `{title, coordinates, constraints, contacts, definitions,
    /// particles, shapes, points, warnings, characters}` (`shapes` and `points` of its
    /// `[scene]`).
    pub fn size(&self) -> Result<JsValue, JsError> {
        size_of(&self.text, &self.scenario, &self.map)
    }
}

#[derive(serde::Serialize)]
struct RunInfo {
    method: &'static str,
    /// Its parameter set's legend label (`heavy: m = 3`); `None`: the scenario's values.
    set: Option<String>,
    /// Its integrator's id when the scenario overlays several.
    integrator: Option<&'static str>,
    colour: String,
    /// The mark drawn along the method's lines (`nhlab_plots::MARKS`).
    mark: char,
    error: Option<String>,
    /// Whether the stop is information (Hamel's split singular, the sample limit).
    ended: bool,
    samples: usize,
    t: f64,
    /// The coordinates at the clock (what the page's tests and an embedder read).
    q: Vec<f64>,
    e: Option<Vec<f64>>,
    /// The first row of [`WebLab::take_rows`] (0: the page starts the run afresh).
    from: usize,
    /// The scene's elements this run could not draw at the clock.
    hidden: Vec<String>,
    /// Where its contacts lifted off or slipped, in words, up to the clock.
    validity: Vec<String>,
}

#[derive(serde::Serialize)]
struct Update {
    now: f64,
    finished: bool,
    runs: Vec<RunInfo>,
}

#[derive(serde::Serialize)]
struct Parameter {
    name: String,
    value: f64,
    /// The slider's range and step as the scenario gives them (the page picks the
    /// rest once per scenario), and the unit.
    min: Option<f64>,
    max: Option<f64>,
    step: Option<f64>,
    unit: Option<String>,
}

#[derive(serde::Serialize)]
struct Coordinate {
    name: String,
    q: f64,
    v: f64,
    v_given: bool,
    /// `[units]`: of the coordinate, and of its velocity (`m/s`).
    unit: Option<String>,
    velocity_unit: Option<String>,
}

/// One `[inputs]` entry as the page shows it.
#[derive(serde::Serialize)]
struct InputInfo {
    name: String,
    label: Option<String>,
    value: f64,
    min: Option<f64>,
    max: Option<f64>,
    step: Option<f64>,
    unit: Option<String>,
    /// Its place among the parameters, for `set_input`: `None` when a signal
    /// drives it.
    slot: Option<usize>,
    /// The signal as written (an expression, or `table of N points`).
    signal: Option<String>,
}

#[derive(serde::Serialize)]
struct Info<'a> {
    title: &'a str,
    description: &'a str,
    source: &'a str,
    /// One line under the title: what is on the screen and what to try.
    hint: &'a str,
    parameters: Vec<Parameter>,
    /// `[inputs]`: live controls (`slot` set) or driven by their signal.
    inputs: Vec<InputInfo>,
    coordinates: Vec<Coordinate>,
    /// The names of `[definitions]` (the editor marks and completes them).
    definitions: Vec<String>,
    t0: f64,
    t_end: f64,
    methods: Vec<String>,
    integrator: String,
    /// Every integrator the runs use (several: an overlay).
    integrators: Vec<&'static str>,
    rtol: f64,
    atol: f64,
    dt: f64,
    stabilization: String,
    layout: &'a Layout,
    hamel_unavailable: Option<String>,
    /// Hamel's split and how it was chosen (`dependent y; chosen …`), when there is one.
    hamel_split: Option<String>,
    warnings: Vec<String>,
    /// How Lagrange's right-hand side runs ([`WebLab::rhs_code`]).
    rhs_code: String,
}

#[wasm_bindgen]
impl WebLab {
    /// As [`WebLab::new`], for a scenario already read. `starting` (a function, or
    /// undefined) is called with the runs' sizes once the model is derived and
    /// compiled, before its runs start: `{runs, methods, sets, integrators,
    /// contacts}` (the runner tells the page which part a slow load was in).
    pub fn from_read(read: ReadScenario, starting: Option<js_sys::Function>) -> Result<WebLab, JsError> {
        let ReadScenario { scenario, map, .. } = read;
        let mut tell = |prepared: &nhlab::prepare::Prepared| {
            if let (Some(f), Ok(size)) = (starting.as_ref(), runs_size(prepared)) {
                // What the page's listener does is not this load's failure.
                let _ = f.call1(&JsValue::NULL, &size);
            }
        };
        WebLab::from_lab(Lab::from_read_telling(&scenario, map, &mut tell))
    }

    /// What the page shows around the plots: title, parameters, state, settings,
    /// the plots' layout, warnings, the share payload.
    pub fn info(&self) -> Result<JsValue, JsError> {
        let s = self.lab.scenario();
        let p = self.lab.prepared();
        let run = &s.run;
        let settings = nhlab::simulation::Settings::from_scenario(run, Method::Lagrange);
        let info = Info {
            title: &s.title,
            description: s.description.as_deref().unwrap_or(""),
            source: s.source.as_deref().unwrap_or(""),
            hint: s.hint.as_deref().unwrap_or(""),
            parameters: {
                let mut list: Vec<Parameter> = p
                    .model
                    .parameters
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| !p.model.inputs.contains(k))
                    .map(|(_, x)| {
                        let range = s.parameters.range(&x.name).cloned().unwrap_or_default();
                        Parameter {
                            name: x.name.clone(),
                            value: x.value,
                            min: range.min,
                            max: range.max,
                            step: range.step,
                            unit: range.unit.as_deref().map(nhlab::view::pretty_unit),
                        }
                    })
                    .collect();
                // The author's order.
                let order = self.lab.parameter_order();
                list.sort_by_key(|x| order.iter().position(|n| *n == x.name));
                list
            },
            inputs: s
                .inputs
                .iter()
                .map(|(name, input)| InputInfo {
                    name: name.clone(),
                    label: input.label.clone(),
                    value: input.value,
                    min: input.min,
                    max: input.max,
                    step: input.step,
                    unit: input.unit.as_deref().map(nhlab::view::pretty_unit),
                    slot: p.model.inputs.iter().copied().find(|&k| p.model.parameters[k].name == *name),
                    signal: input.signal.as_ref().map(|signal| match signal {
                        nhlab::scenario::Signal::Expression(text) => text.clone(),
                        nhlab::scenario::Signal::Table(points) => {
                            crate::i18n::tr("inputs.table", &[("count", &points.len())])
                        }
                    }),
                })
                .collect(),
            coordinates: s
                .coordinates
                .iter()
                .enumerate()
                .map(|(i, name)| Coordinate {
                    name: name.clone(),
                    q: p.initial.q[i],
                    v: p.initial.v[i],
                    v_given: s.initial.v.contains_key(name),
                    unit: s.units.get(name).map(|u| nhlab::view::pretty_unit(u)),
                    velocity_unit: nhlab::view::velocity_unit(&s.units, name).map(|u| nhlab::view::pretty_unit(&u)),
                })
                .collect(),
            definitions: s.definitions.keys().cloned().collect(),
            t0: self.lab.t0,
            t_end: self.lab.t_end,
            methods: run.method_ids(),
            integrator: settings.integrator.id().to_string(),
            integrators: run.integrator_kinds().iter().map(|k| k.id()).collect(),
            rtol: settings.rtol,
            atol: settings.atol,
            dt: settings.dt,
            stabilization: run.stabilization.clone().unwrap_or_else(|| "none".into()),
            layout: &self.layout,
            hamel_unavailable: self.lab.hamel_unavailable(),
            hamel_split: p.model.hamel.as_ref().ok().map(|split| {
                let names = p.model.coordinate_names();
                let dependent = split.dependent.iter().map(|&i| names[i].as_str()).collect::<Vec<_>>().join(", ");
                let given = s.hamel.as_ref().is_some_and(|h| !h.dependent.is_empty());
                let how = match (&p.model.hamel_choice, given) {
                    (_, true) => tr("split.given", &[]),
                    (Some(choice), false) => crate::i18n::message(choice),
                    (None, false) => tr("split.by-lab", &[]),
                };
                let basis = p.model.split_basis_note(split.combined).map(|b| crate::i18n::message(&b));
                let basis = basis.map(|b| format!("{}{b}", tr("clause.separator", &[]))).unwrap_or_default();
                tr("split.summary", &[("dependent", &dependent), ("basis", &basis), ("how", &how)])
            }),
            warnings: self.lab.warnings.iter().map(|w| w.describe()).collect(),
            rhs_code: self.rhs_code(),
        };
        to_js(&info)
    }

    /// Sets input `slot` (its `slot` in `info().inputs`) to `value` from the runs'
    /// next step on; false when that is not an input taken as an argument, or the
    /// value is not finite.
    pub fn set_input(&mut self, slot: u32, value: f64) -> bool {
        self.lab.set_input(slot as usize, value)
    }

    /// What the system is doing at the clock, in words (see `Lab::describe_motion`).
    pub fn describe_motion(&self) -> String {
        self.lab.describe_motion()
    }

    /// Lets the runs go on to `t_end` (see [`Lab::extend`]); returns their end.
    pub fn extend(&mut self, t_end: f64) -> f64 {
        self.layout.t_end = self.lab.extend(t_end);
        self.layout.t_end
    }

    /// Back to the initial state (and the scenario's `t_end`); the next update sends
    /// every run from its start.
    pub fn restart(&mut self) {
        self.lab.restart();
        self.layout.t_end = self.lab.t_end;
        self.sent.iter_mut().for_each(|s| *s = 0);
    }

    /// The next update sends everything again (a page that lost its display).
    pub fn resend(&mut self) {
        self.sent.iter_mut().for_each(|s| *s = 0);
    }

    /// What the page has not seen yet: `{now, finished, runs: [{method, colour,
    /// error, samples, t, e, from, hidden}]}` (`e`: the E-vector at the clock, when
    /// defined; `hidden`: scene elements not drawn there), with each run's new rows
    /// (at most `max_rows`), its row and its scene at the clock kept for
    /// [`WebLab::take_rows`], [`WebLab::take_current`] and [`WebLab::take_picture`].
    pub fn update(&mut self, max_rows: u32) -> Result<JsValue, JsError> {
        let mut runs = Vec::new();
        self.pending.clear();
        let set_labels = &self.layout.set_labels;
        for i in 0..self.lab.runs().len() {
            let (picture, hidden) = self.lab.picture(i);
            let r = &self.lab.runs()[i];
            let (from, rows, current) = self.lab.rows_since(i, self.sent[i], max_rows as usize);
            self.sent[i] = from + rows.len() / self.layout.row_width();
            self.pending.push((rows, current, picture));
            runs.push(RunInfo {
                method: r.method.id(),
                set: r.set.checked_sub(1).and_then(|k| set_labels.get(k).cloned()),
                integrator: (!self.layout.integrator_labels.is_empty()).then(|| r.integrator.id()),
                colour: nhlab_plots::css_colour(nhlab_plots::Series {
                    method: r.method,
                    set: r.set,
                    integrator: r.integrator_index,
                }),
                mark: nhlab_plots::mark(r.method),
                error: r.error.clone(),
                ended: r.ended,
                samples: r.samples().len(),
                t: r.current.as_ref().map_or(self.lab.t0, |c| c.0.t),
                q: r.current.as_ref().map_or_else(Vec::new, |c| c.0.q.clone()),
                e: r.current.as_ref().and_then(|c| c.0.e_vector.clone()),
                from,
                hidden,
                validity: r.validity_notes(self.lab.now()),
            });
        }
        to_js(&Update { now: self.lab.now(), finished: self.lab.finished(), runs })
    }

    /// Run `index`'s new rows of the last update, flat (a `Float64Array`).
    pub fn take_rows(&mut self, index: usize) -> Vec<f64> {
        self.pending.get_mut(index).map(|p| std::mem::take(&mut p.0)).unwrap_or_default()
    }

    /// Run `index`'s scene at the clock of the last update, flat (empty without one).
    pub fn take_picture(&mut self, index: usize) -> Vec<f64> {
        self.pending.get_mut(index).map(|p| std::mem::take(&mut p.2)).unwrap_or_default()
    }

    /// Run `index`'s row at the clock of the last update (empty before any sample).
    pub fn take_current(&mut self, index: usize) -> Vec<f64> {
        self.pending.get_mut(index).map(|p| std::mem::take(&mut p.1)).unwrap_or_default()
    }
}

/// What [`ReadScenario::size`] says.
/// How many runs a prepared scenario starts, and of what: `{runs, methods, sets,
/// integrators, contacts}` (`sets` counts the scenario's own values).
fn runs_size(prepared: &nhlab::prepare::Prepared) -> Result<JsValue, JsError> {
    #[derive(serde::Serialize)]
    struct Runs {
        runs: usize,
        methods: usize,
        sets: usize,
        integrators: usize,
        contacts: usize,
    }
    let run = &prepared.model.scenario.run;
    let (methods, integrators) = (run.chosen_methods(), run.integrator_kinds());
    let runs = nhlab::scenario::method_integrator_runs(&methods, &integrators).len();
    let sets = 1 + prepared.sets.len();
    to_js(&Runs {
        runs: runs * sets,
        methods: methods.len(),
        sets,
        integrators: integrators.len(),
        contacts: prepared.model.contacts.as_ref().map_or(0, |c| c.contacts.len()),
    })
}

fn size_of(text: &str, s: &nhlab::scenario::Scenario, map: &nhlab::scenario::SourceMap) -> Result<JsValue, JsError> {
    #[derive(serde::Serialize)]
    struct Size<'a> {
        title: &'a str,
        coordinates: usize,
        constraints: usize,
        contacts: usize,
        definitions: usize,
        particles: usize,
        shapes: usize,
        points: usize,
        warnings: usize,
        characters: usize,
    }
    let shapes = s.scene.as_ref().map_or(&[][..], |scene| &scene.shapes[..]);
    to_js(&Size {
        title: &s.title,
        coordinates: s.coordinates.len(),
        constraints: s.constraint_count(),
        contacts: s.rolling.len(),
        definitions: s.definitions.len(),
        particles: s.particles.len(),
        shapes: shapes.len(),
        points: shapes.iter().map(|shape| shape.points.len()).sum(),
        warnings: map.warnings.len(),
        characters: text.chars().count(),
    })
}
