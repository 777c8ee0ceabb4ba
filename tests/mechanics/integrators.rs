//! Integrators: observed order by step halving, dense output, failure reports.

use nhlab::integrators::{Dopri5, IntegrationError, Rk4, System};

/// `x'' = −x`: exact `x = cos t`, `x' = −sin t`.
struct Oscillator;

impl System for Oscillator {
    type Error = ();
    fn rhs(&mut self, _t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), ()> {
        dy[0] = y[1];
        dy[1] = -y[0];
        Ok(())
    }
}

fn rk4_error(h: f64) -> f64 {
    let mut y = [1.0, 0.0];
    let mut rk = Rk4::new(2);
    let steps = (2.0 / h).round() as usize;
    for k in 0..steps {
        rk.step(&mut Oscillator, k as f64 * h, &mut y, h).unwrap();
    }
    (y[0] - 2f64.cos()).abs().max((y[1] + 2f64.sin()).abs())
}

fn dopri5_error(h: f64) -> f64 {
    // Tolerances so loose that every step of length h is accepted.
    let mut dp = Dopri5::new(2, 1e10, 1e10);
    dp.max_step = h;
    dp.set_step(h);
    let (mut t, mut y) = (0.0, [1.0, 0.0]);
    while t < 2.0 {
        dp.step(&mut Oscillator, &mut t, &mut y, 2.0).unwrap();
    }
    (y[0] - 2f64.cos()).abs().max((y[1] + 2f64.sin()).abs())
}

/// log₂ of the error ratio when the step is halved.
fn observed_order(error: fn(f64) -> f64, h: f64) -> f64 {
    (error(h) / error(h / 2.0)).log2()
}

#[test]
fn rk4_has_order_4() {
    let p = observed_order(rk4_error, 0.1);
    assert!((p - 4.0).abs() < 0.1, "observed order {p}");
}

#[test]
fn dopri5_has_order_5() {
    let p = observed_order(dopri5_error, 0.2);
    assert!((p - 5.0).abs() < 0.2, "observed order {p}");
}

#[test]
fn dopri5_meets_its_tolerance_and_its_dense_output_is_accurate() {
    let mut dp = Dopri5::new(2, 1e-10, 1e-12);
    let (mut t, mut y) = (0.0, [1.0, 0.0]);
    let mut worst_dense = 0.0f64;
    let mut steps = 0;
    while t < 10.0 {
        let report = dp.step(&mut Oscillator, &mut t, &mut y, 10.0).unwrap();
        steps += 1;
        for k in 1..4 {
            let s = report.t0 + report.h * k as f64 / 4.0;
            let mut out = [0.0; 2];
            assert!(dp.interpolate(s, &mut out));
            worst_dense = worst_dense.max((out[0] - s.cos()).abs()).max((out[1] + s.sin()).abs());
        }
    }
    assert_eq!(t, 10.0, "lands exactly on the end");
    assert!((y[0] - 10f64.cos()).abs() < 1e-8, "x(10) error {}", (y[0] - 10f64.cos()).abs());
    assert!(worst_dense < 1e-8, "dense output error {worst_dense} over {steps} steps");
}

/// A right-hand side that blows up makes the step size collapse: a clear error.
struct Blowup;

impl System for Blowup {
    type Error = &'static str;
    fn rhs(&mut self, t: f64, _y: &[f64], dy: &mut [f64]) -> Result<(), &'static str> {
        dy[0] = 1.0 / (1.0 - t).powi(3);
        Ok(())
    }
}

#[test]
fn a_singularity_stops_integration_with_a_message() {
    let mut dp = Dopri5::new(1, 1e-8, 1e-10);
    let (mut t, mut y) = (0.0, [0.0]);
    let err = loop {
        match dp.step(&mut Blowup, &mut t, &mut y, 2.0) {
            Ok(_) => continue,
            Err(e) => break e,
        }
    };
    match &err {
        IntegrationError::StepSizeCollapse { t, .. } => assert!((t - 1.0).abs() < 1e-3, "stopped at {t}"),
        IntegrationError::NonFinite { t } => assert!((t - 1.0).abs() < 1e-3, "stopped at {t}"),
        other => panic!("unexpected {other:?}"),
    }
    assert!(err.to_string().contains("t = 0.99") || err.to_string().contains("t = 1"), "{err}");
}

/// `Simulation::step`, called any number of times, takes exactly the steps of
/// `advance_to`: the web page steps in frames and must reproduce `nhlab run`.
#[test]
fn stepping_one_at_a_time_is_advancing_in_one_go() {
    for integrator in ["dopri5", "rk4"] {
        let (model, numeric, state) = nhlab_tests::scenarios::load("chaplygin-sleigh");
        let mut run = model.scenario.run.clone();
        run.integrator = Some(integrator.into());
        run.dt = Some(0.05);
        let settings = nhlab::simulation::Settings::from_scenario(&run, nhlab::formulations::Method::Lagrange);
        let mut batch = nhlab::simulation::Simulation::new(numeric.clone(), settings, &state).unwrap();
        batch.advance_to(3.0).unwrap();
        let mut stepped = nhlab::simulation::Simulation::new(numeric, settings, &state).unwrap();
        let mut steps = 0;
        while stepped.step(3.0).unwrap() {
            steps += 1;
        }
        assert_eq!(steps + 1, batch.samples().len(), "{integrator}");
        assert_eq!(stepped.samples(), batch.samples(), "{integrator}");
        assert!(!stepped.step(3.0).unwrap(), "nothing to do at t_end");
    }
}

/// Between steps the display state comes from the dense output: it matches a
/// separate run sampled at that time (a different step sequence) to the tolerance,
/// and is exactly the recorded sample at the step's end.
#[test]
fn the_state_inside_the_last_step_is_the_dense_output() {
    let (model, numeric, state) = nhlab_tests::scenarios::load("chaplygin-sleigh");
    let settings =
        nhlab::simulation::Settings::from_scenario(&model.scenario.run, nhlab::formulations::Method::Lagrange);
    let mut sim = nhlab::simulation::Simulation::new(numeric.clone(), settings, &state).unwrap();
    for _ in 0..4 {
        sim.step(20.0).unwrap();
    }
    let s = sim.samples().to_vec();
    let (t0, t1) = (s[s.len() - 2].t, s[s.len() - 1].t);
    assert_eq!(&sim.sample_in_last_step(t1).unwrap(), s.last().unwrap());
    let mid = 0.5 * (t0 + t1);
    let shown = sim.sample_in_last_step(mid).unwrap();
    let mut reference = nhlab::simulation::Simulation::new(numeric, settings, &state).unwrap();
    reference.advance_sampling(&[mid]).unwrap();
    let expected = reference.samples().last().unwrap();
    assert_eq!(expected.t, mid);
    for (a, b) in shown.q.iter().chain(&shown.v).zip(expected.q.iter().chain(expected.v)) {
        assert!((a - b).abs() < 1e-8, "{a} vs {b}");
    }
    // Clamped to the step.
    assert_eq!(sim.sample_in_last_step(t1 + 5.0).unwrap().t, t1);
}
