//! `nhlab export`: every gallery item's file, in each language, compiled or run by
//! that language's own tools (`cc -std=c99 -Wall -Wextra -Werror -O2`, `rustc`,
//! Python with NumPy, GNU Octave), gives the lab's numbers at states along a run
//! and off it: the right-hand side and the terms to 1e-12 (relative to each
//! array's size) against the lab's own evaluation (what `nhlab eval` prints), `∂f/∂y`
//! against the lab's exact linearisation, `∂f/∂u` against central differences of
//! the lab's accelerations in each input (1e-7). `scripts/test.sh` installs the
//! tools (pinned) before the tests run; a missing tool fails the test, never skips it.

use std::path::{Path, PathBuf};
use std::process::Command;

use nhlab::code_export::{export, Language};
use nhlab::formulations::{accelerations, Method};
use nhlab::mechanics::{Model, Needs, NumericModel};
use nhlab::scenario::load_toml;
use nhlab::simulation::{initial_state, Settings, Simulation};
use nhlab::stability::Derivatives;
use nhlab_tests::hostile::{hostile_scenario, HOSTILE, RESERVED_NAMES};
use nhlab_tests::random::Rng;

/// One gallery item: its model with the inputs as arguments, and the states to compare at.
struct Case {
    name: String,
    model: Model,
    numeric: NumericModel,
    /// `(t, q, v)`.
    states: Vec<(f64, Vec<f64>, Vec<f64>)>,
    initial: nhlab::simulation::State,
}

fn case(name: &str) -> Case {
    case_of(name, &nhlab_tests::scenarios::text(name))
}

/// [`case`] for a scenario's text.
fn case_of(name: &str, text: &str) -> Case {
    let (scenario, map) = load_toml(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let model = Model::build_for(&scenario, &map, Needs::BASE.holding_inputs()).unwrap();
    let mut numeric = NumericModel::new(&model).unwrap();
    let initial = initial_state(&model, &mut numeric, &map).unwrap();
    // The initial state, two states along a short run (on the constraints), and two
    // near it off them where the constraints are independent.
    let mut states = vec![(initial.t, initial.q.clone(), initial.v.clone())];
    let settings = Settings::from_scenario(&model.scenario.run, Method::Lagrange);
    let mut sim = Simulation::new(numeric.clone(), settings, &initial).unwrap();
    let t0 = initial.t;
    if sim.advance_sampling(&[t0 + 0.1, t0 + 0.3]).is_ok() {
        states.extend(sim.samples().iter().skip(1).map(|s| (s.t, s.q.to_vec(), s.v.to_vec())));
    }
    if !nhlab_tests::scenarios::redundant(&model) {
        let mut rng = Rng::new(7);
        for _ in 0..2 {
            let q = initial.q.iter().map(|x| x + rng.range(-0.05, 0.05)).collect();
            let v = initial.v.iter().map(|x| x + rng.range(-0.05, 0.05)).collect();
            states.push((initial.t + 0.05, q, v));
        }
    }
    Case { name: name.to_string(), model, numeric, states, initial }
}

/// The lab's numbers at each state, in the drivers' order: `f` (2n), `M`, `F`, `A`,
/// `b`, `f`, `φ`, `T + V`, `∂f/∂y` (2n × 2n); and `∂f/∂u` (2n × p) by differences.
fn reference(c: &mut Case) -> Vec<(Vec<f64>, Vec<f64>)> {
    let n = c.model.coordinate_count();
    let slots = c.model.inputs.clone();
    let mut derivatives = Derivatives::new(&c.model).unwrap();
    let mut out = Vec::new();
    for (t, q, v) in c.states.clone() {
        let qdd = accelerations(Method::Lagrange, &mut c.numeric, t, &q, &v).unwrap().accelerations;
        let mut row: Vec<f64> = v.iter().copied().chain(qdd.iter().copied()).collect();
        let terms = c.numeric.evaluate(t, &q, &v).unwrap().clone();
        let row_major = |m: &nalgebra::DMatrix<f64>| -> Vec<f64> { m.transpose().iter().copied().collect() };
        row.extend(row_major(&terms.mass));
        row.extend(terms.forcing.iter());
        row.extend(row_major(&terms.jacobian));
        row.extend(terms.bias.iter());
        row.extend(terms.residuals.iter());
        row.extend(terms.position_residuals.iter());
        row.push(terms.energy);
        let jacobian =
            nhlab::stability::jacobian(Method::Lagrange, &mut c.numeric, &mut derivatives, t, &q, &v).unwrap();
        row.extend(row_major(&jacobian));
        // ∂f/∂u by central differences of the accelerations.
        let mut by_inputs = vec![0.0; 2 * n * slots.len()];
        for (j, &slot) in slots.iter().enumerate() {
            let base = c.numeric.parameters[slot];
            let h = 1e-6 * (1.0 + base.abs());
            let mut at = |u: f64| {
                c.numeric.parameters[slot] = u;
                accelerations(Method::Lagrange, &mut c.numeric, t, &q, &v).unwrap().accelerations
            };
            let (up, down) = (at(base + h), at(base - h));
            c.numeric.parameters[slot] = base;
            for i in 0..n {
                by_inputs[(n + i) * slots.len() + j] = (up[i] - down[i]) / (2.0 * h);
            }
        }
        out.push((row, by_inputs));
    }
    out
}

/// The states as the drivers read them: a count line, then `t y… u…` per line.
fn states_text(c: &Case) -> String {
    let defaults: Vec<f64> = c.model.inputs.iter().map(|&k| c.numeric.parameters[k]).collect();
    let mut text = format!("{}\n", c.states.len());
    for (t, q, v) in &c.states {
        let numbers: Vec<String> = std::iter::once(*t)
            .chain(q.iter().copied())
            .chain(v.iter().copied())
            .chain(defaults.iter().copied())
            .map(|x| format!("{x:e}"))
            .collect();
        text += &(numbers.join(" ") + "\n");
    }
    text
}

/// A fresh directory under the target directory.
fn work_dir(what: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/export-tests").join(what);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(command: &mut Command, input: &str, what: &str) -> String {
    use std::io::Write;
    let mut child = command
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("{what}: cannot start {:?}: {e} (scripts/test.sh installs it)", command.get_program())
        });
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{what} failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stderr),
        String::from_utf8_lossy(&output.stdout)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// Checks a driver's numbers against the lab's, state by state.
