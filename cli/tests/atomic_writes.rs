//! Every file `cal` writes replaces its target atomically (`oms::atomic`): a
//! write that fails — a full disk, simulated here with a file-size limit
//! (`RLIMIT_FSIZE`, which fails a write exactly as ENOSPC would, only with
//! EFBIG) — or is killed half-way leaves the old file byte-identical.

#![cfg(unix)]

mod common;

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const CAL: &str = env!("CARGO_BIN_EXE_cal");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cal-atomic-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `n` distinct beliefs as JSON lines, each about 150 bytes once encoded.
fn jsonl(dir: &Path, name: &str, n: usize) -> PathBuf {
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!(
            r#"{{"type":"belief","subject":"person-{i}","relation":"prefers","object":"a rather long object text number {i} to give the grain some weight","confidence":0.5,"created_at":{}}}"#,
            1_700_000_000_000_i64 + i as i64
        ));
        text.push('\n');
    }
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs `cal args` under a shell with a file-size limit of `blocks`
/// 512-byte blocks; with `ignore_xfsz` SIGXFSZ is ignored, so the write that
/// crosses the limit fails with EFBIG instead of killing the process.
fn cal_with_fsize_limit(blocks: u64, ignore_xfsz: bool, args: &[&str]) -> Output {
    let trap = if ignore_xfsz { "trap '' XFSZ; " } else { "" };
    // POSIX `ulimit -f` counts 512-byte blocks (bash, outside POSIX mode, counts
    // 1024): either way far below the size of the file being written.
    let script = format!("{trap}ulimit -f {blocks} && exec \"$0\" \"$@\"");
    Command::new("/bin/sh").arg("-c").arg(script).arg(CAL).args(args).output().expect("sh runs")
}

fn leftovers(dir: &Path, keep: &[&str]) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !keep.contains(&n.as_str()))
        .collect()
}

fn pack_valid(dir: &Path) -> (PathBuf, Vec<u8>) {
    let small = jsonl(dir, "small.jsonl", 300);
    let mg = dir.join("memory.mg");
    let out = common::cal(&["mg", "pack", path(&mg), "--jsonl", path(&small)], b"");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let before = std::fs::read(&mg).unwrap();
    assert!(before.len() > 30_000, "the old file is big enough to notice a truncation");
    (mg, before)
}

fn assert_intact(mg: &Path, before: &[u8]) {
    assert_eq!(std::fs::read(mg).unwrap(), before, "the old .mg is byte-identical");
    let verify = common::cal(&["mg", "verify", path(mg)], b"");
    assert!(verify.status.success(), "mg verify passes: {}", String::from_utf8_lossy(&verify.stdout));
}

