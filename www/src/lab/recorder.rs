//! Recording a step into the page's rows: the display points of its dense output,
//! then its sample.

use super::*;

/// What recording a step needs from the lab: the view to evaluate it, and the
/// spacing of display points.
pub(super) struct Recorder<'a> {
    pub(super) view: &'a mut Outputs,
    pub(super) display_dt: f64,
}

/// At most this many display points inside one step.
pub(super) const MAX_POINTS_PER_STEP: usize = 8;

impl Recorder<'_> {
    /// Puts the step just taken into the columns: points of its dense output when it
    /// is long, then its sample.
    pub(super) fn record_step(
        &mut self,
        rows: &mut Vec<f64>,
        (format, holonomic): (RowFormat, &[bool]),
        recorded: &mut usize,
        sim: &mut Simulation,
        parameters: &[f64],
    ) {
        let samples = sim.samples();
        let n = samples.len();
        if n < 2 || *recorded != n - 1 {
            return; // the first sample, or a gap: record_new_samples catches up
        }
        let (t0, t1) = (samples.at(n - 2).t, samples.at(n - 1).t);
        let last = samples.at(n - 1).to_sample();
        let inside = (((t1 - t0) / self.display_dt).ceil() as usize).clamp(1, MAX_POINTS_PER_STEP + 1) - 1;
        for j in 1..=inside {
            let t = t0 + (t1 - t0) * j as f64 / (inside + 1) as f64;
            if let Ok(s) = sim.sample_in_last_step(t) {
                if sample_is_finite(&s) {
                    format.push(rows, &s, self.view.at(parameters, &s), false, holonomic);
                }
            }
        }
        format.push(rows, &last, self.view.at(parameters, &last), true, holonomic);
        *recorded = n;
    }
}

pub(super) fn sample_is_finite<'a>(s: impl Into<SampleRef<'a>>) -> bool {
    let s = s.into();
    s.q.iter().chain(s.v).chain(s.mu).all(|x| x.is_finite()) && s.energy.is_finite()
}
