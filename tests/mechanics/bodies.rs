//! Frames, points, rigid bodies, gravity and rolling contact, against numbers that do
//! not come from the code: the rolling disk's kinetic energy, potential and rolling
//! constraints in closed form (worked by hand below), and the gallery's hand-written
//! turntable ball and Chaplygin sleigh rebuilt from bodies, which must give the same
//! `T`, constraints and accelerations at random states. Then every new bad-input
//! class, with its field and position.

use nhlab::expr::{ExprGraph, ExprId, SymbolKind};
use nhlab::formulations::{accelerations, Method};
use nhlab::mechanics::{Model, NumericModel};
use nhlab::scenario::{load_toml, Problem};
use nhlab_tests::random::Rng;

pub(crate) fn model(text: &str) -> Model {
    let (scenario, map) = load_toml(text).unwrap_or_else(|p| panic!("{p}"));
    Model::build(&scenario, &map).unwrap_or_else(|p| panic!("{p}"))
}

/// A random state: `(t, q, v)`.
pub(crate) fn state(rng: &mut Rng, n: usize) -> (f64, Vec<f64>, Vec<f64>) {
    let q = (0..n).map(|_| rng.range(-1.5, 1.5)).collect();
    let v = (0..n).map(|_| rng.range(-2.0, 2.0)).collect();
    (rng.range(0.0, 3.0), q, v)
}

/// `e` of `model` at `(t, q, v)` with the model's parameter values.
pub(crate) fn value(model: &Model, e: ExprId, state: &(f64, Vec<f64>, Vec<f64>)) -> f64 {
    value_in(&model.graph, model, e, state)
}

/// `e` of `g` (the model's graph or a copy that grew) at `(t, q, v)`.
pub(crate) fn value_in(g: &ExprGraph, model: &Model, e: ExprId, (t, q, v): &(f64, Vec<f64>, Vec<f64>)) -> f64 {
    g.evaluate(e, &|s| match g.symbol(s).kind {
        SymbolKind::Time => *t,
        SymbolKind::Pi => std::f64::consts::PI,
        SymbolKind::Coordinate(i) => q[i],
        SymbolKind::Velocity(i) => v[i],
        SymbolKind::Parameter(i) => model.parameters[i].value,
        _ => f64::NAN,
    })
}

pub(crate) fn close(a: f64, b: f64, what: &str) {
    assert!((a - b).abs() <= 1e-12 * (1.0 + a.abs().max(b.abs())), "{what}: {a} vs {b}");
}

pub(crate) const DISK: &str = include_str!("../../scenarios/rolling-disk.toml");

/// Heading ψ, lean θ about the heading's x, spin φ about the axle y; `C = (x, y, 0)`,
/// `G = C + r L_z` with `L_z = (sin ψ sin θ, −cos ψ sin θ, cos θ)`. In the lean
/// frame the disk's angular velocity is `(θ̇, ψ̇ sin θ + φ̇, ψ̇ cos θ)`, so
/// `T = m|v_G|²/2 + A(θ̇² + ψ̇² cos² θ)/2 + C(φ̇ + ψ̇ sin θ)²/2`, `A = mr²/4`,
/// `C = mr²/2`; `V = m g r cos θ`; and the contact point's material velocity is
/// `(ẋ − r φ̇ cos ψ, ẏ − r φ̇ sin ψ, 0)`.
#[test]
fn the_rolling_disk_gives_its_closed_forms() {
    let model = model(DISK);
    let [m, r, g] = ["m", "r", "g"].map(|p| model.scenario.parameters[p]);
    let mut rng = Rng::new(11);
    for _ in 0..30 {
        let s = state(&mut rng, 5);
        let (_, q, v) = &s;
        let [_, _, psi, theta, _] = [q[0], q[1], q[2], q[3], q[4]];
        let [xd, yd, psid, thetad, phid] = [v[0], v[1], v[2], v[3], v[4]];
        let (sp, cp, st, ct) = (psi.sin(), psi.cos(), theta.sin(), theta.cos());
        let gx = xd + r * (cp * psid * st + sp * ct * thetad);
        let gy = yd + r * (sp * st * psid - cp * ct * thetad);
        let gz = -r * st * thetad;
        let (a, c) = (m * r * r / 4.0, m * r * r / 2.0);
        let t = m * (gx * gx + gy * gy + gz * gz) / 2.0
            + a * (thetad * thetad + psid * psid * ct * ct) / 2.0
            + c * (phid + psid * st).powi(2) / 2.0;
        close(value(&model, model.kinetic, &s), t, "T");
        close(value(&model, model.potential, &s), m * g * r * ct, "V");
        let [fx, fy] = [&model.constraints[0], &model.constraints[1]].map(|c| value(&model, c.velocity_residual, &s));
        close(fx, xd - r * phid * cp, "rolling, x");
        close(fy, yd - r * phid * sp, "rolling, y");
    }
    assert_eq!(model.constraints[0].name, "disk rolls on ground: x");
    assert_eq!(model.constraints[1].name, "disk rolls on ground: y");
}