fn compare(c: &mut Case, printed: &str, language: &str) {
    let numbers: Vec<f64> = printed
        .split_whitespace()
        .map(|x| match x {
            "NaN" | "nan" => f64::NAN,
            "Inf" | "inf" => f64::INFINITY,
            "-Inf" | "-inf" => f64::NEG_INFINITY,
            x => x.parse().unwrap_or_else(|_| panic!("{language} {}: `{x}` is not a number", c.name)),
        })
        .collect();
    let n = c.model.coordinate_count();
    let m = c.model.constraints.len();
    let p = c.model.inputs.len();
    let want = reference(c);
    let per = 2 * n + (n * n + n + m * n + 3 * m + 1) + 4 * n * n + 2 * n * p;
    assert_eq!(numbers.len(), per * want.len(), "{language} {}: how many numbers", c.name);
    let parts = [
        ("f", 2 * n),
        ("M", n * n),
        ("F", n),
        ("A", m * n),
        ("b", m),
        ("f (residuals)", m),
        ("phi", m),
        ("T + V", 1),
        ("df/dy", 4 * n * n),
    ];
    for (s, (row, by_inputs)) in want.iter().enumerate() {
        let got = &numbers[s * per..(s + 1) * per];
        let mut at = 0;
        for (part, count) in parts {
            let (g, w) = (&got[at..at + count], &row[at..at + count]);
            let scale = w.iter().fold(1.0f64, |a, x| a.max(x.abs()));
            // The exact Jacobian's entries are sums of many products: 1e-10 of their size.
            let tolerance = if part == "df/dy" { 1e-10 } else { 1e-12 } * scale;
            for (k, (a, b)) in g.iter().zip(w).enumerate() {
                assert!(
                    (a - b).abs() <= tolerance,
                    "{language} {} state {s}: {part}[{k}] = {a:e}, the lab's {b:e}",
                    c.name
                );
            }
            at += count;
        }
        let g = &got[at..at + 2 * n * p];
        let scale = by_inputs.iter().fold(1.0f64, |a, x| a.max(x.abs()));
        for (k, (a, b)) in g.iter().zip(by_inputs).enumerate() {
            assert!(
                (a - b).abs() <= 1e-7 * scale,
                "{language} {} state {s}: df/du[{k}] = {a:e}, differences {b:e}",
                c.name
            );
        }
    }
}

