//! The wasm boundary: a small `#[wasm_bindgen]` surface over [`Lab`]. Every export
//! returns a `Result` whose error is a readable message (with line and column for
//! scenario problems); nothing here unwraps, and the panic hook (lib.rs) turns any
//! bug into a console message instead of a silent trap.

use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use nhlab::formulations::Method;
use nhlab::scenario::{encode_share_text, load, share_text};

use crate::display::{Display, Layout};
use crate::edit::{self, Edit};
use crate::gallery;
use crate::lab::{describe_all, Lab};
use crate::panels;

fn to_js<T: serde::Serialize>(value: &T) -> Result<JsValue, JsError> {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| JsError::new(&e.to_string()))
}

fn method(id: &str) -> Result<Method, JsError> {
    Method::from_id(id).ok_or_else(|| JsError::new(&format!("unknown method `{id}`")))
}

/// The gallery's cards: `[{name, title, description, source}]`.
#[wasm_bindgen]
pub fn gallery_entries() -> Result<JsValue, JsError> {
    to_js(&gallery::entries())
}

/// The TOML text of gallery item `name`.
#[wasm_bindgen]
pub fn gallery_text(name: &str) -> Result<String, JsError> {
    gallery::text(name).map(str::to_string).ok_or_else(|| JsError::new(&format!("no gallery item `{name}`")))
}

/// The page's Help as HTML, rendered at build time from the project's own documents:
/// `reference` (docs/reference.md, the format and the command line),
/// `first-system` (docs/first-system.md, the guided example) or `lab`
/// (docs/lab.md, the page and the command line feature by feature).
#[wasm_bindgen]
pub fn help_html(name: &str) -> Result<String, JsError> {
    match name {
        "reference" => Ok(include_str!(concat!(env!("OUT_DIR"), "/reference.html")).into()),
        "first-system" => Ok(include_str!(concat!(env!("OUT_DIR"), "/first-system.html")).into()),
        "lab" => Ok(include_str!(concat!(env!("OUT_DIR"), "/lab.html")).into()),
        _ => Err(JsError::new(&format!("no help page `{name}`"))),
    }
}

/// The gallery item the page opens on.
#[wasm_bindgen]
pub fn gallery_default() -> String {
    gallery::DEFAULT.to_string()
}

/// The scenario of a share payload (`#s=<payload>`) as text for the editor: the
/// author's text as written, or (a link of the first version) the scenario as TOML.
#[wasm_bindgen]
pub fn share_to_toml(payload: &str) -> Result<String, JsError> {
    share_text(payload).map_err(|p| JsError::new(&format!("this share link is not valid: {p}")))
}

/// The size of the scenario in `text` as read, before anything is derived: `{title,
/// coordinates, constraints, definitions, particles, characters}`, or `null` when it
/// cannot be read. The runner posts it before deriving, so that a load stopped for
/// taking too long can say how large the model was.
#[wasm_bindgen]
pub fn scenario_size(text: &str) -> Result<JsValue, JsError> {
    #[derive(serde::Serialize)]
    struct Size<'a> {
        title: &'a str,
        coordinates: usize,
        constraints: usize,
        definitions: usize,
        particles: usize,
        characters: usize,
    }
    let format = nhlab::scenario::format_of(text);
    let Ok((s, _)) = load(text, format) else { return Ok(JsValue::NULL) };
    to_js(&Size {
        title: &s.title,
        coordinates: s.coordinates.len(),
        constraints: s.constraint_count(),
        definitions: s.definitions.len(),
        particles: s.particles.len(),
        characters: text.chars().count(),
    })
}

/// Sets a number at a dotted path of the TOML text (`parameters.m`), keeping the rest.
#[wasm_bindgen]
pub fn edit_number(text: &str, path: &str, value: f64) -> Result<String, JsError> {
    edit::apply(text, path, Edit::Number(value)).map_err(|e| JsError::new(&e))
}

/// Sets a string at a dotted path (`run.integrator`).
#[wasm_bindgen]
pub fn edit_text(text: &str, path: &str, value: &str) -> Result<String, JsError> {
    edit::apply(text, path, Edit::Text(value)).map_err(|e| JsError::new(&e))
}

/// Sets a list of strings at a dotted path (`run.methods`).
#[wasm_bindgen]
pub fn edit_list(text: &str, path: &str, values: Vec<String>) -> Result<String, JsError> {
    edit::apply(text, path, Edit::List(&values)).map_err(|e| JsError::new(&e))
}

