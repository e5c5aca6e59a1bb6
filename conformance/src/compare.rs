//! Judging answers: what a case expects against what the implementation said.
//! Required checks decide pass or fail; SHOULD checks (positions,
//! suggestions, examples, JSON pointers — CAL §22.1 "SHOULD include") are
//! recorded separately and never fail a case. Formatted TOON is compared up to its
//! row layout ([`crate::toon_layout`]).

use crate::case::{ExecuteExpect, Invariant, ParseExpect, Position, Rule, Rulings, Shape, StoreChange};
use serde::Serialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// One required check that did not hold.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Mismatch {
    /// What was compared (`code`, `json`, `results`, `store unchanged`, …).
    pub what: String,
    /// The expected value.
    pub expected: Value,
    /// What the implementation gave.
    pub actual: Value,
    /// Where the requirement comes from: the spec section (`§15.3`, `Appendix C`), so a reader
    /// can tell the spec's demands from anything else.
    pub source: String,
}

/// One SHOULD-level check and whether it held.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ShouldCheck {
    /// What was checked (`position`, `suggestion`, `example`, `pointer`).
    pub check: String,
    /// Whether it held.
    pub passed: bool,
    /// The spec section that makes it a SHOULD (`§22.1`).
    pub source: String,
}

/// One check whose expected value comes from a project ruling, not from the spec (our canonical
/// layout, a code the spec does not assign). Scored like a SHOULD: reported and counted, never
/// failing a case (docs/spec-decisions-conformance.md C13).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RulingCheck {
    /// What was checked (`canonical layout`, `code`).
    pub check: String,
    /// The ruling (`spec-decisions-grammar.md B1`).
    pub ruling: String,
    /// Whether the implementation followed it.
    pub passed: bool,
    /// The value the ruling gives (reported when not followed).
    #[serde(skip_serializing_if = "Value::is_null")]
    pub expected: Value,
    /// What the implementation gave (reported when not followed).
    #[serde(skip_serializing_if = "Value::is_null")]
    pub actual: Value,
}

/// The findings for one case: required mismatches, SHOULD checks and ruling checks.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Judgement {
    /// Required checks that failed; empty means the case passes.
    pub mismatches: Vec<Mismatch>,
    /// SHOULD checks.
    pub should: Vec<ShouldCheck>,
    /// Checks of project rulings (house style), scored apart like SHOULD.
    pub rulings: Vec<RulingCheck>,
    /// The case's ruled assertions: a required check named here is recorded as a ruling check.
    ruled: Rulings,
    /// The case's spec sections, the source of the assertions that pin what the case is about.
    sections: Vec<String>,
}

/// The ruling behind every canonical-text and JSON→text layout check: the spec defines no
/// canonical layout, so the byte-exact text is our house style (`cal fmt`).
pub const CANONICAL_LAYOUT_RULING: &str = "spec-decisions-conformance.md C14";

impl Judgement {
    /// A judgement for a case with these ruled assertions and spec sections.
    pub fn for_case(ruled: &Rulings, sections: &[String]) -> Judgement {
        Judgement { ruled: ruled.clone(), sections: sections.to_vec(), ..Judgement::default() }
    }

    /// The source of the assertions that pin what the case is about: its sections (`§8.2, §17.4`),
    /// or `fallback` when it names none.
    pub fn case_source(&self, fallback: &str) -> String {
        if self.sections.is_empty() {
            return fallback.to_string();
        }
        self.sections
            .iter()
            .map(|s| if s.starts_with("OMS") { s.clone() } else { format!("§{s}") })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The ruling an assertion of this case comes from, if the case names one.
    pub fn ruled(&self, what: &str) -> Option<&str> {
        self.ruled.get(what).map(String::as_str)
    }

    /// Records a required check that the spec (`source`) makes; when the case names a ruling for
    /// `what`, it is recorded as a ruling check instead and cannot fail the case.
    pub fn require(&mut self, what: &str, source: &str, ok: bool, expected: Value, actual: Value) {
        if let Some(ruling) = self.ruled.get(what).cloned() {
            self.ruling(what, &ruling, ok, expected, actual);
        } else if !ok {
            self.mismatches.push(Mismatch { what: what.to_string(), expected, actual, source: source.to_string() });
        }
    }

    /// Records a SHOULD check.
    pub fn should(&mut self, check: &str, source: &str, passed: bool) {
        self.should.push(ShouldCheck { check: check.to_string(), passed, source: source.to_string() });
    }

    /// Records a check of a project ruling (values are kept only when it did not hold).
    pub fn ruling(&mut self, check: &str, ruling: &str, passed: bool, expected: Value, actual: Value) {
        let (expected, actual) = if passed { (Value::Null, Value::Null) } else { (expected, actual) };
        self.rulings.push(RulingCheck {
            check: check.to_string(),
            ruling: ruling.to_string(),
            passed,
            expected,
            actual,
        });
    }
}

/// JSON equality where numbers compare by value (`1` equals `1.0`) and object key order is ignored.
pub fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_f64(), y.as_f64()) {
            (Some(p), Some(q)) => p == q,
            _ => x == y,
        },
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

