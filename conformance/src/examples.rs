//! CAL Appendix B's `cal-examples.json`: request/response pairs drawn from the
//! execute cases of the corpus, published as `conformance/cal-examples.json`
//! and written by `cal conformance examples` (docs/conformance.md, "Appendix B
//! examples").
//!
//! Each pair is one hand-written execute case that our toolchain passes — so
//! the response agrees with what the case expects, which comes from the spec
//! and the authoring oracle, not from our engine — with its query in both wire
//! forms (`text`, and `request`: the `application/json+cal` form), the fixture,
//! clock, parameters and capability it runs under, and our engine's whole
//! response. The selection is fixed by the corpus alone: for every statement
//! (and LET), up to [`PER_STATEMENT`] passing cases ([`RECALL_EXAMPLES`] for RECALL) spread evenly over that
//! statement's cases in corpus order. Requests validate against the request
//! schema (`parser/schema/cal-request.schema.json`), responses against
//! [`RESPONSE_SCHEMA`] (the §14.1 envelope and §22.1 error, written here).

use crate::case::{Body, Case, ExecuteCase, Kind};
use crate::implementation::Implementation;
use crate::inprocess::InProcess;
use crate::protocol::Answer;
use crate::runner::{self, RunOptions, Status};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::LazyLock;

/// The response schema of Appendix B (`parser/schema/cal-response.schema.json`, beside the request schema): the §14.1
/// envelope, each statement's members, and the §22.1 error object.
pub const RESPONSE_SCHEMA: &str = include_str!("../../parser/schema/cal-response.schema.json");

/// The schema of the examples file itself (`schema/cal-examples.schema.json`).
pub const EXAMPLES_SCHEMA: &str = include_str!("../schema/cal-examples.schema.json");

/// At most this many examples per statement ([`RECALL_EXAMPLES`] for RECALL).
pub const PER_STATEMENT: usize = 6;

/// At most this many RECALL examples: RECALL has most of the corpus's cases, and most of
/// the clauses, formats and WITH options to show.
pub const RECALL_EXAMPLES: usize = 12;

/// The statements (and LET) the examples cover, in the order they are listed: the twelve of
/// §8, LET bindings (§8.12) and DEFINE TEMPLATE (§10.6).
pub const STATEMENTS: [&str; 14] = [
    "recall",
    "assemble",
    "set_op",
    "exists",
    "history",
    "explain",
    "describe",
    "batch",
    "coalesce",
    "let",
    "define_template",
    "add",
    "supersede",
    "revert",
];

static RESPONSE_VALIDATOR: LazyLock<Result<jsonschema::Validator, String>> = LazyLock::new(|| compile(RESPONSE_SCHEMA));
static EXAMPLES_VALIDATOR: LazyLock<Result<jsonschema::Validator, String>> = LazyLock::new(|| compile(EXAMPLES_SCHEMA));

fn compile(text: &str) -> Result<jsonschema::Validator, String> {
    let schema: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    jsonschema::draft202012::new(&schema).map_err(|e| e.to_string())
}

fn violations(validator: &LazyLock<Result<jsonschema::Validator, String>>, value: &Value) -> Vec<String> {
    match validator.as_ref() {
        Ok(v) => v.iter_errors(value).map(|e| format!("at {}: {e}", e.instance_path().as_str())).collect(),
        Err(e) => vec![format!("the schema does not compile: {e}")],
    }
}

/// Every way `response` breaks [`RESPONSE_SCHEMA`] (empty when it is valid).
pub fn response_violations(response: &Value) -> Vec<String> {
    violations(&RESPONSE_VALIDATOR, response)
}

/// Every way an examples document breaks [`EXAMPLES_SCHEMA`] (empty when it is valid).
pub fn document_violations(document: &Value) -> Vec<String> {
    violations(&EXAMPLES_VALIDATOR, document)
}

/// The statement an execute query exemplifies: `let` when it has LET bindings, otherwise its
/// JSON form's `statement`; `None` when it does not parse (a case about a static error).
fn statement_of(request: &Value) -> Option<String> {
    if request.get("lets").is_some() {
        return Some("let".to_string());
    }
    request.get("statement").and_then(Value::as_str).map(str::to_string)
}

/// The `application/json+cal` form of a query, when it parses without error.
pub fn request_of(query: &str) -> Option<Value> {
    let parsed = cal_parser::parse_query(query);
    if parsed.has_errors() {
        return None;
    }
    parsed.ast.as_ref().map(cal_parser::json::query_to_json)
}

