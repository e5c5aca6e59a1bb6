//! The canonical printer and `application/json+cal`, over the case corpus in
//! `tests/print_cases/*.cal` (every construct of CAL/1, and every query of the spec
//! that exercises one).
//!
//! For every case the harness snapshots the canonical text and the JSON, and checks:
//! * the source parses without errors;
//! * `parse(print(ast)) == ast` (spans aside) and printing is idempotent;
//! * the JSON validates against the published schema;
//! * text → JSON → text and JSON → text → JSON are lossless (§15.3), and the JSON
//!   text form (`from_json_text`) reads back the same;
//! * JSON → AST gives the same tree as the text parser (spans aside).
//!
//! A second test mutates every value of every case's JSON and checks that the
//! decoder never panics and that whatever it accepts still round-trips.

use cal_grammar::limits::MAX_QUERY_BYTES;
use cal_parser::ast::Document;
use cal_parser::json::{document_from_json, document_to_json, from_json_text, query_to_json, validate};
use cal_parser::print::{document_to_text, query_to_text};
use cal_parser::{parse_document, parse_query};
use serde_json::{Value, json};
use std::path::PathBuf;

/// The AST's debug form with every span (`start..end`) blanked, for comparing trees.
fn shape(doc: &Document) -> String {
    let text = format!("{doc:#?}");
    let mut out = String::with_capacity(text.len());
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let digits = |from: usize| bytes[from..].iter().take_while(|b| b.is_ascii_digit()).count();
        let a = digits(i);
        if a > 0 && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric()) && bytes[i + a..].starts_with(b"..") {
            let b = digits(i + a + 2);
            if b > 0 {
                out.push_str("_.._");
                i += a + 2 + b;
                continue;
            }
        }
        out.push(bytes[i] as char);
        i += 1;
    }
    out
}

fn cases() -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/print_cases");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/print_cases")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "cal"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let name = p.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
            (name, std::fs::read_to_string(&p).expect("case file"))
        })
        .collect()
}

fn parse_ok(src: &str, what: &str) -> Document {
    let parsed = parse_document(src);
    let errors: Vec<String> =
        parsed.diagnostics.iter().filter(|d| d.is_error()).map(|d| format!("{}: {}", d.code, d.message)).collect();
    assert!(errors.is_empty(), "{what} does not parse:\n{src}\n{errors:#?}");
    parsed.ast.expect("a document")
}

#[test]
fn every_case_round_trips() {
    let cases = cases();
    assert!(cases.len() >= 50, "the corpus went missing");
    for (name, src) in cases {
        let doc = parse_ok(&src, &name);
        let text = document_to_text(&doc);
        let json = document_to_json(&doc);

        // Text: parse(print(ast)) == ast, and printing is idempotent.
        let reparsed = parse_ok(&text, &format!("{name} (printed)"));
        assert_eq!(shape(&reparsed), shape(&doc), "{name}: print → parse changed the tree:\n{text}");
        assert_eq!(document_to_text(&reparsed), text, "{name}: printing is not idempotent");

        // JSON: valid, and both round trips of §15.3.
        let errors = validate(&json);
        assert!(errors.is_empty(), "{name}: our own JSON fails the schema: {errors:#?}\n{json:#}");
        let from_json = document_from_json(&json).unwrap_or_else(|e| panic!("{name}: {e:#?}"));
        assert_eq!(shape(&from_json), shape(&doc), "{name}: JSON → AST differs from the text parser's tree");
        assert_eq!(document_to_text(&from_json), text, "{name}: text → JSON → text");
        assert_eq!(document_to_json(&reparsed), json, "{name}: JSON → text → JSON");
        let pretty = serde_json::to_string_pretty(&json).expect("serializable");
        let from_text = from_json_text(&pretty).unwrap_or_else(|e| panic!("{name}: {e:#?}"));
        assert_eq!(document_to_json(&from_text), json, "{name}: from_json_text");

        let snapshot = format!("-- source\n{src}\n-- text/cal\n{text}\n-- application/json+cal\n{pretty}\n");
        insta::with_settings!({ omit_expression => true, description => format!("tests/print_cases/{name}.cal") }, {
            insta::assert_snapshot!(name.as_str(), snapshot);
        });
    }
}

