//! `cal key new` and `cal token issue | inspect` as a user runs them: the key
//! file is private and never overwritten, an issued token inspects as valid,
//! a tampered one is refused with exit 1, and bad options exit 2 with a
//! message that lists what is allowed.

mod common;

use common::cal;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = cal(args, b"");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn key_issue_inspect_and_tampering() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("server.key");
    let key = key.to_str().unwrap();
    assert_eq!(run(&["key", "new", key]).0, 0);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(key).unwrap().permissions().mode() & 0o777, 0o600);
    }
    let before = std::fs::read(key).unwrap();
    let (code, _, err) = run(&["key", "new", key]);
    assert_eq!(code, 2);
    assert!(err.contains("never overwritten"), "{err}");
    assert_eq!(std::fs::read(key).unwrap(), before);

    let (code, token, err) = run(&[
        "token",
        "issue",
        "--key",
        key,
        "--namespace",
        "team",
        "--user",
        "alice",
        "--tier",
        "1",
        "--types",
        "belief",
        "--quota",
        "5",
        "--ttl",
        "2h",
        "--max-uses",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    let t: serde_json::Value = serde_json::from_str(token.trim()).expect("one line of JSON");
    assert_eq!(t["namespace"], "team");
    assert_eq!(t["allowed_grain_types"], serde_json::json!(["belief"]));
    assert_eq!(t["write_quota_remaining"], 5);
    assert_eq!(t["max_uses"], 3);
    assert_eq!(t["expires_at"].as_i64().unwrap() - t["issued_at"].as_i64().unwrap(), 7_200_000);

    let (code, out, _) = run(&["token", "inspect", token.trim(), "--key", key]);
    assert_eq!(code, 0);
    assert!(out.contains("\"status\": \"valid\""), "{out}");
    let (code, out, _) = run(&["token", "inspect", token.trim()]);
    assert_eq!(code, 0);
    assert!(out.contains("not verified"), "{out}");

    let tampered = token.trim().replace("\"team\"", "\"other\"");
    let (code, out, _) = run(&["token", "inspect", &tampered, "--key", key]);
    assert_eq!(code, 1);
    assert!(out.contains("signature does not match"), "{out}");

    let file = dir.path().join("token.json");
    std::fs::write(&file, &token).unwrap();
    let at = format!("@{}", file.display());
    assert_eq!(run(&["token", "inspect", &at, "--key", key]).0, 0);
}

#[test]
fn bad_options_are_usage_errors_that_say_what_is_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("k");
    let key = key.to_str().unwrap();
    assert_eq!(run(&["key", "new", key]).0, 0);
    let base = ["token", "issue", "--key", key, "--namespace", "n", "--user", "u"];
    let with = |extra: &[&str]| {
        let mut a: Vec<&str> = base.to_vec();
        a.extend_from_slice(extra);
        run(&a)
    };
    let (code, _, err) = with(&["--tier", "0", "--ops", "recall,add"]);
    assert_eq!(code, 2);
    assert!(err.contains("Tier 0 token cannot allow Add"), "{err}");
    let (code, _, err) = with(&["--tier", "1", "--ops", "delete"]);
    assert_eq!(code, 2);
    assert!(err.contains("Recall") && err.contains("DefineTemplate"), "{err}");
    let (code, _, err) = with(&["--tier", "1", "--types", "beliefs"]);
    assert_eq!(code, 2);
    assert!(err.contains("not a grain type"), "{err}");
    let (code, _, err) = with(&["--tier", "1", "--ttl", "31d"]);
    assert_eq!(code, 2);
    assert!(err.contains("30 days"), "{err}");
    let (code, _, _) = with(&["--tier", "2"]);
    assert_eq!(code, 2);
    let (code, _, err) = run(&["token", "inspect", "{\"not\": \"a token\"}"]);
    assert_eq!(code, 1);
    assert!(err.contains("not a capability token"), "{err}");
}

#[cfg(unix)]
#[test]
fn a_key_others_can_read_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("k");
    std::fs::write(&key, [1u8; 32]).unwrap();
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
    let (code, _, err) =
        run(&["token", "issue", "--key", key.to_str().unwrap(), "--namespace", "n", "--user", "u", "--tier", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("chmod 600"), "{err}");
}
