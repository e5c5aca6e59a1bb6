//! `cal run [--store FILE.mg …] [--now RFC3339] [--user ID] [--namespace NS]
//! [--param k=v …] [--format json|text] [QUERY | -f FILE]`: parse, check, plan
//! and execute queries against a memory — the built-in demo memory when no
//! `--store` is given — and print each response (§14.1 envelope).
//!
//! `--stream` prints each ASSEMBLE's events as NDJSON instead (§11.3's fallback binding; see
//! docs/streaming.md).
//!
//! Every outcome is JSON on standard output: a query that does not parse or check is
//! answered by its refusal envelope in its place, and the document's other queries still
//! run (docs/spec-decisions-cli.md, L1–L3); each response is written as it completes.
//!
//! Exit status: 0 when every query ran, 1 when the input has errors (also shown
//! as `cal check` shows them), a `--store` file is invalid (corrupt, or a
//! manifest claim that fails its check) or a query failed at run time, 2 for
//! usage or I/O problems. [`Session`] is shared with `cal explain` and `cal repl`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use cal_checker::Params;
use cal_grammar::Diagnostic;
use cal_interp::stream::{CancelToken, Control, Event};
use cal_interp::{
    DurableFacade, ExecOptions, InterpConfig, Interpreter, JsonLinesAudit, OmsFacade, ReadFacade, Response, Timing,
    demo,
};
use cal_parser::ast::{Document, QueryBody, Statement};
use oms::durable::{self, DurableStore, OpenOptions};
use oms::store::{SaveOptions, Store, StoreConfig};
use std::io::Write;

use crate::document::{self, Checked};
use crate::{input, render};

/// How responses are printed.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OutputFormat {
    /// The JSON envelope, pretty-printed (one object per query; an array for several).
    #[default]
    Json,
    /// A compact view for reading at a terminal.
    Text,
}

/// Options shared by `cal run`, `cal explain` and `cal repl`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct SessionArgs {
    /// The memory to query: a `.mg` file or a store database (`cal store init`), opened
    /// read-only; repeat to merge several (they are then merged in memory). The built-in demo
    /// memory when absent.
    #[arg(long = "store", value_name = "PATH")]
    pub stores: Vec<PathBuf>,
    /// The clock: "now" for time expressions such as "last 7 days" (RFC 3339). Defaults to the
    /// demo memory's now (2026-03-06T12:00:00Z) for the demo, else the system time.
    #[arg(long, value_name = "RFC3339")]
    pub now: Option<String>,
    /// The user on whose behalf queries run (`MY`, `$current_user_id`).
    #[arg(long, value_name = "ID")]
    pub user: Option<String>,
    /// Confine every query to this namespace, as a capability token would (§18.3).
    #[arg(long, value_name = "NS")]
    pub namespace: Option<String>,
    /// Bind a parameter: `--param limit=5`, `--param name='"alice"'` (JSON values; other text is a string).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// Report `duration_ms` as 0, so that repeated runs print identical bytes (§17.4).
    #[arg(long)]
    pub no_timing: bool,
    /// Append one audit entry per query (§21) to FILE as JSON lines; user ids are pseudonymized
    /// with HMAC-SHA256 under the key in the environment variable CAL_AUDIT_KEY.
    #[arg(long, value_name = "FILE")]
    pub audit: Option<PathBuf>,
    /// The agent that generated the queries, recorded in audit entries.
    #[arg(long, value_name = "ID")]
    pub agent: Option<String>,
    /// Auto-TOON (§10.9.5): an ASSEMBLE with BUDGET but no FORMAT whose estimate exceeds 85% of
    /// the budget is rendered as TOON, with warning CAL-W005.
    #[arg(long)]
    pub auto_toon: bool,
    #[command(flatten)]
    /// Semantic search for `.mg` stores and the demo memory.
    pub embed: super::embedder::SessionEmbedder,
}

