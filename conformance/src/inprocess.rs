//! Our toolchain as an [`Implementation`], in-process: the front end
//! (`cal-checker::analyze`, the same entry point as `cal check`), the wire
//! format (`cal-parser::json`), execution (`cal-interp`, in
//! [`crate::inprocess_exec`]) and the OMS codec (`oms`). Every answer is the
//! protocol's result object, so `cal conformance adapter` only has to print it.

use crate::case::Level;
use crate::implementation::Implementation;
use crate::inprocess_exec::Fixtures;
use crate::protocol::{Answer, Hello, Request};
use crate::raw::{decode_hex, encode_hex};
use cal_grammar::limits::{LIMITS, LimitInfo};
use cal_grammar::{Diagnostic, LineIndex, Phase};
use serde_json::{Map, Value, json};

/// The level our toolchain declares, the one DESCRIBE capabilities states
/// (`cal_interp::DECLARED_LEVEL`, checked equal by a test): Evolve, with Tier 1
/// run through the service layer's prepare/execute on a database made from the
/// fixture. Full is not claimed while its transports are missing (its cases
/// are still run and reported).
pub const DECLARED_LEVEL: Level = Level::Evolve;

/// The reference toolchain, in-process.
#[derive(Default)]
pub struct InProcess {
    fixtures: Fixtures,
}

impl InProcess {
    /// A fresh instance with no fixture loaded.
    pub fn new() -> Self {
        InProcess::default()
    }

    /// An instance whose fixtures are embedded with `embedder`: it then offers cross-lingual
    /// search (§16.4), and the runner sends it the cases that need it.
    pub fn with_embedder(embedder: cal_embed::EmbedderConfig) -> Self {
        let mut me = InProcess::default();
        me.fixtures.embedder = Some(embedder);
        me
    }
}

impl Implementation for InProcess {
    fn hello(&mut self) -> Result<Hello, String> {
        let mut h = hello();
        if self.fixtures.embedder.is_some() {
            h.lacks.retain(|c| *c != crate::capability::Capability::CrossLingualSearch);
        }
        Ok(h)
    }

    fn request(&mut self, request: &Request) -> Answer {
        // No input may panic (CONTRIBUTING.md); if one does, the case is errored and the run goes on.
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.answer(request))) {
            Ok(answer) => answer,
            Err(payload) => {
                let what = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".into());
                Answer::Errored(format!("the toolchain panicked ({what}); this is a bug, please report it"))
            }
        }
    }
}

impl InProcess {
    /// Answers one request (the body of [`Implementation::request`], outside the panic guard).
    fn answer(&mut self, request: &Request) -> Answer {
        match request {
            Request::Parse { query, query_hex } => match (query, query_hex) {
                (Some(q), None) => Answer::Ok(parse(q.as_bytes())),
                (None, Some(h)) => match decode_hex(h) {
                    Some(bytes) => Answer::Ok(parse(&bytes)),
                    None => Answer::Errored("query_hex is not valid hex".into()),
                },
                _ => Answer::Errored("a parse request has exactly one of query and query_hex".into()),
            },
            Request::Serialize { query, json } => match (query, json) {
                (Some(q), None) => Answer::Ok(text_to_json(q)),
                (None, Some(j)) => Answer::Ok(json_to_text(j)),
                _ => Answer::Errored("a serialize request has exactly one of query and json".into()),
            },
            Request::LoadFixture { name, path } => self.fixtures.load(name, std::path::Path::new(path)),
            Request::Execute { fixture, query, clock, params, capability, session } => {
                self.fixtures.execute(fixture, query, clock, params, capability.as_deref(), session)
            }
            Request::MgEncode { grain } => Answer::Ok(mg_encode(grain)),
            Request::MgDecode { hex } => match decode_hex(hex) {
                Some(bytes) => Answer::Ok(mg_decode(&bytes)),
                None => Answer::Errored("hex is not valid hex".into()),
            },
        }
    }
}

/// Our `hello`: the declared level and every configurable limit of the grammar's table.
pub fn hello() -> Hello {
    let limits: Map<String, Value> = LIMITS
        .iter()
        .filter(|l: &&LimitInfo| l.configurable)
        .map(|l| (l.name.to_string(), Value::from(l.value)))
        .collect();
    Hello {
        name: "cal (reference toolchain)".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        level: DECLARED_LEVEL,
        limits,
        // No HTTP binding in-process (`cal conformance adapter` adds ours, `adapter::serve_with`),
        // and no semantic search without an embedder (`with_embedder`).
        lacks: vec![crate::capability::Capability::Http, crate::capability::Capability::CrossLingualSearch],
    }
}