/// Energy is conserved by the rolling disk (ideal constraints, no forces), and the
/// generated constraints hold along the run.
#[test]
fn the_rolling_disk_conserves_energy_and_keeps_rolling() {
    let (scenario, map) = load_toml(DISK).unwrap();
    let model = Model::build(&scenario, &map).unwrap();
    let mut numeric = NumericModel::new(&model).unwrap();
    let state = nhlab::simulation::initial_state(&model, &mut numeric, &map).unwrap();
    let settings = nhlab::simulation::Settings::from_scenario(&model.scenario.run, Method::Lagrange);
    let mut sim = nhlab::simulation::Simulation::new(numeric, settings, &state).unwrap();
    sim.advance_to(10.0).unwrap();
    let e0 = sim.samples().at(0).energy;
    for s in sim.samples() {
        assert!((s.energy - e0).abs() < 1e-8, "energy {} at t = {} (from {e0})", s.energy, s.t);
        assert!(s.residuals.iter().all(|f| f.abs() < 1e-8), "rolling residuals {:?} at t = {}", s.residuals, s.t);
    }
}

/// The disk's accelerations at `(q, v)` under `method`, with the contact's speeds
/// set by rolling: `(ẋ, ẏ) = r φ̇ (cos ψ, sin ψ)`.
fn disk_accelerations(numeric: &mut NumericModel, method: Method, r: f64, q: [f64; 5], rates: [f64; 3]) -> Vec<f64> {
    let [psid, thetad, phid] = rates;
    let v = [r * phid * q[2].cos(), r * phid * q[2].sin(), psid, thetad, phid];
    accelerations(method, numeric, 0.0, &q, &v).unwrap().accelerations.as_slice().to_vec()
}

/// Steady circular rolling, from Newton–Euler about the centre worked by hand: with
/// lean θ, yaw rate Ω and spin s constant, `v_G = r(s + Ω sin θ)` along the heading,
/// the contact force is `m Ω v_G` inwards plus `m g` up, and `dH/dt = Ω ẑ × H`
/// balances its moment when
/// `Ω cos θ (A Ω sin θ − (C + m r²)(s + Ω sin θ)) = m g r sin θ`.
/// At such states every method gives `θ̈ = ψ̈ = φ̈ = 0`; a spin 1 % off does not.
#[test]
fn the_rolling_disk_circles_steadily_where_newton_and_euler_say() {
    let model = model(DISK);
    let [m, r, g] = ["m", "r", "g"].map(|p| model.scenario.parameters[p]);
    let (a, c) = (m * r * r / 4.0, m * r * r / 2.0);
    let mut numeric = NumericModel::new(&model).unwrap();
    for (theta, omega, psi) in [(0.3, 1.5, 0.0), (-0.5, 4.0, 1.0), (0.1, -7.0, -2.0), (0.8, 2.5, 3.0)] {
        let (st, ct) = (f64::sin(theta), f64::cos(theta));
        let rolling = (a * omega * omega * st * ct - m * g * r * st) / ((c + m * r * r) * omega * ct);
        let spin = rolling - omega * st;
        let q = [0.3, -0.2, psi, theta, 0.7];
        for method in [Method::Lagrange, Method::UdwadiaKalaba, Method::Gauss, Method::Voronets] {
            let got = disk_accelerations(&mut numeric, method, r, q, [omega, 0.0, spin]);
            let want = [-r * spin * omega * psi.sin(), r * spin * omega * psi.cos(), 0.0, 0.0, 0.0];
            for i in 0..5 {
                assert!(
                    (got[i] - want[i]).abs() < 1e-10,
                    "{method:?} θ = {theta}: q̈[{i}] = {} (want {})",
                    got[i],
                    want[i]
                );
            }
            let off = disk_accelerations(&mut numeric, method, r, q, [omega, 0.0, spin * 1.01]);
            assert!(off[3].abs() > 1e-4, "{method:?}: a spin 1 % off is not steady (θ̈ = {})", off[3]);
        }
    }
}

