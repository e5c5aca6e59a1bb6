//! Certification rules (CAL §24): cumulative levels, SHOULD never gates,
//! nothing is certified on an empty level.

use cal_conformance::runner::{Outcome, Status};
use cal_conformance::{Kind, Level, certify::summarize, compare::ShouldCheck};

fn outcome(id: &str, level: Level, status: Status, should_case: bool) -> Outcome {
    Outcome {
        id: id.into(),
        kind: Kind::Parse,
        level,
        should_case,
        generated: false,
        status,
        mismatches: Vec::new(),
        should: Vec::new(),
        rulings: Vec::new(),
        message: None,
        sections: Vec::new(),
        expected_failure: false,
    }
}

#[test]
fn every_level_passing_certifies_full() {
    let outs: Vec<Outcome> = Level::ALL.iter().map(|l| outcome("a", *l, Status::Passed, false)).collect();
    let s = summarize(Level::Extended, &outs);
    assert_eq!(s.certified, Some(Level::Full));
    assert!(s.declared_certified());
}

#[test]
fn a_failure_blocks_its_level_and_every_level_above() {
    let mut outs: Vec<Outcome> = Level::ALL.iter().map(|l| outcome("a", *l, Status::Passed, false)).collect();
    outs.push(outcome("b", Level::Extended, Status::Failed, false));
    let s = summarize(Level::Extended, &outs);
    assert_eq!(s.certified, Some(Level::Core));
    assert!(!s.declared_certified());
    assert_eq!(s.level(Level::Extended).failed, 1);
    assert_eq!(s.level(Level::Extended).required, 2);
}

#[test]
fn skipped_and_errored_required_cases_also_block() {
    for status in [Status::Skipped, Status::Errored] {
        let outs = vec![outcome("a", Level::Core, Status::Passed, false), outcome("b", Level::Core, status, false)];
        assert_eq!(summarize(Level::Core, &outs).certified, None, "{status:?}");
    }
}

#[test]
fn should_cases_and_checks_are_scored_but_never_gate() {
    let mut failing_should = outcome("s", Level::Core, Status::Failed, true);
    failing_should.should = vec![ShouldCheck { check: "position".into(), passed: false, source: "§22.1".into() }];
    let mut passing = outcome("a", Level::Core, Status::Passed, false);
    passing.should = vec![ShouldCheck { check: "suggestion".into(), passed: true, source: "§22.1".into() }];
    let s = summarize(Level::Core, &[passing, failing_should]);
    assert_eq!(s.certified, Some(Level::Core));
    assert_eq!((s.should.cases, s.should.cases_passed), (1, 0));
    assert_eq!((s.should.checks, s.should.checks_passed), (2, 1));
    assert_eq!(s.level(Level::Core).required, 1);
}

#[test]
fn an_empty_level_is_not_certified() {
    let outs =
        vec![outcome("a", Level::Core, Status::Passed, false), outcome("c", Level::Evolve, Status::Passed, false)];
    let s = summarize(Level::Core, &outs);
    assert_eq!(s.certified, Some(Level::Core), "no extended case ran, so neither extended nor evolve is certified");
}

#[test]
fn nothing_run_certifies_nothing() {
    assert_eq!(summarize(Level::Core, &[]).certified, None);
}

/// A check of a project ruling (house style) that the engine did not follow never fails its
/// case or blocks a level; it is counted per ruling.
#[test]
fn ruling_checks_are_counted_per_ruling_but_never_gate() {
    use cal_conformance::compare::RulingCheck;
    let mut outs: Vec<Outcome> = Level::ALL.iter().map(|l| outcome("a", *l, Status::Passed, false)).collect();
    let check = |passed| RulingCheck {
        check: "canonical layout".into(),
        ruling: "spec-decisions-conformance.md C14".into(),
        passed,
        expected: serde_json::Value::Null,
        actual: serde_json::Value::Null,
    };
    outs[0].rulings = vec![check(false), check(true)];
    let s = summarize(Level::Full, &outs);
    assert_eq!(s.certified, Some(Level::Full));
    assert_eq!((s.rulings.checks, s.rulings.checks_passed), (2, 1));
    let t = s.rulings.by_ruling["spec-decisions-conformance.md C14"];
    assert_eq!((t.checks, t.passed), (2, 1));
}

#[test]
fn describe_and_the_adapter_declare_the_same_level() {
    assert_eq!(cal_conformance::inprocess::DECLARED_LEVEL.as_str(), cal_interp::DECLARED_LEVEL);
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).expect("README");
    assert!(
        readme.contains(&format!("conformance level: **{}**", cal_interp::DECLARED_LEVEL)),
        "the README states the declared level"
    );
}

/// Expected failures (`--expected-failures`, ruling C28): a listed case that does not pass is
/// expected, one that passes is an unexpected pass, an unlisted required failure is
/// unexpected; SHOULD cases never count. (outcomes, listed ids, as expected?, expected,
/// passed unexpectedly, not run, unexpected failures)
#[test]
fn expected_failures_are_judged_against_the_list() {
    use cal_conformance::selection::ExpectedFailures;
    type Row = (Vec<(&'static str, Status, bool)>, Vec<&'static str>, bool, usize, usize, usize, usize);
    let table: Vec<Row> = vec![
        (vec![("a", Status::Failed, false), ("b", Status::Passed, false)], vec!["a"], true, 1, 0, 0, 0),
        (vec![("a", Status::Errored, false), ("b", Status::Skipped, false)], vec!["a", "b"], true, 2, 0, 0, 0),
        (vec![("a", Status::Passed, false)], vec!["a"], false, 0, 1, 0, 0),
        (vec![("a", Status::Failed, false), ("b", Status::Failed, false)], vec!["a"], false, 1, 0, 0, 1),
        (vec![("a", Status::Failed, false), ("s", Status::Failed, true)], vec!["a", "zz"], true, 1, 0, 1, 0),
        (vec![("a", Status::NotApplicable, false)], vec!["a"], true, 0, 0, 1, 0),
    ];
    for (outs, listed, ok, failed, passed, not_run, unexpected) in table {
        let outcomes: Vec<Outcome> =
            outs.iter().map(|(id, st, should)| outcome(id, Level::Core, *st, *should)).collect();
        let listed: std::collections::BTreeSet<String> = listed.iter().map(|s| s.to_string()).collect();
        let e = ExpectedFailures::judge(&listed, &outcomes);
        let got = (e.as_expected(), e.failed.len(), e.passed.len(), e.not_run.len(), e.unexpected_failures);
        assert_eq!(got, (ok, failed, passed, not_run, unexpected), "{outs:?} listing {listed:?}");
        let mut marked = outcomes.clone();
        e.mark(&mut marked);
        for o in &marked {
            assert_eq!(o.expected_failure, e.failed.contains(&o.id), "{}", o.id);
        }
        let s = summarize(Level::Core, &outcomes).filtered("--expected-failures x".into()).with_expected(Some(e));
        assert_eq!(s.all_required_passed(), ok);
        assert_eq!(s.certified, None, "a run with expected failures certifies nothing");
    }
}