/// The case-file phase of a diagnostic: the registry's earliest phase for its code.
pub fn phase_of(d: &Diagnostic) -> &'static str {
    phase_name(d.code.info().phase)
}

/// The protocol's name of a registry phase (`lex`, `parse`, `check`, `execute`).
pub fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::Prelex => "lex",
        Phase::Parse => "parse",
        Phase::Check => "check",
        Phase::Execute => "execute",
    }
}

/// The phase table every implementer reads (`conformance/schema/phases.json`): each code
/// of the registry with the phase it is reported in, its name and spec section.
pub fn phase_table() -> serde_json::Value {
    let codes: serde_json::Map<String, serde_json::Value> = cal_grammar::Code::ALL
        .iter()
        .map(|c| {
            let i = c.info();
            (i.code.to_string(), json!({ "phase": phase_name(i.phase), "name": i.name, "section": i.section }))
        })
        .collect();
    json!({
        "$comment": "Generated from the grammar crate's code registry (grammar/src/codes.rs) by \
                     `UPDATE_PHASES=1 cargo test -p cal-conformance --test phases`. The phase a diagnostic \
                     must carry in a parse answer (PROTOCOL.md); Appendix C of the spec lists categories, not phases.",
        "codes": codes,
    })
}

/// The parse result: acceptance, JSON form and canonical text when accepted, every diagnostic.
fn parse(bytes: &[u8]) -> Value {
    let analysis = cal_checker::analyze_bytes(bytes, None);
    let text = String::from_utf8_lossy(bytes);
    let index = LineIndex::new(&text);
    let diagnostics: Vec<Value> = analysis
        .pipeline_diagnostics()
        .into_iter()
        .map(|d| {
            let mut j = d.to_json(&index);
            j["phase"] = phase_of(d).into();
            j
        })
        .collect();
    let accept = !analysis.has_errors();
    let mut out = json!({ "accept": accept, "diagnostics": diagnostics });
    if let (true, Some(doc)) = (accept, &analysis.document) {
        out["json"] = cal_parser::json::document_to_json(doc);
        out["canonical"] = canonical(&cal_parser::print::document_to_text(doc)).into();
    }
    out
}

/// The printer ends a document with a newline; the canonical form of a query has none.
fn canonical(text: &str) -> String {
    text.strip_suffix('\n').unwrap_or(text).to_string()
}

fn text_to_json(query: &str) -> Value {
    let parsed = cal_parser::parse_document(query);
    match (parsed.has_errors(), parsed.ast) {
        (false, Some(doc)) => json!({ "json": cal_parser::json::document_to_json(&doc) }),
        _ => error_object(parsed.diagnostics.iter().find(|d| d.is_error())),
    }
}

fn json_to_text(json: &Value) -> Value {
    match cal_parser::json::document_from_json(json) {
        Ok(doc) => json!({ "text": canonical(&cal_parser::print::document_to_text(&doc)) }),
        Err(diags) => error_object(diags.first()),
    }
}

/// `{"error": {"code", "message", "pointer"?}}`; the JSON form's diagnostics name their pointer in the message.
fn error_object(d: Option<&Diagnostic>) -> Value {
    let Some(d) = d else {
        return json!({ "error": { "code": "CAL-E002", "message": "rejected without a diagnostic" } });
    };
    let mut e = json!({ "code": d.code.as_str(), "message": d.message });
    if let Some(pointer) = pointer_in(&d.message) {
        e["pointer"] = pointer.into();
    }
    json!({ "error": e })
}

/// The JSON pointer quoted in a JSON-form diagnostic ("… at `/where/0/op`: …").
fn pointer_in(message: &str) -> Option<String> {
    if message.contains("at the top-level value") {
        return Some(String::new());
    }
    let rest = message.split_once("at `")?.1;
    let pointer = rest.split_once('`')?.0;
    pointer.starts_with('/').then(|| pointer.to_string()).or_else(|| pointer.is_empty().then(String::new))
}

fn mg_encode(grain: &Value) -> Value {
    match oms::Grain::from_json(grain).and_then(|g| g.encode()) {
        Ok(blob) => json!({ "hex": encode_hex(&blob.bytes), "address": blob.address.to_hex() }),
        Err(e) => json!({ "error": e.code() }),
    }
}

fn mg_decode(bytes: &[u8]) -> Value {
    match oms::decode(bytes) {
        Ok(grain) => json!({ "grain": grain.to_json(), "address": oms::ContentAddress::of(bytes).to_hex() }),
        Err(e) => json!({ "error": e.code() }),
    }
}
