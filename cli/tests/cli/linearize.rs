//! `nhlab linearize`: the bicycle's benchmark eigenvalues, sweeps and boundaries, its refusals.

use super::*;

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
    let svg = scratch("stability").join("stability.svg");
    let v = nhlab_json(&["linearize", disk.as_str(), "--plot", svg.to_str().unwrap()]);
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
    assert!(figure.contains("grey: neutrally stable (Re λ = 0"), "the figure names the marginal range");
    let _ = std::fs::remove_file(&svg);
    assert!(
        figure.contains("Re λ") && figure.contains("Im λ") && figure.contains("<polyline"),
        "an SVG with both charts"
    );
    // Flags replace the table's entries: a parameter sweep instead.
    let v = nhlab_json(&["linearize", disk.as_str(), "--sweep", "g=0:20:1", "--at", "phi'=5"]);
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
        let v = nhlab_json(&["linearize", sleigh.as_str(), "--method", method, "--no-sweep", "--at", "x'=2"]);
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
    let svg = scratch("axis").join("axis.svg");
    let v = nhlab_json(&["linearize", file.as_str(), "--plot", svg.to_str().unwrap()]);
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
        let bad = scratch("axis").join(format!("bad-{}.toml", says.len()));
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

/// Two `--sweep`s give a stability map: the same bytes on one thread and on two; one
/// CSV row per point with the largest real part; JSON nested by the axes; the weave
/// and capsize speeds at the benchmark's trail among the boundaries; a figure.
#[test]
fn two_sweeps_give_a_stability_map_the_same_on_any_number_of_threads() {
    let dir = scratch("map");
    let png = dir.join("map.png");
    let sweeps = ["--sweep", "rear'=0:33.3:0.666", "--sweep", "c=0.04:0.12:0.04"];
    let map = |threads: &str, extra: &[&str]| {
        let file = scenario("whipple-bicycle");
        let mut args = vec!["linearize", file.as_str()];
        args.extend_from_slice(&sweeps);
        args.extend_from_slice(&["--threads", threads]);
        args.extend_from_slice(extra);
        nhlab(&args)
    };
    let (code, one, said) = map("1", &["--format", "csv"]);
    assert_eq!(code, 0, "{said}");
    let (code, two, said_two) = map("2", &["--format", "csv", "--plot", png.to_str().unwrap()]);
    assert_eq!(code, 0, "{said_two}");
    assert_eq!(one, two, "one thread and two");
    assert_eq!(said, said_two);
    assert!(std::fs::metadata(&png).unwrap().len() > 10_000, "a figure");
    let rows: Vec<&str> = one.lines().collect();
    assert!(rows[0].starts_with("rear',c,max_real,stable,re1,im1,"), "{}", rows[0]);
    assert_eq!(rows.len(), 1 + 51 * 3);
    // rear' = 16.65 (v = 4.995 m/s), c = 0.08: stable, its largest real part the
    // capsize eigenvalue's (benchmark: -0.32 at 5 m/s).
    let row: Vec<&str> = rows.iter().find(|r| r.starts_with("16.65,0.08,")).unwrap().split(',').collect();
    let max_real: f64 = row[2].parse().unwrap();
    assert!(row[3] == "true" && (-0.4..-0.25).contains(&max_real), "{row:?}");
    let speeds: Vec<f64> = said
        .lines()
        .filter(|l| l.contains("at c = 0.08 "))
        .map(|l| l.split(" = ").nth(1).unwrap().split(' ').next().unwrap().parse::<f64>().unwrap() * 0.3)
        .collect();
    assert_eq!(speeds.len(), 2, "{said}");
    assert!((speeds[0] - 4.29238253634111).abs() < 1e-9 && (speeds[1] - 6.02426201538837).abs() < 1e-9, "{speeds:?}");
    let (code, json, _) = map("2", &[]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["axes"][1]["name"], "c");
    assert_eq!(v["max_real"].as_array().unwrap().len(), 51);
    assert_eq!(v["max_real"][25].as_array().unwrap().len(), 3);
    assert_eq!(v["eigenvalues"][25][1].as_array().unwrap().len(), 4);
    assert!(v["boundaries"].as_array().unwrap().iter().any(|b| b["axis"] == "c" && b["refined"] == true));
}

