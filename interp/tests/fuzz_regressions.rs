//! Replays the inputs kept under `fuzz/regressions/check_run/` (minimised crashes of the
//! cargo-fuzz target) with the same checks, so CI runs them. Passes with no files present.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use cal_interp::demo::{self, NOW_MS};
use cal_interp::{ExecOptions, store_digest};

fn inputs(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions").join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries.flatten().map(|e| e.path()).filter(|p| p.is_file()).collect();
    files.sort();
    files.into_iter().filter_map(|p| std::fs::read(&p).ok().map(|b| (p, b))).collect()
}

#[test]
fn check_run_regressions() {
    let files = inputs("check_run");
    if files.is_empty() {
        return;
    }
    let store = Arc::new(demo::load(NOW_MS).unwrap());
    let before = store_digest(&store);
    let opts = ExecOptions::fixed(NOW_MS);
    for (name, data) in files {
        let Ok(text) = std::str::from_utf8(&data) else { continue };
        let analysis = cal_checker::analyze(text, None);
        if analysis.has_errors() {
            continue;
        }
        for q in analysis.document.iter().flat_map(|d| &d.queries) {
            // A fresh interpreter per run, as in the target: DEFINE TEMPLATE is session state.
            let run = || cal_interp::over(store.clone()).execute(q, &opts);
            let (first, second) = (run(), run());
            assert_eq!(first.json, second.json, "{}: same query twice, different responses", name.display());
        }
        assert_eq!(store_digest(&store), before, "{}: the store changed", name.display());
    }
}
