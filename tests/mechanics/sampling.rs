//! What a user reads from a run: samples at requested times (rk4's dense output,
//! a grid without accumulated rounding), samples that satisfy the constraints under
//! projection, residuals as written (`φ` for holonomic constraints) beside their
//! velocity level, and velocities the constraints leave free named in a warning.

use nhlab::formulations::{applicability, Method};
use nhlab::integrators::{IntegrationError, IntegratorKind};
use nhlab::simulation::{initial_state_with_warnings, Sample, Settings, Simulation, Stabilization};
use nhlab_tests::scenarios::load;

fn pendulum_run(integrator: IntegratorKind, dt: f64, stabilization: Stabilization) -> Simulation {
    let (model, numeric, state) = load("pendulum-cartesian");
    let mut settings = Settings::from_scenario(&model.scenario.run, Method::Lagrange);
    settings.integrator = integrator;
    settings.dt = dt;
    settings.rtol = 1e-12;
    settings.atol = 1e-14;
    settings.stabilization = stabilization;
    Simulation::new(numeric, settings, &state).unwrap()
}

fn sampled(integrator: IntegratorKind, dt: f64, times: &[f64]) -> Vec<Sample> {
    let mut sim = pendulum_run(integrator, dt, Stabilization::None);
    sim.advance_sampling(times).unwrap();
    sim.samples().to_vec_from(1)
}

fn state_error(a: &Sample, b: &Sample) -> f64 {
    a.q.iter().chain(&a.v).zip(b.q.iter().chain(&b.v)).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
}

/// The defect: asking rk4 for t = 2.98 returned the state at 2.99, because the grid
/// carried rounding (2.9799999999999804) and the first grid point at or after the
/// time was taken.
#[test]
fn rk4_samples_at_grid_times_are_the_grid_rows() {
    let mut grid = pendulum_run(IntegratorKind::Rk4, 0.01, Stabilization::None);
    grid.advance_to(3.0).unwrap();
    for (k, s) in grid.samples().iter().enumerate() {
        assert_eq!(s.t, k as f64 * 0.01, "the grid is t₀ + k·dt exactly");
    }
    let times = [0.5, 1.0, 2.98, 2.99, 3.0];
    for (s, &t) in sampled(IntegratorKind::Rk4, 0.01, &times).iter().zip(&times) {
        assert_eq!(s.t, t);
        let row = grid.samples().at((t / 0.01).round() as usize).to_sample();
        assert!(state_error(s, &row) < 1e-13, "t = {t}: {:?} against the grid row {:?}", s.q, row.q);
    }
}

/// Between grid points rk4 samples come from its dense output: they agree with a
/// tight dopri5 reference, and the error falls with dt at order ≥ 3.
#[test]
fn rk4_samples_between_grid_points_follow_the_dense_output_at_order_three() {
    let times: Vec<f64> = (1..=40).map(|k| 0.0731 * k as f64 + 0.0013).collect();
    let reference = sampled(IntegratorKind::Dopri5, 0.0, &times);
    let error = |dt: f64| {
        let samples = sampled(IntegratorKind::Rk4, dt, &times);
        samples.iter().zip(&reference).map(|(a, b)| state_error(a, b)).fold(0.0, f64::max)
    };
    let (coarse, fine) = (error(0.04), error(0.02));
    let order = (coarse / fine).log2();
    assert!(order >= 3.0, "observed order {order} ({coarse:e} → {fine:e})");
    assert!(fine < 1e-5, "{fine:e}");
    // The old behaviour (the next grid state) is first-order: far worse at dt = 0.02.
    assert!(fine < 1e-3 * 0.02, "{fine:e}");
}

/// A fixed step too small to change the time is an error, not an endless loop.
#[test]
fn a_step_that_does_not_advance_time_is_refused() {
    let (model, numeric, mut state) = load("pendulum-cartesian");
    state.t = 1.0;
    let mut settings = Settings::from_scenario(&model.scenario.run, Method::Lagrange);
    settings.integrator = IntegratorKind::Rk4;
    settings.dt = 1e-17;
    let mut sim = Simulation::new(numeric, settings, &state).unwrap();
    match sim.advance_to(2.0) {
        Err(IntegrationError::NoProgress { t, dt }) => assert_eq!((t, dt), (1.0, 1e-17)),
        other => panic!("{other:?}"),
    }
}

