//! `cal explain [QUERY | -f FILE] [--format json|text]`: the plan of each query
//! (§8.5) — desugared shortcuts, store operations with their bounds (§13), the
//! limit applied, the work bound — without running anything. ADD, SUPERSEDE
//! and REVERT are shown as dry runs naming their side effects.

use std::path::PathBuf;
use std::process::ExitCode;

use super::run::{OutputFormat, Session, SessionArgs, read_queries};

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

/// Runs `cal explain`.
pub fn run(args: &ExplainArgs) -> ExitCode {
    let session = match Session::open(&args.session) {
        Ok(s) => s,
        Err(e) => return e.report(),
    };
    let (name, text) = match read_queries(args.query.as_ref(), args.file.as_ref()) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let Some(document) = session.check(&name, &text) else { return super::invalid() };
    match args.format {
        OutputFormat::Json => {
            let responses: Vec<_> = document.queries.iter().map(|q| session.interp.explain(q, &session.opts)).collect();
            super::run::print(&name, &text, &responses, OutputFormat::Json);
        }
        OutputFormat::Text => {
            for q in &document.queries {
                out!("{}", session.interp.plan(q, &session.opts).to_text());
            }
        }
    }
    super::OK
}