/// The round trip of a generated query: the engine's canonical text must be the same query
/// (§15.3); its layout is the engine's own, so no layout ruling is scored.
fn round_trip(j: &mut Judgement, query: &str, result: &Value) {
    let actual = result.get("canonical").cloned().unwrap_or(Value::Null);
    let same = actual.as_str().is_some_and(|a| crate::reparse::same_tree(query, a));
    j.require("canonical round trip", "§15.3", same, json!(query), actual);
}

/// Judges a parse answer (`result` of a `parse` request) for a case with no ruling.
pub fn parse(expect: &ParseExpect, result: &Value) -> Judgement {
    parse_in(Judgement::default(), expect, result)
}

/// Judges a parse answer into `j` (made by [`Judgement::for_case`], so the case's rulings apply).
///
/// A canonical text is compared by re-parsing it (the same tree, §15.3: the spec defines no
/// layout); the byte-exact layout is a ruling check. A rejection whose code comes from a ruling
/// requires only a rejection whose first error is in the expected phase; the code is a ruling
/// check.
pub fn parse_in(mut j: Judgement, expect: &ParseExpect, result: &Value) -> Judgement {
    let accepted = result.get("accept").and_then(Value::as_bool);
    let diagnostics = result.get("diagnostics").and_then(Value::as_array).cloned().unwrap_or_default();
    let errors: Vec<&Value> = diagnostics.iter().filter(|d| !is_warning(d)).collect();
    let codes = |ds: &[&Value]| -> Value { ds.iter().filter_map(|d| d.get("code").cloned()).collect() };
    match expect {
        ParseExpect::Accept { json, canonical, warnings, reads_back_as } => {
            let source = j.case_source("§4");
            j.require(
                "accept",
                &source,
                accepted == Some(true),
                json!(true),
                json!({ "accept": accepted, "errors": codes(&errors) }),
            );
            if accepted != Some(true) {
                return j;
            }
            if let Some(expected) = json {
                let actual = result.get("json").cloned().unwrap_or(Value::Null);
                j.require("json", "§15.2", json_eq(expected, &actual), expected.clone(), actual);
            }
            if let Some(expected) = canonical {
                let actual = result.get("canonical").cloned().unwrap_or(Value::Null);
                canonical_text(&mut j, "canonical", expected, &actual);
            }
            if let Some(query) = reads_back_as {
                round_trip(&mut j, query, result);
            }
            if let Some(expected) = warnings {
                let warned: Vec<&Value> = diagnostics.iter().filter(|d| is_warning(d)).collect();
                let actual = code_set(&warned);
                let want: std::collections::BTreeSet<&str> = expected.iter().map(String::as_str).collect();
                j.require("warnings", "§22.3", actual == want, json!(want), json!(actual));
            }
        }
        ParseExpect::WellFormed { reads_back_as } => {
            // A sentence of §4's grammar: the lexer and the parser have nothing to reject. The
            // checker may (the derivation knows nothing of Appendix E or §17.3), in its phase only.
            let source = j.case_source("§4");
            let phases: Vec<Value> = errors.iter().map(|d| d.get("phase").cloned().unwrap_or(Value::Null)).collect();
            let only_checked = !errors.is_empty() && phases.iter().all(|p| p.as_str() == Some("check"));
            let ok = match accepted {
                Some(true) => errors.is_empty(),
                Some(false) => only_checked,
                None => false,
            };
            j.require(
                "well-formed",
                &source,
                ok,
                json!("accepted, or rejected in the check phase only"),
                json!({ "accept": accepted, "errors": codes(&errors), "phases": phases }),
            );
            if let (true, Some(true), Some(query)) = (ok, accepted, reads_back_as) {
                round_trip(&mut j, query, result);
            }
        }
        ParseExpect::Reject { code, phase, position, suggestion_contains, has_example } => {
            let source = j.case_source("§22");
            j.require("accept", &source, accepted == Some(false), json!(false), json!(accepted));
            if let Some(ruling) = j.ruled("code").map(str::to_string) {
                // The spec gives this rejection no code (our ruling does): any rejection will do
                // whose first error is reported in the expected phase (§17.1's pipeline).
                let first = errors.first().copied();
                let actual_phase = first.and_then(|d| d.get("phase")).cloned().unwrap_or(Value::Null);
                let ok = actual_phase.as_str() == Some(phase.as_str());
                j.mismatches.extend((!ok).then(|| Mismatch {
                    what: "phase".into(),
                    expected: json!(phase.as_str()),
                    actual: actual_phase,
                    source: "§17.1, §17.3".into(),
                }));
                // One code, whatever it is (C3's rule for an engine's own code, ruling C16): an
                // engine that lists many codes does not pass by having one in the right phase first.
                let first_code = first.and_then(|d| d.get("code")).and_then(Value::as_str);
                let one = errors.iter().all(|d| d.get("code").and_then(Value::as_str) == first_code);
                j.mismatches.extend((!one).then(|| Mismatch {
                    what: "no other code".into(),
                    expected: json!("one code, the engine's own or ours"),
                    actual: codes(&errors),
                    source: "§22.1".into(),
                }));
                let ours = first.is_some_and(|d| d.get("code").and_then(Value::as_str) == Some(code))
                    && errors.iter().all(|d| d.get("code").and_then(Value::as_str) == Some(code));
                j.ruling("code", &ruling, ours, json!([code]), codes(&errors));
                let found = errors.iter().copied().find(|d| d.get("code").and_then(Value::as_str) == Some(code));
                should_checks(&mut j, found.or(first), position, suggestion_contains, *has_example);
                return j;
            }
            // The expected code is the first error reported, and no other code is: an engine
            // that lists every code on every rejection must not pass (issue: negative cases
            // that mean something).
            let first = errors.first().filter(|d| d.get("code").and_then(Value::as_str) == Some(code));
            let Some(found) = first else {
                j.require("code", "Appendix C", false, json!(code), codes(&errors));
                return j;
            };
            let unexpected: Vec<&Value> =
                errors.iter().copied().filter(|d| d.get("code").and_then(Value::as_str) != Some(code)).collect();
            j.require("no other code", "§22.1", unexpected.is_empty(), json!([code]), codes(&errors));
            let actual_phase = found.get("phase").cloned().unwrap_or(Value::Null);
            j.require(
                "phase",
                "§17.1",
                actual_phase.as_str() == Some(phase.as_str()),
                json!(phase.as_str()),
                actual_phase,
            );
            should_checks(&mut j, Some(found), position, suggestion_contains, *has_example);
        }
    }
    j
}

