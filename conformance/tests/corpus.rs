//! The whole corpus (`conformance/cases`, plus generated variants) run
//! in-process against our toolchain. The corpus grows while it is written,
//! so this test pins what must always hold, not counts:
//!
//! * every case file is schema-valid and every id unique;
//! * our implementation answers every request (nothing skipped or errored);
//! * every failure names what was expected and what we gave;
//! * the certified level follows the rule from the printed counts;
//! * at or below our declared level, every failing case is a recorded
//!   disagreement (`known-disagreements.txt`) — today none, so the declared
//!   level, extended, is certified.
//!
//! It prints the honest summary table: the cases where the corpus keeps the
//! spec's answer against our toolchain are listed there, not hidden
//! (`conformance/authoring/*/…disagreements.md` explain them).

use cal_conformance::inprocess::InProcess;
use cal_conformance::runner::{self, RunOptions, Status};
use cal_conformance::{Implementation, Level, certify, default_cases_dir, default_fixtures_dir, load_corpus, report};

/// Recorded disagreements: failing cases at or below our declared level, each with its reason.
const KNOWN: &str = include_str!("known-disagreements.txt");

#[test]
fn the_corpus_runs_in_process_and_certifies_honestly() {
    let dir = default_cases_dir();
    if !dir.is_dir() {
        eprintln!("no corpus at {} yet", dir.display());
        return;
    }
    let corpus = load_corpus(&dir);
    let problems: Vec<String> = corpus.errors.iter().map(ToString::to_string).collect();
    assert!(problems.is_empty(), "corpus problems:\n{}", problems.join("\n"));
    let mut imp = InProcess::new();
    let hello = imp.hello().expect("hello");
    // What it declared it lacks (HTTP in-process, cross-lingual search without an embedder) is
    // not applicable, as in `cal conformance run`.
    let opts = RunOptions {
        fixtures_dir: default_fixtures_dir(),
        max_level: None,
        lacks: hello.lacks.clone(),
        ..RunOptions::default()
    };
    let outcomes = runner::run(&mut imp, &corpus.cases, &opts);
    let summary = certify::summarize(hello.level, &outcomes);
    println!("{}", report::human(&hello, &summary, &outcomes, 200));

    assert_eq!(outcomes.len(), corpus.cases.len());
    let unanswered: Vec<_> =
        outcomes.iter().filter(|o| matches!(o.status, Status::Skipped | Status::Errored)).collect();
    assert!(unanswered.is_empty(), "the reference toolchain must answer every request: {unanswered:#?}");
    for o in outcomes.iter().filter(|o| o.status == Status::Failed) {
        assert!(!o.mismatches.is_empty(), "{} failed without saying why", o.id);
    }
    // Below the declared level every failure must be a known, recorded disagreement.
    let known: Vec<&str> =
        KNOWN.lines().map(|l| l.split('#').next().unwrap_or("").trim()).filter(|l| !l.is_empty()).collect();
    let unexpected: Vec<&str> = outcomes
        .iter()
        .filter(|o| !matches!(o.status, Status::Passed | Status::NotApplicable))
        .filter(|o| !o.should_case && o.level <= hello.level)
        .map(|o| o.id.as_str())
        .filter(|id| !known.contains(id))
        .collect();
    assert!(
        unexpected.is_empty(),
        "cases at or below the declared level fail (a regression of the toolchain, or a new disagreement \
         to record in conformance/tests/known-disagreements.txt with its reason): {unexpected:?}"
    );
    for id in &known {
        if outcomes.iter().any(|o| o.id == *id && o.status == Status::Passed) {
            println!("known disagreement {id} passes now: remove it from known-disagreements.txt");
        }
    }
    if known.is_empty() {
        assert!(summary.declared_certified(), "no known disagreement, so the declared level is certified");
    }
    let mut expected = None;
    for level in Level::ALL {
        let c = summary.level(level);
        assert_eq!(c.required, c.passed + c.failed + c.skipped + c.errored);
        if c.required == 0 || c.passed != c.required {
            break;
        }
        expected = Some(level);
    }
    assert_eq!(summary.certified, expected);
}