#[test]
fn spec_15_2_is_exact() {
    let q = parse_query(r#"CAL/1 RECALL beliefs ABOUT "alice" WHERE confidence >= 0.8 RECENT 5 AS markdown"#)
        .into_result()
        .expect("parses");
    let spec = r#"{
  "cal_version": 1,
  "statement": "recall",
  "grain_type": "beliefs",
  "about": "alice",
  "where": [{ "field": "confidence", "op": ">=", "value": 0.8 }],
  "recent": 5,
  "as": "markdown"
}"#;
    let got = query_to_json(&q);
    let want: Value = serde_json::from_str(spec).expect("the spec's JSON");
    assert_eq!(got, want);
    // Same keys in the same order, same number forms: byte-equal once whitespace is removed.
    let strip = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    assert_eq!(strip(&got.to_string()), strip(spec));
    assert_eq!(query_to_text(&q), r#"CAL/1 RECALL beliefs ABOUT "alice" WHERE confidence >= 0.8 RECENT 5 AS markdown"#);
}

#[test]
fn integers_and_decimals_stay_apart() {
    let doc = parse_ok("RECALL WHERE confidence = 5 AND importance = 5.0 | LIMIT 5", "numbers");
    let json = document_to_json(&doc);
    assert_eq!(json["where"][0]["value"], json!(5));
    assert!(json["where"][0]["value"].is_i64());
    assert!(json["where"][1]["value"].is_f64());
    assert_eq!(json["where"][1]["value"].to_string(), "5.0");
    assert_eq!(document_to_text(&doc), "RECALL WHERE confidence = 5 AND importance = 5.0 | LIMIT 5\n");
}

#[test]
fn strings_are_nfc_from_both_sides() {
    let decomposed = "RECALL ABOUT \"cafe\u{301}\"";
    let doc = parse_ok(decomposed, "decomposed");
    assert_eq!(document_to_json(&doc)["about"], "caf\u{e9}");
    let from_json = document_from_json(&json!({ "statement": "recall", "about": "cafe\u{301}" })).expect("decodes");
    assert_eq!(document_to_text(&from_json), "RECALL ABOUT \"caf\u{e9}\"\n");
}

/// Every way of breaking one value of a valid request: none may panic, and
/// whatever the decoder accepts must print as text that parses back to it.
#[test]
fn mutated_json_never_panics_and_accepted_json_round_trips() {
    let junk = [
        json!(null),
        json!(true),
        json!(0),
        json!(-1),
        json!(1.5),
        json!(18446744073709551615u64),
        json!(""),
        json!("count"),
        json!("sha256:ABCDEF01"),
        json!("x_\u{202e}"),
        json!([]),
        json!([{}]),
        json!({}),
        json!({ "param": "p" }),
        json!({ "hash": "sha256:abcdef01" }),
    ];
    let mut accepted = 0usize;
    let mut checked = 0usize;
    for (name, src) in cases() {
        let original = document_to_json(&parse_ok(&src, &name));
        let mut pointers = Vec::new();
        collect_pointers(&original, String::new(), &mut pointers);
        for pointer in &pointers {
            for j in &junk {
                let mut mutated = original.clone();
                if let Some(slot) = mutated.pointer_mut(pointer) {
                    *slot = j.clone();
                }
                checked += 1;
                if let Ok(doc) = document_from_json(&mutated) {
                    accepted += 1;
                    let text = document_to_text(&doc);
                    let reparsed = parse_ok(&text, &format!("{name} with {pointer} = {j}"));
                    assert_eq!(document_to_json(&reparsed), document_to_json(&doc), "{name}: {pointer} = {j}");
                }
            }
            // Removing the key or element.
            let mut mutated = original.clone();
            remove(&mut mutated, pointer);
            if let Ok(doc) = document_from_json(&mutated) {
                let text = document_to_text(&doc);
                parse_ok(&text, &format!("{name} without {pointer}"));
            }
        }
    }
    assert!(checked > 10_000 && accepted > 0, "checked {checked}, accepted {accepted}");
}

fn collect_pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, x) in map {
                let p = format!("{at}/{k}");
                out.push(p.clone());
                collect_pointers(x, p, out);
            }
        }
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                let p = format!("{at}/{i}");
                out.push(p.clone());
                collect_pointers(x, p, out);
            }
        }
        _ => {}
    }
}

fn remove(v: &mut Value, pointer: &str) {
    let Some((parent, last)) = pointer.rsplit_once('/') else { return };
    match v.pointer_mut(parent) {
        Some(Value::Object(map)) => {
            map.shift_remove(last);
        }
        Some(Value::Array(items)) => {
            if let Ok(i) = last.parse::<usize>()
                && i < items.len()
            {
                items.remove(i);
            }
        }
        _ => {}
    }
}

/// The parser's own corpus (`tests/corpus/ok`, every query example of the spec):
/// each file that parses must survive both printers unchanged. A query whose
/// canonical text is over the 8,192-byte limit (the corpus has one at exactly
/// 8,192 bytes, which the canonical layout lengthens) is only checked through JSON.
#[test]
fn the_parser_corpus_round_trips() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/ok");
    let Ok(entries) = std::fs::read_dir(&dir) else { return };
    let mut failures = Vec::new();
    let mut checked = 0;
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(src) = std::fs::read_to_string(&path) else { continue };
        let parsed = parse_document(&src);
        let Some(doc) = parsed.ast.filter(|_| !parsed.diagnostics.iter().any(|d| d.is_error())) else { continue };
        checked += 1;
        let text = document_to_text(&doc);
        let json = document_to_json(&doc);
        let too_long = doc.queries.iter().any(|q| query_to_text(q).len() > MAX_QUERY_BYTES);
        let reparsed = parse_document(&text).ast;
        let text_ok =
            too_long || reparsed.as_ref().is_some_and(|r| shape(r) == shape(&doc) && document_to_text(r) == text);
        let ok =
            text_ok && validate(&json).is_empty() && document_from_json(&json).is_ok_and(|d| shape(&d) == shape(&doc));
        if !ok {
            failures.push(format!("{}:\n{text}", path.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} corpus files do not round-trip:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// In COALESCE, a branch that ends in a comma-separated list (WITH options,
/// SELECT fields, PROJECT specs) must not swallow the `, RECALL …` of the next
/// branch (the chumsky grammar did: this valid JSON printed as text that did not parse).
#[test]
fn coalesce_branches_ending_in_a_list() {
    let json = json!({
        "statement": "coalesce",
        "branches": [
            { "with": [{ "option": "superseded" }] },
            { "pipeline": [{ "stage": "select", "fields": ["subject", "object"] }] },
            { "grain_type": "goals" }
        ]
    });
    let doc = document_from_json(&json).expect("valid JSON");
    let text = document_to_text(&doc);
    let reparsed = parse_ok(&text, "COALESCE with list-ending branches");
    assert_eq!(document_to_json(&reparsed), json);
}
