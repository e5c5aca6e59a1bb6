//! What a refusal reports (ruling C37, CAL §17.1): the checker finds everything for editors,
//! but when the lexer or the parser refused a query, the validator never ran, so a refusal
//! reports only the errors of those phases — its first error is the one the pipeline stops at.

use cal_grammar::{Code, Diagnostic};

fn codes(ds: &[&Diagnostic]) -> Vec<Code> {
    ds.iter().map(|d| d.code).collect()
}

#[test]
fn a_parse_error_hides_what_the_check_of_a_recovered_tree_found() {
    // A type error (CAL-E061, check) before an excluded word (CAL-E002, parse).
    let a = cal_checker::analyze(r#"RECALL beliefs WHERE source_type = 42 AND DELETE = "x""#, None);
    let all: Vec<Code> = a.diagnostics.iter().map(|d| d.code).collect();
    assert!(all.contains(&Code::E002) && all.iter().any(|c| c.info().phase == cal_grammar::Phase::Check), "{all:?}");
    assert_eq!(codes(&a.pipeline_diagnostics()), [Code::E002]);
}

#[test]
fn without_a_lex_or_parse_error_every_diagnostic_is_reported() {
    let a = cal_checker::analyze(r#"RECALL beliefs WHERE source_type = 42 WITH x_hint"#, None);
    assert!(a.has_errors());
    let reported = a.pipeline_diagnostics();
    assert_eq!(reported.len(), a.diagnostics.len(), "{:?}", a.diagnostics);
    assert!(reported.iter().any(|d| !d.is_error()), "the warning stays: {reported:?}");
}

#[test]
fn a_lex_error_hides_check_findings_too_and_keeps_its_own() {
    let a = cal_checker::analyze("RECALL beliefs WHERE subject = \"a\u{202E}b\" AND source_type = 42", None);
    let reported = codes(&a.pipeline_diagnostics());
    assert_eq!(reported, [Code::E071], "{:?}", a.diagnostics);
}
