//! The response: the machine envelope of §14.1 (`_cal` with version,
//! statement type, tier, query hash, duration and budget) around the
//! statement's members — for grain results the OMS §28.1 envelope
//! (`results`, `total`, `next_cursor`) — or an §22.1 `error` object.
//!
//! Key order is fixed and every map that reaches the output is built in a
//! fixed order, so equal inputs give byte-identical output (§17.4).

use cal_grammar::{Code, Diagnostic};
use cal_parser::ast::Query;
use cal_planner::Plan;
use serde_json::{Map, Value as Json, json};
use sha2::{Digest, Sha256};

use crate::context::Ctx;
pub use crate::errors::diagnostic_json;
use crate::outcome::Outcome;

/// The CAL version this interpreter implements, as `_cal.version` reports it.
pub const CAL_VERSION: &str = "1.0";

/// One response.
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    /// `recall`, `explain`, … (also in `_cal`).
    pub statement_type: &'static str,
    /// The whole response as JSON.
    pub json: Json,
    /// The error, when the statement failed (also in `json.error`).
    pub error: Option<Diagnostic>,
    /// Warnings raised while running (also in `json._cal.warnings`).
    pub warnings: Vec<Diagnostic>,
}

impl Response {
    /// Whether the statement failed.
    pub fn is_error(&self) -> bool {
        self.error.is_some()
    }

    /// Pretty-printed JSON, the form `cal run` prints.
    pub fn to_pretty(&self) -> String {
        serde_json::to_string_pretty(&self.json).unwrap_or_else(|_| self.json.to_string())
    }
}

/// `sha256:` + SHA-256 of the query's canonical text (§14.1, §21 "normalized CAL string").
pub fn query_hash(q: &Query) -> String {
    let text = cal_parser::print::query_to_text(q);
    format!("sha256:{}", oms::address::hex(&Sha256::digest(text.as_bytes())))
}

/// An opaque cursor: the next page's offset, bound to the query's hash.
pub fn cursor(query_hash: &str, offset: usize) -> String {
    let h = query_hash.strip_prefix("sha256:").unwrap_or(query_hash);
    format!("cursor:{:016x}{}", offset as u64, h.get(..16).unwrap_or(h))
}

/// The offset of a cursor issued for this query (CAL-E020 for another query's).
pub fn decode_cursor(c: &str, query_hash: &str) -> Result<usize, Diagnostic> {
    let h = query_hash.strip_prefix("sha256:").unwrap_or(query_hash);
    let bad = || {
        Diagnostic::new(Code::E020, Default::default(), "The cursor does not belong to this query.")
            .with_suggestion("Pass the next_cursor of a response to the same query, unchanged.")
    };
    let body = c.strip_prefix("cursor:").ok_or_else(bad)?;
    if body.len() < 16 || body.get(16..) != h.get(..16) {
        return Err(bad());
    }
    let n = u64::from_str_radix(body.get(..16).ok_or_else(bad)?, 16).map_err(|_| bad())?;
    usize::try_from(n).map_err(|_| bad())
}

/// Wraps a statement's result in the envelope: the one place an [`Outcome`] becomes members.
pub fn respond(cx: &Ctx<'_>, plan: &Plan, result: Result<Outcome, Diagnostic>, duration_ms: u64) -> Response {
    let s = &cx.stats;
    let mut cal = Map::new();
    cal.insert("version".into(), CAL_VERSION.into());
    cal.insert("statement_type".into(), plan.statement_type.into());
    cal.insert("tier".into(), plan.tier.into());
    cal.insert("query_hash".into(), cx.query_hash.clone().into());
    cal.insert("duration_ms".into(), duration_ms.into());
    cal.insert(
        "budget".into(),
        json!({ "tokens_used": s.tokens, "grains_returned": s.returned, "grains_scanned": s.scanned }),
    );
    cal.insert("store_ops".into(), s.store_ops.into());
    if !s.warnings.is_empty() {
        cal.insert("warnings".into(), Json::Array(s.warnings.iter().map(diagnostic_json).collect()));
    }
    if !s.notes.is_empty() {
        cal.insert("notes".into(), json!(s.notes));
    }
    let mut out = Map::new();
    out.insert("_cal".into(), Json::Object(cal));
    let error = match result {
        Ok(body) => {
            out.extend(body.into_members());
            None
        }
        Err(d) => {
            out.insert("error".into(), diagnostic_json(&d));
            Some(d)
        }
    };
    Response { statement_type: plan.statement_type, json: Json::Object(out), error, warnings: s.warnings.clone() }
}
