//! Redundant but consistent constraints (the differential-drive robot: two wheels on
//! one axle give four rolling constraints of rank three) against the robot's reduced
//! equations, worked by hand: with the axle's forward speed `v` and the turning rate
//! `ω`, `T = ½ M_v v² + ½ J ω²` where `M_v = m + 2 m_w + 2 I_y/r²` and
//! `J = m d² + I + 2 m_w b² + 2 I_y b²/r² + 2 I_z` (`I_y = m_w r²/2`,
//! `I_z = m_w r²/4`), and, as for the Chaplygin sleigh with its mass centre `d`
//! ahead of the blade, `M_v v̇ = m d ω²`, `J ω̇ = −m d v ω`.

use nalgebra::{DMatrix, DVector};
use nhlab::formulations::{accelerations, applicability, Method};
use nhlab::mechanics::DynamicsError;
use nhlab::scenario::{SourceMap, StabilitySpec, SweepSpec};
use nhlab::stability::{Derivatives, Study};
use nhlab_tests::random::Rng;

const ROBOT: &str = include_str!("../../scenarios/differential-drive.toml");

/// `(M_v, J, m d)` of the robot's parameters.
fn reduced(p: &dyn Fn(&str) -> f64) -> (f64, f64, f64) {
    let (m, mw, r, b, d, i) = (p("m"), p("mw"), p("r"), p("b"), p("d"), p("I"));
    let (iy, iz) = (mw * r * r / 2.0, mw * r * r / 4.0);
    (m + 2.0 * mw + 2.0 * iy / (r * r), m * d * d + i + 2.0 * mw * b * b + 2.0 * iy * b * b / (r * r) + 2.0 * iz, m * d)
}

/// A state on the constraints: heading `ψ`, speed `v`, turning rate `ω`.
fn on_the_constraints(rng: &mut Rng, r: f64, b: f64) -> (Vec<f64>, Vec<f64>, f64, f64) {
    let q: Vec<f64> = (0..5).map(|_| rng.range(-3.0, 3.0)).collect();
    let (v, w) = (rng.range(-2.0, 2.0), rng.range(-3.0, 3.0));
    let psi = q[2];
    let velocities = vec![v * psi.cos(), v * psi.sin(), w, (v - b * w) / r, (v + b * w) / r];
    (q, velocities, v, w)
}

#[test]
fn the_robot_follows_its_reduced_equations_under_every_method_that_handles_redundancy() {
    let (model, mut numeric) = nhlab_tests::scenarios::compiled(ROBOT);
    assert_eq!(model.constraints.len(), 4);
    let p = |name: &str| model.scenario.parameters[name];
    let (mass, inertia, md) = reduced(&p);
    let mut rng = Rng::new(23);
    for _ in 0..10 {
        let (q, qd, v, w) = on_the_constraints(&mut rng, p("r"), p("b"));
        let psi = q[2];
        for method in [Method::Lagrange, Method::UdwadiaKalaba, Method::Gauss, Method::Voronets, Method::Euler] {
            let a = accelerations(method, &mut numeric, 0.0, &q, &qd)
                .unwrap_or_else(|e| panic!("{}: {e}", method.id()))
                .accelerations;
            let v_dot = a[0] * psi.cos() + a[1] * psi.sin();
            let what = format!("{} at v = {v}, ω = {w}", method.id());
            assert!((mass * v_dot - md * w * w).abs() < 1e-9 * (1.0 + md * w * w), "{what}: M_v v̇ = {}", mass * v_dot);
            assert!((inertia * a[2] + md * v * w).abs() < 1e-9 * (1.0 + (md * v * w).abs()), "{what}: J ω̇");
            // Every row holds, the redundant one too.
            let terms = numeric.evaluate(0.0, &q, &qd).unwrap();
            let miss = &terms.jacobian * &a - &terms.bias;
            assert!(miss.amax() < 1e-9, "{what}: A q̈ − b = {miss}");
        }
    }
}

