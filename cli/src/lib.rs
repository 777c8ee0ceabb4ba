//! The nhlab command line over the nhlab core (`docs/contract.md`), as a library:
//! the `nhlab` binary is [`main_with`] on the process's arguments, and the Python
//! package runs the same commands in process ([`run_captured`]), their standard
//! output and notes captured, so that its numbers are the command line's own.
//!
//! Arguments are parsed in two layers: clap reads them (`args.rs`), each command
//! validates what it needs. `--language zh` says a scenario's problems and the
//! core's notes in Chinese (`nhlab_texts::i18n`). Exit status: 0 success, 2 bad input (one `error: …`
//! line per problem, naming the place), 1 a failure while computing.

mod args;
mod commands;
mod input;
pub mod map;
pub mod output;
mod parallel;
mod plot;
mod scene;
mod times;

use std::ffi::OsString;

use clap::Parser;

pub use commands::prepared_map::preparations as map_preparations;
pub use output::Captured;

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

/// Runs the command line on `args` (the program's name first), writing to standard
/// output and standard error (or to the capture of [`run_captured`]); the exit status.
pub fn main_with(args: impl IntoIterator<Item = OsString>) -> u8 {
    let cli = match args::Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let text = e.render().to_string();
            if e.use_stderr() {
                output::say_raw(&text);
            } else if output::emit(&text).is_err() {
                return 1;
            }
            return u8::try_from(e.exit_code()).unwrap_or(2);
        }
    };
    // This thread's language (a thread of the Python package runs many commands).
    nhlab_texts::i18n::set(cli.language.unwrap_or(nhlab_texts::i18n::Language::En));
    let result = match cli.command {
        args::Command::Check(a) => commands::check::run(&a),
        args::Command::Derive(a) => commands::derive::run(&a),
        args::Command::Eval(a) => commands::eval::run(&a),
        args::Command::Run(a) => commands::run::run(&a),
        args::Command::Linearize(a) => commands::linearize::run(&a),
        args::Command::Export(a) => commands::export::run(&a),
    };
    match result {
        Ok(()) => 0,
        Err(Failure::BadInput(lines)) => {
            for line in lines {
                say!("error: {line}");
            }
            2
        }
        Err(Failure::Compute(message)) => {
            say!("error: {message}");
            1
        }
    }
}

/// Runs the command line on `args` (without the program's name) in this thread,
/// `stdin` standing for standard input, and returns its exit status with what it
/// wrote to standard output and standard error. Files given with `--out` and the
/// like are written as by the binary.
pub fn run_captured(args: &[String], stdin: Option<String>) -> Captured {
    output::capturing(stdin, || {
        main_with(std::iter::once(OsString::from("nhlab")).chain(args.iter().map(OsString::from)))
    })
}