/// The SHOULD checks of §22.1 on the error a rejection reported.
fn should_checks(
    j: &mut Judgement,
    found: Option<&Value>,
    position: &Option<Position>,
    suggestion_contains: &Option<String>,
    has_example: Option<bool>,
) {
    if let Some(p) = position {
        j.should("position", "§22.1", position_matches(p, found.and_then(|f| f.get("position"))));
    }
    if let Some(s) = suggestion_contains {
        let text = found.and_then(|f| f.get("suggestion")).and_then(Value::as_str).unwrap_or("");
        j.should("suggestion", "§22.1", text.contains(s.as_str()));
    }
    if let Some(want) = has_example {
        let has = found.and_then(|f| f.get("example")).and_then(Value::as_str).is_some_and(|e| !e.is_empty());
        j.should("example", "§22.1", has == want);
    }
}

/// A canonical text (a parse answer's `canonical`, a JSON→text answer's `text`): required to
/// read back as the same tree as the expected text (§15.3 — "whitespace may differ"), and
/// checked byte for byte against our layout as a ruling ([`CANONICAL_LAYOUT_RULING`]).
pub fn canonical_text(j: &mut Judgement, what: &str, expected: &str, actual: &Value) {
    let same = actual.as_str().is_some_and(|a| crate::reparse::same_tree(expected, a));
    j.require(what, "§15.3", same, json!(expected), actual.clone());
    let exact = actual.as_str() == Some(expected);
    j.ruling(&format!("{what} layout"), CANONICAL_LAYOUT_RULING, exact, json!(expected), actual.clone());
}

