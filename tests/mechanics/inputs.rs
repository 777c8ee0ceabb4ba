//! `[inputs]`: signals of time in a run (closed forms), inputs changed during a run,
//! the state-space `B` (finite differences, and the benchmark bicycle's published
//! `M`, `C₁`, `K₀`, `K₂` from `A` and `B`), and positioned errors.

use nalgebra::{DMatrix, Matrix2};
use nhlab::formulations::{accelerations, Method};
use nhlab::mechanics::{Model, Needs, NumericModel};
use nhlab::scenario::load_toml;
use nhlab::simulation::{initial_state, Settings, Simulation};
use nhlab::stability::{linearize, Derivatives, Reference};

/// A unit oscillator `x'' = −x + u` at rest, its input driven by `signal`.
fn driven(signal: &str) -> String {
    format!(
        r#"
format = "nhlab/1"
title = "driven oscillator"
coordinates = ["x"]
kinetic = "x'^2/2"
potential = "x^2/2"
forces = {{ x = "u" }}
[inputs]
u = {{ value = 0, min = -2, max = 2, signal = {signal} }}
[initial]
q = {{ x = 0 }}
v = {{ x = 0 }}
"#
    )
}

fn simulate(text: &str, times: &[f64]) -> Vec<f64> {
    let (scenario, map) = load_toml(text).unwrap();
    let model = Model::build(&scenario, &map).unwrap();
    let mut numeric = NumericModel::new(&model).unwrap();
    let state = initial_state(&model, &mut numeric, &map).unwrap();
    let mut settings = Settings::from_scenario(&model.scenario.run, Method::Lagrange);
    (settings.rtol, settings.atol) = (1e-12, 1e-13);
    let mut sim = Simulation::new(numeric, settings, &state).unwrap();
    sim.advance_sampling(times).unwrap();
    sim.samples().iter().skip(1).map(|s| s.q[0]).collect()
}

/// `u = sin 2t`: `x = (2 sin t − sin 2t)/3`.
#[test]
fn an_expression_signal_drives_the_run() {
    let times = [0.5, 1.0, 2.0, 4.0];
    for (t, x) in times.iter().zip(simulate(&driven("\"sin(2*t)\""), &times)) {
        let want = (2.0 * t.sin() - (2.0 * t).sin()) / 3.0;
        assert!((x - want).abs() < 1e-9, "x({t}) = {x}, want {want}");
    }
}

/// The ramp `u = t` to `t = 1`, then held at 1: `x = t − sin t` up to 1, then
/// `1 − sin 1 cos(t − 1) + (1 − cos 1) sin(t − 1)`.
#[test]
fn a_table_signal_is_linear_between_its_points_and_held_after() {
    let times = [0.3, 0.9, 1.5, 3.0];
    for (t, x) in times.iter().zip(simulate(&driven("[[0, 0], [1, 1]]"), &times)) {
        let want = if *t <= 1.0 {
            t - t.sin()
        } else {
            let s = t - 1.0;
            1.0 - 1f64.sin() * s.cos() + (1.0 - 1f64.cos()) * s.sin()
        };
        assert!((x - want).abs() < 1e-8, "x({t}) = {x}, want {want}");
    }
}

/// Without a signal an input is its value, and the page's control changes it
/// during the run (`Simulation::set_parameter`): from rest, `u = 1` from `t = 1`
/// on gives `x = 1 − cos(t − 1)`.
#[test]
fn an_input_changed_during_a_run_acts_from_then_on() {
    let text = driven("\"0\"").replace(", signal = \"0\"", "");
    let (scenario, map) = load_toml(&text).unwrap();
    let model = Model::build(&scenario, &map).unwrap();
    assert_eq!(model.inputs, vec![0], "u taken as an argument, at parameter slot 0");
    let mut numeric = NumericModel::new(&model).unwrap();
    let state = initial_state(&model, &mut numeric, &map).unwrap();
    let mut settings = Settings::from_scenario(&model.scenario.run, Method::Lagrange);
    (settings.rtol, settings.atol) = (1e-12, 1e-13);
    let mut sim = Simulation::new(numeric, settings, &state).unwrap();
    sim.advance_to(1.0).unwrap();
    assert!(sim.state().q[0].abs() < 1e-14);
    assert!(sim.set_parameter(0, 1.0));
    assert!(!sim.set_parameter(0, f64::NAN) && !sim.set_parameter(1, 1.0));
    sim.advance_sampling(&[2.0, 3.5]).unwrap();
    for s in sim.samples().iter().filter(|s| s.t > 1.5) {
        let want = 1.0 - (s.t - 1.0).cos();
        assert!((s.q[0] - want).abs() < 1e-9, "x({}) = {}, want {want}", s.t, s.q[0]);
    }
}

