//! `cal json [FILE]` and `cal text [FILE]`: the two directions of the dual wire format (§15).

use crate::{input, render};
use cal_grammar::Diagnostic;
use cal_lexer::decode_utf8;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `cal json` and `cal text`.
#[derive(clap::Args, Debug)]
pub struct ConvertArgs {
    /// The input file; standard input when absent or `-`.
    pub file: Option<PathBuf>,
}

fn read_text(args: &ConvertArgs) -> Result<(String, String), ExitCode> {
    let input = input::read(args.file.as_ref()).map_err(|e| super::usage_error(&e))?;
    match decode_utf8(&input.bytes) {
        Ok(t) => Ok((input.name, t.to_string())),
        Err(d) => {
            render::eprint_diagnostics(&input.name, &input.bytes, &[d]);
            Err(super::invalid())
        }
    }
}

/// text/cal → application/json+cal: one object for one query, an array for several.
pub fn to_json(args: &ConvertArgs) -> ExitCode {
    let (name, text) = match read_text(args) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let parsed = cal_parser::parse_document(&text);
    if parsed.has_errors() {
        render::eprint_diagnostics(&name, text.as_bytes(), &parsed.diagnostics);
        return super::invalid();
    }
    let Some(doc) = parsed.ast else { return super::invalid() };
    let value = cal_parser::json::document_to_json(&doc);
    match serde_json::to_string_pretty(&value) {
        Ok(s) => {
            outln!("{s}");
            super::OK
        }
        Err(e) => super::usage_error(&e.to_string()),
    }
}

/// application/json+cal → text/cal, after validating the JSON against the schema.
pub fn to_text(args: &ConvertArgs) -> ExitCode {
    let (name, text) = match read_text(args) {
        Ok(x) => x,
        Err(code) => return code,
    };
    // Read twice rather than held (issue 19): once to know the document is valid, then
    // again printing each query as it is built, as `document_to_text` joins them.
    let limits = cal_parser::json::ReadLimits::default();
    let checked = cal_parser::json::read_each(&text, &limits, &mut drop).map_err(|e| match e {
        cal_parser::json::ReadError::Refused(d) => d,
        cal_parser::json::ReadError::TooManyQueries(_) => Vec::new(), // no cap on the count here
    });
    match checked {
        Ok(_) => {
            let mut first = true;
            let _ = cal_parser::json::read_each(&text, &limits, &mut |q| {
                let sep = if first { "" } else { ";\n\n" };
                first = false;
                out!("{sep}{}", cal_parser::print::query_to_text(&q));
            });
            if !first {
                outln!();
            }
            super::OK
        }
        Err(diagnostics) => {
            report_json_errors(&name, &text, &diagnostics);
            super::invalid()
        }
    }
}

fn report_json_errors(name: &str, text: &str, diagnostics: &[Diagnostic]) {
    // JSON diagnostics point at JSON pointers, not byte spans of a CAL text: print them plainly.
    for d in diagnostics {
        if d.span.is_empty() {
            errln!("error[{}]: {name}: {}", d.code, d.message);
            if let Some(s) = &d.suggestion {
                errln!("  help: {s}");
            }
        } else {
            render::eprint_diagnostics(name, text.as_bytes(), std::slice::from_ref(d));
        }
    }
}