/// Lagrange's and the Euler condition's multipliers where they are not unique: the
/// minimum-norm ones, `Aᵀλ = M q̈ − F` with `λ` orthogonal to the null space of `Aᵀ`.
#[test]
fn redundant_multipliers_are_the_minimum_norm_ones() {
    let (model, mut numeric) = nhlab_tests::scenarios::compiled(ROBOT);
    let p = |name: &str| model.scenario.parameters[name];
    let mut rng = Rng::new(5);
    for _ in 0..5 {
        let (q, qd, _, _) = on_the_constraints(&mut rng, p("r"), p("b"));
        for method in [Method::Lagrange, Method::Euler] {
            let s = accelerations(method, &mut numeric, 0.0, &q, &qd).unwrap();
            let lambda = s.multipliers.unwrap();
            let terms = numeric.evaluate(0.0, &q, &qd).unwrap();
            let reaction = &terms.mass * &s.accelerations - &terms.forcing;
            let miss = terms.jacobian.transpose() * &lambda - &reaction;
            assert!(miss.amax() < 1e-9 * (1.0 + reaction.amax()), "{}: Aᵀλ − (M q̈ − F) = {miss}", method.id());
            // The null space of Aᵀ (one direction: rank 3 of 4).
            let svd = terms.jacobian.transpose().svd(false, true);
            let v_t = svd.v_t.unwrap();
            let k = (0..4).min_by(|&a, &b| svd.singular_values[a].total_cmp(&svd.singular_values[b])).unwrap();
            assert!(svd.singular_values[k] < 1e-12, "{}", svd.singular_values);
            let null = v_t.row(k).transpose();
            assert!(
                lambda.dot(&null).abs() < 1e-9 * (1.0 + lambda.norm()),
                "{}: λ·n = {}",
                method.id(),
                lambda.dot(&null)
            );
        }
    }
}

/// Redundant constraints that ask for different accelerations: `y' = 0` and
/// `y' − t x' = 0` coincide at `t = 0`, where their derivatives ask `ÿ = 0` and
/// `ÿ = x'`. Refused, naming both rows.
#[test]
fn inconsistent_redundant_constraints_are_refused_with_their_rows() {
    let text = include_str!("../fixtures/two-rails-that-part.toml");
    let (_, mut numeric) = nhlab_tests::scenarios::compiled(text);
    for method in [Method::Lagrange, Method::Euler, Method::Voronets] {
        match accelerations(method, &mut numeric, 0.0, &[0.0, 0.0], &[1.0, 0.0]) {
            Err(DynamicsError::Inconsistent { rows, .. }) => assert_eq!(rows, [0, 1], "{}", method.id()),
            other => panic!("{}: {other:?}", method.id()),
        }
    }
    let e = accelerations(Method::Lagrange, &mut numeric, 0.0, &[0.0, 0.0], &[1.0, 0.0]).unwrap_err();
    assert!(e.to_string().starts_with("the constraints #1, #2 cannot all be met at t = 0"), "{e}");
}

