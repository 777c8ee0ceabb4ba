//! Each command's output and formats: `check`, `derive`, `eval`, `run` and its figure.

use super::*;

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
    let out = nhlab_ok(&["check", &scenario("rolling-disk")]);
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
    let dir = scratch("contacts");
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
    let out = nhlab_ok(&["eval", &scenario("knife-edge-incline"), "--method", "lagrange"]);
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
    let out = nhlab_ok(&[
        "eval",
        &scenario("chaplygin-sleigh"),
        "--method",
        "udwadia-kalaba",
        "--at",
        "phi=0.5,x'=2,phi'=1,t=3",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["t"], 3.0);
    let y_dot = v["v"]["y"].as_f64().unwrap();
    assert!((y_dot - 2.0 * 0.5f64.tan()).abs() < 1e-12, "y' = x' tan φ: {out}");
    assert!(v["residuals"][0].as_f64().unwrap().abs() < 1e-12);
}

#[test]
fn run_writes_the_spec_columns() {
    let out = nhlab_ok(&[
        "run",
        &scenario("knife-edge-incline"),
        "--method",
        "lagrange",
        "--method",
        "gauss",
        "--sample-at",
        "1,2,3",
    ]);
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
    let dir = scratch("csv");
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
    let dir = scratch("json");
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
    let dir = scratch("failed");
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
    let out = nhlab_ok(&["derive", &scenario("knife-edge-incline"), "--method", "lagrange"]);
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
    let out = nhlab_ok(&["eval", &scenario("chaplygin-sleigh"), "--method", "hamel"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // E at φ = 0, x' = 1, φ' = 1 (m = 1, a = 0.5): E_x = −a m φ'², E_φ = a m x' φ'.
    assert!((v["evec"]["x"].as_f64().unwrap() + 0.5).abs() < 1e-12, "{out}");
    assert!((v["evec"]["phi"].as_f64().unwrap() - 0.5).abs() < 1e-12, "{out}");
    assert!(v.get("multipliers").is_none());
    let out = nhlab_ok(&["eval", &scenario("chaplygin-sleigh"), "--method", "vakonomic", "--at", "mu1=0.3"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["multipliers"][0], 0.3);
    assert!(v["mu_dot"][0].is_number(), "{out}");
    let (_, out, _) = nhlab(&["eval", &scenario("appell-hamel"), "--method", "lagrange"]);
    assert!(!out.contains("evec"), "no E-vector for a nonlinear constraint: {out}");
}

#[test]
fn run_adds_e_and_mu_columns_and_keeps_samples_before_a_failure() {
    let out = nhlab_ok(&[
        "run",
        &scenario("chaplygin-sleigh"),
        "--method",
        "lagrange",
        "--method",
        "vakonomic",
        "--sample-at",
        "0.5,1",
    ]);
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
    let out = nhlab_ok(&["derive", &scenario("chaplygin-sleigh"), "--method", "voronets"]);
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
    let dir = scratch("plot");
    for ext in ["svg", "png"] {
        let path = dir.join(format!("figure.{ext}"));
        nhlab_ok(&[
            "run",
            &scenario("knife-edge-incline"),
            "--t-end",
            "2",
            "--out",
            dir.join("x.csv").to_str().unwrap(),
            "--plot",
            path.to_str().unwrap(),
        ]);
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
