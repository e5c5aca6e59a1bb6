//! The two wire forms agree on invalid BATCHes (issue 19: `ast_pipeline` reported an invalid
//! BATCH with an ASSEMBLE entry followed by a set operator rejected with different
//! diagnostics in text and JSON; the input was not kept). Each tree below is built as its
//! JSON form, printed as text, and the text parsed again: the parse must give back the same
//! tree, and the checker must give both trees the same diagnostics (codes and messages).

use cal_grammar::Diagnostic;

const ASSEMBLE: &str =
    r#"{"statement":"assemble","name":"c","from":[{"label":"x","recall":{"grain_type":"beliefs"}}]}"#;
const ASSEMBLE_FULL: &str = r#"{"statement":"assemble","name":"c","intent":"why","from":[{"label":"x","recall":{"grain_type":"beliefs"}},{"label":"y","recall":{"grain_type":"goals"}}],"budget":{"amount":100,"unit":"tokens"},"priority":["y","x"],"format":"markdown"}"#;
const RECALL: &str = r#"{"statement":"recall","grain_type":"goals"}"#;

/// `{"label": label, …statement}`: a statement as a BATCH entry.
fn entry(label: &str, statement: &str) -> String {
    format!(r#"{{"label":"{label}",{}"#, &statement[1..])
}

fn set_op(op: &str, left: &str, right: &str) -> String {
    format!(r#"{{"statement":"set_op","op":"{op}","left":{left},"right":{right}}}"#)
}

fn batch(entries: &[String]) -> String {
    format!(r#"{{"statement":"batch","entries":[{}]}}"#, entries.join(","))
}

fn trees() -> Vec<String> {
    let mut out = Vec::new();
    for a in [ASSEMBLE, ASSEMBLE_FULL] {
        let ok = entry("r", RECALL);
        out.push(batch(&[entry("a", a)]));
        out.push(batch(&[entry("a", a), ok.clone()]));
        out.push(batch(&[ok.clone(), entry("a", a)]));
        for op in ["UNION", "INTERSECT", "EXCEPT"] {
            out.push(batch(&[entry("a", &set_op(op, a, RECALL))]));
            out.push(batch(&[entry("a", &set_op(op, RECALL, a))]));
            out.push(batch(&[entry("a", &set_op(op, &set_op("UNION", a, RECALL), RECALL))]));
            out.push(batch(&[entry("a", a), entry("b", &set_op(op, RECALL, RECALL))]));
            out.push(set_op(op, &batch(&[entry("a", a)]), RECALL));
            out.push(set_op(op, RECALL, &batch(&[entry("a", a), ok.clone()])));
            out.push(format!(r#"{{"statement":"explain","of":{}}}"#, batch(&[entry("a", &set_op(op, a, RECALL))])));
            let explained = format!(r#"{{"statement":"explain","of":{a}}}"#);
            out.push(batch(&[entry("a", &explained), entry("b", &set_op(op, RECALL, RECALL))]));
            out.push(batch(&[entry("a", &explained), ok.clone()]));
        }
    }
    out
}

fn described(diagnostics: &[Diagnostic]) -> Vec<String> {
    diagnostics.iter().map(|d| format!("{} {}", d.code, d.message)).collect()
}

#[test]
fn text_and_json_forms_give_invalid_batches_the_same_diagnostics() {
    let mut compared = 0;
    for json in trees() {
        let value: serde_json::Value = serde_json::from_str(&json).expect("the test's JSON is JSON");
        let from_json = match cal_parser::json::query_from_json(&value) {
            Ok(q) => q,
            // A tree the JSON form refuses must be one the text form cannot write either:
            // no tree to print, nothing to compare.
            Err(_) => continue,
        };
        let text = cal_parser::print::query_to_text(&from_json);
        let parsed = cal_parser::parse_query(&text);
        let from_text = parsed.ast.as_ref().unwrap_or_else(|| panic!("the printed text parses:\n{text}"));
        assert!(!parsed.has_errors(), "{text}\n{:?}", described(&parsed.diagnostics));
        assert_eq!(cal_parser::json::to_value(from_text), cal_parser::json::to_value(&from_json), "{text}");
        let (a, b) = (cal_checker::check(&from_json, None), cal_checker::check(from_text, None));
        assert_eq!(described(&a), described(&b), "the two forms are judged differently:\n{text}");
        assert!(a.iter().any(Diagnostic::is_error), "every tree here is invalid:\n{text}");
        compared += 1;
    }
    assert!(compared >= 20, "only {compared} trees were compared");
}

/// The case `ast_pipeline` met: no text is this tree (the parser reads the set operation as
/// another source, then stops at `UNION`), so both forms refuse it with CAL-E002.
#[test]
fn an_assemble_entry_followed_by_a_set_operation_is_refused_by_both_forms() {
    let text = "BATCH { a: ASSEMBLE c FROM x: (RECALL beliefs), b: (RECALL goals) UNION (RECALL goals) }";
    let parsed = cal_parser::parse_query(text);
    assert!(parsed.diagnostics.iter().any(|d| d.is_error() && d.code == cal_grammar::Code::E002), "{text}");
    let json = batch(&[entry("a", ASSEMBLE), entry("b", &set_op("UNION", RECALL, RECALL))]);
    let errs = cal_parser::json::query_from_json(&serde_json::from_str(&json).unwrap()).expect_err("refused");
    assert_eq!(errs[0].code, cal_grammar::Code::E002);
    assert!(errs[0].message.contains("`/entries/1`"), "{}", errs[0].message);
    // With a clause after FROM the list is closed, and the tree has a text again.
    let closed = ASSEMBLE.replace(r#""from""#, r#""format":"sml","from""#);
    let json = batch(&[entry("a", &closed), entry("b", &set_op("UNION", RECALL, RECALL))]);
    let tree = cal_parser::json::query_from_json(&serde_json::from_str(&json).unwrap()).expect("accepted");
    let again = cal_parser::parse_query(&cal_parser::print::query_to_text(&tree));
    assert!(!again.has_errors());
}
