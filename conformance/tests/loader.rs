//! The loader: schema validation with pointers, conversion, duplicate ids.

use cal_conformance::loader::{load_dir, load_str};
use cal_conformance::{Kind, Level};
use std::path::Path;

fn data() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

#[test]
fn the_self_test_corpus_loads_cleanly() {
    let corpus = load_dir(&data().join("cases"));
    assert!(corpus.errors.is_empty(), "{:#?}", corpus.errors);
    assert!(corpus.cases.len() >= 2);
    assert!(corpus.cases.iter().any(|c| c.kind() == Kind::Parse && c.level == Level::Core));
}

#[test]
fn a_case_missing_its_level_is_rejected_with_its_pointer() {
    let text = r#"{"cases": [
        {"id": "ok.1", "kind": "parse", "level": "core", "tags": [], "sections": [], "query": "RECALL beliefs", "expect": {"accept": true}},
        {"id": "bad.1", "kind": "parse", "tags": [], "sections": [], "query": "RECALL beliefs", "expect": {"accept": true}}
    ]}"#;
    let (cases, errors) = load_str(text, Path::new("x.json"));
    assert_eq!(cases.len(), 1, "the valid case is still usable");
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(errors[0].pointer, "/cases/1");
    assert!(errors[0].message.contains("level"), "{}", errors[0].message);
    assert!(errors[0].to_string().starts_with("x.json: at /cases/1:"), "{}", errors[0]);
}

#[test]
fn a_wrong_value_deep_inside_a_case_is_named_by_its_pointer() {
    let text = r#"{"cases": [
        {"id": "bad.2", "kind": "parse", "level": "core", "tags": [], "sections": [], "query": "RECALL x",
         "expect": {"accept": false, "code": "E003", "phase": "check"}}
    ]}"#;
    let (cases, errors) = load_str(text, Path::new("y.json"));
    assert!(cases.is_empty());
    assert!(errors.iter().any(|e| e.pointer.starts_with("/cases/0/expect")), "{errors:#?}");
}

#[test]
fn bad_ids_kinds_and_top_level_keys_are_rejected() {
    let cases = [
        (
            r#"{"cases": [{"id": "Upper.Case", "kind": "parse", "level": "core", "tags": [], "sections": [], "query": "q", "expect": {"accept": true}}]}"#,
            "/cases/0/id",
        ),
        (
            r#"{"cases": [{"id": "a", "kind": "lex", "level": "core", "tags": [], "sections": [], "query": "q", "expect": {"accept": true}}]}"#,
            "/cases/0/kind",
        ),
        (r#"{"cases": [], "extra": 1}"#, ""),
        (
            r#"{"cases": [{"id": "a", "kind": "mg", "level": "core", "tags": [], "sections": [], "hex": "zz", "expect": {"error": "ERR_X"}}]}"#,
            "/cases/0/hex",
        ),
        (
            r#"{"cases": [{"id": "a", "kind": "execute", "level": "core", "tags": [], "sections": [], "fixture": "f", "query": "q", "clock": "yesterday", "expect": {"results": []}}]}"#,
            "/cases/0/clock",
        ),
    ];
    for (text, pointer) in cases {
        let (loaded, errors) = load_str(text, Path::new("z.json"));
        assert!(loaded.is_empty(), "{text}");
        assert!(errors.iter().any(|e| e.pointer == pointer), "{text}: {errors:#?}");
    }
}

#[test]
fn invalid_json_is_an_error_not_a_panic() {
    let (cases, errors) = load_str("{\"cases\": [", Path::new("broken.json"));
    assert!(cases.is_empty());
    assert_eq!(errors.len(), 1);
    assert!(errors[0].message.starts_with("invalid JSON"));
}

#[test]
fn duplicate_ids_are_found_across_files() {
    let corpus = load_dir(&data().join("dup"));
    let dups: Vec<_> = corpus.errors.iter().filter(|e| e.message.contains("duplicate id")).collect();
    assert_eq!(dups.len(), 1, "{:#?}", corpus.errors);
    assert!(dups[0].pointer.ends_with("/id"));
    assert!(dups[0].message.contains("a.json#/cases/0"), "{}", dups[0].message);
}

#[test]
fn execute_fields_must_be_json_pointers() {
    let text = r#"{"cases": [{"id": "e.1", "kind": "execute", "level": "core", "tags": [], "sections": [],
        "fixture": "f", "query": "RECALL", "clock": "2026-01-01T00:00:00Z",
        "expect": {"fields": {"total": 3}}}]}"#;
    let (cases, errors) = load_str(text, Path::new("e.json"));
    assert!(cases.is_empty());
    assert!(errors.iter().any(|e| e.pointer == "/cases/0/expect/fields"), "{errors:#?}");
}
