//! The interpreter: plans a query, evaluates its LET bindings once in order,
//! runs its statement against the facade, and wraps the result in the
//! response envelope. The match over [`Statement`] is exhaustive and no arm
//! can reach a write: the facade has none (§2.3).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use cal_grammar::{Code, Diagnostic, Span};
use cal_parser::ast::{Query, QueryBody, Statement};
use cal_planner::{Node, Plan, PlanOptions, plan_query};
use oms::ContentAddress;
use oms::store::Hit;
use serde_json::{Map, Value as Json};

use crate::audit::{AuditEntry, pseudonym};
use crate::config::{ExecOptions, InterpConfig, Timing};
use crate::envelope::{self, Response};
use crate::facade::ReadFacade;
use crate::stream::{self, CancelToken, Emitter, EventSink};
use crate::{compose, describe, history, recall, setops, templates};

/// A retrieved grain and what WITH options added to it.
#[derive(Debug, Clone)]
pub struct Row {
    /// The store's hit: grain, address, score, matched fields, index state.
    pub hit: Hit,
    /// Annotations (`score_breakdown`, `explanation`, `provenance`, `contradictions`).
    pub notes: Map<String, Json>,
}

impl Row {
    /// A row without annotations.
    pub fn new(hit: Hit) -> Self {
        Row { hit, notes: Map::new() }
    }
}

/// The value of an evaluated LET binding (§8.12).
#[derive(Debug, Clone)]
pub enum Bound {
    /// Grains (no extractor).
    Rows(Vec<Row>),
    /// Values (`| SUBJECTS`, `| OBJECTS`, `| HASHES`).
    Values(Vec<String>),
}

/// The query timeout, checked between steps (§17.3, CAL-E031). A single store
/// operation is not interrupted; the check runs before and after each.
#[derive(Debug, Clone, Copy)]
pub struct Deadline {
    start: Instant,
    limit: Duration,
    code: Code,
}

impl Deadline {
    /// A deadline `ms` from now, reported with `code` (E031, or E075 for ASSEMBLE).
    pub fn new(ms: u64, code: Code) -> Self {
        Deadline { start: Instant::now(), limit: Duration::from_millis(ms), code }
    }

    /// CAL-E031 (or E075) once the time is up.
    pub fn check(&self) -> Result<(), Diagnostic> {
        if self.start.elapsed() >= self.limit {
            let what = if self.code == Code::E075 { "ASSEMBLE" } else { "The query" };
            return Err(Diagnostic::new(
                self.code,
                Span::default(),
                format!("{what} exceeded its time limit of {} ms.", self.limit.as_millis()),
            )
            .with_suggestion("Narrow the query: add a WHERE condition on subject, relation or type, or lower LIMIT."));
        }
        Ok(())
    }

    /// Milliseconds since the start.
    pub fn elapsed_ms(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX)
    }
}

/// What an execution counted, for the envelope's `budget` (§14.1).
#[derive(Debug, Clone, Default)]
pub struct Stats {
    /// Store operations performed.
    pub store_ops: u64,
    /// Grains the store matched or read.
    pub scanned: u64,
    /// Grains in the response.
    pub returned: u64,
    /// Estimated tokens of the returned grains' projected content.
    pub tokens: u64,
    /// Warnings raised while running (CAL-W004 for an unsupported locale, …).
    pub warnings: Vec<Diagnostic>,
    /// Remarks (no-op options, overwritten namespaces, …).
    pub notes: Vec<String>,
}

impl Stats {
    /// Adds a remark once.
    pub fn note(&mut self, s: impl Into<String>) {
        let s = s.into();
        if !self.notes.contains(&s) {
            self.notes.push(s);
        }
    }

    /// Adds a warning once.
    pub fn warn(&mut self, d: Diagnostic) {
        if !self.warnings.iter().any(|w| w.code == d.code && w.span == d.span) {
            self.warnings.push(d);
        }
    }
}

/// Everything a running statement needs.
pub struct Ctx<'a> {
    /// The store, reads only.
    pub facade: &'a dyn ReadFacade,
    /// Deployment settings.
    pub config: &'a InterpConfig,
    /// This execution's inputs.
    pub opts: &'a ExecOptions,
    /// Evaluated LET bindings.
    pub lets: BTreeMap<String, Bound>,
    /// The timeout.
    pub deadline: Deadline,
    /// Counters for the envelope.
    pub stats: Stats,
    /// SHA-256 of the canonical query text, `sha256:…`.
    pub query_hash: String,
    /// The event stream of a streamed ASSEMBLE (§11), when the caller asked for one.
    pub(crate) stream: Option<Emitter<'a>>,
}

