//! Choosing which cases a run sends, the way toml-test (`-skip`), test262
//! (`--features`, its expectations files) and Bowtie (`--filter`, `--expect`) let an
//! implementer work through a suite: keep cases by id prefix (`--only`) or tag (`--tag`),
//! leave some out (`--skip FILE`), and list the ones known to fail
//! (`--expected-failures FILE`). A run narrowed in any of these ways reports its results
//! but certifies nothing ([`crate::certify::Summary::filtered`]); the filter is recorded
//! in its report.
//!
//! A list file holds one entry per line; `#` starts a comment (to the end of the line),
//! blank lines are ignored.

use crate::case::Case;
use crate::runner::{Outcome, Status};
use serde::Serialize;
use std::collections::BTreeSet;

/// How a run is narrowed. Empty: the whole corpus, and the run may certify.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// Keep only cases whose id starts with one of these (`--only`).
    pub only: Vec<String>,
    /// Keep only cases carrying one of these tags (`--tag`).
    pub tags: Vec<String>,
    /// Leave out cases whose id is, or starts with, one of these (`--skip FILE`), and the
    /// files they came from (for the recorded filter).
    pub skip: Vec<String>,
    /// The `--skip` files named.
    pub skip_files: Vec<String>,
    /// Ids expected to fail (`--expected-failures FILE`), exact ids.
    pub expected_failures: BTreeSet<String>,
    /// The `--expected-failures` files named.
    pub expected_files: Vec<String>,
}

/// Parses a list file: one entry per line, `#` comments, blank lines ignored.
pub fn parse_list(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split_once('#').map_or(l, |(before, _)| before).trim())
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

impl Selection {
    /// Whether the run is narrowed at all (then it certifies nothing).
    pub fn is_filtered(&self) -> bool {
        !self.only.is_empty()
            || !self.tags.is_empty()
            || !self.skip_files.is_empty()
            || !self.expected_files.is_empty()
            || !self.skip.is_empty()
            || !self.expected_failures.is_empty()
    }

    /// Whether a case is run.
    pub fn keeps(&self, case: &Case) -> bool {
        let id = case.id.as_str();
        (self.only.is_empty() || self.only.iter().any(|p| id.starts_with(p.as_str())))
            && (self.tags.is_empty() || self.tags.iter().any(|t| case.tags.iter().any(|c| c == t)))
            && !self.skip.iter().any(|p| id.starts_with(p.as_str()))
    }

    /// Narrows `cases` to the ones run.
    pub fn apply(&self, cases: &mut Vec<Case>) {
        cases.retain(|c| self.keeps(c));
    }

    /// The filter as recorded in a report (`--only parse. --tag E003 --skip skip.txt (3 entries)`),
    /// `None` when the run is not narrowed.
    pub fn describe(&self) -> Option<String> {
        if !self.is_filtered() {
            return None;
        }
        let mut parts: Vec<String> = self.only.iter().map(|p| format!("--only {p}")).collect();
        parts.extend(self.tags.iter().map(|t| format!("--tag {t}")));
        for f in &self.skip_files {
            parts.push(format!("--skip {f}"));
        }
        if !self.skip.is_empty() {
            parts.push(format!("({} skipped id(s) or prefix(es))", self.skip.len()));
        }
        for f in &self.expected_files {
            parts.push(format!("--expected-failures {f}"));
        }
        if !self.expected_failures.is_empty() {
            parts.push(format!("({} expected failure(s))", self.expected_failures.len()));
        }
        Some(parts.join(" "))
    }

    /// How the listed expected failures fared, `None` when none were listed.
    pub fn expected(&self, outcomes: &[Outcome]) -> Option<ExpectedFailures> {
        if self.expected_failures.is_empty() && self.expected_files.is_empty() {
            return None;
        }
        Some(ExpectedFailures::judge(&self.expected_failures, outcomes))
    }
}

/// What became of the cases listed as expected to fail.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ExpectedFailures {
    /// Ids listed.
    pub listed: usize,
    /// Listed cases that ran and did not pass (failed, skipped or errored): expected failures.
    pub failed: Vec<String>,
    /// Listed cases that ran and passed: unexpected passes (the list is stale).
    pub passed: Vec<String>,
    /// Listed ids no case run has (not in the corpus, or filtered out, or not applicable).
    pub not_run: Vec<String>,
    /// Required cases that did not pass and were not listed: unexpected failures.
    pub unexpected_failures: usize,
}

impl ExpectedFailures {
    /// Judges the listed ids against a run's outcomes.
    pub fn judge(listed: &BTreeSet<String>, outcomes: &[Outcome]) -> ExpectedFailures {
        let mut e = ExpectedFailures { listed: listed.len(), ..ExpectedFailures::default() };
        let mut seen = BTreeSet::new();
        for o in outcomes {
            let not_passed = !matches!(o.status, Status::Passed | Status::NotApplicable);
            if listed.contains(&o.id) && o.status != Status::NotApplicable {
                seen.insert(o.id.as_str());
                if not_passed { e.failed.push(o.id.clone()) } else { e.passed.push(o.id.clone()) }
            } else if not_passed && !o.should_case {
                e.unexpected_failures += 1;
            }
        }
        e.not_run = listed.iter().filter(|id| !seen.contains(id.as_str())).cloned().collect();
        e
    }

    /// Whether the run went as the list said: every required case not listed passed, and no
    /// listed case passed.
    pub fn as_expected(&self) -> bool {
        self.unexpected_failures == 0 && self.passed.is_empty()
    }

    /// Whether `id` is an expected failure of this run.
    pub fn is_expected(&self, id: &str) -> bool {
        self.failed.iter().any(|f| f == id)
    }

    /// Marks the outcomes of the expected failures (`Outcome::expected_failure`), so that their
    /// report lines say so.
    pub fn mark(&self, outcomes: &mut [Outcome]) {
        let failed: BTreeSet<&str> = self.failed.iter().map(String::as_str).collect();
        for o in outcomes {
            o.expected_failure = failed.contains(o.id.as_str());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_file_has_one_entry_a_line_with_comments() {
        let text = "# known failures\nparse.a.001\n\n  parse.b.   # a prefix\n#whole line\nexecute.x.002\t\n";
        assert_eq!(parse_list(text), ["parse.a.001", "parse.b.", "execute.x.002"]);
    }

    #[test]
    fn a_selection_with_nothing_in_it_is_not_a_filter() {
        assert_eq!(Selection::default().describe(), None);
        let s = Selection { tags: vec!["E003".into()], only: vec!["parse.".into()], ..Selection::default() };
        assert_eq!(s.describe().as_deref(), Some("--only parse. --tag E003"));
    }
}
