//! Evolve cases for the in-process implementation: a request under a Tier 1
//! capability whose query (or a setup query) is ADD, SUPERSEDE or REVERT runs
//! on a real database made from the fixture, through the service layer's
//! two-phase flow (§18.2: prepare, then execute the prepared token), exactly
//! as `cal prepare` / `cal execute` and the server do. Read queries of the
//! same session run through the same service, so a case declares the store
//! change its setup writes make and checks it with a follow-up read. The
//! digests are the database's, taken around the query: a write in the query
//! itself shows as a changed store, and is read back by the session's `then`
//! queries (ruling C23).

use std::sync::Arc;

use cal_checker::Params;
use cal_grammar::GrainType;
use cal_parser::ast::{Query, QueryBody};
use cal_service::{Claims, ServerKey, Service, ServiceConfig};
use oms::durable::DurableStore;
use oms::store::StoreConfig;
use serde_json::{Map, Value, json};

use super::{Capability, request_options, static_error};
use crate::case::Session;
use crate::protocol::Answer;

fn parsed(text: &str, params: &Params) -> Result<Query, Value> {
    let analysis = cal_checker::analyze(text, Some(params));
    if let Some(first) = analysis.pipeline_diagnostics().into_iter().find(|d| d.is_error()) {
        return Err(static_error(first, Vec::new()));
    }
    match analysis.document.map(|d| d.queries) {
        Some(mut qs) if qs.len() == 1 => Ok(qs.remove(0)),
        _ => Err(json!({ "error": { "code": "CAL-E002", "message": "an execute case holds exactly one query" } })),
    }
}

fn is_evolve(text: &str) -> bool {
    cal_parser::parse_query(text).ast.is_some_and(|q| matches!(&q.body, QueryBody::Statement(s) if s.is_tier1()))
}

/// Answers the request when it is an evolve request (see the module docs); `None` otherwise.
pub(crate) fn execute(
    fixture: &[u8],
    before: &str,
    query: &str,
    now_ms: i64,
    params: &Map<String, Value>,
    capability: Option<&str>,
    session: &Session,
) -> Option<Answer> {
    let cap = Capability::parse(capability);
    if !cap.tier1 || !(is_evolve(query) || session.setup.iter().any(|s| is_evolve(s))) {
        return None;
    }
    Some(run(fixture, before, query, now_ms, params, &cap, session).unwrap_or_else(Answer::Errored))
}

fn run(
    fixture: &[u8],
    before: &str,
    query: &str,
    now_ms: i64,
    params: &Map<String, Value>,
    cap: &Capability,
    session: &Session,
) -> Result<Answer, String> {
    let dir = tempfile::tempdir().map_err(|e| format!("no temporary directory: {e}"))?;
    let path = dir.path().join("evolve.db");
    let store = DurableStore::create(&path, StoreConfig::fixed_clock(now_ms)).map_err(|e| e.to_string())?;
    store.import_mg(fixture).map_err(|e| format!("the fixture does not import: {e}"))?;
    let key = ServerKey::generate().map_err(|e| e.to_string())?;
    let token = Claims {
        namespace: cap.namespace.clone().unwrap_or_else(|| "default".into()),
        user_id: cap.user.clone().unwrap_or_else(|| "conformance".into()),
        tier: 1,
        ops: None,
        grain_types: vec![GrainType::Belief, GrainType::Observation, GrainType::Goal],
        quota: cap.write_quota.unwrap_or(100),
        ttl_ms: 3_600_000,
        max_uses: 1_000,
    }
    .issue(&key, now_ms)
    .map_err(|e| e.to_string())?
    .to_json();
    let store = Arc::new(store);
    let service = Service::new(store.clone(), key, ServiceConfig::default());
    let (bound, opts) = request_options(params, cap, now_ms);
    let answer = |text: &str| -> Value {
        let q = match parsed(text, &bound) {
            Ok(q) => q,
            Err(static_error) => return static_error,
        };
        if !is_evolve(text) {
            return service.run(&token, &q, &opts).json;
        }
        match service.prepare(&token, &q, &opts) {
            Ok(p) => service.execute(&p.token.to_json(), &opts).json,
            Err(refused) => refused.json,
        }
    };
    for (i, text) in session.setup.iter().enumerate() {
        let response = answer(text);
        if let Some(code) = response.pointer("/error/code") {
            return Err(format!("setup query {} was refused with {code}: {text}", i + 1));
        }
    }
    // Setup writes belong to the case's session; the digests are taken around the query, so a
    // follow-up read is judged like any read and a write in the query itself shows as a change.
    let before =
        if session.setup.is_empty() { before.to_string() } else { store.digest().map_err(|e| e.to_string())? };
    let response = answer(query);
    let after = store.digest().map_err(|e| e.to_string())?;
    let mut result = json!({ "response": response, "store_digest_before": before, "store_digest_after": after });
    // Read-backs of the query's own write, in the same session, before the copy is dropped.
    if !session.then.is_empty() {
        result["then"] = Value::Array(session.then.iter().map(|text| answer(text)).collect());
    }
    Ok(Answer::Ok(result))
}
