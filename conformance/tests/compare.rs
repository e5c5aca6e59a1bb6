//! The comparison rules, one at a time, on hand-made answers.

use cal_conformance::case::{ExecuteExpect, ParseExpect, Phase, Position};
use cal_conformance::compare::{execute, json_eq, parse};
use serde_json::json;

fn reject(code: &str, phase: Phase) -> ParseExpect {
    ParseExpect::Reject {
        code: code.into(),
        phase,
        position: Some(Position { start: 7, end: 12, line: Some(1), col: Some(8) }),
        suggestion_contains: Some("belief".into()),
        has_example: Some(true),
    }
}

fn diag(code: &str, phase: &str, start: u64) -> serde_json::Value {
    json!({"code": code, "severity": "error", "phase": phase, "message": "m",
           "position": {"start": start, "end": 12, "line": 1, "col": 8},
           "suggestion": "Did you mean \"belief\"?", "example": "RECALL beliefs"})
}

#[test]
fn numbers_compare_by_value_and_keys_in_any_order() {
    assert!(json_eq(&json!({"a": 1, "b": [1.0, "x"]}), &json!({"b": [1, "x"], "a": 1.0})));
    assert!(!json_eq(&json!({"a": 1}), &json!({"a": 1, "b": null})));
    assert!(!json_eq(&json!([1, 2]), &json!([2, 1])));
}

#[test]
fn a_reject_passes_when_the_code_is_the_only_error_with_its_phase() {
    let warning = json!({"code": "CAL-W001", "severity": "warning", "phase": "check", "message": "w"});
    let r = json!({"accept": false, "diagnostics": [diag("CAL-E003", "parse", 7), warning]});
    let j = parse(&reject("CAL-E003", Phase::Parse), &r);
    assert!(j.mismatches.is_empty(), "warnings do not count against a reject: {j:?}");
    assert_eq!(j.should.len(), 3);
    assert!(j.should.iter().all(|c| c.passed), "{j:?}");
}

#[test]
fn a_reject_fails_when_its_code_is_not_first_or_not_alone() {
    let behind = json!({"accept": false, "diagnostics": [diag("CAL-E002", "parse", 0), diag("CAL-E003", "parse", 7)]});
    let j = parse(&reject("CAL-E003", Phase::Parse), &behind);
    assert_eq!(j.mismatches.iter().map(|m| m.what.as_str()).collect::<Vec<_>>(), ["code"], "{j:?}");
    let followed =
        json!({"accept": false, "diagnostics": [diag("CAL-E003", "parse", 7), diag("CAL-E004", "check", 9)]});
    let j = parse(&reject("CAL-E003", Phase::Parse), &followed);
    assert_eq!(j.mismatches.iter().map(|m| m.what.as_str()).collect::<Vec<_>>(), ["no other code"], "{j:?}");
    let twice = json!({"accept": false, "diagnostics": [diag("CAL-E003", "parse", 7), diag("CAL-E003", "parse", 20)]});
    assert!(parse(&reject("CAL-E003", Phase::Parse), &twice).mismatches.is_empty(), "the same code twice is fine");
}

#[test]
fn a_wrong_phase_fails_and_a_wrong_position_only_costs_a_should_point() {
    let r = json!({"accept": false, "diagnostics": [diag("CAL-E003", "check", 6)]});
    let j = parse(&reject("CAL-E003", Phase::Parse), &r);
    assert_eq!(j.mismatches.len(), 1);
    assert_eq!(j.mismatches[0].what, "phase");
    assert!(j.should.iter().any(|c| c.check == "position" && !c.passed));
}

#[test]
fn an_accepted_query_that_must_be_rejected_fails_on_accept_and_code() {
    let r = json!({"accept": true, "diagnostics": []});
    let j = parse(&reject("CAL-E003", Phase::Parse), &r);
    let whats: Vec<&str> = j.mismatches.iter().map(|m| m.what.as_str()).collect();
    assert_eq!(whats, ["accept", "code"]);
}

#[test]
fn an_accept_compares_json_canonical_text_and_warnings_as_a_set() {
    let expect = ParseExpect::Accept {
        json: Some(json!({"statement": "recall"})),
        canonical: Some("RECALL".into()),
        warnings: Some(vec!["CAL-W001".into()]),
        reads_back_as: None,
    };
    let good = json!({"accept": true, "json": {"statement": "recall"}, "canonical": "RECALL",
                      "diagnostics": [{"code": "CAL-W001", "severity": "warning", "message": "m"}]});
    assert!(parse(&expect, &good).mismatches.is_empty());
    let bad =
        json!({"accept": true, "json": {"statement": "exists"}, "canonical": "RECALL beliefs", "diagnostics": []});
    let whats: Vec<String> = parse(&expect, &bad).mismatches.into_iter().map(|m| m.what).collect();
    assert_eq!(whats, ["json", "canonical", "warnings"]);
}

