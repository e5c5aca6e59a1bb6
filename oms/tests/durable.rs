//! The durable store (`oms::durable`): the same content and the same rules as
//! the in-memory store, kept across reopening; append-only; one writer at a
//! time; damaged files named, never trusted.

use std::path::{Path, PathBuf};

use ed25519_dalek::SigningKey;
use oms::cose::sign_grain;
use oms::durable::{DurableStore, OpenOptions, schema};
use oms::store::{Query, SaveOptions, Store, StoreConfig, View};
use oms::{ContentAddress, Grain, did};

const NOW: i64 = 1_800_000_000_000;

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

fn fixtures() -> Vec<PathBuf> {
    let mut out = vec![repo("interp/demo/demo.mg")];
    let mut dir: Vec<PathBuf> = std::fs::read_dir(repo("conformance/fixtures"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mg"))
        .collect();
    dir.sort();
    out.extend(dir);
    out
}

fn create(dir: &Path, name: &str) -> DurableStore {
    DurableStore::create(&dir.join(name), StoreConfig::fixed_clock(NOW)).unwrap()
}

fn reopen(store: &DurableStore) -> DurableStore {
    DurableStore::open(store.path(), StoreConfig::fixed_clock(NOW), OpenOptions::read_write()).unwrap()
}

fn grain(json: &str) -> Grain {
    Grain::from_json_str(json).unwrap()
}

fn bytes(g: &Grain) -> Vec<u8> {
    g.encode().unwrap().bytes
}

#[test]
fn import_then_export_gives_the_bytes_the_memory_store_saves() {
    let dir = tempfile::tempdir().unwrap();
    for (i, path) in fixtures().iter().enumerate() {
        let file = std::fs::read(path).unwrap();
        let memory = Store::load(&file, StoreConfig::fixed_clock(NOW)).unwrap();
        let db = create(dir.path(), &format!("{i}.db"));
        let report = db.import_mg(&file).unwrap();
        assert_eq!(report.added, memory.len() + memory.sealed_len(), "{}", path.display());
        let want = memory.save(&SaveOptions::default()).unwrap();
        assert_eq!(db.export_mg(&SaveOptions::default()).unwrap(), want, "{}", path.display());
        // Reopened from disk, still the same; and importing again adds nothing.
        let again = reopen(&db);
        assert_eq!(again.export_mg(&SaveOptions::default()).unwrap(), want, "{}", path.display());
        assert_eq!(again.import_mg(&file).unwrap().added, 0);
        assert_eq!(again.export_mg(&SaveOptions::default()).unwrap(), want);
        again.verify().unwrap();
    }
}

#[test]
fn a_failed_import_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = create(dir.path(), "s.db");
    let good = std::fs::read(repo("conformance/fixtures/beliefs-basic.mg")).unwrap();
    db.import_mg(&good).unwrap();
    let before = db.export_mg(&SaveOptions::default()).unwrap();
    let demo = std::fs::read(repo("interp/demo/demo.mg")).unwrap();
    let mut broken = demo.clone();
    let mid = broken.len() / 2;
    broken[mid] ^= 0x40;
    assert!(db.import_mg(&broken).is_err());
    assert!(db.import_mg(&demo[..demo.len() - 7]).is_err());
    assert_eq!(db.export_mg(&SaveOptions::default()).unwrap(), before);
    db.verify().unwrap();
}

/// Every write of the store protocol, applied to a memory store and a durable
/// store side by side: the same outcome (address or `ERR_` code) each time,
/// and the same content afterwards, also after reopening the file.
#[test]
fn writes_follow_the_memory_stores_rules() {
    let dir = tempfile::tempdir().unwrap();
    let memory = Store::new(StoreConfig::fixed_clock(NOW));
    let mut db = create(dir.path(), "w.db");
    let key = SigningKey::from_bytes(&[7; 32]);
    let signer = did::encode_ed25519(&key.verifying_key());

    let locked = grain(&format!(
        r#"{{"type":"belief","subject":"acct","relation":"limit","object":"100","confidence":1.0,"created_at":1000,
        "invalidation_policy":{{"mode":"locked","authorized":["{signer}"]}}}}"#
    ));
    let open = grain(
        r#"{"type":"belief","subject":"alice","relation":"prefers","object":"tea","confidence":0.8,"created_at":1000}"#,
    );
    let soft = grain(
        r#"{"type":"belief","subject":"bob","relation":"role","object":"dev","confidence":0.9,"created_at":1000,
        "invalidation_policy":{"mode":"soft_locked"}}"#,
    );
    type Op<'a> = Box<dyn Fn(&dyn Ops) -> Result<String, String> + 'a>;
    type Step<'a> = (&'a str, Op<'a>);
    let put = |g: Grain| -> Op<'static> { Box::new(move |s| s.put(&bytes(&g))) };
    let addr = |g: &Grain| ContentAddress::of(&bytes(g));
    let (a_locked, a_open, a_soft) = (addr(&locked), addr(&open), addr(&soft));
    let next = |old: &ContentAddress, subject: &str, relation: &str, object: &str, extra: &str| {
        grain(&format!(
            r#"{{"type":"belief","subject":"{subject}","relation":"{relation}","object":"{object}","confidence":1.0,
            "created_at":2000,"derived_from":["{old}"]{extra}}}"#
        ))
    };
    let coffee = next(&a_open, "alice", "prefers", "coffee", "");
    let a_coffee = addr(&coffee);
    // Key separation (§23.8): the owner approves; an agent (another key) signs the grain.
    let approval = oms::cose::sign_payload(
        &oms::store::policy::supersede_auth_payload(&a_locked, &next(&a_locked, "acct", "limit", "200", "")).unwrap(),
        &key,
    )
    .unwrap();
    let approved = format!(r#","supersession_auth":[{{"$bin":"{}"}}]"#, oms::address::hex(&approval));
    let agent = SigningKey::from_bytes(&[8; 32]);
    let signed_limit = sign_grain(&next(&a_locked, "acct", "limit", "200", &approved), &agent, None).unwrap().cose;
    let steps: Vec<Step<'_>> = vec![
        ("put locked", put(locked.clone())),
        ("put open", put(open.clone())),
        ("put soft", put(soft.clone())),
        ("put again is idempotent", put(open.clone())),
        ("derived_from implying supersession is refused", put(next(&a_open, "alice", "prefers", "juice", ""))),
        ("supersede open", {
            let c = coffee.clone();
            Box::new(move |s| s.supersede(&a_open, &bytes(&c), None))
        }),
        ("supersede it again is a conflict", {
            let g = next(&a_open, "alice", "prefers", "water", "");
            Box::new(move |s| s.supersede(&a_open, &bytes(&g), None))
        }),
        ("locked refuses an unsigned successor", {
            let g = next(&a_locked, "acct", "limit", "200", "");
            Box::new(move |s| s.supersede(&a_locked, &bytes(&g), None))
        }),
        ("locked yields to its owner's approval", Box::new(move |s| s.supersede(&a_locked, &signed_limit, None))),
        ("soft_locked needs a justification", {
            let g = next(&a_soft, "bob", "role", "lead", "");
            Box::new(move |s| s.supersede(&a_soft, &bytes(&g), None))
        }),
        ("soft_locked with a justification is flagged for review", {
            let g = next(&a_soft, "bob", "role", "lead", "");
            Box::new(move |s| s.supersede(&a_soft, &bytes(&g), Some("promoted")))
        }),
        ("contradict", Box::new(move |s| s.contradict(&a_coffee))),
        ("verification status", Box::new(move |s| s.verify_status(&a_coffee, "verified"))),
        ("a bad verification status", Box::new(move |s| s.verify_status(&a_coffee, "maybe"))),
        ("supersede a grain that is not stored", {
            let ghost = ContentAddress::of(b"ghost");
            let g = next(&ghost, "x", "y", "z", "");
            Box::new(move |s| s.supersede(&ghost, &bytes(&g), None))
        }),
    ];
    for (what, step) in &steps {
        let m = step(&memory as &dyn Ops);
        let d = step(&db as &dyn Ops);
        assert_eq!(m, d, "{what}");
        let want = memory.save(&SaveOptions::default()).unwrap();
        assert_eq!(db.export_mg(&SaveOptions::default()).unwrap(), want, "{what}: content differs");
        db = reopen(&db);
        assert_eq!(db.export_mg(&SaveOptions::default()).unwrap(), want, "{what}: content differs after reopening");
    }
    db.verify().unwrap();
    // History and the current view come from the records written.
    let chain = db.history(&a_coffee).unwrap();
    assert_eq!(chain.iter().map(|s| s.address).collect::<Vec<_>>(), vec![a_open, a_coffee]);
    let current = db.query(&Query { view: View::Current, ..Query::default() }).unwrap();
    assert!(current.results.iter().all(|h| h.address != a_open && h.address != a_locked));
}

