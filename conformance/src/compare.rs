//! Judging answers: what a case expects against what the implementation said.
//! Required checks decide pass or fail; SHOULD checks (positions,
//! suggestions, examples, JSON pointers — CAL §22.1 "SHOULD include") are
//! recorded separately and never fail a case. Formatted TOON is compared up to its
//! row layout ([`crate::toon_layout`]).

use crate::case::{ExecuteExpect, ParseExpect, Position};
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
}

/// One SHOULD-level check and whether it held.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ShouldCheck {
    /// What was checked (`position`, `suggestion`, `example`, `pointer`).
    pub check: String,
    /// Whether it held.
    pub passed: bool,
}

/// The findings for one case: required mismatches and SHOULD checks.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Judgement {
    /// Required checks that failed; empty means the case passes.
    pub mismatches: Vec<Mismatch>,
    /// SHOULD checks.
    pub should: Vec<ShouldCheck>,
}

impl Judgement {
    /// Records a required check.
    pub fn require(&mut self, what: &str, ok: bool, expected: Value, actual: Value) {
        if !ok {
            self.mismatches.push(Mismatch { what: what.to_string(), expected, actual });
        }
    }

    /// Records a SHOULD check.
    pub fn should(&mut self, check: &str, passed: bool) {
        self.should.push(ShouldCheck { check: check.to_string(), passed });
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

/// Judges a parse answer (`result` of a `parse` request).
pub fn parse(expect: &ParseExpect, result: &Value) -> Judgement {
    let mut j = Judgement::default();
    let accepted = result.get("accept").and_then(Value::as_bool);
    let diagnostics = result.get("diagnostics").and_then(Value::as_array).cloned().unwrap_or_default();
    let errors: Vec<&Value> = diagnostics.iter().filter(|d| !is_warning(d)).collect();
    let codes = |ds: &[&Value]| -> Value { ds.iter().filter_map(|d| d.get("code").cloned()).collect() };
    match expect {
        ParseExpect::Accept { json, canonical, warnings } => {
            j.require(
                "accept",
                accepted == Some(true),
                json!(true),
                json!({ "accept": accepted, "errors": codes(&errors) }),
            );
            if accepted != Some(true) {
                return j;
            }
            if let Some(expected) = json {
                let actual = result.get("json").cloned().unwrap_or(Value::Null);
                j.require("json", json_eq(expected, &actual), expected.clone(), actual);
            }
            if let Some(expected) = canonical {
                let actual = result.get("canonical").cloned().unwrap_or(Value::Null);
                j.require("canonical", actual.as_str() == Some(expected), json!(expected), actual);
            }
            if let Some(expected) = warnings {
                let warned: Vec<&Value> = diagnostics.iter().filter(|d| is_warning(d)).collect();
                let actual = code_set(&warned);
                let want: std::collections::BTreeSet<&str> = expected.iter().map(String::as_str).collect();
                j.require("warnings", actual == want, json!(want), json!(actual));
            }
        }
        ParseExpect::Reject { code, phase, position, suggestion_contains, has_example } => {
            j.require("accept", accepted == Some(false), json!(false), json!(accepted));
            // The expected code is the first error reported, and no other code is: an engine
            // that lists every code on every rejection must not pass (issue: negative cases
            // that mean something).
            let first = errors.first().filter(|d| d.get("code").and_then(Value::as_str) == Some(code));
            let Some(found) = first else {
                j.require("code", false, json!(code), codes(&errors));
                return j;
            };
            let unexpected: Vec<&Value> =
                errors.iter().copied().filter(|d| d.get("code").and_then(Value::as_str) != Some(code)).collect();
            j.require("no other code", unexpected.is_empty(), json!([code]), codes(&errors));
            let actual_phase = found.get("phase").cloned().unwrap_or(Value::Null);
            j.require("phase", actual_phase.as_str() == Some(phase.as_str()), json!(phase.as_str()), actual_phase);
            if let Some(p) = position {
                j.should("position", position_matches(p, found.get("position")));
            }
            if let Some(s) = suggestion_contains {
                let text = found.get("suggestion").and_then(Value::as_str).unwrap_or("");
                j.should("suggestion", text.contains(s.as_str()));
            }
            if let Some(want) = has_example {
                let has = found.get("example").and_then(Value::as_str).is_some_and(|e| !e.is_empty());
                j.should("example", has == *want);
            }
        }
    }
    j
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

/// Judges an execute answer (`result` of an `execute` request).
pub fn execute(expect: &ExecuteExpect, result: &Value, ordered_allowed: bool) -> Judgement {
    let mut j = Judgement::default();
    let before = result.get("store_digest_before");
    let after = result.get("store_digest_after");
    match (before.and_then(Value::as_str), after.and_then(Value::as_str)) {
        (Some(b), Some(a)) => j.require("store unchanged", a == b, json!(b), json!(a)),
        _ => j.require("store digest", false, json!("store_digest_before and store_digest_after"), json!(null)),
    }
    let response = result.get("response").cloned().unwrap_or(Value::Null);
    let error = response.pointer("/error/code").cloned();
    if let Some(code) = &expect.error {
        j.require("error", error.as_ref().and_then(Value::as_str) == Some(code), json!(code), json!(error));
        return j;
    }
    if let Some(e) = &error {
        j.require("error", false, json!(null), e.clone());
        return j;
    }
    if let Some(expected) = &expect.results {
        let actual: Vec<String> = response
            .get("results")
            .and_then(Value::as_array)
            .map(|rs| rs.iter().filter_map(|r| r.get("content_address")?.as_str().map(address)).collect())
            .unwrap_or_default();
        let want: Vec<String> = expected.iter().map(|a| address(a)).collect();
        let ok = if expect.ordered && ordered_allowed { actual == want } else { multiset(&actual) == multiset(&want) };
        j.require(if expect.ordered { "results (ordered)" } else { "results" }, ok, json!(want), json!(actual));
    }
    if let Some(total) = expect.total {
        let actual = response.get("total").cloned().unwrap_or(Value::Null);
        j.require("total", actual.as_u64() == Some(total), json!(total), actual);
    }
    if let Some(expected) = &expect.warnings {
        let actual: std::collections::BTreeSet<String> = response
            .pointer("/_cal/warnings")
            .and_then(Value::as_array)
            .map(|ws| ws.iter().filter_map(|w| w.get("code")?.as_str().map(str::to_string)).collect())
            .unwrap_or_default();
        let want: std::collections::BTreeSet<String> = expected.iter().cloned().collect();
        j.require("warnings", actual == want, json!(want), json!(actual));
    }
    for (pointer, expected) in &expect.fields {
        let last = pointer.rsplit('/').next().unwrap_or("");
        if expect.ignore.iter().any(|i| i == last || i == pointer) {
            continue;
        }
        let actual = response.pointer(pointer).cloned().unwrap_or(Value::Null);
        let ok = json_eq(expected, &actual) || same_toon(&response, pointer, expected, &actual);
        j.require(&format!("field {pointer}"), ok, expected.clone(), actual);
    }
    j
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

    #[test]
    fn only_toon_is_normalized_and_only_its_layout() {
        let markdown = json!({ "formatted": TOON_V3, "format": "markdown" });
        assert_eq!(judge("/formatted", SPEC, markdown).mismatches.len(), 1, "not TOON: compared as is");
        let other = json!({ "formatted": TOON_V3.replace("0.9", "0.8"), "format": "toon" });
        assert_eq!(judge("/formatted", SPEC, other).mismatches.len(), 1, "a different table");
    }
}
