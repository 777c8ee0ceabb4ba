//! Bodies in turning frames against Newton–Euler: a ball spun along a turntable's
//! axes, a norm that is a cosine in disguise, Suslov's body.

use nhlab::formulations::{accelerations, Method};
use nhlab::mechanics::NumericModel;
use nhlab_tests::random::Rng;

use crate::bodies::{model, state, DISK, TURNTABLE_FROM_BODIES};

/// The gallery's turntable ball with its spin written along the table's axes
/// (`parent = "table"`): `ω = Ω e_z + R_z(Ωt) w`, `w = (θx', θy', θz')`.
fn ball_spun_along_the_table() -> String {
    TURNTABLE_FROM_BODIES
        .replace("[frames.ball]\nangular_velocity", "[frames.ball]\nparent = \"table\"\nangular_velocity")
}

/// Pseudo-coordinates along a turning parent's axes: Newton–Euler for the ball
/// (`m v̇ = F`, `I ω̇ = −R e_z × F`, the contact's velocity equal to the table's
/// `Ω e_z × r`) gives `v̇ = (2Ω/7) e_z × v`, `ω̇ = (5Ω/7R)(v_x, v_y, 0)`, and so
/// `ẇ = R_zᵀ(ω̇ − Ω e_z × R_z w)`. Lagrange's equations of `T(w)` alone miss the
/// term `I ω·(Ω e_z × R_z e_i)` and get a different `ẇ`.
#[test]
fn spin_along_a_turning_parents_axes_obeys_newton_euler() {
    let text = ball_spun_along_the_table();
    let model = model(&text);
    let p = |name: &str| model.scenario.parameters[name];
    let (r, omega) = (p("R"), p("Omega"));
    let mut numeric = NumericModel::new(&model).unwrap();
    let mut rng = Rng::new(17);
    for _ in 0..20 {
        let t = rng.range(0.0, 3.0);
        let q: Vec<f64> = (0..5).map(|_| rng.range(-1.5, 1.5)).collect();
        let w = [rng.range(-3.0, 3.0), rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)];
        let (c, s) = ((omega * t).cos(), (omega * t).sin());
        let turned = |u: [f64; 3]| [c * u[0] - s * u[1], s * u[0] + c * u[1], u[2]];
        let back = |u: [f64; 3]| [c * u[0] + s * u[1], -s * u[0] + c * u[1], u[2]];
        let rw = turned(w);
        let spin = [rw[0], rw[1], rw[2] + omega];
        // Rolling: v + ω × (−R e_z) = Ω e_z × r, so v = Ω e_z × r + R ω × e_z.
        let vx = -omega * q[1] + r * spin[1];
        let vy = omega * q[0] - r * spin[0];
        let v = vec![vx, vy, w[0], w[1], w[2]];
        let a = accelerations(Method::Lagrange, &mut numeric, t, &q, &v).unwrap().accelerations;
        let k = 2.0 * omega / 7.0;
        let omega_dot = [5.0 * omega / (7.0 * r) * vx, 5.0 * omega / (7.0 * r) * vy, 0.0];
        let w_dot = back([omega_dot[0] + omega * rw[1], omega_dot[1] - omega * rw[0], omega_dot[2]]);
        let want = [-k * vy, k * vx, w_dot[0], w_dot[1], w_dot[2]];
        for (i, (got, want)) in a.iter().zip(want).enumerate() {
            assert!((got - want).abs() < 1e-9 * (1.0 + want.abs()), "q̈{i} = {got}, Newton–Euler {want} at t = {t}");
        }
    }
}

/// The same ball, run: its centre circles at `2Ω/7` under every method (it ran
/// off before the pseudo-coordinates' terms were derived).
#[test]
fn a_ball_spun_along_the_turntables_axes_circles_at_two_sevenths() {
    let text = ball_spun_along_the_table();
    let (model, numeric, state) = nhlab_tests::scenarios::build_text(&text);
    let rate = 2.0 * model.scenario.parameters["Omega"] / 7.0;
    let (x0, y0, vx0, vy0) = (state.q[0], state.q[1], state.v[0], state.v[1]);
    let (cx, cy) = (x0 - vy0 / rate, y0 + vx0 / rate);
    let times: Vec<f64> = (1..=4).map(|k| k as f64 * std::f64::consts::PI / rate / 2.0).collect();
    for method in [Method::Lagrange, Method::UdwadiaKalaba, Method::Gauss] {
        let mut settings = nhlab::simulation::Settings::from_scenario(&model.scenario.run, method);
        (settings.rtol, settings.atol) = (1e-12, 1e-13);
        let mut sim = nhlab::simulation::Simulation::new(numeric.clone(), settings, &state).unwrap();
        sim.advance_sampling(&times).unwrap();
        for s in sim.samples().iter().skip(1) {
            let angle = rate * s.t;
            let (rx, ry) = (x0 - cx, y0 - cy);
            let want = (cx + rx * angle.cos() - ry * angle.sin(), cy + rx * angle.sin() + ry * angle.cos());
            let off = (s.q[0] - want.0).hypot(s.q[1] - want.1);
            assert!(off < 1e-7, "{}: centre {:?} vs {want:?} at t = {}", method.id(), (s.q[0], s.q[1]), s.t);
        }
    }
}