/// The Whipple bicycle with its `[inputs]` taken as arguments
/// (`Needs::holding_inputs`): its model, compiled model and exact derivatives.
fn bicycle_holding_inputs() -> (Model, NumericModel, Derivatives) {
    let text = nhlab_tests::scenarios::text("whipple-bicycle");
    let (scenario, map) = load_toml(&text).unwrap();
    let model = Model::build_for(&scenario, &map, Needs::BASE.holding_inputs()).unwrap();
    let numeric = NumericModel::new(&model).unwrap();
    let derivatives = Derivatives::new(&model).unwrap();
    (model, numeric, derivatives)
}

/// The benchmark bicycle with its lean and steer torques as inputs, linearised
/// about upright running: `B`'s velocity rows are `M⁻¹`, and `A`'s are
/// `−M⁻¹ (g K₀ + v² K₂)` and `−M⁻¹ v C₁`, so `M`, `C₁`, `K₀`, `K₂` come back from
/// `A` and `B` at two speeds. They equal Meijaard et al.'s published matrices to
/// 1e-10 (relative), with the steer angle's sign turned: the lab's axes have z up,
/// the benchmark's z down, so `δ` and `T_δ` change sign, and `S X S` with
/// `S = diag(1, −1)` turns one set into the other.
#[test]
fn the_bicycle_gives_the_published_m_c1_k0_k2_from_a_and_b() {
    let (model, mut numeric, mut derivatives) = bicycle_holding_inputs();
    let scenario = &model.scenario;
    let (r_r, r_f, g) = (scenario.parameters["rR"], scenario.parameters["rF"], scenario.parameters["g"]);
    let mut at = |speed: f64| {
        let mut v = vec![0.0; 8];
        (v[0], v[6], v[7]) = (speed, speed / r_r, speed / r_f);
        let reference =
            Reference { t: 0.0, q: vec![0.0; 8], v, ignorable: vec![0, 1, 2, 6, 7], hold: None, dependent: None };
        linearize(Method::Lagrange, &model, &mut numeric, &mut derivatives, &reference).unwrap()
    };
    let (rest, running) = (at(0.0), at(5.0));
    assert_eq!(rest.state, ["phi", "delta", "phi'", "delta'"]);
    assert_eq!(rest.inputs, ["T_delta", "T_phi"]);
    let s = Matrix2::new(1.0, 0.0, 0.0, -1.0);
    let block =
        |m: &DMatrix<f64>, r: usize, c: usize| Matrix2::new(m[(r, c)], m[(r, c + 1)], m[(r + 1, c)], m[(r + 1, c + 1)]);
    // B's columns are (T_δ, T_φ): in (φ, δ) order they are swapped.
    let b = block(&rest.input_matrix, 2, 0);
    let m_inverse = Matrix2::new(b[(0, 1)], b[(0, 0)], b[(1, 1)], b[(1, 0)]);
    let m = m_inverse.try_inverse().unwrap();
    let stiffness = |lin: &nhlab::stability::Linearization| -m * block(&lin.matrix, 2, 0);
    let damping = |lin: &nhlab::stability::Linearization| -m * block(&lin.matrix, 2, 2);
    let k0 = stiffness(&rest) / g;
    let k2 = (stiffness(&running) - stiffness(&rest)) / 25.0;
    let c1 = damping(&running) / 5.0;
    let published = [
        ("M", Matrix2::new(80.81722, 2.31941332208709, 2.31941332208709, 0.29784188199686), m),
        ("C1", Matrix2::new(0.0, 33.86641391492494, -0.85035641456978, 1.68540397397560), c1),
        ("K0", Matrix2::new(-80.95, -2.59951685249872, -2.59951685249872, -0.80329488458618), k0),
        ("K2", Matrix2::new(0.0, 76.59734589573222, 0.0, 2.65431523794604), k2),
    ];
    for (name, want, got) in published {
        let got = s * got * s;
        let scale = want.abs().max();
        assert!((got - want).abs().max() < 1e-10 * scale, "{name}: {got} against the published {want}");
    }
    // The position rows of B are zero: a torque changes no angle or rate at once.
    assert!(rest.input_matrix.rows(0, 2).iter().all(|&x| x == 0.0));
}