/// The operations both stores offer, with outcomes as comparable text.
trait Ops {
    fn put(&self, entry: &[u8]) -> Result<String, String>;
    fn supersede(&self, old: &ContentAddress, entry: &[u8], why: Option<&str>) -> Result<String, String>;
    fn contradict(&self, target: &ContentAddress) -> Result<String, String>;
    fn verify_status(&self, target: &ContentAddress, status: &str) -> Result<String, String>;
}

fn outcome<T: std::fmt::Debug>(r: oms::Result<T>) -> Result<String, String> {
    r.map(|v| format!("{v:?}")).map_err(|e| e.code().to_string())
}

impl Ops for Store {
    fn put(&self, entry: &[u8]) -> Result<String, String> {
        outcome(Store::put(self, entry))
    }
    fn supersede(&self, old: &ContentAddress, entry: &[u8], why: Option<&str>) -> Result<String, String> {
        outcome(Store::supersede(self, old, entry, why))
    }
    fn contradict(&self, target: &ContentAddress) -> Result<String, String> {
        outcome(Store::contradict(self, target, &[], None))
    }
    fn verify_status(&self, target: &ContentAddress, status: &str) -> Result<String, String> {
        outcome(Store::set_verification_status(self, target, status, &[]))
    }
}

impl Ops for DurableStore {
    fn put(&self, entry: &[u8]) -> Result<String, String> {
        outcome(DurableStore::put(self, entry))
    }
    fn supersede(&self, old: &ContentAddress, entry: &[u8], why: Option<&str>) -> Result<String, String> {
        outcome(DurableStore::supersede(self, old, entry, why))
    }
    fn contradict(&self, target: &ContentAddress) -> Result<String, String> {
        outcome(DurableStore::contradict(self, target, &[], None))
    }
    fn verify_status(&self, target: &ContentAddress, status: &str) -> Result<String, String> {
        outcome(DurableStore::set_verification_status(self, target, status, &[]))
    }
}

