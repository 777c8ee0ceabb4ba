//! Vakonomic dynamics: equal to Lagrange's on holonomic constraints (paper 002
//! eq 5.7) whatever `μ(0)`; different on genuinely nonholonomic ones, where `μ(0)`
//! picks a member of a family — while the constraint still holds.

use nhlab::formulations::Method;
use nhlab::simulation::{Settings, Simulation};
use nhlab_tests::scenarios::load;

fn run(name: &str, method: Method, mu0: Option<Vec<f64>>, t_end: f64) -> Vec<nhlab::simulation::Sample> {
    let (model, numeric, mut state) = load(name);
    if let Some(mu) = mu0 {
        state.mu = mu;
    }
    let mut settings = Settings::from_scenario(&model.scenario.run, method);
    settings.rtol = 1e-11;
    settings.atol = 1e-12;
    let mut sim = Simulation::new(numeric, settings, &state).unwrap();
    sim.advance_sampling(&[t_end / 4.0, t_end / 2.0, t_end]).unwrap();
    sim.samples().to_vec_from(1)
}

#[test]
fn vakonomic_equals_lagrange_on_a_holonomic_constraint() {
    let truth = run("pendulum-cartesian", Method::Lagrange, None, 4.0);
    for mu0 in [0.0, 0.7, -3.0] {
        let vak = run("pendulum-cartesian", Method::Vakonomic, Some(vec![mu0]), 4.0);
        for (a, b) in truth.iter().zip(&vak) {
            for k in 0..2 {
                assert!((a.q[k] - b.q[k]).abs() < 1e-8, "μ0 = {mu0}: q{k}({}) {} vs {}", a.t, b.q[k], a.q[k]);
            }
            assert_eq!(b.mu.len(), 1);
        }
    }
}

#[test]
fn vakonomic_keeps_the_constraint_but_leaves_the_nonholonomic_motion() {
    let truth = run("knife-edge-incline", Method::Lagrange, None, 4.0);
    let a = run("knife-edge-incline", Method::Vakonomic, Some(vec![0.0]), 4.0);
    let b = run("knife-edge-incline", Method::Vakonomic, Some(vec![0.5]), 4.0);
    for s in a.iter().chain(&b) {
        assert!(s.residuals[0].abs() < 1e-8, "the blade's constraint holds: {}", s.residuals[0]);
    }
    let last = |x: &[nhlab::simulation::Sample]| x.last().unwrap().q.clone();
    let distance = |p: &[f64], q: &[f64]| p.iter().zip(q).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
    assert!(distance(&last(&a), &last(&b)) > 1e-3, "μ(0) selects different motions");
    assert!(distance(&last(&truth), &last(&b)) > 1e-3, "the vakonomic motion is not d'Alembert's");
}
