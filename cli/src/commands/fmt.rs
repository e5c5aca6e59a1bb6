//! `cal fmt [--check] [FILE]`: print the canonical text of a `.cal` document.

use crate::{input, render};
use cal_lexer::decode_utf8;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `cal fmt`.
#[derive(clap::Args, Debug)]
pub struct FmtArgs {
    /// The `.cal` file; standard input when absent or `-`.
    pub file: Option<PathBuf>,
    /// Print nothing; exit 1 when the input is not already in canonical form.
    #[arg(long)]
    pub check: bool,
}

/// Formats, keeping every comment (`cal_parser::print::format_source`); a document with
/// syntax errors is not printed (exit 1 with diagnostics).
pub fn run(args: &FmtArgs) -> ExitCode {
    let input = match input::read(args.file.as_ref()) {
        Ok(i) => i,
        Err(e) => return super::usage_error(&e),
    };
    let text = match decode_utf8(&input.bytes) {
        Ok(t) => t,
        Err(d) => {
            render::eprint_diagnostics(&input.name, &input.bytes, &[d]);
            return super::invalid();
        }
    };
    let parsed = cal_parser::parse_document(text);
    if parsed.has_errors() {
        render::eprint_diagnostics(&input.name, text.as_bytes(), &parsed.diagnostics);
        return super::invalid();
    }
    let Some(doc) = parsed.ast else { return super::invalid() };
    let formatted = cal_parser::print::format_source(text, &doc);
    if !formatted.kept_as_written.is_empty() {
        let lines = cal_grammar::LineIndex::new(text);
        for (span, why) in &formatted.kept_as_written {
            let line = lines.position(*span).line;
            let why = match why {
                cal_parser::print::Kept::Comment => {
                    "this query has a comment inside it and is kept as written; \
                     move the comment above the query to have it formatted"
                }
                cal_parser::print::Kept::Length => {
                    "this query is kept as written: its canonical text would be longer than \
                     8,192 bytes (CAL-E001)"
                }
            };
            errln!("{}:{line}: note: {why}", input.name);
        }
    }
    let formatted = formatted.text;
    if args.check {
        if formatted == text {
            return super::OK;
        }
        errln!("{}: not in canonical form (run `cal fmt`)", input.name);
        return super::invalid();
    }
    out!("{formatted}");
    super::OK
}
