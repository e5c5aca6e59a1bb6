//! `cal run -f` on a document of many queries writes each response as it completes and
//! drops it (issue 19: 400k queries once held 21 GB). Documents are capped at 10 MiB and
//! 10,000 queries (`cli/src/document.rs`, README "Using `cal`"), refused with exit status 2.
//!
//! Memory is measured, not time: the peak resident set of the process (`VmHWM`), sampled
//! while the test reads its output, which holds it blocked on a full pipe between reads.

mod common;

use std::io::Read;

/// The caps, as documented.
const MAX_QUERIES: usize = 10_000;
const MAX_BYTES: usize = 10 * 1024 * 1024;

fn document(queries: usize, query: &str) -> String {
    vec![query; queries].join(";\n")
}

/// The peak resident set of process `pid` in kB, while it is alive.
fn peak_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
#[cfg(target_os = "linux")]
fn a_document_at_the_cap_runs_in_bounded_memory() {
    // Each response is ~10 KB of JSON: 100 MB of output in all, which the old `cal run` held
    // three times over (1.2 GB peak); streamed, the peak is the binary and one response.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.cal");
    std::fs::write(&path, document(MAX_QUERIES, "RECALL beliefs ABOUT \"alice\"")).unwrap();
    let mut child = common::spawn(&["run", "--no-timing", "-f", path.to_str().unwrap()]);
    let pid = child.id();
    let mut stdout = child.stdout.take().unwrap();
    let (mut bytes, mut peak, mut buf) = (0usize, 0u64, vec![0u8; 1 << 16]);
    loop {
        let n = stdout.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        bytes += n;
        peak = peak.max(peak_kb(pid).unwrap_or(0));
    }
    let status = child.wait().unwrap();
    assert!(status.success(), "cal run failed");
    assert!(bytes > 50_000_000, "the responses were written: {bytes} bytes");
    assert!(peak > 0, "the peak was sampled");
    assert!(peak < 200_000, "peak RSS {peak} kB: responses are not dropped as they are written");
}

#[test]
fn one_query_over_the_cap_is_refused_clearly() {
    let out = common::cal(&["run", "-f", "-"], document(MAX_QUERIES + 1, "RECALL beliefs").as_bytes());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("10001 queries") && err.contains("at most 10000"), "{err}");
    assert!(out.stdout.is_empty());
    // At the cap, with a trailing `;`, it is taken (explain is cheap: nothing runs).
    let at_cap = format!("{};", document(MAX_QUERIES, "RECALL beliefs"));
    let out = common::cal(&["explain", "-f", "-"], at_cap.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn the_json_form_has_the_same_query_cap() {
    let one = r#"{"statement": "recall", "grain_type": "beliefs"}"#;
    let out = common::cal(&["explain", "-f", "-"], format!("[{}]", vec![one; MAX_QUERIES + 1].join(",")).as_bytes());
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("at most 10000"));
}

#[test]
fn a_document_over_the_size_cap_is_refused_before_parsing() {
    let big = format!("RECALL beliefs ABOUT \"{}\"", "a".repeat(MAX_BYTES));
    let out = common::cal(&["run", "-f", "-"], big.as_bytes());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("at most 10485760 (10 MiB)"), "{err}");
}
