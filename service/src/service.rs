//! The service: one durable store, one server key, and every request a
//! caller can make of them — run a query, prepare an evolve statement,
//! execute a prepared one — each passing the same gate in the same order:
//!
//! 1. the master kill switch (CAL-E903; §20.3);
//! 2. the credential (CAL-E901, one text for every reason; §20.1);
//! 3. the operations of the query against the token (CAL-E044, E902; §18.1);
//! 4. the Tier 1 kill switch for an operation that writes (CAL-E044; §20.3);
//! 5. one use of the token, counted in the store (§18.1 `max_uses`);
//! 6. the statement itself; a write is judged by the store's policy code
//!    (§17.2 policy gate) and charged to the token's write quota and to the
//!    namespace's per-minute rates in the write's own transaction
//!    (CAL-E043, E052; §20.1).
//!
//! Every request leaves exactly one entry in the store's hash-chained audit
//! trail (§21), refused or not, at whatever step; the entry of a write is
//! appended in the write's transaction, so no write exists without its entry.
//! The namespace and user always come from the token (§18.3).

use std::sync::{Arc, Mutex, PoisonError};

use cal_grammar::limits::MAX_TEMPLATES;
use cal_grammar::{Code, Diagnostic, Span};
use cal_interp::evolve::{Operation, Preview};
use cal_interp::{AuditEntry, AuditSink, DurableFacade, ExecOptions, InterpConfig, Interpreter, ReadFacade, Response};
use cal_parser::ast::{Query, QueryBody};
use oms::durable::{DurableStore, TemplateSlot, Tx};
use oms::{ContentAddress, OmsError};
use serde_json::{Value as Json, json};

mod prepared_read;

use crate::gate::{self, Refusal};
use crate::key::ServerKey;
use crate::prepared::PreparedToken;
use crate::refusals::{bug, master_off, not_embedded, quota_exhausted, rate_exceeded, tier1_off};
use crate::token::{Op, Verified};

/// The kill switches of §20.3, stored per store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Switch {
    /// Every CAL operation refused (HTTP 503).
    Master,
    /// ADD, SUPERSEDE, REVERT and DEFINE TEMPLATE refused; reads go on (HTTP 403).
    Tier1,
}

impl Switch {
    /// Its name in the store and on the command line.
    pub const fn as_str(self) -> &'static str {
        match self {
            Switch::Master => "master",
            Switch::Tier1 => "tier1",
        }
    }
}

/// Per-namespace limits on evolve operations per minute (§17.3, §20.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rates {
    /// ADD per minute (§17.3: 20); past it, CAL-E052.
    pub add: u64,
    /// SUPERSEDE per minute (§17.3: 10); past it, CAL-E043.
    pub supersede: u64,
    /// REVERT per minute (§17.3: 5); past it, CAL-E043.
    pub revert: u64,
    /// Evolve operations of any kind per minute (§20.1 "write quota (20/min)"); past it, CAL-E043.
    pub evolve: u64,
}

impl Default for Rates {
    fn default() -> Self {
        Rates { add: 20, supersede: 10, revert: 5, evolve: 20 }
    }
}

/// How a service is set up.
#[derive(Debug, Clone, Default)]
pub struct ServiceConfig {
    /// The interpreter's settings (timeouts, server name, auto-TOON); the namespace, Tier 1
    /// flag and audit sink are set per request from the token.
    pub interp: InterpConfig,
    /// The key user ids are pseudonymized under in the audit trail (HMAC-SHA256).
    pub audit_key: Vec<u8>,
    /// Per-minute limits on evolve operations, per namespace.
    pub rates: Rates,
}

/// What prepare returns (§18.2): `{token, plan, tier, side_effects}`.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The signed prepared token, to hand to execute.
    pub token: PreparedToken,
    /// The statement's plan.
    pub plan: Json,
    /// 1 for an evolve statement, 0 for a read.
    pub tier: u8,
    /// The store-aware preview.
    pub side_effects: Json,
}

