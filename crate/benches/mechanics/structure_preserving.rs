//! Section 3c: the structure-preserving integrators against Dormand–Prince and RK4.

use super::*;

/// A run of `name` under `integrator` (step `dt`, or the scenario's tolerances) to
/// `t_end`, recording the energy alone: its seconds (the best of `reps`), steps,
/// and largest energy error.
pub(super) fn timed_run(
    name: &str,
    integrator: &str,
    dt: f64,
    t_end: f64,
    native: bool,
    reps: usize,
) -> (f64, usize, f64) {
    use nhlab::simulation::{Diagnostics, Limits, Settings, Simulation};
    let text = scenario(name);
    let (mut s, map) = load_toml(&text).expect("loads");
    (s.run.integrator, s.run.integrators) = (Some(integrator.into()), None);
    s.run.dt = Some(dt);
    let model = Model::build(&s, &map).expect("valid");
    let mut numeric = NumericModel::new(&model).expect("compiles");
    let state = initial_state(&model, &mut numeric, &map).expect("initial state");
    if native {
        nhlab_native::use_for_lagrange(&model, &mut numeric, true).expect("compiles");
        nhlab_native::use_for_structure_preserving(&mut numeric).expect("compiles");
    }
    let settings = Settings {
        compulsion: false,
        diagnostics: Diagnostics { energy: true, ..Diagnostics::NONE },
        limits: Limits { max_steps: 10_000_000, max_samples: 10_000_000 },
        ..Settings::from_scenario(&s.run, Method::Lagrange)
    };
    let (mut steps, mut drift) = (0, 0.0);
    let seconds = best(reps, &mut || {
        let mut sim = Simulation::new(numeric.clone(), settings, &state).expect("starts");
        sim.advance_to(t_end).expect("runs");
        steps = sim.samples().len() - 1;
        let e0 = sim.samples().get(0).expect("a start").energy;
        drift = sim.samples().iter().map(|x| (x.energy - e0).abs()).fold(0.0, f64::max);
    });
    (seconds, steps, drift)
}

/// Section 3c: the structure-preserving integrators. The cost of a step against
/// Dormand–Prince's accepted step, each in machine code as `nhlab run` steps it,
/// and the energy error each reaches over T = 1,000 (quick: 200) for about the
/// same work as RK4.
pub(super) fn structure_preserving(quick: bool) {
    println!("== 3c. structure-preserving integrators: cost per step, and the energy error at equal work");
    let reps = if quick { 2 } else { 5 };
    for (name, dt) in [("chaplygin-sleigh", 0.01), ("rolling-disk", 0.01), ("whipple-bicycle", 0.005)] {
        let t_end = 2.0;
        let (dp_s, dp_steps, _) = timed_run(name, "dopri5", dt, t_end, true, reps);
        let (r_s, r_steps, _) = timed_run(name, "rattle", dt, t_end, true, reps);
        let (r4_s, r4_steps, _) = timed_run(name, "rattle4", dt, t_end, true, reps);
        let per = |s: f64, n: usize| s / n as f64 * 1e6;
        println!(
            "{name} to t = {t_end}: dopri5 {:.1} us per accepted step ({dp_steps} steps, machine code); rattle {:.1} us \
             per step of {dt}, ratio_vs_dopri5_step: {:.1}; rattle4 {:.1} us, ratio_vs_dopri5_step: {:.1}",
            per(dp_s, dp_steps),
            per(r_s, r_steps),
            per(r_s, r_steps) / per(dp_s, dp_steps),
            per(r4_s, r4_steps),
            per(r4_s, r4_steps) / per(dp_s, dp_steps),
        );
    }
    let t_end = if quick { 200.0 } else { 1000.0 };
    for (name, dt) in [("contact-oscillator", 0.1), ("chaplygin-sleigh", 0.1)] {
        let (r_s, _, r_drift) = timed_run(name, "rattle", dt, t_end, true, 1);
        // RK4 at the step that costs what RATTLE's run did.
        let (probe_s, probe_steps, _) = timed_run(name, "rk4", dt, t_end, true, 1);
        let rk4_dt = dt * (probe_s / probe_steps as f64) * (t_end / dt) / r_s;
        let (k_s, _, k_drift) = timed_run(name, "rk4", rk4_dt, t_end, true, 1);
        println!(
            "{name} to t = {t_end}: rattle dt = {dt} {:.2} s, energy error {r_drift:.2e}; rk4 at equal work (dt = {rk4_dt:.3}) \
             {:.2} s, energy error {k_drift:.2e}, ratio_rk4_vs_rattle_error: {:.1e}",
            r_s,
            k_s,
            k_drift / r_drift
        );
    }
}