/// §15.3 defines no canonical layout: a canonical text that reads back as the same tree passes,
/// and the byte-exact layout is only a ruling check (scored, never failing the case).
#[test]
fn a_canonical_text_is_compared_by_reparsing_and_its_layout_is_a_ruling() {
    let expect = ParseExpect::Accept {
        json: None,
        canonical: Some("RECALL beliefs\nWHERE subject = \"alice\"\n| LIMIT 5".into()),
        warnings: None,
        reads_back_as: None,
    };
    let laid_out = json!({"accept": true, "canonical": "recall beliefs where subject = \"alice\" | limit 5",
                          "diagnostics": []});
    let j = parse(&expect, &laid_out);
    assert!(j.mismatches.is_empty(), "{j:?}");
    assert_eq!(j.rulings.len(), 1);
    assert_eq!((j.rulings[0].check.as_str(), j.rulings[0].passed), ("canonical layout", false));
    assert_eq!(j.rulings[0].ruling, cal_conformance::compare::CANONICAL_LAYOUT_RULING);
    let other = json!({"accept": true, "canonical": "RECALL beliefs WHERE subject = \"bob\" | LIMIT 5",
                       "diagnostics": []});
    let j = parse(&expect, &other);
    assert_eq!(
        j.mismatches.iter().map(|m| (m.what.as_str(), m.source.as_str())).collect::<Vec<_>>(),
        [("canonical", "§15.3")]
    );
}

/// A limit whose code comes from our ruling B1 accepts any rejection whose first error is in
/// the expected phase; the code itself is a ruling check.
#[test]
fn a_ruled_code_needs_only_a_rejection_in_the_right_phase() {
    use cal_conformance::compare::{Judgement, parse_in};
    let rulings: cal_conformance::case::Rulings =
        [("code".to_string(), "spec-decisions-grammar.md B1".to_string())].into();
    let judge = |r: &serde_json::Value| {
        parse_in(Judgement::for_case(&rulings, &["17.3".into()]), &reject("CAL-E013", Phase::Check), r)
    };
    let theirs = json!({"accept": false, "diagnostics": [
        {"code": "X-TOO-MANY-BRANCHES", "severity": "error", "phase": "check", "message": "m"}]});
    let j = judge(&theirs);
    assert!(j.mismatches.is_empty(), "{j:?}");
    assert_eq!(j.rulings.iter().map(|r| (r.check.as_str(), r.passed)).collect::<Vec<_>>(), [("code", false)]);
    let ours = json!({"accept": false, "diagnostics": [diag("CAL-E013", "check", 7)]});
    let j = judge(&ours);
    assert!(j.mismatches.is_empty() && j.rulings.iter().all(|r| r.passed), "{j:?}");
    let syntax = json!({"accept": false, "diagnostics": [diag("CAL-E002", "parse", 7)]});
    assert_eq!(judge(&syntax).mismatches.iter().map(|m| m.what.as_str()).collect::<Vec<_>>(), ["phase"]);
    let accepted = json!({"accept": true, "diagnostics": []});
    assert_eq!(judge(&accepted).mismatches.iter().map(|m| m.what.as_str()).collect::<Vec<_>>(), ["accept", "phase"]);
    // Any one code in the right phase, but one: a list of codes fails (ruling C16, as C3).
    let sprayed = json!({"accept": false, "diagnostics": [
        {"code": "CAL-E001", "severity": "error", "phase": "check", "message": "m"}, diag("CAL-E013", "check", 7)]});
    assert_eq!(judge(&sprayed).mismatches.iter().map(|m| m.what.as_str()).collect::<Vec<_>>(), ["no other code"]);
    let twice = json!({"accept": false, "diagnostics": [diag("X-MINE", "check", 7), diag("X-MINE", "check", 9)]});
    assert!(judge(&twice).mismatches.is_empty(), "the same code twice is one code");
}

fn answer(results: &[&str], before: &str, after: &str) -> serde_json::Value {
    let rs: Vec<_> = results.iter().map(|a| json!({"content_address": a})).collect();
    json!({"response": {"results": rs, "total": results.len(), "_cal": {"duration_ms": 3}},
           "store_digest_before": before, "store_digest_after": after})
}

