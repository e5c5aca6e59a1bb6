//! `cal prepare` and `cal execute`: two-phase execution of ADD, SUPERSEDE and
//! REVERT (§18.2) on a store database, through the service layer a server
//! uses too. `prepare` prints `{token, plan, tier, side_effects}`: the exact
//! grain that would be written, its address, the version it supersedes.
//! Nothing is written until `execute` is given that object (or its `token`).

use std::path::PathBuf;
use std::process::ExitCode;

use super::gate::{open_service, token_text};
use super::run::{SessionArgs, read_queries};

/// `cal prepare`.
#[derive(clap::Args, Debug)]
pub struct PrepareArgs {
    /// The evolve statement (text/cal or application/json+cal); or -f FILE / standard input.
    pub query: Option<String>,
    /// Read the statement from FILE; `-` for standard input.
    #[arg(short = 'f', long = "file", value_name = "FILE", conflicts_with = "query")]
    pub file: Option<PathBuf>,
    /// A Tier 1 capability token (its JSON, or `@FILE`).
    #[arg(long, value_name = "TOKEN")]
    pub token: String,
    /// The server key that signed it.
    #[arg(long, value_name = "FILE")]
    pub key: PathBuf,
    #[command(flatten)]
    /// The store database, clock and parameters.
    pub session: SessionArgs,
}

/// `cal execute`.
#[derive(clap::Args, Debug)]
pub struct ExecuteArgs {
    /// What `cal prepare` printed (or just its `token`), in FILE; `-` for standard input.
    pub prepared: PathBuf,
    /// The server key.
    #[arg(long, value_name = "FILE")]
    pub key: PathBuf,
    #[command(flatten)]
    /// The store database and clock.
    pub session: SessionArgs,
}

fn pretty(j: &serde_json::Value) -> String {
    serde_json::to_string_pretty(j).unwrap_or_default()
}

/// Runs `cal prepare`.
pub fn prepare(args: &PrepareArgs) -> ExitCode {
    let session = match super::run::Session::open(&args.session) {
        Ok(s) => s,
        Err(e) => return e.exit(),
    };
    let (name, text) = match read_queries(args.query.as_ref(), args.file.as_ref(), true) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let checked = match session.check_document(&name, &text) {
        Ok(c) => c,
        Err(code) => return code,
    };
    // A statement that does not check is refused as the server refuses it: the envelope.
    let mut units = checked.units;
    if let Some(i) = units.iter().position(|u| u.outcome.is_err()) {
        if let Err(d) = units.swap_remove(i).outcome {
            outln!("{}", super::run::refused(d).to_pretty());
        }
        return super::invalid();
    }
    let [crate::document::Unit { outcome: Ok(q), .. }] = units.as_slice() else {
        return super::usage_error("prepare takes exactly one statement");
    };
    let mut interp = session.interp.config().clone();
    interp.audit = None;
    let service = match open_service(&args.key, &args.session.stores, Some(session.opts.now_ms), interp) {
        Ok(s) => s,
        Err(e) => return e.exit(),
    };
    let token = match token_text(&args.token) {
        Ok(t) => t,
        Err(e) => return e.exit(),
    };
    match service.prepare(&token, q, &session.opts) {
        Ok(p) => {
            outln!("{}", pretty(&p.to_json()));
            super::OK
        }
        Err(refused) => {
            outln!("{}", pretty(&refused.json));
            super::invalid()
        }
    }
}

/// Runs `cal execute`.
pub fn execute(args: &ExecuteArgs) -> ExitCode {
    let session = match super::run::Session::open(&args.session) {
        Ok(s) => s,
        Err(e) => return e.exit(),
    };
    let input = match crate::input::read(Some(&args.prepared)) {
        Ok(i) => i,
        Err(e) => return super::usage_error(&e),
    };
    let text = String::from_utf8_lossy(&input.bytes).into_owned();
    // The whole §18.2 object, or only its token.
    let token = match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(serde_json::Value::Object(m)) if m.get("token").is_some_and(serde_json::Value::is_string) => {
            m["token"].as_str().unwrap_or_default().to_string()
        }
        _ => text,
    };
    let mut interp = session.interp.config().clone();
    interp.audit = None;
    let service = match open_service(&args.key, &args.session.stores, Some(session.opts.now_ms), interp) {
        Ok(s) => s,
        Err(e) => return e.exit(),
    };
    let r = service.execute(&token, &session.opts);
    outln!("{}", pretty(&r.json));
    if r.error.is_some() { super::invalid() } else { super::OK }
}
