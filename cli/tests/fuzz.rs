//! The command line under generated input (issue 9): mutated gallery scenarios
//! through `check`, `derive`, `eval` and a bounded `run`, each in its own process
//! under a 2 GB address-space limit and a time bound. Every exit must be 0, 1 or 2
//! (a panic is 101, an abort from exhausted memory 134), with no panic message.
//! The in-process suite with a million inputs is `tests/fuzz`.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use nhlab_tests::mutate::{mutate_bytes, mutate_scenario, mutate_values};
use nhlab_tests::random::Rng;

const CASES: u64 = 150;
const BOUND: Duration = Duration::from_secs(30);

fn run(args: &[&str], input: &str) -> (i32, String, Duration) {
    let started = Instant::now();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 2000000; exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_nhlab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).ok();
    let out = child.wait_with_output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).into_owned(), started.elapsed())
}

#[test]
fn generated_scenarios_exit_0_1_or_2_within_bounds() {
    let dir = format!("{}/../scenarios", env!("CARGO_MANIFEST_DIR"));
    let mut gallery: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    gallery.sort();
    let mut statuses = [0usize; 3];
    for case in 0..CASES {
        let mut r = Rng::new(0xc11f ^ case.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let text = &gallery[r.below(gallery.len())];
        let input = match r.below(3) {
            0 => mutate_bytes(&mut r, text),
            1 => mutate_scenario(&mut r, text),
            _ => mutate_values(&mut r, text),
        };
        let method = ["lagrange", "udwadia-kalaba", "gauss", "voronets", "hamel", "euler", "vakonomic"][r.below(7)];
        // Every integrator; the structure-preserving ones (Newton in each step) for
        // fewer steps.
        let (integrator, steps) =
            [("dopri5", "2000"), ("rk4", "2000"), ("rattle", "200"), ("rattle4", "100")][r.below(4)];
        for args in [
            vec!["check", "-"],
            vec!["derive", "-", "--method", method, "--format", "mathml"],
            vec!["eval", "-", "--method", method],
            vec![
                "run",
                "-",
                "--method",
                method,
                "--integrator",
                integrator,
                "--max-steps",
                steps,
                "--out",
                "/dev/null",
            ],
        ] {
            let (code, err, took) = run(&args, &input);
            assert!(
                (0..=2).contains(&code) && !err.contains("panicked"),
                "case {case}, `nhlab {}` exited {code}: {err}\ninput:\n{input}",
                args.join(" ")
            );
            assert!(took < BOUND, "case {case}, `nhlab {}` took {took:?}", args.join(" "));
            statuses[code as usize] += 1;
        }
    }
    // Both outcomes are exercised: the inputs are not all refused.
    assert!(statuses[0] > CASES as usize && statuses[2] > 10, "exit statuses 0/1/2: {statuses:?}");
}
