//! `cal check [--json] [--param k=v …] [FILE]`: every lexical, syntax and semantic diagnostic of a `.cal` document.

use crate::{input, render};
use cal_lexer::decode_utf8;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `cal check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The `.cal` file (queries separated by `;`); standard input when absent or `-`.
    pub file: Option<PathBuf>,
    /// Print `{"ok": …, "diagnostics": […]}` instead of code frames.
    #[arg(long)]
    pub json: bool,
    /// Bind a parameter: `--param name=VALUE`, VALUE as JSON (bare words are strings).
    /// With bindings, an unbound `$name` is CAL-E008 and a repeated name CAL-E009.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
}

/// Runs the check; exit 0 when there are no errors (warnings allowed), 1 otherwise.
pub fn run(args: &CheckArgs) -> ExitCode {
    let input = match input::read(args.file.as_ref()) {
        Ok(i) => i,
        Err(e) => return super::usage_error(&e),
    };
    let params = if args.params.is_empty() {
        None
    } else {
        match cal_checker::Params::from_args(&args.params) {
            Ok(p) => Some(p),
            Err(e) => return super::usage_error(&e.to_string()),
        }
    };
    let diagnostics = match decode_utf8(&input.bytes) {
        Ok(text) => cal_checker::analyze(text, params.as_ref()).diagnostics,
        Err(d) => vec![d],
    };
    let failed = diagnostics.iter().any(cal_grammar::Diagnostic::is_error);
    if args.json {
        outln!("{}", render::json_report(&input.bytes, &diagnostics));
    } else {
        render::eprint_diagnostics(&input.name, &input.bytes, &diagnostics);
        if !failed {
            errln!("{}: ok", input.name);
        }
    }
    if failed { super::invalid() } else { super::OK }
}
