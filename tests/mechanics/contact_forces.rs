//! Contact forces and the validity of rolling (`[[rolling]] friction`, `[run]
//! on_invalid`), against closed forms, hand-written Newton–Euler balances and
//! the benchmark bicycle's weight distribution.

use nalgebra::{Matrix3, SMatrix, SVector, Vector3};
use nhlab::formulations::{accelerations, applicability, Method};
use nhlab::simulation::{Condition, Settings, Simulation};
use nhlab_tests::scenarios::{build_text, load, text};

/// `text` with its `[initial]` table replaced.
fn with_initial(text: &str, initial: &str) -> String {
    let start = text.find("[initial]").expect("an [initial] table");
    let end = text[start..].find("\n\n").map_or(text.len(), |k| start + k);
    format!("{}{initial}{}", &text[..start], &text[end..])
}

/// `text` with one `name = …` line of `[parameters]` replaced.
fn with_parameter(text: &str, name: &str, line: &str) -> String {
    let at = text.find(&format!("\n{name} = ")).expect("the parameter") + 1;
    let end = at + text[at..].find('\n').unwrap();
    format!("{}{line}{}", &text[..at], &text[end..])
}

/// The first sample's contact columns (`N`, `Ft1`, `Ft2`, `Ft`, `mu_needed`, `mu`
/// per contact) under `method`.
fn forces_at_start(text: &str, method: Method) -> Vec<f64> {
    run_under(text, method).samples().at(0).contact_forces.to_vec()
}

/// `text`'s run under `method` with the scenario's own settings, from its initial
/// state, not yet stepped.
fn run_under(text: &str, method: Method) -> Simulation {
    let (model, numeric, state) = build_text(text);
    Simulation::new(numeric, Settings::from_scenario(&model.scenario.run, method), &state).unwrap()
}

fn close(got: f64, want: f64, tolerance: f64) -> bool {
    (got - want).abs() <= tolerance * want.abs().max(1.0)
}

/// A solid ball rolling down an incline of angle α: `N = m g cos α`, friction
/// `(2/7) m g sin α` up the slope, so rolling needs `μ ≥ (2/7) tan α`; for every
/// method with multipliers, along the motion.
#[test]
fn a_ball_on_an_incline_is_pushed_and_held_as_the_closed_form_says() {
    let base = text("ball-on-incline");
    for alpha in [0.1f64, 0.5, 0.9, 1.2] {
        let file = with_parameter(&base, "alpha", &format!("alpha = {alpha}"));
        let (model, numeric, state) = build_text(&file);
        let [m, g] = ["m", "g"].map(|p| model.scenario.parameters[p]);
        let (normal, friction) = (m * g * alpha.cos(), 2.0 / 7.0 * m * g * alpha.sin());
        for method in [Method::Lagrange, Method::UdwadiaKalaba, Method::Gauss, Method::Euler] {
            let mut sim =
                Simulation::new(numeric.clone(), Settings::from_scenario(&model.scenario.run, method), &state).unwrap();
            sim.advance_to(1.0).unwrap();
            // Exact at the start; along the motion, to the integration's accuracy
            // (the states leave the constraints by ~1e-10 without drift control).
            for s in sim.samples() {
                let c = s.contact_forces;
                let tolerance = if s.t == 0.0 { 1e-10 } else { 1e-8 };
                let close = |got: f64, want: f64, _: f64| close(got, want, tolerance);
                assert!(close(c[0], normal, 1e-10), "{} α = {alpha}: N = {} vs {normal}", method.id(), c[0]);
                // Along `down` (e₁): friction holds the ball back.
                assert!(close(c[1], -friction, 1e-10), "{}: F_t1 = {} vs {}", method.id(), c[1], -friction);
                assert!(c[2].abs() < tolerance, "{}: no sideways friction, found {}", method.id(), c[2]);
                assert!(close(c[3], friction, 1e-10) && close(c[4], friction / normal, 1e-10), "{c:?}");
                assert_eq!(c[5], 0.2, "the declared coefficient");
            }
            // It slips exactly where the closed form says: μ = 0.2 against (2/7) tan α.
            let slips = 2.0 / 7.0 * alpha.tan() > 0.2;
            let events = sim.validity_events();
            assert_eq!(events.len(), usize::from(slips), "{} α = {alpha}: {events:?}", method.id());
            if slips {
                assert_eq!((events[0].condition, events[0].start, events[0].end), (Condition::Slip, 0.0, None));
            }
        }
    }
}

