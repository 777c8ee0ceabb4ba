//! The page's "long run": every method of a scenario under each of its integrators,
//! integrated far past the playback's end in a worker of its own, in slices the page
//! can stop between, recording only the energy error at the first step end past
//! each of a set of times spaced evenly on a log scale — the view where an
//! integrator's drift (or its absence) shows. Step ends, not the dense output: the
//! error is the integrator's own, not its interpolant's.
//!
//! Memory stays bounded whatever the length: each run keeps [`POINTS`] points and
//! frees its samples as it goes; the work is bounded by the runs' step limits.

use crate::i18n::tr;
use nhlab::formulations::Method;
use nhlab::mechanics::Needs;
use nhlab::prepare::Prepared;
use nhlab::simulation::{Diagnostics, Limits, Settings, Simulation, StopReason};

/// Points per run, spaced evenly in `log t` from the first step to the end.
pub const POINTS: usize = 240;

/// The longest run the page offers: at the gallery's steps, minutes of work.
pub const MAX_T_END: f64 = 1e6;

/// Steps one run may take.
const MAX_STEPS: u64 = 20_000_000;

/// One run of a long run.
pub struct LongRunOne {
    /// `lagrange · rattle`.
    pub label: String,
    /// Its colour and mark.
    pub series: nhlab_plots::Series,
    sim: Option<Simulation>,
    /// `T + V` at the start.
    start_energy: f64,
    /// `(t, |T + V − (T + V)(t₀)|)` so far.
    pub points: Vec<(f64, f64)>,
    /// Why it stopped early, if it did: a failure, or an end by design in its own
    /// words (Hamel's split turning singular).
    pub error: Option<String>,
    /// Hamel's split's dependent coordinates, for the words of its end.
    hamel_dependent: Option<String>,
    /// Whether the start's sample has been passed over.
    past_start: bool,
    /// The next of the times to record at.
    next: usize,
}

/// Every run of a long run, and the times they sample.
pub struct LongRun {
    /// The runs.
    pub runs: Vec<LongRunOne>,
    times: Vec<f64>,
    t0: f64,
    /// Where the runs end.
    pub t_end: f64,
}

impl LongRun {
    /// The long run of scenario `text` to `t_end` (after its start, at most
    /// [`MAX_T_END`]).
    pub fn new(text: &str, t_end: f64) -> Result<LongRun, String> {
        let said = |problems: Vec<crate::lab::TextProblem>| crate::lab::said_briefly(&problems);
        let (scenario, map) = crate::lab::read(text).map_err(said)?;
        let needs = Needs::for_methods(&scenario.run.chosen_methods(), false);
        let mut prepared = Prepared::from_scenario_for(&scenario, map, needs)
            .map_err(|p| crate::lab::said_briefly(&crate::lab::problems(p)))?;
        // The page's compiled kernels, as its runs use them (natively: interpreted).
        if scenario.run.chosen_methods().contains(&Method::Lagrange) {
            let _ = crate::kernel::use_for_lagrange(&prepared.model, &mut prepared.numeric);
        }
        if scenario.run.integrator_kinds().iter().any(|k| k.is_structure_preserving()) {
            let _ = crate::kernel::use_for_structure_preserving(&mut prepared.numeric);
        }
        let t0 = prepared.initial.t;
        if !(t_end.is_finite() && t_end > t0 && t_end - t0 <= MAX_T_END) {
            return Err(crate::i18n::tr("longrun.bad-end", &[("t0", &nhlab::math::Short(t0)), ("max", &MAX_T_END)]));
        }
        let run = &prepared.model.scenario.run;
        let kinds = run.integrator_kinds();
        let overlay = kinds.len() > 1;
        let mut runs = Vec::new();
        for (method, k, integrator) in nhlab::scenario::method_integrator_runs(&run.chosen_methods(), &kinds) {
            let settings = Settings {
                integrator,
                compulsion: false,
                diagnostics: Diagnostics { energy: true, ..Diagnostics::NONE },
                limits: Limits { max_steps: MAX_STEPS, max_samples: usize::MAX },
                ..Settings::from_scenario(run, method)
            };
            let label = if overlay { format!("{} · {}", method.id(), integrator.id()) } else { method.id().into() };
            let series = nhlab_plots::Series { method, set: 0, integrator: k };
            runs.push(LongRunOne::start(&prepared, settings, method, label, series));
        }
        // From the first step's size (or a thousandth of the playback) to the end.
        let first = (t0 + run.dt.unwrap_or(0.01).min(run.t_end_or_default() / 1000.0)).max(t0 + (t_end - t0) * 1e-9);
        let (a, b) = ((first - t0).ln(), (t_end - t0).ln());
        let mut times: Vec<f64> =
            (0..POINTS).map(|k| t0 + (a + (b - a) * k as f64 / (POINTS - 1) as f64).exp()).collect();
        times[POINTS - 1] = t_end;
        Ok(LongRun { runs, times, t0, t_end })
    }

    /// Steps the runs, at most `max_steps` steps over all of them; the steps taken
    /// (0: every run is done).
    pub fn advance(&mut self, max_steps: usize) -> usize {
        let per_run = (max_steps / self.runs.len().max(1)).max(1);
        let mut taken = 0;
        for run in &mut self.runs {
            taken += run.advance(&self.times, self.t_end, per_run);
        }
        taken
    }

    /// Where the runs start.
    pub fn t0(&self) -> f64 {
        self.t0
    }

    /// How far the slowest run has got, from 0 to 1.
    pub fn progress(&self) -> f64 {
        let span = self.t_end - self.t0;
        self.runs
            .iter()
            .map(|r| if r.done() { 1.0 } else { r.time().map_or(1.0, |t| (t - self.t0) / span) })
            .fold(1.0, f64::min)
    }

