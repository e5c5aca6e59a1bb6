//! The layout rules of the canonical printer, one test each.

use cal_parser::ast::{QueryBody, Statement};
use cal_parser::parse_query;
use cal_parser::print::{WIDTH, document_to_text, query_to_text, statement_to_text};

fn fmt(src: &str) -> String {
    let q = parse_query(src).into_result().unwrap_or_else(|e| panic!("{src}: {e:#?}"));
    query_to_text(&q)
}

#[test]
fn short_statements_stay_on_one_line() {
    assert_eq!(
        fmt("recall   beliefs\n where subject = \"alice\"  limit 5"),
        "RECALL beliefs WHERE subject = \"alice\" | LIMIT 5"
    );
    assert_eq!(fmt("exists sha256:abcdef01"), "EXISTS sha256:abcdef01");
    assert_eq!(fmt("add belief set subject = \"a\" reason \"r\""), "ADD belief SET subject = \"a\" REASON \"r\"");
}

#[test]
fn the_width_decides_between_one_line_and_one_clause_per_line() {
    // 80 columns exactly fit; 81 do not.
    let fits = format!("RECALL ABOUT \"{}\"", "a".repeat(WIDTH - 15));
    assert_eq!(fits.len(), WIDTH);
    assert_eq!(fmt(&fits), fits);
    let over = format!("RECALL ABOUT \"{}\" RECENT 5", "a".repeat(WIDTH - 15));
    assert_eq!(fmt(&over), format!("RECALL\n  ABOUT \"{}\"\n  RECENT 5", "a".repeat(WIDTH - 15)));
}

#[test]
fn clauses_follow_the_ebnf_order_and_stages_get_pipes() {
    assert_eq!(
        fmt("RECALL LIMIT 3 AS json WITH superseded ABOUT \"x\" ORDER BY time DESC"),
        "RECALL ABOUT \"x\" WITH superseded | LIMIT 3 | ORDER BY time DESC AS json"
    );
}

#[test]
fn two_with_clauses_merge() {
    assert_eq!(fmt("RECALL WITH superseded | LIMIT 2 WITH provenance"), "RECALL WITH superseded, provenance | LIMIT 2");
}

#[test]
fn long_where_breaks_before_and() {
    let src = "RECALL beliefs WHERE subject = \"alice\" AND relation = \"prefers\" AND object = \"a fairly long object value\"";
    assert_eq!(
        fmt(src),
        "RECALL beliefs\n  WHERE subject = \"alice\"\n    AND relation = \"prefers\"\n    AND object = \"a fairly long object value\""
    );
}

#[test]
fn long_with_breaks_after_commas() {
    let src = "RECALL WITH superseded, score_breakdown, explanation, provenance, contradiction_detection, summarize";
    assert_eq!(
        fmt(src),
        "RECALL\n  WITH superseded,\n    score_breakdown,\n    explanation,\n    provenance,\n    contradiction_detection,\n    summarize"
    );
}

#[test]
fn blocks_are_always_broken() {
    assert_eq!(fmt("ASSEMBLE c FROM a: (RECALL beliefs)"), "ASSEMBLE c\n  FROM\n    a: (RECALL beliefs)");
    assert_eq!(fmt("BATCH { a: EXISTS $h }"), "BATCH {\n  a: EXISTS $h\n}");
    assert_eq!(fmt("COALESCE(RECALL beliefs, RECALL goals)"), "COALESCE(\n  RECALL beliefs,\n  RECALL goals\n)");
    assert_eq!(fmt("DEFINE TEMPLATE t ELEMENT {x}"), "DEFINE TEMPLATE t\n  ELEMENT {x}");
    assert_eq!(
        fmt("LET $a = RECALL beliefs; RECALL WHERE subject IN ($a)"),
        "LET $a = RECALL beliefs;\nRECALL WHERE subject IN ($a)"
    );
    assert_eq!(fmt("CAL/1 LET $a = RECALL beliefs; EXISTS $a"), "CAL/1\nLET $a = RECALL beliefs;\nEXISTS $a");
}

#[test]
fn nested_blocks_indent_by_two() {
    assert_eq!(
        fmt("BATCH { a: COALESCE(RECALL beliefs, RECALL goals), b: EXPLAIN ASSEMBLE FROM $x }"),
        "BATCH {\n  a: COALESCE(\n    RECALL beliefs,\n    RECALL goals\n  ),\n  b: EXPLAIN ASSEMBLE\n    FROM\n      $x\n}"
    );
}

#[test]
fn set_operations_print_flat_chains_and_group_right_operands() {
    assert_eq!(fmt("((RECALL) UNION (RECALL)) EXCEPT (RECALL)"), "(RECALL) UNION (RECALL) EXCEPT (RECALL)");
    assert_eq!(fmt("(RECALL) UNION ((RECALL) EXCEPT (RECALL))"), "(RECALL) UNION ((RECALL) EXCEPT (RECALL))");
    let q = parse_query("(RECALL) UNION ((RECALL) EXCEPT (RECALL))").into_result().expect("parses");
    let QueryBody::Statement(Statement::SetOp(op)) = &q.body else { panic!("a set operation") };
    assert!(matches!(op.right.as_ref(), Statement::SetOp(_)), "right-nested as written");
}