impl Ctx<'_> {
    /// Whether a grain may be seen: always, unless a token namespace confines
    /// the request (§18.3) and the grain lives elsewhere.
    pub fn visible(&self, namespace: Option<&str>) -> bool {
        self.config.namespace.as_deref().is_none_or(|ns| namespace == Some(ns))
    }

    /// Up to `max` visible grains whose address starts with `hex` (8–64 hex digits).
    pub fn resolve_visible(&self, hex: &str, max: usize) -> Vec<ContentAddress> {
        if self.config.namespace.is_none() {
            return self.facade.resolve_prefix(hex, max);
        }
        self.facade
            .resolve_prefix(hex, max.saturating_mul(32).max(64))
            .into_iter()
            .filter(|a| self.facade.get(a).is_some_and(|s| self.visible(s.grain().namespace())))
            .take(max)
            .collect()
    }
}

/// An internal invariant failed: reported, never a panic.
pub fn bug(span: Span, what: &str) -> Diagnostic {
    Diagnostic::new(
        Code::E021,
        span,
        format!("Internal error: {what}. This is a bug in the CAL toolchain, please report it."),
    )
}

/// The reference interpreter over a read facade.
pub struct Interpreter<F: ReadFacade> {
    facade: F,
    config: InterpConfig,
}

impl<F: ReadFacade> std::fmt::Debug for Interpreter<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Interpreter").field("config", &self.config).finish_non_exhaustive()
    }
}

impl<F: ReadFacade> Interpreter<F> {
    /// An interpreter over `facade`.
    pub fn new(facade: F, config: InterpConfig) -> Self {
        Interpreter { facade, config }
    }

    /// The facade.
    pub fn facade(&self) -> &F {
        &self.facade
    }

    /// The configuration.
    pub fn config(&self) -> &InterpConfig {
        &self.config
    }

    /// The plan of a query, without running it.
    pub fn plan(&self, query: &Query, opts: &ExecOptions) -> Plan {
        let po = PlanOptions { params: opts.params.clone(), store_size: Some(self.facade.grain_count() as u64) };
        plan_query(query, &po)
    }

    /// Runs a (checked) query and returns its response. Never panics; every
    /// failure is a response with an `error` member.
    pub fn execute(&self, query: &Query, opts: &ExecOptions) -> Response {
        self.run(query, opts, None)
    }

    /// Runs a query as [`Interpreter::execute`] does and, when it is an ASSEMBLE, delivers its
    /// events (§11) to `sink` as they happen, filtered by its STREAM options (all events when it
    /// has none). The sink, or `cancel` from elsewhere, may cancel: the assembly stops at the
    /// next source, phase or chunk, and the response is the valid partial result, with a
    /// `cancelled` member. A failed request ends the stream with an `error` event. Other
    /// statements deliver no events.
    pub fn execute_stream(
        &self,
        query: &Query,
        opts: &ExecOptions,
        sink: &mut dyn EventSink,
        cancel: &CancelToken,
    ) -> Response {
        if !matches!(&query.body, QueryBody::Statement(Statement::Assemble(_))) {
            return self.run(query, opts, None);
        }
        let id = stream::assembly_id(&envelope::query_hash(query), opts.now_ms, opts.user.as_deref());
        self.run(query, opts, Some(Emitter::new(sink, cancel, id)))
    }

    fn run<'a>(&'a self, query: &Query, opts: &'a ExecOptions, stream: Option<Emitter<'a>>) -> Response {
        let plan = self.plan(query, opts);
        let timeout = match &query.body {
            QueryBody::Statement(Statement::Assemble(_)) => (self.config.assemble_timeout_ms, Code::E075),
            _ => (self.config.query_timeout_ms, Code::E031),
        };
        let mut cx = Ctx {
            facade: &self.facade,
            config: &self.config,
            opts,
            lets: BTreeMap::new(),
            deadline: Deadline::new(timeout.0, timeout.1),
            stats: Stats::default(),
            query_hash: envelope::query_hash(query),
            stream,
        };
        cx.stats.notes.extend(plan.notes.iter().cloned());
        let result = run_query(&mut cx, query, &plan);
        if let (Err(d), Some(em)) = (&result, cx.stream.as_mut()) {
            em.error(d);
        }
        let duration = match opts.timing {
            Timing::Measured => cx.deadline.elapsed_ms(),
            Timing::Fixed(ms) => ms,
        };
        let response = envelope::respond(&cx, &plan, result, duration);
        self.audit(&cx, &response, plan.tier, duration);
        response
    }

    /// Records the execution in the audit trail (§21), when a sink is configured.
    fn audit(&self, cx: &Ctx<'_>, r: &Response, tier: u8, duration_ms: u64) {
        let Some(sink) = &self.config.audit else { return };
        sink.record(&AuditEntry {
            token_id: None,
            query_hash: cx.query_hash.clone(),
            namespace: self.config.namespace.clone(),
            actor_id: cx.opts.user.as_deref().map(|u| pseudonym(&self.config.audit_key, u)),
            agent_id: cx.opts.agent_id.clone(),
            result_count: cx.stats.returned,
            tier,
            duration_ms,
            statement_type: r.statement_type,
            error: r.error.as_ref().map(|d| d.code.as_str().to_string()),
            stream: cx.stream.as_ref().map(Emitter::audit),
        });
    }

    /// EXPLAIN of a query that is not written with EXPLAIN (`cal explain`).
    pub fn explain(&self, query: &Query, opts: &ExecOptions) -> Response {
        let plan = self.plan(query, opts);
        let cx = Ctx {
            facade: &self.facade,
            config: &self.config,
            opts,
            lets: BTreeMap::new(),
            deadline: Deadline::new(self.config.query_timeout_ms, Code::E031),
            stats: Stats::default(),
            query_hash: envelope::query_hash(query),
            stream: None,
        };
        let mut body = Map::new();
        body.insert("plan".into(), plan.to_json());
        let explain = Plan { statement_type: "explain", tier: 0, ..plan };
        let duration = match opts.timing {
            Timing::Measured => cx.deadline.elapsed_ms(),
            Timing::Fixed(ms) => ms,
        };
        let response = envelope::respond(&cx, &explain, Ok(body), duration);
        self.audit(&cx, &response, 0, duration);
        response
    }
}