#[test]
fn grains_cannot_be_rewritten_or_deleted_even_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let db = create(dir.path(), "a.db");
    db.import_mg(&std::fs::read(repo("conformance/fixtures/supersession-chains.mg")).unwrap()).unwrap();
    let conn = rusqlite::Connection::open(db.path()).unwrap();
    // Rows in every append-only table (a DELETE of an empty table deletes nothing).
    conn.execute_batch(
        "INSERT INTO reverts (target_id, restored_id, new_id, at_ms) VALUES (1, 0, 2, 5);
         INSERT INTO templates (namespace, name, body, defined_at) VALUES ('ns', 't', 'x', 5);",
    )
    .unwrap();
    for table in schema::APPEND_ONLY_TABLES {
        let rows: i64 = conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0)).unwrap();
        assert!(rows > 0, "{table} is empty: the test would prove nothing");
        for sql in [format!("DELETE FROM {table}"), format!("UPDATE {table} SET rowid = rowid")] {
            let err = conn.execute(&sql, []).expect_err(&sql);
            assert!(err.to_string().contains("append-only"), "{sql}: {err}");
        }
    }
    for sql in [
        "INSERT OR REPLACE INTO supersessions SELECT new_id, old_id, 0, 'x' FROM supersessions LIMIT 1",
        "INSERT OR REPLACE INTO audit SELECT seq, 0, '{}', prev, hash FROM audit LIMIT 1",
    ] {
        let err = conn.execute(sql, []).expect_err(sql);
        assert!(err.to_string().contains("append-only"), "{sql}: {err}");
    }
    let replacing = [
        "INSERT OR REPLACE INTO grains SELECT id, address, type, created_at, blob, cose, signer FROM grains LIMIT 1",
        "REPLACE INTO grains (id, address, type, created_at, blob) SELECT id + 1000, address, type, 0, x'00' FROM grains LIMIT 1",
    ];
    // As every connection of the store has it: a REPLACE fires the delete trigger.
    conn.execute_batch("PRAGMA recursive_triggers = ON").unwrap();
    for sql in replacing {
        let err = conn.execute(sql, []).expect_err(sql);
        assert!(err.to_string().contains("append-only"), "{sql}: {err}");
    }
    drop(conn);
    db.verify().unwrap();
    // A foreign connection without it can replace a row, and `verify` names what it broke.
    let foreign = rusqlite::Connection::open(db.path()).unwrap();
    foreign.execute(replacing[1], []).unwrap();
    drop(foreign);
    let err = db.verify().unwrap_err();
    assert!(matches!(err.code(), "ERR_INTEGRITY" | "ERR_CORRUPT"), "{err}");
}

