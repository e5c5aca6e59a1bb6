//! The directory-driven checker corpus.
//!
//! Every `tests/corpus/ok/*.cal` file must check without errors, and its
//! warnings must be exactly the codes its `-- expect:` lines list. Every
//! `tests/corpus/err/*.cal` file must produce at least one error, every code
//! its `-- expect: CAL-Exxx …` lines list, and nothing else. `-- param:
//! name=value` lines bind parameters (`-- params: none` binds none), as
//! `cal check --param` does.
//!
//! Each file gets a snapshot that reads on its own: the source, the bindings,
//! and every diagnostic (parse and check) as a code frame with its help, fix,
//! example, valid values and notes. The harness also checks, for every case,
//! the invariants of `common::check_invariants` and that each replacement
//! fixes its diagnostic.

mod common;

use cal_checker::analyze_bytes;
use common::*;
use std::fmt::Write as _;
use std::path::Path;

/// Checks one case; returns what is wrong with it (the snapshot is asserted either way).
fn run(path: &Path, must_fail: bool) -> Vec<String> {
    let mut problems = Vec::new();
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let bytes = std::fs::read(path).unwrap();
    let src = String::from_utf8_lossy(&bytes).into_owned();
    let params = params_of(&src);
    let analysis = std::panic::catch_unwind(|| analyze_bytes(&bytes, params.as_ref()))
        .unwrap_or_else(|_| panic!("{name}: the checker panicked"));
    if bytes == src.as_bytes() {
        check_invariants(&name, &src, &analysis);
        check_replacements(&name, &src, &analysis, params.as_ref());
    }
    let want = expected_codes(&src);
    let got: Vec<&str> = analysis.diagnostics.iter().map(|d| d.code.as_str()).collect();
    let frames = || analysis.diagnostics.iter().map(|d| frame(&src, d)).collect::<String>();
    if must_fail && !analysis.has_errors() {
        problems.push(format!("{name} checked without errors:\n{}", frames()));
    }
    if !must_fail && analysis.has_errors() {
        problems.push(format!("{name} has errors:\n{}", frames()));
    }
    for w in &want {
        if !got.contains(&w.as_str()) {
            problems.push(format!("{name}: expected {w}, got {got:?}\n{}", frames()));
        }
    }
    for g in &got {
        if !want.iter().any(|w| w == g) {
            problems.push(format!("{name}: unexpected {g} (add it to `-- expect:` if it is right)\n{}", frames()));
        }
    }
    let mut snap = String::new();
    let _ = writeln!(snap, "Source\n------\n{src}");
    if let Some(p) = &params {
        let _ = writeln!(snap, "Parameters\n----------");
        for (n, v) in p.iter().chain(p.duplicates()) {
            let _ = writeln!(snap, "${n} = {v}");
        }
        let _ = writeln!(snap);
    }
    if analysis.diagnostics.is_empty() {
        let _ = writeln!(snap, "No diagnostics.");
    } else {
        let _ = writeln!(snap, "Diagnostics\n-----------");
        for d in &analysis.diagnostics {
            let _ = writeln!(snap, "{}", frame(&src, d));
        }
    }
    insta::assert_snapshot!(snap);
    problems
}

/// Fails with every problem found, after all cases have run.
fn run_all(problems: Vec<String>) {
    assert!(problems.is_empty(), "{} problem(s):\n\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn ok_cases_check_cleanly() {
    let mut problems = Vec::new();
    insta::glob!("corpus/ok/*.cal", |path| problems.extend(run(path, false)));
    run_all(problems);
}

#[test]
fn err_cases_report_their_codes() {
    let mut problems = Vec::new();
    insta::glob!("corpus/err/*.cal", |path| problems.extend(run(path, true)));
    run_all(problems);
}
