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

/// `stats` counts every §2.4 excluded word per position, in text and JSON, from the
/// `excluded:<WORD>` and `excluded-as:<position>` tags (ruling C30).
#[test]
fn stats_count_every_excluded_word_per_position() {
    use cal_conformance::exclusions::POSITIONS;
    let corpus = load_corpus(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cases"));
    let s = measure(&corpus.cases);
    assert_eq!(s.per_exclusion.len(), cal_grammar::vocab::ExcludedWord::ALL.len());
    assert_eq!(s.per_exclusion.len(), 29, "§2.4 lists 29 words, not 30 (ruling C30)");
    for (word, per) in &s.per_exclusion {
        for p in POSITIONS {
            assert_eq!(per.get(p), Some(&1), "{word} as {p}");
        }
    }
    assert!(s.exclusions_missing().is_empty());
    let j = s.to_json();
    assert_eq!(j["per_exclusion"]["FORGET"]["json-subquery-stage"], 1);
    assert_eq!(j["per_exclusion"]["PURGE"]["subquery-statement"], 1);
    assert_eq!(j["exclusion_positions"].as_array().map(Vec::len), Some(POSITIONS.len()));
    assert_eq!(j["exclusions_missing_a_position"], serde_json::json!([]));
    let text = s.to_text();
    assert!(text.contains("§2.4 excluded words: 29/29 have a case in every position"), "{text}");
    assert!(text.contains(&format!("  {:<12} {}", "word", POSITIONS.join(" "))), "{text}");

    // A corpus without the generated exclusions: every word lacks every position, and a
    // hand-written case tagged with a word and no position counts as `other`.
    let mut hand: Vec<_> = corpus.cases.iter().filter(|c| !c.id.starts_with("gen.excluded.")).cloned().collect();
    hand[0].tags.push("excluded:DELETE".into());
    let s = measure(&hand);
    assert_eq!(s.exclusions_missing().len(), 29);
    assert_eq!(s.per_exclusion["DELETE"]["other"], 1);
    assert!(s.to_text().contains("DELETE lacks: statement, statement-lower"), "{}", s.to_text());
}

/// The whole corpus keeps its size and breadth (issue 23): at least 2,500 hand-written and
/// 10,000 generated cases (10,000 of them stored in case files, from a seed), at least 5 cases for every error and warning code of Appendix C (the
/// registry, execution-only codes included), and every §2.4 excluded word in every position.
/// A change that drops cases below any of these fails here, naming what is thin.
#[test]
fn the_whole_corpus_keeps_its_size_and_covers_every_code_and_exclusion() {
    const MIN_HAND_WRITTEN: usize = 2_500;
    const MIN_GENERATED: usize = 10_000;
    const MIN_PER_SPEC_CODE: usize = 5;
    let corpus = load_corpus(&Path::new(env!("CARGO_MANIFEST_DIR")).join("cases"));
    assert!(corpus.errors.is_empty(), "{:#?}", corpus.errors);
    let s = measure(&corpus.cases);
    let hand = s.total - s.generated;
    assert!(hand >= MIN_HAND_WRITTEN, "{hand} hand-written cases, fewer than {MIN_HAND_WRITTEN}");
    assert!(s.generated >= MIN_GENERATED, "{} generated cases, fewer than {MIN_GENERATED}", s.generated);
    // Stored, not only derived at load (issue 23: "reproducible from a seed and stored").
    assert!(
        s.generated_stored >= MIN_GENERATED,
        "{} generated cases stored, fewer than {MIN_GENERATED}",
        s.generated_stored
    );
    let thin: Vec<(&str, usize)> =
        s.per_code.iter().filter(|(_, n)| **n < MIN_PER_SPEC_CODE).map(|(c, n)| (*c, *n)).collect();
    assert!(thin.is_empty(), "codes with fewer than {MIN_PER_SPEC_CODE} cases: {thin:?}");
    assert_eq!(s.per_code.len(), cal_grammar::Code::ALL.len(), "every code of the registry is counted");
    let missing = s.exclusions_missing();
    assert!(missing.is_empty(), "excluded words lacking a position: {missing:?}");
    // Every §17.3 limit has a boundary pair, but the performance targets no case can observe (C39).
    let unpaired: Vec<&str> = s
        .limits
        .iter()
        .filter(|(name, (g, h))| *g < 2 && *h < 2 && !cal_conformance::stats::is_performance_target(name))
        .map(|(name, _)| &**name)
        .collect();
    assert!(unpaired.is_empty(), "§17.3 limits without a boundary pair: {unpaired:?}");
}
