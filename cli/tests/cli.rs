//! The command line's contract (`docs/contract.md`): outputs, formats and exit
//! statuses — 0 success, 2 bad input with `error:` lines naming the place, 1 a
//! failure while computing.

use std::io::Write;
use std::process::{Command, Stdio};

fn scenario(name: &str) -> String {
    format!("{}/../scenarios/{name}.toml", env!("CARGO_MANIFEST_DIR"))
}

fn nhlab_with_input(args: &[&str], input: Option<&str>) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nhlab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nhlab runs");
    if let Some(text) = input {
        child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    }
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn nhlab(args: &[&str]) -> (i32, String, String) {
    nhlab_with_input(args, None)
}

#[test]
fn version_and_help() {
    let (code, out, _) = nhlab(&["--version"]);
    assert_eq!((code, out.trim()), (0, concat!("nhlab ", env!("CARGO_PKG_VERSION"))));
    let (code, out, _) = nhlab(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("check") && out.contains("derive") && out.contains("eval") && out.contains("run"));
}

#[test]
fn check_accepts_every_scenario_file() {
    let dir = format!("{}/../scenarios", env!("CARGO_MANIFEST_DIR"));
    let mut count = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "toml") {
            let (code, out, err) = nhlab(&["check", path.to_str().unwrap()]);
            assert_eq!(code, 0, "{}: {err}", path.display());
            assert!(out.contains("degrees of freedom"), "{out}");
            count += 1;
        }
    }
    assert!(count >= 6);
}

#[test]
fn check_describes_constraints_with_their_class() {
    let (code, out, _) = nhlab(&["check", &scenario("appell-hamel")]);
    assert_eq!(code, 0);
    assert!(out.contains("appell: z' + k*sqrt(x'^2 + y'^2) = 0  (nonlinear nonholonomic, scleronomic)"), "{out}");
    assert!(
        out.contains("degrees of freedom: 2 (3 coordinates, 1 independent constraint at the initial state)"),
        "{out}"
    );
}

