//! One mistake, one diagnostic (docs/spec-decisions.md E1): after a syntax
//! error the parser recovers with placeholders (an empty field name, a COALESCE
//! without branches, an ADD that ends before its broken REASON, a word split at
//! a look-alike letter), and the checker must not report on them. Each case is
//! a conformance case that used to get a second, spurious diagnostic
//! (`conformance/authoring/parse_wire/DISAGREEMENTS.md`); the counter-cases show
//! the same checks still firing where the text really has the problem.

use cal_checker::analyze;
use cal_grammar::{Code, Span};

/// Every diagnostic of `text` as (code, start, end).
fn diagnostics(text: &str) -> Vec<(Code, u32, u32)> {
    analyze(text, None).diagnostics.iter().map(|d| (d.code, d.span.start, d.span.end)).collect()
}

/// Asserts that `text` gets exactly one diagnostic: `code` on the bytes `at`.
fn only(text: &str, code: Code, at: std::ops::Range<u32>) {
    assert_eq!(diagnostics(text), [(code, at.start, at.end)], "{text}");
}

#[test]
fn a_missing_condition_is_not_an_unknown_empty_field() {
    // parse.keyword.no_production.004, parse.spec.6_1_recall_where_elided.001,
    // parse.err.e002.004, parse.err.e002.056
    only("RECALL WHERE NOT contradicted = true", Code::E002, 13..16);
    only("RECALL WHERE ...", Code::E002, 13..16);
    only(r#"RECALL beliefs WHERE NOT subject = "a""#, Code::E002, 21..24);
    only(
        "RECALL beliefs -- the condition is on the next line\nWHERE subject = \"a\" AND AND object = \"b\"",
        Code::E002,
        76..79,
    );
}

#[test]
fn a_broken_coalesce_branch_is_not_a_branch_count() {
    // parse.err.e002.026
    only("COALESCE(RECALL beliefs, RECALL goals, EXISTS sha256:a1b2c3d4)", Code::E002, 39..45);
    // One branch written is still CAL-E013.
    only("COALESCE(RECALL beliefs)", Code::E013, 9..23);
}

#[test]
fn reason_without_its_string_is_not_a_missing_reason() {
    // parse.err.e002.040
    only(r#"ADD belief SET subject = "a" SET relation = "b" SET object = "c" REASON"#, Code::E002, 71..71);
    // No REASON at all is CAL-E018 …
    only(r#"ADD belief SET subject = "a" SET relation = "b" SET object = "c""#, Code::E018, 64..64);
    // … also when a later query of the document has a syntax error of its own.
    let doc = "ADD belief SET subject = \"a\" SET relation = \"b\" SET object = \"c\";\nRECALL WHERE NOT x = 1";
    let got: Vec<Code> = diagnostics(doc).iter().map(|d| d.0).collect();
    assert_eq!(got, [Code::E018, Code::E002]);
}

#[test]
fn a_look_alike_letter_is_one_diagnostic_at_the_letter() {
    // parse.i18n.ascii_identifiers.001, .002, .004: a Greek or Cyrillic letter
    // splits the word; only the letter is reported, not the ASCII fragments.
    only("RΕCALL beliefs", Code::E002, 1..3);
    only(r#"RECALL beliefs WHERE subjеct = "a""#, Code::E002, 25..27);
    only("RECALL beliefs | LIMΙT 5", Code::E002, 20..22);
}

#[test]
fn other_mistakes_of_a_broken_query_are_still_reported() {
    // The unknown field is its own mistake, away from the broken stage.
    let got = diagnostics(r#"RECALL beliefs WHERE subjct = "a" | ORDER"#);
    assert_eq!(got.iter().map(|d| d.0).collect::<Vec<_>>(), [Code::E004, Code::E002], "{got:?}");
    assert_eq!(Span::new(got[0].1 as usize, got[0].2 as usize), Span::new(21, 27));
    // A misspelt field beside a stray letter elsewhere keeps its diagnostic.
    let got = diagnostics(r#"RECALL beliefs WHERE subjct = "a" AND objеct = "b""#);
    assert_eq!(got.iter().map(|d| d.0).collect::<Vec<_>>(), [Code::E004, Code::E002], "{got:?}");
}

#[test]
fn check_alone_skips_the_placeholders_of_a_partial_tree() {
    // `check_document` on the tree the parser recovered (as a server holding a
    // partial tree would call it): the placeholders themselves are not judged.
    for text in ["RECALL WHERE NOT contradicted = true", r#"RECALL beliefs WHERE subject = "a" AND AND object = "b""#] {
        let doc = cal_parser::parse_document(text).ast.expect("a partial tree");
        let codes: Vec<Code> = cal_checker::check_document(&doc, None).iter().map(|d| d.code).collect();
        assert!(codes.is_empty(), "{text}: {codes:?}");
    }
    let doc =
        cal_parser::parse_document("COALESCE(RECALL beliefs, EXISTS sha256:a1b2c3d4)").ast.expect("a partial tree");
    assert!(cal_checker::check_document(&doc, None).is_empty());
}
