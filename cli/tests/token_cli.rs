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

/// A store database holding the demo memory, a server key, and a way to issue tokens.
struct Setup {
    _dir: tempfile::TempDir,
    db: String,
    key: String,
}

impl Setup {
    fn new() -> Setup {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("memory.db").to_str().unwrap().to_string();
        let key = dir.path().join("server.key").to_str().unwrap().to_string();
        let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../interp/demo/demo.mg");
        assert_eq!(run(&["store", "init", &db]).0, 0);
        assert_eq!(run(&["store", "import", &db, demo.to_str().unwrap()]).0, 0);
        assert_eq!(run(&["key", "new", &key]).0, 0);
        Setup { _dir: dir, db, key }
    }

    fn token(&self, extra: &[&str]) -> String {
        let mut a = vec!["token", "issue", "--key", &self.key, "--namespace", "acme:team-alpha", "--user", "alice"];
        a.extend_from_slice(extra);
        let (code, out, err) = run(&a);
        assert_eq!(code, 0, "{err}");
        out.trim().to_string()
    }

    /// Runs a query with a token: (exit code, the response's error object or null, the response).
    fn query(&self, token: &str, q: &str, extra: &[&str]) -> (i32, serde_json::Value, serde_json::Value) {
        let mut a = vec!["run", "--store", &self.db, "--token", token, "--key", &self.key];
        a.extend_from_slice(extra);
        a.push(q);
        let (code, out, _) = run(&a);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap_or(serde_json::Value::Null);
        (code, v["error"].clone(), v)
    }
}

#[test]
fn a_token_runs_queries_in_its_namespace_until_its_uses_are_spent() {
    let s = Setup::new();
    let t = s.token(&["--tier", "0", "--max-uses", "2"]);
    let (code, err, v) = s.query(&t, r#"RECALL beliefs IN "somewhere-else" | LIMIT 50"#, &["--namespace", "other"]);
    assert_eq!(code, 0, "{v}");
    assert!(err.is_null());
    let results = v["results"].as_array().unwrap();
    assert!(!results.is_empty());
    assert!(results.iter().all(|r| r["grain"]["namespace"] == "acme:team-alpha"), "the token's namespace wins");
    assert_eq!(s.query(&t, "RECALL beliefs | LIMIT 1", &[]).0, 0, "the second of two uses");
    let (code, err, _) = s.query(&t, "RECALL beliefs | LIMIT 1", &[]);
    assert_eq!(code, 1);
    assert_eq!(err["code"], "CAL-E901", "spent, and it stays spent across processes");
}

#[test]
fn every_credential_refusal_is_the_same_answer() {
    let s = Setup::new();
    let t = s.token(&["--tier", "0", "--ttl", "1m"]);
    let tampered = t.replace("\"alice\"", "\"mallory\"");
    let (_, bad_signature, _) = s.query(&tampered, "RECALL beliefs | LIMIT 1", &[]);
    let (_, expired, _) = s.query(&t, "RECALL beliefs | LIMIT 1", &["--now", "2099-01-01T00:00:00Z"]);
    let (_, malformed, _) = s.query("{\"token_id\": 1}", "RECALL beliefs | LIMIT 1", &[]);
    let other_key = tempfile::tempdir().unwrap();
    let k2 = other_key.path().join("k2");
    assert_eq!(run(&["key", "new", k2.to_str().unwrap()]).0, 0);
    let (code, _, out) = {
        let (c, o, e) =
            run(&["run", "--store", &s.db, "--token", &t, "--key", k2.to_str().unwrap(), "RECALL beliefs | LIMIT 1"]);
        (c, e, serde_json::from_str::<serde_json::Value>(&o).unwrap())
    };
    assert_eq!(code, 1);
    let other_server = out["error"].clone();
    assert_eq!(bad_signature["code"], "CAL-E901");
    for (what, e) in [("expired", &expired), ("malformed", &malformed), ("another server's", &other_server)] {
        assert_eq!(e, &bad_signature, "{what}: the same code and text as a bad signature");
    }
}

#[test]
fn operations_are_checked_in_every_statement_of_a_query() {
    let s = Setup::new();
    let t = s.token(&["--tier", "0", "--ops", "recall,batch", "--max-uses", "10"]);
    let (code, err, _) = s.query(&t, "DESCRIBE capabilities", &[]);
    assert_eq!((code, err["code"].as_str()), (1, Some("CAL-E902")));
    assert!(err["message"].as_str().unwrap().contains("Describe"));
    let (_, err, _) = s.query(&t, "BATCH { a: RECALL beliefs | LIMIT 1, b: DESCRIBE capabilities }", &[]);
    assert_eq!(err["code"], "CAL-E902", "an entry of a BATCH: {err}");
    let (code, err, _) = s.query(&t, "BATCH { a: RECALL beliefs | LIMIT 1, b: RECALL goals | LIMIT 1 }", &[]);
    assert_eq!((code, err.is_null()), (0, true), "{err}");
    let (_, err, _) = s.query(&t, "RECALL beliefs | COUNT", &[]);
    assert!(err.is_null(), "Recall grants Count: {err}");
    let (code, err, _) =
        s.query(&t, r#"ADD belief SET subject = "a" SET relation = "knows" SET object = "b" REASON "test""#, &[]);
    assert_eq!((code, err["code"].as_str()), (1, Some("CAL-E044")), "a Tier 1 operation under a Tier 0 token");
    let t1 = s.token(&["--tier", "1", "--types", "goal", "--max-uses", "10"]);
    let (_, err, _) =
        s.query(&t1, r#"ADD belief SET subject = "a" SET relation = "knows" SET object = "b" REASON "test""#, &[]);
    assert_eq!(err["code"], "CAL-E902", "a grain type the token may not write: {err}");
}

#[test]
fn a_token_needs_its_key_and_a_store_database() {
    let s = Setup::new();
    let t = s.token(&["--tier", "0"]);
    assert_eq!(run(&["run", "--store", &s.db, "--token", &t, "RECALL beliefs"]).0, 2, "no --key");
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../interp/demo/demo.mg");
    let (code, _, err) =
        run(&["run", "--store", demo.to_str().unwrap(), "--token", &t, "--key", &s.key, "RECALL beliefs"]);
    assert_eq!(code, 2);
    assert!(err.contains("store database"), "{err}");
}
