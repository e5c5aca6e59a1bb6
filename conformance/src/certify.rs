//! Certification (CAL §24): levels are cumulative, so a level is certified
//! only when every required case of it and of every level below it passed —
//! and at least one required case of each of those levels was run (nothing
//! is certified on an empty set). SHOULD cases and SHOULD checks are scored
//! apart and never gate; so are the checks of project rulings (house style,
//! docs/spec-decisions-conformance.md C13), counted per ruling. Cases not
//! applicable (a capability the implementation lacks, C20) are counted apart:
//! they neither pass nor block, and the certificate says how many there were.

use crate::case::Level;
use crate::runner::{Outcome, Status};
use serde::Serialize;
use std::collections::BTreeMap;

/// Counts of one level's required cases.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct LevelCounts {
    /// Required (non-`should`) cases run at this level.
    pub required: usize,
    /// Of which passed.
    pub passed: usize,
    /// Failed.
    pub failed: usize,
    /// Skipped by the implementation.
    pub skipped: usize,
    /// Errored.
    pub errored: usize,
    /// Not applicable: not run, the implementation lacks a capability they need (not counted
    /// in `required`; the certificate says how many).
    pub not_applicable: usize,
}

impl LevelCounts {
    /// Whether every required case of the level passed (and there was one).
    pub fn clean(&self) -> bool {
        self.required > 0 && self.passed == self.required
    }
}

/// The SHOULD score: SHOULD cases and SHOULD checks of all cases.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct ShouldScore {
    /// SHOULD cases run.
    pub cases: usize,
    /// Of which passed.
    pub cases_passed: usize,
    /// SHOULD checks made (positions, suggestions, examples, pointers).
    pub checks: usize,
    /// Of which held.
    pub checks_passed: usize,
}

/// How often an implementation followed one project ruling.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Checks made.
    pub checks: usize,
    /// Of which held.
    pub passed: usize,
}

/// The score of the project-ruling checks: reported like SHOULD, never gating a level, so an
/// engine that follows the spec but not our house style (our canonical layout, a code the spec
/// does not assign) still certifies, and the report shows where it differs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RulingScore {
    /// Ruling checks made.
    pub checks: usize,
    /// Of which held.
    pub checks_passed: usize,
    /// Per ruling (`spec-decisions-grammar.md B1`).
    pub by_ruling: BTreeMap<String, Tally>,
}

/// The certification result of a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// The level the implementation claims.
    pub declared: Level,
    /// The highest level certified, if any.
    pub certified: Option<Level>,
    /// Per level, lowest first.
    pub levels: Vec<(Level, LevelCounts)>,
    /// The SHOULD score.
    pub should: ShouldScore,
    /// The score of the project-ruling checks (never gating).
    pub rulings: RulingScore,
    /// Cases run in all.
    pub total: usize,
    /// The filter a partial run was made with (`--only parse.`): such a run reports its
    /// results but certifies nothing, since it did not run the level's cases.
    pub filter: Option<String>,
    /// How the cases listed as expected to fail fared (`--expected-failures`), if any were listed.
    pub expected_failures: Option<crate::selection::ExpectedFailures>,
}

impl Summary {
    /// Cases not applicable at the certified level and below (what the certificate was earned without).
    pub fn not_applicable_certified(&self) -> usize {
        self.levels.iter().filter(|(l, _)| self.certified.is_some_and(|c| *l <= c)).map(|(_, c)| c.not_applicable).sum()
    }

    /// Whether the declared level is certified (the exit status of `cal conformance run`).
    pub fn declared_certified(&self) -> bool {
        self.certified.is_some_and(|c| c >= self.declared)
    }

    /// The summary of a filtered run: the same counts, no level certified.
    pub fn filtered(self, filter: String) -> Summary {
        Summary { certified: None, filter: Some(filter), ..self }
    }

    /// The summary with the verdict on the listed expected failures.
    pub fn with_expected(self, expected_failures: Option<crate::selection::ExpectedFailures>) -> Summary {
        Summary { expected_failures, ..self }
    }

    /// Whether every required case that ran passed (the exit status of a filtered run); with a
    /// list of expected failures, whether the run went as listed: every required case not
    /// listed passed and no listed case passed.
    pub fn all_required_passed(&self) -> bool {
        match &self.expected_failures {
            Some(e) => e.as_expected(),
            None => self.levels.iter().all(|(_, c)| c.passed == c.required),
        }
    }

    /// The counts of one level.
    pub fn level(&self, level: Level) -> LevelCounts {
        self.levels.iter().find(|(l, _)| *l == level).map(|(_, c)| *c).unwrap_or_default()
    }
}

/// Certifies a run.
pub fn summarize(declared: Level, outcomes: &[Outcome]) -> Summary {
    let mut levels: Vec<(Level, LevelCounts)> = Level::ALL.iter().map(|l| (*l, LevelCounts::default())).collect();
    let mut should = ShouldScore::default();
    let mut rulings = RulingScore::default();
    for o in outcomes {
        for r in &o.rulings {
            rulings.checks += 1;
            rulings.checks_passed += usize::from(r.passed);
            let t = rulings.by_ruling.entry(r.ruling.clone()).or_default();
            t.checks += 1;
            t.passed += usize::from(r.passed);
        }
        should.checks += o.should.len();
        should.checks_passed += o.should.iter().filter(|c| c.passed).count();
        if o.should_case {
            if o.status != Status::NotApplicable {
                should.cases += 1;
                should.cases_passed += usize::from(o.status == Status::Passed);
            }
            continue;
        }
        let Some((_, c)) = levels.iter_mut().find(|(l, _)| *l == o.level) else { continue };
        if o.status == Status::NotApplicable {
            c.not_applicable += 1;
            continue;
        }
        c.required += 1;
        match o.status {
            Status::Passed => c.passed += 1,
            Status::Failed => c.failed += 1,
            Status::Skipped => c.skipped += 1,
            Status::Errored => c.errored += 1,
            Status::NotApplicable => {}
        }
    }
    let mut certified = None;
    for (level, counts) in &levels {
        if !counts.clean() {
            break;
        }
        certified = Some(*level);
    }
    Summary {
        declared,
        certified,
        levels,
        should,
        rulings,
        total: outcomes.len(),
        filter: None,
        expected_failures: None,
    }
}
