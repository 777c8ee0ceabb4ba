//! The command line's edges: pipes, paths, sample times, states given, limits, refused values.

use super::*;

// ---- Issue 8: command-line edges -------------------------------------------------

/// `nhlab run … | head`: a reader that goes away is a normal end — exit 0, nothing
/// on standard error (it used to panic with exit 101 and a backtrace).
#[test]
fn a_closed_pipe_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nhlab"))
        .args(["run", &scenario("pendulum-cartesian"), "--sample-at", "0:10:0.0001"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 64];
    std::io::Read::read_exact(&mut stdout, &mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn out_accepts_any_writable_path_and_format_chooses_the_table() {
    let (code, out, err) = nhlab(&["run", &scenario("pendulum-cartesian"), "--t-end", "0.5", "--out", "/dev/null"]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    let (code, out, err) =
        nhlab(&["run", &scenario("pendulum-cartesian"), "--t-end", "0.5", "--out", "-", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["columns"][7], "res_rod");
    let dir = scratch("format");
    let path = dir.join("samples.txt");
    let (code, _, err) =
        nhlab(&["run", &scenario("pendulum-cartesian"), "--t-end", "0.5", "--out", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&path).unwrap().starts_with("method,t,"), "CSV by default");
    let (code, _, err) = nhlab(&["run", &scenario("pendulum-cartesian"), "--out", "/no/such/dir/x.csv"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: --out /no/such/dir/x.csv: "), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn sample_at_takes_ranges_and_lists() {
    let (code, out, err) =
        nhlab(&["run", &scenario("pendulum-cartesian"), "--method", "lagrange", "--sample-at", "0:1:0.25,1.5"]);
    assert_eq!(code, 0, "{err}");
    let times: Vec<&str> = out.lines().skip(1).map(|l| l.split(',').nth(1).unwrap()).collect();
    assert_eq!(times, ["0.0", "0.25", "0.5", "0.75", "1.0", "1.5"]);
    // 30,001 times: no argument-list limit, exact grid times.
    let (code, out, err) =
        nhlab(&["run", &scenario("pendulum-cartesian"), "--method", "lagrange", "--sample-at", "0:3:0.0001"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 1 + 30_001);
    assert!(out.lines().last().unwrap().starts_with("lagrange,3.0,"), "STOP is included");
    for (args, message) in [
        ("0:1:0", "error: --sample-at: `0:1:0`: the step must be positive"),
        ("1:0:0.1", "error: --sample-at: `1:0:0.1`: STOP is before START"),
        ("0:1", "error: --sample-at: `0:1`: expected a time or START:STOP:STEP"),
        ("0:1e9:1e-3", "error: --sample-at: more than 10000000 times asked for"),
        ("x", "error: --sample-at: `x` is not a number"),
    ] {
        let (code, _, err) = nhlab(&["run", &scenario("pendulum-cartesian"), "--sample-at", args]);
        assert_eq!((code, err.trim()), (2, message), "{args}");
    }
    let (code, _, err) = nhlab(&["run", &scenario("pendulum-cartesian"), "--sample-at", "0,5", "--t-end", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("the last time 5 is past --t-end 2"), "{err}");
}

/// A singular mass matrix at an `--at` state names that state, not the initial one.
#[test]
fn eval_at_names_the_state_it_evaluated() {
    let text = include_str!("../fixtures/mass-that-vanishes-at-x-0.toml");
    let (code, _, err) = nhlab_with_input(&["eval", "-", "--method", "lagrange", "--at", "x=0,y=2"], Some(text));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--at: the mass matrix ∂²T/∂v² is not positive definite at the given state (t = 0, x = 0, y = 2)"),
        "{err}"
    );
}

/// Omitted velocities the constraints leave free are named, with the values taken.
#[test]
fn free_velocities_are_warned_about_in_check_run_and_eval() {
    let text = std::fs::read_to_string(scenario("knife-edge-incline")).unwrap();
    let spec_example = text.replace("v = { x = 0, phi = 2 }", "v = { phi = 2 }");
    let (code, _, err) = nhlab_with_input(&["check", "-"], Some(&spec_example));
    assert_eq!(code, 0);
    assert!(
        err.contains("<stdin>:27:5: initial.v: x' is not fixed by the constraints; took the minimum-norm value x' = 0"),
        "{err}"
    );
    let (code, out, err) =
        nhlab(&["eval", &scenario("chaplygin-sleigh"), "--method", "lagrange", "--at", "phi=0.3,x'=1"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("warning: --at: phi' is not fixed by the constraints; took the minimum-norm value phi' = 0"),
        "{err}"
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["v"]["phi"], 0.0);
}

#[test]
fn eval_refuses_non_finite_results() {
    let text = include_str!("../fixtures/a-mass-too-small-for-its-force.toml");
    let (code, out, err) = nhlab_with_input(&["eval", "-", "--method", "lagrange"], Some(text));
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(err.contains("lagrange: `qdd.x` is not finite at the initial state, t = 0"), "{err}");
}

#[test]
fn holonomic_constraints_report_position_and_velocity_residuals() {
    let (code, out, err) =
        nhlab(&["eval", &scenario("pendulum-cartesian"), "--method", "lagrange", "--at", "x=0.7,y=-0.7,x'=1,y'=0.5"]);
    // Given velocities must satisfy the rod (2x x' + 2y y' = 0): these do not.
    assert_eq!(code, 2, "{out}{err}");
    let (code, out, err) =
        nhlab(&["eval", &scenario("pendulum-cartesian"), "--method", "lagrange", "--at", "x=0.7,y=-0.7,x'=1"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let phi = 0.7f64 * 0.7 + 0.7 * 0.7 - 1.0;
    assert!((v["residuals"][0].as_f64().unwrap() - phi).abs() < 1e-15, "res = φ(q) = {phi}: {out}");
    assert!(v["velocity_residuals"]["rod"].as_f64().unwrap().abs() < 1e-12, "{out}");
}

#[test]
fn check_says_which_methods_apply_and_why_not() {
    let (code, out, _) = nhlab(&["check", &scenario("appell-hamel")]);
    assert_eq!(code, 0);
    assert!(out.contains("methods: lagrange, udwadia-kalaba, gauss, euler, vakonomic\n"), "{out}");
    assert!(out.contains("  not voronets: Voronets' equations eliminate the dependent velocities"), "{out}");
    let (code, _, err) = nhlab(&["derive", &scenario("appell-hamel"), "--method", "voronets"]);
    assert_eq!(code, 1);
    assert!(err.contains("Voronets' equations eliminate the dependent velocities"), "{err}");
    let (code, _, err) = nhlab(&["run", &scenario("appell-hamel"), "--method", "voronets"]);
    assert_eq!(code, 1);
    assert!(err.contains("Voronets' equations eliminate the dependent velocities"), "{err}");
}

/// `run --plot` draws every `view.series`, one panel each.
#[test]
fn the_figure_draws_every_series() {
    let dir = scratch("series");
    let path = dir.join("sleigh.svg");
    nhlab_ok(&[
        "run",
        &scenario("chaplygin-sleigh"),
        "--method",
        "lagrange",
        "--out",
        "/dev/null",
        "--plot",
        path.to_str().unwrap(),
    ]);
    let svg = std::fs::read_to_string(&path).unwrap();
    let text = nhlab::scenario::load_toml(&std::fs::read_to_string(scenario("chaplygin-sleigh")).unwrap()).unwrap().0;
    let series = &text.view.series;
    assert!(series.len() >= 2);
    for s in series {
        let title = format!("{s} against t").replace('\'', "&apos;");
        assert!(svg.contains(&title), "no panel for {s}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `run --plot` has the page's panels of a run (`nhlab_plots::run_panels`): the
/// contacts' forces where the model determines them, no residuals without
/// constraints, no E-vector without a Hamel split; and its own compulsion.
#[test]
fn the_figure_has_the_pages_panels() {
    let dir = scratch("panels");
    let figure = |item: &str| {
        let path = dir.join(format!("{item}.svg"));
        let args = ["run", &scenario(item), "--t-end", "0.5", "--out", "/dev/null", "--plot", path.to_str().unwrap()];
        let (code, _, err) = nhlab(&args);
        assert_eq!(code, 0, "{item}: {err}");
        std::fs::read_to_string(&path).unwrap()
    };
    let disk = figure("rolling-disk");
    for title in [
        "trajectory",
        "constraint residuals",
        "contact normal forces",
        "friction needed",
        "energy",
        "Hamel&apos;s E-vector",
        "Gauss&apos;s compulsion",
    ] {
        assert!(disk.contains(title), "the rolling disk's figure has no panel `{title}`");
    }
    // The cart-pole: no constraints, no split, no contacts.
    let cart = figure("cart-pole");
    assert!(cart.contains("trajectory") && cart.contains("Gauss&apos;s compulsion"));
    for title in ["constraint residuals", "contact normal forces", "Hamel&apos;s E-vector"] {
        assert!(!cart.contains(title), "the cart-pole's figure has a panel `{title}`");
    }
    std::fs::remove_dir_all(&dir).ok();
}

// ---- Issue 9: bounded runs, named failures ------------------------------------

/// A write error on standard output is an ordinary failure (exit 1, one line), not a
/// panic.
#[test]
fn a_full_disk_is_a_failure_with_a_message() {
    for args in [
        vec!["check", "SCENARIO"],
        vec!["derive", "SCENARIO", "--method", "lagrange"],
        vec!["eval", "SCENARIO", "--method", "lagrange"],
        vec!["run", "SCENARIO", "--t-end", "0.1"],
    ] {
        let path = scenario("pendulum-cartesian");
        let args: Vec<&str> = args.iter().map(|a| if *a == "SCENARIO" { path.as_str() } else { a }).collect();
        let out = Command::new(env!("CARGO_BIN_EXE_nhlab"))
            .args(&args)
            .stdout(std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.starts_with("error: writing to standard output: "), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

/// No run is unbounded: `t_end = 1e300` stops at the step limit, naming the time
/// reached, with the samples so far written.
#[test]
fn a_run_stops_at_its_step_and_sample_limits() {
    let (code, out, err) = nhlab(&[
        "run",
        &scenario("pendulum-cartesian"),
        "--method",
        "lagrange",
        "--t-end",
        "1e300",
        "--max-steps",
        "5000",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("lagrange: the run stopped at t = "), "{err}");
    assert!(err.contains("it reached its limit of 5000 steps (raise it with --max-steps)"), "{err}");
    assert_eq!(out.lines().count(), 1 + 5001, "the start and every step before the limit");
    let (code, out, err) =
        nhlab(&["run", &scenario("pendulum-cartesian"), "--method", "lagrange", "--max-samples", "50"]);
    assert_eq!(code, 1);
    assert!(
        err.contains(
            "it reached its limit of 50 samples (raise it with --max-samples, or thin a long run with --sample-at"
        ),
        "{err}"
    );
    assert_eq!(out.lines().count(), 1 + 50);
    let (code, _, err) = nhlab(&["run", &scenario("pendulum-cartesian"), "--max-steps", "0"]);
    assert_eq!((code, err.trim()), (2, "error: --max-steps and --max-samples: must be at least 1"));
}

fn one_coordinate(extra: &str) -> String {
    format!(
        "format = \"nhlab/1\"\ntitle = \"x\"\ncoordinates = [\"x\"]\nkinetic = \"x'^2/2\"\n{extra}\n[initial]\nt = 1e300\nq = {{ x = 0 }}\nv = {{ x = 1 }}\n"
    )
}

/// A fixed step that does not change the time is refused, and large times print
/// short (`1e300`, not a 301-digit number).
#[test]
fn a_step_that_does_not_advance_time_is_named() {
    let text = one_coordinate("[run]\nintegrator = \"rk4\"\ndt = 1\nt_end = 2e300");
    let (code, _, err) = nhlab_with_input(&["run", "-", "--out", "/dev/null"], Some(&text));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("the step dt = 1e0 does not advance the time at t = 1e300: choose a larger dt"), "{err}");
}

#[test]
fn absurd_tolerances_and_non_finite_multipliers_are_refused() {
    let text = one_coordinate("[run]\nrtol = 1e-300");
    let (code, _, err) = nhlab_with_input(&["check", "-"], Some(&text));
    assert_eq!(code, 2);
    assert!(err.contains("run.rtol: expected at least 1e-14, found 1e-300"), "{err}");
    let text = std::fs::read_to_string(scenario("knife-edge-incline")).unwrap().replace("mu0 = [0.0]", "mu0 = [nan]");
    assert!(text.contains("mu0 = [nan]"));
    let (code, _, err) = nhlab_with_input(&["check", "-"], Some(&text));
    assert_eq!(code, 2);
    assert!(err.contains("vakonomic.mu0[0]: expected a finite number, found NaN"), "{err}");
}