    /// Whether every run has reached the end or stopped.
    pub fn finished(&self) -> bool {
        self.runs.iter().all(LongRunOne::done)
    }
}

impl LongRunOne {
    fn start(
        prepared: &Prepared,
        settings: Settings,
        method: Method,
        label: String,
        series: nhlab_plots::Series,
    ) -> Self {
        let mut one = LongRunOne {
            label,
            series,
            sim: None,
            start_energy: f64::NAN,
            points: Vec::new(),
            error: None,
            hamel_dependent: prepared.model.hamel_dependent_names(),
            past_start: false,
            next: 0,
        };
        if let Err(why) = nhlab::formulations::why_not(&prepared.model, method) {
            one.error = Some(tr("run.cannot-run", &[("why", &crate::i18n::message(&why))]));
            return one;
        }
        let mut numeric = prepared.numeric.clone();
        if settings.integrator.is_structure_preserving() {
            numeric.prepare_structure_preserving(&prepared.model);
        }
        match Simulation::new(numeric, settings, &prepared.initial) {
            Ok(sim) => {
                one.start_energy = sim.samples().get(0).map_or(f64::NAN, |s| s.energy);
                one.sim = Some(sim);
            }
            Err(e) => {
                one.error =
                    Some(tr("run.cannot-start", &[("why", &crate::i18n::message(&nhlab::simulation::failure(&e)))]))
            }
        }
        one
    }

    fn done(&self) -> bool {
        self.error.is_some() || self.sim.is_none()
    }

    fn time(&self) -> Option<f64> {
        self.sim.as_ref().map(Simulation::time)
    }

    /// At most `max_steps` steps towards `t_end`, sampling at `times`; the steps taken.
    fn advance(&mut self, times: &[f64], t_end: f64, max_steps: usize) -> usize {
        let Some(sim) = self.sim.as_mut() else { return 0 };
        let mut steps = 0;
        let result = sim.advance_while(t_end, &[], &mut |_| {
            steps += 1;
            steps <= max_steps
        });
        let e0 = self.start_energy;
        // The start (the first sample of the first slice) is where the error is 0.
        let skip = usize::from(!self.past_start);
        self.past_start = true;
        for s in sim.samples().iter().skip(skip) {
            if self.next < times.len() && s.t >= times[self.next] {
                let gap = (s.energy - e0).abs();
                if gap.is_finite() {
                    self.points.push((s.t, gap));
                }
                while self.next < times.len() && times[self.next] <= s.t {
                    self.next += 1;
                }
            }
        }
        sim.release_samples();
        match result {
            Ok(()) => self.sim = None,
            Err(nhlab::integrators::IntegrationError::Interrupted { .. }) => {}
            Err(e) => {
                let reason = StopReason::of(&e, self.hamel_dependent.as_deref());
                self.error = Some(crate::lab::stop_words(&reason));
                self.sim = None;
            }
        }
        steps.min(max_steps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The contact oscillator's long run: both integrators reach the end in
    /// slices; RATTLE's energy error stays in its band while RK4's grows.
    #[test]
    fn a_long_run_records_each_integrators_energy_error_on_a_log_scale() {
        let text = crate::gallery::text("contact-oscillator").unwrap();
        let mut long = LongRun::new(text, 2000.0).expect("starts");
        assert_eq!(long.runs.len(), 2);
        let mut slices = 0;
        while long.advance(5000) > 0 {
            slices += 1;
            assert!(slices < 100, "bounded");
            assert!((0.0..=1.0).contains(&long.progress()));
        }
        assert!(long.finished() && long.progress() == 1.0 && slices > 3, "{slices} slices");
        for run in &long.runs {
            assert!(run.error.is_none(), "{}: {:?}", run.label, run.error);
            let n = run.points.len();
            assert!((POINTS / 2..=POINTS).contains(&n), "{}: {n} points", run.label);
            assert!(run.points.windows(2).all(|w| w[1].0 > w[0].0));
            assert!((run.points.last().unwrap().0 - 2000.0).abs() < 1e-9);
        }
        let largest =
            |run: &LongRunOne, until: f64| run.points.iter().filter(|p| p.0 <= until).map(|p| p.1).fold(0.0, f64::max);
        let (rattle, rk4) = (&long.runs[0], &long.runs[1]);
        assert!(rattle.label == "lagrange · rattle" && rk4.label == "lagrange · rk4");
        assert!(largest(rattle, 2000.0) < 1.1 * largest(rattle, 100.0));
        assert!(largest(rk4, 2000.0) > 5.0 * largest(rk4, 100.0));
        assert!(LongRun::new(text, 1e9).is_err() && LongRun::new(text, -1.0).is_err());
    }

    /// Hamel's split turning singular ends the sleigh's Hamel run as the playback
    /// says it: in the end's own words, not as a failure; the other methods go on.
    #[test]
    fn a_hamel_split_ends_a_long_run_by_design() {
        let text = crate::gallery::text("chaplygin-sleigh").unwrap();
        let mut long = LongRun::new(text, 50.0).expect("starts");
        while long.advance(5000) > 0 {}
        let hamel = long.runs.iter().find(|r| r.label.starts_with("hamel")).expect("a Hamel run");
        let said = hamel.error.as_deref().expect("Hamel's split turns singular on the sleigh");
        assert!(said.starts_with("Hamel's embedding ends at t = ") && !said.contains("stopped"), "{said}");
        assert!(long.runs.iter().filter(|r| !r.label.starts_with("hamel")).all(|r| r.error.is_none()));
    }
}