impl Prepared {
    /// The §18.2 object.
    pub fn to_json(&self) -> Json {
        json!({
            "token": self.token.to_json(),
            "plan": self.plan,
            "tier": self.tier,
            "side_effects": self.side_effects,
        })
    }
}

/// The reference service over one durable store.
pub struct Service {
    store: Arc<DurableStore>,
    facade: Arc<DurableFacade>,
    key: ServerKey,
    config: ServiceConfig,
    /// The last template row loaded into the registry.
    templates_loaded: Mutex<usize>,
}

impl std::fmt::Debug for Service {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Service").field("store", &self.store.path()).finish_non_exhaustive()
    }
}

/// The audit sink of one request: the interpreter's entry, with the token's id and the
/// refusal's reason, appended to the store's chain.
#[derive(Debug)]
struct StoreAudit {
    store: Arc<DurableStore>,
    token_id: Option<String>,
    reason: Option<String>,
    failed: Mutex<Option<OmsError>>,
}

impl AuditSink for StoreAudit {
    fn record(&self, entry: &AuditEntry) {
        let mut j = entry.to_json();
        if let Some(m) = j.as_object_mut() {
            m.insert("token_id".into(), json!(self.token_id));
            if let Some(r) = &self.reason {
                m.insert("refusal_reason".into(), json!(r));
            }
        }
        if let Err(e) = self.store.append_audit(&j) {
            *self.failed.lock().unwrap_or_else(PoisonError::into_inner) = Some(e);
        }
    }
}

/// Who calls: the capability token's text, and, for a transport that addresses memories by
/// id (`/memories/{id}/cal`, §26), the memory the request names, which must be the token's
/// namespace (CAL-E902 otherwise). A bare `&str` is a token without a memory id.
#[derive(Debug, Clone, Copy)]
pub struct Caller<'a> {
    /// The token, as JSON text.
    pub token: &'a str,
    /// The memory id the request addresses, if the transport has one.
    pub memory: Option<&'a str>,
}

impl<'a> From<&'a str> for Caller<'a> {
    fn from(token: &'a str) -> Self {
        Caller { token, memory: None }
    }
}

impl<'a> From<&'a String> for Caller<'a> {
    fn from(token: &'a String) -> Self {
        Caller { token, memory: None }
    }
}

/// On whose behalf a request runs: the capability token's id, namespace and tier.
#[derive(Debug, Clone, Copy)]
struct Who<'a> {
    token_id: &'a str,
    namespace: &'a str,
    tier1: bool,
}

impl<'a> Who<'a> {
    fn of(v: &'a Verified) -> Self {
        let t = v.token();
        Who { token_id: &t.token_id, namespace: &t.namespace, tier1: t.tier >= 1 }
    }

    /// A prepared statement was prepared under a Tier 1 token.
    fn prepared(p: &'a PreparedToken) -> Self {
        Who { token_id: &p.token_id, namespace: &p.namespace, tier1: true }
    }
}

/// A request that passed the gate: its token, the interpreter it runs on, its audit sink and
/// its options (the token's user).
struct Admitted {
    verified: Verified,
    interp: Interpreter<Arc<dyn ReadFacade>>,
    sink: Arc<StoreAudit>,
    opts: ExecOptions,
}

/// A refusal inside a write transaction: the diagnostic, and the reason kept for audit.
#[derive(Debug)]
enum WriteError {
    Refused(Diagnostic, String),
    Store(OmsError),
}

impl From<OmsError> for WriteError {
    fn from(e: OmsError) -> Self {
        WriteError::Store(e)
    }
}

