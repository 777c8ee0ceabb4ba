//! What only the helper worker does: every method's equations for the equations
//! panel, the stability panel's sweep, the code export, the long run and the
//! benchmark's right-hand sides. In the helper's module only (feature `helper`):
//! the runner and the page never load the derivations' printers, the exporter or
//! the stability study.

use wasm_bindgen::prelude::*;

use super::runner::WebLab;
use super::{method, to_js};
use crate::lab::Lab;

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
    /// A lab that can print `method`'s equations, whichever methods the scenario
    /// runs (the helper worker's, for the equations panel).
    pub fn for_equations(text: &str, method_id: &str) -> Result<WebLab, JsError> {
        WebLab::from_lab(Lab::for_equations(text, method(method_id)?))
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

/// The stability panel's map ([`crate::stability_map::MapWork`]), in the helper
/// worker: coarse first, then row by row; the worker advances it in slices and
/// posts what it has between them.
#[wasm_bindgen]
pub struct WebStabilityMap {
    work: crate::stability_map::MapWork,
}

#[wasm_bindgen]
impl WebStabilityMap {
    /// The map scenario `text` declares (`[stability]` with `sweep` and `map`); a
    /// message when it has none or it cannot be computed.
    #[wasm_bindgen(constructor)]
    pub fn new(text: &str) -> Result<WebStabilityMap, JsError> {
        match crate::stability_map::MapWork::new(text) {
            Ok(Some(work)) => Ok(WebStabilityMap { work }),
            Ok(None) => Err(JsError::new(&crate::i18n::tr("stability.map-none", &[]))),
            Err(e) => Err(JsError::new(&e)),
        }
    }

    /// Computes up to `count` more points; the points left (0: done).
    pub fn advance(&mut self, count: u32) -> u32 {
        self.work.advance(count as usize) as u32
    }

    /// The map so far ([`crate::stability_map::MapData`]).
    pub fn data(&self) -> Result<JsValue, JsError> {
        to_js(self.work.data())
    }
}
