//! The lab's tests: stepping in frames, the clock, the display points, the limits.

use super::recorder::MAX_POINTS_PER_STEP;
use super::*;

fn sleigh() -> String {
    crate::gallery::text("chaplygin-sleigh").expect("in the gallery").to_string()
}

#[test]
fn the_equations_panel_derives_the_method_it_prints() {
    // The sleigh runs lagrange, hamel and gauss: the vakonomic equations are
    // derived only when the panel asks for them.
    assert!(Lab::new(&sleigh()).unwrap().derive(Method::Vakonomic).is_err());
    for method in Method::ALL {
        let lab = Lab::for_equations(&sleigh(), method).unwrap();
        let d = lab.derive(method).unwrap_or_else(|e| panic!("{method:?}: {e}"));
        assert!(!d.equations.is_empty() || !d.matrices.is_empty(), "{method:?}");
    }
}

#[test]
fn parameters_come_in_the_authors_order() {
    assert_eq!(Lab::new(&sleigh()).unwrap().parameter_order(), ["m", "a", "I"]);
    let json = r#"{"format": "nhlab/1", "title": "t", "coordinates": ["x"], "kinetic": "k*x'^2/2 + b",
        "potential": "a*x^2", "parameters": {"k": 1, "b": 0, "a": 2}, "initial": {"q": {"x": 1}, "v": {"x": 0}}}"#;
    assert_eq!(Lab::new(json).unwrap().parameter_order(), ["k", "b", "a"]);
}

#[test]
fn stepping_in_frames_reproduces_a_batch_run() {
    let mut lab = Lab::new(&sleigh()).unwrap();
    // Frames of uneven length, like a real page.
    let mut t = lab.t0;
    let mut k = 0;
    while !lab.finished() {
        t += [0.016, 0.033, 0.007][k % 3];
        lab.advance(t, 1000);
        k += 1;
    }
    let mut batch = Lab::new(&sleigh()).unwrap();
    batch.advance(batch.t_end, usize::MAX);
    assert_eq!(lab.csv(), batch.csv());
    assert!(lab.csv().lines().count() > 10);
}

#[test]
fn the_clock_shows_an_interpolated_state_that_is_not_recorded() {
    let mut lab = Lab::new(&sleigh()).unwrap();
    lab.advance(lab.t0 + 0.05, 1000);
    for run in lab.runs() {
        let (shown, _) = run.current.as_ref().unwrap();
        let row = run.current_columns();
        let view = &row.view;
        if run.error.is_none() {
            assert!((shown.t - lab.now()).abs() < 1e-12);
            assert!(run.samples().iter().all(|s| s.t != lab.now()) || lab.now() == run.samples().last().unwrap().t);
        }
        // The view's outputs, then the sleigh's one trailed point (x, y, z).
        assert_eq!(view.len(), lab.view_labels().len() + 3);
        assert_eq!([view[4][0], view[5][0], view[6][0]], [shown.q[0], shown.q[1], 0.0]);
    }
}

#[test]
fn long_steps_are_drawn_through_their_dense_output() {
    let mut lab = Lab::new(&sleigh()).unwrap();
    lab.advance(lab.t_end, 100_000);
    let run = &lab.runs()[0];
    let columns = run.columns();
    let (t, samples) = (&columns.t, run.samples());
    assert!(t.len() > samples.len(), "display points were added: {} vs {}", t.len(), samples.len());
    assert!(t.windows(2).all(|w| w[0] < w[1]), "in time order");
    assert!(samples.iter().all(|s| t.contains(&s.t)), "every recorded sample is plotted");
    // Each step gets just enough points for the display spacing, at most 8.
    let spacing = (lab.t_end - lab.t0) / DISPLAY_POINTS;
    let times: Vec<f64> = samples.times().collect();
    for w in times.windows(2) {
        let inside = t.iter().filter(|&&x| x > w[0] && x < w[1]).count();
        let h = w[1] - w[0];
        let expected = ((h / spacing).ceil() as usize).clamp(1, MAX_POINTS_PER_STEP + 1) - 1;
        assert_eq!(inside, expected, "step of {h} at t = {}", w[0]);
    }
    // Display points are on the trajectory: the energy invariant holds there to the
    // interpolant's accuracy, at the samples to the integrator's.
    let c = &columns;
    let e0 = c.energy[0];
    for k in 0..c.len() {
        let tolerance = if c.is_sample[k] { 1e-9 } else { 1e-6 };
        assert!((c.energy[k] - e0).abs() < tolerance, "t = {}: {}", c.t[k], c.energy[k] - e0);
    }
    assert_eq!(c.is_sample.iter().filter(|&&x| x).count(), samples.len());
}

