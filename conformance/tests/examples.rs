//! Appendix B's `conformance/cal-examples.json`: at least 50 request/response pairs
//! covering every statement, each request valid against the request schema and each
//! response against the response schema, and the file exactly what `cal conformance
//! examples` writes from the corpus (so it is reproducible, never edited by hand).

use cal_conformance::examples::{self, STATEMENTS};
use cal_conformance::{default_cases_dir, default_fixtures_dir, load_corpus};
use serde_json::{Value, json};
use std::path::PathBuf;

fn published_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cal-examples.json")
}

fn published() -> Value {
    let text = std::fs::read_to_string(published_path()).expect("conformance/cal-examples.json");
    serde_json::from_str(&text).expect("JSON")
}

fn list(doc: &Value) -> &Vec<Value> {
    doc["examples"].as_array().expect("examples")
}

#[test]
fn the_published_file_is_what_the_command_writes_from_the_corpus() {
    let corpus = load_corpus(&default_cases_dir());
    let doc = examples::build(&corpus.cases, &default_fixtures_dir()).expect("built");
    let text = examples::to_text(&doc);
    let published = std::fs::read_to_string(published_path()).expect("conformance/cal-examples.json");
    assert!(
        text == published,
        "conformance/cal-examples.json is stale: run `cargo run -p cal -- conformance examples --out conformance/cal-examples.json`"
    );
}

#[test]
fn there_are_at_least_fifty_pairs_covering_every_statement() {
    let doc = published();
    assert_eq!(examples::document_violations(&doc), Vec::<String>::new());
    let all = list(&doc);
    assert!(all.len() >= 50, "{} examples", all.len());
    for statement in STATEMENTS {
        assert!(all.iter().any(|e| e["statement"] == statement), "no example of {statement}");
    }
    assert!(all.iter().any(|e| e["response"].get("error").is_some()), "an error response among them");
    let mut ids: Vec<&str> = all.iter().filter_map(|e| e["id"].as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), all.len(), "each example from another case");
}

#[test]
fn every_request_is_valid_against_the_request_schema_and_says_the_text() {
    for e in list(&published()) {
        let problems = cal_parser::json::validate(&e["request"]);
        assert!(problems.is_empty(), "{}: {problems:?}", e["id"]);
        // The JSON form and the text are the same query (§15.2).
        let text = e["text"].as_str().expect("text");
        assert_eq!(examples::request_of(text).as_ref(), Some(&e["request"]), "{}", e["id"]);
        let from_json = cal_parser::json::query_from_json(&e["request"]).expect("the JSON form decodes");
        assert_eq!(cal_parser::json::query_to_json(&from_json), e["request"], "{}", e["id"]);
    }
}

#[test]
fn every_response_is_valid_against_the_response_schema() {
    for e in list(&published()) {
        let problems = examples::response_violations(&e["response"]);
        assert!(problems.is_empty(), "{}: {problems:#?}", e["id"]);
        let st = e["response"]["_cal"]["statement_type"].as_str();
        let expected = match e["statement"].as_str() {
            Some("let") => st, // a LET query answers as the statement after its bindings
            other => other,
        };
        if e["response"].get("error").is_none() || st.is_some() {
            assert_eq!(st, expected, "{}", e["id"]);
        }
    }
}

/// A valid response of each shape, from the published file.
fn sample(statement: &str, error: bool) -> Value {
    list(&published())
        .iter()
        .find(|e| e["statement"] == statement && e["response"].get("error").is_some() == error)
        .map(|e| e["response"].clone())
        .unwrap_or_else(|| panic!("an example of {statement} (error: {error})"))
}

#[test]
fn the_response_schema_refuses_what_section_14_1_and_22_1_do_not_allow() {
    let recall = sample("recall", false);
    let error = sample("add", true);
    let batch = sample("batch", false);
    assert!(examples::response_violations(&recall).is_empty());
    let broken: Vec<(&str, Value)> = vec![
        ("no _cal", {
            let mut r = recall.clone();
            r.as_object_mut().unwrap().remove("_cal");
            r
        }),
        ("no query_hash", {
            let mut r = recall.clone();
            r["_cal"].as_object_mut().unwrap().remove("query_hash");
            r
        }),
        ("a member _cal does not have", {
            let mut r = recall.clone();
            r["_cal"]["cost"] = json!(1);
            r
        }),
        ("no total", {
            let mut r = recall.clone();
            r.as_object_mut().unwrap().remove("total");
            r
        }),
        ("a member RECALL does not have", {
            let mut r = recall.clone();
            r["exists"] = json!(true);
            r
        }),
        ("an upper-case address", {
            let mut r = recall.clone();
            r["results"][0]["content_address"] = json!("F".repeat(64));
            r
        }),
        ("an error without a suggestion", {
            let mut r = error.clone();
            r["error"].as_object_mut().unwrap().remove("suggestion");
            r
        }),
        ("an error with results beside it", {
            let mut r = error.clone();
            r["results"] = json!([]);
            r
        }),
        ("a code not in Appendix C", {
            let mut r = error.clone();
            r["error"]["code"] = json!("CAL-E999");
            r
        }),
        ("a BATCH slot with a foreign member", {
            let mut r = batch.clone();
            let first = r["results"].as_object().unwrap().keys().next().unwrap().clone();
            r["results"][first.as_str()]["bogus"] = json!(1);
            r
        }),
        ("an unknown statement type", {
            let mut r = recall.clone();
            r["_cal"]["statement_type"] = json!("forget");
            r
        }),
    ];
    for (what, r) in broken {
        assert!(!examples::response_violations(&r).is_empty(), "the schema accepts a response with {what}");
    }
}
