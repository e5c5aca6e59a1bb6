//! A reader that stops early (`cal mg unpack memory.mg | head`) closes the
//! pipe; every subcommand that prints much must then end quietly with status 0
//! instead of panicking on the failed write (`cli/src/stdio.rs`).

mod common;

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::Command;

/// Runs `cal args` with `stdin` as input, reads the first bytes of its output,
/// closes the pipe, and returns the exit code and standard error.
fn read_a_little_then_close(args: &[&str], stdin: &str) -> (Option<i32>, String) {
    let mut child = common::spawn(args);
    let mut input = child.stdin.take().expect("stdin");
    let text = stdin.to_string();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(text.as_bytes());
    });
    let mut out = child.stdout.take().expect("stdout");
    let mut first = [0u8; 64];
    out.read_exact(&mut first).expect("cal prints something first");
    drop(out);
    let mut err = String::new();
    child.stderr.take().expect("stderr").read_to_string(&mut err).expect("stderr reads");
    let status = child.wait().expect("cal ends");
    let _ = feeder.join();
    (status.code(), err)
}

fn assert_quiet_exit(what: &str, (code, err): (Option<i32>, String)) {
    assert!(!err.contains("panicked"), "{what} panicked: {err}");
    assert_eq!(code, Some(0), "{what}: {err}");
}

/// A scratch directory of this test process.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cal-broken-pipe-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn mg_unpack_into_a_closed_pipe() {
    let dir = scratch("mg");
    let grains: String = (0..3000)
        .map(|i| {
            format!(
                "{{\"type\":\"belief\",\"subject\":\"user-{i}\",\"relation\":\"prefers\",\"object\":\"{}\",\
                 \"confidence\":0.9,\"created_at\":{},\"namespace\":\"ns\"}}\n",
                "x".repeat(100),
                1_700_000_000_000i64 + i
            )
        })
        .collect();
    let jsonl = dir.join("grains.jsonl");
    std::fs::write(&jsonl, grains).expect("write grains");
    let mg = dir.join("big.mg");
    let packed = Command::new(env!("CARGO_BIN_EXE_cal"))
        .args(["mg", "pack", mg.to_str().unwrap(), "--jsonl", jsonl.to_str().unwrap()])
        .output()
        .expect("cal mg pack runs");
    assert!(packed.status.success(), "{}", String::from_utf8_lossy(&packed.stderr));
    assert_quiet_exit("cal mg unpack", read_a_little_then_close(&["mg", "unpack", mg.to_str().unwrap()], ""));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn text_commands_into_a_closed_pipe() {
    // Several hundred kilobytes each: far more than a pipe buffers.
    let queries: String =
        (0..3000).map(|i| format!("RECALL beliefs WHERE subject = \"user-{i}\" | LIMIT 5;\n")).collect();
    assert_quiet_exit("cal fmt", read_a_little_then_close(&["fmt", "-"], &queries));
    assert_quiet_exit("cal json", read_a_little_then_close(&["json", "-"], &queries));
    assert_quiet_exit("cal explain", read_a_little_then_close(&["explain", "-f", "-"], &queries));
    let broken: String = (0..3000).map(|i| format!("RECALL beliefs WHERE subjet = \"user-{i}\";\n")).collect();
    assert_quiet_exit("cal check --json", read_a_little_then_close(&["check", "--json", "-"], &broken));
    assert_quiet_exit(
        "cal run",
        read_a_little_then_close(&["run", "--no-timing", "-f", "-"], &"RECALL | LIMIT 1000;\n".repeat(20)),
    );
}