/// `B` against central differences of the accelerations in each input
/// (h = 1e-6) at a state off equilibrium, on a model with constraints.
#[test]
fn b_is_the_derivative_of_the_accelerations_in_the_inputs() {
    let (model, mut numeric, mut derivatives) = bicycle_holding_inputs();
    let scenario = &model.scenario;
    let speed = 4.0;
    let (r_r, r_f) = (scenario.parameters["rR"], scenario.parameters["rF"]);
    let mut v = vec![0.0; 8];
    (v[0], v[6], v[7]) = (speed, speed / r_r, speed / r_f);
    let q = vec![0.0; 8];
    let slots = model.inputs.clone();
    for (k, &slot) in slots.iter().enumerate() {
        numeric.parameters[slot] = 0.3 * (k as f64 + 1.0);
    }
    let reference =
        Reference { t: 0.0, q: q.clone(), v: v.clone(), ignorable: vec![0, 1, 2, 6, 7], hold: None, dependent: None };
    let lin = linearize(Method::Lagrange, &model, &mut numeric, &mut derivatives, &reference).unwrap();
    let h = 1e-6;
    for (k, &slot) in slots.iter().enumerate() {
        let base = numeric.parameters[slot];
        let mut at = |u: f64| {
            numeric.parameters[slot] = u;
            accelerations(Method::Lagrange, &mut numeric, 0.0, &q, &v).unwrap().accelerations
        };
        let (up, down) = (at(base + h), at(base - h));
        numeric.parameters[slot] = base;
        for (row, coordinate) in [(2, 3), (3, 5)] {
            let difference = (up[coordinate] - down[coordinate]) / (2.0 * h);
            let exact = lin.input_matrix[(row, k)];
            assert!(
                (difference - exact).abs() < 1e-7 * (1.0 + exact.abs()),
                "B[{row}, {k}] = {exact}, differences {difference}"
            );
        }
    }
}

/// Bad inputs are named at their place.
#[test]
fn bad_inputs_are_named_where_they_are() {
    let problems = |text: &str| -> Vec<String> {
        let (scenario, map) = match load_toml(text) {
            Ok(x) => x,
            Err(p) => return p.0.iter().map(ToString::to_string).collect(),
        };
        match Model::build(&scenario, &map) {
            Ok(_) => vec![],
            Err(p) => p.0.iter().map(ToString::to_string).collect(),
        }
    };
    let base = driven("\"sin(t)\"");
    let clash = base.replace("forces = {", "parameters = { u = 1 }\nforces = {");
    let p = problems(&clash);
    assert!(p.iter().any(|m| m.starts_with("inputs.u (line") && m.contains("already a parameter")), "{p:?}");
    let p = problems(&driven("\"sin(tt)\""));
    assert!(p.iter().any(|m| m.starts_with("inputs.u.signal (line 9, column") && m.contains("tt")), "{p:?}");
    let p = problems(&driven("[[0, 0], [0, 1]]"));
    assert!(p.iter().any(|m| m.starts_with("inputs.u.signal[1]") && m.contains("the times must increase")), "{p:?}");
    let p = problems(&driven("[[0, 0], [1, 1]]").replace("value = 0", "value = 3"));
    assert!(p.iter().any(|m| m.starts_with("inputs.u") && m.contains("range")), "{p:?}");
    let p = problems(&driven("\"u + 1\""));
    assert!(p.iter().any(|m| m.starts_with("inputs.u.signal (line 9") && m.contains("cycle: u → u")), "{p:?}");
    let p = problems(&driven("[]"));
    assert!(p.iter().any(|m| m.starts_with("inputs.u.signal (line 9") && m.contains("at least one")), "{p:?}");
    let many: String = (0..33).map(|k| format!("u{k} = {{ value = 0 }}\n")).collect();
    let p = problems(&driven("\"0\"").replace("[inputs]\n", &format!("[inputs]\n{many}")));
    assert!(
        p.iter().any(|m| m.starts_with("inputs (line") && m.contains("34 inputs; the lab supports at most 32")),
        "{p:?}"
    );
    let p = problems(&driven("true"));
    assert!(p.iter().any(|m| m.contains("inputs.u.signal") || m.contains("an expression of t")), "{p:?}");
}

/// The reference's `[inputs]` example (`docs/reference.md`) runs as it says:
/// `x = (2 sin t − sin 2t)/3`.
#[test]
fn the_references_inputs_example_runs_as_it_says() {
    let doc = std::fs::read_to_string(format!("{}/../docs/reference.md", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let at = doc.find("title = \"Driven oscillator\"").expect("the example");
    let start = doc[..at].rfind("```toml\n").unwrap() + "```toml\n".len();
    let text = &doc[start..start + doc[start..].find("```").unwrap()];
    assert!(doc[start + text.len()..].contains("`x = (2 sin t − sin 2t)/3`"));
    let times = [1.0, 3.0];
    for (t, x) in times.iter().zip(simulate(text, &times)) {
        let want = (2.0 * t.sin() - (2.0 * t).sin()) / 3.0;
        assert!((x - want).abs() < 1e-9, "x({t}) = {x}, want {want}");
    }
}
