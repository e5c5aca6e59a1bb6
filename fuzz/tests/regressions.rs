//! Replays `regressions/<target>/` (minimised crashes) through exactly the checks of each
//! cargo-fuzz target (the same `cal_fuzz` functions the binaries call), and a deterministic
//! sweep of generated trees through the `ast_pipeline` checks, so CI runs them without
//! cargo-fuzz or nightly: `cargo test --manifest-path fuzz/Cargo.toml`.

use std::path::{Path, PathBuf};

use cal_fuzz::{pipeline, targets};

fn inputs(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions").join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries.flatten().map(|e| e.path()).filter(|p| p.is_file()).collect();
    files.sort();
    files.into_iter().filter_map(|p| std::fs::read(&p).ok().map(|b| (p, b))).collect()
}

fn replay(target: &str, check: fn(&[u8])) -> usize {
    let files = inputs(target);
    for (name, data) in &files {
        eprintln!("replaying {}", name.display());
        check(data);
    }
    files.len()
}

#[test]
fn parse_bytes_regressions() {
    // The CAL-E001 example that split a character (README.md, Regressions) is kept here.
    assert!(replay("parse_bytes", targets::parse_bytes) >= 1);
}

#[test]
fn print_idempotent_regressions() {
    replay("print_idempotent", targets::print_idempotent);
}

#[test]
fn json_roundtrip_regressions() {
    replay("json_roundtrip", targets::json_roundtrip);
}

#[test]
fn mg_decode_regressions() {
    replay("mg_decode", targets::mg_decode);
}

#[test]
fn check_run_regressions() {
    replay("check_run", targets::check_run);
}

#[test]
fn ast_pipeline_regressions() {
    replay("ast_pipeline", pipeline::run);
}

/// A fixed pseudo-random byte stream (xorshift), so the sweep is the same on every run.
fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

/// 400 generated trees over every fixture: the checks hold, and the generator is useful —
/// it produces statements of many kinds, and a good share of them pass the checker.
#[test]
fn generated_trees_pass_the_checks_and_many_are_valid() {
    let fixtures = pipeline::fixtures().len();
    let mut kinds = std::collections::BTreeSet::new();
    let (mut total, mut clean) = (0, 0);
    for seed in 0..400u64 {
        let mut data = bytes(seed, 512);
        data[0] = (seed % fixtures as u64) as u8;
        let Some((fx, q)) = pipeline::decode(&data) else { continue };
        total += 1;
        if let cal_parser::ast::QueryBody::Statement(s) = &q.body {
            kinds.insert(s.kind_name());
        }
        if !cal_checker::check(&q, None).iter().any(|d| d.is_error()) {
            clean += 1;
        }
        pipeline::check_tree(fx, &q);
    }
    eprintln!("{total} trees decoded, {clean} pass the checker, statement kinds: {kinds:?}");
    assert!(total >= 390, "only {total} of 400 inputs decoded");
    assert!(kinds.len() >= 10, "only these statement kinds were generated: {kinds:?}");
    assert!(clean * 5 >= total, "only {clean} of {total} generated trees pass the checker");
}

#[test]
fn durable_open_regressions() {
    replay("durable_open", targets::durable_open);
}

/// A deterministic sweep of damage through the `durable_open` checks: 120 inputs of one to
/// forty offset/XOR pairs, a third of them truncating as well.
#[test]
fn damaged_stores_pass_the_durable_checks() {
    // No damage: the store verifies and answers as the intact one (the oracle's own path).
    targets::durable_open(&[]);
    for seed in 0..120u64 {
        let pairs = 1 + (seed as usize * 7) % 40;
        let extra = if seed % 3 == 0 { 1 + (seed as usize % 4) } else { 0 };
        targets::durable_open(&bytes(seed + 1000, pairs * 5 + extra));
    }
}

#[test]
fn lsp_session_regressions() {
    replay("lsp_session", cal_fuzz::lsp::lsp_session);
}

/// A deterministic sweep of sessions through the `lsp_session` checks: 200 pseudo-random
/// inputs of 64 to 1,024 bytes.
#[test]
fn editor_sessions_pass_the_lsp_checks() {
    for seed in 0..200u64 {
        cal_fuzz::lsp::lsp_session(&bytes(seed + 5000, 64 + (seed as usize * 37) % 960));
    }
}

#[test]
fn mg_file_regressions() {
    replay("mg_file", cal_fuzz::mgfile::mg_file);
}

/// A deterministic sweep of damaged `.mg` files through the `mg_file` checks, each base file
/// with and without its footer recomputed.
#[test]
fn damaged_files_pass_the_mg_checks() {
    cal_fuzz::mgfile::mg_file(&[0]);
    for seed in 0..120u64 {
        let mut input = bytes(seed + 9000, 1 + (1 + (seed as usize * 7) % 20) * 5 + (seed as usize % 3));
        input[0] = (seed % 16) as u8;
        cal_fuzz::mgfile::mg_file(&input);
    }
}

/// The sample the `mg_file` and `durable_open` targets damage (`sample.rs`) keeps every grain
/// type and some index state in a few dozen grains, so that each input costs little.
#[test]
fn the_demo_sample_is_small_and_varied() {
    let file = oms::mg::MgFile::open(cal_fuzz::sample::demo_sample()).expect("the sample opens");
    let grains: Vec<oms::Grain> =
        file.entries().map(|e| oms::mg::entry_grain(e.expect("an entry")).expect("a grain")).collect();
    let types: std::collections::BTreeSet<String> = grains.iter().map(|g| format!("{:?}", g.grain_type())).collect();
    eprintln!("the sample holds {} grains of {} types", grains.len(), types.len());
    assert_eq!(types.len(), 10, "every grain type: {types:?}");
    assert!(grains.len() <= 40, "{} grains", grains.len());
    assert!(file.manifest().is_some_and(|m| !m.is_empty()), "index state is kept");
}