/// The defect: with projection, dense-output samples were not projected (|φ| 6e-8
/// against 2.7e-15 at the steps).
#[test]
fn projection_reaches_the_samples_between_steps() {
    for integrator in [IntegratorKind::Dopri5, IntegratorKind::Rk4] {
        let mut sim = pendulum_run(integrator, 0.05, Stabilization::Projection);
        let times: Vec<f64> = (1..=200).map(|k| 0.0497 * k as f64).collect();
        sim.advance_sampling(&times).unwrap();
        for s in sim.samples().iter().skip(1) {
            let phi = s.q[0] * s.q[0] + s.q[1] * s.q[1] - 1.0;
            let dphi = 2.0 * (s.q[0] * s.v[0] + s.q[1] * s.v[1]);
            assert!(phi.abs() < 1e-12 && dphi.abs() < 1e-12, "{integrator:?} t = {}: φ {phi:e}, φ̇ {dphi:e}", s.t);
        }
        // The page's display points too.
        sim.advance_to(10.1).unwrap();
        let shown = sim.sample_in_last_step(10.05).unwrap();
        let phi = shown.q[0] * shown.q[0] + shown.q[1] * shown.q[1] - 1.0;
        assert!(phi.abs() < 1e-12, "display point: φ {phi:e}");
    }
}

/// The defect: a holonomic constraint's residual was reported at velocity level.
/// `res_` is φ as written, recomputed here from the sampled coordinates; `dres_` its
/// velocity level φ_q v.
#[test]
fn holonomic_residuals_are_reported_as_written_and_at_velocity_level() {
    let (model, _, _) = load("pendulum-cartesian");
    let mut sim = pendulum_run(IntegratorKind::Rk4, 0.05, Stabilization::None);
    sim.advance_to(3.0).unwrap();
    let samples = sim.samples();
    let last = samples.last().unwrap();
    let phi = last.q[0] * last.q[0] + last.q[1] * last.q[1] - 1.0;
    let dphi = 2.0 * (last.q[0] * last.v[0] + last.q[1] * last.v[1]);
    assert!(phi.abs() > 1e-9, "rk4 at dt = 0.05 drifts visibly: {phi:e}");
    assert!((last.residuals[0] - phi).abs() < 1e-15, "res = φ: {} vs {phi}", last.residuals[0]);
    assert!((last.velocity_residuals[0] - dphi).abs() < 1e-15);
    let samples = samples.to_vec();
    let table = nhlab::export::samples_table(&model, &[(Method::Lagrange, &samples)], String::new());
    assert_eq!(table.columns.join(","), "method,t,x,y,x',y',energy,res_rod,E_x,dres_rod");
    let row = table.rows.last().unwrap();
    assert_eq!(row[7], nhlab::export::Cell::Number(last.residuals[0]));
    assert_eq!(row[9], nhlab::export::Cell::Number(dphi));
}

/// The defect: omitted velocities the constraints do not fix were set to 0 silently.
#[test]
fn velocities_the_constraints_leave_free_are_named_in_a_warning() {
    // The spec's own example: the knife edge given only φ' (the gallery file gives x' too).
    let text = nhlab_tests::scenarios::text("knife-edge-incline");
    let text = text.replace("v = { x = 0, phi = 2 }", "v = { phi = 2 }");
    let (scenario, map) = nhlab::scenario::load_toml(&text).unwrap();
    let (model, mut numeric, _) = nhlab_tests::scenarios::build(&scenario, &map);
    let (state, warnings) = initial_state_with_warnings(&model, &mut numeric, &map).unwrap();
    assert_eq!(state.v, vec![0.0, 0.0, 2.0]);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0].field, "initial.v");
    assert!(warnings[0].position.is_some());
    assert_eq!(
        warnings[0].message,
        "x' is not fixed by the constraints; took the minimum-norm value x' = 0 — give it to choose another"
    );
    // At φ = 0.3 the blade's constraint ties x' and y' together: both are named.
    let mut scenario = scenario.clone();
    scenario.initial.q.insert("phi".into(), 0.3);
    let (model, mut numeric, _) = nhlab_tests::scenarios::build(&scenario, &map);
    let (_, warnings) = initial_state_with_warnings(&model, &mut numeric, &map).unwrap();
    assert!(
        warnings[0]
            .message
            .starts_with("x', y' are not fixed by the constraints; took the minimum-norm values x' = 0, y' = 0"),
        "{}",
        warnings[0].message
    );
    // Velocities the constraints do fix are not named: the sleigh's y' from x' and φ.
    let (model, mut numeric, _) = load("pendulum-cartesian");
    let (state, warnings) = initial_state_with_warnings(&model, &mut numeric, &map).unwrap();
    assert_eq!(state.v, vec![0.0, 0.0]);
    assert!(warnings.is_empty(), "y' is fixed by the rod at x' = 0: {warnings:?}");
}

