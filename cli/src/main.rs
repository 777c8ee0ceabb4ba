//! `nhlab`: the command line over the nhlab core (`docs/contract.md`); the commands
//! are the library's ([`nhlab_cli::main_with`]), which the Python package runs too.

fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(nhlab_cli::main_with(std::env::args_os()))
}
