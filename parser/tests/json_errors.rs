//! Rejected `application/json+cal`: schema violations (CAL-E002 naming the JSON
//! pointer) and what the decoder checks beyond the schema (keywords among names,
//! template braces, bidi controls, the version, integer ranges, depth).
//!
//! Each case asserts the codes and the pointer named in the message; all the
//! messages are snapshotted together so that their wording is reviewed as a whole.

use cal_grammar::{Code, Diagnostic};
use cal_parser::json::{document_from_json, from_json_text, query_from_json, validate};
use serde_json::{Value, json};
use std::fmt::Write as _;

fn render(diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diags {
        let _ = writeln!(out, "{}: {}", d.code, d.message);
        if let Some(s) = &d.suggestion {
            let _ = writeln!(out, "  help: {s}");
        }
    }
    out
}

/// Decodes `json`, expects failure with `code`, and checks that some message names `pointer`.
fn rejects(json: &Value, code: Code, pointer: &str) -> String {
    let errors = match document_from_json(json) {
        Ok(doc) => panic!("accepted {json}: {doc:#?}"),
        Err(e) => e,
    };
    assert!(errors.iter().any(|d| d.code == code), "expected {code} for {json}, got:\n{}", render(&errors));
    let named = format!("`{pointer}`");
    assert!(
        errors.iter().any(|d| if pointer.is_empty() {
            d.message.contains("top-level")
        } else {
            d.message.contains(&named)
        }),
        "no message names {named} for {json}:\n{}",
        render(&errors)
    );
    render(&errors)
}