fn run_query(cx: &mut Ctx<'_>, query: &Query, plan: &Plan) -> Result<Map<String, Json>, Diagnostic> {
    if let Some(v) = query.version
        && v.major != 1
    {
        return Err(Diagnostic::new(Code::E100, v.span, format!("CAL/{} is not supported.", v.major))
            .with_suggestion("Write CAL/1 or no version prefix."));
    }
    let statement = match &query.body {
        QueryBody::Statement(s) => s,
        QueryBody::DefineTemplate(d) => return templates::define(cx, d),
    };
    if let (Statement::Explain(_), Node::Explain(inner)) = (statement, &plan.root) {
        let mut body = Map::new();
        body.insert("plan".into(), inner.to_json());
        return Ok(body);
    }
    if statement.is_tier1() {
        return Err(tier1_refused(cx, statement));
    }
    for l in &plan.lets {
        cx.deadline.check()?;
        let bound = recall::bind(cx, &l.recall)?;
        cx.lets.insert(l.name.clone(), bound);
    }
    run_statement(cx, statement, &plan.root)
}

/// CAL-E044 (§2.4): Tier 1 statements are parsed and explainable, never executed here.
pub fn tier1_refused(cx: &Ctx<'_>, s: &Statement) -> Diagnostic {
    let what = s.kind_name().to_uppercase();
    let message = if cx.config.tier1_enabled {
        format!("{what} is a Tier 1 statement, and this interpreter executes Tier 0 only; nothing was written.")
    } else {
        format!("{what} is a Tier 1 statement and Tier 1 is not enabled; nothing was written.")
    };
    Diagnostic::new(Code::E044, s.span(), message)
        .with_suggestion(format!("Preview it with `EXPLAIN {what} …` (a dry run that names its side effects)."))
}

/// Runs one statement with its plan node. Exhaustive over the twelve statements (§2.3).
pub fn run_statement(cx: &mut Ctx<'_>, s: &Statement, node: &Node) -> Result<Map<String, Json>, Diagnostic> {
    cx.deadline.check()?;
    match s {
        Statement::Recall(_) => match node {
            Node::Recall(p) => recall::body(cx, p, true),
            _ => Err(bug(s.span(), "plan does not match a RECALL")),
        },
        Statement::Assemble(ast) => match node {
            Node::Assemble(p) => compose::assemble(cx, p, ast),
            _ => Err(bug(s.span(), "plan does not match an ASSEMBLE")),
        },
        Statement::SetOp(op) => setops::body(cx, op, node),
        Statement::Exists(e) => history::exists(cx, e),
        Statement::History(h) => history::history(cx, h),
        Statement::Explain(_) => match node {
            Node::Explain(p) => {
                let mut body = Map::new();
                body.insert("plan".into(), p.to_json());
                Ok(body)
            }
            _ => Err(bug(s.span(), "plan does not match an EXPLAIN")),
        },
        Statement::Describe(d) => describe::describe(cx, d),
        Statement::Batch(b) => compose::batch(cx, b, node),
        Statement::Coalesce(_) => match node {
            Node::Coalesce(branches) => compose::coalesce(cx, branches),
            _ => Err(bug(s.span(), "plan does not match a COALESCE")),
        },
        Statement::Add(_) | Statement::Supersede(_) | Statement::Revert(_) => Err(tier1_refused(cx, s)),
    }
}