/// Upright straight rolling at spin s: linearised (central differences of the
/// lab's accelerations) in lean, lean rate and yaw rate, the eigenvalues are 0 and
/// ±√D with `D = tr(J²)/2`; it is stable exactly when `v² = (r s)² > g r / 3`.
#[test]
fn the_upright_disk_is_stable_exactly_when_v_squared_exceeds_g_r_over_three() {
    let model = model(DISK);
    let [r, g] = ["r", "g"].map(|p| model.scenario.parameters[p]);
    let mut numeric = NumericModel::new(&model).unwrap();
    let mut jacobian = |spin: f64| {
        let mut f = |z: [f64; 3]| {
            let acc =
                disk_accelerations(&mut numeric, Method::Lagrange, r, [0.0, 0.0, 0.0, z[0], 0.0], [z[2], z[1], spin]);
            [z[1], acc[3], acc[2]]
        };
        let h = 1e-6;
        nalgebra::Matrix3::from_fn(|i, j| {
            let (mut up, mut down) = ([0.0; 3], [0.0; 3]);
            up[j] = h;
            down[j] = -h;
            (f(up)[i] - f(down)[i]) / (2.0 * h)
        })
    };
    let mut growth = |spin: f64| {
        let j = jacobian(spin);
        assert!(j.trace().abs() < 1e-7, "a conservative linearisation: tr J = {}", j.trace());
        let real = j.complex_eigenvalues().iter().map(|e| e.re).fold(f64::MIN, f64::max);
        ((j * j).trace() / 2.0, real)
    };
    let critical = (g / (3.0 * r)).sqrt();
    let (d_above, re_above) = growth(1.05 * critical);
    let (d_below, re_below) = growth(0.95 * critical);
    assert!(d_above < 0.0 && re_above < 1e-6, "stable above: D = {d_above}, Re = {re_above}");
    assert!(d_below > 0.0 && re_below > 0.1, "unstable below: D = {d_below}, Re = {re_below}");
    let (mut lo, mut hi) = (0.95 * critical, 1.05 * critical);
    for _ in 0..60 {
        let mid = (lo + hi) / 2.0;
        if growth(mid).0 > 0.0 {
            lo = mid
        } else {
            hi = mid
        }
    }
    let v_squared = (r * lo).powi(2);
    assert!(
        (v_squared - g * r / 3.0).abs() < 1e-7 * g * r,
        "v² = {v_squared} at the boundary, g r / 3 = {}",
        g * r / 3.0
    );
}

pub(crate) const TURNTABLE_FROM_BODIES: &str = include_str!("../../scenarios/ball-on-turntable-bodies.toml");

/// Two models of one system give the same `T`, constraints (as functions, in
/// order) and Lagrange accelerations at random states.
fn twins(hand: &str, bodies: &str, seed: u64) {
    let (hand, bodies) = (model(hand), model(bodies));
    let n = hand.coordinate_count();
    assert_eq!(bodies.coordinate_count(), n);
    assert_eq!(bodies.constraints.len(), hand.constraints.len());
    let mut numeric = (NumericModel::new(&hand).unwrap(), NumericModel::new(&bodies).unwrap());
    let mut rng = Rng::new(seed);
    for _ in 0..25 {
        let s = state(&mut rng, n);
        close(value(&bodies, bodies.kinetic, &s), value(&hand, hand.kinetic, &s), "T");
        for (a, b) in hand.constraints.iter().zip(&bodies.constraints) {
            let (fa, fb) = (value(&hand, a.velocity_residual, &s), value(&bodies, b.velocity_residual, &s));
            close(fb, fa, &format!("constraint {} against {}", b.name, a.name));
        }
        let (t, q, v) = &s;
        let qa = accelerations(Method::Lagrange, &mut numeric.0, *t, q, v).unwrap().accelerations;
        let qb = accelerations(Method::Lagrange, &mut numeric.1, *t, q, v).unwrap().accelerations;
        for (a, b) in qa.iter().zip(qb.iter()) {
            close(*b, *a, "q̈");
        }
    }
}

