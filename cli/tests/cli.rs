//! The command line's contract so far: version, help, and exit status 2 with a
//! one-line `error:` for bad arguments.

use std::process::Command;

fn nhlab(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_nhlab")).args(args).output().expect("nhlab runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn version_and_help() {
    let (code, out, _) = nhlab(&["--version"]);
    assert_eq!((code, out.trim()), (0, concat!("nhlab ", env!("CARGO_PKG_VERSION"))));
    let (code, out, _) = nhlab(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("usage: nhlab"));
}

#[test]
fn bad_arguments_exit_2_with_an_error_line() {
    let (code, _, err) = nhlab(&["frobnicate"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: unknown command `frobnicate`"), "{err}");
    let (code, _, err) = nhlab(&[]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: no command given"), "{err}");
}
