//! `cal check [--fix] [--output-format text|json|github|sarif] [--param k=v …] [PATH …]`:
//! every lexical, syntax and semantic diagnostic of `.cal` documents. PATHs are files,
//! directories and globs (`crate::files`); standard input when none.

use crate::files::{self, Source};
use crate::{render, report};
use cal_grammar::Diagnostic;
use cal_lexer::decode_utf8;
use std::path::PathBuf;
use std::process::ExitCode;

/// How `cal check` reports.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ReportFormat {
    /// Code frames on standard error.
    #[default]
    Text,
    /// `{"ok": …, "diagnostics": [ §22.1 error objects with "file", end positions and "fixes" ]}`.
    Json,
    /// GitHub Actions workflow commands (`::error file=…,line=…::…`), one line each.
    Github,
    /// SARIF 2.1.0, for code-scanning tools.
    Sarif,
}

/// Arguments of `cal check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// `.cal` files (queries separated by `;`), directories (every `*.cal` below) or glob
    /// patterns; standard input when absent or `-`.
    pub paths: Vec<PathBuf>,
    /// Same as `--output-format json`.
    #[arg(long, conflicts_with = "output_format")]
    pub json: bool,
    /// How to report: code frames (text), JSON, GitHub annotations or SARIF, on standard
    /// output (text goes to standard error).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub output_format: Option<ReportFormat>,
    /// Apply the quick fixes the language server offers as preferred (each diagnostic's
    /// machine-applicable replacement), rewriting each file atomically, then report what is left.
    #[arg(long)]
    pub fix: bool,
    /// Bind a parameter: `--param name=VALUE`, VALUE as JSON (bare words are strings).
    /// With bindings, an unbound `$name` is CAL-E008 and a repeated name CAL-E009.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
}

/// One input's diagnostics.
pub struct Checked {
    /// The name shown (`<stdin>` or the path).
    pub name: String,
    /// The text as read, bytes.
    pub bytes: Vec<u8>,
    /// Its diagnostics.
    pub diagnostics: Vec<Diagnostic>,
}

/// Runs the check; exit 0 when there are no errors (warnings allowed), 1 otherwise.
pub fn run(args: &CheckArgs) -> ExitCode {
    let format = if args.json { ReportFormat::Json } else { args.output_format.unwrap_or_default() };
    let sources = match files::expand(&args.paths) {
        Ok(s) => s,
        Err(e) => return super::usage_error(&e),
    };
    if args.fix && sources.contains(&Source::Stdin) {
        return super::usage_error("--fix rewrites files in place; standard input has no file to write");
    }
    let params = if args.params.is_empty() {
        None
    } else {
        match cal_checker::Params::from_args(&args.params) {
            Ok(p) => Some(p),
            Err(e) => return super::usage_error(&e.to_string()),
        }
    };
    let mut checked = Vec::with_capacity(sources.len());
    let mut fixed = 0usize;
    for source in &sources {
        let input = match files::read(source) {
            Ok(i) => i,
            Err(e) => return super::usage_error(&e),
        };
        let mut bytes = input.bytes;
        if let (true, Source::File(path), Ok(text)) = (args.fix, source, std::str::from_utf8(&bytes)) {
            let (new, applied) = super::fix::fix_all(text, params.as_ref());
            if applied > 0 {
                if let Err(e) = super::write_file(path, new.as_bytes()) {
                    return super::usage_error(&e);
                }
                fixed += applied;
                bytes = new.into_bytes();
            }
        }
        let diagnostics = match decode_utf8(&bytes) {
            // Each stretch's trees are dropped once checked: memory is bounded by a stretch
            // and the diagnostic cap, not by the document (issue 19).
            Ok(text) => cal_checker::analyze_each(text, params.as_ref(), drop),
            Err(d) => vec![d],
        };
        checked.push(Checked { name: input.name, bytes, diagnostics });
    }
    if args.fix {
        errln!("{fixed} fix{} applied", if fixed == 1 { "" } else { "es" });
    }
    let failed = checked.iter().any(|c| c.diagnostics.iter().any(Diagnostic::is_error));
    match format {
        ReportFormat::Json => outln!("{}", report::json(&checked)),
        ReportFormat::Github => out!("{}", report::github(&checked)),
        ReportFormat::Sarif => outln!("{:#}", report::sarif(&checked)),
        ReportFormat::Text => {
            for c in &checked {
                render::eprint_diagnostics(&c.name, &c.bytes, &c.diagnostics);
                if !c.diagnostics.iter().any(Diagnostic::is_error) {
                    errln!("{}: ok", c.name);
                }
            }
        }
    }
    if failed { super::invalid() } else { super::OK }
}
