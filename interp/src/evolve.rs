//! Tier 1 statements as previews (§8.8–§8.10, §18.2): what an ADD, SUPERSEDE
//! or REVERT would write, computed against the current store, to the byte.
//!
//! A [`Preview`] holds the exact canonical blob the write will store (its
//! `created_at` fixed when the preview is made), its future content address,
//! the target resolved to a stored grain, and, for REVERT, the version whose
//! content it restores. The interpreter writes nothing: EXPLAIN shows a
//! preview, and the service layer's prepare/execute stores exactly the
//! previewed blob, judged once more by the store's own policy code.
//!
//! Refusals, in the order they are judged: the target does not exist
//! (CAL-E046), lies in another namespace than the request's (E045), is not a
//! belief (E042), has no previous version to restore (REVERT, E041), or was
//! superseded already (E040); an ADD of a type that cannot be added (E051)
//! or without the triple (E050).
//!
//! The CAL → OMS mapping of SET fields is the binding's
//! ([`cal_grammar::binding`]) read backwards: `tags` is `structural_tags`, a
//! goal state word is stored as its OMS state, `depends_on` is a list.
//! Defaults (docs/spec-decisions-service.md S9): `confidence` 0.9 (the
//! value of §8.8's example, "implementation-defined"), a goal is `active`
//! with its `object` as its `description`, an observation's observer is the
//! requesting user (`observer_type` `"agent"`).

use cal_grammar::binding::{self, goal_state_to_oms};
use cal_grammar::fields::names;
use cal_grammar::{Code, Diagnostic, GrainType, Span};
use cal_parser::ast::{Add, Revert, SetClause, Statement, Supersede, Target};
use oms::store::Stored;
use oms::{ContentAddress, Grain, Map, Value};
use serde::Serialize;
use serde_json::{Value as Json, json};

use crate::context::Ctx;
use crate::history::not_found;
use crate::recall::ambiguous;
use crate::timeexpr;
use crate::values::{self, Lit};

/// The confidence of an added belief that does not SET one.
pub const DEFAULT_CONFIDENCE: f64 = 0.9;

/// The observer type of an added observation that does not SET one.
pub const DEFAULT_OBSERVER_TYPE: &str = "agent";

/// The namespace of a grain added by a request confined to none.
pub const DEFAULT_NAMESPACE: &str = "default";

/// Which evolve statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Operation {
    /// ADD (§8.8).
    Add,
    /// SUPERSEDE (§8.9).
    Supersede,
    /// REVERT (§8.10).
    Revert,
}

impl Operation {
    /// The §21 `operation` word.
    pub const fn as_str(self) -> &'static str {
        match self {
            Operation::Add => "add",
            Operation::Supersede => "supersede",
            Operation::Revert => "revert",
        }
    }
}

/// What an evolve statement will write, exactly.
#[derive(Debug, Clone)]
pub struct Preview {
    /// Which statement.
    pub operation: Operation,
    /// The grain to store.
    pub grain: Grain,
    /// Its canonical blob, byte for byte as it will be stored.
    pub blob: Vec<u8>,
    /// Its content address.
    pub address: ContentAddress,
    /// The grain it supersedes (SUPERSEDE, REVERT): the head of its chain.
    pub target: Option<ContentAddress>,
    /// The version whose content REVERT restores.
    pub restored: Option<ContentAddress>,
    /// REASON.
    pub reason: String,
    /// The invalidation policy protecting the target, when it has one (§23 mode).
    pub policy: Option<String>,
    /// The namespace written to.
    pub namespace: String,
}

impl Preview {
    /// The side effects in words, in the order they happen.
    pub fn side_effects(&self) -> Vec<String> {
        let ty = self.grain.grain_type().name().unwrap_or("grain");
        let new = format!("sha256:{}", self.address.to_hex());
        let mut out = Vec::new();
        match (self.operation, self.target, self.restored) {
            (Operation::Add, ..) => {
                out.push(format!("put: store 1 new {ty} grain {new} in namespace {:?}", self.namespace));
                out.push("no existing grain is read, changed or removed".into());
            }
            (Operation::Supersede, Some(t), _) => {
                out.push(format!("put: store 1 new {ty} grain {new}, derived from sha256:{}", t.to_hex()));
                out.push(format!(
                    "supersede: sha256:{} leaves the current view (superseded_by {new}); it stays readable WITH superseded",
                    t.to_hex()
                ));
            }
            (Operation::Revert, Some(t), Some(r)) => {
                out.push(format!("put: store 1 new {ty} grain {new} restoring the content of sha256:{}", r.to_hex()));
                out.push(format!(
                    "supersede: sha256:{} leaves the current view (superseded_by {new}); every version stays readable",
                    t.to_hex()
                ));
            }
            _ => {}
        }
        if let Some(p) = &self.policy {
            out.push(format!("policy: the target is protected by invalidation_policy mode {p:?}, judged at execute"));
        }
        out
    }

