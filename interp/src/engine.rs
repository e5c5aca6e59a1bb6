//! The interpreter: plans a query, evaluates its LET bindings once in order,
//! runs its statement ([`crate::dispatch`]) against the facade, wraps the
//! result in the response envelope, and records the execution in the audit
//! trail.

use std::collections::BTreeMap;

use cal_grammar::{Code, Diagnostic};
use cal_parser::ast::{Query, QueryBody, Statement};
use cal_planner::{Node, Plan, PlanOptions, plan_query};

use crate::assembly_stream;
use crate::audit::{AuditEntry, pseudonym};
use crate::config::{ExecOptions, InterpConfig, Timing};
use crate::context::{Ctx, Deadline, Stats};
use crate::dispatch::{run_statement, tier1_refused};
use crate::envelope::{self, Response};
use crate::evolve::{self, Preview};
use crate::facade::ReadFacade;
use crate::outcome::Evolved;
use crate::outcome::{Outcome, PlanOutcome};
use crate::stream::{CancelToken, Emitter, EventSink};
use crate::{recall, templates};

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
        let id = assembly_stream::assembly_id(&envelope::query_hash(query), opts.now_ms, opts.user.as_deref());
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
            deadline: Deadline::new(timeout.0, timeout.1).with_cancel(opts.cancel.clone()),
            stats: Stats::default(),
            query_hash: envelope::query_hash(query),
            stream,
        };
        cx.stats.notes.extend(plan.notes.iter().cloned());
        // The store's own loops stop at the same deadline (issue 19: timeouts within 10%).
        let scope = oms::interrupt::within(cx.deadline.at());
        let result = run_query(&mut cx, query, &plan);
        drop(scope);
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

    /// A context for answering `query` without running it (EXPLAIN, a refusal).
    fn idle_context<'a>(&'a self, query: &Query, opts: &'a ExecOptions) -> Ctx<'a> {
        Ctx {
            facade: &self.facade,
            config: &self.config,
            opts,
            lets: BTreeMap::new(),
            deadline: Deadline::new(self.config.query_timeout_ms, Code::E031),
            stats: Stats::default(),
            query_hash: envelope::query_hash(query),
            stream: None,
        }
    }

    /// The response to a query refused before it ran (a capability token the service layer
    /// refused): the envelope with `refusal` as its error, audited like any execution (§21:
    /// refusals at every phase are audited). Nothing is read.
    pub fn refuse(&self, query: &Query, opts: &ExecOptions, refusal: Diagnostic) -> Response {
        let plan = self.plan(query, opts);
        let cx = self.idle_context(query, opts);
        let duration = match opts.timing {
            Timing::Measured => cx.deadline.elapsed_ms(),
            Timing::Fixed(ms) => ms,
        };
        let response = envelope::respond(&cx, &plan, Err(refusal), duration);
        self.audit(&cx, &response, plan.tier, duration);
        response
    }

    /// The store-aware preview of an evolve statement (§18.2 prepare): the exact grain it
    /// would write, judged against the store as it is now. A read statement, a DEFINE
    /// TEMPLATE or a query with LET bindings is not an evolve statement (CAL-E044 names
    /// what is).
    pub fn preview(&self, query: &Query, opts: &ExecOptions) -> Result<Preview, Diagnostic> {
        let cx = self.idle_context(query, opts);
        match &query.body {
            QueryBody::Statement(s) if s.is_tier1() && query.lets.is_empty() => evolve::preview(&cx, s),
            _ => Err(Diagnostic::new(
                Code::E044,
                query.span,
                "Only ADD, SUPERSEDE, REVERT and read statements are prepared; DEFINE TEMPLATE runs directly.",
            )
            .with_suggestion("Run this query directly (POST …/cal, or `cal run`).")),
        }
    }

    /// The response to an evolve statement the service layer performed (`Ok`, the preview it
    /// wrote) or refused at execute (`Err`), audited like any execution.
    pub fn evolved(&self, query: &Query, opts: &ExecOptions, result: Result<&Preview, Diagnostic>) -> Response {
        let plan = self.plan(query, opts);
        let mut cx = self.idle_context(query, opts);
        let body = result.map(|p| {
            cx.stats.store_ops += 1;
            Outcome::Evolved(Evolved { evolve: p.to_json(), grains_written: 1 })
        });
        let duration = match opts.timing {
            Timing::Measured => cx.deadline.elapsed_ms(),
            Timing::Fixed(ms) => ms,
        };
        let response = envelope::respond(&cx, &plan, body, duration);
        self.audit(&cx, &response, plan.tier, duration);
        response
    }

    /// EXPLAIN of a query that is not written with EXPLAIN (`cal explain`).
    pub fn explain(&self, query: &Query, opts: &ExecOptions) -> Response {
        let plan = self.plan(query, opts);
        let cx = self.idle_context(query, opts);
        let body = Outcome::Plan(PlanOutcome { plan: plan.to_json() });
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

/// EXPLAIN's view of an evolve statement against the current store: the preview, or the
/// refusal executing it would meet (EXPLAIN itself succeeds: it is a dry run).
fn store_preview(cx: &Ctx<'_>, s: &Statement) -> serde_json::Value {
    match evolve::preview(cx, s) {
        Ok(p) => p.to_json(),
        Err(d) => serde_json::json!({ "would_refuse": crate::errors::diagnostic_json(&d) }),
    }
}

fn run_query(cx: &mut Ctx<'_>, query: &Query, plan: &Plan) -> Result<Outcome, Diagnostic> {
    if let Some(v) = query.version
        && v.major != 1
    {
        return Err(Diagnostic::new(Code::E100, v.span, format!("CAL/{} is not supported.", v.major))
            .with_suggestion("Write CAL/1 or no version prefix."));
    }
    let statement = match &query.body {
        QueryBody::Statement(s) => s,
        QueryBody::DefineTemplate(d) => return templates::define(cx, d).map(Outcome::TemplateDefined),
    };
    if let (Statement::Explain(e), Node::Explain(inner)) = (statement, &plan.root) {
        let mut plan = inner.to_json();
        if e.statement.is_tier1()
            && let Some(m) = plan.as_object_mut()
        {
            m.insert("store_preview".into(), store_preview(cx, &e.statement));
        }
        return Ok(Outcome::Plan(PlanOutcome { plan }));
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