/// A scenario built from bodies: `check` lists its frames, points, bodies, gravity
/// and contacts, with the constraints each contact generates.
#[test]
fn check_lists_frames_bodies_and_contacts_with_what_they_generate() {
    let (code, out, err) = nhlab(&["check", &scenario("rolling-disk")]);
    assert_eq!(code, 0, "{err}");
    for line in [
        "frames: disk (lean, then y phi); heading (N, then z psi); lean (heading, then x theta)",
        "points: C, G",
        "body disk: frame disk, mass m, centre G, shape disk",
        "gravity: g along [0, 0, -1] in N",
        "contact: disk rolls on ground at C; generates disk rolls on ground: x, disk rolls on ground: y",
        "  disk rolls on ground: x: x' - r*phi'*cos(psi) = 0  (linear nonholonomic, scleronomic)",
    ] {
        assert!(out.lines().any(|l| l == line), "missing {line:?} in\n{out}");
    }
    let (_, out, _) = nhlab(&["check", &scenario("chaplygin-sleigh")]);
    assert!(!out.contains("frames:") && !out.contains("contact:"), "{out}");
    // Two contacts of one name (issue 35.13: each listed all four constraints, found
    // by the name) are refused now at the second (issue 57: the name keys the forces
    // and the columns).
    let bicycle = std::fs::read_to_string(scenario("whipple-bicycle")).unwrap();
    let named = bicycle.replace("[[rolling]]\nbody = ", "[[rolling]]\nname = \"wheel\"\nbody = ");
    assert_eq!(named.matches("name = \"wheel\"").count(), 2);
    let dir = std::env::temp_dir().join(format!("nhlab-cli-contacts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("two-wheels.toml");
    std::fs::write(&file, named).unwrap();
    let (code, _, err) = nhlab(&["check", file.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.lines().count(), 1, "once, for the contact's two constraints: {err}");
    assert!(err.contains("rolling[1].name: `wheel: x` names another constraint already (rolling[0])"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn eval_prints_one_json_object_with_the_spec_keys() {
    let (code, out, err) = nhlab(&["eval", &scenario("knife-edge-incline"), "--method", "lagrange"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for key in ["method", "t", "q", "v", "qdd", "multipliers", "residuals", "energy", "compulsion"] {
        assert!(v.get(key).is_some(), "missing {key}: {out}");
    }
    let g_sin_alpha = 9.81 * 0.3f64.sin();
    assert!(
        (v["qdd"]["x"].as_f64().unwrap() - g_sin_alpha).abs() < 1e-12,
        "at rest the sleigh accelerates down the slope: {out}"
    );
    assert_eq!(v["v"]["phi"], 2.0);
    let (_, out, _) = nhlab(&["eval", &scenario("knife-edge-incline"), "--method", "gauss"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v.get("multipliers").is_none(), "gauss has no multipliers: {out}");
}

#[test]
fn eval_at_a_state_solves_the_omitted_velocities() {
    let (code, out, err) = nhlab(&[
        "eval",
        &scenario("chaplygin-sleigh"),
        "--method",
        "udwadia-kalaba",
        "--at",
        "phi=0.5,x'=2,phi'=1,t=3",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["t"], 3.0);
    let y_dot = v["v"]["y"].as_f64().unwrap();
    assert!((y_dot - 2.0 * 0.5f64.tan()).abs() < 1e-12, "y' = x' tan φ: {out}");
    assert!(v["residuals"][0].as_f64().unwrap().abs() < 1e-12);
}

#[test]
fn run_writes_the_spec_columns() {
    let (code, out, err) = nhlab(&[
        "run",
        &scenario("knife-edge-incline"),
        "--method",
        "lagrange",
        "--method",
        "gauss",
        "--sample-at",
        "1,2,3",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "method,t,x,y,phi,x',y',phi',energy,res_blade,E_x,E_phi");
    assert_eq!(lines.len(), 1 + 6);
    assert!(lines[1].starts_with("lagrange,1.0,") && lines[4].starts_with("gauss,1.0,"), "{out}");
}

/// The CSV is what CSV readers read with no options: the header first, every row
/// as wide, no comment line (Python's `csv.DictReader` here; pandas reads the same).
/// What the samples are goes beside it, in `FILE.meta.json`, and in the JSON table.
#[test]
fn the_csv_loads_with_no_options_and_its_provenance_is_beside_it() {
    let dir = std::env::temp_dir().join(format!("nhlab-cli-csv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("sleigh.csv");
    let (code, _, err) =
        nhlab(&["run", &scenario("chaplygin-sleigh"), "--method", "lagrange", "--out", csv.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let width = text.lines().next().unwrap().split(',').count();
    assert!(text.starts_with("method,t,x,y,phi,"), "{}", &text[..80]);
    assert!(text.lines().all(|l| !l.starts_with('#') && l.split(',').count() == width));
    let reader = "import csv, sys\nrows = list(csv.DictReader(open(sys.argv[1])))\nprint(len(rows), rows[0]['method'], rows[-1]['t'])";
    if let Ok(out) = std::process::Command::new("python3").args(["-c", reader, csv.to_str().unwrap()]).output() {
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && said.starts_with(&format!("{} lagrange 20.0", text.lines().count() - 1)),
            "{said}"
        );
    }
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("sleigh.meta.json")).unwrap()).unwrap();
    assert_eq!(meta["samples"], "samples at the accepted steps of dopri5 (rtol = 1e-10, atol = 1e-12)");
    assert_eq!(meta["scenario"], "Chaplygin sleigh");
    assert_eq!(meta["columns"][0], "method");
    let (code, out, _) = nhlab(&["run", &scenario("chaplygin-sleigh"), "--method", "lagrange", "--format", "json"]);
    assert_eq!(code, 0);
    let table: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(table["comment"], meta["samples"]);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn run_writes_json_and_files() {
    let dir = std::env::temp_dir().join(format!("nhlab-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("out.json");
    let (code, _, err) =
        nhlab(&["run", &scenario("pendulum-cartesian"), "--t-end", "1", "--out", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(v["columns"][0], "method");
    assert!(v["rows"].as_array().unwrap().len() > 3);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn standard_input_is_read_for_dash() {
    let text = std::fs::read_to_string(scenario("pendulum-cartesian")).unwrap();
    let (code, out, err) = nhlab_with_input(&["check", "-"], Some(&text));
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("Pendulum in Cartesian coordinates"));
}

#[test]
fn bad_input_exits_2_naming_the_place() {
    let (code, _, err) = nhlab(&["check", "/nonexistent/file.toml"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: /nonexistent/file.toml: "), "{err}");
    let broken = std::fs::read_to_string(scenario("pendulum-cartesian")).unwrap().replace("m/2*(x'^2", "m/2*(xx'^2");
    let (code, _, err) = nhlab_with_input(&["check", "-"], Some(&broken));
    assert_eq!(code, 2);
    assert_eq!(err.trim(), "error: <stdin>:8:17: kinetic: unknown name `xx`; did you mean `x`?");
    let (code, _, err) = nhlab(&["eval", &scenario("pendulum-cartesian"), "--method", "lagrang"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown method `lagrang`"), "{err}");
    let (code, _, err) = nhlab(&["eval", &scenario("pendulum-cartesian"), "--method", "lagrange", "--at", "z=1"]);
    assert_eq!(code, 2);
    assert!(err.contains("--at: unknown name `z`"), "{err}");
    let (code, _, err) = nhlab(&["run", &scenario("pendulum-cartesian"), "--out", "-", "--format", "xml"]);
    assert_eq!(code, 2);
    assert!(err.contains("--format"), "{err}");
    let (code, _, _) = nhlab(&["frobnicate"]);
    assert_eq!(code, 2);
}

#[test]
fn a_failure_while_computing_exits_1() {
    let redundant = std::fs::read_to_string(scenario("chaplygin-sleigh"))
        .unwrap()
        .replace("[hamel]\ndependent = [\"y\"]\n", "")
        .replace("[initial]", "[[constraints]]\nname = \"again\"\nexpr = \"-x'*sin(phi) + y'*cos(phi)\"\n\n[initial]");
    // Redundant constraints: Lagrange's rank-revealing solve and Udwadia–Kalaba agree;
    // Hamel's split, on an independent subset, is the plain sleigh's.
    let (code, lagrange, err) = nhlab_with_input(&["eval", "-", "--method", "lagrange"], Some(&redundant));
    assert_eq!(code, 0, "{err}");
    let (code, uk, err) = nhlab_with_input(&["eval", "-", "--method", "udwadia-kalaba"], Some(&redundant));
    assert_eq!(code, 0, "{err}");
    let qdd = |out: &str| serde_json::from_str::<serde_json::Value>(out).unwrap()["qdd"].clone();
    for k in ["x", "y", "phi"] {
        let (a, b) = (qdd(&lagrange)[k].as_f64().unwrap(), qdd(&uk)[k].as_f64().unwrap());
        assert!((a - b).abs() < 1e-12, "{k}'': {a} vs {b}");
    }
    let plain =
        std::fs::read_to_string(scenario("chaplygin-sleigh")).unwrap().replace("[hamel]\ndependent = [\"y\"]\n", "");
    let (code, hamel, err) = nhlab_with_input(&["eval", "-", "--method", "hamel"], Some(&redundant));
    assert_eq!(code, 0, "{err}");
    let (code, hamel_plain, err) = nhlab_with_input(&["eval", "-", "--method", "hamel"], Some(&plain));
    assert_eq!(code, 0, "{err}");
    for k in ["x", "y", "phi"] {
        let (a, b) = (qdd(&hamel)[k].as_f64().unwrap(), qdd(&hamel_plain)[k].as_f64().unwrap());
        assert!((a - b).abs() < 1e-12, "hamel {k}'': {a} vs {b}");
    }
    // Constraints that ask for different accelerations: nothing to compute (exit 1,
    // naming the rows in conflict).
    let rails = "format = \"nhlab/1\"\ntitle = \"two rails that part\"\ncoordinates = [\"x\", \"y\"]\nkinetic = \"(x'^2 + y'^2)/2\"\n\n\
        [[constraints]]\nexpr = \"y'\"\n\n[[constraints]]\nexpr = \"y' - t*x'\"\n\n\
        [initial]\nq = { x = 0, y = 0 }\nv = { x = 1, y = 0 }\n";
    let (code, _, err) = nhlab_with_input(&["eval", "-", "--method", "lagrange"], Some(rails));
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("the constraints #1, #2 cannot all be met at t = 0"), "{err}");
}

/// A method that cannot run takes nothing with it: the others' samples and figure
/// are written, every failure is named, and the exit is 1 (Appell–Hamel's
/// constraint is nonlinear in the velocities: Hamel's split and Voronets' equations
/// do not apply).
#[test]
fn a_method_that_cannot_run_leaves_the_others_written() {
    let dir = std::env::temp_dir().join(format!("nhlab-cli-failed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plot = dir.join("appell.svg");
    let args = ["run", &scenario("appell-hamel"), "--t-end", "1", "--plot", plot.to_str().unwrap()];
    let with = |methods: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        for m in methods {
            a.extend(["--method".to_string(), m.to_string()]);
        }
        a
    };
    let call = with(&["hamel", "lagrange", "voronets", "gauss"]);
    let (code, out, err) = nhlab(&call.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("error: hamel: cannot run: Hamel's embedding and the E-vector need constraints linear"),
        "{err}"
    );
    assert!(err.contains("voronets: cannot run"), "{err}");
    let methods: std::collections::BTreeSet<&str> = out.lines().skip(1).filter_map(|l| l.split(',').next()).collect();
    assert_eq!(methods.into_iter().collect::<Vec<_>>(), ["gauss", "lagrange"], "{out}");
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.contains("lagrange") && svg.contains("gauss"), "the figure has both runs");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn derive_prints_the_equations() {
    let (code, out, err) = nhlab(&["derive", &scenario("knife-edge-incline"), "--method", "lagrange"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("m*x'' = g*m*sin(alpha) - lambda1*sin(phi)"), "{out}");
    assert!(out.contains("m*k^2*phi'' = 0"), "{out}");
    let (code, out, _) =
        nhlab(&["derive", &scenario("knife-edge-incline"), "--method", "lagrange", "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["mass_matrix"][2][2], "m*k^2");
    let (code, out, _) =
        nhlab(&["derive", &scenario("knife-edge-incline"), "--method", "lagrange", "--format", "latex"]);
    assert_eq!(code, 0);
    assert!(out.contains("\\ddot{x}"), "{out}");
}

#[test]
fn eval_reports_the_e_vector_and_vakonomic_rates() {
    let (code, out, err) = nhlab(&["eval", &scenario("chaplygin-sleigh"), "--method", "hamel"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // E at φ = 0, x' = 1, φ' = 1 (m = 1, a = 0.5): E_x = −a m φ'², E_φ = a m x' φ'.
    assert!((v["evec"]["x"].as_f64().unwrap() + 0.5).abs() < 1e-12, "{out}");
    assert!((v["evec"]["phi"].as_f64().unwrap() - 0.5).abs() < 1e-12, "{out}");
    assert!(v.get("multipliers").is_none());
    let (code, out, err) = nhlab(&["eval", &scenario("chaplygin-sleigh"), "--method", "vakonomic", "--at", "mu1=0.3"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["multipliers"][0], 0.3);
    assert!(v["mu_dot"][0].is_number(), "{out}");
    let (_, out, _) = nhlab(&["eval", &scenario("appell-hamel"), "--method", "lagrange"]);
    assert!(!out.contains("evec"), "no E-vector for a nonlinear constraint: {out}");
}

#[test]
fn run_adds_e_and_mu_columns_and_keeps_samples_before_a_failure() {
    let (code, out, err) = nhlab(&[
        "run",
        &scenario("chaplygin-sleigh"),
        "--method",
        "lagrange",
        "--method",
        "vakonomic",
        "--sample-at",
        "0.5,1",
    ]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "method,t,x,y,phi,x',y',phi',mu1,energy,res_edge,E_x,E_phi");
    assert!(lines[1].split(',').nth(8) == Some(""), "lagrange rows leave mu empty: {}", lines[1]);
    assert!(lines[3].split(',').nth(8).is_some_and(|c| !c.is_empty()), "{}", lines[3]);
    // Hamel's own motion swings the sleigh to φ = π/2, where its split y is singular:
    // an end by design, as the page shows it (a note, exit 0; exit 1 with --strict).
    let (code, out, err) = nhlab(&["run", &scenario("chaplygin-sleigh"), "--method", "hamel", "--t-end", "5"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.starts_with("note: hamel: Hamel's embedding ends at t = 1.1478"), "{err}");
    assert!(out.lines().count() > 5, "the samples up to the end are written");
    let (code, strict, err) =
        nhlab(&["run", &scenario("chaplygin-sleigh"), "--method", "hamel", "--t-end", "5", "--strict"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.starts_with("error: hamel: Hamel's embedding ends at t = 1.1478") && err.contains("--strict"), "{err}");
    assert_eq!(strict, out, "--strict writes the same samples");
}

#[test]
fn derive_hamel_voronets_vakonomic() {
    let (code, out, err) = nhlab(&["derive", &scenario("chaplygin-sleigh"), "--method", "voronets"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\n(I + m*a^2)*phi'' = -a*m*x'*phi'/cos(phi)\n"), "{out}");
    let (code, out, _) = nhlab(&["derive", &scenario("chaplygin-sleigh"), "--method", "hamel"]);
    assert_eq!(code, 0);
    for label in ["T* = ", "Ψ[x, x] = m/cos(phi)^2", "G[x] = ", "H[x] = ", "E[phi] = "] {
        assert!(out.contains(label), "{label} in {out}");
    }
    let (code, out, _) =
        nhlab(&["derive", &scenario("pendulum-cartesian"), "--method", "vakonomic", "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["equations"].as_array().unwrap().len(), 3, "two coordinates and the constraint");
    let (code, _, err) = nhlab(&["derive", &scenario("appell-hamel"), "--method", "hamel"]);
    assert_eq!(code, 1);
    assert!(err.contains("linear in the velocities"), "{err}");
}

#[test]
fn run_draws_a_figure() {
    let dir = std::env::temp_dir().join(format!("nhlab-plot-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for ext in ["svg", "png"] {
        let path = dir.join(format!("figure.{ext}"));
        let (code, _, err) = nhlab(&[
            "run",
            &scenario("knife-edge-incline"),
            "--t-end",
            "2",
            "--out",
            dir.join("x.csv").to_str().unwrap(),
            "--plot",
            path.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        let bytes = std::fs::read(&path).unwrap();
        assert!(bytes.len() > 10_000, "{ext}: {} bytes", bytes.len());
        if ext == "svg" {
            let text = String::from_utf8(bytes).unwrap();
            for label in ["Knife edge on an inclined plane", "E-vector", "lagrange", "energy drift"] {
                assert!(text.contains(label), "{label}");
            }
        } else {
            assert_eq!(&bytes[1..4], b"PNG");
        }
    }
    let (code, _, err) = nhlab(&["run", &scenario("knife-edge-incline"), "--plot", "figure.pdf"]);
    assert_eq!(code, 2);
    assert!(err.contains("--plot"), "{err}");
    std::fs::remove_dir_all(dir).ok();
}

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
    let dir = std::env::temp_dir().join(format!("nhlab-cli-format-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
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
    let text = r#"format = "nhlab/1"
title = "mass that vanishes at x = 0"
coordinates = ["x", "y"]
kinetic = "1/2*(x^2*x'^2 + y'^2)"
[initial]
q = { x = 1, y = 0 }
v = { x = 0, y = 0 }
"#;
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
    let text = r#"format = "nhlab/1"
title = "a mass too small for its force"
coordinates = ["x"]
kinetic = "1e-300/2*x'^2"
potential = "-1e10*x"
[initial]
q = { x = 0 }
v = { x = 0 }
"#;
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
    let dir = std::env::temp_dir().join(format!("nhlab-cli-series-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("sleigh.svg");
    let (code, _, err) = nhlab(&[
        "run",
        &scenario("chaplygin-sleigh"),
        "--method",
        "lagrange",
        "--out",
        "/dev/null",
        "--plot",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
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

/// `nhlab linearize` on the bicycle upright, its position, heading and wheels
/// ignorable, with `extra` arguments.
fn linearize_bicycle(at: &str, extra: &[&str]) -> (i32, String, String) {
    let file = scenario("whipple-bicycle");
    let mut args = vec!["linearize", file.as_str(), "--ignorable", "x,y,psi,rear,front", "--at", at];
    args.extend_from_slice(extra);
    nhlab(&args)
}

/// `linearize` at 5 m/s gives the benchmark's Table 2 eigenvalues (Meijaard et al.
/// 2007) in JSON, with the reduced state and what was held.
#[test]
fn linearize_gives_the_bicycle_benchmark_eigenvalues() {
    let (code, out, err) =
        linearize_bicycle("phi=0,phi'=0,delta'=0,rear'=16.666666666666668", &["--no-sweep", "--eigenvectors"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["state"], serde_json::json!(["phi", "delta", "phi'", "delta'"]));
    assert_eq!(v["held_speeds"], serde_json::json!(["rear'"]));
    let eig: Vec<(f64, f64)> = v["rows"][0]["eigenvalues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e[0].as_f64().unwrap(), e[1].as_f64().unwrap()))
        .collect();
    let table = [
        (-14.07838969279822, 0.0),
        (-0.77534188219585, -4.46486771378823),
        (-0.77534188219585, 4.46486771378823),
        (-0.32286642900409, 0.0),
    ];
    for ((re, im), (want_re, want_im)) in eig.iter().zip(table) {
        assert!((re - want_re).abs() < 1e-10 && (im - want_im).abs() < 1e-10, "{eig:?}");
    }
    // The modes: castor and capsize real, the weave a pair (frequency 4.46 rad/s).
    let modes = v["rows"][0]["modes"].as_array().unwrap();
    assert_eq!(modes.len(), 3, "{modes:?}");
    let weave = modes.iter().find(|m| m["kind"] == "oscillatory").unwrap();
    assert!((weave["frequency"].as_f64().unwrap() - 4.46486771378823).abs() < 1e-10);
    let damping = 0.77534188219585 / 0.77534188219585f64.hypot(4.46486771378823);
    assert!((weave["damping"].as_f64().unwrap() - damping).abs() < 1e-10);
    assert_eq!(modes.iter().filter(|m| m["kind"] == "real").count(), 2);
    let matrix = &v["rows"][0]["matrix"];
    assert_eq!(matrix.as_array().unwrap().len(), 4);
    // Each eigenvector v: J v = λ v.
    let j = |r: usize, c: usize| matrix[r][c].as_f64().unwrap();
    let vectors = v["rows"][0]["eigenvectors"].as_array().unwrap();
    assert_eq!(vectors.len(), 4);
    for (k, (re, im)) in eig.iter().enumerate() {
        let x: Vec<(f64, f64)> =
            (0..4).map(|c| (vectors[k][c][0].as_f64().unwrap(), vectors[k][c][1].as_f64().unwrap())).collect();
        for r in 0..4 {
            let jv = (0..4).fold((0.0, 0.0), |(a, b), c| (a + j(r, c) * x[c].0, b + j(r, c) * x[c].1));
            let lv = (re * x[r].0 - im * x[r].1, re * x[r].1 + im * x[r].0);
            assert!((jv.0 - lv.0).abs() < 1e-9 && (jv.1 - lv.1).abs() < 1e-9, "λ{k} row {r}: {jv:?} {lv:?}");
        }
    }
}

/// With no flags, `linearize` does what the scenario's `[stability]` table says
/// (the disk's spin sweep: stable from `s² = g/(3r)`), and `--plot` draws it.
#[test]
fn linearize_follows_the_scenarios_stability_table_and_plots() {
    let disk = scenario("rolling-disk");
    let svg = std::env::temp_dir().join(format!("nhlab-stability-{}.svg", std::process::id()));
    let (code, out, err) = nhlab(&["linearize", disk.as_str(), "--plot", svg.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["sweep"], "phi'");
    assert_eq!(v["ignorable"], serde_json::json!(["x", "y", "psi", "phi"]));
    let b = v["boundaries"].as_array().unwrap();
    assert_eq!(b.len(), 1, "{b:?}");
    let critical = (9.81f64 / (3.0 * 0.3)).sqrt();
    assert!((b[0]["value"].as_f64().unwrap() - critical).abs() < 1e-10 && b[0]["becomes"] == "stable", "{b:?}");
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 1001);
    assert_eq!(rows[0]["stable"], false);
    assert_eq!(rows[1000]["stable"], true);
    // Above the critical spin the wobble is neutral: marginal, and the figure says so.
    assert_eq!((rows[0]["marginal"].clone(), rows[1000]["marginal"].clone()), (false.into(), true.into()));
    let figure = std::fs::read_to_string(&svg).unwrap();
    assert!(figure.contains("linear analysis cannot decide"), "the figure names the marginal range");
    let _ = std::fs::remove_file(&svg);
    assert!(
        figure.contains("Re λ") && figure.contains("Im λ") && figure.contains("<polyline"),
        "an SVG with both charts"
    );
    // Flags replace the table's entries: a parameter sweep instead.
    let (code, out, err) = nhlab(&["linearize", disk.as_str(), "--sweep", "g=0:20:1", "--at", "phi'=5"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let b = v["boundaries"].as_array().unwrap();
    // Stable while g < 3 r s² = 22.5: no boundary below 20.
    assert!(b.is_empty(), "{b:?}");
    // A figure needs a sweep.
    let (code, _, err) = nhlab(&["linearize", disk.as_str(), "--no-sweep", "--plot", "x.svg"]);
    assert_eq!(code, 2);
    assert!(err.contains("--plot: a figure needs a sweep"), "{err}");
}

/// `--method hamel` linearises Hamel's embedding: the sleigh running straight is a
/// saddle `±u √(m/(I + m a²))` there, where the true motion has 0 and `−m a u/(I + m a²)`.
#[test]
fn linearize_hamel_differs_from_the_true_motion() {
    let sleigh = scenario("chaplygin-sleigh");
    let eigenvalues = |method: &str| {
        let (code, out, err) = nhlab(&["linearize", sleigh.as_str(), "--method", method, "--no-sweep", "--at", "x'=2"]);
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let mut re: Vec<f64> =
            v["rows"][0]["eigenvalues"].as_array().unwrap().iter().map(|e| e[0].as_f64().unwrap()).collect();
        re.sort_by(f64::total_cmp);
        re
    };
    let (m, a, i, u) = (1.0f64, 0.5, 0.2, 2.0);
    let truth = eigenvalues("lagrange");
    assert!((truth[0] + m * a * u / (i + m * a * a)).abs() < 1e-12 && truth[1].abs() < 1e-12, "{truth:?}");
    let hamel = eigenvalues("hamel");
    let s = u * (m / (i + m * a * a)).sqrt();
    assert!((hamel[0] + s).abs() < 1e-12 && (hamel[1] - s).abs() < 1e-12, "{hamel:?}");
}

/// A broken `[stability]` table is refused by `check`, at its line.
#[test]
fn a_broken_stability_table_is_blamed_at_its_keys() {
    let text = std::fs::read_to_string(scenario("rolling-disk"))
        .unwrap()
        .replace("over = \"phi'\"", "over = \"spin'\"")
        .replace("\"psi\", \"phi\"]", "\"psi\", \"phy\"]");
    let (code, _, err) = nhlab_with_input(&["check", "-"], Some(&text));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("stability.sweep.over") && err.contains("`spin'` is neither a parameter nor a velocity"),
        "{err}"
    );
    assert!(err.contains("stability.ignorable[3]") && err.contains("`phy` is not a coordinate"), "{err}");
    // Each at its line and column.
    let line = |key: &str| text.lines().position(|l| l.contains(key)).unwrap() + 1;
    assert!(err.contains(&format!("<stdin>:{}:", line("spin'"))), "{err}");
    assert!(err.contains(&format!("<stdin>:{}:", line("phy"))), "{err}");
}

/// A sweep of the rear wheel's rate finds the weave and capsize speeds
/// (4.29238253634111 and 6.02426201538837 m/s, times 1/rR) by bisection.
#[test]
fn linearize_sweeps_and_finds_the_stability_boundaries() {
    let (code, out, err) = linearize_bicycle("phi=0,phi'=0,delta'=0", &["--sweep", "rear'=0:33:0.5"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["rows"].as_array().unwrap().len(), 67);
    let b = v["boundaries"].as_array().unwrap();
    assert_eq!(b.len(), 2, "{b:?}");
    let speed = |k: usize| b[k]["value"].as_f64().unwrap() * 0.3;
    assert!((speed(0) - 4.29238253634111).abs() < 1e-9 && b[0]["becomes"] == "stable", "{b:?}");
    assert!((speed(1) - 6.02426201538837).abs() < 1e-9 && b[1]["becomes"] == "unstable", "{b:?}");
    // The self-stable range is asymptotically stable (every Re λ < 0): not marginal.
    assert!(v["rows"].as_array().unwrap().iter().all(|r| r["marginal"] == false));
    // CSV: one row per value, the boundaries on standard error.
    let (code, out, err) = linearize_bicycle("phi=0,phi'=0,delta'=0", &["--sweep", "rear'=10:20:5", "--format", "csv"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().next(), Some("rear',re1,im1,re2,im2,re3,im3,re4,im4"));
    assert_eq!(out.lines().count(), 4);
    assert!(err.contains("boundary: rear' = 14.3079417878"), "{err}");
}

/// The bicycle's own table sweeps the rear wheel's rate and shows it against the
/// forward speed `v = rR·rear'` (`sweep.axis`): the boundaries on that axis are the
/// benchmark's weave and capsize speeds (Meijaard et al. 2007: 4.292382536 and
/// 6.024262015 m/s). An axis that cannot be drawn is refused at its key.
#[test]
fn linearize_shows_the_bicycle_against_its_forward_speed() {
    let file = scenario("whipple-bicycle");
    let svg = std::env::temp_dir().join(format!("nhlab-axis-{}.svg", std::process::id()));
    let (code, out, err) = nhlab(&["linearize", file.as_str(), "--plot", svg.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!((v["axis"]["name"].as_str(), v["axis"]["unit"].as_str()), (Some("v"), Some("m/s")));
    let b: Vec<f64> = v["axis"]["boundaries"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    assert!((b[0] - 4.292382536).abs() < 1e-8 && (b[1] - 6.024262015).abs() < 1e-8, "{b:?}");
    let values = v["axis"]["values"].as_array().unwrap();
    assert_eq!(values.len(), v["rows"].as_array().unwrap().len());
    assert!((values[500].as_f64().unwrap() - 0.3 * v["rows"][500]["value"].as_f64().unwrap()).abs() < 1e-12);
    let figure = std::fs::read_to_string(&svg).unwrap();
    let _ = std::fs::remove_file(&svg);
    assert!(figure.contains("v (m/s)"), "the figure's axis is the speed");
    // Decreasing, or of something else than the parameters and the swept quantity.
    let text = std::fs::read_to_string(&file).unwrap();
    for (value, says) in [("-rR*rear'", "must increase with rear'"), ("rR*front'", "unknown name `front`")] {
        let bad = std::env::temp_dir().join(format!("nhlab-axis-{}-{}.toml", std::process::id(), says.len()));
        std::fs::write(&bad, text.replace("value = \"rR*rear'\"", &format!("value = \"{value}\""))).unwrap();
        let (code, _, err) = nhlab(&["linearize", bad.to_str().unwrap()]);
        let _ = std::fs::remove_file(&bad);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("stability.sweep.axis.value: ") && err.contains(says), "{err}");
    }
}

/// Bad arguments are refused with status 2 and say which.
#[test]
fn linearize_refuses_bad_arguments_by_name() {
    let disk = scenario("rolling-disk");
    for (args, needle) in [
        (vec!["--ignorable", "x,zz"], "--ignorable: `zz` is not a coordinate"),
        (vec!["--ignorable", "theta"], "`theta` is not ignorable"),
        (vec!["--dependent", "x,zz"], "--dependent: `zz` is not a coordinate"),
        (vec!["--dependent", "x"], "1 dependent coordinates given for 2 constraints"),
        (vec!["--sweep", "r=1:0:1"], "--sweep: the range needs a first value ≤ the last"),
        (vec!["--sweep", "k=0:1:0.5"], "--sweep: `k` is neither a parameter nor a velocity"),
        (vec!["--sweep", "r=0:1e9:1e-3"], "--sweep: "),
        (vec!["--method", "vakonomic"], "--method: `vakonomic`: linearisation supports lagrange"),
    ] {
        let mut all = vec!["linearize", disk.as_str()];
        all.extend(args.iter().copied());
        let (code, _, err) = nhlab(&all);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert_ne!(code, 0, "{args:?}");
    }
}

/// A model too large to linearise is refused before any work, with its size.
#[test]
fn linearize_refuses_a_model_too_large_before_working() {
    let names: Vec<String> = (0..60).map(|i| format!("q{i}")).collect();
    let text =
        format!(
            "format = \"nhlab/1\"\ntitle = \"big\"\ncoordinates = [{}]\nkinetic = \"{}\"\n",
            names.iter().map(|q| format!("\"{q}\"")).collect::<Vec<_>>().join(", "),
            names.iter().map(|q| format!("{q}'^2")).collect::<Vec<_>>().join(" + ")
        ) + &format!("[initial.q]\n{}\n", names.iter().map(|q| format!("{q} = 0")).collect::<Vec<_>>().join("\n"));
    let (code, _, err) = nhlab_with_input(&["linearize", "-"], Some(&text));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("60 coordinates and 0 constraints need 439200 derivatives"), "{err}");
}

// ---- Issue 13: the scene's frame strip ----------------------------------------

/// `run --scene` draws the frames asked for, every method named, and says where a
/// method stopped before a frame; bad paths and times are refused at their flag.
#[test]
fn run_draws_the_scene_at_the_frame_times() {
    let dir = std::env::temp_dir().join(format!("nhlab-cli-scene-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("pendulum.svg");
    let (code, _, err) = nhlab(&[
        "run",
        &scenario("pendulum-cartesian"),
        "--out",
        "/dev/null",
        "--scene",
        svg.to_str().unwrap(),
        "--frames",
        "0,0.5,1",
    ]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&svg).unwrap();
    for label in ["t = 0", "t = 0.5", "t = 1", "lagrange", "Cartesian"] {
        assert!(text.contains(label), "{label}");
    }
    assert!(!text.contains("t = 2"));
    let png = dir.join("disk.png");
    let (code, _, err) =
        nhlab(&["run", &scenario("rolling-disk"), "--out", "/dev/null", "--scene", png.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");
    // Hamel's embedding of the sleigh stops at t ≈ 1.15: the strip says so, and the run
    // says it in a note (an end by design: exit 0, as for the table).
    let sleigh = dir.join("sleigh.svg");
    let (code, _, err) = nhlab(&[
        "run",
        &scenario("chaplygin-sleigh"),
        "--out",
        "/dev/null",
        "--scene",
        sleigh.to_str().unwrap(),
        "--frames",
        "0,1,2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.starts_with("note: hamel: Hamel's embedding ends"), "{err}");
    let text = std::fs::read_to_string(&sleigh).unwrap();
    assert_eq!(text.matches("hamel stopped before this time").count(), 1, "only the frame at t = 2");
    for (args, flag) in [
        (vec!["--scene", "strip.pdf"], "--scene"),
        (vec!["--scene", "strip.svg", "--frames", "1,0"], "--frames"),
        (vec!["--scene", "strip.svg", "--frames", "0,99"], "--frames"),
        (vec!["--scene", "strip.svg", "--frames", "0,x"], "--frames"),
        (vec!["--frames", "0,1"], "--scene"),
    ] {
        let file = scenario("pendulum-cartesian");
        let mut all = vec!["run", &file, "--out", "/dev/null"];
        all.extend(args.iter().copied());
        let (code, _, err) = nhlab(&all);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(flag), "{args:?}: {err}");
    }
    // A scenario that draws nothing is told how to give it a scene.
    let bare = "format = \"nhlab/1\"\ntitle = \"bare\"\ncoordinates = [\"x\"]\nkinetic = \"x'^2/2\"\n[initial]\nq = { x = 0 }\nv = { x = 1 }\n";
    let (code, _, err) = nhlab_with_input(
        &["run", "-", "--out", "/dev/null", "--scene", dir.join("b.svg").to_str().unwrap()],
        Some(bare),
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("draws nothing") && err.contains("scene.shapes"), "{err}");
    std::fs::remove_dir_all(dir).ok();
}

/// A strip that cannot be written is an error at `--scene`, as for `--plot` (it
/// exited 0, writing nothing); a shape left out of a frame (a value not finite there)
/// is named on standard error, as the page names it.
#[test]
fn run_scene_checks_its_write_and_names_what_it_leaves_out() {
    let dir = std::env::temp_dir().join(format!("nhlab-cli-scene-write-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("no-such-dir").join("strip.svg");
    let folder = dir.join("a-folder.svg");
    std::fs::create_dir_all(&folder).unwrap();
    // A device that is always full, under a name the flags accept.
    let full = dir.join("full.png");
    std::os::unix::fs::symlink("/dev/full", &full).unwrap();
    for target in [missing.to_str().unwrap(), folder.to_str().unwrap(), full.to_str().unwrap()] {
        let file = scenario("pendulum-cartesian");
        let (code, _, err) = nhlab(&["run", &file, "--out", "/dev/null", "--scene", target]);
        assert_eq!(code, 1, "{target}: {err}");
        assert!(err.contains("--scene") && err.contains(target), "{target}: {err}");
        let (plot_code, _, _) = nhlab(&["run", &file, "--out", "/dev/null", "--plot", target]);
        assert_eq!(plot_code, code, "{target}: --plot and --scene fail alike");
    }
    // `x` runs from -1 at speed 1: the point at (sqrt(x), 0) exists from t = 1 on.
    let text = "format = \"nhlab/1\"\ntitle = \"root\"\ncoordinates = [\"x\"]\nkinetic = \"x'^2/2\"\n\
                [initial]\nq = { x = -1 }\nv = { x = 1 }\n\
                [[scene.shapes]]\nname = \"root\"\nkind = \"point\"\nat = [\"sqrt(x)\", \"0\"]\n\
                [[scene.shapes]]\nname = \"always\"\nkind = \"point\"\nat = [\"x\", \"1\"]\n";
    let strip = dir.join("root.svg");
    let (code, _, err) = nhlab_with_input(
        &[
            "run",
            "-",
            "--t-end",
            "2",
            "--out",
            "/dev/null",
            "--scene",
            strip.to_str().unwrap(),
            "--frames",
            "0,0.5,1.5,2",
        ],
        Some(text),
    );
    assert_eq!(code, 0, "{err}");
    let notes: Vec<&str> = err.lines().filter(|l| l.starts_with("warning: --scene:")).collect();
    assert_eq!(
        notes,
        [
            "warning: --scene: not drawn at t = 0 (a value is not finite there): root (lagrange)",
            "warning: --scene: not drawn at t = 0.5 (a value is not finite there): root (lagrange)",
        ],
        "{err}"
    );
    assert!(std::fs::read_to_string(&strip).unwrap().contains("t = 1.5"));
    std::fs::remove_dir_all(dir).ok();
}

/// `run` (machine code, the default; `--native` says the same) writes the same
/// table as `run --interpret`, to the integrator's tolerance: the same rows and
/// columns at fixed sample times, every number within 1e-8 (relative above 1).
/// Rounding differs, so the adaptive steps may too: the samples are taken at given
/// times, not at the steps.
#[test]
fn run_native_agrees_with_the_interpreted_run() {
    let mut differed = false;
    for name in ["chaplygin-sleigh", "ball-on-turntable"] {
        let file = scenario(name);
        let args = ["run", file.as_str(), "--method", "lagrange", "--sample-at", "0:5:0.25"];
        let (status, interpreted, _) = nhlab(&[&args[..], &["--interpret"]].concat());
        assert_eq!(status, 0, "{name}");
        let (status, native, err) = nhlab(&args);
        assert_eq!(status, 0, "{name}: {err}");
        assert!(err.is_empty(), "{name}: no note when the machine code is used: {err}");
        let (status, flagged, _) = nhlab(&[&args[..], &["--native"]].concat());
        assert_eq!((status, &flagged), (0, &native), "{name}: --native is the default");
        differed |= native != interpreted;
        let (a, b): (Vec<&str>, Vec<&str>) = (interpreted.lines().collect(), native.lines().collect());
        assert_eq!(a.len(), b.len(), "{name}: rows");
        assert!(a.len() > 10, "{name}: a run with samples");
        for (x, y) in a.iter().zip(&b) {
            if !x.starts_with("lagrange,") {
                assert_eq!(x, y, "{name}: header");
                continue;
            }
            for (u, v) in x.split(',').zip(y.split(',')).skip(1) {
                let (u, v): (f64, f64) = (u.parse().expect("number"), v.parse().expect("number"));
                assert!((u - v).abs() <= 1e-8 * (1.0 + u.abs()), "{name}: {x} vs {y}");
            }
        }
    }
    // The turntable's kept map rounds differently: else --interpret proves nothing.
    assert!(differed, "--interpret took the interpreter's route");
}

/// `run --columns` writes the state and only the diagnostic columns asked for, with
/// the same numbers as the full table (diagnostics never change the integration),
/// and refuses an unknown group by name.
#[test]
fn run_columns_choose_the_diagnostics_written() {
    // A holonomic constraint (res_ and dres_ columns) and an E-vector.
    for name in ["chaplygin-sleigh", "rolling-disk"] {
        let file = scenario(name);
        let base = ["run", file.as_str(), "--t-end", "1"];
        let (status, full, err) = nhlab(&base);
        assert_eq!(status, 0, "{name}: {err}");
        let table = |text: &str| -> (Vec<String>, Vec<Vec<String>>) {
            let mut lines = text.lines().filter(|l| !l.starts_with('#'));
            let header = lines.next().expect("header").split(',').map(String::from).collect();
            (header, lines.map(|l| l.split(',').map(String::from).collect()).collect())
        };
        let (full_header, full_rows) = table(&full);
        let contact = |c: &str| ["N_", "Ft1_", "Ft2_", "Ft_", "mu_needed_", "mu_"].iter().any(|p| c.starts_with(p));
        for (choice, wanted) in [
            (
                "state",
                &(|c: &str| !c.starts_with("energy") && !c.contains("res_") && !c.starts_with("E_") && !contact(c))
                    as &dyn Fn(&str) -> bool,
            ),
            ("energy,e", &|c: &str| !c.contains("res_") && !contact(c)),
            ("residuals", &|c: &str| c != "energy" && !c.starts_with("E_") && !contact(c)),
            ("contacts", &|c: &str| c != "energy" && !c.starts_with("E_") && !c.contains("res_")),
        ] {
            let (status, out, err) = nhlab(&[&base[..], &["--columns", choice]].concat());
            assert_eq!(status, 0, "{name} {choice}: {err}");
            let (header, rows) = table(&out);
            let keep: Vec<usize> = (0..full_header.len()).filter(|&i| wanted(&full_header[i])).collect();
            let expected: Vec<String> = keep.iter().map(|&i| full_header[i].clone()).collect();
            assert_eq!(header, expected, "{name} {choice}: the columns");
            assert!(header.len() < full_header.len(), "{name} {choice}: some columns are left out");
            if name == "rolling-disk" && choice == "contacts" {
                assert!(header.iter().filter(|c| contact(c)).count() == 6, "{name}: six columns per contact");
            }
            assert_eq!(rows.len(), full_rows.len(), "{name} {choice}: the same samples");
            for (row, full_row) in rows.iter().zip(&full_rows) {
                let expected: Vec<&String> = keep.iter().map(|&i| &full_row[i]).collect();
                assert_eq!(row.iter().collect::<Vec<_>>(), expected, "{name} {choice}: the same numbers");
            }
        }
    }
    let file = scenario("chaplygin-sleigh");
    let (status, _, err) = nhlab(&["run", file.as_str(), "--columns", "state,energie"]);
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("--columns") && err.contains("`energie`") && err.contains("energy"), "{err}");
}

/// The reference's examples of `run --columns` and `run --interpret` run as printed
/// (from the repository's root, the output to standard output) and write the
/// columns they promise.
#[test]
fn the_references_run_examples_work_as_printed() {
    let root = format!("{}/..", env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(format!("{root}/docs/reference.md")).expect("the reference");
    let examples: Vec<&str> = doc
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("`nhlab run ") && (l.contains("--columns") || l.contains("--interpret")))
        .map(|l| l.trim_start_matches('`').trim_end_matches('.').trim_end_matches('`'))
        .collect();
    assert_eq!(examples.len(), 2, "{examples:?}");
    for example in examples {
        let mut args: Vec<String> = example.split_whitespace().skip(1).map(String::from).collect();
        if let Some(k) = args.iter().position(|a| a == "--out") {
            args[k + 1] = "-".into();
        }
        let output = Command::new(env!("CARGO_BIN_EXE_nhlab")).args(&args).current_dir(&root).output().expect("runs");
        assert!(output.status.success(), "{example}: {}", String::from_utf8_lossy(&output.stderr));
        let text = String::from_utf8(output.stdout).expect("utf-8");
        let header = text.lines().find(|l| l.starts_with("method,")).expect("a header");
        if example.contains("--columns state,energy") {
            assert_eq!(header, "method,t,x,y,phi,x',y',phi',energy", "{example}");
        } else {
            assert!(
                header.contains("energy") && text.lines().filter(|l| l.starts_with("lagrange,")).count() == 21,
                "{example}"
            );
        }
    }
}

/// `[compare]`: each method runs with the scenario's values and with each set's; a
/// set's rows are those of the same scenario with its values written in
/// `[parameters]` (the turntable's omitted velocities are solved again with the
/// set's rotation rate), and a last column `set` names them.
#[test]
fn parameter_sets_run_as_the_scenario_with_their_values() {
    let base = std::fs::read_to_string(scenario("ball-on-turntable")).unwrap();
    let with_sets = base.replace("[run]", "[compare.fast]\nOmega = 2.5\n\n[compare.light]\nm = 0.5\n\n[run]");
    let edited = base.replace("Omega = 1.0", "Omega = 2.5");
    assert_ne!(edited, base);
    let args = ["run", "-", "--method", "lagrange", "--t-end", "2"];
    let (code, both, err) = nhlab_with_input(&args, Some(&with_sets));
    assert_eq!(code, 0, "{err}");
    let (code, alone, err) = nhlab_with_input(&args, Some(&edited));
    assert_eq!(code, 0, "{err}");
    let header: Vec<&str> = both.lines().next().unwrap().split(',').collect();
    assert_eq!(header.last(), Some(&"set"));
    assert_eq!(alone.lines().next().unwrap().split(',').count() + 1, header.len());
    let rows_of = |set: &str| -> Vec<String> {
        both.lines().skip(1).filter_map(|l| l.strip_suffix(&format!(",{set}")).map(str::to_string)).collect()
    };
    let fast = rows_of("fast");
    let fast_alone: Vec<String> = alone.lines().skip(1).map(str::to_string).collect();
    assert!(fast.len() > 10);
    assert_eq!(fast, fast_alone, "the set's rows are the edited scenario's, number for number");
    // The omitted velocities were solved with the set's Omega: its first row differs
    // from the scenario's own in the velocities, not in the positions.
    let own: Vec<String> =
        both.lines().skip(1).filter(|l| l.ends_with(',')).map(|l| l.trim_end_matches(',').to_string()).collect();
    let (a, b) = (&own[0], &fast[0]);
    assert_ne!(a, b);
    assert_eq!(a.split(',').take(7).collect::<Vec<_>>(), b.split(',').take(7).collect::<Vec<_>>(), "t and q agree");
    assert!(rows_of("light").len() > 10);
    // Bad sets are refused at their place.
    let bad = base.replace("[run]", "[compare.fast]\nOmga = 2\n\n[compare.\"a.b\"]\nm = 1\n\n[run]");
    let (code, _, err) = nhlab_with_input(&["check", "-"], Some(&bad));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("compare.fast.Omga: `Omga` is not a parameter; did you mean `Omega`?"), "{err}");
    assert!(err.contains("without `.`"), "{err}");
    let four = base
        .replace("[run]", "[compare.a]\nm = 1\n[compare.b]\nm = 2\n[compare.c]\nm = 3\n[compare.d]\nm = 4\n\n[run]");
    let (code, _, err) = nhlab_with_input(&["check", "-"], Some(&four));
    assert_eq!(code, 2);
    assert!(err.contains("compare: at most 3 parameter sets"), "{err}");
}

/// A scenario over the size limit is refused with its true size (it was said to be
/// one byte over the limit, the most that was read): a file's from its length, and
/// standard input, whose size is unknown, as "more than" the limit.
#[test]
fn a_file_over_the_size_limit_is_refused_with_its_true_size() {
    let path = std::env::temp_dir().join(format!("nhlab-cli-large-{}.json", std::process::id()));
    let size = 1_127_873usize;
    std::fs::write(&path, " ".repeat(size)).unwrap();
    let (code, _, err) = nhlab(&["check", path.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&format!("the scenario is {size} bytes; the lab reads at most 1048576")), "{err}");
    // Standard input from the same file (a pipe would break when nhlab stops reading).
    let out = Command::new(env!("CARGO_BIN_EXE_nhlab"))
        .args(["check", "-"])
        .stdin(Stdio::from(std::fs::File::open(&path).unwrap()))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("standard input: more than 1048576 bytes"), "{err}");
    std::fs::remove_file(path).ok();
}

/// Issue 35.2: 64 chained `cross` vectors (the `[vectors]` limit), each term's printed
/// tree twice the last: every method derives and prints in every format, the shared
/// parts named, in a few hundred kilobytes. The printed size saturated as `1 + MAX`,
/// wrapped to 0 at 58 vectors, and the equations were printed unnamed (13 GB).
#[test]
fn chained_cross_products_print_within_bounds_for_every_method() {
    let mut text = String::from(
        "format = \"nhlab/1\"\ntitle = \"chained cross products\"\ncoordinates = [\"x\", \"y\", \"z\"]\n\
         kinetic = \"(x'^2 + y'^2 + z'^2)/2\"\npotential = \"v63_x\"\n[vectors]\nv0 = \"[x, y, z]\"\n",
    );
    for i in 1..64 {
        text += &format!("v{i} = \"cross(v{}, [y, z, x])\"\n", i - 1);
    }
    text += "[[constraints]]\nexpr = \"x' - 1e-40*v63_y*y'\"\n[initial]\nq = { x = 1, y = 2, z = 3 }\n";
    for method in ["lagrange", "udwadia-kalaba", "gauss", "euler", "hamel", "voronets", "vakonomic"] {
        for format in ["text", "mathml"] {
            let (code, out, err) =
                nhlab_with_input(&["derive", "-", "--method", method, "--format", format], Some(&text));
            assert_eq!(code, 0, "{method} {format}: {err}");
            assert!(out.len() < 2_000_000, "{method} {format}: {} bytes", out.len());
            assert!(format != "text" || out.contains("w1 = "), "{method}: the shared parts are named");
        }
    }
}

/// Issue 35.4: every `run` has a wall-clock bound for the whole command
/// (`--max-seconds`, 600 by default) that no scenario escapes; the run in progress
/// stops at it with a message, its samples written, and the methods after it stop
/// at once.
#[test]
fn a_run_stops_at_the_commands_wall_clock_bound_with_its_samples_written() {
    let out = std::env::temp_dir().join(format!("nhlab-bound-{}.csv", std::process::id()));
    let (code, _, err) = nhlab(&[
        "run",
        &scenario("pendulum-cartesian"),
        "--t-end",
        "1e7",
        "--max-steps",
        "100000000",
        "--max-samples",
        "100000000",
        "--max-seconds",
        "0.3",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("lagrange: the run stopped at t = ")
            && err.contains(
                ": it was interrupted after 0.3 s, the command's wall-clock bound (raise it with --max-seconds)"
            ),
        "{err}"
    );
    assert!(err.contains("udwadia-kalaba: the run stopped at t = 0: it was interrupted"), "{err}");
    let rows = std::fs::read_to_string(&out).unwrap().lines().filter(|l| !l.starts_with('#')).count();
    assert!(rows > 100, "the samples reached are written: {rows} rows");
    std::fs::remove_file(&out).ok();
    let (code, _, err) = nhlab(&["run", &scenario("pendulum-cartesian"), "--max-seconds", "0"]);
    assert_eq!((code, err.trim()), (2, "error: --max-seconds: must be above 0 and at most 1e9"));
}

/// Issue 35.1: `run` streams its table, a piece of each run at a time, so a long run
/// of a large model fits in a little memory: 200 coordinates to 20,000 samples (a
/// 160 MB CSV) and every method of the pendulum densely sampled run under a 300 MB
/// address-space limit (the whole table was built in memory first: the first
/// aborted at 0.3 s). The table is the same as the one a short run writes whole.
#[test]
fn long_tables_are_streamed_within_a_small_memory_bound() {
    let n = 200;
    let names: Vec<String> = (0..n).map(|i| format!("a{i}")).collect();
    let list = |f: &dyn Fn(&str) -> String, sep: &str| names.iter().map(|x| f(x)).collect::<Vec<_>>().join(sep);
    let text = format!(
        "format = \"nhlab/1\"\ntitle = \"200 oscillators\"\ncoordinates = [{}]\nkinetic = \"({})/2\"\npotential = \"({})/2\"\n\
         [initial]\nq = {{ {} }}\nv = {{ {} }}\n[run]\nintegrator = \"rk4\"\ndt = 0.001\n",
        list(&|x| format!("\"{x}\""), ", "),
        list(&|x| format!("{x}'^2"), " + "),
        list(&|x| format!("{x}^2"), " + "),
        list(&|x| format!("{x} = 1"), ", "),
        list(&|x| format!("{x} = 0"), ", "),
    );
    let limited = |args: &str, input: Option<&str>| {
        let script = format!("ulimit -v 300000; exec \"{}\" {args}", env!("CARGO_BIN_EXE_nhlab"));
        let mut child = Command::new("sh")
            .args(["-c", &script])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        if let Some(text) = input {
            child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
        }
        drop(child.stdin.take());
        let out = child.wait_with_output().unwrap();
        (out.status.code(), out.stdout, String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (code, out, err) = limited("run - --t-end 20", Some(&text));
    assert_eq!(code, Some(0), "{err}");
    let csv = String::from_utf8(out).unwrap();
    assert_eq!(csv.lines().count(), 1 + 20_001, "a header and every sample");
    let last = csv.lines().last().unwrap().split(',').map(|c| c.parse::<f64>().unwrap_or(f64::NAN)).collect::<Vec<_>>();
    // a(t) = cos t for every oscillator, at t = 20 (rk4 with dt = 0.001: error ~1e-12).
    assert!((last[1] - 20.0).abs() < 1e-9 && (last[2] - 20f64.cos()).abs() < 1e-9, "{:?}", &last[..3]);
    // Dense samples of every method, streamed: the same rows as the whole table.
    let pendulum = scenario("pendulum-cartesian");
    let (code, streamed, err) = limited(&format!("run {pendulum} --sample-at 0:2:0.00002 --format json"), None);
    assert_eq!(code, Some(0), "{err}");
    let streamed: serde_json::Value = serde_json::from_slice(&streamed).unwrap();
    assert_eq!(streamed["rows"].as_array().unwrap().len(), 3 * 100_001);
    let (_, short, _) = nhlab(&["run", &pendulum, "--sample-at", "0:2:0.5", "--format", "json"]);
    let short: serde_json::Value = serde_json::from_str(&short).unwrap();
    assert_eq!((&short["columns"], &short["comment"]), (&streamed["columns"], &streamed["comment"]));
    let at = |rows: &serde_json::Value, k: usize| rows["rows"][k].clone();
    assert_eq!(at(&short, 1), at(&streamed, 25_000), "the row at t = 0.5 is the same");
}

/// Issue 35.4: 128 distinct but redundant rows (the rolling disk's two contact rows
/// and 126 rescaled copies as written constraints; rank two) cost Udwadia–Kalaba and
/// Gauss a pseudo-inverse over the 128 rows every step, about 60 s per second of the
/// motion; the sweeps now pair the 5 columns. Both run 2 s of it well inside a
/// 60-second wall-clock bound and agree with Lagrange's (which drops the redundant
/// rows once) to 1e-9.
#[test]
fn many_redundant_rows_cost_udwadia_kalaba_and_gauss_little_and_agree_with_lagrange() {
    let disk = std::fs::read_to_string(scenario("rolling-disk")).unwrap();
    let mut copies = String::new();
    for k in 2..65 {
        copies += &format!(
            "[[constraints]]\nname = \"x{k}\"\nexpr = \"{k}*(x' - r*phi'*cos(psi))\"\n\
             [[constraints]]\nname = \"y{k}\"\nexpr = \"{k}*(y' - r*phi'*sin(psi))\"\n"
        );
    }
    let at = disk.find("[initial]").unwrap();
    let text = format!("{}{copies}{}", &disk[..at], &disk[at..]);
    let last_row = |method: &str| -> Vec<f64> {
        let args = ["run", "-", "--method", method, "--t-end", "2", "--columns", "state", "--max-seconds", "60"];
        let (code, out, err) = nhlab_with_input(&args, Some(&text));
        assert_eq!(code, 0, "{method}: {err}");
        assert!(!err.contains("interrupted"), "{method}: {err}");
        let row = out.lines().last().unwrap();
        assert!(row.starts_with(&format!("{method},2.0,")), "{method}: {row}");
        row.split(',').skip(2).map(|x| x.parse().unwrap()).collect()
    };
    let lagrange = last_row("lagrange");
    for method in ["udwadia-kalaba", "gauss"] {
        let row = last_row(method);
        let gap = row.iter().zip(&lagrange).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        assert!(gap < 1e-9, "{method} against lagrange: {gap:e}");
    }
}

/// Contact forces on the command line: `eval` gives each contact's force at the
/// initial state (the incline's closed form), `run` writes its columns and says
/// where the rolling model fails, and `on_invalid = "stop"` ends the run there.
#[test]
fn contact_forces_and_where_rolling_fails_reach_the_command_line() {
    let file = scenario("ball-on-incline");
    let (status, out, err) = nhlab(&["eval", file.as_str(), "--method", "gauss"]);
    assert_eq!(status, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let contact = &json["contacts"]["ball on incline"];
    let (alpha, g) = (0.5f64, 9.81);
    assert!((contact["N"].as_f64().unwrap() - g * alpha.cos()).abs() < 1e-10, "{contact}");
    assert!((contact["mu_needed"].as_f64().unwrap() - 2.0 / 7.0 * alpha.tan()).abs() < 1e-10, "{contact}");
    assert_eq!(contact["friction"].as_f64(), Some(0.2));
    // The constraints' reaction on the coordinates: the friction's, `F·∂v_P/∂s'`.
    assert!((json["reaction"]["s"].as_f64().unwrap() + 2.0 / 7.0 * g * alpha.sin()).abs() < 1e-10, "{json}");
    let (_, out, _) = nhlab(&["eval", file.as_str(), "--method", "lagrange"]);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(json["reactions"]["ball on incline: down"]["s"].is_number(), "{json}");

    let coin = scenario("coin-slipping");
    let (status, out, err) = nhlab(&["run", coin.as_str(), "--columns", "contacts"]);
    assert_eq!(status, 0, "{err}");
    let header: Vec<&str> = out.lines().next().unwrap().split(',').collect();
    let mu = header.iter().position(|c| *c == "mu_needed_disk rolls on ground").expect("the column");
    assert!(err.contains("`disk rolls on ground` (rolling[0]) slips") && err.contains("from t = 0.6853"), "{err}");
    // The needed friction passes 0.4 where the note says.
    let rows: Vec<Vec<f64>> =
        out.lines().skip(1).map(|l| l.split(',').skip(1).map(|x| x.parse().unwrap_or(f64::NAN)).collect()).collect();
    let first_over = rows.iter().find(|r| r[mu - 1] > 0.4).unwrap();
    assert!((first_over[0] - 0.6853).abs() < 0.05, "{}", first_over[0]);

    let dir = std::env::temp_dir().join(format!("nhlab-cli-stop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let stop = dir.join("coin.toml");
    let text = std::fs::read_to_string(&coin).unwrap().replace("[run]\n", "[run]\non_invalid = \"stop\"\n");
    std::fs::write(&stop, text).unwrap();
    let (status, out, err) = nhlab(&["run", stop.to_str().unwrap(), "--columns", "state"]);
    assert_eq!(status, 0, "an end by design: {err}");
    assert!(err.contains("starts to slip at t = 0.6853") && err.contains("on_invalid"), "{err}");
    // One story (issue 56): stopped at the slip, not also "slips … to the run's end".
    assert_eq!(err.matches("0.6853").count(), 1, "{err}");
    assert!(!err.contains("run's end"), "{err}");
    let last: f64 = out.lines().last().unwrap().split(',').nth(1).unwrap().parse().unwrap();
    assert!((last - 0.6853).abs() < 1e-4, "{last}");
    let (status, _, err) = nhlab(&["run", stop.to_str().unwrap(), "--strict"]);
    assert_eq!(status, 1, "--strict makes it a failure: {err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--integrator` several times overlays integrators: every method under each, an
/// `integrator` column naming the run's; `--dt` sets the fixed step; an unknown
/// integrator, a bad step and a model outside the structure-preserving class are
/// said plainly.
#[test]
fn integrators_overlay_like_methods_and_are_refused_where_they_do_not_apply() {
    let (code, out, err) = nhlab(&[
        "run",
        &scenario("chaplygin-sleigh"),
        "--method",
        "lagrange",
        "--integrator",
        "rattle",
        "--integrator",
        "dopri5",
        "--dt",
        "0.05",
        "--t-end",
        "1",
        "--columns",
        "energy,residuals",
    ]);
    assert_eq!(code, 0, "{err}");
    let header: Vec<&str> = out.lines().next().expect("a header").split(',').collect();
    assert_eq!(header.last(), Some(&"integrator"), "{header:?}");
    let rattle: Vec<&str> = out.lines().skip(1).filter(|l| l.ends_with(",rattle")).collect();
    assert_eq!(rattle.len(), 21, "the start and 20 steps of 0.05");
    assert!(out.lines().skip(1).any(|l| l.ends_with(",dopri5")));
    // The edge's residual at every rattle step: the scheme meets it exactly.
    let res = header.iter().position(|&c| c == "res_edge").expect("the residual column");
    for line in &rattle {
        let r: f64 = line.split(',').nth(res).expect("a cell").parse().expect("a number");
        assert!(r.abs() < 1e-12, "{line}");
    }
    let (code, _, err) = nhlab(&["run", &scenario("chaplygin-sleigh"), "--integrator", "ratle"]);
    assert_eq!(code, 2);
    assert!(err.contains("--integrator: unknown integrator `ratle`: use one of dopri5, rk4, rattle, rattle4"), "{err}");
    let (code, _, err) = nhlab(&["run", &scenario("chaplygin-sleigh"), "--integrator", "rattle", "--dt", "0"]);
    assert_eq!((code, err.trim()), (2, "error: --dt: expected a positive number, found 0"));
    let (code, _, err) = nhlab(&["run", &scenario("appell-hamel"), "--integrator", "rattle"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("the integrator `rattle` does not apply to this model: the constraint `appell` (constraints[0]) is nonlinear in the velocities"),
        "{err}"
    );
    let (code, out, _) = nhlab(&["check", &scenario("appell-hamel")]);
    assert_eq!(code, 0);
    assert!(out.contains("not rattle, rattle4: the constraint `appell`"), "{out}");
}

/// A rolling disk with a yaw torque and an axle torque, linearised about upright
/// rolling (issue 56): the spin speed `phi'` is held (nothing couples to it), so the
/// axle torque's only effect is not in `B` — said in a warning that names the input
/// and the speed. `--keep-speed phi` keeps the speed in the state, and `B` then
/// carries it: `φ̈ = T / (I_axle + m r²) = T / (3/2 m r²)` (the contact point is the
/// instantaneous centre), and the yaw torque's `ψ̈ = T / (m r²/4)` either way.
#[test]
fn an_input_on_a_held_speed_is_said_and_the_speed_can_be_kept() {
    let text = std::fs::read_to_string(scenario("rolling-disk")).unwrap().replace(
        "[gravity]",
        "[inputs]\nT_yaw = { value = 0 }\nT_axle = { value = 0 }\n\n[forces]\npsi = \"T_yaw\"\nphi = \"T_axle\"\n\n[gravity]",
    );
    let (m, r) = (1.0f64, 0.3f64);
    let column = |json: &serde_json::Value, input: &str, row: &str| -> f64 {
        let c = json["inputs"].as_array().unwrap().iter().position(|x| x == input).unwrap();
        let r = json["state"].as_array().unwrap().iter().position(|x| x == row).unwrap();
        json["B"][r][c].as_f64().unwrap()
    };
    let (code, out, err) = nhlab_with_input(&["linearize", "-", "--state-space", "--at", "phi'=6"], Some(&text));
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["held_speeds"], serde_json::json!(["phi'"]), "{json}");
    assert!(
        err.contains("input `T_axle` drives the speed `phi'`") && err.contains("--keep-speed phi"),
        "the dropped effect is said: {err}"
    );
    assert!(!err.contains("T_yaw"), "{err}");
    assert_eq!(json["inputs_on_held_speeds"], serde_json::json!([{"input": "T_axle", "speed": "phi'"}]));
    assert!((column(&json, "T_yaw", "psi'") - 1.0 / (m * r * r / 4.0)).abs() < 1e-9, "{json}");

    let (code, out, err) =
        nhlab_with_input(&["linearize", "-", "--state-space", "--at", "phi'=6", "--keep-speed", "phi'"], Some(&text));
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("drives the speed"), "{err}");
    let held: serde_json::Value = serde_json::from_str(&out_held_text(&text)).unwrap();
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["held_speeds"], serde_json::json!([]), "{json}");
    assert!(json["state"].as_array().unwrap().iter().any(|x| x == "phi'"), "{json}");
    assert!((column(&json, "T_axle", "phi'") - 1.0 / (1.5 * m * r * r)).abs() < 1e-9, "{json}");
    assert!((column(&json, "T_yaw", "psi'") - 1.0 / (m * r * r / 4.0)).abs() < 1e-9, "{json}");
    // The kept speed adds one zero eigenvalue (nothing restores it); the rest are unchanged.
    let eig = |j: &serde_json::Value| -> Vec<(f64, f64)> {
        j["rows"][0]["eigenvalues"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| (e[0].as_f64().unwrap(), e[1].as_f64().unwrap()))
            .collect()
    };
    let (kept, before) = (eig(&json), eig(&held));
    assert_eq!(kept.len(), before.len() + 1, "{kept:?} {before:?}");
    for e in &before {
        assert!(kept.iter().any(|k| (k.0 - e.0).abs() < 1e-9 && (k.1 - e.1).abs() < 1e-9), "{e:?} in {kept:?}");
    }
    assert!(
        kept.iter().filter(|k| k.0.abs() < 1e-9 && k.1.abs() < 1e-9).count()
            > before.iter().filter(|k| k.0.abs() < 1e-9 && k.1.abs() < 1e-9).count()
    );

    let (code, _, err) = nhlab_with_input(&["linearize", "-", "--state-space", "--keep-speed", "theta"], Some(&text));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--keep-speed: `theta` is not ignorable"), "{err}");
    let (code, _, err) = nhlab_with_input(&["linearize", "-", "--state-space", "--keep-speed", "spin"], Some(&text));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("`spin` is not a coordinate"), "{err}");
}

/// `linearize --state-space` of `text` (standard input), its JSON.
fn out_held_text(text: &str) -> String {
    let (code, out, err) = nhlab_with_input(&["linearize", "-", "--state-space", "--at", "phi'=6"], Some(text));
    assert_eq!(code, 0, "{err}");
    out
}

/// Issue 57: `check` listed `rattle` for a model whose constraints are redundant
/// at the start (the gallery robot), where the run then failed.
#[test]
fn check_says_the_structure_preserving_schemes_do_not_take_redundant_constraints() {
    let (code, out, err) = nhlab(&["check", &scenario("differential-drive")]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("integrators: dopri5, rk4\n"), "{out}");
    assert!(out.contains("not rattle, rattle4: the constraints are redundant at the start (rank 3 of 4)"), "{out}");
}

/// Whether `text` has Chinese characters.
fn has_chinese(text: &str) -> bool {
    text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

#[test]
fn language_zh_says_problems_and_the_cores_notes_in_chinese_and_changes_no_number() {
    let broken = std::fs::read_to_string(scenario("pendulum-cartesian")).unwrap().replace("m/2*(x'^2", "m/2*(xx'^2");
    let (code, _, err) = nhlab_with_input(&["check", "-", "--language", "zh"], Some(&broken));
    assert_eq!(code, 2);
    // The same place, the same names; the words the catalogue's.
    let line = err.trim();
    assert!(line.starts_with("error: <stdin>:8:17: kinetic: "), "{line}");
    assert!(line.contains("`xx`") && line.contains("`x`") && has_chinese(line), "{line}");
    assert!(!line.contains("unknown name") && !line.contains("did you mean"), "{line}");
    // A run's note from the core (Hamel's split turning singular) in Chinese, with
    // its time and coordinate; the table written is the English run's, byte for byte.
    let sleigh = scenario("chaplygin-sleigh");
    let (code, english_out, english_err) = nhlab(&["run", &sleigh, "--t-end", "2"]);
    assert_eq!(code, 0, "{english_err}");
    let (code, chinese_out, chinese_err) = nhlab(&["--language", "zh-CN", "run", &sleigh, "--t-end", "2"]);
    assert_eq!(code, 0, "{chinese_err}");
    assert_eq!(chinese_out, english_out);
    let note = |err: &str| err.lines().find(|l| l.starts_with("note: hamel: ")).map(str::to_string);
    let (english, chinese) = (note(&english_err).expect("a note"), note(&chinese_err).expect("a note"));
    assert!(english.contains("Hamel's embedding ends at t = 1.14782"), "{english}");
    assert!(chinese.contains("t = 1.14782") && chinese.contains(" y") && has_chinese(&chinese), "{chinese}");
    assert!(!chinese.contains("embedding ends"), "{chinese}");
    // English is the default and `en` says it; another language is refused at its flag.
    assert_eq!(nhlab(&["run", &sleigh, "--t-end", "2", "--language", "en"]).2, english_err);
    let (code, _, err) = nhlab(&["check", &sleigh, "--language", "fr"]);
    assert_eq!(code, 2);
    assert!(err.contains("--language") && err.contains("use en or zh"), "{err}");
}
