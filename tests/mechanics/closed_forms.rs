//! Systems with exact solutions or published results.

use nhlab::formulations::{accelerations, Method};
use nhlab::simulation::{Settings, Simulation};
use nhlab_tests::scenarios::load;

fn settings(run: &nhlab::scenario::RunSpec, method: Method) -> Settings {
    let mut s = Settings::from_scenario(run, method);
    s.rtol = 1e-12;
    s.atol = 1e-13;
    s
}

/// Knife edge on an incline (paper 004 example 1): at rest with spin ω,
/// `φ = ωt`, `x = (g sin α / 2ω²) sin²ωt`, `y = (g sin α / 2ω²)(ωt − ½ sin 2ωt)`.
#[test]
fn knife_edge_follows_the_closed_form_to_1e_8() {
    let (model, numeric, state) = load("knife-edge-incline");
    let p = |name: &str| model.scenario.parameters[name];
    let (g, alpha, omega) = (p("g"), p("alpha"), state.v[2]);
    let c = g * alpha.sin() / (2.0 * omega * omega);
    for method in [Method::Lagrange, Method::UdwadiaKalaba, Method::Gauss, Method::Euler] {
        let mut sim = Simulation::new(numeric.clone(), settings(&model.scenario.run, method), &state).unwrap();
        sim.advance_sampling(&[2.5, 5.0, 10.0]).unwrap();
        for s in sim.samples().iter().skip(1) {
            let wt = omega * s.t;
            let want = [c * wt.sin().powi(2), c * (wt - 0.5 * (2.0 * wt).sin()), wt];
            for (k, (got, want)) in s.q.iter().zip(want).enumerate() {
                assert!((got - want).abs() < 1e-8, "{}: q{k}({}) = {got} vs {want}", method.id(), s.t);
            }
        }
    }
}

/// Chaplygin sleigh: `u' = aω²`, `(I + ma²)ω' = −mauω`, and energy is conserved.
#[test]
fn chaplygin_sleigh_obeys_its_reduced_equations_and_keeps_its_energy() {
    let (model, mut numeric, state) = load("chaplygin-sleigh");
    let p = |name: &str| model.scenario.parameters[name];
    let (m, a, inertia) = (p("m"), p("a"), p("I"));
    let mut sim = Simulation::new(numeric.clone(), settings(&model.scenario.run, Method::Lagrange), &state).unwrap();
    sim.advance_to(20.0).unwrap();
    let e0 = sim.samples().at(0).energy;
    for s in sim.samples().iter().step_by(7) {
        assert!((s.energy - e0).abs() < 1e-9, "energy drifts: {} vs {e0} at t = {}", s.energy, s.t);
        let phi = s.q[2];
        let (u, omega) = (s.v[0] * phi.cos() + s.v[1] * phi.sin(), s.v[2]);
        let sol = accelerations(Method::Lagrange, &mut numeric, s.t, s.q, s.v).unwrap();
        let qdd = &sol.accelerations;
        // u' = x''cos φ + y''sin φ + ω(−x' sin φ + y' cos φ), the last term zero on the constraint.
        let u_dot = qdd[0] * phi.cos() + qdd[1] * phi.sin() + omega * (-s.v[0] * phi.sin() + s.v[1] * phi.cos());
        assert!((u_dot - a * omega * omega).abs() < 1e-9, "u' = {u_dot} vs aω² = {}", a * omega * omega);
        let lhs = (inertia + m * a * a) * qdd[2];
        assert!((lhs + m * a * u * omega).abs() < 1e-9, "(I + ma²)ω' = {lhs} vs −mauω = {}", -m * a * u * omega);
    }
    // Every spin dies out: ω → 0 and the sleigh slides straight on.
    let last = sim.samples().last().unwrap();
    assert!(last.v[2].abs() < 0.1 * state.v[2].abs(), "ω(20) = {}", last.v[2]);
}