#[test]
fn schema_violations_name_the_pointer() {
    let cases: Vec<(&str, Value, Code, &str)> = vec![
        ("missing statement", json!({ "grain_type": "beliefs" }), Code::E002, ""),
        ("unknown statement", json!({ "statement": "recal" }), Code::E002, "/statement"),
        ("unknown key at top", json!({ "statement": "recall", "grain_typ": "beliefs" }), Code::E002, "/grain_typ"),
        (
            "unknown key in a condition",
            json!({ "statement": "recall", "where": [{ "field": "subject", "op": "=", "valeu": "alice" }] }),
            Code::E002,
            "/where/0/valeu",
        ),
        ("wrong type", json!({ "statement": "recall", "recent": "5" }), Code::E002, "/recent"),
        ("negative count", json!({ "statement": "recall", "recent": -5 }), Code::E002, "/recent"),
        ("plural required", json!({ "statement": "recall", "grain_type": "belief" }), Code::E002, "/grain_type"),
        (
            "unknown operator",
            json!({ "statement": "recall", "where": [{ "field": "a", "op": "~", "value": 1 }] }),
            Code::E002,
            "/where/0/op",
        ),
        (
            "value missing for =",
            json!({ "statement": "recall", "where": [{ "field": "a", "op": "=" }] }),
            Code::E002,
            "/where/0",
        ),
        (
            "IN with values and subquery",
            json!({ "statement": "recall", "where": [{ "field": "a", "op": "IN", "values": [1], "subquery": {} }] }),
            Code::E002,
            "/where/0/subquery",
        ),
        ("flag must be true", json!({ "statement": "recall", "my": false }), Code::E002, "/my"),
        (
            "uppercase hash",
            json!({ "statement": "exists", "target": { "hash": "sha256:ABCDEF01" } }),
            Code::E002,
            "/target/hash",
        ),
        (
            "short hash",
            json!({ "statement": "exists", "target": { "hash": "sha256:abc" } }),
            Code::E002,
            "/target/hash",
        ),
        (
            "target with two keys",
            json!({ "statement": "exists", "target": { "hash": "sha256:abcdef01", "param": "p" } }),
            Code::E002,
            "/target",
        ),
        (
            "value object with an unknown key",
            json!({ "statement": "recall", "where": [{ "field": "a", "op": "=", "value": { "parameter": "p" } }] }),
            Code::E002,
            "/where/0/value/parameter",
        ),
        (
            "null value",
            json!({ "statement": "recall", "where": [{ "field": "a", "op": "=", "value": null }] }),
            Code::E002,
            "/where/0/value",
        ),
        (
            "cal_version nested",
            json!({ "statement": "explain", "of": { "statement": "recall", "cal_version": 1 } }),
            Code::E002,
            "/of/cal_version",
        ),
        (
            "statement in a COALESCE branch",
            json!({ "statement": "coalesce", "branches": [{ "statement": "recall" }] }),
            Code::E002,
            "/branches/0/statement",
        ),
        ("label outside BATCH", json!({ "statement": "recall", "label": "x" }), Code::E002, "/label"),
        (
            "BATCH entry without label",
            json!({ "statement": "batch", "entries": [{ "statement": "recall" }] }),
            Code::E002,
            "/entries/0",
        ),
        (
            "explain of explain",
            json!({ "statement": "explain", "of": { "statement": "explain", "of": { "statement": "recall" } } }),
            Code::E002,
            "/of/statement",
        ),
        (
            "define_template nested",
            json!({ "statement": "explain", "of": { "statement": "define_template" } }),
            Code::E002,
            "/of/statement",
        ),
        ("ASSEMBLE without FROM", json!({ "statement": "assemble", "name": "ctx" }), Code::E002, ""),
        ("empty FROM", json!({ "statement": "assemble", "from": [] }), Code::E002, "/from"),
        (
            "source with recall and let",
            json!({ "statement": "assemble", "from": [{ "let": "x", "recall": {} }] }),
            Code::E002,
            "/from/0/recall",
        ),
        (
            "unknown WITH option",
            json!({ "statement": "recall", "with": [{ "option": "superseed" }] }),
            Code::E002,
            "/with/0/option",
        ),
        (
            "WITH argument on a flag",
            json!({ "statement": "recall", "with": [{ "option": "superseded", "level": "full" }] }),
            Code::E002,
            "/with/0/level",
        ),
        (
            "diversity threshold without value",
            json!({ "statement": "recall", "with": [{ "option": "diversity", "mode": "threshold" }] }),
            Code::E002,
            "/with/0",
        ),
        (
            "bad extension name",
            json!({ "statement": "recall", "with": [{ "option": "x_a-b" }] }),
            Code::E002,
            "/with/0/option",
        ),
        (
            "unknown stage",
            json!({ "statement": "recall", "pipeline": [{ "stage": "sort" }] }),
            Code::E002,
            "/pipeline/0/stage",
        ),
        (
            "decimal limit",
            json!({ "statement": "recall", "pipeline": [{ "stage": "limit", "value": 2.5 }] }),
            Code::E002,
            "/pipeline/0/value",
        ),
        (
            "chunk_size without value",
            json!({ "statement": "assemble", "from": [{ "let": "x" }], "stream": [{ "option": "chunk_size" }] }),
            Code::E002,
            "/stream/0",
        ),
        (
            "history mixing forms",
            json!({ "statement": "history", "target": { "param": "h" }, "subject": "alice" }),
            Code::E002,
            "/subject",
        ),
        (
            "describe type on a non-fields target",
            json!({ "statement": "describe", "target": "server", "grain_type": "belief" }),
            Code::E002,
            "/grain_type",
        ),
        ("empty where", json!({ "statement": "recall", "where": [] }), Code::E002, "/where"),
        (
            "array with a bad query",
            json!([{ "statement": "recall" }, { "statement": "nope" }]),
            Code::E002,
            "/1/statement",
        ),
        ("empty document", json!([]), Code::E002, ""),
    ];
    let mut register = String::new();
    for (name, json, code, pointer) in cases {
        let rendered = rejects(&json, code, pointer);
        assert!(!validate(&json).is_empty(), "{name}: the schema itself must reject it");
        let _ = writeln!(register, "## {name}\n{json}\n{rendered}");
    }
    insta::assert_snapshot!("schema_violations", register);
}