/// No statement in the durable store's source removes or overwrites a row of
/// an append-only table: a `DELETE`, `UPDATE`, `REPLACE`, `DROP` or
/// `TRUNCATE` naming one of them fails this test (the triggers stay the only
/// mention, and they refuse).
#[test]
fn no_code_path_deletes_or_rewrites_a_grain() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/durable");
    let mut offences = Vec::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap().to_uppercase();
        for table in schema::APPEND_ONLY_TABLES {
            let table = table.to_uppercase();
            for verb in ["DELETE FROM", "UPDATE", "REPLACE INTO", "OR REPLACE INTO", "DROP TABLE", "TRUNCATE"] {
                let needle = format!("{verb} {table}");
                let hits = text.matches(&needle).count();
                if hits > 0 {
                    offences.push(format!("{}: `{needle}` ×{hits}", path.display()));
                }
            }
        }
    }
    assert!(offences.is_empty(), "statements that would remove or rewrite a grain: {offences:?}");
}

#[test]
fn a_second_writer_is_refused_cleanly_and_nothing_is_lost() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.db");
    let first = DurableStore::create(&path, StoreConfig::fixed_clock(NOW)).unwrap();
    first.import_mg(&std::fs::read(repo("conformance/fixtures/beliefs-basic.mg")).unwrap()).unwrap();
    let before = first.export_mg(&SaveOptions::default()).unwrap();
    // Another process holds the write lock.
    let holder = rusqlite::Connection::open(&path).unwrap();
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    let opts = OpenOptions { busy_timeout: std::time::Duration::from_millis(50), ..OpenOptions::read_write() };
    let second = DurableStore::open(&path, StoreConfig::fixed_clock(NOW), opts).unwrap();
    let g = grain(r#"{"type":"belief","subject":"s","relation":"r","object":"o","confidence":1.0,"created_at":5}"#);
    let err = second.put(&bytes(&g)).unwrap_err();
    assert_eq!(err.code(), "ERR_BUSY", "{err}");
    assert!(err.to_string().contains("one writer at a time"), "{err}");
    let demo = std::fs::read(repo("interp/demo/demo.mg")).unwrap();
    assert_eq!(second.import_mg(&demo).unwrap_err().code(), "ERR_BUSY");
    // Readers are not blocked meanwhile.
    assert_eq!(second.export_mg(&SaveOptions::default()).unwrap(), before);
    holder.execute_batch("ROLLBACK").unwrap();
    drop(holder);
    let a = second.put(&bytes(&g)).unwrap();
    assert!(first.exists(&a).unwrap());
    first.verify().unwrap();
}

#[test]
fn files_that_are_not_stores_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let mg = repo("interp/demo/demo.mg");
    let cfg = || StoreConfig::fixed_clock(NOW);
    let err = DurableStore::open(&mg, cfg(), OpenOptions::read_only()).unwrap_err();
    assert_eq!(err.code(), "ERR_CORRUPT", "{err}");
    let other = dir.path().join("other.db");
    rusqlite::Connection::open(&other).unwrap().execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);").unwrap();
    let err = DurableStore::open(&other, cfg(), OpenOptions::read_only()).unwrap_err();
    assert_eq!(err.code(), "ERR_CORRUPT");
    assert!(err.to_string().contains("not a CAL store"), "{err}");
    // A store of an older layout is refused by name, not met with a missing table.
    let old = dir.path().join("old.db");
    drop(DurableStore::create(&old, cfg()).unwrap());
    rusqlite::Connection::open(&old).unwrap().execute_batch("PRAGMA user_version = 1").unwrap();
    let err = DurableStore::open(&old, cfg(), OpenOptions::read_only()).unwrap_err();
    assert_eq!(err.code(), "ERR_UNSUPPORTED", "{err}");
    assert!(err.to_string().contains("layout version 1"), "{err}");
    let missing = DurableStore::open(&dir.path().join("none.db"), cfg(), OpenOptions::read_only()).unwrap_err();
    assert_eq!(missing.code(), "ERR_IO");
    assert_eq!(DurableStore::create(&other, cfg()).unwrap_err().code(), "ERR_CONFLICT");
}

