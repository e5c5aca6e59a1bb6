//! Tier 1 from the command line, as the README shows it: a fresh database,
//! a key, a token; prepare, read the preview, execute; RECALL sees the new
//! belief, SUPERSEDE then REVERT restores it, HISTORY shows the chain, the
//! audit chain verifies, and an edited audit entry is found. The kill switch
//! refuses writes while reads go on.

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

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// Prepares `statement`, writes the prepared object to a file, executes it; returns the
/// execute response.
fn write(dir: &std::path::Path, db: &str, key: &str, token: &str, statement: &str) -> serde_json::Value {
    let (code, out, err) = run(&["prepare", "--store", db, "--token", token, "--key", key, statement]);
    assert_eq!(code, 0, "prepare: {out}{err}");
    let prepared = json(&out);
    assert_eq!(prepared["tier"], 1);
    let file = dir.join("prepared.json");
    std::fs::write(&file, &out).unwrap();
    let (code, out, err) = run(&["execute", "--store", db, "--key", key, file.to_str().unwrap()]);
    assert_eq!(code, 0, "execute: {out}{err}");
    let done = json(&out);
    assert_eq!(done["evolve"]["new_hash"], prepared["side_effects"]["new_hash"], "execute wrote what prepare showed");
    // The same prepared object a second time is refused: it is single-use.
    let (code, out, _) = run(&["execute", "--store", db, "--key", key, file.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(json(&out)["error"]["code"], "CAL-E901");
    done
}

#[test]
fn the_whole_flow_on_a_fresh_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("memory.db");
    let db = db.to_str().unwrap();
    let key = dir.path().join("server.key");
    let key = key.to_str().unwrap();
    assert_eq!(run(&["store", "init", db]).0, 0);
    assert_eq!(run(&["key", "new", key]).0, 0);
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
        "10",
        "--ttl",
        "1h",
        "--max-uses",
        "20",
    ]);
    assert_eq!(code, 0, "{err}");
    let token = token.trim();

    let added = write(
        dir.path(),
        db,
        key,
        token,
        r#"ADD belief SET subject = "alice" SET relation = "prefers" SET object = "dark mode" REASON "said so""#,
    );
    let first = added["evolve"]["new_hash"].as_str().unwrap().to_string();
    let recall = |expect: &str| {
        let (code, out, err) =
            run(&["run", "--store", db, "--token", token, "--key", key, r#"RECALL beliefs ABOUT "alice""#]);
        assert_eq!(code, 0, "{out}{err}");
        let r = json(&out);
        assert_eq!(r["results"][0]["grain"]["object"], expect, "{r}");
    };
    recall("dark mode");
    let sup = write(
        dir.path(),
        db,
        key,
        token,
        &format!(r#"SUPERSEDE {first} SET object = "light mode" REASON "changed her mind""#),
    );
    recall("light mode");
    let second = sup["evolve"]["new_hash"].as_str().unwrap().to_string();
    let rev = write(dir.path(), db, key, token, &format!(r#"REVERT {second} REASON "misunderstood""#));
    assert_eq!(rev["evolve"]["restored_hash"], first.as_str());
    recall("dark mode");
    let (code, out, _) = run(&[
        "run",
        "--store",
        db,
        "--token",
        token,
        "--key",
        key,
        &format!("HISTORY {}", rev["evolve"]["new_hash"].as_str().unwrap()),
    ]);
    assert_eq!(code, 0);
    assert_eq!(json(&out)["results"].as_array().map(Vec::len), Some(3));

    // Direct execution of a write names the two phases.
    let (code, out, _) = run(&[
        "run",
        "--store",
        db,
        "--token",
        token,
        "--key",
        key,
        r#"ADD belief SET subject = "a" SET relation = "r" SET object = "o" REASON "r""#,
    ]);
    assert_eq!(code, 1);
    assert!(out.contains("CAL-E044") && out.contains("prepare"), "{out}");

    // The Tier 1 switch refuses writes; reads go on.
    assert_eq!(run(&["store", "switch", db, "tier1", "on", "--reason", "incident"]).0, 0);
    let (code, out, _) = run(&[
        "prepare",
        "--store",
        db,
        "--token",
        token,
        "--key",
        key,
        r#"ADD belief SET subject = "a" SET relation = "r" SET object = "o" REASON "r""#,
    ]);
    assert_eq!(code, 1);
    assert_eq!(json(&out)["error"]["code"], "CAL-E044");
    recall("dark mode");
    assert_eq!(run(&["store", "switch", db, "tier1", "off"]).0, 0);

    // The audit trail lists every request and verifies.
    let (code, out, err) = run(&["store", "audit", db, "--verify"]);
    assert_eq!(code, 0, "{out}{err}");
    let (_, out, _) = run(&["store", "audit", db]);
    let entries: Vec<serde_json::Value> = out.lines().map(json).collect();
    assert!(entries.iter().filter(|e| e["entry"]["phase"] == "execute").count() == 3, "{out}");
    assert!(entries.iter().any(|e| e["entry"]["error"] == "CAL-E044"), "refusals are audited: {out}");

    // An entry edited behind the store's back is found.
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.execute_batch(
        "DROP TRIGGER audit_no_update; UPDATE audit SET entry = replace(entry, 'team', 'mallory') WHERE seq = 2;",
    )
    .unwrap();
    drop(conn);
    let (code, _, err) = run(&["store", "audit", db, "--verify"]);
    assert_eq!(code, 1);
    assert!(err.contains("audit entry"), "{err}");
}
