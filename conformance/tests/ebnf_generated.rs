//! The cases derived from `grammar/cal.ebnf` read as a grammar (`conformance/cases/generated/ebnf-*.json`,
//! written by `authoring/generated/ebnf_cases.py`): stored, exactly what the generator writes from
//! its seed, at every level, and passed by our engine.

mod common;

use cal_conformance::case::{Body, Level, ParseExpect};
use cal_conformance::inprocess::InProcess;
use cal_conformance::runner::{self, RunOptions, Status};
use cal_conformance::{Flag, default_cases_dir, load_corpus};
use std::collections::BTreeMap;

#[test]
fn the_stored_files_are_what_the_generator_derives_from_the_grammar() {
    common::assert_generator_check("ebnf_cases.py", &["--check"], "ebnf-*");
}

#[test]
fn derivations_at_every_level_their_mutants_and_variants_our_engine_passes() {
    let corpus = load_corpus(&default_cases_dir());
    let cases: Vec<_> = corpus.cases.into_iter().filter(|c| c.id.starts_with("gen.ebnf.")).collect();
    assert!(cases.iter().all(|c| c.has_flag(Flag::Generated)));
    let well_formed: Vec<_> = cases
        .iter()
        .filter(|c| matches!(&c.body, Body::Parse(p) if matches!(p.expect, ParseExpect::WellFormed { .. })))
        .collect();
    // 2,400 derivations, and the round trips of the Core ones moved to `<id>.canonical` (C26).
    assert!(well_formed.len() >= 2_400, "{}", well_formed.len());
    let mut levels = BTreeMap::new();
    for c in &well_formed {
        *levels.entry(c.level).or_insert(0) += 1;
    }
    for level in [Level::Core, Level::Extended, Level::Evolve, Level::Full] {
        assert!(levels.get(&level).copied().unwrap_or(0) >= 100, "{level:?}: {levels:?}");
    }
    let mutants = cases.iter().filter(|c| c.id.starts_with("gen.ebnf.mutant.")).count();
    assert_eq!(mutants, 600);
    // Metamorphic variants read back as the tree of the sentence they came from, not their own text.
    let variants: Vec<_> = cases.iter().filter(|c| c.id.starts_with("gen.ebnf.variant.")).collect();
    assert!(variants.len() >= 750, "{}", variants.len());
    // (A Core variant's round trip is its Extended `<id>.canonical` case, C26.)
    for v in variants.iter().filter(|v| v.level != Level::Core || v.id.ends_with(".canonical")) {
        let Body::Parse(p) = &v.body else { panic!("{}", v.id) };
        let ParseExpect::WellFormed { reads_back_as: Some(base) } = &p.expect else { panic!("{}", v.id) };
        let cal_conformance::case::QueryInput::Text(text) = &p.query else { panic!("{}", v.id) };
        assert_ne!(base, text, "{}", v.id);
    }
    let outcomes = runner::run(&mut InProcess::new(), &cases, &RunOptions::default());
    let bad: Vec<_> = outcomes.iter().filter(|o| o.status != Status::Passed).collect();
    let ids: Vec<&str> = bad.iter().map(|o| o.id.as_str()).collect();
    assert!(bad.is_empty(), "{} of {} fail: {ids:?}\n{:#?}", bad.len(), outcomes.len(), &bad[..bad.len().min(4)]);
}