#[test]
fn the_turntable_ball_from_bodies_is_the_hand_written_one() {
    twins(include_str!("../../scenarios/ball-on-turntable.toml"), TURNTABLE_FROM_BODIES, 3);
}

#[test]
fn the_chaplygin_sleigh_from_a_body_is_the_hand_written_one() {
    let sleigh = include_str!("../../scenarios/chaplygin-sleigh-bodies.toml");
    twins(include_str!("../../scenarios/chaplygin-sleigh.toml"), sleigh, 5);
}

/// Point components are definitions any expression may use.
#[test]
fn point_components_are_named_for_expressions() {
    let model = model(DISK);
    let view = model.view.clone();
    // series = ["theta", "G_z"]: G_z = r cos θ.
    let r = model.scenario.parameters["r"];
    let s = (0.0, vec![0.1, 0.2, 0.3, 0.4, 0.5], vec![0.0; 5]);
    close(value(&model, view[3], &s), r * 0.4f64.cos(), "G_z");
}

/// Problems of a scenario: `(field, line, message)` of each.
pub(crate) fn problems(text: &str) -> Vec<(String, Option<usize>, String)> {
    let found: Vec<Problem> = match load_toml(text) {
        Err(p) => p.0,
        Ok((scenario, map)) => match Model::build(&scenario, &map) {
            Err(p) => p.0,
            Ok(_) => vec![],
        },
    };
    found.into_iter().map(|p| (p.field, p.position.map(|x| x.0), p.message)).collect()
}

/// Each `(text, field, needle, message)`: the text has a problem at `field`, on
/// the line holding `needle`, whose message contains `message`.
pub(crate) fn assert_each_reported(cases: &[(String, &str, &str, &str)]) {
    let line_of = |text: &str, needle: &str| text.lines().position(|l| l.contains(needle)).map(|i| i + 1);
    for (text, field, needle, message) in cases {
        let found = problems(text);
        let hit = found.iter().find(|(f, _, _)| f == field);
        let Some((_, line, text_message)) = hit else { panic!("{field}: not reported; found {found:?}") };
        assert!(text_message.contains(message), "{field}: {text_message:?} lacks {message:?}");
        assert_eq!(*line, line_of(text, needle), "{field}: {text_message}");
    }
}

/// The disk with one replacement made in its text.
fn disk_with(from: &str, to: &str) -> String {
    assert!(DISK.contains(from), "{from}");
    DISK.replacen(from, to, 1)
}

