//! What runs in the workers: [`WebLab`], the runner's scenario and its runs, which
//! sends the page the rows it records, and the helper's derivations, stability
//! sweeps and exports.

use wasm_bindgen::prelude::*;

use nhlab::formulations::Method;
use nhlab::scenario::encode_share_text;

use super::{method, text::size_of, to_js};
use crate::edit;
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

    /// How large it is: see [`super::scenario_size`].
    pub fn size(&self) -> Result<JsValue, JsError> {
        size_of(&self.text, &self.scenario, &self.map)
    }
}

/// A lab: a scenario and its runs, stepped in the worker (`www/worker.js`), which
/// sends the page what it records ([`WebLab::update`]).
#[wasm_bindgen]
pub struct WebLab {
    lab: Lab,
    layout: Layout,
    /// The parameters' names in the order the text writes them.
    parameter_order: Vec<String>,
    /// Rows of each run already sent to the page.
    sent: Vec<usize>,
    /// Each run's rows and current row of the last [`WebLab::update`], until taken.
    pending: Vec<(Vec<f64>, Vec<f64>, Vec<f64>)>,
    /// The scenario's text as loaded: what a share link carries.
    text: String,
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
    /// The share payload (`#s=`), or why the scenario cannot be shared as a link.
    share: Result<String, String>,
    /// How Lagrange's right-hand side runs ([`WebLab::rhs_code`]).
    rhs_code: String,
}

#[derive(serde::Serialize)]
struct EquationOut {
    label: String,
    mathml: String,
    latex: String,
    /// A matrix's size (1×1 for an equation): the page typesets only small ones.
    rows: usize,
    cols: usize,
}

#[derive(serde::Serialize)]
struct DerivationOut {
    form: String,
    matrices: Vec<EquationOut>,
    equations: Vec<EquationOut>,
}

#[wasm_bindgen]
impl WebLab {
    /// Loads a scenario (TOML, or JSON when it starts with `{`) and starts its runs.
    /// The error lists every problem as `line L, column C: field: message`.
    #[wasm_bindgen(constructor)]
    pub fn new(text: &str) -> Result<WebLab, JsError> {
        WebLab::from_lab(text, Lab::new(text))
    }

    /// As [`WebLab::new`], for a scenario already read.
    pub fn from_read(read: ReadScenario) -> Result<WebLab, JsError> {
        let ReadScenario { text, scenario, map } = read;
        WebLab::from_lab(&text, Lab::from_read(&scenario, map))
    }

    /// A lab with every formulation derived (the helper worker's, for the equations
    /// panel, which offers every method).
    pub fn with_everything(text: &str) -> Result<WebLab, JsError> {
        WebLab::from_lab(text, Lab::with_everything(text))
    }

    fn from_lab(text: &str, lab: Result<Lab, Vec<crate::lab::TextProblem>>) -> Result<WebLab, JsError> {
        let lab = lab.map_err(|p| JsError::new(&describe_all(&p)))?;
        let layout = lab.layout();
        let parameter_order = edit::key_order(text, "parameters");
        let runs = lab.runs().len();
        Ok(WebLab { lab, layout, parameter_order, sent: vec![0; runs], pending: Vec::new(), text: text.to_string() })
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
                // The author's order (JSON scenarios and unknown names keep the sorted one).
                list.sort_by_key(|x| self.parameter_order.iter().position(|n| *n == x.name).unwrap_or(usize::MAX));
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
                        nhlab::scenario::Signal::Table(points) => format!("a table of {} points", points.len()),
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
                let basis = p.model.split_basis_note(split.combined).map(|b| format!("; {b}")).unwrap_or_default();
                tr("split.summary", &[("dependent", &dependent), ("basis", &basis), ("how", &how)])
            }),
            warnings: self.lab.warnings.iter().map(|w| w.describe()).collect(),
            share: encode_share_text(&self.text),
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

    /// Back to the initial state; the next update sends every run from its start.
    pub fn restart(&mut self) {
        self.lab.restart();
        self.sent.iter_mut().for_each(|s| *s = 0);
    }

    /// The next update sends everything again (a page that lost its display).
    pub fn resend(&mut self) {
        self.sent.iter_mut().for_each(|s| *s = 0);
    }

    /// Moves the clock to `t` and steps every run past it (at most `max_steps` steps
    /// each); returns the number of steps taken.
    pub fn advance(&mut self, t: f64, max_steps: u32) -> Result<u32, JsError> {
        if !t.is_finite() {
            return Err(JsError::new("the clock must be a finite time"));
        }
        Ok(self.lab.advance(t, max_steps as usize) as u32)
    }

    /// The display clock.
    pub fn now(&self) -> f64 {
        self.lab.now()
    }

    /// Whether every run has reached `t_end` or stopped.
    pub fn finished(&self) -> bool {
        self.lab.finished()
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

    /// The samples of every run as CSV, the same text as `nhlab run` writes.
    pub fn csv(&self) -> String {
        self.lab.csv()
    }

    /// The equations of `method`: `{form, matrices, equations}`, each entry with
    /// `label`, `mathml` and `latex`.
    pub fn derive(&self, method_id: &str) -> Result<JsValue, JsError> {
        let d = self.lab.derive(method(method_id)?).map_err(|e| JsError::new(&e))?;
        let out = DerivationOut {
            form: crate::i18n::message(&nhlab::message::Message::new(d.form_id, d.form.into())),
            matrices: d
                .matrices
                .iter()
                .map(|m| EquationOut {
                    label: m.name.to_string(),
                    mathml: d.matrix_mathml(m),
                    latex: d.matrix_latex(m),
                    rows: m.rows,
                    cols: m.cols,
                })
                .collect(),
            equations: d
                .equations
                .iter()
                .map(|e| EquationOut {
                    label: e.label.clone(),
                    mathml: d.mathml(e),
                    latex: d.latex(e),
                    rows: 1,
                    cols: 1,
                })
                .collect(),
        };
        to_js(&out)
    }

    /// How Lagrange's right-hand side runs: `"compiled"` (a WebAssembly module made
    /// for this scenario), `"interpreted"`, or `"interpreted: <why>"` when
    /// compiling failed (the runs are the same to rounding either way).
    pub fn rhs_code(&self) -> String {
        match self.lab.compiled() {
            Ok(true) => "compiled".into(),
            Ok(false) => "interpreted".into(),
            Err(why) => format!("interpreted: {why}"),
        }
    }

    /// Interprets Lagrange's right-hand side from now on and restarts the runs (for
    /// the benchmark's comparison).
    pub fn interpret_rhs(&mut self) {
        self.lab.interpret();
        self.sent.iter_mut().for_each(|s| *s = 0);
    }

    /// Benchmark: `evaluations` right-hand sides of `method` at the initial state
    /// (the page times the call); returns a checksum so the work cannot be skipped.
    pub fn bench_rhs(&self, method_id: &str, evaluations: u32) -> Result<f64, JsError> {
        let m = method(method_id)?;
        self.lab.prepared().rhs_loop(m, evaluations as usize).map_err(|e| JsError::new(&e.to_string()))
    }
}

