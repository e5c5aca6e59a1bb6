//! `cal fmt [--write | --check | --diff] [PATH …]`: the canonical text of `.cal` documents.
//! PATHs are files, directories and globs (`crate::files`); standard input when none.

use crate::files::{self, Source};
use crate::render;
use cal_grammar::Diagnostic;
use cal_lexer::decode_utf8;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `cal fmt`.
#[derive(clap::Args, Debug)]
pub struct FmtArgs {
    /// `.cal` files, directories (every `*.cal` below) or glob patterns; standard input when
    /// absent or `-`. Without --write, --check or --diff, one input is printed formatted.
    pub paths: Vec<PathBuf>,
    /// Print nothing; exit 1 when an input is not already in canonical form (each is named).
    #[arg(long, conflicts_with_all = ["write", "diff"])]
    pub check: bool,
    /// Rewrite each file that is not canonical in place (atomically: an interrupted write
    /// leaves the old file as it was).
    #[arg(long, conflicts_with = "diff")]
    pub write: bool,
    /// Print a unified diff of what formatting would change; exit 1 when there is one.
    #[arg(long)]
    pub diff: bool,
}

/// What formatting one input came to.
enum Outcome {
    /// Already canonical.
    Same,
    /// The canonical text differs.
    Changed(String),
    /// It has errors (shown); nothing is formatted.
    Invalid,
}

/// Formats, keeping every comment (`cal_parser::print::format_source`); a document with
/// syntax errors is not printed (exit 1 with diagnostics).
pub fn run(args: &FmtArgs) -> ExitCode {
    let sources = match files::expand(&args.paths) {
        Ok(s) => s,
        Err(e) => return super::usage_error(&e),
    };
    let print = !(args.check || args.write || args.diff);
    if print && sources.len() > 1 {
        return super::usage_error("several inputs: pass --write to format them in place, --check or --diff");
    }
    if args.write && sources.contains(&Source::Stdin) {
        return super::usage_error("--write formats files in place; standard input has no file to write");
    }
    let (mut invalid, mut differ, mut written) = (false, 0usize, 0usize);
    for source in &sources {
        let input = match files::read(source) {
            Ok(i) => i,
            Err(e) => return super::usage_error(&e),
        };
        let text = decode_utf8(&input.bytes).ok();
        match (format(&input), text) {
            (Outcome::Invalid, _) | (_, None) => invalid = true,
            (Outcome::Same, Some(text)) if print => out!("{text}"),
            (Outcome::Same, _) => {}
            (Outcome::Changed(new), Some(old)) => {
                differ += 1;
                if print {
                    out!("{new}");
                } else if args.check {
                    errln!("{}: not in canonical form (run `cal fmt --write`)", input.name);
                } else if args.diff {
                    out!("{}", diff(&input.name, old, &new));
                } else if let Source::File(path) = source {
                    if let Err(e) = super::write_file(path, new.as_bytes()) {
                        return super::usage_error(&e);
                    }
                    written += 1;
                }
            }
        }
    }
    if args.write {
        errln!("{written} file{} reformatted, {} left unchanged", plural(written), sources.len() - written);
    }
    if invalid || (differ > 0 && (args.check || args.diff)) { super::invalid() } else { super::OK }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// A unified diff of `old` → `new`, headed with the file's name.
fn diff(name: &str, old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new).unified_diff().context_radius(3).header(name, name).to_string()
}

/// The canonical text of one input, notes about queries kept as written on standard error.
fn format(input: &crate::input::Input) -> Outcome {
    let text = match decode_utf8(&input.bytes) {
        Ok(t) => t,
        Err(d) => {
            render::eprint_diagnostics(&input.name, &input.bytes, &[d]);
            return Outcome::Invalid;
        }
    };
    // Read twice, a stretch at a time, holding no more than a stretch's trees (issue 19):
    // once for the diagnostics, once to format.
    let diagnostics = cal_parser::document_diagnostics(text);
    if diagnostics.iter().any(Diagnostic::is_error) {
        render::eprint_diagnostics(&input.name, text.as_bytes(), &diagnostics);
        return Outcome::Invalid;
    }
    let formatted = cal_parser::print::format_in_stretches(text, cal_parser::print::FORMAT_STRETCH_TOKENS);
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
    if formatted.text == text { Outcome::Same } else { Outcome::Changed(formatted.text) }
}
