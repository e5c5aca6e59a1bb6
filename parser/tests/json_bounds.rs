//! The JSON form read in bounded memory (issue 19, ruling D3): a query over
//! `MAX_QUERY_VALUES` values is CAL-E001 before the rest is read, a document past its
//! query limit is only counted, and the diagnostics of ordinary requests are those of
//! reading the whole value first.

use cal_grammar::Code;
use cal_parser::json::{MAX_QUERY_VALUES, ReadError, ReadLimits, from_json_text, read_document, read_value};

/// A RECALL with `n` equality conditions: 4 JSON values each.
fn conditions(n: usize) -> String {
    let c = r#"{"field":"subject","op":"=","value":"a"}"#;
    format!(r#"{{"statement":"recall","grain_type":"beliefs","where":[{}]}}"#, vec![c; n].join(","))
}

#[test]
fn a_query_over_the_value_budget_is_e001_before_the_rest_is_read() {
    let n = MAX_QUERY_VALUES / 4 + 1;
    // Broken JSON after the budget is spent: never reached, so the answer is the size.
    let text = format!("{}, this is not JSON", conditions(n));
    let errs = from_json_text(&text).expect_err("over the budget");
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].code, Code::E001);
    assert!(errs[0].message.contains(&format!("more than {MAX_QUERY_VALUES} JSON values")), "{}", errs[0].message);
}

#[test]
fn a_query_under_the_budget_but_over_8192_bytes_names_its_length() {
    let errs = from_json_text(&conditions(600)).expect_err("over 8,192 bytes as text");
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].code, Code::E001);
    assert!(errs[0].message.contains("bytes as text/cal"), "{}", errs[0].message);
    assert!(from_json_text(&conditions(100)).is_ok(), "a query within 8,192 bytes reads");
}

#[test]
fn the_budget_is_per_query_in_a_document() {
    let one = conditions(100);
    let many = format!("[{}]", vec![one.as_str(); 200].join(","));
    let doc = from_json_text(&many).expect("each query is within its budget");
    assert_eq!(doc.queries.len(), 200);
}

#[test]
fn past_the_query_limit_elements_are_only_counted() {
    let q = r#"{"statement":"recall","grain_type":"beliefs"}"#;
    let limits = ReadLimits { max_queries: 3, ..ReadLimits::default() };
    let five = format!("[{q},{q},{q},{q},{q}]");
    assert!(matches!(read_document(&five, &limits), Err(ReadError::TooManyQueries(5))));
    // A schema error past the limit is not examined; a JSON syntax error still is.
    let bad_tail = format!(r#"[{q},{q},{q},{{"statement":"nope"}}]"#);
    assert!(matches!(read_document(&bad_tail, &limits), Err(ReadError::TooManyQueries(4))));
    let broken_tail = format!("[{q},{q},{q},{q}");
    match read_document(&broken_tail, &limits) {
        Err(ReadError::Refused(d)) => assert_eq!(d[0].code, Code::E002),
        other => panic!("expected the syntax error, got {other:?}"),
    }
    let three = format!("[{q},{q},{q}]");
    assert_eq!(read_document(&three, &limits).expect("at the limit").queries.len(), 3);
}

#[test]
fn element_pointers_and_repeated_keys_are_as_before() {
    let q = r#"{"statement":"recall","grain_type":"beliefs"}"#;
    let errs = from_json_text(&format!(r#"[{q},{q},{{"statement":"recall","grain_type":"belief"}}]"#)).unwrap_err();
    assert!(errs[0].message.contains("`/2/grain_type`"), "{}", errs[0].message);
    let dup = r#"{"statement":"recall","grain_type":"beliefs","in":"public","in":"secret"}"#;
    let errs = from_json_text(dup).unwrap_err();
    assert_eq!(errs[0].code, Code::E002);
    assert!(errs[0].message.contains(r#"the key "in" is repeated in one object"#), "{}", errs[0].message);
}

#[test]
fn a_message_is_read_within_its_value_budget() {
    assert_eq!(read_value("[1,2,3]", 4).unwrap(), serde_json::json!([1, 2, 3]));
    assert!(read_value("[1,2,3,4]", 4).unwrap_err().contains("more than 4 JSON values"));
    assert!(read_value("[1,", 10).is_err());
}
