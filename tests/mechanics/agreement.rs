//! What must agree (mechanics.md): the ideal formulations on linear constraints,
//! `euler` with `lagrange` where the constraint is linear or homogeneous of one
//! degree; and what must not: Chetaev's reaction does work on a mixed-degree
//! constraint, the Euler reaction does not.

use nhlab::formulations::{accelerations, compulsion, Method};
use nhlab::mechanics::{Model, NumericModel};
use nhlab::scenario::{ConstraintSpec, Scenario, SourceMap};
use nhlab::simulation::{Settings, Simulation};
use nhlab_tests::random::Rng;
use proptest::prelude::*;

/// Functions of the coordinates to build random coefficients from.
const TERMS: [&str; 10] =
    ["1", "sin(phi)", "cos(phi)", "x", "y^2", "x*y", "cos(x - phi)", "exp(-y^2)", "atan(x + y)", "k*sin(x)"];

fn coefficient(r: &mut Rng) -> String {
    let c = |r: &mut Rng| format!("{:.3}", r.range(-1.5, 1.5));
    format!("{}*{} + {}*{}", c(r), TERMS[r.below(TERMS.len())], c(r), TERMS[r.below(TERMS.len())])
}

/// A random system in `x, y, phi`: `T = ½Σ(L v)² + ½ε|v|²` (positive definite by
/// construction), a random potential, and `m` random linear constraints (rheonomic
/// ones too).
fn random_system(seed: u64, constraints: usize) -> Scenario {
    let mut r = Rng::new(seed);
    let v = ["x'", "y'", "phi'"];
    let rows: Vec<String> = (0..3)
        .map(|_| {
            let terms: Vec<String> = v.iter().map(|vi| format!("({})*{vi}", coefficient(&mut r))).collect();
            format!("({})^2", terms.join(" + "))
        })
        .collect();
    let mut s = Scenario {
        format: "nhlab/1".into(),
        title: format!("random system {seed}"),
        coordinates: vec!["x".into(), "y".into(), "phi".into()],
        kinetic: Some(format!("({})/2 + 0.1*(x'^2 + y'^2 + phi'^2)", rows.join(" + "))),
        potential: Some(coefficient(&mut r)),
        ..Scenario::default()
    };
    s.parameters.insert("k".into(), 0.7);
    for j in 0..constraints {
        let terms: Vec<String> = v.iter().map(|vi| format!("({})*{vi}", coefficient(&mut r))).collect();
        let drive = if r.below(2) == 0 { format!(" + 0.3*sin(t + {j})") } else { String::new() };
        s.constraints.push(ConstraintSpec { name: None, expr: format!("{}{drive}", terms.join(" + ")) });
    }
    for q in ["x", "y", "phi"] {
        s.initial.q.insert(q.into(), 0.0);
    }
    s
}

fn compiled(s: &Scenario) -> NumericModel {
    let model = Model::build(s, &SourceMap::none()).unwrap_or_else(|e| panic!("{e}"));
    NumericModel::new(&model).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, failure_persistence: None, rng_seed: proptest::test_runner::RngSeed::Fixed(7), ..ProptestConfig::default() })]

    /// lagrange, udwadia-kalaba, gauss and euler give the same q̈ to round-off, at any
    /// state, on random systems with one or two linear constraints.
    #[test]
    fn ideal_formulations_agree_on_random_linear_systems(seed in any::<u64>(), m in 1usize..3, state in proptest::collection::vec(-1.0f64..1.0, 7)) {
        let mut numeric = compiled(&random_system(seed, m));
        let (t, q, v) = (state[0], &state[1..4], &state[4..7]);
        let reference = accelerations(Method::Lagrange, &mut numeric, t, q, v);
        prop_assume!(reference.is_ok()); // a random A may be singular at this state
        let reference = reference.unwrap().accelerations;
        let scale = 1.0 + reference.amax();
        for method in [Method::UdwadiaKalaba, Method::Gauss, Method::Euler] {
            let got = accelerations(method, &mut numeric, t, q, v).unwrap().accelerations;
            prop_assert!((&got - &reference).amax() <= 1e-9 * scale, "{}: {got} vs lagrange {reference}", method.id());
        }
        // Gauss: the true accelerations have the least compulsion among admissible
        // ones; moving along the constraint set only adds ½ δᵀMδ.
        let terms = numeric.evaluate(t, q, v).unwrap().clone();
        let z = compulsion(&terms, &reference, t).unwrap();
        // A direction in the null space of A: the eigenvector of AᵀA with the least eigenvalue.
        let eigen = (terms.jacobian.transpose() * &terms.jacobian).symmetric_eigen();
        let k = eigen.eigenvalues.imin();
        let delta = eigen.eigenvectors.column(k).into_owned() * 0.01;
        let z_moved = compulsion(&terms, &(&reference + &delta), t).unwrap();
        let expected = z + 0.5 * delta.dot(&(&terms.mass * &delta));
        prop_assert!(z_moved >= z && (z_moved - expected).abs() <= 1e-9 * (1.0 + expected), "Z = {z}, moved {z_moved}, expected {expected}");
    }
}

