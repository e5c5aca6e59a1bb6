//! The framework on its own small corpus (`tests/data/cases`, ~15 cases per
//! kind plus the generated ones): our toolchain passes every case in-process,
//! the report has the documented shape, and the generated variants exist.

use cal_conformance::inprocess::InProcess;
use cal_conformance::runner::{self, RunOptions, Status};
use cal_conformance::{Implementation, Kind, Level, certify, load_corpus, report};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

fn opts() -> RunOptions {
    RunOptions { fixtures_dir: data().join("fixtures"), max_level: None, ..RunOptions::default() }
}

#[test]
fn the_self_test_corpus_has_every_kind_and_its_generated_variants() {
    let corpus = load_corpus(&data().join("cases"));
    assert!(corpus.errors.is_empty(), "{:#?}", corpus.errors);
    for kind in Kind::ALL {
        let n = corpus.cases.iter().filter(|c| c.kind() == kind && !c.id.starts_with("gen.")).count();
        assert!(n >= 15, "{n} {} cases", kind.as_str());
    }
    let ids: Vec<&str> = corpus.cases.iter().map(|c| c.id.as_str()).collect();
    for suffix in ["gen-case", "gen-ws", "gen-comment"] {
        assert!(ids.contains(&format!("t.parse.ok.002.{suffix}").as_str()), "no {suffix} variant");
    }
    assert!(ids.contains(&"gen.limit.max_in_set.at") && ids.contains(&"gen.limit.max_in_set.over"));
    assert!(ids.contains(&"gen.limit.min_coalesce.under"));
}

#[test]
fn our_toolchain_passes_every_self_test_case_in_process() {
    let corpus = load_corpus(&data().join("cases"));
    let mut imp = InProcess::new();
    let hello = imp.hello().expect("in-process hello");
    let outcomes = runner::run(&mut imp, &corpus.cases, &opts());
    let bad: Vec<_> = outcomes.iter().filter(|o| o.status != Status::Passed).collect();
    assert!(bad.is_empty(), "{bad:#?}");
    let summary = certify::summarize(hello.level, &outcomes);
    assert_eq!(summary.certified, Some(Level::Full));
    assert!(summary.declared_certified());
    assert_eq!(summary.should.cases, 1);
    assert!(summary.should.checks >= 11, "positions and pointers are SHOULD checks: {:?}", summary.should);
    assert_eq!(summary.should.checks, summary.should.checks_passed, "{:?}", summary.should);
}

#[test]
fn the_jsonl_report_is_a_header_one_line_per_case_and_a_summary() {
    let corpus = load_corpus(&data().join("cases"));
    let mut imp = InProcess::new();
    let hello = imp.hello().expect("hello");
    let outcomes = runner::run(&mut imp, &corpus.cases, &opts());
    let summary = certify::summarize(hello.level, &outcomes);
    let text = report::jsonl(&hello, &outcomes, &summary, &report::CorpusFacts::errors(0));
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("each line is JSON")).collect();
    assert_eq!(lines.len(), outcomes.len() + 2);
    assert_eq!(lines[0]["type"], "header");
    assert_eq!(lines[0]["implementation"]["declared_level"], "evolve");
    assert_eq!(lines[0]["cases"], outcomes.len());
    assert!(lines[1..=outcomes.len()].iter().all(|l| l["type"] == "case" && l["status"] == "passed"));
    let last = lines.last().expect("summary line");
    assert_eq!(last["type"], "summary");
    assert_eq!(last["certified_level"], "full");
    let core = &last["levels"]["core"];
    assert_eq!(core["required"], core["passed"]);
    for line in &lines {
        assert_eq!(report::validate_line(line), Ok(()), "{line}");
    }
    let mut with_failures = report::summary_json(&summary, &outcomes);
    with_failures["failures"] = serde_json::json!([report::case_line(&outcomes[0])]);
    assert_eq!(report::validate_line(&with_failures), Ok(()), "the --json summary (with failures) fits too");
    let human = report::human(&hello, &summary, &outcomes, 10);
    assert!(human.contains("certified level: full"), "{human}");
    assert!(human.contains("core") && human.contains("required"), "{human}");
}

#[test]
fn max_level_runs_only_the_cases_up_to_it() {
    let corpus = load_corpus(&data().join("cases"));
    let mut imp = InProcess::new();
    let o = RunOptions { max_level: Some(Level::Core), ..opts() };
    let outcomes = runner::run(&mut imp, &corpus.cases, &o);
    assert!(!outcomes.is_empty());
    assert!(outcomes.iter().all(|x| x.level == Level::Core));
    let summary = certify::summarize(Level::Core, &outcomes);
    assert_eq!(summary.certified, Some(Level::Core), "extended has no case run, so it is not certified");
}

#[test]
fn a_missing_fixture_makes_its_cases_errored_not_the_run() {
    let corpus = load_corpus(&data().join("cases"));
    let exec: Vec<_> = corpus.cases.iter().filter(|c| c.kind() == Kind::Execute).cloned().collect();
    let mut imp = InProcess::new();
    let o = RunOptions { fixtures_dir: data().join("no-such-dir"), max_level: None, ..RunOptions::default() };
    let outcomes = runner::run(&mut imp, &exec, &o);
    assert_eq!(outcomes.len(), exec.len());
    for x in &outcomes {
        assert_eq!(x.status, Status::Errored);
        assert!(x.message.as_deref().unwrap_or("").contains("not found"), "{x:?}");
    }
}
