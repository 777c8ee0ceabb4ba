//! The source papers' worked examples, as scenario files, each against something
//! independent: E-vectors derived by hand from the definitions, the papers' own
//! formulas where they are legible and correct, closed forms.

use nhlab::expr::ParseOptions;
use nhlab::formulations::{accelerations, Method};
use nhlab::simulation::{Settings, Simulation};
use nhlab_tests::scenarios::load;

/// The symbolic E-vector of a scenario file equals hand-derived expressions.
fn assert_e(name: &str, expected: &[&str]) {
    let (mut model, _, _) = load(name);
    let split = model.hamel.clone().unwrap();
    assert_eq!(split.e.len(), expected.len());
    for (k, want) in expected.iter().enumerate() {
        let w = model.hamel_graph.as_mut().unwrap().parse_with(want, ParseOptions::default()).unwrap();
        let w = model.hamel_graph.as_mut().unwrap().expand(w);
        assert_eq!(
            split.e[k],
            w,
            "{name}: E[{k}] = {} vs {want}",
            model.hamel_graph.as_ref().unwrap().to_text(split.e[k])
        );
    }
}

#[test]
fn paper_000_e_vectors_from_the_definitions() {
    assert_e("paper000-ex1-sphere", &["0", "0"]);
    assert_e("paper000-ex2-pfaffian", &["0", "z*y'^2"]);
    assert_e("paper000-ex3-circle", &["-y^3*y'^2/x^4"]);
    assert_e("paper000-ex4-unit-mass", &["0", "z*y'^2"]);
    assert_e("paper000-ex5-mass-m", &["(1 - m)*z*y'*z'", "m*z*y'^2"]);
    assert_e("paper000-ex6-no-force", &["-z*y'*z'", "z*y'^2"]);
}

/// Example 1: with E ≡ 0 Hamel's embedding gives the true motion along a whole run;
/// example 6: with E ≠ 0 it does not.
#[test]
fn hamel_follows_the_truth_exactly_where_e_vanishes() {
    let end = |name: &str, method| {
        let (model, numeric, state) = load(name);
        let mut settings = Settings::from_scenario(&model.scenario.run, method);
        settings.rtol = 1e-11;
        settings.atol = 1e-12;
        let mut sim = Simulation::new(numeric, settings, &state).unwrap();
        sim.advance_sampling(&[1.5]).unwrap();
        sim.samples().at(1).q.to_vec()
    };
    let gap = |name: &str| {
        let (a, b) = (end(name, Method::Lagrange), end(name, Method::Hamel));
        a.iter().zip(&b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
    };
    assert!(gap("paper000-ex1-sphere") < 1e-8, "{}", gap("paper000-ex1-sphere"));
    assert!(gap("paper000-ex6-no-force") > 1e-3, "{}", gap("paper000-ex6-no-force"));
}

/// Paper 001 example 1: m r̈ = ṁ(u − ṙ) − m g e_z with u = f r/|r|, m = m0 − ct.
#[test]
fn paper_001_radial_ejection_obeys_meshchersky() {
    let (model, mut numeric, state) = load("paper001-ex1-radial-ejection");
    let p = |n: &str| model.scenario.parameters[n];
    let (m0, c, f, g) = (p("m0"), p("c"), p("f"), p("g"));
    for (t, q, v) in [(0.0, state.q.clone(), state.v.clone()), (2.0, vec![0.3, -0.7, 1.1], vec![0.4, 0.1, -0.9])] {
        let a = accelerations(Method::Lagrange, &mut numeric, t, &q, &v).unwrap().accelerations;
        let (m, mdot) = (m0 - c * t, -c);
        let r = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2]).sqrt();
        for k in 0..3 {
            let want = mdot * (f * q[k] / r - v[k]) / m - if k == 2 { g } else { 0.0 };
            assert!((a[k] - want).abs() < 1e-12, "r''[{k}] = {} vs {want}", a[k]);
        }
    }
}