    /// The preview as the `side_effects` member of EXPLAIN and of a prepared statement.
    pub fn to_json(&self) -> Json {
        json!({
            "operation": self.operation,
            "namespace": self.namespace,
            "new_hash": format!("sha256:{}", self.address.to_hex()),
            "grain_type": self.grain.grain_type().name().unwrap_or("grain"),
            "grain": oms::json::map_to_json(self.grain.fields()),
            "target_hash": self.target.map(|t| format!("sha256:{}", t.to_hex())),
            "restored_hash": self.restored.map(|r| format!("sha256:{}", r.to_hex())),
            "reason": self.reason,
            "policy": self.policy,
            "effects": self.side_effects(),
        })
    }
}

/// The preview of an evolve statement against the current store, at `cx.opts.now_ms`.
pub fn preview(cx: &Ctx<'_>, s: &Statement) -> Result<Preview, Diagnostic> {
    match s {
        Statement::Add(a) => add(cx, a),
        Statement::Supersede(sup) => supersede(cx, sup),
        Statement::Revert(r) => revert(cx, r),
        Statement::Explain(e) => preview(cx, &e.statement),
        other => Err(crate::context::bug(other.span(), "a read statement was previewed as a write")),
    }
}

fn namespace(cx: &Ctx<'_>) -> String {
    cx.config.namespace.clone().unwrap_or_else(|| DEFAULT_NAMESPACE.to_string())
}

fn reason_of(r: Option<&cal_parser::ast::StringLit>, span: Span) -> Result<String, Diagnostic> {
    r.map(|r| r.value.to_string()).ok_or_else(|| {
        Diagnostic::new(Code::E018, span, "An evolve statement needs a REASON.")
            .with_suggestion("End the statement with REASON \"why\".")
    })
}

fn lit_value(l: Lit) -> Value {
    match l {
        Lit::Str(s) => Value::Str(s),
        Lit::Int(i) => Value::Int(i128::from(i)),
        Lit::Float(f) => Value::Float(f),
        Lit::Bool(b) => Value::Bool(b),
        Lit::Hash(h) => Value::Str(format!("sha256:{h}")),
        Lit::Array(items) => Value::Array(items.into_iter().map(lit_value).collect()),
    }
}

/// Writes one SET clause into the OMS field map, by the binding read backwards.
fn set(cx: &Ctx<'_>, fields: &mut Map, c: &SetClause) -> Result<(), Diagnostic> {
    let name = c.field.name.as_str();
    let lit = values::resolve(cx, &c.value)?;
    let value = match (name, lit) {
        (names::GOAL_STATE, Lit::Str(s)) => Value::Str(goal_state_to_oms(&s).to_string()),
        (names::DEADLINE, Lit::Int(n)) => Value::from(timeexpr::epoch_ms(n as f64)),
        (names::DEADLINE, Lit::Float(n)) => Value::from(timeexpr::epoch_ms(n)),
        (names::DEADLINE, Lit::Str(s)) if oms::time::parse_rfc3339_ms(&s).is_none() => {
            match timeexpr::resolve_text(&s, cx.opts.now_ms) {
                Some(i) => Value::from(i.from),
                None => return Err(timeexpr::unknown(&s, c.value.span)),
            }
        }
        (names::DEPENDS_ON, Lit::Str(s)) | (names::DEPENDS_ON, Lit::Hash(s)) => {
            let hex = s.strip_prefix("sha256:").unwrap_or(&s).to_string();
            Value::Array(vec![Value::Str(hex)])
        }
        (_, lit) => lit_value(lit),
    };
    let field = binding::stored_field(name).unwrap_or(name);
    fields.insert(field.to_string(), value);
    Ok(())
}

