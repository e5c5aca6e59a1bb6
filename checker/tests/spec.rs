//! Every query of the spec's text checks clean, or with a documented diagnostic.
//!
//! The spec's examples are collected by the parser's corpus as
//! `parser/tests/corpus/ok/spec_*.cal` (one file per example, in the spec's
//! own words). Each must pass the checker too, except where the spec's example
//! breaks one of the spec's own rules: those diagnostics are listed here with
//! the ruling of docs/spec-decisions-checker.md that decides them, and are
//! recognized by code and by the text they point at, not by file name.
//! This crate's own copies of the examples (`tests/corpus/*/spec_*.cal`)
//! pin the same rulings with snapshots.

mod common;

use cal_checker::analyze;
use cal_grammar::Code;
use std::path::Path;

/// `(code, text at the diagnostic's span, ruling)`.
const DOCUMENTED: &[(Code, &str, &str)] = &[
    (Code::E060, "\"color preference\"", "D1: §8.13's COALESCE example combines ABOUT and LIKE (§9.8)"),
    (Code::W004, "x_department", "D2: §10.3.5 projects the extension field x_department"),
    (Code::W004, "x_hnsw_ef(200)", "D3: §25.2's own extension example warns, as §25.2 requires"),
];

fn documented(src: &str, d: &cal_grammar::Diagnostic) -> bool {
    let text = src.get(d.span.range()).unwrap_or("");
    DOCUMENTED.iter().any(|(code, at, _)| *code == d.code && text == *at)
}

#[test]
fn spec_examples_check_clean_or_with_documented_diagnostics() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../parser/tests/corpus/ok");
    let mut files: Vec<_> =
        std::fs::read_dir(&dir).map(|r| r.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    files.retain(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("spec_")));
    files.sort();
    let mut problems = Vec::new();
    for path in &files {
        let src = std::fs::read_to_string(path).unwrap();
        let a = analyze(&src, None);
        for d in a.diagnostics.iter().filter(|d| !documented(&src, d)) {
            problems.push(format!("{}:\n{}", path.display(), common::frame(&src, d)));
        }
    }
    assert!(
        problems.is_empty(),
        "{} undocumented diagnostic(s) on spec examples:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn documented_exceptions_are_still_needed() {
    // Each ruling is pinned by this crate's copy of the example; if the rule changes,
    // the snapshot changes and this list must be revisited.
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut seen = vec![false; DOCUMENTED.len()];
    for dir in ["ok", "err"] {
        for e in std::fs::read_dir(corpus.join(dir)).unwrap().flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if !name.starts_with("spec_") {
                continue;
            }
            let src = std::fs::read_to_string(e.path()).unwrap();
            for d in &analyze(&src, None).diagnostics {
                let text = src.get(d.span.range()).unwrap_or("");
                for (i, (code, at, _)) in DOCUMENTED.iter().enumerate() {
                    seen[i] |= *code == d.code && text == *at;
                }
            }
        }
    }
    for ((code, at, ruling), seen) in DOCUMENTED.iter().zip(seen) {
        assert!(seen, "{code} at {at} ({ruling}) is no longer produced by any spec example of tests/corpus");
    }
}