#[test]
fn every_bad_body_input_is_reported_at_its_field() {
    let cases: Vec<(String, &str, &str, &str)> = vec![
        (
            disk_with("parent = \"heading\"", "parent = \"headng\""),
            "frames.lean.parent",
            "headng",
            "`headng` is not a frame; did you mean `heading`?",
        ),
        (
            disk_with("{ x = \"theta\" }", "{ w = \"theta\" }"),
            "frames.lean.rotations[0].w",
            "w = ",
            "the axis is `x`, `y` or `z`, not `w`",
        ),
        (
            disk_with("{ x = \"theta\" }", "{ x = \"theta\", y = \"phi\" }"),
            "frames.lean.rotations[0]",
            "x = \"theta\", y",
            "a rotation is one `axis = angle` pair",
        ),
        (
            disk_with("{ x = \"theta\" }", "{ x = \"theta'\" }"),
            "frames.lean.rotations[0].x",
            "theta'",
            "not on `theta'`",
        ),
        (
            disk_with("[frames.heading]\n", "[frames.heading]\nparent = \"disk\"\n"),
            "frames",
            "[frames.heading]",
            "a cycle",
        ),
        (disk_with("[frames.heading]", "[frames.N]"), "frames.N", "[frames.N]", "`N` is the inertial frame"),
        (
            disk_with("frame = \"lean\"", "frame = \"leen\""),
            "points.G.frame",
            "leen",
            "`leen` is not a frame; did you mean `lean`?",
        ),
        (disk_with("from = \"C\"", "from = \"D\""), "points.G.from", "\"D\"", "`D` is not a point"),
        (
            disk_with("position = [\"0\", \"0\", \"r\"]", "position = [\"0\", \"r\"]"),
            "points.G.position",
            "[\"0\", \"r\"]",
            "expected three components, found 2",
        ),
        (disk_with("centre = \"G\"", "centre = \"H\""), "bodies[0].centre", "\"H\"", "`H` is not a point"),
        (
            disk_with("frame = \"disk\"", "frame = \"disc\""),
            "bodies[0].frame",
            "\"disc\"",
            "`disc` is not a frame; did you mean `disk`?",
        ),
        (disk_with("mass = \"m\"", "mass = \"m*(\""), "bodies[0].mass", "m*(", ""),
        (
            disk_with("kind = \"disk\"", "kind = \"disc\""),
            "bodies[0].shape.kind",
            "disc",
            "`disc` is not a shape; did you mean `disk`?",
        ),
        (
            disk_with("{ kind = \"disk\", radius = \"r\", axis = \"y\" }", "{ kind = \"disk\", axis = \"y\" }"),
            "bodies[0].shape",
            "kind = \"disk\"",
            "a disk needs `radius`",
        ),
        (disk_with("body = \"disk\"", "body = \"coin\""), "rolling[0].body", "\"coin\"", "`coin` is not a body"),
        (disk_with("contact = \"C\"", "contact = \"c\""), "rolling[0].contact", "\"c\"", "`c` is not a point"),
        (
            disk_with("contact = \"C\"", "contact = \"C\"\non = \"disk\""),
            "rolling[0].on",
            "on = \"disk\"",
            "a body does not roll on itself",
        ),
        (
            disk_with("[parameters]\n", "[parameters]\nG_x = 1.0\n"),
            "points.G",
            "[points.G]",
            "the component `G_x` of point `G` cannot be named",
        ),
    ];
    assert_each_reported(&cases);
    // A body without orientation needs an isotropic inertia.
    let anisotropic = TURNTABLE_FROM_BODIES.replacen("yy = \"2*m*R^2/5\"", "yy = \"m*R^2\"", 1);
    let found = problems(&anisotropic);
    assert!(
        found.iter().any(|(f, l, m)| f == "bodies[0].inertia" && l.is_some() && m.contains("equal principal moments")),
        "{found:?}"
    );
    // Gravity with no body to act on (the body's table misnamed).
    let found = problems(&disk_with("[[bodies]]", "[[ignored]]"));
    assert!(
        found.iter().any(|(f, l, m)| f == "gravity" && l.is_some() && m.contains("gravity acts on bodies")),
        "{found:?}"
    );
}

#[test]
fn misspelt_body_fields_are_warned_about_with_the_right_name() {
    let text = disk_with("rotations = [{ x = \"theta\" }]", "rotations = [{ x = \"theta\" }]\nrotation = 1");
    let (_, map) = load_toml(&text).unwrap();
    let warnings: Vec<String> = map.warnings.iter().map(|w| w.message.clone()).collect();
    assert!(
        warnings.iter().any(|w| w.contains("unknown field `rotation`") && w.contains("did you mean `rotations`?")),
        "{warnings:?}"
    );
    let clean = load_toml(DISK).unwrap().1;
    assert!(clean.warnings.is_empty(), "{:?}", clean.warnings);
}