fn encode(grain: Grain, span: Span) -> Result<(Grain, Vec<u8>, ContentAddress), Diagnostic> {
    grain.validate().map_err(|e| invalid(&e, span))?;
    let blob = grain.encode().map_err(|e| invalid(&e, span))?;
    Ok((grain, blob.bytes, blob.address))
}

fn invalid(e: &oms::OmsError, span: Span) -> Diagnostic {
    Diagnostic::new(Code::E050, span, format!("The grain this statement writes would not be a valid OMS grain: {e}."))
        .with_suggestion("SET the fields the grain type requires, with values of their types.")
}

fn add(cx: &Ctx<'_>, a: &Add) -> Result<Preview, Diagnostic> {
    let g = a.grain_type.grain_type;
    if !g.is_addable() {
        return Err(Diagnostic::new(
            Code::E051,
            a.grain_type.span,
            format!("{} grains cannot be created with ADD; only belief, observation and goal can.", g.singular()),
        )
        .with_suggestion("ADD a belief, an observation or a goal."));
    }
    let reason = reason_of(a.reason.as_ref(), a.span)?;
    let ns = namespace(cx);
    let mut fields = Map::new();
    fields.insert("type".into(), Value::Str(g.singular().to_string()));
    for c in &a.sets {
        set(cx, &mut fields, c)?;
    }
    for required in cal_grammar::fields::TRIPLE {
        if !fields.contains_key(required) {
            return Err(Diagnostic::new(Code::E050, a.span, format!("ADD must SET {required}."))
                .with_suggestion("SET subject, relation and object."));
        }
    }
    fields.insert("namespace".into(), Value::Str(ns.clone()));
    if let Some(user) = &cx.opts.user {
        fields.insert("user_id".into(), Value::Str(user.clone()));
    }
    fields.insert("created_at".into(), Value::from(cx.opts.now_ms));
    match g {
        GrainType::Belief => {
            fields.entry("confidence".into()).or_insert(Value::Float(DEFAULT_CONFIDENCE));
        }
        GrainType::Goal => {
            let object = fields.get("object").cloned().unwrap_or(Value::Null);
            fields.entry("description".into()).or_insert(object);
            fields.entry("goal_state".into()).or_insert_with(|| Value::Str(goal_state_to_oms("active").into()));
        }
        GrainType::Observation => {
            let observer = cx.opts.user.clone().unwrap_or_else(|| "cal".to_string());
            fields.entry("observer_id".into()).or_insert(Value::Str(observer));
            fields.entry("observer_type".into()).or_insert(Value::Str(DEFAULT_OBSERVER_TYPE.into()));
        }
        _ => {}
    }
    let grain = Grain::new(fields).map_err(|e| invalid(&e, a.span))?;
    let (grain, blob, address) = encode(grain, a.span)?;
    Ok(Preview {
        operation: Operation::Add,
        grain,
        blob,
        address,
        target: None,
        restored: None,
        reason,
        policy: None,
        namespace: ns,
    })
}

/// The stored grain a target names, by the rules every evolve statement shares: E046 when
/// none, E015 when a prefix names several, E045 when it lies outside the request's namespace,
/// E042 when it is not a belief.
fn target(cx: &Ctx<'_>, t: &Target, verb: &str) -> Result<Stored, Diagnostic> {
    let hex = values::target_hex(cx, t)?;
    let found = cx.facade.resolve_prefix(&hex, 2);
    let address = match found.as_slice() {
        [one] => *one,
        [] => return Err(not_found(&hex, t.span)),
        _ => return Err(ambiguous(&hex, t.span)),
    };
    let stored = cx.facade.get(&address).ok_or_else(|| not_found(&hex, t.span))?;
    if let Some(ns) = &cx.config.namespace
        && stored.grain().namespace() != Some(ns.as_str())
    {
        return Err(Diagnostic::new(
            Code::E045,
            t.span,
            format!("sha256:{hex} belongs to another namespace than this request's ({ns:?}); it cannot {verb} it."),
        )
        .with_suggestion("Evolve only grains of your token's namespace."));
    }
    if stored.grain().grain_type() != oms::GrainType::Belief {
        return Err(Diagnostic::new(
            Code::E042,
            t.span,
            format!(
                "sha256:{hex} is a {} grain; only belief grains can be evolved with CAL (§8.9).",
                stored.grain().grain_type().name().unwrap_or("unknown")
            ),
        )
        .with_suggestion("Record a new grain with ADD instead."));
    }
    Ok(stored)
}

