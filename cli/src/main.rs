//! `nhlab`: the command line over the nhlab core (see `shared/spec/cli.md`).
//!
//! Only `--version` and `--help` exist so far; `check`, `derive`, `eval` and `run`
//! arrive with the mechanics layer.

use std::process::ExitCode;

const USAGE: &str = "usage: nhlab <check|derive|eval|run> FILE [options]\n       nhlab --version";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("--version" | "-V") => {
            println!("nhlab {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Some("--help" | "-h") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some(cmd @ ("check" | "derive" | "eval" | "run")) => {
            eprintln!("error: `nhlab {cmd}` is not implemented yet in this version");
            ExitCode::from(1)
        }
        Some(other) => {
            eprintln!("error: unknown command `{other}`\n{USAGE}");
            ExitCode::from(2)
        }
        None => {
            eprintln!("error: no command given\n{USAGE}");
            ExitCode::from(2)
        }
    }
}