#[test]
fn decoder_checks_beyond_the_schema() {
    let cases: Vec<(&str, Value, Code, &str)> = vec![
        (
            "keyword as field",
            json!({ "statement": "recall", "where": [{ "field": "count", "op": "=", "value": 1 }] }),
            Code::E002,
            "/where/0/field",
        ),
        (
            // Lower-case `hc:limit` is a domain field (ruling L10); upper case is the keyword.
            "upper-case keyword as domain field name",
            json!({ "statement": "recall", "pipeline": [{ "stage": "select", "fields": ["hc:LIMIT"] }] }),
            Code::E002,
            "/pipeline/0/fields/0",
        ),
        (
            "capitalized keyword label",
            json!({ "statement": "batch", "entries": [{ "label": "History", "statement": "recall" }] }),
            Code::E002,
            "/entries/0/label",
        ),
        (
            "excluded word as label",
            json!({ "statement": "assemble", "from": [{ "label": "delete", "let": "x" }] }),
            Code::E002,
            "/from/0/label",
        ),
        (
            "reserved context name",
            json!({ "statement": "assemble", "name": "depth", "from": [{ "let": "x" }] }),
            Code::E002,
            "/name",
        ),
        (
            "keyword template name",
            json!({ "statement": "define_template", "name": "recall", "sections": [{ "section": "ELEMENT", "text": "x" }] }),
            Code::E002,
            "/name",
        ),
        (
            "keyword template reference",
            json!({ "statement": "assemble", "from": [{ "let": "x" }], "format": { "template": "format" } }),
            Code::E002,
            "/format/template",
        ),
        (
            "unbalanced template",
            json!({ "statement": "define_template", "name": "t", "sections": [{ "section": "ELEMENT", "text": "a } b" }] }),
            Code::E002,
            "/sections/0/text",
        ),
        (
            "unclosed mustache",
            json!({ "statement": "define_template", "name": "t", "sections": [{ "section": "ELEMENT", "text": "{{grain" }] }),
            Code::E002,
            "/sections/0/text",
        ),
        ("bidi in a string", json!({ "statement": "recall", "about": "al\u{202e}ice" }), Code::E071, "/about"),
        (
            "bidi in template text",
            json!({ "statement": "define_template", "name": "t", "sections": [{ "section": "HEADER", "text": "\u{2066}" }] }),
            Code::E071,
            "/sections/0/text",
        ),
        (
            "version 2",
            json!({ "cal_version": 2, "statement": "describe", "target": "server" }),
            Code::E100,
            "/cal_version",
        ),
        (
            "integer out of range",
            json!({ "statement": "recall", "where": [{ "field": "a", "op": "=", "value": 18446744073709551615u64 }] }),
            Code::E006,
            "/where/0/value",
        ),
        ("count written as a decimal", json!({ "statement": "recall", "recent": 5.0 }), Code::E002, "/recent"),
        ("count beyond 64 bits", json!({ "statement": "recall", "recent": 1e23 }), Code::E006, "/recent"),
        (
            "limit beyond 64 bits",
            json!({ "statement": "recall", "pipeline": [{ "stage": "limit", "value": 36893488147419103232.0 }] }),
            Code::E006,
            "/pipeline/0/value",
        ),
    ];
    let mut register = String::new();
    for (name, json, code, pointer) in cases {
        let rendered = rejects(&json, code, pointer);
        let _ = writeln!(register, "## {name}\n{json}\n{rendered}");
    }
    insta::assert_snapshot!("decoder_checks", register);
}

#[test]
fn lower_case_keyword_labels_and_scope_are_accepted() {
    let json = json!({
        "statement": "assemble",
        "from": [{ "label": "history", "recall": { "where": [{ "field": "scope", "op": "=", "value": "s" }] } }],
        "priority": ["history"]
    });
    let doc = document_from_json(&json).expect("valid");
    assert_eq!(
        cal_parser::print::document_to_text(&doc),
        "ASSEMBLE\n  FROM\n    history: (RECALL WHERE scope = \"s\")\n  PRIORITY history\n"
    );
}

#[test]
fn query_from_json_takes_one_object() {
    assert!(query_from_json(&json!({ "statement": "describe", "target": "server" })).is_ok());
    let errors = query_from_json(&json!([{ "statement": "describe", "target": "server" }])).expect_err("an array");
    assert!(errors[0].message.contains("found an array"), "{}", render(&errors));
}

#[test]
fn invalid_json_text_points_at_the_byte() {
    let text = "{\n  \"statement\": \"recall\",\n  \"about\": }";
    let errors = from_json_text(text).expect_err("invalid JSON");
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].code, Code::E002);
    assert!(errors[0].message.starts_with("Invalid JSON"), "{}", errors[0].message);
    assert_eq!(&text[errors[0].span.start as usize..], "}");
}

#[test]
fn deep_nesting_is_refused_without_overflowing() {
    let mut v = json!({ "statement": "recall" });
    for _ in 0..10_000 {
        // Not `json!`, which would serialize (and so recurse into) `v`.
        let mut map = serde_json::Map::new();
        map.insert("statement".into(), json!("explain"));
        map.insert("of".into(), v);
        v = Value::Object(map);
    }
    let errors = document_from_json(&v).expect_err("too deep");
    assert!(errors[0].message.contains("nested more than"), "{}", render(&errors));
    // serde_json drops deep values recursively; unwind it by hand.
    let mut cur = v;
    while let Value::Object(mut map) = cur {
        cur = map.remove("of").unwrap_or(Value::Null);
    }
}

