//! The command line's contract (`docs/contract.md`): outputs, formats and exit
//! statuses — 0 success, 2 bad input with `error:` lines naming the place, 1 a
//! failure while computing.

use std::io::Write;
use std::process::{Command, Stdio};

mod commands;
mod edges;
mod ensembles;
mod language;
mod linearize;
mod runs;

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

/// Runs `nhlab` with `args`, holds that it succeeded (its standard error is the
/// failure's message) and returns its standard output.
#[track_caller]
fn nhlab_ok(args: &[&str]) -> String {
    let (code, out, err) = nhlab(args);
    assert_eq!(code, 0, "nhlab {}: {err}", args.join(" "));
    out
}

/// [`nhlab_ok`]'s standard output read as JSON (a failure shows the text).
#[track_caller]
fn nhlab_json(args: &[&str]) -> serde_json::Value {
    let out = nhlab_ok(args);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("nhlab {}: {e} in\n{out}", args.join(" ")))
}

/// A folder of this test process's own for the files a test writes:
/// `nhlab-cli-{name}-{pid}` in the system's temporary folder.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("nhlab-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