/// Picks the cases to publish from those that passed: per statement, up to
/// [`PER_STATEMENT`] spread evenly over that statement's cases in corpus order.
fn select<'c>(cases: &[&'c Case], passed: &dyn Fn(&str) -> bool) -> Vec<(String, &'c Case, Value)> {
    let mut by_statement: BTreeMap<String, Vec<(&Case, Value)>> = BTreeMap::new();
    for case in cases {
        let Body::Execute(e) = &case.body else { continue };
        let Some(request) = request_of(&e.query) else { continue };
        let Some(statement) = statement_of(&request) else { continue };
        if passed(&case.id) {
            by_statement.entry(statement).or_default().push((case, request));
        }
    }
    let mut out = Vec::new();
    for statement in STATEMENTS {
        let Some(list) = by_statement.remove(statement) else { continue };
        let n = list.len();
        let k = n.min(if statement == "recall" { RECALL_EXAMPLES } else { PER_STATEMENT });
        let mut picked: Vec<usize> = (0..k).map(|i| i * n / k).collect();
        picked.dedup();
        for i in picked {
            let (case, request) = &list[i];
            out.push((statement.to_string(), *case, request.clone()));
        }
    }
    out
}

/// Builds the examples document from `cases` (the corpus; only hand-written execute cases
/// are considered), running them in-process against the fixture stores in `fixtures_dir`.
pub fn build(cases: &[Case], fixtures_dir: &Path) -> Result<Value, String> {
    let execute: Vec<&Case> =
        cases.iter().filter(|c| c.kind() == Kind::Execute && !c.has_flag(crate::case::Flag::Generated)).collect();
    let owned: Vec<Case> = execute.iter().map(|c| (*c).clone()).collect();
    let opts = RunOptions { fixtures_dir: fixtures_dir.to_path_buf(), ..RunOptions::default() };
    let mut imp = InProcess::new();
    let outcomes = runner::run(&mut imp, &owned, &opts);
    let passed: std::collections::HashSet<&str> =
        outcomes.iter().filter(|o| o.status == Status::Passed).map(|o| o.id.as_str()).collect();
    let chosen = select(&execute, &|id| passed.contains(id));
    let mut fresh = InProcess::new();
    let mut loaded = std::collections::HashSet::new();
    let mut examples = Vec::new();
    for (statement, case, request) in chosen {
        let Body::Execute(e) = &case.body else { continue };
        if loaded.insert(e.fixture.clone()) {
            let path = fixtures_dir.join(format!("{}.mg", e.fixture));
            if let Answer::Errored(m) | Answer::Skipped(m) = fresh.load_fixture(&e.fixture, &path) {
                return Err(format!("fixture {}: {m}", e.fixture));
            }
        }
        let answer = fresh.execute_in(&e.fixture, &e.query, &e.clock, &e.params, e.capability.as_deref(), &e.session);
        let result = match answer {
            Answer::Ok(v) => v,
            Answer::Errored(m) | Answer::Skipped(m) => return Err(format!("{}: {m}", case.id)),
        };
        let response = result.get("response").cloned().ok_or_else(|| format!("{}: no response", case.id))?;
        let mut one = example(&statement, case, e, request, response);
        if let Some(events) = result.get("events") {
            one["events"] = events.clone();
        }
        examples.push(one);
    }
    Ok(json!({
        "description": "CAL 1.0 Appendix B: request/response pairs drawn from the conformance corpus (conformance/cases/execute), each an execute case the reference toolchain passes. `text` and `request` are the query in its two wire forms (§15); `response` is the reference toolchain's whole response (§14.1, §22.1) against the fixture store conformance/fixtures/<fixture>.mg under the injected clock, parameters and capability. Written by `cal conformance examples`; do not edit by hand.",
        "cal_version": cal_interp::CAL_VERSION,
        "request_schema": cal_parser::json::SCHEMA_ID,
        "response_schema": "https://cal-spec.org/schema/v1/cal-response.schema.json",
        "examples": examples,
    }))
}

fn example(statement: &str, case: &Case, e: &ExecuteCase, request: Value, response: Value) -> Value {
    let mut m = Map::new();
    m.insert("id".into(), case.id.clone().into());
    m.insert("statement".into(), statement.into());
    m.insert("level".into(), case.level.as_str().into());
    m.insert("sections".into(), json!(case.sections));
    if let Some(d) = &case.description {
        m.insert("description".into(), d.clone().into());
    }
    m.insert("fixture".into(), e.fixture.clone().into());
    m.insert("clock".into(), e.clock.clone().into());
    if !e.params.is_empty() {
        m.insert("params".into(), Value::Object(e.params.clone()));
    }
    if let Some(c) = &e.capability {
        m.insert("capability".into(), c.clone().into());
    }
    // The session the query ran in (queries run first, settings, a streamed delivery).
    if let Ok(Value::Object(session)) = serde_json::to_value(&e.session) {
        m.extend(session);
    }
    m.insert("text".into(), e.query.clone().into());
    m.insert("request".into(), request);
    m.insert("response".into(), response);
    Value::Object(m)
}

/// The document as the published file holds it: pretty-printed JSON and a final newline.
pub fn to_text(document: &Value) -> String {
    serde_json::to_string_pretty(document).unwrap_or_default() + "\n"
}