/// Arguments of `cal run`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The query, as text/cal or application/json+cal. Without it, queries are read from -f FILE or standard input.
    pub query: Option<String>,
    /// Read the queries (separated by `;`) from FILE; `-` for standard input.
    #[arg(short = 'f', long = "file", value_name = "FILE", conflicts_with = "query")]
    pub file: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Json)]
    pub format: OutputFormat,
    /// The `next_cursor` of a previous response to the same query: print the next page.
    #[arg(long, value_name = "CURSOR")]
    pub cursor: Option<String>,
    /// Stream: print each ASSEMBLE's events (§11) as NDJSON, one JSON object per line, as they
    /// happen, filtered by its STREAM clause (all events without one). Other queries print
    /// their response as one line. Closing the output cancels the assembly.
    #[arg(long, conflicts_with = "format")]
    pub stream: bool,
    /// A capability token (§18.1; its JSON, or `@FILE`): every query is authorized by it, runs in
    /// its namespace as its user, and spends one of its uses. Needs --key and one --store DB.
    #[arg(long, value_name = "TOKEN", requires = "key")]
    pub token: Option<String>,
    /// The server key that signed --token (`cal key new`).
    #[arg(long, value_name = "FILE", requires = "token")]
    pub key: Option<PathBuf>,
    #[command(flatten)]
    /// Memory, clock, user and parameters.
    pub session: SessionArgs,
}

/// A loaded memory with the options every query of the invocation runs with.
pub struct Session {
    /// The interpreter over the memory.
    pub interp: Interpreter<Arc<dyn ReadFacade>>,
    /// The durable store, when the memory is one database: asked after each query whether a
    /// read failed (a damaged file), so that no answer is trusted that might be incomplete.
    pub durable: Option<Arc<DurableFacade>>,
    /// Clock, user, parameters.
    pub opts: ExecOptions,
    /// The same parameters for the checker.
    pub params: Params,
    /// `demo` or the store files, for messages.
    pub label: String,
}

impl Session {
    /// Loads the stores (or the demo memory) and resolves the options.
    pub fn open(args: &SessionArgs) -> Result<Session, OpenError> {
        let demo_memory = args.stores.is_empty();
        let now_ms = match &args.now {
            Some(t) => oms::time::parse_rfc3339_ms(t)
                .ok_or_else(|| OpenError::Usage(format!("--now {t:?} is not an RFC 3339 date-time")))?,
            None if demo_memory => demo::NOW_MS,
            None => std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX)),
        };
        let embed = args.embed.config().map_err(OpenError::Usage)?;
        let (facade, durable, semantic) = open_memory(&args.stores, demo_memory, now_ms, embed)?;
        let mut params = Params::from_args(&args.params).map_err(|e| OpenError::Usage(e.to_string()))?;
        if let Some(user) = &args.user
            && params.get(cal_planner::CURRENT_USER_PARAM).is_none()
        {
            params.bind(cal_planner::CURRENT_USER_PARAM, serde_json::Value::String(user.clone()));
        }
        let opts = ExecOptions {
            now_ms,
            user: args.user.clone(),
            params: params.iter().map(|(k, v)| (k.to_string(), v.clone())).collect(),
            timing: if args.no_timing { Timing::Fixed(0) } else { Timing::Measured },
            cursor: None,
            agent_id: args.agent.clone(),
            cancel: None,
        };
        let mut config = InterpConfig {
            namespace: args.namespace.clone(),
            auto_toon: args.auto_toon,
            semantic,
            ..InterpConfig::default()
        };
        if let Some(path) = &args.audit {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| OpenError::Usage(format!("cannot open the audit file {}: {e}", path.display())))?;
            config.audit = Some(Arc::new(JsonLinesAudit::new(file)));
            config.audit_key = std::env::var("CAL_AUDIT_KEY").unwrap_or_default().into_bytes();
        }
        let label = if demo_memory {
            "demo".to_string()
        } else {
            args.stores.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
        };
        Ok(Session { interp: Interpreter::new(facade, config), durable, opts, params, label })
    }

    /// The store failure behind the last queries, if a read of the durable store failed:
    /// their answers may be incomplete and are not printed.
    pub fn store_failure(&self) -> Option<String> {
        let e = self.durable.as_ref()?.take_error()?;
        Some(format!("{}: the store could not be read: {e}", self.label))
    }

    /// Parses and checks a text (text/cal, or application/json+cal when it starts with `{` or `[`).
    /// Errors (and warnings) are printed as `cal check` prints them; `None` when there are errors.
    pub fn check(&self, name: &str, text: &str) -> Option<Document> {
        let (document, diagnostics) = cal_service::request::analyze(text, &self.params);
        render::eprint_diagnostics(name, text.as_bytes(), &diagnostics);
        if diagnostics.iter().any(Diagnostic::is_error) {
            return None;
        }
        document
    }

    /// Checks a document query by query ([`document::check`]), showing every diagnostic as a
    /// code frame on standard error, once. `Err` (reported, exit status 2) when the document
    /// is over a cap of [`crate::document`].
    pub fn check_document(&self, name: &str, text: &str) -> Result<Checked, ExitCode> {
        let checked = document::check(text, &self.params).map_err(|e| super::usage_error(&e))?;
        render::eprint_diagnostics(name, text.as_bytes(), &checked.diagnostics);
        if checked.units.is_empty() {
            return Err(super::usage_error("no query to run"));
        }
        Ok(checked)
    }
}

