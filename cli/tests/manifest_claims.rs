//! `cal mg verify` and `cal run --store` judge the claims of a `.mg`
//! manifest: a forged `superseded_by` on a locked grain, or one naming a
//! grain that exists nowhere, is an integrity error with its `ERR_*` code
//! and exit status 1 — never a silently smaller result. The files are forged
//! with the oms library, as an editor of the manifest would (recomputing the
//! unkeyed footer).

mod common;

use std::path::{Path, PathBuf};

use oms::mg::{self, IndexState, Manifest, PackOptions};
use oms::{ContentAddress, Grain};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cal-claims-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn blob(json: &str) -> Vec<u8> {
    Grain::from_json_str(json).unwrap().encode().unwrap().bytes
}

fn original(policy: &str) -> Vec<u8> {
    blob(&format!(
        r#"{{"type":"belief","subject":"alice","relation":"prefers","object":"tea","confidence":0.9,"created_at":1772000000000{policy}}}"#
    ))
}

fn successor(old: &ContentAddress) -> Vec<u8> {
    blob(&format!(
        r#"{{"type":"belief","subject":"alice","relation":"prefers","object":"coffee","confidence":0.9,"created_at":1772000100000,"derived_from":["{old}"]}}"#
    ))
}

fn write_file(dir: &Path, name: &str, entries: &[Vec<u8>], claim: (ContentAddress, ContentAddress)) -> PathBuf {
    let mut m = Manifest::new();
    m.insert(
        claim.0,
        IndexState { superseded_by: Some(claim.1), system_valid_to: Some(1772000200000), ..IndexState::default() },
    );
    let file = mg::pack(entries.iter().map(Vec::as_slice), Some(&m), &PackOptions::default()).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, file).unwrap();
    p
}

const QUERY: &str = r#"RECALL beliefs WHERE subject = "alice""#;

fn run(store: &Path) -> std::process::Output {
    common::cal(
        &["run", "--store", store.to_str().unwrap(), "--now", "2026-03-06T12:00:00Z", "--no-timing", QUERY],
        b"",
    )
}

fn verify(file: &Path) -> std::process::Output {
    common::cal(&["mg", "verify", file.to_str().unwrap()], b"")
}

#[test]
fn a_forged_supersession_of_a_locked_grain_fails_verify_and_run() {
    let dir = scratch("locked");
    let locked = original(r#","invalidation_policy":{"mode":"locked"}"#);
    let a = ContentAddress::of(&locked);
    let forged = successor(&a);
    let f = write_file(&dir, "forged.mg", &[locked, forged.clone()], (a, ContentAddress::of(&forged)));
    let v = verify(&f);
    assert_eq!(v.status.code(), Some(1));
    let text = String::from_utf8_lossy(&v.stdout);
    assert!(text.contains("ERR_INVALIDATION_DENIED") && text.contains("FAILED"), "{text}");
    let json = common::cal(&["mg", "verify", "--json", f.to_str().unwrap()], b"");
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(report["ok"], false);
    assert_eq!(report["checksum_ok"], true, "the footer was recomputed: only the claim gives it away");
    assert_eq!(report["errors"][0]["code"], "ERR_INVALIDATION_DENIED");
    let r = run(&f);
    assert_eq!(r.status.code(), Some(1), "an invalid store is exit 1, not a usage error");
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("ERR_INVALIDATION_DENIED") && err.contains("forged.mg"), "{err}");
    assert!(r.stdout.is_empty(), "no result at all rather than a smaller one");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_claim_naming_a_grain_that_exists_nowhere_fails_verify_and_run() {
    let dir = scratch("dangling");
    let plain = original("");
    let a = ContentAddress::of(&plain);
    let f = write_file(&dir, "dangling.mg", &[plain], (a, ContentAddress::of(b"a grain that was never written")));
    let v = verify(&f);
    assert_eq!(v.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&v.stdout).contains("ERR_INTEGRITY"));
    let r = run(&f);
    assert_eq!(r.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&r.stderr).contains("ERR_INTEGRITY"));
    assert!(r.stdout.is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_valid_claim_verifies_loads_and_hides_the_superseded_grain() {
    let dir = scratch("valid");
    let old = original("");
    let a = ContentAddress::of(&old);
    let next = successor(&a);
    let b = ContentAddress::of(&next);
    let f = write_file(&dir, "valid.mg", &[old, next], (a, b));
    assert!(verify(&f).status.success(), "{}", String::from_utf8_lossy(&verify(&f).stdout));
    let r = run(&f);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let out: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    let got: Vec<&str> =
        out["results"].as_array().unwrap().iter().map(|h| h["content_address"].as_str().unwrap()).collect();
    assert_eq!(got, [b.to_hex()]);
    std::fs::remove_dir_all(&dir).unwrap();
}