/// The friction coefficient falling in time, `μ = μ₀ − c t`: the ball starts to
/// slip at `t* = (μ₀ − (2/7) tan α)/c`, located to 1e-9; with `on_invalid = "stop"`
/// the run ends there, its last sample at `t*`.
#[test]
fn the_instant_a_ball_starts_to_slip_is_located_to_1e_9() {
    let base = text("ball-on-incline").replace("friction = \"mu\"", "friction = \"mu - c*t\"");
    let base = with_parameter(&base, "mu", "mu = 0.2\nc = 0.037");
    let alpha: f64 = 0.5;
    let slip = (0.2 - 2.0 / 7.0 * alpha.tan()) / 0.037;
    assert!(slip > 0.5 && slip < 2.0, "inside the run: {slip}");
    for integrator in ["dopri5", "rk4"] {
        let file = base.replace("rtol = 1e-10", &format!("rtol = 1e-10\nintegrator = \"{integrator}\"\ndt = 0.01"));
        let (model, numeric, state) = build_text(&file);
        let mut sim =
            Simulation::new(numeric.clone(), Settings::from_scenario(&model.scenario.run, Method::Lagrange), &state)
                .unwrap();
        sim.advance_to(2.0).unwrap();
        let events = sim.validity_events();
        assert_eq!(events.len(), 1, "{integrator}: {events:?}");
        assert_eq!(events[0].condition, Condition::Slip);
        assert!((events[0].start - slip).abs() < 1e-9, "{integrator}: {} vs {slip}", events[0].start);
        assert_eq!(events[0].end, None);
        // Marked, the run goes on to its end.
        assert_eq!(sim.time(), 2.0);
        let stop = file.replace("[run]\n", "[run]\non_invalid = \"stop\"\n");
        let mut sim = run_under(&stop, Method::Lagrange);
        let e = sim.advance_to(2.0).unwrap_err();
        let said = nhlab::simulation::design_end(&e, None).expect("an end by design");
        assert!(said.well_formed() && said.id == "contact.slips.stop", "{said:?}");
        // Information for every front end, not a failure.
        assert_eq!(nhlab::simulation::StopReason::of(&e, None), nhlab::simulation::StopReason::EndedByDesign(said));
        let message = nhlab::simulation::design_end_message(&e, None).expect("an end by design");
        assert!(message.contains("`ball on incline`") && message.contains("slip"), "{message}");
        let last = sim.samples().last().unwrap();
        assert!((last.t - slip).abs() < 1e-9 && sim.time() == last.t, "{integrator}: ends at {}", last.t);
        // One story: the stop's message, and no span "from t* to the run's end" beside it.
        assert_eq!(sim.validity_events(), &[], "{integrator}: the stop is said once");
        assert!(close(last.contact_forces[4], 0.2 - 0.037 * last.t, 1e-8), "needs exactly μ(t*) there");
    }
}

/// Gravity tilting in time over a flat plane, `α(t) = 0.3 + 0.2 t` (the incline's
/// angle, without turning the plane): `N = m g cos α(t)` along the motion, and the
/// ball starts to slip at `t* = (atan(3.5 μ) − 0.3)/0.2`, located to 1e-9.
#[test]
fn the_instant_a_ball_starts_to_slip_as_its_slope_steepens_is_located_to_1e_9() {
    let base = with_parameter(&text("ball-on-incline"), "alpha", "alpha = 0");
    let file = base.replace(
        "[gravity]\nmagnitude = \"g\"",
        "[gravity]\nmagnitude = \"g\"\ndirection = [\"sin(0.3 + 0.2*t)\", \"0\", \"-cos(0.3 + 0.2*t)\"]",
    );
    assert_ne!(file, base);
    let slip = ((3.5f64 * 0.2).atan() - 0.3) / 0.2;
    let mut sim = run_under(&file, Method::Lagrange);
    sim.advance_to(2.0).unwrap();
    for s in sim.samples() {
        let alpha = 0.3 + 0.2 * s.t;
        assert!(close(s.contact_forces[0], 9.81 * alpha.cos(), 1e-8), "N({}) = {}", s.t, s.contact_forces[0]);
        assert!(close(s.contact_forces[4], 2.0 / 7.0 * alpha.tan(), 1e-8), "needs (2/7) tan α");
    }
    let events = sim.validity_events();
    assert_eq!(events.len(), 1, "{events:?}");
    assert!((events[0].start - slip).abs() < 1e-9, "{} vs {slip}", events[0].start);
}