/// The diagnostic for a store refusal of a write.
fn store_refusal(e: &OmsError, span: Span) -> Diagnostic {
    match e {
        OmsError::Conflict { reason } => Diagnostic::new(Code::E040, span, format!("SupersessionConflict: {reason}."))
            .with_suggestion("Evolve the current version: HISTORY names the head of the chain."),
        OmsError::InvalidationDenied { reason } | OmsError::EvidenceRequired { reason } => {
            Diagnostic::new(Code::E904, span, format!("The store's invalidation policy refused the write: {reason}."))
                .with_suggestion("The grain is protected (OMS §23); supersede it with the authorization its policy asks for, or ask its owner.")
        }
        OmsError::NotFound { address } => {
            Diagnostic::new(Code::E046, span, format!("No grain has the address {address}."))
                .with_suggestion("Check the hash; EXISTS tells whether a grain exists.")
        }
        other => Diagnostic::new(Code::E030, span, format!("The store could not perform the write: {other}."))
            .with_suggestion("Nothing was written; try again, and run `cal store verify` if it persists."),
    }
}

fn hash_text(a: &ContentAddress) -> String {
    format!("sha256:{}", a.to_hex())
}

fn parse_hash(s: &str) -> Option<ContentAddress> {
    ContentAddress::parse(s.strip_prefix("sha256:").unwrap_or(s)).ok()
}

impl Service {
    /// A service over `store` (opened for writing) with the server `key`. Loads the store's
    /// named templates into the interpreter's registry.
    pub fn new(store: Arc<DurableStore>, key: ServerKey, config: ServiceConfig) -> Service {
        let facade = Arc::new(DurableFacade::new(store.clone()));
        let s = Service { store, facade, key, config, templates_loaded: Mutex::new(0) };
        s.sync_templates();
        s
    }

    /// The store.
    pub fn store(&self) -> &Arc<DurableStore> {
        &self.store
    }

    /// The facade every request reads through.
    pub fn facade(&self) -> &Arc<DurableFacade> {
        &self.facade
    }

    /// Whether a kill switch is on (a store that cannot say counts as on: fail closed).
    pub fn switch(&self, s: Switch) -> bool {
        self.store.switch(s.as_str()).unwrap_or(true)
    }

    /// Turns a kill switch on or off, audited with who did it and why.
    pub fn set_switch(&self, s: Switch, on: bool, actor: &str, reason: &str) -> Result<(), OmsError> {
        set_switch(&self.store, s, on, Some(&cal_interp::audit::pseudonym(&self.config.audit_key, actor)), reason)
    }

    /// Loads templates other processes defined since the last look.
    fn sync_templates(&self) {
        let mut loaded = self.templates_loaded.lock().unwrap_or_else(PoisonError::into_inner);
        let Ok(all) = self.store.templates() else { return };
        for t in all.iter().skip(*loaded) {
            let parsed = cal_parser::parse_query(&t.body);
            if let Some(q) = &parsed.ast
                && let QueryBody::DefineTemplate(d) = &q.body
                && let Ok(def) = cal_checker::validate_definition(d)
            {
                let ns = (!t.namespace.is_empty()).then_some(t.namespace.as_str());
                // A name this process registered itself is already there.
                let _ = self.config.interp.templates.define(ns, def);
            }
        }
        *loaded = all.len();
    }

    /// An interpreter for one request on behalf of `who` (none before a token was accepted):
    /// confined to its namespace, Tier 1 as it and the switch allow, auditing into the store
    /// with its token id and, for a refusal, the `reason`.
    fn interpreter(
        &self,
        who: Option<Who<'_>>,
        reason: Option<String>,
    ) -> (Interpreter<Arc<dyn ReadFacade>>, Arc<StoreAudit>) {
        let sink = Arc::new(StoreAudit {
            store: self.store.clone(),
            token_id: who.map(|w| w.token_id.to_string()),
            reason,
            failed: Mutex::new(None),
        });
        let mut config = self.config.interp.clone();
        config.namespace = who.map(|w| w.namespace.to_string());
        config.tier1_switched_off = self.switch(Switch::Tier1);
        config.tier1_enabled = who.is_some_and(|w| w.tier1) && !config.tier1_switched_off;
        config.audit = Some(sink.clone());
        config.audit_key = self.config.audit_key.clone();
        let facade: Arc<dyn ReadFacade> = self.facade.clone();
        (Interpreter::new(facade, config), sink)
    }