#[test]
fn a_run_stops_with_a_message_at_the_sample_limit() {
    let text = sleigh().replace("integrator = \"dopri5\"", "integrator = \"rk4\"\ndt = 1e-3");
    let mut lab = Lab::new(&text).unwrap();
    lab.sample_limit = 3000; // the same check as MAX_SAMPLES_PER_RUN, quicker
    let mut rounds = 0;
    while !lab.finished() && rounds < 1000 {
        lab.advance(lab.t_end, 50_000);
        rounds += 1;
    }
    for run in lab.runs().iter().filter(|r| r.method != Method::Hamel) {
        assert_eq!(run.samples().len(), 3000);
        assert!(run.error.as_deref().unwrap_or("").contains("limit per run"), "{:?}", run.error);
    }
}

#[test]
fn errors_are_positioned() {
    let bad = sleigh().replace("expr = \"-x'*sin(phi) + y'*cos(phi)\"", "expr = \"-x'*sin(phi) + yy'*cos(phi)\"");
    let problems = Lab::new(&bad).err().expect("an unknown name");
    let p = &problems[0];
    assert_eq!(p.field, "constraints[0].expr");
    assert!(p.line.is_some() && p.column.is_some(), "{p:?}");
    assert!(describe_all(&problems).contains("yy"), "{}", describe_all(&problems));
}

#[test]
fn a_failing_method_keeps_its_samples_and_says_why() {
    let text = sleigh().replace("methods = [\"lagrange\", \"hamel\", \"gauss\"]", "methods = [\"hamel\"]");
    let mut lab = Lab::new(&text).unwrap();
    lab.advance(lab.t_end, 100_000);
    let run = &lab.runs()[0];
    let error = run.error.as_deref().expect("Hamel's split turns singular on the sleigh");
    // cos φ = 0 (A₁ = cos φ for dependent y) where the sleigh has turned by π/2.
    let t = run.samples().last().unwrap().t;
    let phi = run.samples().last().unwrap().q[2];
    assert!((phi.cos()).abs() < 1e-2, "φ = {phi} at the end");
    assert!(
        error.starts_with("Hamel's embedding ends at t = ")
            && error.contains("its split (dependent y) is singular there"),
        "{error}"
    );
    assert!(run.ended, "an expected end, not a failure");
    assert!(t > 1.0 && run.samples().len() > 5);
}

/// An open-ended run: extended past its end it goes on from where it is, to the
/// motion a longer run gives (to the integrator's tolerance: the step that landed on
/// the first end was shortened), and a restart brings back the scenario's end.
#[test]
fn an_extended_run_goes_on_to_the_longer_runs_motion() {
    let text = crate::gallery::text("cart-pole").expect("in the gallery").replace("t_end = 30", "t_end = 2");
    assert!(text.contains("t_end = 2"), "the cart-pole's t_end is set here");
    let longer = text.replace("t_end = 2", "t_end = 4");
    let mut lab = Lab::new(&text).unwrap();
    lab.advance(lab.t_end, 100_000);
    assert!(lab.finished());
    assert_eq!(lab.extend(f64::NAN), 2.0, "not a time: nothing changes");
    assert_eq!(lab.extend(1.0), 2.0, "never shortened");
    assert_eq!(lab.extend(4.0), 4.0);
    assert!(!lab.finished(), "the runs go on");
    lab.advance(4.0, 100_000);
    assert!(lab.finished());
    let mut reference = Lab::new(&longer).unwrap();
    reference.advance(4.0, 100_000);
    for (run, other) in lab.runs().iter().zip(reference.runs()) {
        let (a, b) = (run.samples().last().unwrap(), other.samples().last().unwrap());
        assert_eq!((a.t, b.t), (4.0, 4.0), "{}", run.method.id());
        for (x, y) in a.q.iter().zip(b.q) {
            assert!((x - y).abs() < 1e-6 * (1.0 + y.abs()), "{}: {x} against {y}", run.method.id());
        }
    }
    lab.restart();
    assert_eq!(lab.t_end, 2.0);
}