#[test]
fn a_file_size_limit_during_pack_leaves_the_old_file_intact() {
    let dir = scratch("fsize");
    let (mg, before) = pack_valid(&dir);
    let big = jsonl(&dir, "big.jsonl", 3000);
    let out = cal_with_fsize_limit(64, true, &["mg", "pack", path(&mg), "--jsonl", path(&big)]);
    assert_eq!(out.status.code(), Some(2), "an I/O failure exits 2");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot write") && err.contains("memory.mg"), "{err}");
    assert!(err.contains("too large") || err.contains("File too large"), "the OS reason is shown: {err}");
    assert!(err.contains("unchanged"), "{err}");
    assert!(out.stdout.is_empty(), "no summary for a file that was not written");
    assert_intact(&mg, &before);
    assert!(leftovers(&dir, &["memory.mg", "small.jsonl", "big.jsonl"]).is_empty(), "the temporary file is removed");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_process_killed_in_the_middle_of_the_write_leaves_the_old_file_intact() {
    let dir = scratch("killed");
    let (mg, before) = pack_valid(&dir);
    let big = jsonl(&dir, "big.jsonl", 3000);
    // SIGXFSZ not ignored: the kernel kills cal in the very write that crosses the
    // limit — a deterministic kill in the middle of writing the new file.
    let out = cal_with_fsize_limit(64, false, &["mg", "pack", path(&mg), "--jsonl", path(&big)]);
    assert_eq!(out.status.signal(), Some(25), "killed by SIGXFSZ: {:?}", out.status);
    assert_intact(&mg, &before);
    // A killed process cannot clean up: at most its own temporary file remains, never the target.
    for name in leftovers(&dir, &["memory.mg", "small.jsonl", "big.jsonl"]) {
        assert!(name.starts_with(".memory.mg.tmp."), "unexpected file {name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_successful_pack_replaces_the_file_and_keeps_its_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("replace");
    let (mg, before) = pack_valid(&dir);
    std::fs::set_permissions(&mg, std::fs::Permissions::from_mode(0o600)).unwrap();
    let other = jsonl(&dir, "other.jsonl", 5);
    let out = common::cal(&["mg", "pack", path(&mg), "--jsonl", path(&other)], b"");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let after = std::fs::read(&mg).unwrap();
    assert_ne!(after, before);
    assert_eq!(std::fs::metadata(&mg).unwrap().permissions().mode() & 0o777, 0o600);
    assert!(leftovers(&dir, &["memory.mg", "small.jsonl", "other.jsonl"]).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn dedup_reports_the_grains_written_not_the_grains_read() {
    let dir = scratch("dedup");
    let one = r#"{"type":"belief","subject":"a","relation":"r","object":"1","confidence":0.5,"created_at":1}"#;
    let two = r#"{"type":"belief","subject":"b","relation":"r","object":"2","confidence":0.5,"created_at":2}"#;
    let src = dir.join("dup.jsonl");
    std::fs::write(&src, format!("{one}\n{two}\n{one}\n{one}\n")).unwrap();
    let mg = dir.join("d.mg");
    let out = common::cal(&["mg", "pack", path(&mg), "--dedup", "--jsonl", path(&src)], b"");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["grains"], 2, "{summary}");
    assert_eq!(summary["read"], 4);
    assert_eq!(summary["duplicates_dropped"], 2);
    let lines = common::cal(&["mg", "unpack", path(&mg)], b"");
    assert_eq!(String::from_utf8_lossy(&lines.stdout).lines().count(), 2);
    // Without --dedup every grain read is written, and the count says so.
    let out = common::cal(&["mg", "pack", path(&mg), "--jsonl", path(&src)], b"");
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["grains"], 4);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `cal store export` over an existing `.mg` under a file-size limit (a full
/// disk): the export fails with a message, the old file is byte-identical and
/// still verifies; without the limit the same export replaces it.
#[test]
fn a_file_size_limit_during_store_export_leaves_the_old_file_intact() {
    let dir = scratch("export");
    let (mg, before) = pack_valid(&dir);
    let db = dir.join("store.db");
    for args in [vec!["store", "init", path(&db)], vec!["store", "import", path(&db), path(&mg)]] {
        let out = common::cal(&args, b"");
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let more = jsonl(&dir, "more.jsonl", 600);
    let out = common::cal(&["store", "add", path(&db), "--jsonl", path(&more)], b"");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // 80 blocks: room for SQLite's 32 KiB shared-memory file, not for the export.
    let export = common::cal(&["store", "export", path(&db), path(&dir.join("size.mg"))], b"");
    assert!(export.status.success());
    let size = std::fs::metadata(dir.join("size.mg")).unwrap().len();
    assert!(size > 80 * 1024, "the export ({size} bytes) outgrows the limit");
    for ignore_xfsz in [true, false] {
        let out = cal_with_fsize_limit(80, ignore_xfsz, &["store", "export", path(&db), path(&mg)]);
        assert!(!out.status.success(), "the export cannot have succeeded under the limit");
        if ignore_xfsz {
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains(path(&mg)) && err.contains("unchanged"), "{err}");
        } else {
            assert_eq!(out.status.signal(), Some(25), "killed by SIGXFSZ in the middle of the write");
        }
        assert_intact(&mg, &before);
    }
    let out = common::cal(&["store", "export", path(&db), path(&mg)], b"");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_ne!(std::fs::read(&mg).unwrap(), before);
    let verify = common::cal(&["mg", "verify", path(&mg)], b"");
    assert!(verify.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}