/// Truncations and bit flips anywhere in a store file: opening, querying,
/// exporting and verifying never panic; `verify` names the fault; and an
/// answer that is given is the whole answer, never a silently smaller one.
#[test]
fn damaged_files_are_named_never_trusted() {
    let dir = tempfile::tempdir().unwrap();
    let db = create(dir.path(), "good.db");
    db.import_mg(&std::fs::read(repo("interp/demo/demo.mg")).unwrap()).unwrap();
    drop(db);
    let good = std::fs::read(dir.path().join("good.db")).unwrap();
    let cfg = || StoreConfig::fixed_clock(NOW);
    let queries = [
        Query::default(),
        Query { view: View::All, ..Query::default() },
        Query {
            filters: vec![oms::store::Filter::Cmp {
                field: "subject".into(),
                op: oms::store::CmpOp::Eq,
                value: oms::Value::Str("alice".into()),
            }],
            ..Query::default()
        },
    ];
    let reference = {
        let s = DurableStore::open(&dir.path().join("good.db"), cfg(), OpenOptions::read_only()).unwrap();
        queries.iter().map(|q| addresses(&s.query(q).unwrap())).collect::<Vec<_>>()
    };
    let mut damaged: Vec<(String, Vec<u8>)> = Vec::new();
    for cut in [100, 4096, good.len() / 3, good.len() / 2, good.len() - 4096, good.len() - 1] {
        damaged.push((format!("truncated at {cut}"), good[..cut].to_vec()));
    }
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    for i in 0..60 {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let at = 100 + (state >> 33) as usize % (good.len() - 100);
        let mut b = good.clone();
        b[at] ^= 1 << (i % 8);
        damaged.push((format!("bit {} flipped at {at}", i % 8), b));
    }
    let (mut named, mut harmless) = (0, 0);
    for (what, bytes) in damaged {
        let path = dir.path().join("bad.db");
        let _ = std::fs::remove_file(dir.path().join("bad.db-wal"));
        let _ = std::fs::remove_file(dir.path().join("bad.db-shm"));
        std::fs::write(&path, &bytes).unwrap();
        let Ok(s) = DurableStore::open(&path, cfg(), OpenOptions::read_only()) else {
            named += 1;
            continue;
        };
        let verdict = s.verify();
        for (q, want) in queries.iter().zip(&reference) {
            if let Ok(env) = s.query(q) {
                assert_eq!(&addresses(&env), want, "{what}: a damaged store gave a different answer without an error");
            }
        }
        match verdict {
            Err(e) => {
                assert!(matches!(e.code(), "ERR_CORRUPT" | "ERR_INTEGRITY" | "ERR_IO"), "{what}: {e}");
                named += 1;
            }
            Ok(_) => harmless += 1,
        }
    }
    assert!(named > 30, "only {named} damaged files were named ({harmless} were harmless)");
}

fn addresses(env: &oms::store::ResultEnvelope) -> Vec<ContentAddress> {
    env.results.iter().map(|h| h.address).collect()
}

fn did_n(n: u8) -> String {
    did::encode_ed25519(&SigningKey::from_bytes(&[n; 32]).verifying_key())
}