#[test]
fn long_set_operations_put_operators_on_their_own_lines() {
    let src = "(RECALL beliefs WHERE subject = \"alice\") INTERSECT (RECALL beliefs WHERE relation = \"prefers\")";
    assert_eq!(
        fmt(src),
        "(RECALL beliefs WHERE subject = \"alice\")\nINTERSECT\n(RECALL beliefs WHERE relation = \"prefers\")"
    );
}

#[test]
fn literals_print_canonically() {
    assert_eq!(
        fmt("RECALL WHERE a = 0.50 AND b = -0 AND c = 007 AND d = 2.0 AND e = TRUE AND f = [ ]"),
        "RECALL WHERE a = 0.5 AND b = 0 AND c = 7 AND d = 2.0 AND e = true AND f = []"
    );
    assert_eq!(fmt(r#"RECALL ABOUT "a \"q\" \\ \x""#), r#"RECALL ABOUT "a \"q\" \\ \\x""#);
    assert_eq!(fmt("RECALL THREAD FROM sha256:deadbeef"), "RECALL THREAD FROM sha256:deadbeef");
}

#[test]
fn keyword_labels_print_in_lower_case() {
    assert_eq!(fmt("BATCH { RECENT: RECALL events RECENT 5 }"), "BATCH {\n  recent: RECALL events RECENT 5\n}");
    assert_eq!(
        fmt("ASSEMBLE FROM History: ($h) PRIORITY HISTORY"),
        "ASSEMBLE\n  FROM\n    history: $h\n  PRIORITY history"
    );
}

#[test]
fn template_text_is_verbatim() {
    let src = "DEFINE TEMPLATE t EXTENDS readable FOOTER {  odd   {spacing}\n\t}";
    assert_eq!(fmt(src), "DEFINE TEMPLATE t\n  EXTENDS readable\n  FOOTER {  odd   {spacing}\n\t}");
}

#[test]
fn documents_join_with_blank_lines() {
    let doc = cal_parser::parse_document("RECALL; EXISTS $h ;").into_result().expect("parses");
    assert_eq!(document_to_text(&doc), "RECALL;\n\nEXISTS $h\n");
    let empty = cal_parser::ast::Document { queries: Vec::new() };
    assert_eq!(document_to_text(&empty), "");
}

#[test]
fn statements_print_on_their_own() {
    let q = parse_query("CAL/1 EXPLAIN RECALL beliefs RECENT 3").into_result().expect("parses");
    let QueryBody::Statement(Statement::Explain(e)) = &q.body else { panic!("EXPLAIN") };
    assert_eq!(statement_to_text(&e.statement), "RECALL beliefs RECENT 3");
}

/// `RECALL beliefs ABOUT "a" WHERE subject = "x…x" | LIMIT 5` with `n` x's: too wide for
/// one line, so laid out one clause per line, six bytes longer than on one line.
fn long_recall(n: usize) -> String {
    format!("RECALL beliefs ABOUT \"a\" WHERE subject = \"{}\" | LIMIT 5", "x".repeat(n))
}

#[test]
fn a_query_whose_layout_would_pass_the_length_limit_prints_on_one_line() {
    let limit = cal_grammar::limits::MAX_QUERY_BYTES;
    let flat_overhead = long_recall(0).len();
    // Laid out at exactly the limit: the layout stays.
    let at = long_recall(limit - 6 - flat_overhead);
    let printed = fmt(&at);
    assert_eq!(printed.len(), limit);
    assert_eq!(printed.lines().count(), 4, "{printed}");
    // One byte more would make the laid-out text 8,193 bytes, refused with CAL-E001: one line instead.
    let over = long_recall(limit - 5 - flat_overhead);
    assert_eq!(fmt(&over), over);
    // The query of exactly 8,192 bytes on one line prints as itself, and parses again.
    let exactly = long_recall(limit - flat_overhead);
    assert_eq!(exactly.len(), limit);
    assert_eq!(fmt(&exactly), exactly);
}

#[test]
fn the_one_line_form_keeps_line_breaks_inside_strings_and_the_tree() {
    // Strings holding line breaks, at exactly 8,192 bytes (the corpus's limit case).
    let src = include_str!("corpus/ok/limit_query_exactly_8192_bytes.cal");
    let q = parse_query(src).into_result().expect("the corpus case parses");
    let printed = query_to_text(&q);
    assert!(printed.len() <= cal_grammar::limits::MAX_QUERY_BYTES, "{} bytes", printed.len());
    let back = parse_query(&printed).into_result().unwrap_or_else(|e| panic!("{e:#?}"));
    assert_eq!(cal_parser::json::query_to_json(&back), cal_parser::json::query_to_json(&q));
    assert_eq!(query_to_text(&back), printed, "printing is idempotent");
    assert!(printed.contains("\"lorem ipsum") && printed.contains('\n'), "the strings' line breaks stay");
}