/// A map's refusals name the flag.
#[test]
fn a_map_that_cannot_be_made_is_refused_at_its_flag() {
    let file = scenario("whipple-bicycle");
    for (extra, says) in [
        (vec!["--sweep", "c=0:1:0.5", "--sweep", "c=0:1:0.5"], "`c` is swept twice"),
        (
            vec!["--sweep", "c=0:1:0.5", "--sweep", "w=0:1:0.5", "--sweep", "g=0:1:0.5", "--sweep", "m=0:1:0.5"],
            "1 to 3 axes",
        ),
        (
            vec!["--sweep", "c=0:1:0.5", "--sweep", "w=1:2:0.5", "--sweep", "g=9:10:0.5", "--plot", "x.png"],
            "drawn over two axes",
        ),
        (vec!["--sweep", "c=0:1:0.5", "--sweep", "nope=0:1:0.5"], "--sweep"),
        (vec!["--sweep", "c=0:1:0.5", "--sweep", "w=1:2:0.5", "--threads", "0"], "--threads: at least 1"),
        (vec!["--sweep", "c=0.1,0.05", "--sweep", "w=1:2:0.5"], "the values of `c` must increase"),
        // Bounded before any work: 3,331 × 201 points.
        (vec!["--sweep", "rear'=0:33.3:0.01", "--sweep", "c=0:0.2:0.001"], "669531 points; a map has at most 250000"),
        (vec!["--sweep", "c=0.1,x", "--sweep", "w=1:2:0.5"], "`x` is not a finite number"),
    ] {
        let mut args = vec!["linearize", file.as_str()];
        args.extend_from_slice(&extra);
        let (code, _, err) = nhlab(&args);
        assert_eq!(code, 2, "{extra:?}: {err}");
        assert!(err.contains(says), "{extra:?}: {err}");
    }
}

/// `--rows I:J` computes a chunk of a map's first axis: chunks put together are the
/// whole map, rows and boundaries, to the bit.
#[test]
fn chunks_of_rows_put_together_are_the_whole_map() {
    let file = scenario("whipple-bicycle");
    let map = |extra: &[&str]| {
        let mut args = vec![
            "linearize",
            file.as_str(),
            "--sweep",
            "rear'=0:33.3:0.666",
            "--sweep",
            "c=0.04:0.12:0.04",
            "--format",
            "csv",
        ];
        args.extend_from_slice(extra);
        let (code, out, err) = nhlab(&args);
        assert_eq!(code, 0, "{err}");
        (out, err)
    };
    let (whole, whole_said) = map(&[]);
    let mut rows = String::new();
    let mut said = String::new();
    for (k, chunk) in ["0:21", "21:22", "22:51"].iter().enumerate() {
        let (out, err) = map(&["--rows", chunk]);
        let mut lines = out.lines();
        let header = lines.next().unwrap();
        if k == 0 {
            rows += header;
            rows += "\n";
        }
        for l in lines {
            rows += l;
            rows += "\n";
        }
        said += &err;
    }
    assert_eq!(rows, whole);
    assert_eq!(said, whole_said);
    assert!(whole_said.lines().count() >= 6, "{whole_said}");
    let (code, _, err) = nhlab(&["linearize", file.as_str(), "--rows", "0:2"]);
    assert!(code == 2 && err.contains("--rows and --threads are for a map"), "{err}");
    let (code, _, err) =
        nhlab(&["linearize", file.as_str(), "--sweep", "c=0:1:0.5", "--sweep", "w=1:2:0.5", "--rows", "2:2"]);
    assert!(code == 2 && err.contains("--rows: expected I:J"), "{err}");
}

/// `--map` computes the map the scenario's `[stability]` declares (`sweep` across,
/// `map` up) — the same bytes as the two `--sweep`s it stands for — and along the
/// spin the coin's boundary is the closed form `phi'² = g/(3r)` at every radius.
#[test]
fn the_scenario_s_map_is_its_two_sweeps_and_the_coin_s_boundary_is_the_closed_form() {
    let text = std::fs::read_to_string(scenario("rolling-disk")).unwrap();
    let small = text
        .replace("from = 0, to = 10, step = 0.01 }", "from = 0, to = 10, step = 0.5 }")
        .replace("from = 0.05, to = 0.5, step = 0.005 }", "from = 0.1, to = 0.4, step = 0.1 }");
    assert_ne!(small, text);
    let file = scratch("scenario-map").join("map.toml");
    std::fs::write(&file, &small).unwrap();
    let path = file.to_str().unwrap();
    let (code, declared, err) = nhlab(&["linearize", path, "--map", "--format", "csv"]);
    assert_eq!(code, 0, "{err}");
    let (code, flags, _) =
        nhlab(&["linearize", path, "--sweep", "phi'=0:10:0.5", "--sweep", "r=0.1:0.4:0.1", "--format", "csv"]);
    assert_eq!(code, 0);
    assert_eq!(declared, flags);
    assert_eq!(declared.lines().count(), 1 + 21 * 4);
    // Its chunks too (`--rows`, as Python spreads a map).
    let (code, chunk, said) =
        nhlab(&["linearize", path, "--map", "--rows", "0:2", "--threads", "1", "--format", "csv"]);
    assert_eq!(code, 0, "{said}");
    assert_eq!(chunk.lines().count(), 1 + 2 * 4);
    assert!(declared.starts_with(&chunk), "{chunk}");
    let mut found = 0;
    for line in err.lines().filter(|l| l.starts_with("boundary: phi' = ")) {
        let (spin, rest) = line["boundary: phi' = ".len()..].split_once(" at r = ").unwrap();
        let r: f64 = rest.split_once(' ').unwrap().0.parse().unwrap();
        let spin: f64 = spin.parse().unwrap();
        assert!((spin - (9.81 / (3.0 * r)).sqrt()).abs() < 1e-9, "{line}");
        found += 1;
    }
    assert_eq!(found, 4, "{err}");
    // A scenario without a map is told so; one whose map is wrong is refused at its key.
    let (code, _, err) = nhlab(&["linearize", scenario("chaplygin-sleigh").as_str(), "--map"]);
    assert_eq!(code, 2);
    assert!(err.contains("--map: the scenario's [stability] table declares no map"), "{err}");
    for (over, says) in [
        ("phi'", "stability.map.over: `phi'` is already swept by `sweep`"),
        ("k", "stability.map.over: `k` is neither a parameter nor a velocity"),
    ] {
        std::fs::write(&file, small.replace("map = { over = \"r\",", &format!("map = {{ over = \"{over}\","))).unwrap();
        let (code, _, err) = nhlab(&["linearize", path, "--map"]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(says), "{err}");
    }
    let without = small.replace("sweep = { over = \"phi'\", from = 0, to = 10, step = 0.5 }\n", "");
    assert_ne!(without, small);
    std::fs::write(&file, &without).unwrap();
    let (code, _, err) = nhlab(&["check", path]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("stability.map: a map's first axis is `sweep`: give `sweep` too"), "{err}");
    std::fs::write(&file, small.replace("step = 0.1 }", "step = 0.1, axis = { name = \"d\", value = \"2*r\" } }"))
        .unwrap();
    // A map's axis is drawn as swept: a derived one is not used, and said so.
    let (code, _, err) = nhlab(&["check", path]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains(":64:55: stability.map.axis: unknown table `axis` (ignored)"), "{err}");
    std::fs::remove_file(&file).ok();
}