fn consent(withdraws: Option<&ContentAddress>, created: i64) -> Grain {
    let tail = withdraws.map_or_else(
        || r#""is_withdrawal":false"#.to_string(),
        |of| format!(r#""is_withdrawal":true,"prior_consent":"{of}""#),
    );
    grain(&format!(
        r#"{{"type":"consent","subject_did":"{}","grantee_did":"{}","scope":["store"],{tail},"created_at":{created}}}"#,
        did_n(1),
        did_n(2)
    ))
}

fn on_basis(object: &str, basis: &ContentAddress, cascade: bool, created: i64) -> Grain {
    let policy = if cascade { r#","invalidation_policy":{"mode":"consent_cascade"}"# } else { "" };
    grain(&format!(
        r#"{{"type":"belief","subject":"alice","relation":"likes","object":"{object}","confidence":0.5,"created_at":{created},"processing_basis":"{basis}"{policy}}}"#
    ))
}

/// Asserts that both stores hold the same content, also after reopening the database.
fn same_content(memory: &Store, db: &mut DurableStore, what: &str) {
    let want = memory.save(&SaveOptions::default()).unwrap();
    assert_eq!(db.export_mg(&SaveOptions::default()).unwrap(), want, "{what}");
    *db = reopen(db);
    assert_eq!(db.export_mg(&SaveOptions::default()).unwrap(), want, "{what}: after reopening");
    let mut sched = db.scheduled_erasures().unwrap();
    sched.sort();
    let mut want_sched = memory.scheduled_erasures();
    want_sched.sort();
    assert_eq!(sched, want_sched, "{what}: erasure schedule");
}

/// Consent withdrawal (OMS §8.10) on the durable store: the covered grains
/// leave the current view at once, a grain put later on the withdrawn basis is
/// covered as it arrives, and the deadlines survive reopening, export and import.
#[test]
fn a_withdrawal_takes_effect_and_keeps_it() {
    let dir = tempfile::tempdir().unwrap();
    let memory = Store::new(StoreConfig::fixed_clock(NOW));
    let mut db = create(dir.path(), "c.db");
    let grant = consent(None, 1_000);
    let basis = ContentAddress::of(&bytes(&grant));
    let cascade = on_basis("tea", &basis, true, 2_000);
    let plain = on_basis("jazz", &basis, false, 2_001);
    let unrelated = grain(
        r#"{"type":"belief","subject":"bob","relation":"likes","object":"golf","confidence":0.5,"created_at":3}"#,
    );
    for g in [&grant, &cascade, &plain, &unrelated] {
        assert_eq!(memory.put(&bytes(g)).unwrap(), db.put(&bytes(g)).unwrap());
    }
    same_content(&memory, &mut db, "before the withdrawal");
    let current = |s: &DurableStore| addresses(&s.query(&Query::default()).unwrap());
    assert!(current(&db).contains(&ContentAddress::of(&bytes(&plain))));
    let withdrawal = consent(Some(&basis), 5_000);
    assert_eq!(memory.put(&bytes(&withdrawal)).unwrap(), db.put(&bytes(&withdrawal)).unwrap());
    same_content(&memory, &mut db, "after the withdrawal");
    let now_visible = current(&db);
    for g in [&cascade, &plain] {
        assert!(!now_visible.contains(&ContentAddress::of(&bytes(g))), "a covered grain is still current");
    }
    assert!(now_visible.contains(&ContentAddress::of(&bytes(&unrelated))));
    assert_eq!(db.scheduled_erasures().unwrap().len(), 1, "only the consent_cascade grain gets a deadline");
    let late = on_basis("coffee", &basis, true, 6_000);
    assert_eq!(memory.put(&bytes(&late)).unwrap(), db.put(&bytes(&late)).unwrap());
    same_content(&memory, &mut db, "a grain put after the withdrawal");
    assert!(!current(&db).contains(&ContentAddress::of(&bytes(&late))));
    // Export, import into a fresh database: the effect and the deadlines stay.
    let file = db.export_mg(&SaveOptions::default()).unwrap();
    let copy = create(dir.path(), "copy.db");
    copy.import_mg(&file).unwrap();
    assert_eq!(copy.export_mg(&SaveOptions::default()).unwrap(), file);
    assert_eq!(copy.scheduled_erasures().unwrap(), db.scheduled_erasures().unwrap());
    // And a file that holds only the withdrawal covers the grains already stored.
    let fresh = create(dir.path(), "fresh.db");
    let fresh_memory = Store::new(StoreConfig::fixed_clock(NOW));
    let first =
        oms::mg::pack([bytes(&grant), bytes(&cascade)].iter().map(Vec::as_slice), None, &Default::default()).unwrap();
    let second = oms::mg::pack([bytes(&withdrawal)].iter().map(Vec::as_slice), None, &Default::default()).unwrap();
    for f in [&first, &second] {
        assert_eq!(fresh_memory.import(f).unwrap(), fresh.import_mg(f).unwrap().added);
    }
    let mut fresh = fresh;
    same_content(&fresh_memory, &mut fresh, "a withdrawal imported from a file");
}

/// Manifest claims (OMS §11.7, §23) imported into a database are judged by
/// the same replay as the in-memory import: a forged supersession of a locked
/// grain and a claim naming a grain that exists nowhere load nothing, with the
/// same code; an honest claim loads and hides the superseded grain — also when
/// the claimed grains are already stored rather than in the file.
#[test]
fn manifest_claims_are_judged_as_the_memory_store_judges_them() {
    use oms::mg::{IndexState, Manifest, PackOptions, pack};
    let dir = tempfile::tempdir().unwrap();
    let locked = grain(&format!(
        r#"{{"type":"belief","subject":"a","relation":"limit","object":"v1","confidence":1.0,"created_at":1000,
        "invalidation_policy":{{"mode":"locked","authorized":["{}"]}}}}"#,
        did_n(1)
    ));
    let open =
        grain(r#"{"type":"belief","subject":"b","relation":"limit","object":"v1","confidence":1.0,"created_at":1000}"#);
    let next = |old: &Grain, subject: &str| {
        grain(&format!(
            r#"{{"type":"belief","subject":"{subject}","relation":"limit","object":"v2","confidence":1.0,"created_at":2000,"derived_from":["{}"]}}"#,
            ContentAddress::of(&bytes(old))
        ))
    };
    let (locked_next, open_next) = (next(&locked, "a"), next(&open, "b"));
    let addr = |g: &Grain| ContentAddress::of(&bytes(g));
    let claim = |old: &Grain, by: ContentAddress| {
        let mut m = Manifest::new();
        m.insert(
            addr(old),
            IndexState { superseded_by: Some(by), system_valid_to: Some(NOW), ..IndexState::default() },
        );
        m
    };
    let file = |grains: &[&Grain], m: &Manifest| {
        let entries: Vec<Vec<u8>> = grains.iter().map(|g| bytes(g)).collect();
        pack(entries.iter().map(Vec::as_slice), Some(m), &PackOptions::default()).unwrap()
    };
    let plain = |grains: &[&Grain]| file(grains, &Manifest::new());
    let cases: Vec<(&str, Vec<Vec<u8>>)> = vec![
        (
            "forged supersession of a locked grain",
            vec![file(&[&locked, &locked_next], &claim(&locked, addr(&locked_next)))],
        ),
        (
            "claim naming a grain that exists nowhere",
            vec![file(&[&open], &claim(&open, ContentAddress::of(b"nowhere")))],
        ),
        ("honest claim", vec![file(&[&open, &open_next], &claim(&open, addr(&open_next)))]),
        (
            "forged claim on grains already stored",
            vec![plain(&[&locked, &locked_next]), file(&[&locked], &claim(&locked, addr(&locked_next)))],
        ),
        (
            "honest claim on grains already stored",
            vec![plain(&[&open, &open_next]), file(&[&open], &claim(&open, addr(&open_next)))],
        ),
    ];
    for (i, (what, files)) in cases.iter().enumerate() {
        let memory = Store::new(StoreConfig::fixed_clock(NOW));
        let mut db = create(dir.path(), &format!("claims{i}.db"));
        let mut last = Ok(0);
        for f in files {
            let m = memory.import(f).map_err(|e| e.code());
            let d = db.import_mg(f).map(|r| r.added).map_err(|e| e.code());
            assert_eq!(m, d, "{what}");
            last = d;
        }
        let want = match *what {
            "forged supersession of a locked grain" | "forged claim on grains already stored" => {
                Err("ERR_INVALIDATION_DENIED")
            }
            "claim naming a grain that exists nowhere" => Err("ERR_INTEGRITY"),
            _ => last.map_err(|_| "an honest claim was refused"),
        };
        assert_eq!(last, want, "{what}");
        same_content(&memory, &mut db, what);
        db.verify().unwrap();
    }
}

/// The audit chain: every write appends an entry whose hash covers the one
/// before; an entry altered, removed or reordered behind the triggers' back
/// (they refuse it otherwise) is named by `verify`.
#[test]
fn a_tampered_audit_chain_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let db = create(dir.path(), "audit.db");
    db.import_mg(&std::fs::read(repo("conformance/fixtures/beliefs-basic.mg")).unwrap()).unwrap();
    let g = grain(r#"{"type":"belief","subject":"s","relation":"r","object":"o","confidence":1.0,"created_at":5}"#);
    db.put(&bytes(&g)).unwrap();
    db.put(&bytes(&grain(
        r#"{"type":"belief","subject":"s","relation":"r","object":"p","confidence":1.0,"created_at":6}"#,
    )))
    .unwrap();
    assert_eq!(db.verify().unwrap().audit_entries, 3);
    let path = db.path().to_path_buf();
    drop(db);
    for (what, sql) in [
        ("altered", "UPDATE audit SET entry = replace(entry, 'put', 'pot') WHERE seq = 2"),
        ("removed", "DELETE FROM audit WHERE seq = 2"),
        ("reordered", "UPDATE audit SET at_ms = at_ms + 1 WHERE seq = 1"),
    ] {
        let copy = dir.path().join(format!("{what}.db"));
        std::fs::copy(&path, &copy).unwrap();
        let conn = rusqlite::Connection::open(&copy).unwrap();
        conn.execute_batch(&format!("DROP TRIGGER audit_no_update; DROP TRIGGER audit_no_delete; {sql};")).unwrap();
        drop(conn);
        let s = DurableStore::open(&copy, StoreConfig::fixed_clock(NOW), OpenOptions::read_only()).unwrap();
        let err = s.verify().unwrap_err();
        assert_eq!(err.code(), "ERR_INTEGRITY", "{what}: {err}");
        assert!(err.to_string().contains("audit entry"), "{what}: {err}");
    }
}

/// A reader running while a writer commits sees one snapshot per query: the
/// number of current grains of 40 chains stays 40 while every chain is
/// superseded again and again (without a read transaction a query took its
/// candidates before a commit and their states after it, and counted fewer).
#[test]
fn a_query_sees_one_snapshot_while_a_writer_commits() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("race.db");
    let writer = DurableStore::create(&path, StoreConfig::fixed_clock(NOW)).unwrap();
    let version = |chain: usize, v: usize, prev: Option<&ContentAddress>| {
        let derived = prev.map(|p| format!(r#","derived_from":["{p}"]"#)).unwrap_or_default();
        grain(&format!(
            r#"{{"type":"belief","subject":"z{chain}","relation":"q","object":"v{v}","confidence":1.0,"created_at":{}{derived}}}"#,
            1000 + v
        ))
    };
    let mut heads: Vec<ContentAddress> = (0..40).map(|c| writer.put(&bytes(&version(c, 0, None))).unwrap()).collect();
    let query = Query {
        filters: vec![oms::store::Filter::Cmp {
            field: "relation".into(),
            op: oms::store::CmpOp::Eq,
            value: oms::Value::Str("q".into()),
        }],
        ..Query::default()
    };
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        let reader = scope.spawn(|| {
            let r = DurableStore::open(&path, StoreConfig::fixed_clock(NOW), OpenOptions::read_only()).unwrap();
            let mut seen = Vec::new();
            while !done.load(std::sync::atomic::Ordering::SeqCst) {
                seen.push(r.query(&query).unwrap().total);
            }
            seen
        });
        for v in 1..6 {
            for (c, head) in heads.iter_mut().enumerate() {
                *head = writer.supersede(head, &bytes(&version(c, v, Some(head))), None).unwrap();
            }
        }
        done.store(true, std::sync::atomic::Ordering::SeqCst);
        let seen = reader.join().unwrap();
        assert!(!seen.is_empty());
        assert!(
            seen.iter().all(|n| *n == 40),
            "a query saw a torn state: {:?}",
            seen.iter().filter(|n| **n != 40).collect::<Vec<_>>()
        );
    });
}

