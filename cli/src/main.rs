//! `nhlab`: the command line over the nhlab core (`docs/contract.md`).
//!
//! Arguments are parsed in two layers: clap reads them (`args.rs`), each command
//! validates what it needs. Exit status: 0 success, 2 bad input (one `error: …`
//! line per problem, naming the place), 1 a failure while computing.

mod args;
mod commands;
mod input;
mod output;
mod plot;
mod scene;
mod times;

use std::process::ExitCode;

use clap::Parser;

/// What went wrong, by the exit status it maps to.
pub enum Failure {
    /// Bad file, scenario or arguments: exit 2.
    BadInput(Vec<String>),
    /// Singular matrices, non-finite values, integration failures: exit 1.
    Compute(String),
}

impl Failure {
    fn bad(message: impl Into<String>) -> Self {
        Failure::BadInput(vec![message.into()])
    }
}

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    let result = match cli.command {
        args::Command::Check(a) => commands::check::run(&a),
        args::Command::Derive(a) => commands::derive::run(&a),
        args::Command::Eval(a) => commands::eval::run(&a),
        args::Command::Run(a) => commands::run::run(&a),
        args::Command::Linearize(a) => commands::linearize::run(&a),
        args::Command::Export(a) => commands::export::run(&a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::BadInput(lines)) => {
            for line in lines {
                eprintln!("error: {line}");
            }
            ExitCode::from(2)
        }
        Err(Failure::Compute(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(1)
        }
    }
}