/// Paper 001 example 2: the kinetic energy embedded with the rolling conditions is
/// the paper's T = ½(3M + m1 + m2)R²ψ̇1² + (13M/4 + 2m2)R²φ̇² + (3M + 2m2)R²ψ̇1φ̇.
#[test]
fn paper_001_two_discs_embedded_kinetic_energy() {
    let (mut model, mut numeric, state) = load("paper001-ex2-two-discs");
    let split = model.hamel.clone().unwrap();
    let paper = "(3*M + (m10 - k1*t) + (m20 - k2*t))*R^2*psi1'^2/2 + (13*M/4 + 2*(m20 - k2*t))*R^2*phi'^2 + (3*M + 2*(m20 - k2*t))*R^2*psi1'*phi'";
    let want = model.hamel_graph.as_mut().unwrap().parse(paper).unwrap();
    let want = model.hamel_graph.as_mut().unwrap().expand(want);
    assert_eq!(
        split.embedded_kinetic,
        want,
        "T* = {}",
        model.hamel_graph.as_ref().unwrap().to_text(split.embedded_kinetic)
    );
    let l = accelerations(Method::Lagrange, &mut numeric, 1.0, &state.q, &state.v).unwrap().accelerations;
    let v = accelerations(Method::Voronets, &mut numeric, 1.0, &state.q, &state.v).unwrap().accelerations;
    assert!((&l - &v).amax() < 1e-10, "{l} vs {v}");
}

/// Paper 001 example 3: voronets equals the true motion, and the constraint holds.
#[test]
fn paper_001_bar_moving_along_its_axis() {
    let (model, numeric, state) = load("paper001-ex3-bar");
    for method in [Method::Lagrange, Method::Voronets] {
        let mut settings = Settings::from_scenario(&model.scenario.run, method);
        settings.rtol = 1e-11;
        settings.atol = 1e-12;
        let mut sim = Simulation::new(numeric.clone(), settings, &state).unwrap();
        sim.advance_sampling(&[1.0, 2.0]).unwrap();
        for s in sim.samples().iter().skip(1) {
            assert!(s.residuals[0].abs() < 1e-8, "{}: residual {}", method.id(), s.residuals[0]);
        }
    }
}

/// Paper 001 example 4: the engine's ẍ satisfies the paper's own Voronets equation
/// (3.17), written out by hand: with d = x − ξ, S = 1 + y²/d², ẏ = yẋ/d,
/// ṁẋS + mẍS + mẋṠ + mẋ²y²/d³ = (mẋ²y/d² − mg)(y/d) + m(yẋ/d)(yξ̇/d²) + ṁηẋS.
#[test]
fn paper_001_pursuit_curve_satisfies_the_papers_voronets_equation() {
    let (model, mut numeric, state) = load("paper001-ex4-pursuit");
    let p = |n: &str| model.scenario.parameters[n];
    let (m0, c, w, eta, g) = (p("m0"), p("c"), p("w"), p("eta"), p("g"));
    for (t, x, y, xd) in [(0.0, state.q[0], state.q[1], state.v[0]), (0.7, -1.2, 0.4, 0.8), (0.3, 3.0, -0.5, -1.1)] {
        let d = x - w * t;
        let yd = y * xd / d;
        let a = accelerations(Method::Lagrange, &mut numeric, t, &[x, y], &[xd, yd]).unwrap().accelerations;
        let (m, mdot) = (m0 - c * t, -c);
        let s = 1.0 + y * y / (d * d);
        let s_dot = 2.0 * y * yd / (d * d) - 2.0 * y * y * (xd - w) / (d * d * d);
        let rhs =
            (m * xd * xd * y / (d * d) - m * g) * (y / d) + m * (y * xd / d) * (y * w / (d * d)) + mdot * eta * xd * s;
        let xdd = (rhs - mdot * xd * s - m * xd * s_dot - m * xd * xd * y * y / (d * d * d)) / (m * s);
        assert!((a[0] - xdd).abs() < 1e-10 * (1.0 + xdd.abs()), "t = {t}: ẍ = {} vs the paper's {xdd}", a[0]);
        let v = accelerations(Method::Voronets, &mut numeric, t, &[x, y], &[xd, yd]).unwrap().accelerations;
        assert!((v[0] - xdd).abs() < 1e-10 * (1.0 + xdd.abs()));
    }
}