/// A friction coefficient that rises and falls makes the contact slip and grip in
/// turn: every span is found, closed where it ends, and the search stays bounded.
/// (The conditions are checked at each step's end: RK4's steps of 0.01 see every
/// span; Dormand–Prince's, long for this uniform motion, would step over some.)
#[test]
fn slipping_and_gripping_in_turn_gives_one_closed_span_each_time() {
    let base = text("ball-on-incline").replace("friction = \"mu\"", "friction = \"mu + 0.05*sin(20*t)\"");
    let base = base.replace("rtol = 1e-10", "integrator = \"rk4\"\ndt = 0.01");
    let mut sim = run_under(&base, Method::Lagrange);
    sim.advance_to(2.0).unwrap();
    // Needs 0.15609; has 0.2 + 0.05 sin 20t, less where sin 20t < −0.8782.
    let threshold = ((2.0 / 7.0 * 0.5f64.tan() - 0.2) / 0.05).asin();
    let mut expected = Vec::new();
    for k in 0..8 {
        let turn = 2.0 * std::f64::consts::PI * k as f64;
        let (start, end) =
            ((turn + std::f64::consts::PI - threshold) / 20.0, (turn + 2.0 * std::f64::consts::PI + threshold) / 20.0);
        if start < 2.0 {
            expected.push((start, end));
        }
    }
    let events = sim.validity_events();
    assert_eq!(events.len(), expected.len(), "{events:?}");
    for (e, (start, end)) in events.iter().zip(expected) {
        assert!((e.start - start).abs() < 1e-9, "{} vs {start}", e.start);
        match e.end {
            Some(got) => assert!((got - end).abs() < 1e-9, "{got} vs {end}"),
            None => assert!(end > 2.0, "open only at the run's end"),
        }
    }
}

/// A thin disk in steady circular rolling at lean θ and turning rate Ω: with
/// `u = −(m g r − I_d Ω² cos θ) sin θ / ((I_a + m r²) Ω cos θ)` (Euler's equations
/// about the centre, derived by hand) and spin `φ' = u − Ω sin θ`, the centre
/// moves on a circle at speed `V = r u`; the ground pushes with `m g` and holds it
/// on the circle with the horizontal force `m Ω V`.
#[test]
fn a_disk_in_steady_circular_rolling_is_pushed_by_its_weight_and_turned_by_friction() {
    let base = text("rolling-disk");
    let (m, r, g) = (1.0, 0.3, 9.81);
    let (axle, diameter) = (m * r * r / 2.0, m * r * r / 4.0);
    for (theta, omega) in [(0.2f64, 3.0f64), (-0.4, 5.0), (0.6, -2.0), (0.1, 8.0)] {
        let u = -(m * g * r - diameter * omega * omega * theta.cos()) * theta.sin()
            / ((axle + m * r * r) * omega * theta.cos());
        let spin = u - omega * theta.sin();
        let initial = format!(
            "[initial]\nq = {{ x = 0, y = 0, psi = 0, theta = {theta}, phi = 0 }}\nv = {{ x = {}, y = 0, psi = {omega}, theta = 0, phi = {spin} }}",
            r * spin
        );
        let file = with_initial(&base, &initial);
        let (model, mut numeric, state) = build_text(&file);
        let a = accelerations(Method::Lagrange, &mut numeric, state.t, &state.q, &state.v).unwrap().accelerations;
        assert!(a[3].abs() < 1e-10, "θ = {theta}, Ω = {omega}: steady, θ'' = {}", a[3]);
        let speed = r * u;
        for method in [Method::Lagrange, Method::UdwadiaKalaba, Method::Gauss, Method::Euler] {
            let c = forces_at_start(&file, method);
            assert!(close(c[0], m * g, 1e-10), "{}: N = {} vs m g", method.id(), c[0]);
            // Heading along x: the centre's acceleration Ω V is along y.
            assert!(c[1].abs() < 1e-10 && close(c[2], m * omega * speed, 1e-10), "{}: {c:?}", method.id());
            assert!(close(c[4], (omega * speed).abs() / g, 1e-10));
        }
        let _ = model;
    }
}

/// The benchmark bicycle standing still and running straight at constant speed:
/// the ground carries its weight, shared by the moments about the rear contact
/// (wheelbase 1.02; rear wheel at 0 with 2 kg, rear frame at 0.3 with 85, fork at
/// 0.9 with 4, front wheel at 1.02 with 3), with no friction.
#[test]
fn the_benchmark_bicycle_rests_on_its_wheels_as_its_weight_distribution_says() {
    let base = text("whipple-bicycle");
    let g = 9.81;
    let front = g * (85.0 * 0.3 + 4.0 * 0.9 + 3.0 * 1.02) / 1.02;
    let rear = g * 94.0 - front;
    for rate in [0.0, 16.666666666666668, 30.0] {
        let initial = format!(
            "[initial]\nq = {{ x = 0, y = 0, psi = 0, phi = 0, theta = 0, delta = 0, rear = 0, front = 0 }}\nv = {{ phi = 0, delta = 0, rear = {rate} }}"
        );
        let file = with_initial(&base, &initial);
        for method in [Method::Lagrange, Method::UdwadiaKalaba, Method::Gauss, Method::Euler] {
            let c = forces_at_start(&file, method);
            assert!(close(c[0], rear, 1e-10) && close(c[6], front, 1e-10), "{}: N = {}, {}", method.id(), c[0], c[6]);
            for k in [1, 2, 7, 8] {
                assert!(c[k].abs() < 1e-9, "{}: no friction in straight running, {c:?}", method.id());
            }
        }
    }
}