/// A stranger's rolling disk, its centre put above the contact by
/// `unit(N.z − dot(N.z, lean.y)·lean.y)`: the norm `sqrt(sin²θ cos²θ + sin⁴θ −
/// 2 sin²θ + 1)` is `|cos θ|`, which is `cos θ` on every motion from the initial
/// lean (it vanishes only where the disk lies flat, where `unit` is undefined). So
/// the constraints are the gallery disk's, `x' − r φ' cos ψ` (they carried the
/// square root before), and so is the motion at random states.
#[test]
fn a_norm_that_is_a_cosine_in_disguise_prints_as_one() {
    let stranger = model(include_str!("../fixtures/disk-by-unit.toml"));
    let gallery = model(DISK);
    for (c, d) in stranger.constraints.iter().zip(&gallery.constraints) {
        let (text, want) = (stranger.graph.to_text(c.velocity_residual), gallery.graph.to_text(d.velocity_residual));
        assert_eq!(text, want, "{}", c.name);
    }
    // Printed for reading, a square root of a cosine squared is its absolute value.
    let mut g = nhlab::expr::ExprGraph::new();
    g.declare_coordinate("theta").unwrap();
    let e = g.parse("sqrt(sin(theta)^2*cos(theta)^2 + sin(theta)^4 - 2*sin(theta)^2 + 1)").unwrap();
    let tidy = g.tidy(e);
    assert_eq!(g.to_text(tidy), "abs(cos(theta))");
    let mut numeric = (NumericModel::new(&gallery).unwrap(), NumericModel::new(&stranger).unwrap());
    let mut rng = Rng::new(29);
    for _ in 0..10 {
        let (t, mut q, mut v) = state(&mut rng, 5);
        q[3] = rng.range(-1.2, 1.2);
        // On the constraints: x' = r φ' cos ψ, y' = r φ' sin ψ.
        let r = gallery.scenario.parameters["r"];
        v[0] = r * v[4] * q[2].cos();
        v[1] = r * v[4] * q[2].sin();
        let a = accelerations(Method::Lagrange, &mut numeric.0, t, &q, &v).unwrap().accelerations;
        let b = accelerations(Method::Lagrange, &mut numeric.1, t, &q, &v).unwrap().accelerations;
        for (x, y) in a.iter().zip(b.iter()) {
            assert!((x - y).abs() < 1e-9 * (1.0 + x.abs()), "q̈: {a} vs {b}");
        }
    }
}

/// Suslov's problem with the constraint along a principal axis: a body about a
/// fixed point, `ω₃ = 0` in its own axes (`ψ' cos θ + φ' = 0` in z-x-z angles).
/// Euler's equations with the reaction along `e₃` alone give `A ω̇₁ = (B − C) ω₂ω₃ =
/// 0` and `B ω̇₂ = (C − A) ω₃ω₁ = 0`: `ω₁`, `ω₂` stay constant. The printed equations
/// have no `ψ`, which drops out of the physics (they kept it, through `Rᵀω` with
/// `sin²ψ + cos²ψ` never collapsed in the factored forces).
#[test]
fn suslovs_body_keeps_its_rates_and_its_equations_have_no_precession_angle() {
    let text = include_str!("../fixtures/suslovs-problem.toml");
    let (model, mut numeric) = nhlab_tests::scenarios::compiled(text);
    for method in [Method::Lagrange, Method::Voronets] {
        let d = nhlab::derivation::derive(&model, method).unwrap();
        for e in &d.equations {
            let printed = d.text(e);
            assert!(!printed.contains("(psi)"), "{}: {printed}", method.id());
        }
    }
    let state = nhlab::simulation::initial_state(&model, &mut numeric, &nhlab::scenario::SourceMap::none()).unwrap();
    let settings = nhlab::simulation::Settings::from_scenario(&model.scenario.run, Method::Lagrange);
    let mut sim = nhlab::simulation::Simulation::new(numeric, settings, &state).unwrap();
    sim.advance_to(5.0).unwrap();
    let rates = |q: &[f64], v: &[f64]| {
        let (theta, phi) = (q[1], q[2]);
        (
            v[1] * phi.cos() + v[0] * theta.sin() * phi.sin(),
            v[0] * theta.sin() * phi.cos() - v[1] * phi.sin(),
            v[0] * theta.cos() + v[2],
        )
    };
    let first = sim.samples().at(0);
    let (w1, w2, _) = rates(first.q, first.v);
    let mut samples = 0;
    for s in sim.samples().iter() {
        let (a, b, c) = rates(s.q, s.v);
        assert!((a - w1).abs() < 1e-8 && (b - w2).abs() < 1e-8 && c.abs() < 1e-9, "t = {}: {a}, {b}, {c}", s.t);
        samples += 1;
    }
    assert!(samples > 20 && sim.samples().last().unwrap().t == 5.0);
}