/// Damage aimed at the index a query uses — a posting segment deleted or
/// re-keyed, a count row gone, a term's segments gone, the index states of
/// superseded grains gone — is a named error for that query, never a
/// shorter (or longer) answer.
#[test]
fn targeted_index_damage_is_named_by_the_query_that_needs_it() {
    use oms::store::{CmpOp, Filter};
    let dir = tempfile::tempdir().unwrap();
    let good = create(dir.path(), "good.db");
    good.import_mg(&std::fs::read(repo("interp/demo/demo.mg")).unwrap()).unwrap();
    drop(good);
    let subject = Query {
        filters: vec![Filter::Cmp { field: "subject".into(), op: CmpOp::Eq, value: oms::Value::Str("alice".into()) }],
        ..Query::default()
    };
    for (what, sql) in [
        ("a posting segment deleted", "DELETE FROM postings WHERE key = 0"),
        ("a posting segment re-keyed", "UPDATE postings SET hash = hash + 1 WHERE key = 0"),
        ("a count row deleted", "DELETE FROM posting_counts WHERE key = 0"),
        ("a term's segments deleted", "DELETE FROM terms WHERE term = 'alic'"),
        ("a term's count deleted", "DELETE FROM term_counts WHERE term = 'alic'"),
        ("the states of superseded grains deleted", "DELETE FROM grain_state"),
    ] {
        let copy = dir.path().join("damaged.db");
        std::fs::copy(dir.path().join("good.db"), &copy).unwrap();
        rusqlite::Connection::open(&copy).unwrap().execute_batch(sql).unwrap();
        let s = DurableStore::open(&copy, StoreConfig::fixed_clock(NOW), OpenOptions::read_only()).unwrap();
        let answers = [s.query(&subject).map(|e| e.total), s.search("alice", &Query::default()).map(|e| e.total)];
        assert!(answers.iter().any(Result::is_err), "{what}: every query answered: {answers:?}");
        for a in answers.iter().filter_map(|a| a.as_ref().err()) {
            assert_eq!(a.code(), "ERR_INTEGRITY", "{what}: {a}");
        }
        assert!(s.verify().is_err(), "{what}: verify passed");
    }
}