/// The Chaplygin sphere at random states: the Newton–Euler equations written here
/// by hand — `m a = f + m g`, `I α + ω × I ω = (P − G) × f`, and rolling `a = R α ×
/// ẑ` (the contact is always `R` below the centre) — solved for `a`, `α` and `f`,
/// give the lab's force.
#[test]
fn the_chaplygin_spheres_contact_force_is_newton_eulers() {
    let base = text("chaplygin-sphere");
    let (m, r, g, a, b, c) = (1.0, 0.2, 9.81, 0.012, 0.016, 0.020);
    let rz = |t: f64| Matrix3::new(t.cos(), -t.sin(), 0.0, t.sin(), t.cos(), 0.0, 0.0, 0.0, 1.0);
    let rx = |t: f64| Matrix3::new(1.0, 0.0, 0.0, 0.0, t.cos(), -t.sin(), 0.0, t.sin(), t.cos());
    let mut rng = nhlab_tests::random::Rng::new(7);
    for _ in 0..12 {
        let [psi, theta, phi] = [rng.range(-3.0, 3.0), rng.range(0.3, 2.8), rng.range(-3.0, 3.0)];
        let [dpsi, dtheta, dphi] = [rng.range(-4.0, 4.0), rng.range(-4.0, 4.0), rng.range(-4.0, 4.0)];
        let omega =
            dpsi * Vector3::z() + dtheta * (rz(psi) * Vector3::x()) + dphi * (rz(psi) * rx(theta) * Vector3::z());
        let (dx, dy) = (r * omega.y, -r * omega.x);
        let initial = format!(
            "[initial]\nq = {{ x = 0.1, y = -0.2, psi = {psi}, theta = {theta}, phi = {phi} }}\nv = {{ x = {dx}, y = {dy}, psi = {dpsi}, theta = {dtheta}, phi = {dphi} }}"
        );
        let file = with_initial(&base, &initial);
        let rot = rz(psi) * rx(theta) * rz(phi);
        let inertia = rot * Matrix3::from_diagonal(&Vector3::new(a, b, c)) * rot.transpose();
        // Unknowns: a (0..3), α (3..6), f (6..9).
        let mut lhs = SMatrix::<f64, 9, 9>::zeros();
        let mut rhs = SVector::<f64, 9>::zeros();
        let arm = Vector3::new(0.0, 0.0, -r);
        let skew = |v: Vector3<f64>| Matrix3::new(0.0, -v.z, v.y, v.z, 0.0, -v.x, -v.y, v.x, 0.0);
        for i in 0..3 {
            lhs[(i, i)] = m;
            lhs[(i, 6 + i)] = -1.0;
        }
        rhs[2] = -m * g;
        lhs.fixed_view_mut::<3, 3>(3, 3).copy_from(&inertia);
        lhs.fixed_view_mut::<3, 3>(3, 6).copy_from(&(-skew(arm)));
        rhs.fixed_rows_mut::<3>(3).copy_from(&(-omega.cross(&(inertia * omega))));
        // a − R α × ẑ = 0, with α × ẑ = (α_y, −α_x, 0).
        for i in 0..3 {
            lhs[(6 + i, i)] = 1.0;
        }
        lhs[(6, 4)] = -r;
        lhs[(7, 3)] = r;
        let x = lhs.lu().solve(&rhs).expect("Newton–Euler is regular");
        let f = Vector3::new(x[6], x[7], x[8]);
        for method in [Method::Lagrange, Method::UdwadiaKalaba] {
            let got = forces_at_start(&file, method);
            let want = [f.z, f.x, f.y];
            for (k, w) in want.iter().enumerate() {
                assert!((got[k] - w).abs() < 1e-10 * f.norm(), "{}: {got:?} vs f = {f}", method.id());
            }
        }
    }
}

