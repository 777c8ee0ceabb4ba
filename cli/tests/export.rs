//! `nhlab export` and `nhlab linearize --state-space` as a user runs them: the
//! state-space matrices against closed forms and against central differences of
//! the exported `f`; trajectories of the exported Python (SciPy's `solve_ivp`) and
//! C (a fixed-step RK4) against `nhlab run`; bad requests named. Python with NumPy
//! and SciPy, and `cc`, are installed by `scripts/test.sh` (pinned).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn nhlab(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nhlab")).args(args).current_dir(root()).output().expect("nhlab runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn work_dir(what: &str) -> PathBuf {
    let dir = root().join("target/export-cli-tests").join(what);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn python(script: &str, what: &str) -> String {
    let out = Command::new("python3")
        .args(["-c", script])
        .output()
        .expect("python3 (scripts/test.sh installs NumPy and SciPy)");
    assert!(out.status.success(), "{what}:\n{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into()
}

fn numbers(text: &str) -> Vec<f64> {
    text.split_whitespace().map(|x| x.parse().unwrap_or_else(|_| panic!("`{x}` is not a number"))).collect()
}

fn matrix(v: &Value) -> Vec<Vec<f64>> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|row| row.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect())
        .collect()
}

/// The cart-pole about upright: `A` and `B` are the textbook's, `ẍ = (F − m g θ)/M`,
/// `θ̈ = ((M + m) g θ − F)/(M l)`; and central differences of the exported Python's
/// `f` (h = 1e-6) give the same `A` and `B` to 1e-7.
#[test]
fn the_cart_poles_state_space_is_the_textbook_one_and_the_exported_f_agrees() {
    let (code, out, err) = nhlab(&["linearize", "scenarios/cart-pole.toml", "--state-space"]);
    assert_eq!(code, 0, "{err}");
    let json: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["state"], serde_json::json!(["x", "theta", "x'", "theta'"]));
    assert_eq!(json["inputs"], serde_json::json!(["F"]));
    let (a, b) = (matrix(&json["A"]), matrix(&json["B"]));
    let (big_m, m, l, g) = (1.0, 0.2, 0.5, 9.81);
    let want_a = [
        [0.0, 0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
        [0.0, -m * g / big_m, 0.0, 0.0],
        [0.0, (big_m + m) * g / (big_m * l), 0.0, 0.0],
    ];
    let want_b = [0.0, 0.0, 1.0 / big_m, -1.0 / (big_m * l)];
    for i in 0..4 {
        assert!((b[i][0] - want_b[i]).abs() < 1e-12, "B[{i}] = {}, want {}", b[i][0], want_b[i]);
        for j in 0..4 {
            assert!((a[i][j] - want_a[i][j]).abs() < 1e-12, "A[{i}][{j}] = {}, want {}", a[i][j], want_a[i][j]);
        }
    }
    let dir = work_dir("cart-pole");
    let file = dir.join("cart_pole.py");
    let (code, _, err) =
        nhlab(&["export", "scenarios/cart-pole.toml", "--lang", "python", "--out", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let script = format!(
        r#"
import sys
sys.path.insert(0, {dir:?})
import numpy as np
import cart_pole as m
h = 1e-6
y0, u0 = np.zeros(4), np.zeros(1)
cols = []
for k in range(4):
    e = np.zeros(4); e[k] = h
    cols.append((m.rhs(0.0, y0 + e, u0) - m.rhs(0.0, y0 - e, u0)) / (2 * h))
e = np.array([h])
cols.append((m.rhs(0.0, y0, u0 + e) - m.rhs(0.0, y0, u0 - e)) / (2 * h))
print(" ".join(repr(float(x)) for x in np.array(cols).T.ravel()))
"#,
        dir = dir.to_string_lossy()
    );
    let d = numbers(&python(&script, "differences of the exported cart-pole"));
    for i in 0..4 {
        for j in 0..4 {
            assert!((d[i * 5 + j] - a[i][j]).abs() < 1e-7, "d f{i}/d y{j} = {}, A = {}", d[i * 5 + j], a[i][j]);
        }
        assert!((d[i * 5 + 4] - b[i][0]).abs() < 1e-7, "d f{i}/d u = {}, B = {}", d[i * 5 + 4], b[i][0]);
    }
}

/// The scenario with `[run]`'s tolerances tightened and, for the bicycle, a steer
/// torque of 0.5 N m: what both sides run.
fn tightened(name: &str) -> String {
    let text = std::fs::read_to_string(root().join(format!("scenarios/{name}.toml"))).unwrap();
    let text = text.replace("rtol = 1e-10\n", "").replace("atol = 1e-12\n", "");
    let text = text.replace("T_delta = { value = 0,", "T_delta = { value = 0.5,");
    text.replace("[run]\n", "[run]\nrtol = 1e-12\natol = 1e-13\n")
}

/// The exported Python under SciPy's `solve_ivp` (DOP853, rtol 1e-12) and the
/// exported C under a fixed-step RK4 (h = 1e-3) reach `nhlab run`'s state at t = 1
/// to 1e-8: the rolling disk, and the bicycle steered by a constant torque (an
/// input given to `f` as `u`).
#[test]
fn exported_trajectories_equal_nhlab_run() {
    for (name, inputs) in [("rolling-disk", "[]"), ("whipple-bicycle", "[0.5, 0.0]")] {
        let dir = work_dir(name);
        let scenario = dir.join("scenario.toml");
        std::fs::write(&scenario, tightened(name)).unwrap();
        let s = scenario.to_str().unwrap();
        let (code, csv, err) =
            nhlab(&["run", s, "--method", "lagrange", "--sample-at", "0,1", "--columns", "state", "--t-end", "1"]);
        assert_eq!(code, 0, "{err}");
        let rows: Vec<Vec<f64>> =
            csv.lines().skip(1).map(|l| l.split(',').skip(2).map(|x| x.parse().unwrap()).collect()).collect();
        let (start, end) = (&rows[0], &rows[rows.len() - 1]);
        let stem = name.replace('-', "_");
        for lang in ["python", "c"] {
            let ext = if lang == "python" { "py" } else { "c" };
            let out = dir.join(format!("{stem}.{ext}"));
            let (code, _, err) = nhlab(&["export", s, "--lang", lang, "--out", out.to_str().unwrap()]);
            assert_eq!(code, 0, "{err}");
        }
        let y0: Vec<String> = start.iter().map(|x| format!("{x:e}")).collect();
        let script = format!(
            r#"
import sys
sys.path.insert(0, {dir:?})
import numpy as np
from scipy.integrate import solve_ivp
import {stem} as m
u = np.array({inputs}, dtype=float)
sol = solve_ivp(lambda t, y: m.rhs(t, y, u), (0.0, 1.0), np.array([{y0}]), method="DOP853", rtol=1e-12, atol=1e-13)
print(" ".join(repr(float(x)) for x in sol.y[:, -1]))
"#,
            dir = dir.to_string_lossy(),
            y0 = y0.join(", ")
        );
        let by_python = numbers(&python(&script, &format!("solve_ivp on the exported {name}")));
        let n2 = start.len();
        let main = format!(
            r#"#include "{stem}.c"
#include <stdio.h>
int main(void) {{
    {stem}_parameters p = {stem}_default_parameters();
    double y[{n2}] = {{ {y0} }}, u[{stem}_INPUTS + 1] = {{ 0 }}, k[4][{n2}], z[{n2}];
    double h = 1e-3, nodes[4] = {{ 0.0, 0.5, 0.5, 1.0 }};
    {stem}_default_inputs(u);
    for (int s = 0; s < 1000; s++) {{
        for (int j = 0; j < 4; j++) {{
            for (int i = 0; i < {n2}; i++) z[i] = y[i] + (j ? nodes[j] * h * k[j - 1][i] : 0.0);
            if ({stem}_rhs(s * h + nodes[j] * h, z, u, &p, k[j])) {{ puts({stem}_error(1)); return 1; }}
        }}
        for (int i = 0; i < {n2}; i++) y[i] += h / 6.0 * (k[0][i] + 2.0 * k[1][i] + 2.0 * k[2][i] + k[3][i]);
    }}
    for (int i = 0; i < {n2}; i++) printf("%.17g\n", y[i]);
    return 0;
}}
"#,
            y0 = y0.join(", ")
        );
        std::fs::write(dir.join("main.c"), main).unwrap();
        let binary = dir.join("rk4");
        let built = Command::new("cc")
            .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-O2", "-o"])
            .arg(&binary)
            .arg(dir.join("main.c"))
            .arg("-lm")
            .output()
            .expect("cc");
        assert!(built.status.success(), "cc: {}", String::from_utf8_lossy(&built.stderr));
        let run = Command::new(&binary).output().unwrap();
        assert!(run.status.success(), "the RK4 run of the exported {name}");
        let by_c = numbers(&String::from_utf8_lossy(&run.stdout));
        for (what, got) in [("Python solve_ivp", &by_python), ("C RK4", &by_c)] {
            assert_eq!(got.len(), end.len(), "{name}, {what}");
            for (k, (a, b)) in got.iter().zip(end).enumerate() {
                assert!((a - b).abs() < 1e-8, "{name}, {what}: y[{k}] at t = 1 is {a}, nhlab run {b}");
            }
        }
        // The torque steers: the run differs from the free one.
        if name == "whipple-bicycle" {
            let free = std::fs::read_to_string(root().join("scenarios/whipple-bicycle.toml")).unwrap();
            assert!(free.contains("T_delta = { value = 0,"), "the gallery's bicycle starts without torque");
        }
    }
}

/// Requests that cannot be met are refused with the flag and the reason.
#[test]
fn bad_export_requests_are_named() {
    let (code, _, err) = nhlab(&["export", "scenarios/chaplygin-sleigh.toml", "--lang", "fortran"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--lang: unknown language `fortran` (one of c, python, matlab, rust)"), "{err}");
    let (code, _, err) = nhlab(&["export", "scenarios/chaplygin-sleigh.toml", "--lang", "c", "--method", "hamel"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--method hamel: hamel's equations are not exported yet"), "{err}");
    let (code, _, err) = nhlab(&["export", "scenarios/chaplygin-sleigh.toml", "--lang", "c", "--method", "gauss"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("gives the same equations as Lagrange's"), "{err}");
    let (code, _, err) = nhlab(&["export", "scenarios/chaplygin-sleigh.toml", "--lang", "c", "--method", "newton"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--method: unknown method `newton`"), "{err}");
    let dir = work_dir("names");
    let out = dir.join("my-sleigh.m");
    let (code, _, err) =
        nhlab(&["export", "scenarios/chaplygin-sleigh.toml", "--lang", "matlab", "--out", out.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("call it my_sleigh.m"), "{err}");
    // A scenario with problems is named at its place, as by every command.
    let broken = dir.join("broken.toml");
    let text = std::fs::read_to_string(root().join("scenarios/cart-pole.toml"))
        .unwrap()
        .replace("F = { value = 0,", "F = { value = 20,");
    std::fs::write(&broken, text).unwrap();
    let (code, _, err) = nhlab(&["export", broken.to_str().unwrap(), "--lang", "c"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("inputs.F") && err.contains("outside"), "{err}");
}

/// A model whose code would be too long is refused, with its size: a chain of 40
/// pendulums, whose dense 40×40 solve written out is 36,311 operations (30 export:
/// 6.9 MB of C).
#[test]
fn a_model_too_large_to_export_is_refused_with_its_size() {
    let n = 40;
    let q: Vec<String> = (0..n).map(|i| format!("q{i}")).collect();
    let mut kinetic = Vec::new();
    for i in 0..n {
        let x: Vec<String> = (0..=i).map(|k| format!("cos(q{k})*q{k}'")).collect();
        let y: Vec<String> = (0..=i).map(|k| format!("sin(q{k})*q{k}'")).collect();
        kinetic.push(format!("({})^2 + ({})^2", x.join(" + "), y.join(" + ")));
    }
    let potential: Vec<String> =
        (0..n).map(|i| (0..=i).map(|k| format!("-cos(q{k})")).collect::<Vec<_>>().join(" ")).collect();
    let text = format!(
        "format = \"nhlab/1\"\ntitle = \"chain\"\ncoordinates = [{}]\nkinetic = \"({})/2\"\npotential = \"{}\"\n[initial.q]\n{}\n[initial.v]\n{}\n",
        q.iter().map(|c| format!("\"{c}\"")).collect::<Vec<_>>().join(", "),
        kinetic.join(" + "),
        potential.join(" "),
        q.iter().map(|c| format!("{c} = 0.1")).collect::<Vec<_>>().join("\n"),
        q.iter().map(|c| format!("{c} = 0")).collect::<Vec<_>>().join("\n"),
    );
    let dir = work_dir("large");
    let file = dir.join("chain.toml");
    std::fs::write(&file, text).unwrap();
    let (code, out, err) = nhlab(&["export", file.to_str().unwrap(), "--lang", "c"]);
    assert_ne!(code, 0, "{}", &out[..out.len().min(300)]);
    assert!(
        err.contains("cannot export: the solve written out for 40 coordinates and 0 constraints would be 36311 instructions; at most 16000 are exported"),
        "{err}"
    );
    assert!(out.is_empty());
}

/// Issue 57: 200 coordinates and 199 sparse constraints (inside the lab's limits:
/// the run starts in 0.25 s) took 71 s and 0.9 GB to export. The Jacobian's
/// derivatives are counted first, and a model past the bound is refused at once with
/// its size and the bound (the reference states it).
#[test]
fn an_export_past_its_bound_is_refused_before_the_work() {
    let n = 200;
    let q: Vec<String> = (0..n).map(|i| format!("q{i}")).collect();
    let mut text = format!(
        "format = \"nhlab/1\"\ntitle = \"sparse\"\ncoordinates = [{}]\nkinetic = \"{}\"\n",
        q.iter().map(|c| format!("\"{c}\"")).collect::<Vec<_>>().join(", "),
        q.iter().map(|c| format!("{c}'^2")).collect::<Vec<_>>().join(" + "),
    );
    for k in 0..n - 1 {
        text += &format!("[[constraints]]\nexpr = \"q{k}' - cos(q{})*q{}'\"\n", k + 1, k + 1);
    }
    text +=
        &format!("[initial]\nq = {{ {} }}\n", q.iter().map(|c| format!("{c} = 0.1")).collect::<Vec<_>>().join(", "));
    let dir = work_dir("sparse");
    let file = dir.join("sparse.toml");
    std::fs::write(&file, text).unwrap();
    let started = std::time::Instant::now();
    let (code, out, err) = nhlab(&["export", file.to_str().unwrap(), "--lang", "c"]);
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty());
    assert!(
        err.contains("the Jacobian for 200 coordinates and 199 constraints differentiates 32079600 terms of M, F, A and b; at most 4000000 are exported"),
        "{err}"
    );
    // A backstop far above the refusal's 0.1 s and far below the 71 s it took.
    assert!(started.elapsed().as_secs_f64() < 30.0, "{:?}", started.elapsed());
}

/// The reference's controller example runs as printed: its two commands in a fresh
/// directory, then its Python, which must hold the pendulum up.
#[test]
fn the_references_controller_example_runs_as_printed() {
    let doc = std::fs::read_to_string(root().join("docs/reference.md")).unwrap();
    let at = doc.find("A controller for the cart-pole").expect("the example");
    let example = &doc[at..];
    let commands: Vec<&str> = example.lines().filter_map(|l| l.strip_prefix("$ nhlab ")).take(2).collect();
    assert_eq!(commands.len(), 2);
    let script = example.split("```python\n").nth(1).and_then(|s| s.split("```").next()).expect("a Python block");
    let dir = work_dir("reference-controller");
    for command in commands {
        let args: Vec<String> = command
            .split_whitespace()
            .map(|a| {
                if a.starts_with("scenarios/") {
                    root().join(a).to_string_lossy().into_owned()
                } else {
                    a.to_string()
                }
            })
            .collect();
        let out = Command::new(env!("CARGO_BIN_EXE_nhlab")).args(&args).current_dir(&dir).output().unwrap();
        assert!(out.status.success(), "nhlab {command}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let out = Command::new("python3").args(["-c", script]).current_dir(&dir).output().expect("python3");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let printed = String::from_utf8_lossy(&out.stdout);
    let theta: f64 = printed.trim().strip_prefix("theta(10) = ").and_then(|x| x.parse().ok()).expect("theta(10) = …");
    assert!(theta.abs() < 1e-3, "the pendulum is held up: {printed}");
    assert!(
        doc.contains(&format!("`theta(10) =\n{}`", printed.trim().trim_start_matches("theta(10) = "))),
        "the printed value is the reference's: {printed}"
    );
}

/// `run --input NAME=SIGNAL` drives an input by an expression or a CSV table, as a
/// scenario's `signal` would: the unit oscillator `x'' = −x + u` from rest follows
/// `(2 sin t − sin 2t)/3` under `u = sin 2t`, and `t − sin t` under the ramp `u = t`.
#[test]
fn run_takes_an_inputs_signal_from_the_command_line() {
    let text = "format = \"nhlab/1\"\ntitle = \"oscillator\"\ncoordinates = [\"x\"]\nkinetic = \"x'^2/2\"\npotential = \"x^2/2\"\nforces = { x = \"u\" }\n[inputs]\nu = { value = 0 }\n[initial]\nq = { x = 0 }\nv = { x = 0 }\n[run]\nrtol = 1e-12\natol = 1e-13\nt_end = 1\n";
    let dir = work_dir("run-input");
    let file = dir.join("oscillator.toml");
    std::fs::write(&file, text).unwrap();
    let table = dir.join("ramp.csv");
    std::fs::write(&table, "t,u\n0,0\n1,1\n").unwrap();
    let f = file.to_str().unwrap();
    let ramp = format!("u=@{}", table.to_str().unwrap());
    for (flag, want) in [("u=sin(2*t)", (2.0 * 1f64.sin() - 2f64.sin()) / 3.0), (ramp.as_str(), 1.0 - 1f64.sin())] {
        let (code, csv, err) = nhlab(&["run", f, "--input", flag, "--sample-at", "1", "--columns", "state"]);
        assert_eq!(code, 0, "{err}");
        let last: Vec<f64> = csv.lines().last().unwrap().split(',').skip(1).map(|x| x.parse().unwrap()).collect();
        assert_eq!(last[0], 1.0);
        assert!((last[1] - want).abs() < 1e-9, "--input {flag}: x(1) = {}, want {want}", last[1]);
    }
    let (code, _, err) = nhlab(&["run", f, "--input", "v=1"]);
    assert_eq!(code, 2);
    assert!(err.contains("--input v=1: `v` is not an input (the scenario's: u)"), "{err}");
    let (code, _, err) = nhlab(&["run", f, "--input", "u=sin(tt)"]);
    assert_eq!(code, 2);
    assert!(err.contains("--input u: unknown name `tt`"), "{err}");
    std::fs::write(&table, "t,u\n0,0\n0,1\n").unwrap();
    let (code, _, err) = nhlab(&["run", f, "--input", &ramp]);
    assert_eq!(code, 2);
    assert!(err.contains("--input u: the times must increase"), "{err}");
    // Issue 57: a bad row was echoed whole (a 20 MB line, a 20 MB message) with the
    // terminal's control sequences raw, and a `nan` row had no line number.
    let long = format!("t,u\n0,0\n1,\u{1b}[2J{}\n", "9".repeat(2_000_000));
    std::fs::write(&table, long).unwrap();
    let (code, _, err) = nhlab(&["run", f, "--input", &ramp]);
    assert_eq!(code, 2);
    assert!(err.len() < 600 && !err.contains('\u{1b}'), "{} bytes: {}", err.len(), &err[..err.len().min(300)]);
    assert!(err.contains("line 3: expected two finite numbers `t,u`, found `1,\\u{1b}[2J999"), "{err}");
    assert!(err.contains("… (2000006 characters)"), "{err}");
    std::fs::write(&table, "t,u\n0,0\n1,nan\n").unwrap();
    let (code, _, err) = nhlab(&["run", f, "--input", &ramp]);
    assert_eq!(code, 2);
    assert!(err.contains("line 3: expected two finite numbers `t,u`, found `1,nan`"), "{err}");
}

/// `check` lists the inputs apart from the parameters, with their signals.
#[test]
fn check_lists_the_inputs() {
    let (code, out, err) = nhlab(&["check", "scenarios/cart-pole.toml"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("parameters: M = 1, g = 9.81, l = 0.5, m = 0.2\n"), "{out}");
    assert!(out.contains("inputs: F = 0\n"), "{out}");
    let dir = work_dir("check-inputs");
    let file = dir.join("driven.toml");
    let text = std::fs::read_to_string(root().join("scenarios/cart-pole.toml"))
        .unwrap()
        .replace("label = \"force on the cart\" }", "label = \"force on the cart\", signal = \"sin(t)\" }");
    std::fs::write(&file, text).unwrap();
    let (code, out, err) = nhlab(&["check", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("inputs: F = sin(t) (its signal)\n"), "{out}");
}