/// Every gallery item's file in `language`, checked by `check(dir, file, states)`
/// which returns what the driver printed.
fn every_item(language: Language, check: &dyn Fn(&Path, &str, &Case, &str) -> String) {
    let dir = work_dir(language.id());
    for name in nhlab_tests::scenarios::names() {
        let mut c = case(&name);
        let stem = nhlab::code_export::identifier(&name);
        let text = export(&c.model, &mut c.numeric.clone(), &c.initial, language, &stem, "test").unwrap();
        let file = format!("{stem}.{}", language.extension());
        std::fs::write(dir.join(&file), &text).unwrap();
        let printed = check(&dir, &stem, &c, &states_text(&c));
        compare(&mut c, &printed, language.id());
    }
}

#[test]
fn exported_c_compiles_cleanly_and_gives_the_labs_numbers() {
    every_item(Language::C, &c_driver);
}

/// The C driver: builds or loads the file `stem` in `dir`, feeds it `states`, returns what it printed.
fn c_driver(dir: &Path, stem: &str, c: &Case, states: &str) -> String {
    let (n, m, p) = (c.model.coordinate_count(), c.model.constraints.len(), c.model.inputs.len());
    let driver = format!(
        r#"#include "{stem}.c"
#include <stdio.h>
int main(void) {{
    int count;
    if (scanf("%d", &count) != 1) return 2;
    {stem}_parameters p = {stem}_default_parameters();
    static double y[{s}], u[{p1}], dy[{s}], M[{nn}], F[{n1}], A[{mn}], b[{m1}], f[{m1}], phi[{m1}], e[1], dfdy[{ss}], dfdu[{sp}];
    for (int k = 0; k < count; k++) {{
        double t;
        if (scanf("%lf", &t) != 1) return 2;
        for (int i = 0; i < {s}; i++) if (scanf("%lf", &y[i]) != 1) return 2;
        for (int i = 0; i < {p}; i++) if (scanf("%lf", &u[i]) != 1) return 2;
        if ({stem}_rhs(t, y, u, &p, dy)) {{ fprintf(stderr, "%s\n", {stem}_error(1)); return 1; }}
        {stem}_terms(t, y, u, &p, M, F, A, b, f, phi, e);
        if ({stem}_jacobian(t, y, u, &p, dfdy, dfdu)) {{ fprintf(stderr, "%s\n", {stem}_error(1)); return 1; }}
        for (int i = 0; i < {s}; i++) printf("%.17g\n", dy[i]);
        for (int i = 0; i < {nn}; i++) printf("%.17g\n", M[i]);
        for (int i = 0; i < {n}; i++) printf("%.17g\n", F[i]);
        for (int i = 0; i < {mn0}; i++) printf("%.17g\n", A[i]);
        for (int i = 0; i < {m}; i++) printf("%.17g\n", b[i]);
        for (int i = 0; i < {m}; i++) printf("%.17g\n", f[i]);
        for (int i = 0; i < {m}; i++) printf("%.17g\n", phi[i]);
        printf("%.17g\n", e[0]);
        for (int i = 0; i < {ss}; i++) printf("%.17g\n", dfdy[i]);
        for (int i = 0; i < {sp0}; i++) printf("%.17g\n", dfdu[i]);
    }}
    return 0;
}}
"#,
        s = 2 * n,
        p1 = p + 1,
        nn = n * n,
        n1 = n,
        mn = m * n + 1,
        mn0 = m * n,
        m1 = m + 1,
        ss = 4 * n * n,
        sp = 2 * n * p + 1,
        sp0 = 2 * n * p,
    );
    std::fs::write(dir.join(format!("{stem}_main.c")), driver).unwrap();
    let binary = dir.join(stem);
    let compiled = Command::new("cc")
        .args(["-std=c99", "-Wall", "-Wextra", "-Werror", "-O2", "-o"])
        .arg(&binary)
        .arg(dir.join(format!("{stem}_main.c")))
        .arg("-lm")
        .output()
        .expect("cc");
    assert!(compiled.status.success(), "cc {stem}.c:\n{}", String::from_utf8_lossy(&compiled.stderr));
    run(&mut Command::new(&binary), states, &format!("the C driver of {stem}"))
}