/// The Chaplygin sphere conserves energy and its angular momentum about the contact
/// point, `K = I ω + m r × (ω × r)` with `r = G − P = (0, 0, R)`: every component,
/// Jellett's `K·n` among them. `ω` and `I` along `N` are computed here from the
/// z-x-z Euler angles by hand, independently of the lab's frames.
#[test]
fn the_chaplygin_sphere_keeps_its_energy_and_its_angular_momentum_about_the_contact() {
    use nalgebra::{Matrix3, Vector3};
    let text = include_str!("../../scenarios/chaplygin-sphere.toml");
    let (scenario, map) = load_toml(text).unwrap();
    let model = Model::build(&scenario, &map).unwrap();
    let [m, r, a, b, c] = ["m", "R", "A", "B", "C"].map(|p| model.scenario.parameters[p]);
    let mut numeric = NumericModel::new(&model).unwrap();
    let state = nhlab::simulation::initial_state(&model, &mut numeric, &map).unwrap();
    let settings = nhlab::simulation::Settings::from_scenario(&model.scenario.run, Method::Lagrange);
    let mut sim = nhlab::simulation::Simulation::new(numeric, settings, &state).unwrap();
    sim.advance_to(10.0).unwrap();
    let rz = |t: f64| Matrix3::new(t.cos(), -t.sin(), 0.0, t.sin(), t.cos(), 0.0, 0.0, 0.0, 1.0);
    let rx = |t: f64| Matrix3::new(1.0, 0.0, 0.0, 0.0, t.cos(), -t.sin(), 0.0, t.sin(), t.cos());
    let momentum = |q: &[f64], v: &[f64]| -> Vector3<f64> {
        let (psi, theta, phi) = (q[2], q[3], q[4]);
        let omega = v[2] * Vector3::z() + v[3] * (rz(psi) * Vector3::x()) + v[4] * (rz(psi) * rx(theta) * Vector3::z());
        let rot = rz(psi) * rx(theta) * rz(phi);
        let inertia = rot * Matrix3::from_diagonal(&Vector3::new(a, b, c)) * rot.transpose();
        let arm = Vector3::new(0.0, 0.0, r);
        inertia * omega + m * arm.cross(&omega.cross(&arm))
    };
    let first = &sim.samples().at(0);
    let (k0, e0) = (momentum(first.q, first.v), first.energy);
    assert!(k0.norm() > 0.01, "a motion worth checking: K = {k0}");
    let mut worst = 0.0f64;
    for s in sim.samples() {
        worst = worst.max((momentum(s.q, s.v) - k0).amax());
        assert!((s.energy - e0).abs() < 1e-9, "energy {} at t = {}", s.energy, s.t);
    }
    assert!(worst < 1e-8, "K drifts by {worst:e}");
    // The motion is not trivial: the lean changes.
    let thetas: Vec<f64> = sim.samples().iter().map(|s| s.q[3]).collect();
    let spread = thetas.iter().cloned().fold(f64::MIN, f64::max) - thetas.iter().cloned().fold(f64::MAX, f64::min);
    assert!(spread > 0.1, "theta spread {spread}");
}

/// The bounds on frames hold: 25 rotations in all are refused at `frames`, and the
/// deepest chain allowed (4 frames of 6 rotations, a body on the last) builds.
#[test]
fn frames_are_bounded_and_the_deepest_chain_allowed_builds() {
    let chain = |count: usize| -> String {
        let mut text = String::from(
            "format = \"nhlab/1\"\ntitle = \"chain\"\ncoordinates = [\"a\", \"b\"]\n[parameters]\nm = 1.0\n",
        );
        for k in 0..count {
            let parent = if k == 0 { "N".to_string() } else { format!("f{}", k - 1) };
            text += &format!(
                "[frames.f{k}]\nparent = \"{parent}\"\nrotations = [{{ z = \"a\" }}, {{ x = \"b\" }}, {{ y = \"a*b\" }}, \
                 {{ z = \"b\" }}, {{ x = \"a\" }}, {{ y = \"t\" }}]\n"
            );
        }
        text += &format!(
            "[[bodies]]\nname = \"tip\"\nframe = \"f{}\"\nmass = \"m\"\ncentre = \"O\"\ninertia = {{ xx = \"1\", yy = \"2\", zz = \"3\" }}\n\
             [initial]\nq = {{ a = 0.1, b = 0.2 }}\nv = {{ a = 1, b = 0 }}\n",
            count - 1
        );
        text
    };
    let found = problems(&chain(5));
    assert!(found.iter().any(|(f, l, m)| f == "frames" && l.is_some() && m.contains("at most 24")), "{found:?}");
    let many: String = (0..65).map(|k| format!("[frames.e{k}]\n")).collect();
    let found = problems(&DISK.replacen("[frames.heading]", &format!("{many}[frames.heading]"), 1));
    assert!(found.iter().any(|(f, _, m)| f == "frames" && m.contains("at most 64")), "{found:?}");
    let model = model(&chain(4));
    assert!(model.graph.len() < 2_000_000, "{} nodes", model.graph.len());
    NumericModel::new(&model).expect("compiles");
}

