//! The whole corpus (`conformance/cases`, plus generated variants) run
//! in-process against our toolchain. The corpus grows while it is written,
//! so this test pins what must always hold, not counts:
//!
//! * every case file is schema-valid and every id unique;
//! * our implementation answers every request (nothing skipped or errored);
//! * every failure names what was expected and what we gave;
//! * the certified level follows the rule from the printed counts.
//!
//! It prints the honest summary table: the cases where the corpus keeps the
//! spec's answer against our toolchain are listed there, not hidden
//! (`conformance/authoring/*/…disagreements.md` explain them).

use cal_conformance::inprocess::InProcess;
use cal_conformance::runner::{self, RunOptions, Status};
use cal_conformance::{Implementation, Level, certify, default_cases_dir, default_fixtures_dir, load_corpus, report};

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
    let opts = RunOptions { fixtures_dir: default_fixtures_dir(), max_level: None };
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
    // A floor, not a snapshot: the corpus keeps the spec's answer where our toolchain disagrees
    // (a handful of cases), so certification may fail, but a broken comparison or a regression
    // of the toolchain shows up as many failures at once.
    for level in Level::ALL.into_iter().filter(|l| *l <= hello.level) {
        let c = summary.level(level);
        assert!(c.failed * 100 <= c.required, "{level}: {} of {} required cases fail", c.failed, c.required);
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