/// A ball rolling on a turntable: its centre circles at rate 2Ω/7.
#[test]
fn ball_on_turntable_circles_at_two_sevenths() {
    let (model, numeric, state) = load("ball-on-turntable");
    let omega = model.scenario.parameters["Omega"];
    let rate = 2.0 * omega / 7.0;
    // The ball's centre moves as r = c + ρ e^{i rate t}, so v = i rate (r − c) and
    // c = r0 + i v0 / rate.
    let (x0, y0, vx0, vy0) = (state.q[0], state.q[1], state.v[0], state.v[1]);
    let (cx, cy) = (x0 - vy0 / rate, y0 + vx0 / rate);
    let period = 2.0 * std::f64::consts::PI / rate;
    let times: Vec<f64> = (1..=8).map(|k| k as f64 * period / 8.0).collect();
    for method in [Method::Lagrange, Method::UdwadiaKalaba, Method::Gauss] {
        let mut sim = Simulation::new(numeric.clone(), settings(&model.scenario.run, method), &state).unwrap();
        sim.advance_sampling(&times).unwrap();
        for s in sim.samples().iter().skip(1) {
            let angle = rate * s.t;
            let (rx, ry) = (x0 - cx, y0 - cy);
            let want = (cx + rx * angle.cos() - ry * angle.sin(), cy + rx * angle.sin() + ry * angle.cos());
            assert!(
                (s.q[0] - want.0).abs() < 1e-7 && (s.q[1] - want.1).abs() < 1e-7,
                "{}: {:?} vs {want:?} at t = {}",
                method.id(),
                (s.q[0], s.q[1]),
                s.t
            );
        }
    }
}

/// Meshchersky: `m x'' = ṁ(u − x')` with `m = m0 − ct`, `u = x' − w` gives
/// Tsiolkovsky's `x' = w ln(m0/(m0 − ct))`, `x = w[t − (m0 − ct)/c · ln(m0/(m0 − ct))]`.
#[test]
fn variable_mass_point_obeys_meshchersky() {
    let (model, numeric, state) = load("rocket-meshchersky");
    let p = |name: &str| model.scenario.parameters[name];
    let (m0, c, w) = (p("m0"), p("c"), p("w"));
    let mut sim = Simulation::new(numeric, settings(&model.scenario.run, Method::Lagrange), &state).unwrap();
    sim.advance_sampling(&[1.0, 3.0, 5.0]).unwrap();
    for s in sim.samples().iter().skip(1) {
        let mass = m0 - c * s.t;
        let log = (m0 / mass).ln();
        let (x, vx) = (w * (s.t - mass / c * log), w * log);
        assert!((s.v[0] - vx).abs() < 1e-9, "x'({}) = {} vs {vx}", s.t, s.v[0]);
        assert!((s.q[0] - x).abs() < 1e-9, "x({}) = {} vs {x}", s.t, s.q[0]);
        assert!((s.v[1] - 0.5).abs() < 1e-12, "no reactive force sideways");
    }
}

/// Appell–Hamel: horizontal acceleration `gk/(1 + k²)` along the path, for
/// Chetaev's model (lagrange) and, the constraint being homogeneous of degree one,
/// for the Euler condition too.
#[test]
fn appell_hamel_accelerates_at_gk_over_1_plus_k2() {
    let (model, mut numeric, state) = load("appell-hamel");
    let p = |name: &str| model.scenario.parameters[name];
    let (g, k) = (p("g"), p("k"));
    let want = g * k / (1.0 + k * k);
    for method in [Method::Lagrange, Method::Euler] {
        let sol = accelerations(method, &mut numeric, state.t, &state.q, &state.v).unwrap();
        let a = &sol.accelerations;
        let speed = state.v[0].hypot(state.v[1]);
        let along = (a[0] * state.v[0] + a[1] * state.v[1]) / speed;
        let across = (a[1] * state.v[0] - a[0] * state.v[1]) / speed;
        assert!((along - want).abs() < 1e-12, "{}: {along} vs {want}", method.id());
        assert!(across.abs() < 1e-12);
        // And z'' keeps the constraint: z'' = −k d|v_h|/dt.
        assert!((a[2] + k * along).abs() < 1e-12);
    }
    let mut sim = Simulation::new(numeric, settings(&model.scenario.run, Method::Lagrange), &state).unwrap();
    sim.advance_sampling(&[2.0]).unwrap();
    let s = &sim.samples().at(1);
    let speed = s.v[0].hypot(s.v[1]);
    assert!((speed - (1.0 + want * 2.0)).abs() < 1e-9, "horizontal speed grows linearly: {speed}");
}

