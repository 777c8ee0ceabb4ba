//! `nhlab run --cases`: an ensemble's rows against `nhlab run` of each case on its
//! own, the first slip against the contact forces the run writes, the same rows on
//! any number of threads, and bad cases files refused at their places.

use super::{nhlab, nhlab_ok, scenario, scratch};

/// A file in the system's temporary folder with `text`, named after `name`.
fn file(name: &str, text: &str) -> String {
    let path = scratch("ensemble").join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// The rows of a CSV table: its header's names and each row's cells.
fn table(csv: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut lines = csv.lines();
    let names = lines.next().unwrap().split(',').map(str::to_string).collect();
    (names, lines.map(|l| l.split(',').map(str::to_string).collect()).collect())
}

#[test]
fn each_case_ends_where_nhlab_run_of_that_case_ends_bit_for_bit() {
    let disk = std::fs::read_to_string(scenario("rolling-disk")).unwrap();
    // Parameters, an initial coordinate and a speed; empty cells keep the scenario's.
    let cases = file("disk.csv", "r,m,theta,psi',theta',phi'\n0.5,,0.2,,,\n,2,,0,0,5\n0.3,1,,,,\n");
    let out = nhlab_ok(&["run", &scenario("rolling-disk"), "--cases", &cases, "--method", "lagrange"]);
    let (names, rows) = table(&out);
    assert_eq!(&names[..8], ["case", "r", "m", "theta", "psi'", "theta'", "phi'", "ended"]);
    assert_eq!(rows.len(), 3);
    let edits: [&[(&str, &str)]; 3] = [
        &[("r = 0.3", "r = 0.5"), ("theta = 0.05,", "theta = 0.2,")],
        &[("m = 1.0", "m = 2"), ("phi = 6 }", "phi = 5 }")],
        &[],
    ];
    for (row, edit) in rows.iter().zip(edits) {
        let mut text = disk.clone();
        for (from, to) in edit {
            assert!(text.contains(from), "the disk's scenario has `{from}`");
            text = text.replacen(from, to, 1);
        }
        let path = file(&format!("case{}.toml", row[0]), &text);
        let (code, single, err) = nhlab(&["run", &path, "--method", "lagrange", "--columns", "state"]);
        assert_eq!(code, 0, "{err}");
        let last: Vec<String> = single.lines().last().unwrap().split(',').map(str::to_string).collect();
        assert_eq!(row[7], "t_end");
        // t, the coordinates and the speeds: the run's last row, value for value.
        let ours: Vec<f64> = row[8..8 + last.len() - 1].iter().map(|x| x.parse().unwrap()).collect();
        let theirs: Vec<f64> = last[1..].iter().map(|x| x.parse().unwrap()).collect();
        assert_eq!(
            ours.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            theirs.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            "case {}",
            row[0]
        );
    }
}

#[test]
fn the_rows_are_the_same_on_one_thread_and_on_two() {
    let cases = file(
        "threads.csv",
        &(0..9).fold("r,theta\n".to_string(), |s, k| s + &format!("{},{}\n", 0.2 + 0.05 * k as f64, 0.05 * k as f64)),
    );
    let on = |threads: &str| {
        nhlab(&["run", &scenario("rolling-disk"), "--cases", &cases, "--threads", threads, "--t-end", "2"])
    };
    let (one, two) = (on("1"), on("2"));
    assert_eq!(one.0, 0, "{}", one.2);
    assert_eq!(one.1, two.1);
    assert_eq!(one.1.lines().count(), 10);
}

#[test]
fn the_first_slip_lies_where_the_contact_forces_first_exceed_friction() {
    let cases = file("coin.csv", "mu\n0.05\n0.2\n0.4\n");
    let out = nhlab_ok(&["run", &scenario("coin-slipping"), "--cases", &cases, "--method", "lagrange"]);
    let (names, rows) = table(&out);
    let slip = names.iter().position(|n| n.starts_with("slip_")).expect("a slip column");
    let mut times = Vec::new();
    for row in &rows {
        let mu: f64 = row[1].parse().unwrap();
        let at: f64 = row[slip].parse().expect("each of these coins slips");
        // The run's own table: the last sample before the slip holds |F_t| <= μ N, the
        // first after it does not.
        let text = std::fs::read_to_string(scenario("coin-slipping")).unwrap();
        assert!(text.contains("mu = { value = 0.4,"));
        let path = file(
            &format!("coin-{mu}.toml"),
            &text.replacen("mu = { value = 0.4,", &format!("mu = {{ value = {mu},"), 1),
        );
        let (code, run, err) = nhlab(&["run", &path, "--method", "lagrange", "--columns", "contacts"]);
        assert_eq!(code, 0, "{err}");
        let (columns, samples) = table(&run);
        let col = |prefix: &str| columns.iter().position(|c| c.starts_with(prefix)).unwrap();
        let (t, n, ft) = (col("t"), col("N_"), col("Ft_"));
        let exceeds = |s: &Vec<String>| s[ft].parse::<f64>().unwrap().abs() > mu * s[n].parse::<f64>().unwrap();
        let first = samples.iter().position(exceeds).expect("the forces exceed friction somewhere");
        let (before, after): (f64, f64) = (samples[first - 1][t].parse().unwrap(), samples[first][t].parse().unwrap());
        assert!(before <= at && at <= after, "μ = {mu}: the slip at {at} lies in the step [{before}, {after}]");
        times.push(at);
    }
    // Less friction, an earlier slip.
    assert!(times[0] < times[1] && times[1] < times[2], "{times:?}");
}

#[test]
fn bad_cases_are_refused_at_their_place() {
    let refused = |cases: &str, extra: &[&str], says: &str| {
        let (path, disk) = (file("bad.csv", cases), scenario("rolling-disk"));
        let mut args = vec!["run", disk.as_str(), "--cases", path.as_str()];
        args.extend_from_slice(extra);
        let (code, out, err) = nhlab(&args);
        assert_eq!(code, 2, "{cases:?}: {err}");
        assert!(out.is_empty());
        assert!(err.contains(says), "{cases:?}: expected `{says}` in {err}");
    };
    refused("r,mass\n1,2\n", &[], ":1:3: `mass` is not a parameter, a coordinate or a speed");
    refused("r\n0.3\nabc\n", &[], ":3:1: r: `abc` is not a finite number");
    refused("r,m\n0.3,1\n0.3\n", &[], ":3:1: 1 values for 2 names");
    refused("r,r\n1,1\n", &[], "`r` is named twice");
    refused("r\ninf\n", &[], "is not a finite number");
    refused("", &[], "the file is empty");
    refused("r\n0.3\n", &["--plot", "x.png"], "--cases: --plot and --scene does not apply");
    refused("r\n0.3\n", &["--method", "lagrange", "--method", "gauss"], "one method under one integrator");
    refused("r\n0.3\n", &["--threads", "0"], "--threads: must be at least 1");
    // A file past the size bound is refused before it is read whole (a sparse file).
    let huge = scratch("ensemble").join("huge.csv");
    std::fs::File::create(&huge).unwrap().set_len(64 * 1024 * 1024 + 1).unwrap();
    let (code, _, err) = nhlab(&["run", &scenario("rolling-disk"), "--cases", huge.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(err.contains("larger than 64 MiB"), "{err}");
    std::fs::remove_file(&huge).unwrap();
}