fn is_warning(d: &Value) -> bool {
    d.get("severity").and_then(Value::as_str) == Some("warning")
        || d.get("code").and_then(Value::as_str).is_some_and(|c| c.starts_with("CAL-W"))
}

fn code_set<'a>(ds: &[&'a Value]) -> std::collections::BTreeSet<&'a str> {
    ds.iter().filter_map(|d| d.get("code").and_then(Value::as_str)).collect()
}

fn position_matches(p: &Position, actual: Option<&Value>) -> bool {
    let Some(a) = actual else { return false };
    let field = |k: &str| a.get(k).and_then(Value::as_u64);
    field("start") == Some(p.start)
        && field("end") == Some(p.end)
        && p.line.is_none_or(|l| field("line") == Some(l))
        && p.col.is_none_or(|c| field("col") == Some(c))
}

/// Strips the `sha256:` prefix and lowercases, so both spellings of an address compare equal.
fn address(a: &str) -> String {
    a.strip_prefix("sha256:").unwrap_or(a).to_ascii_lowercase()
}

/// Judges an execute answer (`result` of an `execute` request) for a case with no ruling.
pub fn execute(expect: &ExecuteExpect, result: &Value, ordered_allowed: bool) -> Judgement {
    execute_in(Judgement::default(), expect, result, ordered_allowed)
}

/// Judges an execute answer into `j` (made by [`Judgement::for_case`]).
pub fn execute_in(mut j: Judgement, expect: &ExecuteExpect, result: &Value, ordered_allowed: bool) -> Judgement {
    // Digests are optional and never trusted to say "unchanged" (the runner reads the store
    // back, `runner::STORE_PROBE`); when given, an engine that reports a change is believed.
    let before = result.get("store_digest_before").and_then(Value::as_str);
    let after = result.get("store_digest_after").and_then(Value::as_str);
    match (before, after, &expect.store_change) {
        (Some(b), Some(a), None) => j.require("store unchanged (reported digests)", "§2.1", a == b, json!(b), json!(a)),
        // A write the query itself makes: an engine that reports digests must report a change
        // (what changed is read back, `store_change`).
        (Some(b), Some(a), Some(_)) => {
            j.require("store changed (reported digests)", "§8.8", a != b, json!(b), json!(a))
        }
        _ => {}
    }
    follow_ups(&mut j, &expect.then, result, ordered_allowed);
    let response = result.get("response").cloned().unwrap_or(Value::Null);
    if let Some(end) = &expect.stream_end {
        stream_end(&mut j, end, result, &response);
    }
    let error = response.pointer("/error/code").cloned();
    let source = j.case_source("§17.4");
    if let Some(code) = &expect.error {
        if j.ruled("error").is_some() {
            // A ruled code: any error will do, the code is scored as a ruling.
            j.mismatches.extend(error.is_none().then(|| Mismatch {
                what: "an error".into(),
                expected: json!(code),
                actual: Value::Null,
                source: source.clone(),
            }));
        }
        j.require(
            "error",
            "Appendix C",
            error.as_ref().and_then(Value::as_str) == Some(code),
            json!(code),
            json!(error),
        );
        return j;
    }
    if let Some(e) = &error {
        j.require("error", &source, false, json!(null), e.clone());
        return j;
    }
    if let Some(expected) = &expect.results {
        let actual: Vec<String> = response
            .get("results")
            .and_then(Value::as_array)
            .map(|rs| rs.iter().filter_map(|r| r.get("content_address")?.as_str().map(address)).collect())
            .unwrap_or_default();
        let want: Vec<String> = expected.iter().map(|a| address(a)).collect();
        let same_set = multiset(&actual) == multiset(&want);
        j.require("results", &source, same_set, json!(want), json!(actual));
        if same_set && expect.ordered && ordered_allowed {
            j.require("results (ordered)", "§17.4", actual == want, json!(want), json!(actual));
        }
    }
    if let Some(total) = expect.total {
        let actual = response.get("total").cloned().unwrap_or(Value::Null);
        j.require("total", "§14.1", actual.as_u64() == Some(total), json!(total), actual);
    }
    if let Some(expected) = &expect.warnings {
        let actual: std::collections::BTreeSet<String> = response
            .pointer("/_cal/warnings")
            .and_then(Value::as_array)
            .map(|ws| ws.iter().filter_map(|w| w.get("code")?.as_str().map(str::to_string)).collect())
            .unwrap_or_default();
        let want: std::collections::BTreeSet<String> = expected.iter().cloned().collect();
        j.require("warnings", "§22.3", actual == want, json!(want), json!(actual));
    }
    for (pointer, expected) in &expect.fields {
        let last = pointer.rsplit('/').next().unwrap_or("");
        if expect.ignore.iter().any(|i| i == last || i == pointer) {
            continue;
        }
        let actual = response.pointer(pointer).cloned().unwrap_or(Value::Null);
        let ok = json_eq(expected, &actual) || same_toon(&response, pointer, expected, &actual);
        j.require(&format!("field {pointer}"), &source, ok, expected.clone(), actual);
    }
    for inv in &expect.invariants {
        invariant(&mut j, inv, &response, &source);
    }
    j
}