/// An opened memory: the facade queries go through, the durable facade to ask for store
/// failures when the memory is one database, and its semantic side when it has an embedder.
type Memory = (Arc<dyn ReadFacade>, Option<Arc<DurableFacade>>, Option<Arc<cal_embed::Retriever>>);

/// Opens the memory: the demo, one store database (read from disk query by query), or
/// `.mg` files and databases merged into one in-memory store.
fn open_memory(
    paths: &[PathBuf],
    demo_memory: bool,
    now_ms: i64,
    embed: Option<cal_embed::EmbedderConfig>,
) -> Result<Memory, OpenError> {
    let semantic = |store: &Store| {
        embed.clone().map(|c| super::embedder::open_for_memory(store, c).map_err(OpenError::Usage)).transpose()
    };
    if demo_memory {
        let store =
            demo::load(now_ms).map_err(|e| OpenError::Store(format!("the built-in demo memory does not load: {e}")))?;
        let retriever = semantic(&store)?;
        return Ok((Arc::new(OmsFacade::new(Arc::new(store))), None, retriever));
    }
    let config = demo::config(now_ms);
    let is_db = |p: &PathBuf| {
        durable::is_database(p).map_err(|e| OpenError::Usage(format!("cannot read {}: {e}", p.display())))
    };
    if let [one] = paths
        && is_db(one)?
    {
        if embed.is_some() {
            return Err(OpenError::Usage(format!(
                "{} is a store database: it uses its own embedder (`cal store embedder`), not --embed-*",
                one.display()
            )));
        }
        let store = open_database(one, config)?;
        let retriever = super::embedder::open_for_database(&store).map_err(OpenError::Store)?;
        let facade = Arc::new(DurableFacade::new(Arc::new(store)));
        return Ok((facade.clone(), Some(facade), retriever));
    }
    let store = Store::new(config.clone());
    for path in paths {
        let bytes = if is_db(path)? {
            open_database(path, config.clone())?
                .export_mg(&SaveOptions::default())
                .map_err(|e| OpenError::Store(format!("{}: {e}", path.display())))?
        } else {
            std::fs::read(path).map_err(|e| OpenError::Usage(format!("cannot read {}: {e}", path.display())))?
        };
        store
            .import_owned(bytes)
            .map_err(|e| OpenError::Store(format!("{}: {e} (the store file loads nothing)", path.display())))?;
    }
    let retriever = semantic(&store)?;
    Ok((Arc::new(OmsFacade::new(Arc::new(store))), None, retriever))
}

/// Opens a store database read-only.
fn open_database(path: &std::path::Path, config: StoreConfig) -> Result<DurableStore, OpenError> {
    DurableStore::open(path, config, OpenOptions::read_only()).map_err(|e| {
        let message = format!("{}: {e}", path.display());
        if matches!(e, oms::OmsError::Io { .. }) { OpenError::Usage(message) } else { OpenError::Store(message) }
    })
}

/// Why a memory could not be opened.
#[derive(Debug)]
pub enum OpenError {
    /// A usage or I/O problem (exit status 2).
    Usage(String),
    /// The memory itself is invalid or damaged: a named `ERR_*` (exit status 1).
    Store(String),
}

