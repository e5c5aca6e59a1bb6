//! `cal store` from the outside, as a user runs it: init → import → export →
//! `cal mg verify` with the source's addresses; `cal run` on a database gives
//! the bytes it gives on the `.mg`; a damaged database is an error with its
//! `ERR_` code and exit 1, never an answer.

mod common;

use std::path::{Path, PathBuf};

use common::cal;

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

fn sources() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(repo("conformance/fixtures"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mg"))
        .collect();
    out.sort();
    out.insert(0, repo("interp/demo/demo.mg"));
    out
}

fn ok(args: &[&str]) -> String {
    let out = cal(args, b"");
    assert!(out.status.success(), "cal {args:?}: {}\n{}", out.status, String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The content addresses of a `.mg` file, in file order.
fn addresses(mg: &Path) -> Vec<String> {
    ok(&["mg", "unpack", "--envelope", mg.to_str().unwrap()])
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["content_address"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn init_import_export_verify_keeps_every_address() {
    let dir = tempfile::tempdir().unwrap();
    let all = dir.path().join("all.db");
    ok(&["store", "init", all.to_str().unwrap()]);
    let mut everything = Vec::new();
    for (i, src) in sources().iter().enumerate() {
        let db = dir.path().join(format!("{i}.db"));
        let out = dir.path().join(format!("{i}.mg"));
        let (db_s, out_s, src_s) = (db.to_str().unwrap(), out.to_str().unwrap(), src.to_str().unwrap());
        ok(&["store", "init", db_s]);
        ok(&["store", "import", db_s, src_s]);
        ok(&["store", "verify", db_s]);
        ok(&["store", "export", db_s, out_s]);
        ok(&["mg", "verify", out_s]);
        let mut want = addresses(src);
        let mut got = addresses(&out);
        want.sort();
        want.dedup();
        got.sort();
        assert_eq!(got, want, "{}", src.display());
        ok(&["store", "import", all.to_str().unwrap(), src_s]);
        everything.extend(want);
    }
    // All of them in one store.
    everything.sort();
    everything.dedup();
    let out = dir.path().join("all.mg");
    ok(&["store", "export", all.to_str().unwrap(), out.to_str().unwrap()]);
    ok(&["mg", "verify", out.to_str().unwrap()]);
    let mut got = addresses(&out);
    got.sort();
    assert_eq!(got, everything);
    let stats: serde_json::Value =
        serde_json::from_str(&ok(&["store", "stats", "--json", all.to_str().unwrap()])).unwrap();
    // The `encrypted` fixture's two encrypted grains are held apart from the readable ones (C27).
    let (grains, encrypted) = (stats["grains"].as_u64(), stats["encrypted"].as_u64());
    assert_eq!((grains.zip(encrypted).map(|(g, e)| g + e), encrypted), (Some(everything.len() as u64), Some(2)));
}

#[test]
fn run_on_a_database_prints_what_run_on_the_mg_prints() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("demo.db");
    let (db_s, demo) = (db.to_str().unwrap(), repo("interp/demo/demo.mg"));
    ok(&["store", "init", db_s]);
    ok(&["store", "import", db_s, demo.to_str().unwrap()]);
    for example in ["examples/tour.cal", "examples/demo.cal"] {
        let file = repo(example);
        let args = |store: &str| {
            ok(&["run", "--no-timing", "--now", "2026-03-06T12:00:00Z", "--store", store, "-f", file.to_str().unwrap()])
        };
        assert_eq!(args(db_s), args(demo.to_str().unwrap()), "{example}");
    }
    // Several stores merge, databases included.
    let q = "RECALL beliefs ABOUT \"alice\" | LIMIT 50";
    let merged = ok(&["run", "--no-timing", "--now", "2026-03-06T12:00:00Z", "--store", db_s, "--store", db_s, q]);
    let single = ok(&["run", "--no-timing", "--now", "2026-03-06T12:00:00Z", "--store", db_s, q]);
    assert_eq!(merged, single);
}

#[test]
fn a_damaged_database_is_an_error_never_an_answer() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("d.db");
    let db_s = db.to_str().unwrap();
    ok(&["store", "init", db_s]);
    ok(&["store", "import", db_s, repo("interp/demo/demo.mg").to_str().unwrap()]);
    let good = std::fs::read(&db).unwrap();
    // Flip one byte inside the stored blob of a grain the query returns (the MessagePack
    // string, header byte 0xa9 included, so that it is the blob and not an index key).
    let needle = b"\xa9dark mode";
    let at = good.windows(needle.len()).position(|w| w == needle).expect("a blob holds the text");
    let mut bad = good.clone();
    bad[at] ^= 0x20;
    std::fs::write(&db, &bad).unwrap();
    let out = cal(&["run", "--store", db_s, "RECALL beliefs ABOUT \"alice\""], b"");
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("ERR_INTEGRITY"), "{err}");
    assert!(out.stdout.is_empty(), "an answer was printed from a damaged store");
    let out = cal(&["store", "verify", db_s], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("ERR_INTEGRITY"));
    // Truncated: named, exit 1.
    std::fs::write(&db, &good[..good.len() / 2]).unwrap();
    for args in [vec!["store", "verify", db_s], vec!["run", "--store", db_s, "RECALL beliefs"]] {
        let out = cal(&args, b"");
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("ERR_CORRUPT") || err.contains("ERR_INTEGRITY"), "{args:?}: {err}");
    }
    // Not a database at all.
    std::fs::write(&db, b"SQLite format 3\0 but nothing after").unwrap();
    let out = cal(&["run", "--store", db_s, "RECALL beliefs"], b"");
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn init_refuses_an_existing_file_and_add_reports_durable_addresses() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("a.db");
    let db_s = db.to_str().unwrap();
    ok(&["store", "init", db_s]);
    let again = cal(&["store", "init", db_s], b"");
    assert_eq!(again.status.code(), Some(2));
    let grains = dir.path().join("g.jsonl");
    std::fs::write(
        &grains,
        "{\"type\":\"belief\",\"subject\":\"s\",\"relation\":\"r\",\"object\":\"1\",\"confidence\":1.0,\"created_at\":1}\n\
         {\"type\":\"belief\",\"subject\":\"s\",\"relation\":\"r\",\"object\":\"2\",\"confidence\":1.0,\"created_at\":2}\n",
    )
    .unwrap();
    let printed = ok(&["store", "add", db_s, "--jsonl", grains.to_str().unwrap()]);
    assert_eq!(printed.lines().count(), 2);
    let got = ok(&["run", "--store", db_s, "--format", "text", "RECALL beliefs WHERE subject = \"s\""]);
    assert!(got.contains("s r 1") && got.contains("s r 2"), "{got}");
    let bad = dir.path().join("bad.jsonl");
    for (line, says) in [
        ("{\"type\":\"belief\",\"subject\":\"s\"}", "ERR_SCHEMA"),
        ("not json", "JSON object"),
        ("[1,2]", "JSON object"),
    ] {
        std::fs::write(&bad, format!("{line}\n")).unwrap();
        let out = cal(&["store", "add", db_s, "--jsonl", bad.to_str().unwrap()], b"");
        assert_eq!(out.status.code(), Some(1), "{line}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("bad.jsonl:1") && err.contains(says), "{line}: {err}");
    }
    // An llm observer without observer_model: added, with the SHOULD-level warning.
    std::fs::write(
        &bad,
        "{\"type\":\"observation\",\"observer_id\":\"o\",\"observer_type\":\"llm\",\"subject\":\"s\",\"object\":\"x\",\"created_at\":1}\n",
    )
    .unwrap();
    let out = cal(&["store", "add", db_s, "--jsonl", bad.to_str().unwrap()], b"");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("WARN_OBSERVER_MODEL"));
    // `mg verify` on a database says what it is.
    let out = cal(&["mg", "verify", db_s], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cal store verify"));
    // A failed init leaves nothing behind, so the retry is not told the file exists.
    let long = dir.path().join(format!("{}.db", "a".repeat(250)));
    let out = cal(&["store", "init", long.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!long.exists(), "a failed init left its file behind");
}

/// A store in a directory this process may not write (a read-only mount, a
/// shared directory) is still readable: `cal run`, `store stats` and
/// `store verify` answer as an unprivileged user, with the bytes the owner
/// gets. Needs root (to drop to `nobody` with `setpriv`); skipped otherwise.
#[test]
fn a_store_in_a_read_only_place_can_be_read() {
    use std::os::unix::fs::PermissionsExt;
    let uid = std::process::Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    if uid.ok().as_deref() != Some("0") || !Path::new("/usr/bin/setpriv").exists() {
        eprintln!("skipped: needs root and setpriv to run cal as an unprivileged user");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let ro = dir.path().join("ro");
    std::fs::create_dir(&ro).unwrap();
    let db = ro.join("r.db");
    let db_s = db.to_str().unwrap();
    ok(&["store", "init", db_s]);
    ok(&["store", "import", db_s, repo("interp/demo/demo.mg").to_str().unwrap()]);
    for (p, mode) in [(dir.path(), 0o755), (ro.as_path(), 0o555), (db.as_path(), 0o644)] {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
    }
    let q = "RECALL beliefs ABOUT \"alice\" | LIMIT 5";
    // Nothing but the database itself lies there: no `-shm` a reader could borrow.
    let beside: Vec<String> =
        std::fs::read_dir(&ro).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(beside, ["r.db"]);
    let as_nobody = |args: &[&str]| {
        std::process::Command::new("/usr/bin/setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups", env!("CARGO_BIN_EXE_cal")])
            .args(args)
            .output()
            .unwrap()
    };
    let out = as_nobody(&["run", "--no-timing", "--now", "2026-03-06T12:00:00Z", "--store", db_s, q]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The same through a path that starts with `//` (not a URI host).
    let slashed = format!("/{db_s}");
    let again = as_nobody(&["run", "--no-timing", "--now", "2026-03-06T12:00:00Z", "--store", &slashed, q]);
    assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
    assert_eq!(again.stdout, out.stdout);
    for args in [vec!["store", "stats", db_s], vec!["store", "verify", db_s]] {
        let out = as_nobody(&args);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    // A write-ahead log with commits cannot be read immutably: the refusal says what to do.
    let wal = ro.join("r.db-wal");
    std::fs::write(&wal, b"not folded in yet").unwrap();
    let refused = as_nobody(&["store", "stats", db_s]);
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("write-ahead log"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    std::fs::remove_file(&wal).unwrap();
    let as_owner = ok(&["run", "--no-timing", "--now", "2026-03-06T12:00:00Z", "--store", db_s, q]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), as_owner);
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn export_never_replaces_a_store_database() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.db"), dir.path().join("b.db"));
    for db in [&a, &b] {
        ok(&["store", "init", db.to_str().unwrap()]);
        ok(&["store", "import", db.to_str().unwrap(), repo("conformance/fixtures/beliefs-basic.mg").to_str().unwrap()]);
    }
    let before = std::fs::read(&a).unwrap();
    for target in [&a, &b] {
        let out = cal(&["store", "export", a.to_str().unwrap(), target.to_str().unwrap()], b"");
        assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stderr).contains("is a store database"));
        ok(&["store", "verify", target.to_str().unwrap()]);
    }
    assert_eq!(std::fs::read(&a).unwrap(), before);
    // Nor its companion files, nor a report over it.
    for companion in ["a.db-wal", "a.db-shm", "a.db-journal"] {
        let out = cal(&["store", "export", a.to_str().unwrap(), dir.path().join(companion).to_str().unwrap()], b"");
        assert_eq!(out.status.code(), Some(2), "{companion}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stderr).contains("part of the store database"));
    }
    let out = cal(&["conformance", "run", "--only", "execute.views.001", "--report", a.to_str().unwrap()], b"");
    assert_ne!(out.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("is a store database"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read(&a).unwrap(), before);
    let grains = dir.path().join("g.jsonl");
    std::fs::write(&grains, "{\"type\":\"belief\",\"subject\":\"s\",\"relation\":\"r\",\"object\":\"o\",\"confidence\":1.0,\"created_at\":1}\n").unwrap();
    let out = cal(&["mg", "pack", b.to_str().unwrap(), "--jsonl", grains.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is a store database"));
    ok(&["store", "verify", b.to_str().unwrap()]);
}