/// The defect: voronets ran on nonlinear constraints but refused to print its
/// equations. Both now refuse, with the reason `check` gives.
#[test]
fn voronets_refuses_nonlinear_constraints_in_derive_and_run_alike() {
    let (model, numeric, state) = load("appell-hamel");
    let reason = applicability(&model, Method::Voronets).unwrap_err();
    assert!(reason.contains("`appell`") && reason.contains("linear in the velocities"), "{reason}");
    // The page's form of the same reason: a message with an id, its English the same.
    let said = nhlab::formulations::why_not(&model, Method::Voronets).unwrap_err();
    assert_eq!((said.id, said.english.as_str()), ("method.voronets.nonlinear.one", reason.as_str()));
    let derived = nhlab::derivation::derive(&model, Method::Voronets).unwrap_err();
    assert_eq!(derived.reason, said);
    let settings = Settings::from_scenario(&model.scenario.run, Method::Voronets);
    let ran = Simulation::new(numeric, settings, &state).err().expect("refused");
    assert_eq!(ran.to_string(), reason);
    // On linear constraints every method applies (the sleigh).
    let (sleigh, _, _) = load("chaplygin-sleigh");
    assert!(Method::ALL.iter().all(|&m| applicability(&sleigh, m).is_ok()));
}

/// Issue 9: `x'² + y'² = 1` with `x' = 0.6` was refused as inconsistent: Newton's
/// method from zero cannot move `y'` (the Jacobian `2y'` vanishes there). It now
/// starts again from 1, finds `y' = 0.8`, and says so.
#[test]
fn nonlinear_constraints_are_solved_for_omitted_velocities_from_a_stated_start() {
    let text = include_str!("../fixtures/unit-speed.toml");
    let (scenario, map) = nhlab::scenario::load_toml(text).unwrap();
    let model = nhlab::mechanics::Model::build(&scenario, &map).unwrap();
    let mut numeric = nhlab::mechanics::NumericModel::new(&model).unwrap();
    let (state, warnings) = initial_state_with_warnings(&model, &mut numeric, &map).unwrap();
    assert!((state.v[1] - 0.8).abs() < 1e-12, "{:?}", state.v);
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(
        warnings[0].message,
        "the omitted velocities were solved from the nonlinear constraints by Newton's method from 1: y' = 0.8; other solutions may exist — give them to choose"
    );
}

/// Issue 9: Appell–Hamel with g = −5 ran for tens of seconds into gigabytes: the
/// weight rises, its horizontal speed dies at t ≈ 0.5 where the constraint's
/// Jacobian vanishes, and the steps shrink without end. It now stops there at once.
#[test]
fn a_run_that_stalls_stops_with_the_cause_and_the_time() {
    let text = nhlab_tests::scenarios::text("appell-hamel").replace("g = 9.81", "g = -5");
    let (scenario, map) = nhlab::scenario::load_toml(&text).unwrap();
    let (model, numeric, state) = nhlab_tests::scenarios::build(&scenario, &map);
    let settings = Settings::from_scenario(&model.scenario.run, Method::Lagrange);
    let mut sim = Simulation::new(numeric, settings, &state).unwrap();
    match sim.advance_to(2.0) {
        Err(IntegrationError::Stalled { t, steps, advanced }) => {
            assert!((t - 0.5).abs() < 1e-3, "stalled at {t}");
            assert_eq!(steps, 10_000);
            assert!(advanced < 2e-6, "{advanced}");
        }
        other => panic!("{other:?}"),
    }
    assert!(sim.samples().len() < 100_000, "{} samples", sim.samples().len());
}

