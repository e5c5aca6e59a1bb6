//! Every code of the registry has a case that produces it.
//!
//! A code counts as covered when an `-- expect:` line of a case lists it, in
//! this crate's corpus or in the parser's (`parser/tests/corpus/`); each
//! corpus's harness checks that its cases really produce what they expect.
//! The codes only execution can produce (registry phase `Execute`) are listed
//! here explicitly, by what produces them, so that a code moving between
//! phases is a visible change.

mod common;

use cal_grammar::{Code, Phase};
use std::collections::BTreeSet;
use std::path::Path;

/// Codes that need a store, a clock, a quota, a template registry or a connection.
const EXECUTION_ONLY: &[(Code, &str)] = &[
    (Code::E031, "query timeout: a clock"),
    (Code::E040, "supersession conflict: the store's version chain"),
    (Code::E041, "no previous version: the store's version chain"),
    (Code::E042, "grain type not evolvable: the target grain's type, known only to the store"),
    (Code::E043, "write quota: the token's quota"),
    (Code::E044, "Tier 1 not enabled: the server's configuration"),
    (Code::E045, "namespace mismatch: the target grain's namespace"),
    (Code::E046, "target not found: the store"),
    (Code::E052, "ADD quota: the token's quota"),
    (Code::E075, "ASSEMBLE timeout: a clock"),
    (Code::E076, "all sources failed: the store"),
    (Code::E079, "streaming not supported: the server"),
    (Code::E080, "grain format error: a stored grain"),
    (Code::E081, "stream reconnect expired: the connection"),
    (Code::E082, "assembly cancelled: the connection"),
    (Code::E085, "template not found: the template registry"),
    (Code::E088, "duplicate template name: the template registry"),
    (Code::E089, "too many templates: the template registry"),
    (Code::W005, "auto-TOON: the budget estimate of a plan"),
];

fn expected_in(dir: &Path, out: &mut BTreeSet<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let path = e.path();
        if path.extension().is_some_and(|x| x == "cal")
            && let Ok(bytes) = std::fs::read(&path)
        {
            out.extend(common::expected_codes(&String::from_utf8_lossy(&bytes)));
        }
    }
}

#[test]
fn every_code_has_a_case() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut covered = BTreeSet::new();
    for corpus in [root.join("tests/corpus"), root.join("../parser/tests/corpus")] {
        for dir in ["ok", "err"] {
            expected_in(&corpus.join(dir), &mut covered);
        }
    }
    let execution: Vec<Code> = EXECUTION_ONLY.iter().map(|(c, _)| *c).collect();
    let missing: Vec<&str> = Code::ALL
        .iter()
        .filter(|c| !execution.contains(c) && !covered.contains(c.as_str()))
        .map(|c| c.as_str())
        .collect();
    assert!(missing.is_empty(), "codes without a corpus case: {missing:?}");
}

#[test]
fn the_execution_only_list_is_the_execute_phase() {
    let listed: BTreeSet<Code> = EXECUTION_ONLY.iter().map(|(c, _)| *c).collect();
    let execute: BTreeSet<Code> = Code::ALL.iter().copied().filter(|c| c.info().phase == Phase::Execute).collect();
    assert_eq!(listed, execute);
    assert_eq!(cal_checker::execution_only_codes().collect::<BTreeSet<_>>(), execute);
}