/// Chunks of one map computed one after another in one process (as the Python
/// package's Dask workers compute them) prepare its model once — the later chunks
/// start from the model the first prepared, compiled to machine code once a chunk is
/// large enough — and give what the same chunk gives in a fresh process, to the bit,
/// warnings included. Another text is prepared again, and gives its own numbers.
#[test]
fn chunks_in_one_process_prepare_the_model_once_and_give_a_fresh_process_s_bits() {
    let bicycle = std::fs::read_to_string(scenario("whipple-bicycle")).unwrap();
    // An unknown field: a warning that every chunk says.
    let text = format!("surplus = 1\n{bicycle}");
    // 51 × 81 points: a chunk of 30 rows (2,430 points) runs as machine code, one of
    // 21 (1,701 points) alone would not.
    let flags = |rows: &str| {
        ["linearize", "-", "--sweep", "rear'=0:33.3:0.666", "--sweep", "c=0.04:0.12:0.001", "--format", "csv"]
            .into_iter()
            .chain(["--threads", "2", "--rows", rows])
            .map(String::from)
            .collect::<Vec<_>>()
    };
    let in_process = |text: &str, rows: &str| {
        let said = nhlab_cli::run_captured(&flags(rows), Some(text.to_string()));
        let err = String::from_utf8(said.stderr).unwrap();
        assert_eq!(said.status, 0, "{rows}: {err}");
        (String::from_utf8(said.stdout).unwrap(), err)
    };
    let in_a_fresh_process = |text: &str, rows: &str| {
        let args = flags(rows);
        let (code, out, err) = nhlab_with_input(&args.iter().map(String::as_str).collect::<Vec<_>>(), Some(text));
        assert_eq!(code, 0, "{rows}: {err}");
        (out, err)
    };
    // Only this test computes maps in the test process.
    let before = nhlab_cli::map_preparations();
    for rows in ["30:51", "0:30", "30:51"] {
        let want = in_a_fresh_process(&text, rows);
        let (out, err) = in_process(&text, rows);
        assert!((&out, &err) == (&want.0, &want.1), "{rows}: not a fresh process's output");
        assert!(err.starts_with("warning: <stdin>:1:1: surplus"), "{rows}: {err}");
        let (from, to) = rows.split_once(':').unwrap();
        let points = (to.parse::<usize>().unwrap() - from.parse::<usize>().unwrap()) * 81;
        assert_eq!(out.lines().count(), 1 + points, "{rows}");
    }
    assert_eq!(nhlab_cli::map_preparations() - before, 1, "one preparation for three chunks");
    // A longer wheel base: prepared again, and not the kept model's numbers.
    let longer = text.replacen("w = 1.02 ", "w = 1.12 ", 1);
    assert_ne!(longer, text);
    let (out, err) = in_process(&longer, "0:30");
    assert!((out.clone(), err) == in_a_fresh_process(&longer, "0:30"), "not a fresh process's output");
    assert_ne!(out, in_process(&text, "0:30").0);
    assert_eq!(nhlab_cli::map_preparations() - before, 3, "each text prepared once more");
}