#[test]
fn results_compare_in_order_or_as_a_multiset_and_the_store_must_not_change() {
    let a = "a".repeat(64);
    let b = "b".repeat(64);
    let expect = |ordered| ExecuteExpect {
        results: Some(vec![format!("sha256:{a}"), format!("sha256:{b}")]),
        ordered,
        total: Some(2),
        ..ExecuteExpect::default()
    };
    let swapped = answer(&[&b, &a], "d1", "d1");
    assert!(execute(&expect(false), &swapped, true).mismatches.is_empty());
    assert_eq!(execute(&expect(true), &swapped, true).mismatches[0].what, "results (ordered)");
    assert!(execute(&expect(true), &swapped, false).mismatches.is_empty(), "nondeterministic: as a multiset");
    let changed = answer(&[&a, &b], "d1", "d2");
    assert_eq!(execute(&expect(true), &changed, true).mismatches[0].what, "store unchanged (reported digests)");
    // Digests are optional: the runner reads the store back after every case instead.
    let no_digest = json!({"response": {"results": [{"content_address": a}, {"content_address": b}], "total": 2}});
    assert!(execute(&expect(false), &no_digest, true).mismatches.is_empty());
}

#[test]
fn expected_errors_fields_and_ignored_fields() {
    let err = ExecuteExpect { error: Some("CAL-E008".into()), ..ExecuteExpect::default() };
    let got =
        json!({"response": {"error": {"code": "CAL-E008"}}, "store_digest_before": "x", "store_digest_after": "x"});
    assert!(execute(&err, &got, true).mismatches.is_empty());
    let results_instead = answer(&[], "x", "x");
    assert_eq!(execute(&err, &results_instead, true).mismatches[0].what, "error");

    let mut fields = serde_json::Map::new();
    fields.insert("/total".into(), json!(0));
    fields.insert("/_cal/duration_ms".into(), json!(0));
    let f = ExecuteExpect { fields, ignore: vec!["duration_ms".into()], ..ExecuteExpect::default() };
    assert!(execute(&f, &answer(&[], "x", "x"), true).mismatches.is_empty(), "duration_ms is ignored");
}

/// Rendered output is checked by invariant: contained and excluded texts, names mentioned
/// anywhere in the response, a JSON document, a shape.
#[test]
fn invariants_check_rendered_output_without_fixing_its_bytes() {
    use cal_conformance::case::{Invariant, Rule, Shape};
    let inv = |pointer: &str, rule: Rule| Invariant { pointer: pointer.into(), rule, section: None, ruling: None };
    let expect = ExecuteExpect {
        invariants: vec![
            inv("/formatted", Rule::Contains(vec!["prefers tea".into()])),
            inv("/formatted", Rule::Excludes(vec!["mg:prefers".into()])),
            inv("/formatted", Rule::ParsesAsJson),
            inv("", Rule::Mentions(vec!["belief".into(), "subject".into()])),
            inv("/plan", Rule::Is(Shape::Object)),
            inv("/results", Rule::Is(Shape::Empty)),
        ],
        ..ExecuteExpect::default()
    };
    let good = json!({"response": {"formatted": "[{\"content\": \"prefers tea\"}]", "plan": {"x": 1},
                                   "types": [{"type": "belief", "fields": {"subject": true}}]}});
    let j = execute(&expect, &good, true);
    assert!(j.mismatches.is_empty(), "{j:?}");
    let bare = json!({"response": {"results": []}});
    let whats: Vec<String> = execute(&expect, &bare, true).mismatches.into_iter().map(|m| m.what).collect();
    assert_eq!(whats, ["/formatted contains", "/formatted parses_as", "response mentions", "/plan is"]);
    let raw = json!({"response": {"formatted": "mg:prefers tea"}});
    assert!(execute(&expect, &raw, true).mismatches.iter().any(|m| m.what == "/formatted excludes"));
}

/// A generated query's round trip: the canonical text must be the same query, in any layout,
/// and no layout ruling is scored.
#[test]
fn a_round_trip_requires_the_same_tree_and_scores_no_layout() {
    let expect = ParseExpect::Accept {
        json: None,
        canonical: None,
        warnings: None,
        reads_back_as: Some("RECALL beliefs WHERE subject = \"alice\" | LIMIT 5".into()),
    };
    let other_layout = json!({"accept": true, "canonical": "recall beliefs\n  where subject = \"alice\"\n  | limit 5"});
    let j = parse(&expect, &other_layout);
    assert!(j.mismatches.is_empty() && j.rulings.is_empty(), "{j:?}");
    let other_query = json!({"accept": true, "canonical": "RECALL beliefs WHERE subject = \"bob\" | LIMIT 5"});
    let whats: Vec<String> = parse(&expect, &other_query).mismatches.into_iter().map(|m| m.what).collect();
    assert_eq!(whats, ["canonical round trip"]);
    let none = json!({"accept": true});
    assert_eq!(parse(&expect, &none).mismatches.len(), 1, "an accepted query without a canonical text fails");
}