#[test]
fn exported_python_runs_with_numpy_and_gives_the_labs_numbers() {
    every_item(Language::Python, &python_driver);
}

/// The Python driver: builds or loads the file `stem` in `dir`, feeds it `states`, returns what it printed.
fn python_driver(dir: &Path, stem: &str, _: &Case, states: &str) -> String {
    let driver = format!(
        r#"import sys
sys.path.insert(0, {dir:?})
import numpy as np
import {stem} as model
lines = sys.stdin.read().split("\n")
count = int(lines[0])
n = len(model.STATE)
out = []
for line in lines[1:1 + count]:
    x = [float(v) for v in line.split()]
    t, y, u = x[0], np.array(x[1:1 + n]), np.array(x[1 + n:])
    out.extend(model.rhs(t, y, u, model.PARAMETERS))
    terms = model.terms(t, y, u, model.PARAMETERS)
    for key in ["M", "F", "A", "b", "f", "phi"]:
        out.extend(np.asarray(terms[key], dtype=float).ravel())
    out.append(terms["energy"])
    dfdy, dfdu = model.jacobian(t, y, u, model.PARAMETERS)
    out.extend(dfdy.ravel())
    out.extend(dfdu.ravel())
print("\n".join(repr(float(v)) for v in out))
"#,
        dir = dir.to_string_lossy()
    );
    std::fs::write(dir.join(format!("{stem}_driver.py")), driver).unwrap();
    run(
        Command::new("python3").arg(dir.join(format!("{stem}_driver.py"))),
        states,
        &format!("the Python driver of {stem}"),
    )
}

#[test]
fn exported_matlab_runs_in_octave_and_gives_the_labs_numbers() {
    every_item(Language::Matlab, &octave_driver);
}

/// The Matlab driver: builds or loads the file `stem` in `dir`, feeds it `states`, returns what it printed.
fn octave_driver(dir: &Path, stem: &str, _: &Case, states: &str) -> String {
    std::fs::write(dir.join(format!("{stem}_states.txt")), states).unwrap();
    let driver = format!(
        r#"m = {stem}();
x = dlmread('{stem}_states.txt', ' ', 1, 0);
n = numel(m.state);
for k = 1:size(x, 1)
  t = x(k, 1); y = x(k, 2:1 + n)'; u = x(k, 2 + n:end)';
  if isempty(u), u = zeros(0, 1); end
  dy = m.rhs(t, y, u, m.parameters);
  s = m.terms(t, y, u, m.parameters);
  [dfdy, dfdu] = m.jacobian(t, y, u, m.parameters);
  v = [dy; reshape(s.M', [], 1); s.F; reshape(s.A', [], 1); s.b; s.f; s.phi; s.energy; reshape(dfdy', [], 1); reshape(dfdu', [], 1)];
  fprintf('%.17g\n', v);
end
"#
    );
    std::fs::write(dir.join(format!("{stem}_driver.m")), driver).unwrap();
    run(
        Command::new("octave-cli")
            .args(["--no-gui", "--norc", "--quiet", "--eval"])
            .arg(format!("{stem}_driver"))
            .current_dir(dir),
        "",
        &format!("the Octave driver of {stem}"),
    )
}

#[test]
fn exported_rust_compiles_with_rustc_alone_and_gives_the_labs_numbers() {
    every_item(Language::Rust, &rust_driver);
}