    /// The response to a request refused before its token was accepted.
    fn refuse_early(&self, q: &Query, opts: &ExecOptions, d: Diagnostic, reason: String) -> Response {
        let (interp, _) = self.interpreter(None, Some(reason));
        interp.refuse(q, opts, d)
    }

    /// Steps 1–5 of the gate (see the module docs): the interpreter the request runs on, or
    /// the response that refuses it.
    fn admit(&self, caller: Caller<'_>, q: &Query, opts: &ExecOptions) -> Result<Admitted, Response> {
        self.sync_templates();
        if self.switch(Switch::Master) {
            return Err(self.refuse_early(q, opts, master_off(), "master switch on".into()));
        }
        let verified = gate::verify(caller.token, &self.key, opts.now_ms)
            .map_err(|Refusal { diagnostic, reason }| self.refuse_early(q, opts, diagnostic, reason))?;
        let (interp, sink) = self.interpreter(Some(Who::of(&verified)), None);
        let mut opts = opts.clone();
        opts.user = Some(verified.token().user_id.clone());
        if let Some(memory) = caller.memory
            && memory != verified.token().namespace
        {
            return Err(interp.refuse(q, &opts, gate::other_memory(memory, &verified.token().namespace)));
        }
        if let Err(d) = gate::authorize(&verified, q) {
            return Err(interp.refuse(q, &opts, d));
        }
        let writes = gate::required_ops(q).iter().find(|n| n.op.tier() >= 1).copied();
        if let Some(n) = writes
            && self.switch(Switch::Tier1)
        {
            return Err(interp.refuse(q, &opts, tier1_off(n.span)));
        }
        let t = verified.token();
        match self.store.transaction(|tx: &Tx<'_>| tx.spend_use(&t.token_id, t.max_uses)) {
            Ok(true) => {}
            Ok(false) => {
                let (interp, _) = self.interpreter(Some(Who::of(&verified)), Some("every use was taken".into()));
                return Err(interp.refuse(q, &opts, gate::refused("every use was taken").diagnostic));
            }
            Err(e) => return Err(interp.refuse(q, &opts, store_refusal(&e, q.span))),
        }
        Ok(Admitted { verified, interp, sink, opts })
    }