/// Judges the responses of the session's `then` queries, each against its own expectation;
/// a finding is named after its query (`then[1]: total`).
fn follow_ups(j: &mut Judgement, expects: &[ExecuteExpect], result: &Value, ordered_allowed: bool) {
    let answered = result.get("then").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    for (i, expect) in expects.iter().enumerate() {
        let Some(response) = answered.get(i) else {
            j.require(&format!("then[{i}]"), "§14.1", false, json!("a response"), Value::Null);
            continue;
        };
        let sub = Judgement { ruled: j.ruled.clone(), sections: j.sections.clone(), ..Judgement::default() };
        let sub = execute_in(sub, expect, &json!({ "response": response }), ordered_allowed);
        let name = |what: &str| format!("then[{i}]: {what}");
        j.mismatches.extend(sub.mismatches.into_iter().map(|m| Mismatch { what: name(&m.what), ..m }));
        j.should.extend(sub.should.into_iter().map(|c| ShouldCheck { check: name(&c.check), ..c }));
        j.rulings.extend(sub.rulings.into_iter().map(|c| RulingCheck { check: name(&c.check), ..c }));
    }
}

/// Judges the store change a write made by the query itself (`expect.store_change`) from the
/// read-back the runner appended to the session (`then`'s last response, the whole current
/// store as the token sees it) against the fixture's `baseline` (its addresses, read back
/// right after loading): exactly the expected grains are new, each matching its fields, and
/// every superseded address has left the current view (ruling C23; §8.8–§8.10).
pub fn store_change(j: &mut Judgement, change: &StoreChange, baseline: &[String], read_back: Option<&Value>) {
    let Some(results) = read_back.and_then(|r| r.get("results")).and_then(Value::as_array) else {
        let actual = read_back.cloned().unwrap_or(Value::Null);
        j.require("store change (read back)", "§8.8", false, json!("the store read back in the session"), actual);
        return;
    };
    let now: Vec<(String, &Value)> =
        results.iter().filter_map(|r| Some((address(r.get("content_address")?.as_str()?), r))).collect();
    let new: Vec<&Value> = now.iter().filter(|(a, _)| !baseline.contains(a)).map(|(_, r)| *r).collect();
    let mut unmatched = new.clone();
    for want in &change.added {
        let found = unmatched.iter().position(|r| {
            want.iter().all(|(f, v)| r.pointer(&format!("/grain/{f}")).is_some_and(|actual| json_eq(v, actual)))
        });
        match found {
            Some(k) => {
                unmatched.remove(k);
            }
            None => {
                let grains: Vec<Value> = new.iter().map(|r| r.get("grain").cloned().unwrap_or(Value::Null)).collect();
                j.require("store change: a grain added", "§8.8", false, json!(want), json!(grains));
            }
        }
    }
    j.require(
        "store change: grains added",
        "§8.8",
        new.len() == change.added.len(),
        json!(change.added.len()),
        json!(new.len()),
    );
    for gone in &change.superseded {
        let a = address(gone);
        let was = baseline.contains(&a);
        let still = now.iter().any(|(n, _)| *n == a);
        j.require(
            "store change: superseded",
            "§8.9",
            was && !still,
            json!(gone),
            json!({ "in_fixture": was, "current": still }),
        );
    }
}

