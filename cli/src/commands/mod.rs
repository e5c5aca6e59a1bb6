//! One module per `cal` subcommand; each turns arguments into a call of a library crate.

pub mod check;
pub mod conformance;
pub mod convert;
pub mod explain;
pub mod fmt;
pub mod lsp;
pub mod mg;
pub mod repl;
pub mod run;
pub mod store;

use std::process::ExitCode;

/// Exit status: the input is fine.
pub const OK: ExitCode = ExitCode::SUCCESS;

/// Exit status 1: the input has errors (diagnostics were printed).
pub fn invalid() -> ExitCode {
    ExitCode::from(1)
}

/// Exit status 2: a usage or I/O problem; prints the message.
pub fn usage_error(message: &str) -> ExitCode {
    errln!("error: {message}");
    ExitCode::from(2)
}