/// The sweep of the scenario's `[stability]` table (for the stability panel; the
/// helper worker computes it), or `null` when it declares none.
#[wasm_bindgen]
pub fn stability(text: &str) -> Result<JsValue, JsError> {
    match crate::stability::sweep_of(text) {
        Ok(Some(data)) => to_js(&data),
        Ok(None) => Ok(JsValue::NULL),
        Err(e) => Err(JsError::new(&e)),
    }
}

/// `nhlab export`'s file for the text (`{file, text}`), in the helper worker: what
/// the page's "Export code" menu downloads.
#[wasm_bindgen]
pub fn export_code(text: &str, language: &str, name: &str) -> Result<JsValue, JsError> {
    #[derive(serde::Serialize)]
    struct Exported {
        file: String,
        text: String,
    }
    let (file, text) = crate::lab::export_code(text, language, name).map_err(|e| JsError::new(&e))?;
    to_js(&Exported { file, text })
}

/// The page's long run ([`crate::long_run::LongRun`]), in the helper worker: the
/// worker steps it in slices and posts what it has between them, so that the page
/// shows progress and can stop it (by ending the worker).
#[wasm_bindgen]
pub struct WebLongRun {
    run: crate::long_run::LongRun,
}

#[derive(serde::Serialize)]
struct LongRunLine {
    label: String,
    colour: String,
    method: &'static str,
    set: usize,
    integrator: usize,
    error: Option<String>,
    /// `[t, |ΔE|]` pairs.
    points: Vec<[f64; 2]>,
}

#[derive(serde::Serialize)]
struct LongRunData {
    t0: f64,
    t_end: f64,
    progress: f64,
    finished: bool,
    runs: Vec<LongRunLine>,
}

#[wasm_bindgen]
impl WebLongRun {
    /// The long run of scenario `text` to `t_end`; a message when it cannot start.
    #[wasm_bindgen(constructor)]
    pub fn new(text: &str, t_end: f64) -> Result<WebLongRun, JsError> {
        crate::long_run::LongRun::new(text, t_end).map(|run| WebLongRun { run }).map_err(|e| JsError::new(&e))
    }

    /// At most `max_steps` steps over all runs; the steps taken (0: done).
    pub fn advance(&mut self, max_steps: u32) -> u32 {
        self.run.advance(max_steps as usize) as u32
    }

    /// Every run's points so far, its colour and label, and the progress.
    pub fn data(&self) -> Result<JsValue, JsError> {
        let runs = self
            .run
            .runs
            .iter()
            .map(|r| LongRunLine {
                label: r.label.clone(),
                colour: nhlab_plots::css_colour(r.series),
                method: r.series.method.id(),
                set: r.series.set,
                integrator: r.series.integrator,
                error: r.error.clone(),
                points: r.points.iter().map(|&(t, e)| [t, e]).collect(),
            })
            .collect();
        to_js(&LongRunData {
            t0: self.run.t0(),
            t_end: self.run.t_end,
            progress: self.run.progress(),
            finished: self.run.finished(),
            runs,
        })
    }
}
