//! [`WebLab`]: a scenario and its runs, stepped in a worker. In the runner's and the
//! helper's modules (features `runner`, `helper`): both step it (the runner to play,
//! the helper for a CSV of a whole run); the runner adds what it sends the page in
//! [`super::playback`], the helper its equations in [`super::helper`].

use wasm_bindgen::prelude::*;

use crate::lab::{describe_all, Lab};
#[cfg(feature = "runner")]
use crate::layout::Layout;

/// A lab: a scenario and its runs, stepped in the worker (`www/worker.js`), which
/// sends the page what it records (`update`, the runner's).
#[wasm_bindgen]
pub struct WebLab {
    pub(super) lab: Lab,
    /// What the page lays out (the runner's; the helper sends no rows).
    #[cfg(feature = "runner")]
    pub(super) layout: Layout,
    /// Rows of each run already sent to the page.
    pub(super) sent: Vec<usize>,
    /// Each run's rows and current row of the last `update`, until taken.
    #[cfg(feature = "runner")]
    pub(super) pending: Vec<(Vec<f64>, Vec<f64>, Vec<f64>)>,
}

#[wasm_bindgen]
impl WebLab {
    /// Loads a scenario (TOML, or JSON when it starts with `{`) and starts its runs.
    /// The error lists every problem as `line L, column C: field: message`.
    #[wasm_bindgen(constructor)]
    pub fn new(text: &str) -> Result<WebLab, JsError> {
        WebLab::from_lab(Lab::new(text))
    }

    pub(super) fn from_lab(lab: Result<Lab, Vec<crate::lab::TextProblem>>) -> Result<WebLab, JsError> {
        let lab = lab.map_err(|p| JsError::new(&describe_all(&p)))?;
        let runs = lab.runs().len();
        Ok(WebLab {
            #[cfg(feature = "runner")]
            layout: lab.layout(),
            #[cfg(feature = "runner")]
            pending: Vec::new(),
            lab,
            sent: vec![0; runs],
        })
    }

    /// The runs' time span, `[t0, t_end]`.
    pub fn span(&self) -> Vec<f64> {
        vec![self.lab.t0, self.lab.t_end]
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

    /// The samples of every run as CSV, the same text as `nhlab run` writes.
    pub fn csv(&self) -> String {
        self.lab.csv()
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
}