/// The rattleback at random states: Newton–Euler written here by hand, with the
/// contact moving over the body. With `r = P − G` (from the ellipsoid's geometry:
/// the contact is where its normal points down) and `ṙ` by central differences of
/// `r(q)` along `q̇`, rolling says `a_G + α × r + ω × ṙ = 0`; with `m a_G = f + m g`
/// and `I α + ω × I ω = r × f` it gives `a_G`, `α` and `f`.
#[test]
fn the_rattlebacks_contact_force_is_newton_eulers() {
    let base = text("rattleback");
    let (m, a, b, c, h, ia, ib, ic, d, g) = (1.0, 0.2, 0.03, 0.02, 0.01, 0.0002, 0.0016, 0.0017, -0.00002, 9.81);
    let rz = |t: f64| Matrix3::new(t.cos(), -t.sin(), 0.0, t.sin(), t.cos(), 0.0, 0.0, 0.0, 1.0);
    let rx = |t: f64| Matrix3::new(1.0, 0.0, 0.0, 0.0, t.cos(), -t.sin(), 0.0, t.sin(), t.cos());
    let ry = |t: f64| Matrix3::new(t.cos(), 0.0, t.sin(), 0.0, 1.0, 0.0, -t.sin(), 0.0, t.cos());
    let rotation = |q: &[f64; 3]| rz(q[0]) * rx(q[1]) * ry(q[2]);
    // From the mass centre to the contact, along N.
    let arm = |q: &[f64; 3]| -> Vector3<f64> {
        let rot = rotation(q);
        let u = -(rot.transpose() * Vector3::z());
        let eps = (a * a * u.x * u.x + b * b * u.y * u.y + c * c * u.z * u.z).sqrt();
        rot * Vector3::new(a * a * u.x / eps, b * b * u.y / eps, c * c * u.z / eps + h)
    };
    let mut rng = nhlab_tests::random::Rng::new(11);
    for _ in 0..12 {
        let angles = [rng.range(-3.0, 3.0), rng.range(-0.4, 0.4), rng.range(-0.4, 0.4)];
        let rates = [rng.range(-6.0, 6.0), rng.range(-2.0, 2.0), rng.range(-2.0, 2.0)];
        let rot = rotation(&angles);
        let omega = rates[0] * Vector3::z()
            + rates[1] * (rz(angles[0]) * Vector3::x())
            + rates[2] * (rz(angles[0]) * rx(angles[1]) * Vector3::y());
        let r = arm(&angles);
        let velocity = -omega.cross(&r);
        let initial = format!(
            "[initial]\nq = {{ x = 0.05, y = -0.1, psi = {}, theta = {}, phi = {} }}\nv = {{ x = {}, y = {}, psi = {}, theta = {}, phi = {} }}",
            angles[0], angles[1], angles[2], velocity.x, velocity.y, rates[0], rates[1], rates[2]
        );
        let file = with_initial(&base, &initial);
        let step = 1e-5;
        let moved = |sign: f64| arm(&core::array::from_fn(|k| angles[k] + sign * step * rates[k]));
        let r_rate = (moved(1.0) - moved(-1.0)) / (2.0 * step);
        let inertia = rot * Matrix3::new(ia, -d, 0.0, -d, ib, 0.0, 0.0, 0.0, ic) * rot.transpose();
        let skew = |v: Vector3<f64>| Matrix3::new(0.0, -v.z, v.y, v.z, 0.0, -v.x, -v.y, v.x, 0.0);
        // Unknowns: a (0..3), α (3..6), f (6..9).
        let mut lhs = SMatrix::<f64, 9, 9>::zeros();
        let mut rhs = SVector::<f64, 9>::zeros();
        for i in 0..3 {
            lhs[(i, i)] = m;
            lhs[(i, 6 + i)] = -1.0;
            lhs[(6 + i, i)] = 1.0;
        }
        rhs[2] = -m * g;
        lhs.fixed_view_mut::<3, 3>(3, 3).copy_from(&inertia);
        lhs.fixed_view_mut::<3, 3>(3, 6).copy_from(&(-skew(r)));
        rhs.fixed_rows_mut::<3>(3).copy_from(&(-omega.cross(&(inertia * omega))));
        // a + α × r = −ω × ṙ, with α × r = −[r]× α.
        lhs.fixed_view_mut::<3, 3>(6, 3).copy_from(&(-skew(r)));
        rhs.fixed_rows_mut::<3>(6).copy_from(&(-omega.cross(&r_rate)));
        let x = lhs.lu().solve(&rhs).expect("Newton–Euler is regular");
        let f = Vector3::new(x[6], x[7], x[8]);
        let got = forces_at_start(&file, Method::Lagrange);
        // The ground's normal is N.z, its tangents N.x and N.y.
        let want = [f.z, f.x, f.y];
        for (k, w) in want.iter().enumerate() {
            // Central differences of r: 1e-10 of the weight, not round-off.
            assert!((got[k] - w).abs() < 1e-8 * f.norm(), "{got:?} vs f = {f}");
        }
        assert!((got[0] - m * g).abs() > 1e-3, "a state where the rocking changes the load: N = {}", got[0]);
    }
}