/// A plain oscillator asked to run to t = 1e300 goes at a steady pace: it is not
/// "stiff or singular" (it was called so), it cannot reach its end, and the message
/// says so with short numbers.
#[test]
fn a_run_too_long_for_its_pace_is_not_called_stiff() {
    let text = "format = \"nhlab/1\"\ntitle = \"oscillator\"\ncoordinates = [\"x\"]\nkinetic = \"x'^2/2\"\npotential = \"x^2/2\"\n\
                [initial]\nq = { x = 1 }\nv = { x = 0 }\n";
    let (scenario, map) = nhlab::scenario::load_toml(text).unwrap();
    let (model, numeric, state) = nhlab_tests::scenarios::build(&scenario, &map);
    let settings = Settings::from_scenario(&model.scenario.run, Method::Lagrange);
    let mut sim = Simulation::new(numeric, settings, &state).unwrap();
    let error = sim.advance_to(1e300).unwrap_err();
    match &error {
        IntegrationError::TooLong { t, t_end, steps, needed, .. } => {
            assert!(*t > 10.0 && *t_end == 1e300 && *steps == 10_000 && *needed > 1e299, "{error:?}");
        }
        other => panic!("{other:?}"),
    }
    let message = error.to_string();
    assert!(message.starts_with("the run cannot reach t = 1e300:"), "{message}");
    assert!(!message.contains("stiff") && message.len() < 200, "{message}");
}