/// A redundant (repeated) constraint changes no method's accelerations: each equals
/// Lagrange's with the constraint once (Lagrange's and the Euler condition's by the
/// rank-revealing solve, Voronets' by an independent subset; Lagrange's stopped as
/// singular before).
#[test]
fn a_repeated_constraint_changes_no_methods_accelerations() {
    let mut s = random_system(3, 1);
    s.constraints.push(s.constraints[0].clone());
    let mut numeric = compiled(&s);
    let (q, v) = ([0.1, 0.2, 0.3], [0.3, -0.2, 0.1]);
    let uk = accelerations(Method::UdwadiaKalaba, &mut numeric, 0.0, &q, &v).unwrap().accelerations;
    let mut single = random_system(3, 1);
    single.title = "same, once".into();
    let once = accelerations(Method::Lagrange, &mut compiled(&single), 0.0, &q, &v).unwrap().accelerations;
    assert!((&uk - &once).amax() < 1e-9, "{uk} vs {once}");
    for method in [Method::Lagrange, Method::Gauss, Method::Voronets, Method::Euler] {
        let got = accelerations(method, &mut numeric, 0.0, &q, &v).unwrap().accelerations;
        assert!((&got - &once).amax() < 1e-9, "{}: {got} vs {once}", method.id());
    }
}

fn mixed_degree() -> Scenario {
    let mut s = Scenario {
        format: "nhlab/1".into(),
        title: "mixed-degree constraint".into(),
        coordinates: vec!["x".into(), "y".into(), "z".into()],
        kinetic: Some("(x'^2 + y'^2 + z'^2)/2".into()),
        potential: Some("9.81*z".into()),
        constraints: vec![ConstraintSpec {
            name: Some("mixed".into()),
            expr: "z' + 0.3*(x'^2 + y'^2) - 0.2*x'".into(),
        }],
        ..Scenario::default()
    };
    for (q, x) in [("x", 0.0), ("y", 0.0), ("z", 0.0)] {
        s.initial.q.insert(q.into(), x);
    }
    s.initial.v.insert("x".into(), 1.0);
    s.initial.v.insert("y".into(), 0.5);
    s
}

/// With `f(q, 0, t) = 0`, the Euler reaction does no work: `T + V` stays. Chetaev's
/// reaction on the same mixed-degree constraint does work.
#[test]
fn euler_condition_conserves_energy_where_chetaev_does_not() {
    let s = mixed_degree();
    let model = Model::build(&s, &SourceMap::none()).unwrap();
    let mut numeric = NumericModel::new(&model).unwrap();
    let state = nhlab::simulation::initial_state(&model, &mut numeric, &SourceMap::none()).unwrap();
    let drift = |method| {
        let mut settings = Settings::from_scenario(&s.run, method);
        settings.rtol = 1e-11;
        settings.atol = 1e-12;
        let mut sim = Simulation::new(numeric.clone(), settings, &state).unwrap();
        sim.advance_to(1.0).unwrap();
        let e0 = sim.samples().at(0).energy;
        sim.samples().iter().map(|x| (x.energy - e0).abs()).fold(0.0, f64::max)
    };
    let euler = drift(Method::Euler);
    let chetaev = drift(Method::Lagrange);
    assert!(euler < 1e-8, "Euler condition: energy drifts by {euler}");
    assert!(chetaev > 1e-2, "Chetaev's reaction should do work here, energy moved by {chetaev}");
}

/// For a constraint homogeneous of one degree the reactions are parallel: same motion.
#[test]
fn euler_equals_lagrange_on_a_homogeneous_constraint() {
    let mut s = mixed_degree();
    s.constraints[0].expr = "z'^2 - 0.3*(x'^2 + y'^2)".into();
    s.initial.v.insert("z".into(), -(0.3f64 * 1.25).sqrt());
    let model = Model::build(&s, &SourceMap::none()).unwrap();
    let mut numeric = NumericModel::new(&model).unwrap();
    let state = nhlab::simulation::initial_state(&model, &mut numeric, &SourceMap::none()).unwrap();
    let l = accelerations(Method::Lagrange, &mut numeric, 0.0, &state.q, &state.v).unwrap();
    let e = accelerations(Method::Euler, &mut numeric, 0.0, &state.q, &state.v).unwrap();
    assert!((&l.accelerations - &e.accelerations).amax() < 1e-12, "{} vs {}", l.accelerations, e.accelerations);
    // R = ½ ∂f/∂v for degree 2, so λ_euler = 2 λ_lagrange.
    let (ll, le) = (l.multipliers.unwrap()[0], e.multipliers.unwrap()[0]);
    assert!((le - 2.0 * ll).abs() < 1e-12 * (1.0 + ll.abs()), "λ: {le} vs 2×{ll}");
}
