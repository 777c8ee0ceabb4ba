//! Which systems conserve `T + V` along their true motion, as the energy panels say:
//! reasoned from the physics of each gallery system, not from the code.

use nhlab::formulations::Method;
use nhlab::mechanics::{energy_changes, inputs_that_work, EnergyChange};
use nhlab::simulation::{Settings, Simulation};
use nhlab_tests::scenarios::load;

#[test]
fn conservative_systems_are_told_apart_from_driven_ones() {
    // Ideal, scleronomic, homogeneous constraints and no forces: conserved.
    for name in
        ["chaplygin-sleigh", "rolling-disk", "whipple-bicycle", "rattleback", "pendulum-cartesian", "chaplygin-sphere"]
    {
        let (model, _, _) = load(name);
        assert_eq!(energy_changes(&model), [], "{name}");
    }
    // The turntable's constraint ẋ − Ω(y − …) is affine in the velocities: the
    // table can do work on the ball.
    let (model, _, _) = load("ball-on-turntable");
    let why = energy_changes(&model);
    assert!(why.iter().any(|w| matches!(w, EnergyChange::ConstraintNotHomogeneous(c) if c == "roll_x")), "{why:?}");
    assert!(why.iter().any(|w| w.to_string() == "constraint `roll_x` is not homogeneous in the velocities"), "{why:?}");
    // A rocket sheds mass.
    let (model, _, _) = load("rocket-meshchersky");
    assert!(energy_changes(&model).contains(&EnergyChange::MassesVary));
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

/// The inputs that do work when moved (the page's sliders and keys) are named, so
/// that the energy panel does not call `T + V` conserved while a torque works: the
/// bicycle's steer and lean torques and the cart's force, not an input that nothing
/// uses. And they do work: the cart pushed by a constant force gains `F Δx`.
#[test]
fn the_inputs_that_do_work_when_moved_are_named() {
    let (bicycle, _, _) = load("whipple-bicycle");
    assert_eq!(energy_changes(&bicycle), [], "at rest the torques are 0");
    assert_eq!(inputs_that_work(&bicycle), ["T_delta", "T_phi"]);
    assert_eq!(inputs_that_work(&load("cart-pole").0), ["F"]);
    assert_eq!(inputs_that_work(&load("chaplygin-sleigh").0), Vec::<String>::new());
    let unused =
        nhlab_tests::scenarios::text("chaplygin-sleigh") + "\n[inputs]\nunused = { value = 0, min = -1, max = 1 }\n";
    assert_eq!(inputs_that_work(&nhlab_tests::scenarios::build_text(&unused).0), Vec::<String>::new());
    // The cart pushed by F = 2 N: T + V grows by the force's work F (x − x₀).
    let pushed = nhlab_tests::scenarios::text("cart-pole").replacen("F = { value = 0,", "F = { value = 2,", 1);
    let (model, numeric, state) = nhlab_tests::scenarios::build_text(&pushed);
    let x = model.coordinate_names().iter().position(|c| c == "x").expect("the cart's x");
    let settings =
        Settings { rtol: 1e-11, atol: 1e-13, ..Settings::from_scenario(&model.scenario.run, Method::Lagrange) };
    let mut sim = Simulation::new(numeric, settings, &state).unwrap();
    sim.advance_to(1.0).unwrap();
    let (first, last) = (sim.samples().at(0), sim.samples().last().unwrap());
    let work = 2.0 * (last.q[x] - first.q[x]);
    assert!(work.abs() > 0.1, "the cart moved ({work})");
    assert!((last.energy - first.energy - work).abs() < 1e-7, "{} against {work}", last.energy - first.energy);
}

/// A bead on a hoop of radius `R` turning at `Ω` about its vertical diameter, in
/// the hoop's angle: `T = m R²(θ'² + Ω² sin²θ)/2` has a `T₀` term. The conserved
/// quantity is Jacobi's integral `h = m R²(θ'² − Ω² sin²θ)/2 − m g R cos θ`, not
/// `T + V` (the hoop's drive does work). Issue 56: the panel plotted `T + V` and
/// called it conserved.
const BEAD_ON_HOOP: &str = include_str!("../fixtures/bead-on-a-turning-hoop.toml");

/// A particle in axes turning at `W`, held by a spring and by a blade along its
/// heading's velocity: `T = m((x' − W y)² + (y' + W x)²)/2 = T₂ + T₁ + T₀`, the
/// constraint homogeneous in the velocities. Jacobi's integral is
/// `h = m(x'² + y'²)/2 − m W²(x² + y²)/2 + k(x² + y²)/2`.
const TURNING_AXES: &str = include_str!("../fixtures/a-blade-in-turning-axes.toml");

/// A run's samples at tight tolerances, and the largest change of `f` along it
/// beside its value at the start.
fn along(text: &str, f: &dyn Fn(&[f64], &[f64]) -> f64) -> (Vec<(f64, f64)>, f64) {
    let (model, numeric, state) = nhlab_tests::scenarios::build_text(text);
    let settings = Settings {
        integrator: nhlab::integrators::IntegratorKind::Dopri5,
        rtol: 1e-12,
        atol: 1e-14,
        ..Settings::from_scenario(&model.scenario.run, Method::Lagrange)
    };
    let mut sim = Simulation::new(numeric, settings, &state).unwrap();
    sim.advance_to(10.0).unwrap();
    let samples = sim.samples();
    let first = f(samples.at(0).q, samples.at(0).v);
    let change = samples.iter().map(|s| (f(s.q, s.v) - first).abs()).fold(0.0, f64::max);
    (samples.iter().map(|s| (s.energy, f(s.q, s.v))).collect(), change / first.abs().max(1.0))
}

/// The energy recorded where `T` has `T₁` and `T₀` terms is the energy function
/// `h`, equal to its closed form at every sample and conserved along the exact
/// motion, named `energy_h` in the table and said conserved; `T + V` changes by
/// order one there. Where `T` is quadratic nothing changes: `T + V`, `energy`.
#[test]
fn where_t_is_not_quadratic_the_energy_function_is_recorded_and_conserved() {
    use nhlab::mechanics::{energy_form, EnergyForm};
    let (m, r, w, g) = (0.3, 0.5, 7.0, 9.81);
    let jacobi =
        |q: &[f64], v: &[f64]| m * r * r / 2.0 * (v[0] * v[0] - w * w * q[0].sin().powi(2)) - m * g * r * q[0].cos();
    let total =
        |q: &[f64], v: &[f64]| m * r * r / 2.0 * (v[0] * v[0] + w * w * q[0].sin().powi(2)) - m * g * r * q[0].cos();
    let (samples, jacobi_change) = along(BEAD_ON_HOOP, &jacobi);
    for (recorded, closed) in &samples {
        assert!((recorded - closed).abs() < 1e-12 * closed.abs().max(1.0), "{recorded} against {closed}");
    }
    assert!(jacobi_change < 1e-8, "h is conserved: {jacobi_change:e}");
    let (_, total_change) = along(BEAD_ON_HOOP, &total);
    assert!(total_change > 0.1, "T + V is not: {total_change}");

    let (mm, ww, k) = (1.0, 0.8, 3.0);
    let jacobi = |q: &[f64], v: &[f64]| {
        let r2 = q[0] * q[0] + q[1] * q[1];
        mm / 2.0 * (v[0] * v[0] + v[1] * v[1]) - mm * ww * ww / 2.0 * r2 + k / 2.0 * r2 + 0.2 / 2.0 * v[2] * v[2]
    };
    let (samples, change) = along(TURNING_AXES, &jacobi);
    for (recorded, closed) in &samples {
        assert!((recorded - closed).abs() < 1e-12 * closed.abs().max(1.0), "{recorded} against {closed}");
    }
    assert!(change < 1e-8, "h is conserved under the blade: {change:e}");

    for (text, form) in [(BEAD_ON_HOOP, EnergyForm::EnergyFunction), (TURNING_AXES, EnergyForm::EnergyFunction)] {
        let (model, _, _) = nhlab_tests::scenarios::build_text(text);
        assert_eq!(energy_form(&model), form);
        assert_eq!(energy_changes(&model), [], "said conserved");
        let table = nhlab::export::samples_table(&model, &[], String::new());
        assert!(table.columns.iter().any(|c| c == "energy_h") && !table.columns.iter().any(|c| c == "energy"));
    }
    let (model, _, _) = load("chaplygin-sleigh");
    assert_eq!(energy_form(&model), EnergyForm::TotalEnergy);
    let table = nhlab::export::samples_table(&model, &[], String::new());
    assert!(table.columns.iter().any(|c| c == "energy"));
}

/// The gallery's non-reversible contact oscillator (a gauge term `sin(z) z'` in
/// `T`): its recorded energy is `h = |v|²/2 + V`, the `H` its description wrote by
/// hand, to round-off at every sample of the exact motion.
#[test]
fn the_gauge_term_drops_out_of_the_recorded_energy() {
    let text = nhlab_tests::scenarios::text("contact-oscillator-nonreversible");
    let eps = 0.3;
    let h = |q: &[f64], v: &[f64]| {
        (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) / 2.0
            + (q[0] * q[0] + q[1] * q[1] + q[2] * q[2]) / 2.0
            + eps / 2.0 * q[0] * q[0] * q[2] * q[2]
    };
    let (samples, change) = along(&text, &h);
    for (recorded, closed) in &samples {
        assert!((recorded - closed).abs() < 1e-13 * closed.abs().max(1.0), "{recorded} against {closed}");
    }
    assert!(change < 1e-8, "{change:e}");
}