fn not_current(stored: &Stored, span: Span) -> Option<Diagnostic> {
    let by = stored.index.superseded_by?;
    Some(
        Diagnostic::new(
            Code::E040,
            span,
            format!("sha256:{} was superseded already, by sha256:{}.", stored.address.to_hex(), by.to_hex()),
        )
        .with_suggestion(format!(
            "Evolve the current version: HISTORY sha256:{} names the head of the chain.",
            stored.address.to_hex()
        )),
    )
}

fn policy_mode(stored: &Stored) -> Option<String> {
    let p = stored.grain().get("invalidation_policy")?.as_map()?;
    Some(p.get("mode").and_then(Value::as_str).unwrap_or("locked").to_string())
}

/// The fields a new version carries over from the version it copies: everything but what
/// describes the copy itself (its time, lineage and authorizations).
fn carried(stored: &Stored) -> Map {
    const FRESH: &[&str] = &[
        "created_at",
        "derived_from",
        "supersession_justification",
        "supersession_auth",
        "system_valid_from",
        "system_valid_to",
    ];
    let mut m = stored.grain().fields().clone();
    for f in FRESH {
        m.remove(*f);
    }
    m
}

fn new_version(mut fields: Map, target: &Stored, reason: &str, now_ms: i64) -> Map {
    fields.insert("created_at".into(), Value::from(now_ms));
    fields.insert("derived_from".into(), Value::Array(vec![Value::Str(target.address.to_hex())]));
    fields.insert("supersession_justification".into(), Value::Str(reason.to_string()));
    fields
}

fn supersede(cx: &Ctx<'_>, s: &Supersede) -> Result<Preview, Diagnostic> {
    let stored = target(cx, &s.target, "supersede")?;
    if let Some(d) = not_current(&stored, s.target.span) {
        return Err(d);
    }
    let reason = reason_of(s.reason.as_ref(), s.span)?;
    let mut fields = carried(&stored);
    for c in &s.sets {
        set(cx, &mut fields, c)?;
    }
    version_preview(Operation::Supersede, fields, &stored, None, reason, cx.opts.now_ms, s.span)
}

/// The preview of a new version of `target` with `fields` (SUPERSEDE, REVERT).
fn version_preview(
    operation: Operation,
    fields: Map,
    target: &Stored,
    restored: Option<ContentAddress>,
    reason: String,
    now_ms: i64,
    span: Span,
) -> Result<Preview, Diagnostic> {
    let fields = new_version(fields, target, &reason, now_ms);
    let grain = Grain::new(fields).map_err(|e| invalid(&e, span))?;
    let (grain, blob, address) = encode(grain, span)?;
    Ok(Preview {
        operation,
        grain,
        blob,
        address,
        target: Some(target.address),
        restored,
        reason,
        policy: policy_mode(target),
        namespace: target.grain().namespace().unwrap_or(DEFAULT_NAMESPACE).to_string(),
    })
}

fn revert(cx: &Ctx<'_>, r: &Revert) -> Result<Preview, Diagnostic> {
    let stored = target(cx, &r.target, "revert")?;
    let chain = cx.facade.get_history(&stored.address).map_err(|e| {
        Diagnostic::new(Code::E030, r.target.span, format!("The version chain could not be read: {e}."))
            .with_suggestion("Run `cal store verify` on the store.")
    })?;
    let at = chain.iter().position(|v| v.address == stored.address);
    let previous = match at {
        Some(i) if i > 0 => chain[i - 1].clone(),
        _ => {
            return Err(Diagnostic::new(
                Code::E041,
                r.target.span,
                format!(
                    "sha256:{} is an original grain: there is no previous version to restore.",
                    stored.address.to_hex()
                ),
            )
            .with_suggestion("REVERT names a version that superseded another; HISTORY shows the chain."));
        }
    };
    if let Some(d) = not_current(&stored, r.target.span) {
        return Err(d);
    }
    let reason = reason_of(r.reason.as_ref(), r.span)?;
    version_preview(
        Operation::Revert,
        carried(&previous),
        &stored,
        Some(previous.address),
        reason,
        cx.opts.now_ms,
        r.span,
    )
}