/// `derive` shows what the lab built from the bodies and loads — `T`, `V` and each
/// nonzero `Q` — before the equations of motion, with the model's own values (the
/// printed `T` is expanded, so it is compared by evaluation at random states).
#[test]
fn derive_shows_the_generated_kinetic_energy_potential_and_forces_first() {
    let text = DISK
        .replacen("[gravity]", "[[loads]]\nbody = \"disk\"\ntorque = \"[0, tau, 0] in lean\"\n\n[gravity]", 1)
        .replacen("g = 9.81", "g = 9.81\ntau = 0.1", 1);
    let model = model(&text);
    let d = nhlab::derivation::derive(&model, Method::Lagrange).unwrap();
    let labels: Vec<&str> = d.equations.iter().take(4).map(|e| e.label.as_str()).collect();
    assert_eq!(labels, ["T", "V", "Q[psi]", "Q[phi]"]);
    let mut rng = Rng::new(5);
    for _ in 0..10 {
        let s = state(&mut rng, 5);
        let printed = |k: usize| value_in(&d.graph, &model, d.equations[k].rhs, &s);
        close(printed(0), value(&model, model.kinetic, &s), "T");
        close(printed(1), value(&model, model.potential, &s), "V");
        close(printed(2), value(&model, model.forces[2], &s), "Q[psi]");
        close(printed(3), value(&model, model.forces[4], &s), "Q[phi]");
    }
    // A scenario without bodies prints its equations only.
    let sleigh = model_of_gallery("chaplygin-sleigh");
    let d = nhlab::derivation::derive(&sleigh, Method::Lagrange).unwrap();
    assert!(d.equations[0].label.starts_with("equation of"), "{}", d.equations[0].label);
}

pub(crate) fn model_of_gallery(name: &str) -> Model {
    nhlab_tests::scenarios::load(name).0
}
/// Issue 35.4 and 35.13: a contact declared twice is refused at the copy, once (64
/// copies made every step a 128-row least-squares solve, and each copy's errors
/// were reported for both); more than 64 contacts are refused alone, without a
/// spurious "unknown name `G_z`" from bodies left unbuilt.
#[test]
fn a_repeated_contact_and_too_many_contacts_are_refused_at_their_place() {
    let contact = "[[rolling]]\nbody = \"disk\"\ncontact = \"C\"\n";
    assert!(DISK.contains(contact), "the disk's contact");
    let twice = DISK.replacen(contact, &format!("{contact}\n{contact}"), 1);
    let found = problems(&twice);
    assert_eq!(found.len(), 1, "{found:?}");
    let (field, line, message) = &found[0];
    assert_eq!(field, "rolling[1]");
    let second = twice.match_indices("[[rolling]]").nth(1).unwrap().0;
    assert_eq!(*line, Some(twice[..second].lines().count() + 1));
    assert_eq!(message, "the same contact as rolling[0] (`disk` on `ground` at `C`): declare each contact once");
    let many: String = (0..65)
        .map(|k| format!("[[rolling]]\nname = \"c{k}\"\nbody = \"disk\"\ncontact = \"C\"\ntangents = [\"[1, 0, 0]\", \"[0, {k}, 1]\"]\n"))
        .collect();
    let found = problems(&DISK.replacen(contact, &many, 1));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        (found[0].0.as_str(), found[0].2.as_str()),
        ("rolling", "65 rolling contacts; the lab supports at most 64")
    );
}

/// Issue 35.13: a body without a `frame` is told so at its table's line, not as
/// "`` is not a frame" with no place.
#[test]
fn a_body_without_a_frame_is_told_at_its_table() {
    let text = disk_with("frame = \"disk\"\n", "");
    let found = problems(&text);
    let hit = found.iter().find(|(f, _, _)| f == "bodies[0]").unwrap_or_else(|| panic!("{found:?}"));
    assert_eq!(hit.2, "a body needs a `frame`: its body-fixed frame, from `[frames]`");
    let line = text.lines().position(|l| l.starts_with("[[bodies]]")).map(|i| i + 1);
    assert_eq!(hit.1, line);
    assert!(!found.iter().any(|(_, _, m)| m.contains("`` is not a frame")), "{found:?}");
}