#[test]
fn token_uses_are_counted_up_to_their_limit_and_survive_a_reopen() {
    use oms::durable::TokenUse;
    let dir = tempfile::tempdir().unwrap();
    let store = create(dir.path(), "tokens.db");
    assert_eq!(store.spend_token_use("t-1", 2, NOW).unwrap(), TokenUse::Granted { uses: 1 });
    assert_eq!(store.spend_token_use("t-1", 2, NOW).unwrap(), TokenUse::Granted { uses: 2 });
    assert_eq!(store.spend_token_use("t-1", 2, NOW).unwrap(), TokenUse::Spent, "the third use of two");
    assert_eq!(
        store.spend_token_use("t-2", 1, NOW).unwrap(),
        TokenUse::Granted { uses: 1 },
        "tokens are counted apart"
    );
    let again = reopen(&store);
    drop(store);
    assert_eq!(again.spend_token_use("t-1", 2, NOW).unwrap(), TokenUse::Spent, "still spent after a reopen");
    assert_eq!(again.spend_token_use("t-2", 1, NOW).unwrap(), TokenUse::Spent);
    let read_only = DurableStore::open(again.path(), StoreConfig::fixed_clock(NOW), OpenOptions::read_only()).unwrap();
    assert!(read_only.spend_token_use("t-3", 1, NOW).is_err(), "a read-only store records no use, so grants none");
}
