//! Section 3's timings for one compiled model: the bare integrator, the recorded run, each column.

use super::*;

/// Section 3's timings for one compiled model: the bare integrator loop, and the
/// same integration through `Simulation` (what `nhlab run` does without `--plot`),
/// each accepted step also recording a sample with every column (energy,
/// residuals, the E-vector; no compulsion), without the E-vector, or with the
/// state alone (`--columns state`). One run takes a fraction of a millisecond:
/// each repetition times a batch of runs, and the loops take turns, so that a
/// disturbance of these shared machines hits them alike; the fastest repetition
/// of each counts.
pub(super) struct SleighRuns {
    pub(super) bare_s: f64,
    pub(super) every_column_s: f64,
    pub(super) without_e_s: f64,
    pub(super) state_s: f64,
    pub(super) steps: usize,
    pub(super) samples: usize,
    pub(super) end: Vec<f64>,
}

pub(super) fn time_sleigh_runs(
    model: &Model,
    numeric: &NumericModel,
    state: &State,
    y0: &[f64],
    batch: usize,
    reps: usize,
) -> SleighRuns {
    use nhlab::simulation::{Diagnostics, Settings, Simulation};
    let every_column = Settings {
        method: Method::Lagrange,
        integrator: nhlab::integrators::IntegratorKind::Dopri5,
        rtol: 1e-10,
        atol: 1e-12,
        compulsion: false,
        ..Settings::from_scenario(&model.scenario.run, Method::Lagrange)
    };
    let without_e = Settings { diagnostics: Diagnostics { e_vector: false, ..Diagnostics::ALL }, ..every_column };
    let state_only = Settings { diagnostics: Diagnostics::NONE, ..every_column };
    let mut out = SleighRuns {
        bare_s: f64::INFINITY,
        every_column_s: f64::INFINITY,
        without_e_s: f64::INFINITY,
        state_s: f64::INFINITY,
        steps: 0,
        samples: 0,
        end: y0.to_vec(),
    };
    let mut bare_numeric = numeric.clone();
    for _ in 0..reps {
        out.bare_s = out.bare_s.min(best(1, &mut || {
            for _ in 0..batch {
                let mut dp = Dopri5::new(6, 1e-10, 1e-12);
                let (mut t, mut y) = (0.0, y0.to_vec());
                let mut sys = Engine { numeric: &mut bare_numeric, method: Method::Lagrange, n: 3 };
                out.steps = 0;
                while t < 100.0 {
                    dp.step(&mut sys, &mut t, &mut y, 100.0).expect("integrates");
                    out.steps += 1;
                }
                out.end = y;
            }
        }));
        // Simulations made beforehand and dropped afterwards: the bare loop does not
        // copy the model, or free it, either (a drop cost about 0.5 % of a run).
        for (settings, time) in
            [(every_column, &mut out.every_column_s), (without_e, &mut out.without_e_s), (state_only, &mut out.state_s)]
        {
            let mut fresh: Vec<Simulation> =
                (0..batch).map(|_| Simulation::new(numeric.clone(), settings, state).expect("starts")).collect();
            let mut done: Vec<Simulation> = Vec::with_capacity(batch);
            *time = time.min(best(1, &mut || {
                for mut sim in fresh.drain(..) {
                    sim.advance_to(100.0).expect("runs");
                    out.samples = sim.samples().len();
                    done.push(sim);
                }
            }));
            drop(done);
        }
    }
    out
}