/// Adds a parameter set to `[compare]` with the text's parameter values now:
/// `{text, name}`.
#[wasm_bindgen]
pub fn keep_parameters(text: &str) -> Result<JsValue, JsError> {
    let (text, name) = edit::keep_parameters(text).map_err(|e| JsError::new(&e))?;
    #[derive(serde::Serialize)]
    struct Kept {
        text: String,
        name: String,
    }
    to_js(&Kept { text, name })
}

/// Removes the key at a dotted path (`initial.v.x`: solved from the constraints).
#[wasm_bindgen]
pub fn edit_remove(text: &str, path: &str) -> Result<String, JsError> {
    edit::apply(text, path, Edit::Remove).map_err(|e| JsError::new(&e))
}

/// Every method: `[{id, colour, mark}]`, in the order of `Method::ALL`.
#[wasm_bindgen]
pub fn methods() -> Result<JsValue, JsError> {
    #[derive(serde::Serialize)]
    struct M {
        id: &'static str,
        colour: String,
        mark: char,
    }
    let all =
        Method::ALL.iter().map(|&m| M { id: m.id(), colour: nhlab_plots::css_colour(m), mark: nhlab_plots::mark(m) });
    to_js(&all.collect::<Vec<_>>())
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

/// The page's copy of the plotted data ([`Display`]), drawn on its canvases.
#[wasm_bindgen]
pub struct WebDisplay {
    display: Display,
    /// Counts the frames drawn while playing: which off-screen panel is refreshed.
    frames: usize,
}

#[derive(serde::Serialize)]
struct RunInfo {
    method: &'static str,
    /// Its parameter set's legend label (`heavy: m = 3`); `None`: the scenario's values.
    set: Option<String>,
    colour: String,
    /// The mark drawn along the method's lines (`nhlab_plots::MARKS`).
    mark: char,
    error: Option<String>,
    /// Whether the stop is information (Hamel's split singular, the sample limit).
    ended: bool,
    samples: usize,
    t: f64,
    e: Option<Vec<f64>>,
    /// The first row of [`WebLab::take_rows`] (0: the page starts the run afresh).
    from: usize,
    /// The scene's elements this run could not draw at the clock.
    hidden: Vec<String>,
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

#[derive(serde::Serialize)]
struct Info<'a> {
    title: &'a str,
    description: &'a str,
    source: &'a str,
    parameters: Vec<Parameter>,
    coordinates: Vec<Coordinate>,
    /// The names of `[definitions]` (the editor marks and completes them).
    definitions: Vec<String>,
    t0: f64,
    t_end: f64,
    methods: Vec<String>,
    integrator: String,
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
    form: &'static str,
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

    /// A lab with every formulation derived (the helper worker's, for the equations
    /// panel, which offers every method).
    pub fn with_everything(text: &str) -> Result<WebLab, JsError> {
        WebLab::from_lab(text, Lab::with_everything(text))
    }

    fn from_lab(text: &str, lab: Result<Lab, Vec<crate::lab::TextProblem>>) -> Result<WebLab, JsError> {
        let lab = lab.map_err(|p| JsError::new(&describe_all(&p)))?;
        let layout = Layout::of(&lab);
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
            parameters: {
                let mut list: Vec<Parameter> = p
                    .model
                    .parameters
                    .iter()
                    .map(|x| {
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
                let how = if given {
                    "from [hamel] dependent"
                } else {
                    p.model.hamel_choice.as_deref().unwrap_or("chosen by the lab")
                };
                let basis = p.model.split_basis_note(split.combined).map(|b| format!("; {b}")).unwrap_or_default();
                format!("dependent {dependent}{basis} ({how})")
            }),
            warnings: self.lab.warnings.iter().map(|w| w.describe()).collect(),
            share: encode_share_text(&self.text),
            rhs_code: self.rhs_code(),
        };
        to_js(&info)
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
                colour: nhlab_plots::css_colour(nhlab_plots::Series { method: r.method, set: r.set }),
                mark: nhlab_plots::mark(r.method),
                error: r.error.clone(),
                ended: r.ended,
                samples: r.samples().len(),
                t: r.current.as_ref().map_or(self.lab.t0, |c| c.0.t),
                e: r.current.as_ref().and_then(|c| c.0.e_vector.clone()),
                from,
                hidden,
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
            form: d.form,
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

#[wasm_bindgen]
impl WebDisplay {
    /// An empty display for the `layout` of a worker's `info()`.
    #[wasm_bindgen(constructor)]
    pub fn new(layout: JsValue) -> Result<WebDisplay, JsError> {
        let layout: Layout = serde_wasm_bindgen::from_value(layout).map_err(|e| JsError::new(&e.to_string()))?;
        Ok(WebDisplay { display: Display::new(layout).map_err(|e| JsError::new(&e))?, frames: 0 })
    }

    /// Puts rows the worker sent for run `index` in place (from row `from` on), and
    /// its row at the clock.
    pub fn apply(&mut self, index: usize, from: usize, rows: &[f64], current: &[f64]) -> Result<(), JsError> {
        self.display.apply(index, from, rows, current).map_err(|e| JsError::new(&e))
    }

    /// Puts run `index`'s scene at the clock in place (flat, from the worker), with
    /// the labels of the elements it could not draw.
    pub fn apply_picture(&mut self, index: usize, flat: &[f64], hidden: Vec<String>) -> Result<(), JsError> {
        self.display.apply_picture(index, flat, hidden).map_err(|e| JsError::new(&e))
    }

    /// A drag of `(dx, dy)` CSS pixels on the scene: turns the view in space, moves
    /// it in the plane.
    pub fn scene_drag(&mut self, dx: f64, dy: f64, dpr: f64) {
        let dpr = if dpr.is_finite() { dpr.clamp(1.0, 4.0) } else { 1.0 };
        if dx.is_finite() && dy.is_finite() {
            self.display.scene_view.drag(dx * dpr, dy * dpr);
        }
    }

    /// Zooms the scene by `factor` about CSS pixel `(x, y)`.
    pub fn scene_zoom(&mut self, factor: f64, x: f64, y: f64, dpr: f64) {
        let dpr = if dpr.is_finite() { dpr.clamp(1.0, 4.0) } else { 1.0 };
        if x.is_finite() && y.is_finite() {
            self.display.scene_view.zoom(factor, x * dpr, y * dpr);
        }
    }

    /// Fits the scene again and follows the motion.
    pub fn scene_reset(&mut self) {
        self.display.scene_view.reset();
    }

    /// Marks run `index` as failed (it could not run or stopped on an error) or not:
    /// a failed run is drawn as a ghost behind the runs that go on.
    pub fn set_failed(&mut self, index: usize, failed: bool) {
        if let Some(run) = self.display.runs.get_mut(index) {
            run.failed = failed;
        }
    }

    /// The scene's text alternative: what is drawn, and where, for each method.
    pub fn scene_caption(&self) -> String {
        let labels = self.display.layout.scene.as_ref().map_or(&[][..], |s| s.labels.as_slice());
        crate::scene::caption(labels, &self.display.shown(), self.display.now)
    }

    /// Sets the display clock (the time the worker's runs reached).
    pub fn set_now(&mut self, t: f64) {
        if t.is_finite() {
            self.display.now = t.clamp(self.display.layout.t0, self.display.layout.t_end);
        }
    }

    /// The display clock.
    pub fn now(&self) -> f64 {
        self.display.now
    }

    /// Draws the panels on their canvases (`id` from `info().panels`), with the
    /// backing store sized to the canvas' CSS size times `dpr`. Missing canvases are
    /// skipped.
    ///
    /// While `playing`, the scene is drawn every frame, the plots in view every other
    /// frame (half of them in each), and a canvas marked `data-offscreen` (scrolled
    /// out of view) only in its turn, one such panel per frame: plots cost many times
    /// what the scene does, and drawn all together a model with many panels would
    /// miss frames. A canvas not yet sized for its box is drawn at once. This way a
    /// frame's work is about half of what can be seen, plots move at 30 fps, and a
    /// panel scrolled into view, or a screenshot of the whole page, is never more
    /// than a few frames old. Returns the ids of the panels drawn with values that
    /// are not finite (left as gaps).
    pub fn draw(&mut self, dpr: f64, playing: bool) -> Result<Vec<String>, JsError> {
        let mut gaps = Vec::new();
        let document = web_sys::window().and_then(|w| w.document()).ok_or_else(|| JsError::new("no document"))?;
        let dpr = if dpr.is_finite() { dpr.clamp(1.0, 4.0) } else { 1.0 };
        let panels = self.display.layout.panels.len().max(1);
        let turn = self.frames % panels;
        self.frames = if playing { self.frames.wrapping_add(1) } else { 0 };
        for (k, info) in self.display.layout.panels.iter().enumerate() {
            let Some(canvas) = document.get_element_by_id(&info.id) else { continue };
            let canvas: web_sys::HtmlCanvasElement =
                canvas.dyn_into().map_err(|_| JsError::new(&format!("#{} is not a canvas", info.id)))?;
            let (css_w, css_h) = css_size(&canvas);
            let (w, h) = ((css_w * dpr) as u32, (css_h * dpr) as u32);
            if w < 40 || h < 40 {
                continue; // hidden or collapsed
            }
            // A canvas not yet sized for its box (new, or resized) is drawn now.
            let resized = canvas.width() != w || canvas.height() != h;
            if playing && !resized && info.kind != panels::Kind::Scene {
                let due = if canvas.has_attribute("data-offscreen") { k == turn } else { k % 2 == turn % 2 };
                if !due {
                    continue;
                }
            }
            if resized {
                canvas.set_width(w);
                canvas.set_height(h);
            }
            let backend = CanvasBackend::with_canvas_object(canvas)
                .ok_or_else(|| JsError::new(&format!("#{}: no 2D context", info.id)))?;
            let area = backend.into_drawing_area();
            area.fill(&WHITE).map_err(|e| JsError::new(&e.to_string()))?;
            if info.kind == panels::Kind::Scene {
                let mut view = self.display.scene_view.clone();
                crate::scene::draw(&area, &mut view, &self.display.shown(), dpr)
                    .map_err(|e| JsError::new(&format!("{}: {e}", info.id)))?;
                self.display.scene_view = view;
                area.present().map_err(|e| JsError::new(&e.to_string()))?;
                continue;
            }
            let (lines, markers, scale) = panels::content(&self.display, info.kind, w as usize);
            if panels::has_gaps(&lines) {
                gaps.push(info.id.clone());
            }
            let spec = panels::spec(&self.display.layout, info, scale, dpr);
            nhlab_plots::draw_panel(&area, &spec, &lines, &markers)
                .map_err(|e| JsError::new(&format!("{}: {e}", info.id)))?;
            area.present().map_err(|e| JsError::new(&e.to_string()))?;
        }
        Ok(gaps)
    }
}

#[wasm_bindgen]
impl WebDisplay {
    /// Draws panel `id` for a PNG file on `canvas` (one not in the page): its box of
    /// `css_w × css_h` at `scale` pixels per CSS pixel (2 for print-quality figures),
    /// with the panel's title over it and, for plots, a legend naming each method,
    /// so that the file explains itself away from the page.
    pub fn draw_export(
        &mut self,
        id: &str,
        canvas: web_sys::HtmlCanvasElement,
        css_w: f64,
        css_h: f64,
        scale: f64,
    ) -> Result<(), JsError> {
        let info = self.display.layout.panels.iter().find(|p| p.id == id).cloned();
        let info = info.ok_or_else(|| JsError::new(&format!("no panel {id}")))?;
        let scale = if scale.is_finite() { scale.clamp(1.0, 4.0) } else { 2.0 };
        let fit = |x: f64| if x.is_finite() { x.clamp(120.0, 2000.0) } else { 400.0 };
        let (w, h) = ((fit(css_w) * scale) as u32, (fit(css_h) * scale) as u32);
        canvas.set_width(w);
        canvas.set_height(h);
        let backend = CanvasBackend::with_canvas_object(canvas).ok_or_else(|| JsError::new("no 2D context"))?;
        let area = backend.into_drawing_area();
        area.fill(&WHITE).map_err(|e| JsError::new(&e.to_string()))?;
        if info.kind == panels::Kind::Scene {
            let mut view = self.display.scene_view.clone();
            crate::scene::draw(&area, &mut view, &self.display.shown(), scale)
                .map_err(|e| JsError::new(&format!("{id}: {e}")))?;
        } else {
            let (lines, markers, y_scale) = panels::content(&self.display, info.kind, w as usize);
            let spec = panels::spec(&self.display.layout, &info, y_scale, scale);
            let spec = nhlab_plots::Panel { title: &info.title, legend: true, ..spec };
            nhlab_plots::draw_panel(&area, &spec, &lines, &markers).map_err(|e| JsError::new(&format!("{id}: {e}")))?;
        }
        area.present().map_err(|e| JsError::new(&e.to_string()))
    }
}

/// A canvas' CSS size from `data-css-size`, kept by the page's ResizeObserver: read
/// without a layout. A canvas not observed yet (just created) counts as empty and is
/// drawn once the observer has measured it (it marks the page for drawing):
/// measuring it here would force a layout of the whole page, which a long
/// initial-state form makes slow.
fn css_size(canvas: &web_sys::HtmlCanvasElement) -> (f64, f64) {
    let observed = canvas.get_attribute("data-css-size").and_then(|s| {
        let mut it = s.split(' ').map(str::parse::<f64>);
        match (it.next(), it.next()) {
            (Some(Ok(w)), Some(Ok(h))) if w.is_finite() && h.is_finite() => Some((w, h)),
            _ => None,
        }
    });
    observed.unwrap_or((0.0, 0.0))
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

/// Draws a sweep (from [`stability`]) on canvas `id`, the backing store sized to its
/// CSS size times `dpr`, with the value the run uses at `current`. Returns the
/// horizontal positions of the first and last swept values in CSS pixels `[left, right]`, so that a click
/// can be turned into a value.
#[wasm_bindgen]
pub fn draw_stability(id: &str, data: JsValue, current: f64, dpr: f64) -> Result<Vec<f64>, JsError> {
    let document = web_sys::window().and_then(|w| w.document()).ok_or_else(|| JsError::new("no document"))?;
    let canvas: web_sys::HtmlCanvasElement = document
        .get_element_by_id(id)
        .ok_or_else(|| JsError::new(&format!("no #{id}")))?
        .dyn_into()
        .map_err(|_| JsError::new(&format!("#{id} is not a canvas")))?;
    let dpr = if dpr.is_finite() { dpr.clamp(1.0, 4.0) } else { 1.0 };
    let (css_w, css_h) = css_size(&canvas);
    if css_w * dpr < 40.0 || css_h * dpr < 40.0 {
        return Ok(vec![0.0, 0.0]);
    }
    paint_stability(canvas, data, current, "", css_w, css_h, dpr)
}

/// Draws a sweep for a PNG file on `canvas` (one not in the page): a box of
/// `css_w × css_h` at `scale` pixels per CSS pixel (2 for print-quality figures),
/// with `title` over it, like the plots' exports.
#[wasm_bindgen]
pub fn draw_stability_export(
    canvas: web_sys::HtmlCanvasElement,
    data: JsValue,
    current: f64,
    title: &str,
    css_w: f64,
    css_h: f64,
    scale: f64,
) -> Result<(), JsError> {
    let scale = if scale.is_finite() { scale.clamp(1.0, 4.0) } else { 2.0 };
    let fit = |x: f64| if x.is_finite() { x.clamp(120.0, 2000.0) } else { 400.0 };
    paint_stability(canvas, data, current, title, fit(css_w), fit(css_h), scale).map(|_| ())
}

/// The stability chart on `canvas`, its backing store `css_w × css_h` times `scale`;
/// returns the swept values' horizontal span in CSS pixels.
fn paint_stability(
    canvas: web_sys::HtmlCanvasElement,
    data: JsValue,
    current: f64,
    title: &str,
    css_w: f64,
    css_h: f64,
    scale: f64,
) -> Result<Vec<f64>, JsError> {
    let data: crate::stability::StabilityData =
        serde_wasm_bindgen::from_value(data).map_err(|e| JsError::new(&e.to_string()))?;
    let (w, h) = ((css_w * scale) as u32, (css_h * scale) as u32);
    if canvas.width() != w || canvas.height() != h {
        canvas.set_width(w);
        canvas.set_height(h);
    }
    let chart = nhlab_plots::StabilityChart {
        title,
        x_label: &data.over,
        values: &data.values,
        tracks: &data.tracks,
        stable: &data.stable,
        current: Some(current),
        companion: (!data.hamel.is_empty()).then_some((Method::Hamel, &data.hamel[..])),
        scale,
    };
    let backend =
        CanvasBackend::with_canvas_object(canvas).ok_or_else(|| JsError::new("the stability canvas: no 2D context"))?;
    let area = backend.into_drawing_area();
    area.fill(&WHITE).map_err(|e| JsError::new(&e.to_string()))?;
    let (left, right) = nhlab_plots::draw_stability(&area, &chart).map_err(|e| JsError::new(&e.to_string()))?;
    area.present().map_err(|e| JsError::new(&e.to_string()))?;
    Ok(vec![left as f64 / scale, right as f64 / scale])
}

/// For the browser tests only: panics on purpose, so that they can prove that a trap
/// — in the worker or on the page — never poisons the page (the instance that
/// trapped is replaced and the last good scenario reloaded).
#[wasm_bindgen]
pub fn self_test_trap() {
    panic!("self-test trap (the browser tests call this on purpose)");
}
