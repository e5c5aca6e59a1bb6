//! `cal explain [QUERY | -f FILE] [--format json|text]`: the plan of each query
//! (§8.5) — desugared shortcuts, store operations with their bounds (§13), the
//! limit applied, the work bound — without running anything. ADD, SUPERSEDE
//! and REVERT are shown as dry runs naming their side effects.

use std::path::PathBuf;
use std::process::ExitCode;

use super::run::{OutputFormat, Printer, Session, SessionArgs, read_queries, refused};

/// Arguments of `cal explain`.
#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    /// The query, as text/cal or application/json+cal. Without it, queries are read from -f FILE or standard input.
    pub query: Option<String>,
    /// Read the queries (separated by `;`) from FILE; `-` for standard input.
    #[arg(short = 'f', long = "file", value_name = "FILE", conflicts_with = "query")]
    pub file: Option<PathBuf>,
    /// Output format: the EXPLAIN response (json) or an indented outline (text).
    #[arg(long, value_enum, default_value_t = OutputFormat::Json)]
    pub format: OutputFormat,
    #[command(flatten)]
    /// Memory (its size bounds the work), clock, user and parameters.
    pub session: SessionArgs,
}

/// Runs `cal explain`. A query with a static error is answered by its refusal (the error
/// envelope in JSON; its code frame alone in text), and the others are still explained.
pub fn run(args: &ExplainArgs) -> ExitCode {
    let session = match Session::open(&args.session) {
        Ok(s) => s,
        Err(e) => return e.exit(),
    };
    let json = args.format == OutputFormat::Json;
    let (name, text) = match read_queries(args.query.as_ref(), args.file.as_ref(), json) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let checked = match session.check_document(&name, &text) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let mut printer = Printer::new(&name, &text, OutputFormat::Json, checked.units.len() > 1);
    let mut failed = false;
    for unit in checked.units {
        match (unit.outcome, args.format) {
            (Ok(q), OutputFormat::Json) => printer.write(&session.interp.explain(&q, &session.opts), true),
            (Ok(q), OutputFormat::Text) => out!("{}", session.interp.plan(&q, &session.opts).to_text()),
            (Err(d), OutputFormat::Json) => printer.write(&refused(d), false),
            (Err(_), OutputFormat::Text) => failed = true,
        }
    }
    failed |= printer.finish();
    if failed { super::invalid() } else { super::OK }
}