/// How a streamed delivery ended: the type of the last event delivered (§11.1; `cancelled`
/// and `error` are always emitted, §11.2), and the code reported for it — in that event or in
/// the response, wherever the engine puts it (Appendix C names the code, not the place).
fn stream_end(j: &mut Judgement, end: &crate::case::StreamEnd, result: &Value, response: &Value) {
    if let Some(events) = result.get("events").and_then(Value::as_array) {
        stream_order(j, events);
    }
    let last = result.get("events").and_then(Value::as_array).and_then(|e| e.last()).cloned().unwrap_or(Value::Null);
    let kind = last.get("type").cloned().unwrap_or(Value::Null);
    j.require("the last stream event", "§11.1", kind.as_str() == Some(end.event.as_str()), json!(end.event), kind);
    if let Some(code) = &end.code {
        let mut seen = std::collections::BTreeSet::new();
        strings_in(&last, &mut seen);
        strings_in(response, &mut seen);
        let codes: Vec<&str> = seen.iter().copied().filter(|s| s.starts_with("CAL-")).collect();
        j.require("the stream's code", "Appendix C", seen.contains(code.as_str()), json!(code), json!(codes));
    }
    if !end.errors.is_empty() {
        let events = result.get("events").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        let before_end = &events[..events.len().saturating_sub(1)];
        let got: std::collections::BTreeSet<&str> = before_end
            .iter()
            .filter(|e| e.get("type").and_then(Value::as_str) == Some("error"))
            .filter_map(|e| e.pointer("/error/code").and_then(Value::as_str))
            .collect();
        let want: std::collections::BTreeSet<&str> = end.errors.iter().map(String::as_str).collect();
        j.require(
            "the stream's error events about single grains",
            "§11.1, Appendix C",
            got == want,
            json!(want),
            json!(got),
        );
    }
}

/// §11.1's ordering invariant over a stream's event types: `assembly_started` first; then the
/// sources; dedup; the budget (a revised allocation may follow disclosure); chunks; and
/// `assembly_completed`. `error` and `cancelled` may come at any point, but only last, except an
/// `error` about one grain (CAL-E080, ruling C27), after which the assembly goes on. Every event
/// that names its assembly names the same one.
fn stream_order(j: &mut Judgement, events: &[Value]) {
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| match e.get("type").and_then(Value::as_str).unwrap_or("") {
            "error" if e.pointer("/error/code").and_then(Value::as_str) == Some("CAL-E080") => "grain_error",
            k => k,
        })
        .collect();
    let rank = |k: &str| match k {
        "assembly_started" => Some(0),
        "source_started" | "source_completed" => Some(1),
        "dedup_completed" => Some(2),
        "budget_allocated" | "disclosure_decided" => Some(3),
        "chunk" => Some(4),
        "assembly_completed" => Some(5),
        _ => None,
    };
    let terminal = |k: &str| matches!(k, "error" | "cancelled" | "assembly_completed");
    let mut ok = kinds.first().is_some_and(|k| *k == "assembly_started" || *k == "error");
    let mut last = 0;
    for (i, k) in kinds.iter().enumerate() {
        if terminal(k) && i + 1 != kinds.len() {
            ok = false;
        }
        match rank(k) {
            Some(r) if r < last => ok = false,
            Some(r) => last = r,
            None if matches!(*k, "error" | "cancelled" | "grain_error") => {}
            None => ok = false,
        }
    }
    let ids: std::collections::BTreeSet<&str> =
        events.iter().filter_map(|e| e.get("assembly_id").and_then(Value::as_str)).collect();
    ok &= ids.len() <= 1;
    j.require(
        "the order of the stream's events",
        "§11.1",
        ok,
        json!("§11.1's ordering invariant, one assembly id"),
        json!(kinds),
    );
}

