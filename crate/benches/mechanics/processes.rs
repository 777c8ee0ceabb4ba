//! What a user waits for at the command line: whole `nhlab` processes.

use super::*;

/// What a user waits for at the command line: whole `nhlab` processes on the largest
/// members of the two families (best of three), against the in-process derive for
/// `lagrange` measured here (the baseline). Goals: every command ≤ 0.3 s where it
/// prints no E-vector, ≤ 0.6 s where it does (`eval`, and `run` with its default
/// columns). Needs the release command line (`cargo build --release -p nhlab-cli`,
/// as the test command builds it before the benchmarks).
pub(super) fn whole_processes(quick: bool) {
    println!("== 4b. whole processes of the command line (best of 3)");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let cli = root.join("target/release/nhlab");
    if !cli.exists() {
        println!("skipped: no {} (cargo build --release -p nhlab-cli)", cli.display());
        return;
    }
    let dir = std::env::temp_dir().join(format!("nhlab-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let (pendulum, trailers) = if quick { (8, 8) } else { (32, 35) };
    let lagrange = Needs::for_methods(&[Method::Lagrange], false);
    for (name, text) in [
        (format!("pendulum N={pendulum}"), families::pendulum(pendulum)),
        (format!("trailers n={trailers}"), families::trailers(trailers)),
    ] {
        let file = dir.join("model.toml");
        std::fs::write(&file, &text).expect("writes");
        let (baseline, _) = derive_timed(&text, lagrange, 3);
        let file = file.to_str().expect("a path");
        let commands: [(&str, &[&str], f64); 5] = [
            ("check", &["check", file], 0.3),
            ("derive --method lagrange", &["derive", file, "--method", "lagrange"], 0.3),
            ("eval --method lagrange (prints E)", &["eval", file, "--method", "lagrange"], 0.6),
            (
                "run --t-end 0.01 (E in its columns)",
                &["run", file, "--method", "lagrange", "--t-end", "0.01", "--out", "/dev/null"],
                0.6,
            ),
            (
                "run --t-end 0.01 --columns state",
                &["run", file, "--method", "lagrange", "--t-end", "0.01", "--out", "/dev/null", "--columns", "state"],
                0.3,
            ),
        ];
        for (what, args, goal) in commands {
            let seconds = best(3, &mut || {
                let status = std::process::Command::new(&cli)
                    .args(args)
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::null())
                    .status()
                    .expect("nhlab runs");
                assert!(status.success(), "{name}: nhlab {what} failed");
            });
            println!(
                "{name}: nhlab {what}: {:.3} s, {:.1}x the in-process derive ({:.1} ms); goal <= {goal} s",
                seconds,
                seconds / baseline,
                baseline * 1e3
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