/// Every method with multipliers, Voronets' equations, and Hamel's embedding where
/// it gives the true motion (E = 0) find the same forces: they are found from each
/// method's own accelerations. Where Hamel's embedding is off the true motion, no
/// contact forces produce its accelerations, and none are given.
#[test]
fn every_formulation_reports_the_same_contact_forces_on_the_gallerys_rolling_items() {
    for name in [
        "rolling-disk",
        "chaplygin-sphere",
        "rattleback",
        "ball-in-cone",
        "whipple-bicycle",
        "ball-on-incline",
        "cylinder-on-two-cylinders",
        "ball-on-turntable-bodies",
    ] {
        let (model, numeric, state) = load(name);
        let mut sims: Vec<(Method, Simulation)> = Vec::new();
        for method in
            [Method::Lagrange, Method::UdwadiaKalaba, Method::Gauss, Method::Euler, Method::Hamel, Method::Voronets]
        {
            if applicability(&model, method).is_err() {
                continue;
            }
            let mut settings = Settings::from_scenario(&model.scenario.run, method);
            settings.rtol = 1e-11;
            let mut sim = Simulation::new(numeric.clone(), settings, &state).unwrap();
            sim.advance_sampling(&[0.0, 0.3, 0.6]).ok();
            sims.push((method, sim));
        }
        let reference = sims[0].1.samples().at(0).contact_forces.to_vec();
        assert!(reference.iter().any(|x| x.is_finite() && x.abs() > 1e-3), "{name}: forces found {reference:?}");
        let lagrange_e = sims[0].1.samples().at(0).e_vector.map(|e| e.iter().map(|x| x * x).sum::<f64>().sqrt());
        for (method, sim) in &sims {
            let at_start = sim.samples().at(0).contact_forces;
            // Voronets' equations are the true motion; Hamel's embedding is where E = 0.
            let embedded = *method == Method::Hamel;
            if embedded && lagrange_e.is_some_and(|e| e > 1e-9) {
                // Off the true motion (E ≠ 0): no contact forces produce these
                // accelerations, and none are given.
                assert!(at_start.iter().all(|x| x.is_nan()), "{name} {}: {at_start:?}", method.id());
                continue;
            }
            for (k, (got, want)) in at_start.iter().zip(&reference).enumerate() {
                assert!(
                    (got - want).abs() <= 1e-10 * want.abs().max(1.0) || (got.is_nan() && want.is_nan()),
                    "{name} {}: column {k}: {got} vs {want}",
                    method.id()
                );
            }
            // Along the motion, to the integration's accuracy.
            let reference_later = sims[0].1.samples().last().unwrap();
            let later = sim.samples().last().unwrap();
            if !embedded && later.t == reference_later.t {
                for (got, want) in later.contact_forces.iter().zip(reference_later.contact_forces) {
                    let same = (got - want).abs() <= 1e-7 * want.abs().max(1.0) || (got.is_nan() && want.is_nan());
                    assert!(same, "{name} {}: {got} vs {want}", method.id());
                }
            }
        }
    }
}

/// The problems of a scenario text (loading and building), as `field: message`
/// with line and column.
fn problems(text: &str) -> Vec<String> {
    let (scenario, map) = match nhlab::scenario::load_toml(text) {
        Ok(x) => x,
        Err(p) => return p.0.iter().map(|p| p.to_string()).collect(),
    };
    match nhlab::mechanics::Model::build(&scenario, &map) {
        Ok(_) => map.warnings.iter().map(|w| format!("warning: {w}")).collect(),
        Err(p) => p.0.iter().map(|p| p.to_string()).collect(),
    }
}

/// A negative or non-numeric friction coefficient, one that depends on the state,
/// `friction` on a written constraint and a misspelt `on_invalid`: each said at its
/// place, with the line and column.
#[test]
fn bad_friction_and_on_invalid_are_said_where_they_are_written() {
    let base = text("ball-on-incline");
    let line_of = |text: &str, needle: &str| text[..text.find(needle).unwrap()].lines().count() + 1;
    for (friction, says) in [
        ("\"-0.3\"", "is -0.3 at the start: it must be a number of at least 0"),
        ("\"mu - 0.5\"", "is -0.3 at the start"),
        ("\"muu\"", "`muu`"),
        ("true", "friction"),
        ("\"0.2*s\"", "may depend on the parameters and t only"),
        ("\"0.2*s'\"", "s'"),
    ] {
        let file = base.replace("friction = \"mu\"", &format!("friction = {friction}"));
        let found = problems(&file);
        let line = line_of(&file, "friction = ");
        assert_eq!(found.len(), 1, "{friction}: {found:?}");
        assert!(found[0].contains(says) && found[0].contains(&format!("line {line},")), "{friction}: {found:?}");
        assert!(found[0].contains("rolling[0].friction") || friction == "true", "{friction}: {found:?}");
    }
    let file = base.replace("[run]\n", "[run]\non_invalid = \"stopp\"\n");
    let found = problems(&file);
    assert!(
        found.len() == 1 && found[0].contains("run.on_invalid") && found[0].contains("did you mean `stop`"),
        "{found:?}"
    );
    // On a written constraint it is ignored, with a warning that says where it belongs.
    let sleigh = text("chaplygin-sleigh-bodies").replace("name = \"edge\"", "name = \"edge\"\nfriction = 0.3");
    let found = problems(&sleigh);
    assert!(
        found.len() == 1 && found[0].contains("constraints[0].friction") && found[0].contains("[[rolling]]"),
        "{found:?}"
    );
}