/// Checks one [`Invariant`] of an execute response.
fn invariant(j: &mut Judgement, inv: &Invariant, response: &Value, case_source: &str) {
    let value = if inv.pointer.is_empty() {
        let mut whole = response.clone();
        if let Value::Object(m) = &mut whole {
            m.remove("_cal");
        }
        whole
    } else {
        response.pointer(&inv.pointer).cloned().unwrap_or(Value::Null)
    };
    let text = value.as_str();
    let (mut ok, mut expected) = match &inv.rule {
        Rule::Contains(parts) => (text.is_some_and(|t| parts.iter().all(|p| t.contains(p.as_str()))), json!(parts)),
        Rule::Excludes(parts) => (!text.is_some_and(|t| parts.iter().any(|p| t.contains(p.as_str()))), json!(parts)),
        Rule::Mentions(names) => {
            let mut seen = std::collections::BTreeSet::new();
            strings_in(&value, &mut seen);
            (names.iter().all(|n| seen.contains(n.as_str())), json!(names))
        }
        Rule::ParsesAsJson => {
            (text.is_some_and(|t| serde_json::from_str::<Value>(t).is_ok()), json!("a JSON document"))
        }
        Rule::Is(shape) => {
            let ok = match shape {
                Shape::Object => value.is_object(),
                Shape::Array => value.is_array(),
                Shape::String => value.is_string(),
                Shape::Empty => match &value {
                    Value::Null => true,
                    Value::Array(a) => a.is_empty(),
                    Value::Object(o) => o.is_empty(),
                    Value::String(s) => s.is_empty(),
                    _ => false,
                },
            };
            (ok, json!(shape.as_str()))
        }
        Rule::Changes(_) => (false, Value::Null),
    };
    if let Rule::Changes(c) = &inv.rule {
        ok = shows_changes(&value, c, inv.pointer.is_empty());
        expected = json!({
            "changed": c.changed.iter().map(|(f, a, b)| (f.clone(), json!([a, b]))).collect::<serde_json::Map<_, _>>(),
            "unchanged": c.unchanged,
        });
    }
    let what = format!("{} {}", if inv.pointer.is_empty() { "response" } else { &inv.pointer }, inv.rule.name());
    // A long rendered text is reported by its start; the expected parts say what was missing.
    let actual = match &value {
        Value::String(s) if s.chars().count() > 400 => json!(format!("{}…", s.chars().take(400).collect::<String>())),
        Value::Object(_) | Value::Array(_) if inv.pointer.is_empty() => json!("(the response)"),
        v => v.clone(),
    };
    match (&inv.ruling, &inv.section) {
        (Some(ruling), _) => j.ruling(&what, ruling, ok, expected, actual),
        (None, Some(section)) => j.require(&what, &format!("§{section}"), ok, expected, actual),
        (None, None) => j.require(&what, case_source, ok, expected, actual),
    }
}

/// Whether some part of `value` shows the changes (a DIFF, §8.4; ruling C33): an object or
/// array in it that names every changed field (as a key or a string) and holds both of its
/// values, and names none of the unchanged fields. In a whole response (`top`) the `results`
/// are left out: they hold both versions whole, which shows the versions, not what changed.
pub fn shows_changes(value: &Value, changes: &crate::case::Changes, top: bool) -> bool {
    fn holds(node: &Value, want: &Value) -> bool {
        json_eq(node, want)
            || match node {
                Value::Array(a) => a.iter().any(|v| holds(v, want)),
                Value::Object(o) => o.values().any(|v| holds(v, want)),
                _ => false,
            }
    }
    fn shows(node: &Value, c: &crate::case::Changes) -> bool {
        let mut names = std::collections::BTreeSet::new();
        strings_in(node, &mut names);
        c.changed.iter().all(|(f, a, b)| names.contains(f.as_str()) && holds(node, a) && holds(node, b))
            && !c.unchanged.iter().any(|f| names.contains(f.as_str()))
    }
    fn any_part(node: &Value, c: &crate::case::Changes, skip_results: bool) -> bool {
        let children: Vec<&Value> = match node {
            Value::Array(a) => a.iter().collect(),
            Value::Object(o) => o.iter().filter(|(k, _)| !(skip_results && *k == "results")).map(|(_, v)| v).collect(),
            _ => return false,
        };
        let whole_ok = if skip_results {
            let mut rest = node.clone();
            if let Value::Object(o) = &mut rest {
                o.remove("results");
            }
            shows(&rest, c)
        } else {
            shows(node, c)
        };
        whole_ok || children.into_iter().any(|v| any_part(v, c, false))
    }
    !changes.changed.is_empty() && any_part(value, changes, top)
}

/// Every object key and string value in a JSON value.
fn strings_in<'a>(value: &'a Value, out: &mut std::collections::BTreeSet<&'a str>) {
    match value {
        Value::String(s) => {
            out.insert(s);
        }
        Value::Array(a) => a.iter().for_each(|v| strings_in(v, out)),
        Value::Object(o) => {
            for (k, v) in o {
                out.insert(k);
                strings_in(v, out);
            }
        }
        _ => {}
    }
}