/// Cartesian pendulum: energy conserved, the rod's length kept (drift is tiny with
/// tight tolerances), and projection removes what drift there is.
#[test]
fn pendulum_keeps_its_energy_and_its_rod() {
    let (model, numeric, state) = load("pendulum-cartesian");
    for method in [Method::Lagrange, Method::UdwadiaKalaba, Method::Gauss] {
        let mut sim = Simulation::new(numeric.clone(), settings(&model.scenario.run, method), &state).unwrap();
        sim.advance_to(10.0).unwrap();
        let e0 = sim.samples().at(0).energy;
        for s in sim.samples() {
            assert!((s.energy - e0).abs() < 1e-8, "{}: energy {} vs {e0}", method.id(), s.energy);
            assert!((s.q[0].hypot(s.q[1]) - 1.0).abs() < 1e-8, "{}: rod length {}", method.id(), s.q[0].hypot(s.q[1]));
        }
    }
}

/// Mass gained or lost at zero relative velocity (u = ṙ, the default) exerts no
/// force: Meshchersky gives r̈ = 0 however the mass varies — with position (the
/// mass-variation term J = −½|ṙ|²∂m/∂q at work) or with velocity (J's d/dt part,
/// which brings q̈ into the mass matrix).
#[test]
fn mass_varying_with_position_or_velocity_exerts_no_force_at_zero_relative_velocity() {
    for mass in ["2 + x^2 + sin(y)", "1 + x'^2 + y'^2/2", "3 + t*x' - x*y'/2"] {
        let mut s = nhlab::scenario::Scenario {
            format: "nhlab/1".into(),
            title: "point of varying mass".into(),
            coordinates: vec!["x".into(), "y".into()],
            particles: vec![nhlab::scenario::Particle {
                mass: mass.into(),
                position: vec!["x".into(), "y".into()],
                ejecta_velocity: None,
            }],
            ..Default::default()
        };
        s.initial.q.insert("x".into(), 0.3);
        s.initial.q.insert("y".into(), -0.2);
        let (_, mut numeric, _) = nhlab_tests::scenarios::build(&s, &nhlab::scenario::SourceMap::none());
        for (q, v) in [([0.3, -0.2], [0.7, -0.4]), ([1.1, 0.5], [-0.2, 0.9])] {
            let a = accelerations(Method::Lagrange, &mut numeric, 0.5, &q, &v).unwrap().accelerations;
            assert!(a.amax() < 1e-12, "m = {mass}: r'' = {a}");
        }
    }
}

/// A constrained point whose mass depends on its velocity: the model builds and runs
/// (Hamel's embedding is declined with a reason; the other methods work).
#[test]
fn velocity_dependent_mass_with_a_constraint_runs_and_declines_hamel() {
    let mut s = nhlab::scenario::Scenario {
        format: "nhlab/1".into(),
        title: "constrained point of velocity-dependent mass".into(),
        coordinates: vec!["x".into(), "y".into()],
        particles: vec![nhlab::scenario::Particle {
            mass: "1 + x'^2".into(),
            position: vec!["x".into(), "y".into()],
            ejecta_velocity: None,
        }],
        constraints: vec![nhlab::scenario::ConstraintSpec { name: None, expr: "y' - x'*x".into() }],
        ..Default::default()
    };
    s.initial.q.insert("x".into(), 0.5);
    s.initial.q.insert("y".into(), 0.0);
    s.initial.v.insert("x".into(), 1.0);
    let (model, mut numeric, state) = nhlab_tests::scenarios::build(&s, &nhlab::scenario::SourceMap::none());
    assert!(model.hamel.as_ref().unwrap_err().to_string().contains("masses depend on the velocities"));
    let l = accelerations(Method::Lagrange, &mut numeric, 0.0, &state.q, &state.v).unwrap().accelerations;
    let v = accelerations(Method::Voronets, &mut numeric, 0.0, &state.q, &state.v).unwrap().accelerations;
    assert!((&l - &v).amax() < 1e-12, "{l} vs {v}");
}