/// Issue 56: running straight and upright, the rows of the balances that hold no
/// force are round-off (1e-20 beside 1e-20), and were judged against themselves:
/// every contact column was empty after the first step. The loads are perfectly
/// determined there — by moments about the contacts, as standing: with the
/// benchmark's masses at `x` = 0 (rear wheel), 0.3 (frame and rider), 0.9 (fork)
/// and w = 1.02 (front wheel), `N_front w = g Σ mᵢ xᵢ` and `N_rear + N_front =
/// g Σ mᵢ` — at 0.9, 5 and 7.5 m/s, at every sample of a second's run, with no
/// friction needed. And an upright disk at three spins carries its weight alone.
#[test]
fn straight_upright_running_has_its_loads_at_every_sample() {
    let g = 9.81;
    let (masses, at) = ([2.0, 85.0, 4.0, 3.0], [0.0, 0.3, 0.9, 1.02]);
    let weight = g * masses.iter().sum::<f64>();
    let front = g * masses.iter().zip(at).map(|(m, x)| m * x).sum::<f64>() / 1.02;
    let rear = weight - front;
    for speed in [0.9, 5.0, 7.5] {
        let upright = with_initial(
            &text("whipple-bicycle"),
            &format!(
                "[initial]\nq = {{ x = 0, y = 0, psi = 0, phi = 0, theta = 0, delta = 0, rear = 0, front = 0 }}\nv = {{ phi = 0, delta = 0, rear = {} }}",
                speed / 0.3
            ),
        );
        let mut sim = run_under(&upright, Method::Lagrange);
        sim.advance_to(1.0).unwrap();
        assert!(sim.samples().len() > 3, "{speed} m/s");
        for s in sim.samples() {
            let c = &s.contact_forces;
            assert!(close(c[0], rear, 1e-9) && close(c[6], front, 1e-9), "{speed} m/s, t = {}: {c:?}", s.t);
            assert!(c[3] < 1e-9 && c[9] < 1e-9, "no side force needed: {c:?}");
        }
    }
    for spin in [2.0, 6.0, 20.0] {
        let upright = with_initial(
            &text("rolling-disk"),
            &format!("[initial]\nq = {{ x = 0, y = 0, psi = 0, theta = 0, phi = 0 }}\nv = {{ psi = 0, theta = 0, phi = {spin} }}"),
        );
        let mut sim = run_under(&upright, Method::Lagrange);
        sim.advance_to(2.0).unwrap();
        for s in sim.samples() {
            let c = &s.contact_forces;
            assert!(close(c[0], g, 1e-9) && c[3] < 1e-9, "spin {spin}, t = {}: {c:?}", s.t);
        }
    }
}

/// Issue 57: a coin without weight (`g = 0`) has `N = 0` and `F_t = 0` exactly; it
/// was said to "lift off from t = 0" while `on_invalid = "stop"` did not stop.
/// Touching without pressing is not lifting off (lift-off is `N < 0`): no span, and
/// a run to stop at a failing contact runs to its end. A contact that does fail at
/// the start (the ball on the incline with too little friction) stops such a run
/// there, its one sample at the start, with the stop's message alone.
#[test]
fn touching_without_pressing_is_not_lift_off_and_a_failure_at_the_start_stops_there() {
    let weightless = with_parameter(&text("coin-slipping"), "g", "g = 0.0");
    for on_invalid in ["mark", "stop"] {
        let file = weightless.replace("[run]\n", &format!("[run]\non_invalid = \"{on_invalid}\"\n"));
        let mut sim = run_under(&file, Method::Lagrange);
        sim.advance_to(1.0).unwrap_or_else(|e| panic!("{on_invalid}: {e}"));
        assert_eq!(sim.validity_events(), &[], "{on_invalid}");
        assert!(sim.samples().iter().all(|s| s.contact_forces[0] == 0.0), "N = 0 exactly");
    }
    let slipping = with_parameter(&text("ball-on-incline"), "mu", "mu = 0.05");
    let stop = slipping.replace("[run]\n", "[run]\non_invalid = \"stop\"\n");
    let mut sim = run_under(&stop, Method::Lagrange);
    let e = sim.advance_to(1.0).unwrap_err();
    let said = nhlab::simulation::design_end(&e, None).expect("an end by design");
    assert_eq!(said.id, "contact.slips.stop", "{said:?}");
    assert!(said.english.contains("at t = 0"), "{}", said.english);
    assert_eq!((sim.samples().len(), sim.time()), (1, 0.0));
    assert_eq!(sim.validity_events(), &[], "the stop is the one story");
    // Marked instead, the span starts at the start and lasts.
    let mut sim = run_under(&slipping, Method::Lagrange);
    sim.advance_to(1.0).unwrap();
    assert_eq!(sim.validity_events().len(), 1);
    assert_eq!((sim.validity_events()[0].start, sim.validity_events()[0].end), (0.0, None));
}