/// True when `pointer` names formatted text whose format is TOON (a sibling `"format":
/// "toon"`: RECALL's `formatted`, ASSEMBLE's `formatted_context.text`) and the two texts are
/// the same TOON document up to the row layout: §10.9.3's depth-0 rows or TOON v3's indented
/// ones ([`crate::toon_layout`]).
fn same_toon(response: &Value, pointer: &str, expected: &Value, actual: &Value) -> bool {
    let (Some(want), Some(got)) = (expected.as_str(), actual.as_str()) else { return false };
    let parent = pointer.rsplit_once('/').map_or("", |(p, _)| p);
    let format = response.pointer(&format!("{parent}/format")).and_then(Value::as_str);
    format == Some("toon") && crate::toon_layout::same(want, got)
}

fn multiset(items: &[String]) -> BTreeMap<&str, usize> {
    let mut m = BTreeMap::new();
    for i in items {
        *m.entry(i.as_str()).or_insert(0) += 1;
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: &str = "beliefs[2]{subject,content,confidence}:\nalice,prefers dark mode,0.95\nalice,prefers vim,0.9";
    const TOON_V3: &str =
        "beliefs[2]{subject,content,confidence}:\n  alice,prefers dark mode,0.95\n  alice,prefers vim,0.9";

    fn judge(pointer: &str, expected: &str, response: Value) -> Judgement {
        let mut expect = ExecuteExpect::default();
        expect.fields.insert(pointer.to_string(), json!(expected));
        let result = json!({ "response": response, "store_digest_before": "d", "store_digest_after": "d" });
        execute(&expect, &result, true)
    }

    #[test]
    fn formatted_toon_matches_in_either_row_layout() {
        for (want, got) in [(SPEC, TOON_V3), (TOON_V3, SPEC), (SPEC, SPEC)] {
            let j = judge("/formatted", want, json!({ "formatted": got, "format": "toon" }));
            assert!(j.mismatches.is_empty(), "{:?}", j.mismatches);
        }
        let assemble = json!({ "formatted_context": { "text": TOON_V3, "format": "toon" } });
        assert!(judge("/formatted_context/text", SPEC, assemble).mismatches.is_empty());
        let batch = json!({ "results": { "a": { "formatted": TOON_V3, "format": "toon" } } });
        assert!(judge("/results/a/formatted", SPEC, batch).mismatches.is_empty());
    }

    fn judge_stream(types: &[&str], ids: &[&str]) -> Judgement {
        let expect = ExecuteExpect {
            stream_end: Some(crate::case::StreamEnd {
                event: types.last().unwrap_or(&"").to_string(),
                code: None,
                errors: Vec::new(),
            }),
            ..ExecuteExpect::default()
        };
        let events: Vec<Value> =
            types.iter().zip(ids.iter().cycle()).map(|(t, id)| json!({ "type": t, "assembly_id": id })).collect();
        let result = json!({ "response": {}, "events": events, "store_digest_before": "d", "store_digest_after": "d" });
        execute(&expect, &result, true)
    }

    #[test]
    fn a_stream_must_keep_the_order_of_section_11_1() {
        let good = [
            "assembly_started",
            "source_started",
            "source_completed",
            "dedup_completed",
            "budget_allocated",
            "disclosure_decided",
            "chunk",
            "chunk",
            "assembly_completed",
        ];
        assert!(judge_stream(&good, &["asm_1"]).mismatches.is_empty());
        let cancelled = ["assembly_started", "source_started", "cancelled"];
        assert!(judge_stream(&cancelled, &["asm_1"]).mismatches.is_empty());
        // Chunks before the budget, events after completion, two ids, no start: each refused.
        let early = ["assembly_started", "chunk", "budget_allocated", "assembly_completed"];
        assert!(!judge_stream(&early, &["asm_1"]).mismatches.is_empty());
        let after = ["assembly_started", "assembly_completed", "chunk", "assembly_completed"];
        assert!(!judge_stream(&after, &["asm_1"]).mismatches.is_empty());
        assert!(!judge_stream(&good, &["asm_1", "asm_2"]).mismatches.is_empty());
        assert!(!judge_stream(&good[1..], &["asm_1"]).mismatches.is_empty());
    }

    #[test]
    fn only_toon_is_normalized_and_only_its_layout() {
        let markdown = json!({ "formatted": TOON_V3, "format": "markdown" });
        assert_eq!(judge("/formatted", SPEC, markdown).mismatches.len(), 1, "not TOON: compared as is");
        let other = json!({ "formatted": TOON_V3.replace("0.9", "0.8"), "format": "toon" });
        assert_eq!(judge("/formatted", SPEC, other).mismatches.len(), 1, "a different table");
    }
}