/// Hamel's split is built on `A₁ᵀA` (every method applies, and `check` says so).
/// Against a hand-made robot without the redundant row (its rows written out, the
/// fourth left off): the same dependent coordinates and the same `Ψ`, `G`, `H`, `E`
/// at random states on the constraints — `v₁`, `X` and `γ` do not depend on which
/// rows carry them. At a heading of 90° the hand-made robot's rows lose rank (left
/// and right `x` rows coincide) and its split is singular; the combined one is not.
#[test]
fn hamels_split_combines_the_rows_and_equals_the_robot_without_the_redundant_row() {
    let (scenario, map) = nhlab::scenario::load_toml(ROBOT).unwrap();
    let model = nhlab::mechanics::Model::build_for(&scenario, &map, nhlab::mechanics::Needs::ALL).unwrap();
    for method in Method::ALL {
        assert!(applicability(&model, method).is_ok(), "{}: {:?}", method.id(), applicability(&model, method));
    }
    let split = model.hamel.as_ref().unwrap();
    assert!(split.combined);
    assert_eq!(
        model.split_basis_note(split.combined).unwrap().english,
        "built on A₁ᵀA, the dependent columns' combinations of every row (rank 3 of 4 constraints; \
         `right wheel rolls on ground: y` is a combination of the others)"
    );
    let (_, mut numeric) = nhlab_tests::scenarios::compiled(ROBOT);
    let (hand, mut by_hand) = nhlab_tests::scenarios::compiled(&without_the_redundant_row());
    assert_eq!(hand.constraints.len(), 3);
    assert!(!hand.hamel.as_ref().unwrap().combined);
    assert_eq!(hand.hamel.as_ref().unwrap().dependent, split.dependent);
    let p = |name: &str| model.scenario.parameters[name];
    let mut rng = Rng::new(41);
    let mut compared = 0;
    for _ in 0..12 {
        let (q, qd, _, _) = on_the_constraints(&mut rng, p("r"), p("b"));
        let a = numeric.hamel_terms(0.0, &q, &qd).unwrap().unwrap().clone();
        let b = by_hand.hamel_terms(0.0, &q, &qd).unwrap().unwrap().clone();
        assert!(a.split_regular, "ψ = {}", q[2]);
        if !b.split_regular {
            continue;
        }
        for (what, x, y) in [
            ("Ψ", a.psi.as_slice(), b.psi.as_slice()),
            ("G", a.g.as_slice(), b.g.as_slice()),
            ("H", a.h.as_slice(), b.h.as_slice()),
            ("E", a.e.as_slice(), b.e.as_slice()),
        ] {
            for (x, y) in x.iter().zip(y) {
                assert!((x - y).abs() < 1e-9 * (1.0 + y.abs()), "{what}: {x} vs {y}");
            }
        }
        // Hamel's accelerations meet every row, the redundant one too.
        let h = accelerations(Method::Hamel, &mut numeric, 0.0, &q, &qd).unwrap().accelerations;
        let terms = numeric.evaluate(0.0, &q, &qd).unwrap();
        assert!((&terms.jacobian * &h - &terms.bias).amax() < 1e-9);
        compared += 1;
    }
    assert!(compared >= 8, "{compared}");
    // Heading 90°: the hand-made robot's rows lose rank, the combined rows do not.
    let psi = std::f64::consts::FRAC_PI_2;
    let (v, w, r, b) = (0.3, 0.7, p("r"), p("b"));
    let q = [0.1, 0.2, psi, 0.0, 0.0];
    let qd = [v * psi.cos(), v * psi.sin(), w, (v - b * w) / r, (v + b * w) / r];
    assert!(!by_hand.hamel_terms(0.0, &q, &qd).unwrap().unwrap().split_regular);
    assert!(numeric.hamel_terms(0.0, &q, &qd).unwrap().unwrap().split_regular);
    let hamel = accelerations(Method::Hamel, &mut numeric, 0.0, &q, &qd).unwrap().accelerations;
    let terms = numeric.evaluate(0.0, &q, &qd).unwrap();
    assert!((&terms.jacobian * &hamel - &terms.bias).amax() < 1e-9);
}

/// The robot's four rows written out as `[[constraints]]`, the redundant fourth
/// (the right wheel's sideways row, the left one's again) left off.
fn without_the_redundant_row() -> String {
    let rolling = ROBOT.find("[[rolling]]").unwrap();
    let initial = ROBOT.find("[initial]").unwrap();
    let rows = r#"[[constraints]]
name = "left x"
expr = "x' - b*psi'*cos(psi) - r*phiL'*cos(psi)"

[[constraints]]
name = "left y"
expr = "y' - b*psi'*sin(psi) - r*phiL'*sin(psi)"

[[constraints]]
name = "right x"
expr = "x' + b*psi'*cos(psi) - r*phiR'*cos(psi)"

"#;
    format!("{}{rows}{}", &ROBOT[..rolling], &ROBOT[initial..])
}

/// The vakonomic equations through the redundancy: the accelerations are those of
/// the robot without the redundant row, with the same multipliers on the rows kept
/// (the redundant row's multiplier 0), and `μ̇` meets the equations.
#[test]
fn the_vakonomic_equations_solve_through_the_redundancy() {
    let (model, mut numeric) = nhlab_tests::scenarios::compiled(ROBOT);
    let (_, mut by_hand) = nhlab_tests::scenarios::compiled(&without_the_redundant_row());
    let p = |name: &str| model.scenario.parameters[name];
    let mut rng = Rng::new(77);
    for _ in 0..6 {
        let (q, qd, _, _) = on_the_constraints(&mut rng, p("r"), p("b"));
        let mu: Vec<f64> = (0..3).map(|_| rng.range(-1.0, 1.0)).collect();
        let with_four = [mu[0], mu[1], mu[2], 0.0];
        let a = nhlab::formulations::accelerations_with_multipliers(
            Method::Vakonomic,
            &mut numeric,
            0.0,
            &q,
            &qd,
            &with_four,
        )
        .unwrap();
        let b = nhlab::formulations::accelerations_with_multipliers(Method::Vakonomic, &mut by_hand, 0.0, &q, &qd, &mu)
            .unwrap();
        let diff = &a.accelerations - &b.accelerations;
        assert!(diff.amax() < 1e-9 * (1.0 + b.accelerations.amax()), "{diff}");
        let vk = numeric.vakonomic_terms(0.0, &q, &qd, &with_four).unwrap().unwrap().clone();
        let rates = a.multiplier_rates.unwrap();
        let miss = &vk.mass * &a.accelerations + &vk.rates * &rates - &vk.forcing;
        assert!(miss.amax() < 1e-9 * (1.0 + vk.forcing.amax()), "M_v q̈ + C μ̇ − F_v = {miss}");
    }
}

