//! Every example of `docs/json-form.md` is true: each ```cal block followed by a
//! ```json block is canonical text whose JSON form is exactly that JSON (key order
//! included), and the JSON converts back to exactly that text.

use cal_parser::json::{query_from_json, query_to_json, validate};
use cal_parser::parse_query;
use cal_parser::print::query_to_text;
use serde_json::Value;

/// The (text, JSON) example pairs of the page, in order.
fn examples(doc: &str) -> Vec<(String, String)> {
    let mut blocks: Vec<(&str, String)> = Vec::new();
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        if let Some(lang) = line.strip_prefix("```").filter(|l| !l.is_empty()) {
            let body: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
            blocks.push((lang, body.join("\n")));
        }
    }
    blocks
        .windows(2)
        .filter(|w| w[0].0 == "cal" && w[1].0 == "json")
        .map(|w| (w[0].1.clone(), w[1].1.clone()))
        .collect()
}

#[test]
fn the_json_form_page_is_true() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/json-form.md")).expect("the page");
    let pairs = examples(&doc);
    assert!(pairs.len() >= 40, "only {} examples found", pairs.len());
    for (text, json_text) in pairs {
        let query = parse_query(&text).into_result().unwrap_or_else(|e| panic!("{text}\n{e:#?}"));
        assert_eq!(query_to_text(&query), text, "the page's text is not canonical");
        let want: Value = serde_json::from_str(&json_text).unwrap_or_else(|e| panic!("{json_text}\n{e}"));
        let got = query_to_json(&query);
        assert_eq!(got.to_string(), want.to_string(), "JSON of\n{text}");
        assert!(validate(&want).is_empty(), "{json_text}");
        let back = query_from_json(&want).unwrap_or_else(|e| panic!("{json_text}\n{e:#?}"));
        assert_eq!(query_to_text(&back), text);
    }
}