/// The Rust driver: builds or loads the file `stem` in `dir`, feeds it `states`, returns what it printed.
fn rust_driver(dir: &Path, stem: &str, _: &Case, states: &str) -> String {
    let driver = format!(
        r#"#[path = "{stem}.rs"]
mod model;
use std::io::Read;
fn main() {{
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).unwrap();
    let mut lines = text.lines();
    let count: usize = lines.next().unwrap().trim().parse().unwrap();
    let n = model::STATE.len();
    let p = model::Parameters::default();
    let mut out: Vec<f64> = Vec::new();
    for line in lines.take(count) {{
        let x: Vec<f64> = line.split_whitespace().map(|v| v.parse().unwrap()).collect();
        let (t, y, u) = (x[0], &x[1..1 + n], &x[1 + n..]);
        out.extend(model::rhs(t, y, u, &p).expect("rhs"));
        let s = model::terms(t, y, u, &p);
        for part in [&s.mass, &s.forcing, &s.jacobian, &s.bias, &s.velocity_residuals, &s.position_residuals] {{
            out.extend(part.iter());
        }}
        out.push(s.energy);
        let (dfdy, dfdu) = model::jacobian(t, y, u, &p).expect("jacobian");
        out.extend(dfdy);
        out.extend(dfdu);
    }}
    for v in out {{
        println!("{{v:e}}");
    }}
}}
"#
    );
    std::fs::write(dir.join(format!("{stem}_main.rs")), driver).unwrap();
    let binary = dir.join(format!("{stem}_bin"));
    let compiled = Command::new("rustc")
        .args(["--edition", "2021", "-C", "opt-level=0", "-D", "warnings", "-o"])
        .arg(&binary)
        .arg(dir.join(format!("{stem}_main.rs")))
        .output()
        .expect("rustc");
    assert!(compiled.status.success(), "rustc {stem}.rs:\n{}", String::from_utf8_lossy(&compiled.stderr));
    run(&mut Command::new(&binary), states, &format!("the Rust driver of {stem}"))
}

/// Every exporter under hostile text and reserved names: each file compiles
/// (`cc -std=c99 -Wall -Wextra -Werror`, `rustc -D warnings`) or runs (Python with
/// `-W error`, Octave), gives the lab's numbers (every renamed parameter its own
/// value), and the Python module prints nothing and defines only the model when
/// imported. A file name that is the MATLAB file's own function (`jacobian`), a
/// function it calls (`zeros`) or a module Python imports (`math`) is renamed.
#[test]
fn hostile_text_and_reserved_names_give_files_that_compile_and_compute() {
    let names: Vec<&str> =
        RESERVED_NAMES.iter().copied().filter(|n| load_toml(&hostile_scenario("t", "c", &[n])).is_ok()).collect();
    assert!(names.len() + 3 >= RESERVED_NAMES.len(), "the lab accepts these names: {names:?}");
    for stem in ["jacobian", "rhs", "terms", "zeros", "math", "numpy"] {
        assert_ne!(nhlab::code_export::identifier(stem), stem, "{stem} is renamed");
    }
    let dir = work_dir("hostile");
    for k in 0..HOSTILE.len().div_ceil(6) {
        let piece = |j: usize| HOSTILE[(6 * k + j) % HOSTILE.len()];
        let title: String = (0..6).map(piece).collect::<Vec<_>>().join("");
        let name: String = (0..6).rev().map(piece).collect::<Vec<_>>().join(" ");
        let text = hostile_scenario(&title, &name, &names);
        let mut c = case_of(&format!("hostile case {k}"), &text);
        assert_eq!(c.model.scenario.title, title, "the title reaches the exporter as written");
        let states = states_text(&c);
        // The first case's stem is the one the C macros in RESERVED_NAMES collide with.
        let stem = format!("hostile{k}");
        for language in Language::ALL {
            let code = export(&c.model, &mut c.numeric.clone(), &c.initial, language, &stem, "test").unwrap();
            std::fs::write(dir.join(format!("{stem}.{}", language.extension())), &code).unwrap();
            let printed = match language {
                Language::C => c_driver(&dir, &stem, &c, &states),
                Language::Python => {
                    let script = format!(
                        "import sys\nsys.path.insert(0, {:?})\nimport {stem} as m\nprint(sorted(k for k in vars(m) if not k.startswith('__')))",
                        dir.to_string_lossy()
                    );
                    let imported = run(
                        Command::new("python3").args(["-W", "error", "-c", &script]),
                        "",
                        "importing the hostile Python file",
                    );
                    assert_eq!(
                        imported.trim(),
                        "['CONSTRAINTS', 'DEFAULT_INPUTS', 'INPUTS', 'PARAMETERS', 'STATE', 'SolveError', '_floats', '_sign', 'jacobian', 'math', 'np', 'rhs', 'terms']",
                        "case {k}: importing prints nothing and defines the model only"
                    );
                    python_driver(&dir, &stem, &c, &states)
                }
                Language::Matlab => octave_driver(&dir, &stem, &c, &states),
                Language::Rust => rust_driver(&dir, &stem, &c, &states),
            };
            compare(&mut c, &printed, &format!("{} (case {k})", language.id()));
        }
    }
}