impl OpenError {
    /// Reports the problem on standard error and gives the exit status.
    pub fn exit(&self) -> ExitCode {
        match self {
            OpenError::Usage(m) => super::usage_error(m),
            OpenError::Store(m) => {
                errln!("error: {m}");
                super::invalid()
            }
        }
    }
}

/// The formatted content of a response, what a person wants to see: ASSEMBLE's
/// `formatted_context.text` or RECALL `AS fmt`'s `formatted` (§10.9.8).
fn formatted_text(j: &serde_json::Value) -> Option<&str> {
    j.get("formatted_context").and_then(|f| f.get("text")).or_else(|| j.get("formatted")).and_then(|t| t.as_str())
}

/// Prints responses; returns whether any failed. Runtime errors are also shown as code frames.
pub fn print(name: &str, source: &str, responses: &[Response], format: OutputFormat) -> bool {
    let mut printer = Printer::new(name, source, format, responses.len() > 1);
    for r in responses {
        printer.write(r, true);
    }
    printer.finish()
}

/// Writes a document's responses as they complete, so that each can be dropped at once:
/// memory holds one response, not the document's (issue 19). In JSON, one envelope for one
/// query, a pretty-printed array for several, written element by element (the same bytes
/// as printing the whole array). In text, each response's view; an error is shown once, as
/// a code frame on standard error, and nothing of it on standard output.
pub struct Printer<'a> {
    name: &'a str,
    source: &'a str,
    format: OutputFormat,
    many: bool,
    written: usize,
    failed: bool,
}

impl<'a> Printer<'a> {
    /// A printer for `many` responses (an array in JSON) or one.
    pub fn new(name: &'a str, source: &'a str, format: OutputFormat, many: bool) -> Self {
        Printer { name, source, format, many, written: 0, failed: false }
    }

    /// Writes one response. `frame` shows its error as a code frame on standard error (a
    /// static refusal's frame was shown when the document was checked).
    pub fn write(&mut self, r: &Response, frame: bool) {
        self.failed |= r.is_error();
        match self.format {
            OutputFormat::Json => {
                let text = r.to_pretty();
                if self.many {
                    out!("{}", if self.written == 0 { "[\n" } else { ",\n" });
                    let mut indented = String::with_capacity(text.len() + text.len() / 8);
                    for (i, line) in text.lines().enumerate() {
                        if i > 0 {
                            indented.push('\n');
                        }
                        indented.push_str("  ");
                        indented.push_str(line);
                    }
                    out!("{indented}");
                } else {
                    outln!("{text}");
                }
            }
            OutputFormat::Text if r.is_error() => {}
            OutputFormat::Text => match formatted_text(&r.json) {
                Some(t) if t.ends_with('\n') => out!("{t}"),
                Some(t) => outln!("{t}"),
                None => out!("{}", cal_interp::text::render(r)),
            },
        }
        self.written += 1;
        if let (Some(d), true) = (&r.error, frame) {
            render::eprint_diagnostics(self.name, self.source.as_bytes(), std::slice::from_ref(d));
        }
        if !r.warnings.is_empty() && self.format == OutputFormat::Text {
            render::eprint_diagnostics(self.name, self.source.as_bytes(), &r.warnings);
        }
    }

    /// Ends the output; returns whether any response was an error.
    pub fn finish(self) -> bool {
        if self.many && self.written > 0 && self.format == OutputFormat::Json {
            outln!("\n]");
        }
        self.failed
    }
}

/// Reads the query text: the argument, -f FILE, or standard input. On failure the
/// problem has been reported and the exit status is returned: 2 when nothing could be
/// read, 1 (with CAL-E070 as a code frame, and as a refusal envelope on standard output
/// when `json`) when the bytes are not UTF-8.
pub fn read_queries(query: Option<&String>, file: Option<&PathBuf>, json: bool) -> Result<(String, String), ExitCode> {
    if let Some(q) = query {
        return Ok(("<query>".into(), q.clone()));
    }
    let input = input::read(file).map_err(|e| super::usage_error(&e))?;
    match String::from_utf8(input.bytes) {
        Ok(text) => Ok((input.name, text)),
        Err(e) => {
            let bytes = e.into_bytes();
            if let Err(d) = cal_lexer::decode_utf8(&bytes) {
                render::eprint_diagnostics(&input.name, &bytes, std::slice::from_ref(&d));
                if json {
                    outln!("{}", refused(d).to_pretty());
                }
            }
            Err(super::invalid())
        }
    }
}

