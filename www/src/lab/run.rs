//! One method's run as the page steps it: its simulation, the rows it has posted,
//! the outputs each row records besides the state.

use super::*;
use nhlab::simulation::StopReason;

/// What a row records besides the fixed scalars: the view's outputs, then the world
/// position of each trailed scene element (three numbers each), so the page can draw
/// trails from the rows it already receives.
pub(super) struct Outputs {
    pub(super) view: View,
    pub(super) scene: Option<ScenePlayer>,
    pub(super) buffer: Vec<f64>,
}

impl Outputs {
    pub(super) fn new(view: View, scene: Option<ScenePlayer>) -> Outputs {
        Outputs { view, scene, buffer: Vec::new() }
    }

    /// Numbers per sample: the view's outputs and the trails' coordinates.
    pub(super) fn per_sample(&self) -> usize {
        self.view.len() + 3 * self.trails()
    }

    /// The number of trailed scene elements.
    pub(super) fn trails(&self) -> usize {
        self.scene.as_ref().map_or(0, |s| s.elements().iter().filter(|e| e.trail).count())
    }

    pub(super) fn at<'a>(&mut self, parameters: &[f64], s: impl Into<SampleRef<'a>>) -> &[f64] {
        let s = s.into();
        self.buffer.clear();
        self.buffer.extend_from_slice(self.view.at(parameters, s));
        // Scenes without trails evaluate nothing per sample (only at the clock).
        if let Some(scene) = self.scene.as_mut().filter(|s| s.elements().iter().any(|e| e.trail)) {
            for p in scene.trail_points(parameters, s.t, s.q, s.v) {
                self.buffer.extend_from_slice(&p);
            }
        }
        &self.buffer
    }
}

/// One method's run.
pub struct Run {
    /// The method.
    pub method: Method,
    /// Its parameter set: 0 the scenario's values, `k` the `k`-th of `[compare]`.
    pub set: usize,
    /// Its integrator, and its place among the scenario's (`[run] integrators`).
    pub integrator: IntegratorKind,
    /// (See `integrator`.)
    pub integrator_index: usize,
    /// The parameter values it runs with (the view and the scene read them).
    pub parameters: Vec<f64>,
    pub(super) sim: Option<Simulation>,
    /// Why it stopped early (or could not start), if it did.
    pub error: Option<String>,
    /// Whether that stop is information rather than a failure: Hamel's embedding
    /// ending where its split is singular, or the page's sample limit.
    pub ended: bool,
    /// Hamel's dependent coordinates (`y`, or `x, y`), for the message where its split
    /// turns singular.
    pub(super) hamel_dependent: Option<String>,
    /// What the plots read, as flat rows of [`RowFormat`] (what is sent to the
    /// page): every recorded sample, with display points of the dense output inside
    /// long steps.
    pub(super) rows: Vec<f64>,
    pub(super) format: RowFormat,
    /// Which constraints are holonomic (what a row's velocity residual reads).
    pub(super) holonomic: Vec<bool>,
    /// How many of the simulation's samples are in `rows`.
    pub(super) recorded: usize,
    /// The state shown at the display clock (interpolated inside the last step), and
    /// its row.
    pub current: Option<(Sample, Vec<f64>)>,
    /// The scene's contact-force arrows, fixed at the first picture: length per unit
    /// force (a quarter of the picture's size for the largest force there), so that
    /// the arrows grow and shrink with the forces, and the longest an arrow is drawn
    /// (see [`super::arrows`]).
    pub(super) arrow_scale: Option<super::ArrowScale>,
}

impl Run {
    /// The number of rows recorded.
    pub fn row_count(&self) -> usize {
        self.rows.len() / self.format.width()
    }

    /// The rows recorded, as the page's columns (for tests and tools: the page
    /// builds its own from what it receives).
    pub fn columns(&self) -> Columns {
        Columns::from_rows(self.format, &self.rows).expect("whole rows")
    }

    /// The row at the display clock, as columns of one row (empty before the first
    /// sample).
    pub fn current_columns(&self) -> Columns {
        let row = self.current.as_ref().map_or(&[][..], |(_, row)| &row[..]);
        Columns::from_rows(self.format, row).expect("a whole row")
    }

    /// The recorded samples.
    pub fn samples(&self) -> &Samples {
        self.sim.as_ref().map_or(&NO_SAMPLES, |s| s.samples())
    }

    /// The spans so far where a contact lifted off or slipped, in words, as far as
    /// the display clock `now` (the run steps a little ahead of it).
    pub fn validity_notes(&self, now: f64) -> Vec<String> {
        let Some(sim) = self.sim.as_ref() else { return Vec::new() };
        let Some(contacts) = sim.contacts() else { return Vec::new() };
        sim.validity_events()
            .iter()
            .filter(|e| e.start <= now)
            .map(|e| crate::i18n::message(&nhlab::simulation::describe_validity_message(e, &contacts[e.contact], now)))
            .collect()
    }

    /// Whether it has reached `t_end` or stopped.
    pub fn finished(&self, t_end: f64) -> bool {
        self.error.is_some() || self.sim.as_ref().is_none_or(|s| s.time() >= t_end)
    }

    /// Steps towards `t_end` until past `now`, at most `max_steps` steps, recording
    /// each step; stops the run with its reason on a failure, a non-finite state or
    /// `limit` samples. Returns the steps taken.
    pub(super) fn catch_up(
        &mut self,
        now: f64,
        t_end: f64,
        max_steps: usize,
        limit: usize,
        recorder: &mut Recorder,
    ) -> usize {
        let Some(sim) = self.sim.as_mut() else { return 0 };
        let mut taken = 0;
        while self.error.is_none() && sim.time() < now && taken < max_steps {
            if sim.samples().len() >= limit {
                self.ended = true;
                let at = nhlab::math::ShortTime(sim.time());
                self.error = Some(tr("run.sample-limit", &[("t", &at), ("limit", &limit)]));
                break;
            }
            match sim.step(t_end) {
                Ok(true) => taken += 1,
                Ok(false) => break,
                Err(e) => {
                    let reason = StopReason::of(&e, self.hamel_dependent.as_deref());
                    self.ended = matches!(reason, StopReason::EndedByDesign(_));
                    self.error = Some(stop_words(&reason));
                    break;
                }
            }
            // Non-finite numbers stop the run instead of reaching a plot.
            match sim.samples().last() {
                Some(last) if !sample_is_finite(last) => {
                    self.error = Some(tr("run.not-finite", &[("t", &nhlab::math::ShortTime(last.t))]));
                }
                _ => recorder.record_step(
                    &mut self.rows,
                    (self.format, &self.holonomic),
                    &mut self.recorded,
                    sim,
                    &self.parameters,
                ),
            }
        }
        taken
    }
}

/// What the page says of a run that stopped for `reason`: an end by design in its
/// own words (information: Hamel's embedding is undefined from there on, or the
/// scenario asked to stop where a contact fails), a failure as "stopped: …".
pub(crate) fn stop_words(reason: &StopReason) -> String {
    match reason {
        StopReason::EndedByDesign(message) => crate::i18n::message(message),
        StopReason::Failed(why) => tr("run.stopped", &[("why", &crate::i18n::message(why))]),
    }
}