/// A DIFF is checked by what it shows, not by its shape (ruling C33): some part of the answer
/// outside `results` names each changed field with both its values, and (the stricter form)
/// names no unchanged field. (response, with `unchanged` listed?, holds?)
#[test]
fn a_diff_is_judged_by_the_changes_it_shows_in_any_shape() {
    use cal_conformance::case::Changes;
    use cal_conformance::compare::shows_changes;
    let grain = |object: &str, confidence: f64| json!({"subject": "bob", "relation": "mg:prefers", "object": object, "confidence": confidence});
    let results = json!([{"grain": grain("vim", 0.9)}, {"grain": grain("emacs", 0.7)}]);
    let with = |extra: serde_json::Value| {
        let mut r = json!({"results": results.clone(), "total": 2});
        for (k, v) in extra.as_object().cloned().unwrap_or_default() {
            r[k] = v;
        }
        r
    };
    let table: Vec<(serde_json::Value, bool, bool)> = vec![
        // Ours (interp ruling S2): a list of {field, from, to}.
        (
            with(json!({"diff": {"changes": [{"field": "object", "from": "vim", "to": "emacs"},
                                           {"field": "confidence", "from": 0.9, "to": 0.7}]}})),
            true,
            true,
        ),
        // Keyed by field, the other order, other words.
        (with(json!({"delta": {"object": {"old": "emacs", "new": "vim"}, "confidence": [0.7, 0.9]}})), true, true),
        // Both versions side by side: shows the changes, but names every field.
        (with(json!({"diff": {"left": grain("vim", 0.9), "right": grain("emacs", 0.7)}})), false, true),
        (with(json!({"diff": {"left": grain("vim", 0.9), "right": grain("emacs", 0.7)}})), true, false),
        // No diff at all: the results hold both versions, which is not a diff.
        (with(json!({})), false, false),
        // A value missing, or a field not named.
        (with(json!({"diff": {"changes": [{"field": "object", "from": "vim", "to": "emacs"}]}})), false, false),
        (with(json!({"diff": {"changes": [["vim", "emacs"], [0.9, 0.7]]}})), false, false),
    ];
    for (i, (response, strict, holds)) in table.into_iter().enumerate() {
        let changes = Changes {
            changed: vec![
                ("object".into(), json!("vim"), json!("emacs")),
                ("confidence".into(), json!(0.9), json!(0.7)),
            ],
            unchanged: if strict { vec!["subject".into(), "relation".into()] } else { Vec::new() },
        };
        assert_eq!(shows_changes(&response, &changes, true), holds, "row {i}: {response}");
    }
}

/// A sentence of the grammar (C38): accepted, or refused in the check phase only; a lex or
/// parse error, a refusal with no error, or no verdict fails it; accepted, its canonical text
/// must read back as the sentence it came from (a metamorphic variant's base).
#[test]
fn a_well_formed_case_allows_only_check_phase_refusals_and_reads_back_as_its_base() {
    let base = "RECALL beliefs WHERE subject = \"alice\"";
    let expect = ParseExpect::WellFormed { reads_back_as: Some(base.into()) };
    let what = |answer: serde_json::Value| -> Vec<String> {
        parse(&expect, &answer).mismatches.iter().map(|m| m.what.clone()).collect()
    };
    let same = json!({"accept": true, "canonical": "recall beliefs where subject = \"alice\"", "diagnostics": []});
    assert!(what(same).is_empty());
    let checked = json!({"accept": false, "diagnostics": [diag("CAL-E020", "check", 7), diag("CAL-E004", "check", 9)]});
    assert!(what(checked).is_empty());
    let warned = json!({"accept": true, "canonical": base, "diagnostics": [
        {"code": "CAL-W004", "severity": "warning", "phase": "check", "message": "m"}]});
    assert!(what(warned).is_empty());
    for refused in [
        json!({"accept": false, "diagnostics": [diag("CAL-E002", "parse", 7)]}),
        json!({"accept": false, "diagnostics": [diag("CAL-E020", "check", 7), diag("CAL-E071", "lex", 9)]}),
        json!({"accept": false, "diagnostics": []}),
        json!({"accept": true, "canonical": base, "diagnostics": [diag("CAL-E004", "check", 7)]}),
        json!({"diagnostics": []}),
    ] {
        assert_eq!(what(refused.clone()), ["well-formed"], "{refused}");
    }
    let other = json!({"accept": true, "canonical": "RECALL beliefs WHERE subject = \"bob\"", "diagnostics": []});
    assert_eq!(what(other), ["canonical round trip"]);
    let missing = json!({"accept": true, "diagnostics": []});
    assert_eq!(what(missing), ["canonical round trip"]);
}