    /// Runs a query under a capability token (`POST …/cal`, `cal run --token`). An evolve
    /// statement is refused here with CAL-E044 naming prepare/execute (§18.2: REQUIRED for
    /// Tier 1); DEFINE TEMPLATE is registered in the store, so named references resolve in
    /// every process.
    pub fn run<'a>(&self, caller: impl Into<Caller<'a>>, q: &Query, opts: &ExecOptions) -> Response {
        self.run_with(caller, q, opts, |interp, q, opts| interp.execute(q, opts))
    }

    /// [`Service::run`], with the statement run by `exec` on the admitted interpreter (a
    /// transport that streams calls [`Interpreter::execute_stream`] there).
    pub fn run_with<'a>(
        &self,
        caller: impl Into<Caller<'a>>,
        q: &Query,
        opts: &ExecOptions,
        exec: impl FnOnce(&Interpreter<Arc<dyn ReadFacade>>, &Query, &ExecOptions) -> Response,
    ) -> Response {
        let Admitted { verified, interp, sink, opts } = match self.admit(caller.into(), q, opts) {
            Ok(a) => a,
            Err(r) => return r,
        };
        let response = match &q.body {
            QueryBody::DefineTemplate(d) => self.define_template(&verified, &interp, q, d, &opts),
            QueryBody::Statement(_) => exec(&interp, q, &opts),
        };
        self.audited(response, &sink, &interp, q, &opts)
    }

    /// A response whose audit entry could not be written is withheld (§19.1 `audit_required`).
    fn audited(
        &self,
        response: Response,
        sink: &StoreAudit,
        interp: &Interpreter<Arc<dyn ReadFacade>>,
        q: &Query,
        opts: &ExecOptions,
    ) -> Response {
        let failed = sink.failed.lock().unwrap_or_else(PoisonError::into_inner).take();
        match failed {
            None => response,
            Some(e) => {
                let d = Diagnostic::new(
                    Code::E030,
                    q.span,
                    format!("The audit entry of this request could not be written ({e}); its result is withheld."),
                )
                .with_suggestion("Try again; every CAL execution on this store must be audited.");
                let mut config = interp.config().clone();
                config.audit = None;
                Interpreter::new(interp.facade().clone(), config).refuse(q, opts, d)
            }
        }
    }

    fn define_template(
        &self,
        verified: &Verified,
        interp: &Interpreter<Arc<dyn ReadFacade>>,
        q: &Query,
        d: &cal_parser::ast::DefineTemplate,
        opts: &ExecOptions,
    ) -> Response {
        if cal_checker::validate_definition(d).is_err() {
            // The interpreter reports the define-time error.
            return interp.execute(q, opts);
        }
        let ns = verified.token().namespace.as_str();
        let body = cal_parser::print::query_to_text(q);
        let slot = self.store.transaction(|tx: &Tx<'_>| tx.define_template(ns, &d.name.name, &body, MAX_TEMPLATES));
        match slot {
            Ok(TemplateSlot::Defined(_)) => {
                *self.templates_loaded.lock().unwrap_or_else(PoisonError::into_inner) += 1;
                interp.execute(q, opts)
            }
            Ok(TemplateSlot::Taken) => interp.refuse(
                q,
                opts,
                Diagnostic::new(Code::E088, d.name.span, format!("Template `{}` already exists.", d.name.name))
                    .with_suggestion("Choose another name: a template cannot be redefined."),
            ),
            Ok(TemplateSlot::Full) => interp.refuse(
                q,
                opts,
                Diagnostic::new(
                    Code::E089,
                    d.name.span,
                    format!("This namespace already has {MAX_TEMPLATES} templates."),
                )
                .with_suggestion(
                    "Reuse one of the namespace's templates, or write this one inline: FORMAT TEMPLATE { … }.",
                ),
            ),
            Err(e) => interp.refuse(q, opts, store_refusal(&e, d.span)),
        }
    }

    /// Prepare (§18.2): the gate, then the store-aware preview of an evolve statement,
    /// judged by a dry run of the very write execute will perform. Returns the signed
    /// prepared token with the plan and the preview, or the refusal. A read statement is
    /// prepared too, with no side effects (`prepared_read.rs`, ruling S17).
    pub fn prepare<'a>(
        &self,
        caller: impl Into<Caller<'a>>,
        q: &Query,
        opts: &ExecOptions,
    ) -> Result<Prepared, Response> {
        let admitted = self.admit(caller.into(), q, opts)?;
        if matches!(&q.body, QueryBody::Statement(s) if !s.is_tier1()) {
            return self.prepare_read(admitted, q);
        }
        let Admitted { verified, interp, opts, .. } = admitted;
        let preview = interp.preview(q, &opts).map_err(|d| interp.refuse(q, &opts, d))?;
        let t = verified.token();
        let written = preview.grain.grain_type().name().and_then(cal_grammar::GrainType::from_singular);
        let Some(ty) = written else {
            return Err(interp.refuse(q, &opts, bug(q.span, "an evolve preview of a non-standard grain type")));
        };
        gate::may_write(&verified, ty, q.span).map_err(|d| interp.refuse(q, &opts, d))?;
        let quota_left = self
            .store
            .dry_run(|tx: &Tx<'_>| tx.quota_used(&t.token_id))
            .map(|used| t.write_quota_remaining.saturating_sub(used));
        if quota_left == Ok(0) {
            return Err(interp.refuse(q, &opts, quota_exhausted(q.span, t.write_quota_remaining)));
        }
        if let Err(e) = self.store.dry_run(|tx: &Tx<'_>| perform(tx, &preview)) {
            return Err(interp.refuse(q, &opts, store_refusal(&e, q.span)));
        }
        let unsigned = PreparedToken::of_statement(t, q, opts.now_ms).map_err(|e| {
            interp.refuse(
                q,
                &opts,
                Diagnostic::new(Code::E030, q.span, format!("No prepared token could be made: {e}.")),
            )
        })?;
        let prepared = PreparedToken {
            operation: preview.operation.as_str().to_string(),
            grain_type: preview.grain.grain_type().name().unwrap_or_default().to_string(),
            blob: oms::address::hex(&preview.blob),
            new_hash: hash_text(&preview.address),
            target_hash: preview.target.as_ref().map(hash_text),
            restored_hash: preview.restored.as_ref().map(hash_text),
            reason: preview.reason.clone(),
            ..unsigned
        }
        .sign(&self.key);
        let actor = cal_interp::audit::pseudonym(&self.config.audit_key, &t.user_id);
        let entry = prepared.prepare_audit(actor, opts.agent_id.as_deref(), 1, &prepared.operation);
        self.store.append_audit(&entry).map_err(|e| interp.refuse(q, &opts, store_refusal(&e, q.span)))?;
        Ok(Prepared {
            plan: interp.plan(q, &opts).to_json(),
            tier: 1,
            side_effects: preview.to_json(),
            token: prepared,
        })
    }

    /// Execute (§18.2): performs exactly the previewed write of a prepared token, in one
    /// transaction with its use, its quota, its rate and its audit entry, or refuses (CAL-E040
    /// when the store changed so that the preview no longer holds).
    pub fn execute(&self, prepared: &str, opts: &ExecOptions) -> Response {
        self.execute_in(None, prepared, opts)
    }

    /// [`Service::execute`] for a transport that addresses a memory: the prepared statement
    /// must have been prepared for it (CAL-E902 otherwise).
    pub fn execute_in(&self, memory: Option<&str>, prepared: &str, opts: &ExecOptions) -> Response {
        let started = std::time::Instant::now();
        let p = match PreparedToken::verify(prepared, &self.key, opts.now_ms) {
            Ok(p) => p,
            Err(e) => return self.bare_refusal(gate::refused(e.to_string())),
        };
        let Some(q) = cal_parser::parse_query(&p.query).ast else {
            return self.bare_refusal(gate::refused("the prepared token's statement does not parse"));
        };
        if p.operation == prepared_read::READ {
            return self.execute_read(memory, &p, &q, opts);
        }
        let mut opts = opts.clone();
        opts.user = Some(p.user_id.clone());
        if self.switch(Switch::Master) {
            return self.refuse_early(&q, &opts, master_off(), "master switch on".into());
        }
        let preview = match preview_of(&p) {
            Some(v) => v,
            None => return self.bare_refusal(gate::refused("the prepared token's contents are damaged")),
        };
        let (interp, _sink) = self.interpreter(Some(Who::prepared(&p)), None);
        if let Some(memory) = memory
            && memory != p.namespace
        {
            return interp.refuse(&q, &opts, gate::other_memory(memory, &p.namespace));
        }
        if self.switch(Switch::Tier1) {
            return interp.refuse(&q, &opts, tier1_off(q.span));
        }
        let rates = self.config.rates;
        let ns = p.namespace.clone();
        let written = self.store.transaction(|tx: &Tx<'_>| -> Result<(), WriteError> {
            if !tx.spend_use(&p.prepared_id, 1)? {
                let r = gate::refused("the prepared statement was executed already");
                return Err(WriteError::Refused(r.diagnostic, r.reason));
            }
            if !tx.take_quota(&p.token_id, p.write_quota)? {
                return Err(WriteError::Refused(quota_exhausted(q.span, p.write_quota), "write quota spent".into()));
            }
            let (limit, code) = match preview.operation {
                Operation::Add => (rates.add, Code::E052),
                Operation::Supersede => (rates.supersede, Code::E043),
                Operation::Revert => (rates.revert, Code::E043),
            };
            let op = preview.operation.as_str();
            if !tx.take_rate(&format!("{ns}\u{0}{op}"), limit, 60_000)? {
                return Err(WriteError::Refused(rate_exceeded(code, q.span, op, limit), format!("{op} rate")));
            }
            if !tx.take_rate(&format!("{ns}\u{0}evolve"), rates.evolve, 60_000)? {
                return Err(WriteError::Refused(
                    rate_exceeded(Code::E043, q.span, "evolve", rates.evolve),
                    "evolve rate".into(),
                ));
            }
            if let Some(t) = &preview.target
                && let Some(by) = tx.superseded_by(t)?
            {
                let d = Diagnostic::new(
                    Code::E040,
                    q.span,
                    format!(
                        "The store changed since prepare: {} was superseded by {} in the meantime.",
                        hash_text(t),
                        hash_text(&by)
                    ),
                )
                .with_suggestion("Prepare the statement again against the current version.");
                return Err(WriteError::Refused(d, "store changed since prepare".into()));
            }
            perform(tx, &preview).map_err(|e| WriteError::Refused(store_refusal(&e, q.span), e.to_string()))?;
            tx.append_audit(&json!({
                "token_id": p.token_id,
                "query_hash": p.query_hash,
                "namespace": p.namespace,
                "actor_id": cal_interp::audit::pseudonym(&self.config.audit_key, &p.user_id),
                "agent_id": opts.agent_id,
                "operation": p.operation,
                "target_hash": p.target_hash,
                "new_hash": p.new_hash,
                "reason": p.reason,
                "tier": 1,
                "duration_ms": u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
                "phase": "execute",
                "prepared_id": p.prepared_id,
                "statement_type": p.operation,
                "error": null,
            }))?;
            Ok(())
        });
        let mut config = interp.config().clone();
        match written {
            Ok(()) => {
                config.audit = None;
                let mut response = Interpreter::new(interp.facade().clone(), config).evolved(&q, &opts, Ok(&preview));
                if let Some(w) = self.embed_written(&preview, q.span) {
                    crate::request::merge_warnings(&mut response.json, std::slice::from_ref(&w));
                    response.warnings.push(w);
                }
                response
            }
            Err(WriteError::Refused(d, reason)) => {
                let (interp, _) = self.interpreter(Some(Who::prepared(&p)), Some(reason));
                interp.evolved(&q, &opts, Err(d))
            }
            Err(WriteError::Store(e)) => {
                let (interp, _) = self.interpreter(Some(Who::prepared(&p)), Some(e.to_string()));
                interp.evolved(&q, &opts, Err(store_refusal(&e, q.span)))
            }
        }
    }

    /// Embeds a grain just written, when the store has an embedder (§16.4), so that it is found
    /// by meaning at once. The write stands whatever happens here: a failure is CAL-W901 on the
    /// response, and `cal store embed` catches up later.
    fn embed_written(&self, preview: &Preview, span: Span) -> Option<Diagnostic> {
        let retriever = self.config.interp.semantic.as_ref()?;
        let written = [(preview.address, &preview.grain)];
        let e = cal_embed::durable::embed_new(retriever, &self.store, &written, |_| {}).err()?;
        Some(not_embedded(span, &e))
    }

    /// The response to a request that carries no readable query (a damaged prepared token).
    fn bare_refusal(&self, r: Refusal) -> Response {
        self.refuse_unparsed("execute", 1, None, r.diagnostic, Some(r.reason))
    }

    /// The response to a request refused before it was a query (its text did not parse or
    /// check, or a prepared token is damaged): the §14.1 envelope with the error, audited.
    /// The token is not verified here: its id is recorded only when it reads as a token.
    fn refuse_unparsed(
        &self,
        statement_type: &'static str,
        tier: u8,
        token: Option<&str>,
        d: Diagnostic,
        reason: Option<String>,
    ) -> Response {
        let token_id = token.and_then(|t| crate::CapabilityToken::parse(t).ok()).map(|t| t.token_id);
        let _ = self.store.append_audit(&json!({
            "token_id": token_id,
            "statement_type": statement_type,
            "tier": tier,
            "error": d.code.as_str(),
            "refusal_reason": reason,
        }));
        crate::request::refusal(statement_type, tier, d)
    }

    /// A request's text and parameters as one query, or the response that refuses it
    /// (its first static error, audited). Warnings travel with the query.
    pub fn read_request(
        &self,
        caller: Caller<'_>,
        text: &str,
        params: &cal_checker::Params,
    ) -> Result<(Query, Vec<Diagnostic>), Response> {
        crate::request::one_query(text, params).map_err(|errors| {
            let first = errors
                .into_iter()
                .next()
                .unwrap_or_else(|| Diagnostic::new(Code::E014, Span::default(), "The request holds no query."));
            self.refuse_unparsed("query", 0, Some(caller.token), first, None)
        })
    }
}