/// The response that answers a query refused before it ran: the server's refusal (§14.1
/// envelope, §22.1 error object, tier 0).
pub fn refused(d: Diagnostic) -> Response {
    cal_service::request::refusal("query", 0, d)
}

/// Runs `cal run`.
pub fn run(args: &RunArgs) -> ExitCode {
    let mut session = match Session::open(&args.session) {
        Ok(s) => s,
        Err(e) => return e.exit(),
    };
    session.opts.cursor = args.cursor.clone();
    let gate = match (&args.token, &args.key) {
        (Some(t), Some(k)) => match super::gate::Gate::open(t, k, &args.session.stores, &session) {
            Ok(g) => Some(g),
            Err(e) => return e.exit(),
        },
        _ => None,
    };
    let json = args.stream || args.format == OutputFormat::Json;
    let (name, text) = match read_queries(args.query.as_ref(), args.file.as_ref(), json) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let checked = match session.check_document(&name, &text) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let many = checked.units.len() > 1;
    let mut printer = Printer::new(&name, &text, args.format, many);
    let mut failed = false;
    // Every query runs, failed or not (no short circuit); each response is written, then dropped.
    for unit in checked.units {
        let query = match unit.outcome {
            Ok(q) => q,
            Err(d) => {
                let r = refused(d);
                if args.stream {
                    failed = true;
                    let _ = writeln!(std::io::stdout().lock(), "{}", r.json);
                } else {
                    printer.write(&r, false);
                }
                continue;
            }
        };
        if args.stream {
            failed |= stream_query(&session, gate.as_ref(), &name, &text, &query);
            continue;
        }
        let mut r = match &gate {
            Some(g) => g.run(&query, &session.opts, |interp, q, opts| interp.execute(q, opts)),
            None => session.interp.execute(&query, &session.opts),
        };
        if let Some(failure) = session.store_failure() {
            // The answer may be incomplete: it is not printed, nor anything after it.
            printer.finish();
            errln!("cal: {failure}");
            return super::invalid();
        }
        cal_service::request::merge_warnings(&mut r.json, &unit.warnings);
        printer.write(&r, true);
    }
    failed |= printer.finish();
    if failed { super::invalid() } else { super::OK }
}

/// `--stream`: runs one query, writing its events (an ASSEMBLE) or its response (anything else)
/// to standard output as NDJSON lines, flushed one by one. A write that fails (the reader went
/// away, §11.5 "client closes connection") cancels the assembly. Returns whether it failed;
/// errors and warnings are also shown on standard error as code frames.
fn stream_query(
    session: &Session,
    gate: Option<&super::gate::Gate>,
    name: &str,
    source: &str,
    query: &cal_parser::ast::Query,
) -> bool {
    let mut out = std::io::stdout().lock();
    let mut sink = |event: &Event| match writeln!(out, "{}", event.to_ndjson()).and_then(|()| out.flush()) {
        Ok(()) => Control::Continue,
        Err(e) => Control::Cancel(format!("the output was closed: {e}")),
    };
    let cancel = CancelToken::new();
    let response = match gate {
        Some(g) => g.run(query, &session.opts, |interp, q, opts| interp.execute_stream(q, opts, &mut sink, &cancel)),
        None => session.interp.execute_stream(query, &session.opts, &mut sink, &cancel),
    };
    if !matches!(&query.body, QueryBody::Statement(Statement::Assemble(_))) {
        let _ = writeln!(out, "{}", response.json).and_then(|()| out.flush());
    }
    drop(out);
    if let Some(d) = &response.error {
        render::eprint_diagnostics(name, source.as_bytes(), std::slice::from_ref(d));
    }
    render::eprint_diagnostics(name, source.as_bytes(), &response.warnings);
    response.is_error()
}
