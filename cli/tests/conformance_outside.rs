//! The suite judged by an engine we did not write (issue 23): Areev (`areev` on PyPI, a Rust CAL
//! engine with a Python package), through `conformance/tests/adapters/areev_engine.py`. Areev
//! knows an older dialect (pre-1.3 grain types), so it certifies nothing; what this test holds
//! is that every failure left is one of Areev's own — a wrong code, a wrong verdict, a wrong
//! phase — and none is the suite asking a Core engine for more than Core (the canonical text,
//! ruling C26; the JSON form, C15). docs/conformance.md "An outside engine" has the analysis.
//!
//! Areev lives in a virtual environment, `target/areev-venv`, which this test creates when it is
//! missing (Python 3 and PyPI are needed, as for `.ci/run`'s clients).

mod common;

use cal_conformance::runner::{self, RunOptions, Status};
use cal_conformance::subprocess::Subprocess;
use cal_conformance::{Implementation, Kind, Level, load_corpus};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace").to_path_buf()
}

/// The virtual environment's python with the Areev release the analysis was made with.
fn python() -> PathBuf {
    common::python_venv(
        &root().join("target/areev-venv"),
        &root().join("conformance/tests/adapters/areev-requirements.txt"),
    )
}

#[test]
fn areev_fails_core_only_on_its_own_faults() {
    let adapter = root().join("conformance/tests/adapters/areev_engine.py");
    let command = format!("'{}' '{}'", python().display(), adapter.display());
    let mut areev = Subprocess::new(&command, Duration::from_secs(20));
    let hello = areev.hello().expect("the Areev adapter says hello");
    assert_eq!(hello.level, Level::Core);
    let corpus = load_corpus(&root().join("conformance/cases"));
    assert!(corpus.errors.is_empty(), "{:#?}", corpus.errors);
    let opts = RunOptions {
        fixtures_dir: root().join("conformance/fixtures"),
        max_level: Some(Level::Core),
        ..RunOptions::default()
    };
    let outcomes = runner::run(&mut areev, &corpus.cases, &opts);
    let parse: Vec<_> = outcomes.iter().filter(|o| o.kind == Kind::Parse).collect();
    let passed = parse.iter().filter(|o| o.status == Status::Passed).count();
    assert!(passed >= 1_700, "Areev passes {passed} Core parse cases (1,803 when analysed)");
    // Only Areev's own faults are left (docs/conformance.md): its codes, its verdicts, its phases
    // (a sentence of the grammar it refuses in the parse phase, C38, is a verdict of its own too).
    let other: Vec<_> = parse
        .iter()
        .flat_map(|o| o.mismatches.iter().map(move |m| (o.id.as_str(), m)))
        .filter(|(_, m)| !["code", "accept", "phase", "no other code", "well-formed"].contains(&m.what.as_str()))
        .take(5)
        .collect();
    assert!(other.is_empty(), "a failure that is not Areev's dialect: {other:#?}");
    assert!(parse.iter().all(|o| o.status != Status::Errored), "no adapter error");
    let summary = cal_conformance::certify::summarize(hello.level, &outcomes);
    assert_eq!(summary.certified, None, "Areev does not know OMS 1.3's grain types");
}