/// The 8,192-byte limit (CAL-E001) is a limit on query *text*; the JSON form
/// decodes whatever its size, so that AST → JSON → AST is total.
#[test]
fn the_text_length_limit_does_not_apply_to_json() {
    let about = "a".repeat(9000);
    let doc = document_from_json(&json!({ "statement": "recall", "about": about })).expect("decodes");
    let text = cal_parser::print::document_to_text(&doc);
    assert!(text.len() > 8192);
    let reparsed = cal_parser::parse_document(&text);
    assert!(reparsed.diagnostics.iter().any(|d| d.code == Code::E001), "the text form is over the limit");
}

#[test]
fn typos_get_did_you_mean() {
    let errors = document_from_json(&json!({ "statement": "recall", "abuot": "alice" })).expect_err("typo");
    assert_eq!(errors[0].replacement.as_deref(), Some("about"), "{}", render(&errors));
    let errors = document_from_json(&json!({ "statement": "recal" })).expect_err("typo");
    assert_eq!(errors[0].replacement.as_deref(), Some("\"recall\""), "{}", render(&errors));
}

/// Every object shape of the published schema is closed, so typos are caught:
/// an object schema either lists its keys with `additionalProperties: false` or
/// dispatches (`$ref`, `allOf`) to shapes that do.
#[test]
fn every_object_schema_is_closed() {
    fn walk(v: &Value, at: &str, open: &mut Vec<String>) {
        match v {
            Value::Object(map) => {
                let is_object = map.get("type").is_some_and(|t| t == "object");
                let dispatches = map.contains_key("$ref") || map.contains_key("allOf");
                if is_object && !dispatches && map.get("additionalProperties") != Some(&Value::Bool(false)) {
                    open.push(at.to_string());
                }
                for (k, x) in map {
                    walk(x, &format!("{at}/{k}"), open);
                }
            }
            Value::Array(items) => {
                for (i, x) in items.iter().enumerate() {
                    walk(x, &format!("{at}/{i}"), open);
                }
            }
            _ => {}
        }
    }
    let schema = cal_parser::json::schema();
    assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
    assert_eq!(schema["$id"], cal_parser::json::SCHEMA_ID);
    assert!(cal_parser::json::SCHEMA_ID.starts_with("https://cal-spec.org/schema/v1/"));
    let mut open = Vec::new();
    walk(schema, "", &mut open);
    assert!(open.is_empty(), "open object schemas: {open:#?}");
}

#[test]
fn nested_statements_have_their_own_form() {
    let q = cal_parser::parse_query("EXPLAIN (RECALL beliefs) UNION (RECALL goals)").into_result().expect("parses");
    let cal_parser::ast::QueryBody::Statement(cal_parser::ast::Statement::Explain(e)) = &q.body else {
        panic!("EXPLAIN")
    };
    let nested = cal_parser::json::statement_to_json(&e.statement);
    assert_eq!(nested, cal_parser::json::query_to_json(&q)["of"]);
    assert_eq!(nested["statement"], "set_op");
}

/// Issue 19: a key repeated in a JSON object was resolved last-wins (`"in": "public", "in":
/// "secret"` ran `IN "secret"`); it is refused, at any depth, with the key named.
#[test]
fn repeated_keys_are_refused() {
    let twice = r#"{"statement": "recall", "grain_type": "beliefs", "in": "public", "in": "secret"}"#;
    let e = cal_parser::json::from_json_text(twice).unwrap_err();
    assert_eq!(e[0].code, cal_grammar::Code::E002);
    assert!(e[0].message.contains("\"in\" is repeated"), "{}", e[0].message);
    let nested = r#"[{"statement": "recall", "where": {"field": "subject", "field": "object"}}]"#;
    assert!(cal_parser::json::from_json_text(nested).unwrap_err()[0].message.contains("repeated"));
}

/// Issue 19: the JSON form is bound by §17.3's 8,192 bytes like the text it stands for
/// (a 4.7 MB, 100k-condition query used to run): at the limit it reads, one byte over is E001.
#[test]
fn the_json_form_has_the_length_limit_of_the_text() {
    let text_of = |n: usize| format!("RECALL beliefs WHERE subject = \"{}\"", "a".repeat(n));
    let base = text_of(0).len();
    let at = text_of(cal_grammar::limits::MAX_QUERY_BYTES - base);
    let at_json = cal_parser::json::query_to_json(&cal_parser::parse_query(&at).ast.unwrap()).to_string();
    assert!(cal_parser::json::from_json_text(&at_json).is_ok());
    // One more byte in the value: the text form would be 8,193 bytes.
    let over_json = at_json.replacen("\"aaa", "\"aaaa", 1);
    assert_eq!(over_json.len(), at_json.len() + 1);
    let e = cal_parser::json::from_json_text(&over_json).unwrap_err();
    assert_eq!(e[0].code, cal_grammar::Code::E001);
}