/// Straight running at speed `u`: the turning rate's eigenvalue is `−m d u / J`
/// (stable forwards, unstable backwards), under Lagrange's equations and under
/// Udwadia–Kalaba's (which failed, recommending itself, before).
#[test]
fn the_robots_straight_running_linearises_through_the_redundancy() {
    for method in ["lagrange", "udwadia-kalaba", "gauss", "euler"] {
        let (mut model, mut numeric) = nhlab_tests::scenarios::compiled(ROBOT);
        let mut derivatives = Derivatives::new(&model).unwrap();
        let p = |name: &str| model.scenario.parameters[name];
        let (_, inertia, md) = reduced(&p);
        let spec = StabilitySpec {
            method: Some(method.into()),
            sweep: Some(SweepSpec { over: "x'".into(), from: -1.0, to: 1.0, step: 0.5, axis: None }),
            ..model.scenario.stability.clone().unwrap()
        };
        let mut study = Study::new(&model, &spec).unwrap();
        let sweep = study.run(&mut model, &mut numeric, &mut derivatives, &SourceMap::default()).unwrap();
        for (u, lin) in sweep.values.iter().zip(&sweep.rows) {
            let want = -md * u / inertia;
            let nearest =
                lin.eigenvalues.iter().map(|e| (e.re - want).abs() + e.im.abs()).fold(f64::INFINITY, f64::min);
            assert!(nearest < 1e-9, "{method} at u = {u}: {:?} has no {want}", lin.eigenvalues);
            assert!(lin.eigenvalues.iter().all(|e| e.re.abs() < 1e-9 || (e.re - want).abs() < 1e-9));
        }
        assert_eq!(sweep.boundaries.len(), 1, "{method}: {:?}", sweep.boundaries);
        assert!(sweep.boundaries[0].becomes_stable, "{method}");
    }
}

/// The minimum-norm solve is the pseudo-inverse's, whatever the rows' scale: a row
/// repeated at 10⁶ times its size changes neither `q̈` nor `Aᵀλ`.
#[test]
fn a_rescaled_repeated_row_changes_nothing_but_the_split_of_lambda() {
    let base = ROBOT.replace(
        "[initial]",
        "[[constraints]]\nname = \"axle, again\"\nexpr = \"1e6*(-x'*sin(psi) + y'*cos(psi))\"\n\n[initial]",
    );
    let (_, mut with) = nhlab_tests::scenarios::compiled(&base);
    let (_, mut without) = nhlab_tests::scenarios::compiled(ROBOT);
    let q = [0.3, -0.2, 0.7, 1.0, 2.0];
    let qd = [0.4 * 0.7f64.cos(), 0.4 * 0.7f64.sin(), 1.1, (0.4 - 0.12 * 1.1) / 0.05, (0.4 + 0.12 * 1.1) / 0.05];
    let a = accelerations(Method::Lagrange, &mut with, 0.0, &q, &qd).unwrap();
    let b = accelerations(Method::Lagrange, &mut without, 0.0, &q, &qd).unwrap();
    let diff: DVector<f64> = &a.accelerations - &b.accelerations;
    assert!(diff.amax() < 1e-9, "{diff}");
    let ja: DMatrix<f64> = with.evaluate(0.0, &q, &qd).unwrap().jacobian.clone();
    let jb: DMatrix<f64> = without.evaluate(0.0, &q, &qd).unwrap().jacobian.clone();
    let fa = ja.transpose() * a.multipliers.unwrap();
    let fb = jb.transpose() * b.multipliers.unwrap();
    assert!((&fa - &fb).amax() < 1e-7 * (1.0 + fb.amax()), "{fa} vs {fb}");
}

