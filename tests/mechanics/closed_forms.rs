//! Systems with exact solutions.

use nhlab::formulations::Method;
use nhlab::simulation::{Settings, Simulation};
use nhlab_tests::scenarios::load;

/// Knife edge on an incline (paper 004 example 1): at rest with spin ω,
/// `φ = ωt`, `x = (g sin α / 2ω²) sin²ωt`, `y = (g sin α / 2ω²)(ωt − ½ sin 2ωt)`.
#[test]
fn knife_edge_follows_the_closed_form_to_1e_8() {
    let (model, numeric, state) = load("knife-edge-incline");
    let p = |name: &str| model.scenario.parameters[name];
    let (g, alpha, omega) = (p("g"), p("alpha"), state.v[2]);
    let c = g * alpha.sin() / (2.0 * omega * omega);
    for method in [Method::Lagrange, Method::UdwadiaKalaba, Method::Gauss, Method::Euler] {
        let mut settings = Settings::from_scenario(&model.scenario.run, method);
        settings.rtol = 1e-12;
        settings.atol = 1e-13;
        let mut sim = Simulation::new(numeric.clone(), settings, &state).unwrap();
        sim.advance_sampling(&[2.5, 5.0, 10.0]).unwrap();
        for s in &sim.samples()[1..] {
            let wt = omega * s.t;
            let want = [c * wt.sin().powi(2), c * (wt - 0.5 * (2.0 * wt).sin()), wt];
            for (k, (got, want)) in s.q.iter().zip(want).enumerate() {
                assert!((got - want).abs() < 1e-8, "{}: q{k}({}) = {got} vs {want}", method.id(), s.t);
            }
        }
    }
}