/// Issue 57: a friction coefficient that stops being finite (`sqrt(1 - t)` past
/// t = 1) emptied every contact column from there on, `N` and `F_t` included, with
/// no word. The forces do not depend on `μ`: they are kept (the ball on the incline's
/// closed form at every sample), and the span where slip cannot be judged is said
/// at the field, located like any other instant; it stops no run.
#[test]
fn a_friction_coefficient_that_is_not_finite_is_said_at_its_field_and_the_forces_are_kept() {
    let alpha: f64 = 0.5;
    let needed = 2.0 / 7.0 * alpha.tan();
    for on_invalid in ["mark", "stop"] {
        let file = text("ball-on-incline")
            .replace("friction = \"mu\"", "friction = \"1 + sqrt(1 - t)\"")
            .replace("[run]\n", &format!("[run]\non_invalid = \"{on_invalid}\"\n"));
        let file = with_parameter(&file, "alpha", &format!("alpha = {alpha}"));
        let (model, numeric, state) = build_text(&file);
        let [m, g] = ["m", "g"].map(|p| model.scenario.parameters[p]);
        let mut sim =
            Simulation::new(numeric, Settings::from_scenario(&model.scenario.run, Method::Lagrange), &state).unwrap();
        let times: Vec<f64> = (1..=40).map(|k| f64::from(k) * 0.05).collect();
        sim.advance_sampling(&times).unwrap_or_else(|e| panic!("{on_invalid}: no stop for an unjudged slip: {e}"));
        assert_eq!(sim.time(), 2.0);
        let events = sim.validity_events();
        assert_eq!(events.len(), 1, "{on_invalid}: {events:?}");
        assert_eq!(events[0].condition, Condition::FrictionNotFinite);
        assert!((events[0].start - 1.0).abs() < 1e-9, "located at t = 1: {}", events[0].start);
        assert_eq!(events[0].end, None);
        let contact = &sim.contacts().unwrap()[0];
        let said = nhlab::simulation::describe_validity_event(&events[0], contact, f64::INFINITY);
        assert!(said.contains("rolling[0].friction") && said.contains("not finite from t = 1"), "{said}");
        let later: Vec<_> = sim.samples().iter().filter(|s| s.t > 1.0).collect();
        assert!(later.len() >= 20, "samples after t = 1: {}", later.len());
        for s in later {
            let c = s.contact_forces;
            assert!(close(c[0], m * g * alpha.cos(), 1e-8), "t = {}: N = {}", s.t, c[0]);
            assert!(close(c[3], needed * c[0], 1e-8) && close(c[4], needed, 1e-8), "t = {}: {c:?}", s.t);
            assert!(c[5].is_nan(), "μ itself is not finite: {c:?}");
        }
    }
    // The issue's own coefficient: slips from `1 − ((2/7) tan α)²` (μ falls below
    // what rolling needs), unjudged from t = 1 on; the slip span ends where judging
    // does. (Conditions are checked at the steps' ends: steps of 0.01 see a span of 0.024.)
    let file = text("ball-on-incline")
        .replace("friction = \"mu\"", "friction = \"sqrt(1 - t)\"")
        .replace("rtol = 1e-10", "rtol = 1e-10\nintegrator = \"rk4\"\ndt = 0.01");
    let file = with_parameter(&file, "alpha", &format!("alpha = {alpha}"));
    let mut sim = run_under(&file, Method::Lagrange);
    sim.advance_to(2.0).unwrap();
    let spans: Vec<_> = sim.validity_events().iter().map(|e| (e.condition, e.start, e.end)).collect();
    assert_eq!(spans.len(), 2, "{spans:?}");
    let slip = 1.0 - needed * needed;
    assert!(spans[0].0 == Condition::Slip && (spans[0].1 - slip).abs() < 1e-9, "{spans:?} vs {slip}");
    assert!(spans[0].2.is_some_and(|end| (end - 1.0).abs() < 1e-9), "{spans:?}");
    assert!(spans[1].0 == Condition::FrictionNotFinite && (spans[1].1 - 1.0).abs() < 1e-9, "{spans:?}");
}
