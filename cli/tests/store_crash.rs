//! Crash safety, shown by killing writers: `cal store add` (one transaction
//! per grain, each address printed once durable) and `cal store import` (one
//! transaction per file) are killed with SIGKILL at pseudo-random moments,
//! 200 and 20 times. After every kill the store opens, `verify` passes, every
//! address the writer acknowledged is there, and an import is all or nothing.

mod common;

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use oms::durable::{DurableStore, OpenOptions};
use oms::store::StoreConfig;
use oms::{ContentAddress, synthetic::lcg};

fn cal() -> Command {
    Command::new(env!("CARGO_BIN_EXE_cal"))
}

fn open(db: &Path) -> DurableStore {
    DurableStore::open(db, StoreConfig::default(), OpenOptions::read_write()).expect("the store opens after a kill")
}

/// Starts `cal args`, kills it after `after`, and returns what it printed before dying.
fn kill_after(args: &[&str], after: Duration) -> String {
    let mut child = cal().args(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
    std::thread::sleep(after);
    let _ = child.kill(); // SIGKILL on Unix; it may already have finished.
    let _ = child.wait();
    let mut out = String::new();
    child.stdout.take().unwrap().read_to_string(&mut out).unwrap();
    out
}

#[test]
fn killed_writers_lose_nothing_they_acknowledged() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("crash.db");
    let db_s = db.to_str().unwrap();
    assert!(cal().args(["store", "init", db_s]).output().unwrap().status.success());
    let mut acknowledged: Vec<ContentAddress> = Vec::new();
    let mut rng = 0x5eed_u64;
    let mut kills_mid_write = 0;
    for round in 0..200 {
        let jsonl = dir.path().join("round.jsonl");
        let lines: String = (0..200)
            .map(|j| {
                format!(
                    "{{\"type\":\"belief\",\"subject\":\"s{round}\",\"relation\":\"r\",\"object\":\"o{j}\",\"confidence\":0.5,\"created_at\":{}}}\n",
                    1_000 + round * 1_000 + j
                )
            })
            .collect();
        std::fs::write(&jsonl, lines).unwrap();
        rng = lcg(rng);
        let wait = Duration::from_micros(2_000 + (rng >> 33) % 40_000);
        let printed = kill_after(&["store", "add", db_s, "--jsonl", jsonl.to_str().unwrap()], wait);
        let acked: Vec<ContentAddress> = printed.lines().map(|l| ContentAddress::parse(l).unwrap()).collect();
        if acked.len() < 200 {
            kills_mid_write += 1;
        }
        acknowledged.extend(acked);
        let store = open(&db);
        store.verify().unwrap_or_else(|e| panic!("round {round}: verify failed after the kill: {e}"));
        for a in &acknowledged {
            assert!(store.exists(a).unwrap(), "round {round}: acknowledged grain {a} was lost");
        }
    }
    eprintln!("{} grains acknowledged over 200 kills, {kills_mid_write} of them mid-write", acknowledged.len());
    assert!(kills_mid_write > 150, "only {kills_mid_write} of 200 kills landed while the writer was writing");

    // Imports are all or nothing.
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../interp/demo/demo.mg");
    let demo_grains = 283;
    let mut outcomes = [0usize; 2];
    for round in 0..20 {
        let target = dir.path().join(format!("import{round}.db"));
        let t = target.to_str().unwrap();
        assert!(cal().args(["store", "init", t]).output().unwrap().status.success());
        rng = lcg(rng);
        let wait = Duration::from_micros(1_000 + (rng >> 33) % 60_000);
        kill_after(&["store", "import", t, demo.to_str().unwrap()], wait);
        let store = open(&target);
        store.verify().unwrap_or_else(|e| panic!("import round {round}: {e}"));
        let n = store.len().unwrap();
        assert!(n == 0 || n == demo_grains, "import round {round}: {n} grains after a kill (all or nothing)");
        outcomes[usize::from(n == demo_grains)] += 1;
    }
    eprintln!("imports killed: {} left nothing, {} had committed", outcomes[0], outcomes[1]);
    // The CLI's own verify, read-only, agrees.
    let out = cal().args(["store", "verify", db_s]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}