/// Issue 57: the robot's four rolling rows have rank three, and the export kept
/// the three independent at the initial heading; turning on the spot, those lose
/// rank at 90° and the exported solve failed (`SolveError` at t = 0.453) while the
/// lab, which chooses its rows at each state, went on. Exported at a heading of 0,
/// every language now gives the lab's numbers at 90°, 180°, 270°, just off 90°
/// (where the first choice is ill-conditioned) and along a run through them.
#[test]
fn the_exported_robot_turns_through_every_heading_as_the_lab_does() {
    let text =
        nhlab_tests::scenarios::text("differential-drive").replace("v = { x = 0.5, psi = 2 }", "v = { psi = 2 }");
    let mut c = case_of("differential-drive", &text);
    let (t0, mut states) = (c.initial.t, Vec::new());
    for heading in [0.5, 1.0, 1.0 + 1e-7, 1.5, 1.0 - 1e-5].map(|k| k * std::f64::consts::PI) {
        let turned = text.replace("psi = 0, phiL", &format!("psi = {heading:e}, phiL"));
        let (scenario, map) = load_toml(&turned).unwrap();
        let model = Model::build_for(&scenario, &map, Needs::BASE.holding_inputs()).unwrap();
        let mut numeric = NumericModel::new(&model).unwrap();
        let at = initial_state(&model, &mut numeric, &map).unwrap();
        assert!((at.q[2] - heading).abs() < 1e-15 && at.v[2] == 2.0, "turning on the spot at {heading}");
        states.push((at.t, at.q.clone(), at.v.clone()));
    }
    // Along the run from heading 0: the turn passes 90° (the first choice's end).
    let mut sim = Simulation::new(
        c.numeric.clone(),
        Settings::from_scenario(&c.model.scenario.run, Method::Lagrange),
        &c.initial,
    )
    .unwrap();
    let times: Vec<f64> = (1..=12).map(|k| t0 + 0.1 * f64::from(k)).collect();
    sim.advance_sampling(&times).unwrap();
    let past = sim.samples().iter().filter(|s| s.q[2] > std::f64::consts::FRAC_PI_2).count();
    assert!(past >= 3, "the run turns past 90°: {past} samples");
    states.extend(sim.samples().iter().skip(1).map(|s| (s.t, s.q.to_vec(), s.v.to_vec())));
    c.states = states;
    for (language, driver) in [
        (Language::C, c_driver as fn(&Path, &str, &Case, &str) -> String),
        (Language::Python, python_driver),
        (Language::Matlab, octave_driver),
        (Language::Rust, rust_driver),
    ] {
        let dir = work_dir(&format!("robot-{}", language.id()));
        let exported = export(&c.model, &mut c.numeric.clone(), &c.initial, language, "robot", "test").unwrap();
        assert!(exported.contains("repeat each other"), "the header says how rows are chosen");
        std::fs::write(dir.join(format!("robot.{}", language.extension())), &exported).unwrap();
        let printed = driver(&dir, "robot", &c, &states_text(&c));
        compare(&mut c, &printed, language.id());
    }
}