/// Turns a kill switch of `store` on or off with its audit entry (`actor_id` already
/// pseudonymized, or `None` for the local operator of `cal store switch`).
pub fn set_switch(
    store: &DurableStore,
    s: Switch,
    on: bool,
    actor_id: Option<&str>,
    reason: &str,
) -> Result<(), OmsError> {
    let entry = json!({
        "statement_type": "switch",
        "switch": s.as_str(),
        "on": on,
        "actor_id": actor_id,
        "reason": reason,
    });
    store.set_switch(s.as_str(), on, &entry)
}

/// The write a preview describes, inside `tx`; the stored address must be the previewed one.
fn perform(tx: &Tx<'_>, p: &Preview) -> Result<(), OmsError> {
    let stored = match (p.operation, &p.target) {
        (Operation::Add, _) => tx.put(&p.blob)?,
        (Operation::Supersede | Operation::Revert, Some(target)) => tx.supersede(target, &p.blob, Some(&p.reason))?,
        _ => return Err(OmsError::Bug { detail: "an evolve preview without its target".into() }),
    };
    if stored != p.address {
        return Err(OmsError::Bug { detail: format!("stored {stored}, previewed {}", p.address) });
    }
    if let (Operation::Revert, Some(target), Some(restored)) = (p.operation, &p.target, &p.restored) {
        tx.record_revert(target, restored, &p.address)?;
    }
    Ok(())
}

/// The preview a prepared token carries.
fn preview_of(p: &PreparedToken) -> Option<Preview> {
    let blob = p.blob_bytes()?;
    let grain = oms::decode(&blob).ok()?;
    let address = parse_hash(&p.new_hash)?;
    let operation = match p.operation.as_str() {
        "add" => Operation::Add,
        "supersede" => Operation::Supersede,
        "revert" => Operation::Revert,
        _ => return None,
    };
    Some(Preview {
        operation,
        grain,
        blob,
        address,
        target: p.target_hash.as_deref().and_then(parse_hash),
        restored: p.restored_hash.as_deref().and_then(parse_hash),
        reason: p.reason.clone(),
        policy: None,
        namespace: p.namespace.clone(),
    })
}

/// Every operation a query needs, for callers that report them.
pub fn operations(q: &Query) -> Vec<Op> {
    gate::required_ops(q).into_iter().map(|n| n.op).collect()
}
