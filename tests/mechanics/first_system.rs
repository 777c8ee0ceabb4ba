//! The guided example of the page's Help (`docs/first-system.md`): every step is a
//! whole scenario that loads and runs, and the steps' motion is the knife edge's.

use nhlab::formulations::Method;
use nhlab::scenario::load_toml;
use nhlab::simulation::{Settings, Simulation};
use nhlab_tests::scenarios::build;

/// The TOML blocks of the walk-through, in order.
fn steps() -> Vec<String> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/first-system.md")).unwrap();
    text.split("```toml\n").skip(1).map(|b| b.split("```").next().unwrap().to_string()).collect()
}

#[test]
fn every_step_loads_and_runs() {
    let steps = steps();
    assert_eq!(steps.len(), 6);
    for (i, text) in steps.iter().enumerate() {
        let (scenario, map) = load_toml(text).unwrap_or_else(|e| panic!("step {}: {e}", i + 1));
        assert!(map.warnings.is_empty(), "step {}: {:?}", i + 1, map.warnings);
        let (model, numeric, state) = build(&scenario, &map);
        let run = Settings::from_scenario(&model.scenario.run, Method::Lagrange);
        let mut sim = Simulation::new(numeric, run, &state).unwrap();
        sim.advance_sampling(&[1.0]).unwrap_or_else(|e| panic!("step {}: {e}", i + 1));
    }
}

/// Step 3 on: the blade's reaction passes through its centre, so its spin is
/// constant (`φ = 2t`), and `T + V` is conserved; `y'` was solved from the blade.
#[test]
fn the_constrained_blade_spins_evenly_and_keeps_its_energy() {
    let text = &steps()[2];
    let (scenario, map) = load_toml(text).unwrap();
    let (model, numeric, state) = build(&scenario, &map);
    assert_eq!(state.v[1], 0.0, "y' solved from the blade at phi = 0");
    for method in [Method::Lagrange, Method::Gauss, Method::UdwadiaKalaba] {
        let mut run = Settings::from_scenario(&model.scenario.run, method);
        (run.rtol, run.atol) = (1e-11, 1e-12);
        let mut sim = Simulation::new(numeric.clone(), run, &state).unwrap();
        sim.advance_sampling(&[2.0, 5.0]).unwrap();
        let first = sim.samples().at(0).energy;
        for s in sim.samples().iter().skip(1) {
            assert!((s.q[2] - 2.0 * s.t).abs() < 1e-8, "{}: phi({}) = {}", method.id(), s.t, s.q[2]);
            assert!((s.energy - first).abs() < 1e-8 * first.abs().max(1.0), "{}: energy {}", method.id(), s.energy);
            let slip = -s.v[0] * s.q[2].sin() + s.v[1] * s.q[2].cos();
            assert!(slip.abs() < 1e-8, "{}: sideways slip {slip}", method.id());
        }
    }
}

/// Step 6 compares two inclines. With the spin `φ = 2t`, the speed along the
/// blade obeys `u' = g sin α cos φ`, so `x(t) = sin(2t)/2 + g sin α sin²(2t)/8`
/// (from `u(0) = 1`): each set's run follows its own `α`, and its legend says so.
#[test]
fn the_compared_incline_runs_with_its_own_slope() {
    use nhlab::prepare::Prepared;
    use nhlab::scenario::Format;
    let text = &steps()[5];
    let prepared = Prepared::from_text(text, Format::Toml).expect("loads");
    assert_eq!(prepared.sets.len(), 1);
    let steep = &prepared.sets[0];
    let base = prepared.numeric.parameters.clone();
    assert_eq!(steep.label(&prepared.model, &base), "steep: alpha = 0.8");
    let closed_form = |alpha: f64, t: f64| (2.0 * t).sin() / 2.0 + 9.81 * alpha.sin() * (2.0 * t).sin().powi(2) / 8.0;
    for (alpha, parameters, state) in [(0.3, &base, &prepared.initial), (0.8, &steep.parameters, &steep.initial)] {
        let mut numeric = prepared.numeric.clone();
        numeric.parameters.clone_from(parameters);
        let mut run = Settings::from_scenario(&prepared.model.scenario.run, Method::Lagrange);
        (run.rtol, run.atol) = (1e-11, 1e-12);
        let mut sim = Simulation::new(numeric, run, state).unwrap();
        sim.advance_sampling(&[0.7, 1.9, 3.1]).unwrap();
        for s in sim.samples().iter().skip(1) {
            let want = closed_form(alpha, s.t);
            assert!((s.q[0] - want).abs() < 1e-8, "alpha = {alpha}: x({}) = {} against {want}", s.t, s.q[0]);
        }
    }
}

/// The walk-through in Chinese (`docs/zh/first-system.md`, the Help in 简体中文) holds
/// the same six scenarios, byte for byte: the steps a reader opens are the ones tested.
#[test]
fn the_chinese_walk_through_opens_the_same_steps() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/zh/first-system.md")).unwrap();
    let chinese: Vec<String> =
        text.split("```toml\n").skip(1).map(|b| b.split("```").next().unwrap().to_string()).collect();
    assert_eq!(chinese, steps());
}
