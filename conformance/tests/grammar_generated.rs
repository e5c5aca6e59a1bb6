//! The grammar-directed generated cases (`conformance/cases/generated/`): stored, exactly
//! what their generator writes from its seed, flagged generated, and passed by our engine.

mod common;

use cal_conformance::case::{Body, ParseExpect};
use cal_conformance::inprocess::InProcess;
use cal_conformance::runner::{self, RunOptions, Status};
use cal_conformance::{Flag, default_cases_dir, load_corpus};

#[test]
fn the_stored_files_are_what_the_generator_writes_from_its_seed() {
    common::assert_generator_check("grammar_cases.py", &["--check"], "grammar-*");
}

#[test]
fn seven_thousand_generated_cases_our_engine_passes() {
    let corpus = load_corpus(&default_cases_dir());
    let cases: Vec<_> = corpus.cases.into_iter().filter(|c| c.id.starts_with("gen.grammar.")).collect();
    assert!(cases.len() >= 7_000, "{}", cases.len());
    assert!(cases.iter().all(|c| c.has_flag(Flag::Generated)));
    let round_trips = cases
        .iter()
        .filter(|c| matches!(&c.body, Body::Parse(p) if matches!(&p.expect, ParseExpect::Accept { reads_back_as: Some(_), .. })))
        .count();
    assert!(round_trips >= 4_000, "{round_trips}");
    // Every mutation kind is there (ruling C35): the first error Appendix C names for each.
    let mut codes = std::collections::BTreeSet::new();
    for c in &cases {
        if let Body::Parse(p) = &c.body
            && let ParseExpect::Reject { code, .. } = &p.expect
        {
            codes.insert(code.clone());
        }
    }
    let want = ["E002", "E003", "E004", "E005", "E006", "E015", "E020", "E022", "E070", "E071"];
    assert_eq!(codes, want.iter().map(|c| format!("CAL-{c}")).collect(), "mutation codes");
    let outcomes = runner::run(&mut InProcess::new(), &cases, &RunOptions::default());
    let bad: Vec<_> = outcomes.iter().filter(|o| o.status != Status::Passed).take(5).collect();
    assert!(bad.is_empty(), "{bad:#?}");
}
