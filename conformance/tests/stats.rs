//! Corpus statistics measured against the grammar's own tables.

use cal_conformance::stats::{MIN_CASES_PER_CODE, measure, productions};
use cal_conformance::{Kind, load_corpus};
use std::path::Path;

#[test]
fn productions_are_read_from_the_ebnf_with_their_leading_keywords() {
    let p = productions(cal_grammar::EBNF);
    let sig = |name: &str| p.iter().find(|(n, _)| n == name).map(|(_, s)| s.clone());
    assert_eq!(sig("recall_stmt"), Some(vec!["RECALL"]));
    assert_eq!(sig("as_of_clause"), Some(vec!["AS", "OF"]));
    assert_eq!(sig("where_clause"), Some(vec!["WHERE"]));
    assert_eq!(sig("value"), Some(vec![]), "no keyword: not measurable by keyword");
    assert!(p.len() > 100, "{} productions", p.len());
}

#[test]
fn the_self_test_corpus_is_measured_per_code_keyword_and_limit() {
    let corpus = load_corpus(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cases"));
    let s = measure(&corpus.cases);
    assert_eq!(s.total, corpus.cases.len());
    assert_eq!(s.per_kind.get(Kind::Mg.as_str()), Some(&15));
    assert_eq!(s.per_code.len(), cal_grammar::Code::ALL.len());
    // Limit pairs count as reject cases of their code: E011 has exactly its generated "over" case.
    assert_eq!(s.per_code["CAL-E011"], 1);
    assert!(s.thin_codes().iter().all(|(_, n)| *n < MIN_CASES_PER_CODE));
    assert!(s.per_keyword["RECALL"] >= 3);
    assert_eq!(s.limits["MAX_IN_SET"], (2, 0));
    assert!(s.execute_per_statement["recall"] >= 10);
    let text = s.to_text();
    assert!(text.contains("(execution-only)"), "{text}");
}

/// Every statement, every keyword a production admits and every WITH option has an execute case
/// in the real corpus; every WITH option has two, checking its effect (issue 23, ruling C25).
#[test]
fn every_statement_clause_and_with_option_is_executed() {
    let corpus = load_corpus(&Path::new(env!("CARGO_MANIFEST_DIR")).join("cases"));
    let s = measure(&corpus.cases);
    for statement in
        ["recall", "assemble", "exists", "history", "explain", "describe", "batch", "coalesce", "set_op", "let"]
            .into_iter()
            .chain(["add", "supersede", "revert", "define_template"])
    {
        assert!(s.execute_per_statement.get(statement).is_some_and(|n| *n > 0), "no execute case of {statement}");
    }
    let (missing, reserved) = s.keywords_without_execute_case();
    assert!(missing.is_empty(), "keywords without an execute case: {missing:?}");
    assert!(reserved.len() <= 4, "reserved: {reserved:?}");
    let thin: Vec<_> = s.execute_per_with_option.iter().filter(|(_, n)| **n < 2).collect();
    assert!(thin.is_empty(), "WITH options with fewer than 2 execute cases: {thin:?}");
}
