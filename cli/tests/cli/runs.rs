//! `nhlab run` at work: the scene's frames, machine code, columns, parameter sets, bounds,
//! contacts, integrators and inputs.

use super::*;

// ---- Issue 13: the scene's frame strip ----------------------------------------

/// `run --scene` draws the frames asked for, every method named, and says where a
/// method stopped before a frame; bad paths and times are refused at their flag.
#[test]
fn run_draws_the_scene_at_the_frame_times() {
    let dir = scratch("scene");
    let svg = dir.join("pendulum.svg");
    nhlab_ok(&[
        "run",
        &scenario("pendulum-cartesian"),
        "--out",
        "/dev/null",
        "--scene",
        svg.to_str().unwrap(),
        "--frames",
        "0,0.5,1",
    ]);
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
    let dir = scratch("scene-write");
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
    let path = scratch("large").join("large.json");
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
    let out = scratch("bound").join("bound.csv");
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

    let dir = scratch("stop");
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
    let out = nhlab_ok(&[
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
    let out = nhlab_ok(&["check", &scenario("differential-drive")]);
    assert!(out.contains("integrators: dopri5, rk4\n"), "{out}");
    assert!(out.contains("not rattle, rattle4: the constraints are redundant at the start (rank 3 of 4)"), "{out}");
}