/// A sample after a dopri5 step takes its accelerations from the step's last stage
/// (first same as last) instead of solving again: its compulsion is the one a fresh
/// solve at the sample gives, bit for bit, for every gallery scenario and method
/// (time-dependent ones included), with and without Baumgarte's correction.
#[test]
fn samples_reuse_the_last_stage_without_changing_a_bit() {
    let mut compared = 0;
    for name in nhlab_tests::scenarios::names() {
        let (model, numeric, state) = load(&name);
        for method in Method::ALL {
            if applicability(&model, method).is_err() {
                continue;
            }
            for stabilization in [Stabilization::None, Stabilization::Baumgarte { alpha: 5.0, beta: 5.0 }] {
                let settings = Settings {
                    method,
                    integrator: IntegratorKind::Dopri5,
                    stabilization,
                    ..Settings::from_scenario(&model.scenario.run, method)
                };
                let Ok(mut sim) = Simulation::new(numeric.clone(), settings, &state) else { continue };
                let t_end = state.t + 0.5;
                let _ = sim.advance_to(t_end); // a method may stop early (a singular split): its samples count
                let mut fresh = numeric.clone();
                fresh.baumgarte = match stabilization {
                    Stabilization::Baumgarte { alpha, beta } => Some((alpha, beta)),
                    _ => None,
                };
                let n = state.q.len();
                for s in sim.samples().iter().skip(1) {
                    let solved =
                        nhlab::formulations::accelerations_with_multipliers(method, &mut fresh, s.t, s.q, s.v, s.mu);
                    let Ok(solved) = solved else { continue };
                    let terms = fresh.evaluate(s.t, s.q, s.v).unwrap().clone();
                    let z = nhlab::formulations::compulsion_with(
                        &terms,
                        solved.accelerations.as_slice(),
                        s.t,
                        &mut Default::default(),
                        &mut Vec::new(),
                    )
                    .unwrap();
                    // The samples' solver (LDLᵀ, nothing allocated) against nalgebra's Cholesky.
                    let by_cholesky = nhlab::formulations::compulsion(&terms, &solved.accelerations, s.t).unwrap();
                    let scale = 1e-12 * (1.0 + by_cholesky.abs() + terms.energy.abs());
                    assert!((z - by_cholesky).abs() <= scale, "{name}: compulsion {z} vs {by_cholesky} by Cholesky");
                    assert_eq!(
                        z.to_bits(),
                        s.compulsion.to_bits(),
                        "{name} {} {stabilization:?} at t = {}: {z} vs {}",
                        method.id(),
                        s.t,
                        s.compulsion
                    );
                    assert_eq!(solved.accelerations.len(), n);
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 500, "{compared} samples compared");
}

/// Samples compute Gauss's compulsion only when asked (`nhlab run --plot`); not
/// asked, it is NaN and every other number is the same bit for bit. Asked, it is
/// `½(q̈ − a)ᵀ M (q̈ − a)` computed apart from the run.
#[test]
fn the_compulsion_is_computed_only_when_asked_and_changes_nothing_else() {
    let (model, numeric, state) = load("chaplygin-sleigh");
    let run = |compulsion: bool| {
        let settings = Settings { compulsion, ..Settings::from_scenario(&model.scenario.run, Method::Gauss) };
        let mut sim = Simulation::new(numeric.clone(), settings, &state).unwrap();
        sim.advance_to(2.0).unwrap();
        sim.samples().to_vec()
    };
    let (with, without) = (run(true), run(false));
    assert_eq!(with.len(), without.len());
    let mut numeric = numeric.clone();
    for (a, b) in with.iter().zip(&without) {
        assert!(b.compulsion.is_nan());
        let bits = |s: &Sample| {
            let mut v: Vec<u64> = s.q.iter().chain(&s.v).chain(&s.residuals).map(|x| x.to_bits()).collect();
            v.push(s.energy.to_bits());
            v.extend(s.e_vector.iter().flatten().map(|x| x.to_bits()));
            v
        };
        assert_eq!(bits(a), bits(b));
        let solved = nhlab::formulations::accelerations(Method::Gauss, &mut numeric, a.t, &a.q, &a.v).unwrap();
        let terms = numeric.evaluate(a.t, &a.q, &a.v).unwrap();
        let expected = nhlab::formulations::compulsion(terms, &solved.accelerations, a.t).unwrap();
        assert!((a.compulsion - expected).abs() <= 1e-12 * expected.abs().max(1e-12), "{} vs {expected}", a.compulsion);
    }
}

/// Samples compute only the diagnostics asked for (`nhlab run --columns`): the rest
/// are NaN, empty or absent, and what is computed — the state above all — is the same
/// bit for bit as in a run that computes everything, for dopri5's steps, rk4's grid
/// and dense-output samples.
#[test]
fn samples_compute_only_the_diagnostics_asked_for_and_change_nothing_else() {
    use nhlab::simulation::Diagnostics;
    let (model, numeric, state) = load("chaplygin-sleigh");
    let run = |integrator: IntegratorKind, diagnostics: Diagnostics, times: Option<&[f64]>| {
        let settings = Settings {
            integrator,
            diagnostics,
            compulsion: false,
            ..Settings::from_scenario(&model.scenario.run, Method::Lagrange)
        };
        let mut sim = Simulation::new(numeric.clone(), settings, &state).unwrap();
        match times {
            Some(times) => sim.advance_sampling(times).unwrap(),
            None => sim.advance_to(2.0).unwrap(),
        }
        sim.samples().to_vec()
    };
    let times = [0.25, 0.5, 1.0, 1.75];
    for (integrator, times) in
        [(IntegratorKind::Dopri5, None), (IntegratorKind::Rk4, None), (IntegratorKind::Dopri5, Some(&times[..]))]
    {
        let all = run(integrator, Diagnostics::ALL, times);
        for wanted in
            [Diagnostics::NONE, Diagnostics { energy: true, residuals: false, e_vector: true, contacts: false }]
        {
            let some = run(integrator, wanted, times);
            assert_eq!(all.len(), some.len());
            for (a, b) in all.iter().zip(&some) {
                let state = |s: &Sample| s.q.iter().chain(&s.v).map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!((a.t.to_bits(), state(a)), (b.t.to_bits(), state(b)), "{integrator:?} {wanted:?}");
                assert!(a.energy.is_finite() && !a.residuals.is_empty() && a.e_vector.is_some());
                match wanted.energy {
                    true => assert_eq!(a.energy.to_bits(), b.energy.to_bits()),
                    false => assert!(b.energy.is_nan()),
                }
                assert!(b.residuals.is_empty() && b.velocity_residuals.is_empty(), "residuals were not asked for");
                assert_eq!(b.e_vector.is_some(), wanted.e_vector);
                if wanted.e_vector {
                    assert_eq!(a.e_vector, b.e_vector);
                }
            }
        }
    }
}

/// A sample's energy, residuals and E-vector come from the program's registers
/// where the integrator's last stage left them (Hamel's terms are compiled after
/// the main outputs, sharing their subexpressions): each is, bit for bit, what a
/// freshly compiled model gives at the sample's state, along whole runs of models
/// with holonomic and nonholonomic constraints, under dopri5 and rk4.
#[test]
fn sample_diagnostics_are_a_fresh_evaluation_s() {
    for name in ["chaplygin-sleigh", "ball-on-turntable", "pendulum-cartesian", "rolling-disk"] {
        for integrator in [IntegratorKind::Dopri5, IntegratorKind::Rk4] {
            let (model, numeric, state) = load(name);
            let mut settings = Settings::from_scenario(&model.scenario.run, Method::Lagrange);
            settings.integrator = integrator;
            settings.dt = 0.01;
            let mut sim = Simulation::new(numeric, settings, &state).unwrap();
            sim.advance_to(2.0).unwrap();
            let (_, mut fresh, _) = load(name);
            let samples = sim.samples();
            assert!(samples.len() > 20, "{name}");
            let mut with_e = 0;
            for s in samples.iter().map(|s| s.to_sample()) {
                let terms = fresh.evaluate(s.t, &s.q, &s.v).unwrap().clone();
                assert_eq!(s.energy.to_bits(), terms.energy.to_bits(), "{name} at t = {}", s.t);
                assert_eq!(s.residuals, terms.constraint_residuals(), "{name} at t = {}", s.t);
                assert_eq!(s.velocity_residuals, terms.residuals.as_slice(), "{name} at t = {}", s.t);
                let e = nhlab::formulations::e_vector(&mut fresh, s.t, &s.q, &s.v).and_then(Result::ok);
                assert_eq!(s.e_vector, e.map(|e| e.values.as_slice().to_vec()), "{name} at t = {}", s.t);
                with_e += usize::from(s.e_vector.is_some());
            }
            if name != "pendulum-cartesian" {
                assert_eq!(with_e, samples.len(), "{name}: every sample has its E-vector");
            }
        }
    }
}

/// Many free velocities are counted, not all listed (a 200-coordinate model's warning
/// named 200 velocities and 200 values); up to eight are listed.
#[test]
fn many_free_velocities_are_counted_not_listed() {
    let warning = |n: usize, given: &str| {
        let q: Vec<String> = (0..n).map(|i| format!("q{i}")).collect();
        let text = format!(
            "format = \"nhlab/1\"\ntitle = \"free\"\ncoordinates = [{}]\nkinetic = \"{}\"\n[[constraints]]\nexpr = \"q0' - q1' - q2'\"\n[initial]\nq = {{ {} }}\nv = {{ {given} }}\n",
            q.iter().map(|c| format!("\"{c}\"")).collect::<Vec<_>>().join(", "),
            q.iter().map(|c| format!("{c}'^2")).collect::<Vec<_>>().join(" + "),
            q.iter().map(|c| format!("{c} = 0")).collect::<Vec<_>>().join(", "),
        );
        let (scenario, map) = nhlab::scenario::load_toml(&text).unwrap();
        let (model, mut numeric, _) = nhlab_tests::scenarios::build(&scenario, &map);
        let (_, warnings) = initial_state_with_warnings(&model, &mut numeric, &map).unwrap();
        warnings[0].message.clone()
    };
    assert_eq!(
        warning(200, "q0 = 0"),
        "q1', q2', q3', q4', q5', q6', … (199 in all) are not fixed by the constraints; took the minimum-norm values all 0 — give them to choose others"
    );
    let some = warning(200, "q0 = 1");
    assert!(
        some.contains(
            "took the minimum-norm values q1' = 0.5, q2' = 0.5, q3' = 0, q4' = 0, q5' = 0, q6' = 0, … (199 in all) —"
        ),
        "{some}"
    );
    let few = warning(9, "q0 = 0");
    assert!(few.starts_with("q1', q2', q3', q4', q5', q6', q7', q8' are not fixed"), "{few}");
}
