//! Drift control on the Cartesian pendulum at a loose tolerance: without control
//! the rod's length drifts; Baumgarte keeps it bounded and small; projection puts
//! the state back on the constraint after every step.

use nhlab::formulations::Method;
use nhlab::simulation::{Settings, Simulation, Stabilization};
use nhlab_tests::scenarios::load;

/// The largest |x² + y² − L²| and |f| over a 20 s run.
fn drift(stabilization: Stabilization) -> (f64, f64) {
    let (model, numeric, state) = load("pendulum-cartesian");
    let mut settings = Settings::from_scenario(&model.scenario.run, Method::Lagrange);
    settings.integrator = nhlab::integrators::IntegratorKind::Rk4;
    settings.dt = 0.02;
    settings.stabilization = stabilization;
    let mut sim = Simulation::new(numeric, settings, &state).unwrap();
    sim.advance_to(20.0).unwrap();
    sim.samples().iter().fold((0.0f64, 0.0f64), |(p, v), s| {
        (p.max((s.q[0] * s.q[0] + s.q[1] * s.q[1] - 1.0).abs()), v.max(s.velocity_residuals[0].abs()))
    })
}

#[test]
fn drift_control_keeps_the_rod_length() {
    let (none_p, none_v) = drift(Stabilization::None);
    let (baum_p, baum_v) = drift(Stabilization::Baumgarte { alpha: 5.0, beta: 5.0 });
    let (proj_p, proj_v) = drift(Stabilization::Projection);
    assert!(none_p > 1e-6, "without control the constraint drifts: {none_p}");
    assert!(baum_p < none_p / 10.0 && baum_v < none_v, "Baumgarte: {baum_p} vs {none_p}");
    assert!(proj_p < 1e-12 && proj_v < 1e-12, "projection: |φ| {proj_p}, |f| {proj_v}");
}

#[test]
fn projection_keeps_the_energy_close_and_the_samples_carry_the_e_vector() {
    let (model, numeric, state) = load("pendulum-cartesian");
    let mut settings = Settings::from_scenario(&model.scenario.run, Method::Lagrange);
    settings.stabilization = Stabilization::Projection;
    let mut sim = Simulation::new(numeric, settings, &state).unwrap();
    sim.advance_to(5.0).unwrap();
    let e0 = sim.samples().at(0).energy;
    for s in sim.samples() {
        assert!((s.energy - e0).abs() < 1e-6, "energy {} vs {e0}", s.energy);
        assert_eq!(s.e_vector.map(<[f64]>::len), Some(1), "one independent coordinate");
    }
}