/// The robot's run: every method that handles redundancy reaches the end, with the
/// energy kept and every constraint held (the redundant one too).
#[test]
fn the_robot_runs_to_the_end_under_every_method() {
    let (model, numeric, state) = nhlab_tests::scenarios::load("differential-drive");
    for method in [Method::Lagrange, Method::UdwadiaKalaba, Method::Gauss, Method::Voronets, Method::Euler] {
        let settings = nhlab::simulation::Settings::from_scenario(&model.scenario.run, method);
        let mut sim = nhlab::simulation::Simulation::new(numeric.clone(), settings, &state).unwrap();
        sim.advance_to(model.scenario.run.t_end_or_default()).unwrap_or_else(|e| panic!("{}: {e}", method.id()));
        let (first, last) = (sim.samples().at(0), sim.samples().last().unwrap());
        assert!(
            (last.energy - first.energy).abs() < 1e-8,
            "{}: energy {} → {}",
            method.id(),
            first.energy,
            last.energy
        );
        assert!(last.residuals.iter().all(|r| r.abs() < 1e-8), "{}: {:?}", method.id(), last.residuals);
    }
    // Hamel's embedding and the vakonomic equations (their own motions, built on an
    // independent subset) reach the end too, every row held.
    for method in [Method::Hamel, Method::Vakonomic] {
        let settings = nhlab::simulation::Settings::from_scenario(&model.scenario.run, method);
        let mut sim = nhlab::simulation::Simulation::new(numeric.clone(), settings, &state).unwrap();
        sim.advance_to(model.scenario.run.t_end_or_default()).unwrap_or_else(|e| panic!("{}: {e}", method.id()));
        let last = sim.samples().last().unwrap();
        assert!(last.residuals.iter().all(|r| r.abs() < 1e-8), "{}: {:?}", method.id(), last.residuals);
    }
}

/// A constraint whose row vanishes at the state (`φ y = 0` at `φ = y = 0`, the fuzz
/// suite's case): no row is independent, the motion there is the free one, and no
/// method panics (Voronets' elimination over no rows did).
#[test]
fn a_constraint_whose_row_vanishes_leaves_the_free_motion() {
    let text = include_str!("../fixtures/a-vanishing-row.toml");
    let (_, mut numeric) = nhlab_tests::scenarios::compiled(text);
    let (q, v) = ([0.0, 0.0, 0.0], [1.0, 0.0, 1.0]);
    for method in Method::ALL {
        // Hamel's and the vakonomic equations are not derived for this model: an
        // error, never a panic.
        let Ok(s) = accelerations(method, &mut numeric, 0.0, &q, &v) else { continue };
        let want = [-1.0, 0.0, 0.0];
        for (got, want) in s.accelerations.iter().zip(want) {
            assert!((got - want).abs() < 1e-12, "{}: {}", method.id(), s.accelerations);
        }
    }
    for method in [Method::Lagrange, Method::UdwadiaKalaba, Method::Gauss, Method::Voronets, Method::Euler] {
        assert!(accelerations(method, &mut numeric, 0.0, &q, &v).is_ok(), "{}", method.id());
    }
}

/// `[hamel] dependent` under redundancy names one coordinate per independent
/// constraint: three for the robot's four rows; four are refused at the field.
#[test]
fn a_given_split_takes_one_coordinate_per_independent_constraint() {
    let given = |names: &str| ROBOT.replace("[initial]", &format!("[hamel]\ndependent = [{names}]\n\n[initial]"));
    let (model, _) = nhlab_tests::scenarios::compiled(&given(r#""x", "y", "psi""#));
    assert_eq!(model.hamel.as_ref().unwrap().dependent, [0, 1, 2]);
    let (scenario, map) = nhlab::scenario::load_toml(&given(r#""x", "y", "psi", "phiL""#)).unwrap();
    let problems = nhlab::mechanics::Model::build_for(&scenario, &map, nhlab::mechanics::Needs::ALL).unwrap_err();
    let text = problems.to_string();
    assert!(
        text.contains("hamel.dependent")
            && text.contains("expected one dependent coordinate per independent constraint (3 of 4), found 4"),
        "{text}"
    );
}