/// Issue 35.13: a negative moment of inertia or mass is said at the body's own key,
/// with the principal moments (the indefinite mass matrix it makes was blamed on
/// `kinetic`, which the file does not have); zero stays allowed (massless turntables,
/// planar bodies with only `zz`).
#[test]
fn a_negative_inertia_or_mass_is_told_at_the_body() {
    let found = problems(&disk_with("xx = \"m*r^2/4\"", "xx = \"-m*r^2/4\""));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "bodies[0].inertia");
    assert_eq!(
        found[0].2,
        "not a rigid body's inertia at the start: principal moments -0.0225, 0.0225, 0.045 (none may be negative)"
    );
    let found = problems(&disk_with("mass = \"m\"", "mass = \"-m\""));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(
        (found[0].0.as_str(), found[0].2.as_str()),
        ("bodies[0].mass", "the mass is -1 at the start: it cannot be negative")
    );
    assert!(problems(&disk_with("mass = \"m\"", "mass = \"0\"")).iter().all(|(f, _, _)| f != "bodies[0].mass"));
}

/// Issue 35.13: a value of the bodies' tables that is not finite at the start was
/// blamed on `initial.v` ("the force F[phi] (from T, V and the forces) is not
/// finite"), or on `potential`: neither is in a body scenario's file. It is told at
/// the load, the body or gravity that made it.
#[test]
fn what_bodies_and_loads_make_not_finite_is_told_at_their_fields() {
    let sleigh = include_str!("../../scenarios/chaplygin-sleigh-bodies.toml");
    let first = |text: &str| -> (String, String) {
        let p = nhlab::prepare::Prepared::from_text(text, nhlab::scenario::Format::Toml).err().expect("refused").0;
        (p[0].field.clone(), p[0].message.clone())
    };
    let with = |extra: &str| format!("{sleigh}\n{extra}\n");
    let cases = [
        (with("[[loads]]\nbody = \"sleigh\"\ntorque = \"[0, 0, exp(1000*phi')]\""), "loads[0].torque", "not finite"),
        (with("[[loads]]\npoint = \"G\"\nforce = \"[1e308*(1 + phi'^2), 0, 0]\""), "loads[0].force", "not finite"),
        (
            with("[gravity]\nmagnitude = \"1e10\"\ndirection = [\"1\", \"0\", \"0\"]")
                .replace("mass = \"m\"", "mass = \"1e300\""),
            "bodies[0]",
            "its potential energy under gravity's derivative by x is not finite",
        ),
        (sleigh.replace("mass = \"m\"", "mass = \"1e300*exp(1000*(x + 1))\""), "bodies[0].mass", "not finite"),
    ];
    // Constants that overflow are refused where they are written, as `1/0` is (they
    // folded to 1.8e308, and the mass matrix was "not positive definite").
    let overflow = "the constant overflows: its value is beyond the largest double (1.8e308)";
    // Those not folded (a function or a power of constants) are not finite at the start.
    let start = "not finite at the initial state (t = 0, x = 0, y = 0, phi = 0)";
    for (from, to, field, message) in [
        ("mass = \"m\"", "mass = \"1e308*10\"", "bodies[0].mass", overflow),
        ("mass = \"m\"", "mass = \"2*(1e308 + 1e308)\"", "bodies[0].mass", overflow),
        ("mass = \"m\"", "mass = \"exp(1000)\"", "bodies[0].mass", start),
        ("inertia = { zz = \"I\" }", "inertia = { zz = \"1e200^2\" }", "bodies[0].inertia.zz", start),
    ] {
        let (f, m) = first(&sleigh.replace(from, to));
        assert_eq!((f.as_str(), m.as_str()), (field, message));
    }
    let (f, m) = first(&with("[[loads]]\nbody = \"sleigh\"\ntorque = \"[0, 0, 1e308*10]\""));
    assert_eq!((f.as_str(), m.as_str()), ("loads[0].torque", overflow));
    let (f, m) =
        first(&sleigh.replace("m = 1.0", "m = 1.0\nhuge = 1e300").replace("mass = \"m\"", "mass = \"huge*huge\""));
    assert_eq!(f, "bodies[0].mass", "{m}");
    for (text, field, message) in cases {
        let (f, m) = first(&text);
        assert_eq!(f, field, "{m}");
        assert!(m.starts_with(message), "{f}: {m}");
    }
}
