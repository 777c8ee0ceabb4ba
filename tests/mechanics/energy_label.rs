//! Which systems conserve `T + V` along their true motion, as the energy panels say:
//! reasoned from the physics of each gallery system, not from the code.

use nhlab::formulations::Method;
use nhlab::mechanics::energy_changes;
use nhlab::simulation::{Settings, Simulation};
use nhlab_tests::scenarios::load;

#[test]
fn conservative_systems_are_told_apart_from_driven_ones() {
    // Ideal, scleronomic, homogeneous constraints and no forces: conserved.
    for name in
        ["chaplygin-sleigh", "rolling-disk", "whipple-bicycle", "rattleback", "pendulum-cartesian", "chaplygin-sphere"]
    {
        let (model, _, _) = load(name);
        assert_eq!(energy_changes(&model), Vec::<String>::new(), "{name}");
    }
    // The turntable's constraint ẋ − Ω(y − …) is affine in the velocities: the
    // table can do work on the ball.
    let (model, _, _) = load("ball-on-turntable");
    let why = energy_changes(&model);
    assert!(why.iter().any(|w| w.contains("not homogeneous in the velocities")), "{why:?}");
    // A rocket sheds mass.
    let (model, _, _) = load("rocket-meshchersky");
    assert!(energy_changes(&model).iter().any(|w| w == "masses vary"));
}

/// What the label claims holds along a run: where nothing is said, T + V stays put
/// to the integrator's tolerance.
#[test]
fn where_energy_is_said_conserved_a_run_keeps_it() {
    for name in ["chaplygin-sleigh", "rolling-disk"] {
        let (model, numeric, state) = load(name);
        let settings =
            Settings { rtol: 1e-11, atol: 1e-13, ..Settings::from_scenario(&model.scenario.run, Method::Lagrange) };
        let mut sim = Simulation::new(numeric, settings, &state).unwrap();
        sim.advance_to(2.0).unwrap();
        let e0 = sim.samples().at(0).energy;
        let drift = sim.samples().iter().map(|s| (s.energy - e0).abs()).fold(0.0, f64::max);
        assert!(drift < 1e-8 * e0.abs().max(1.0), "{name}: drift {drift}");
    }
}
