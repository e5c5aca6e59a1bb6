//! Durable store benchmarks (`oms::durable`) on the benchmark store of
//! `oms::synthetic::mixed_grain` (100,000 grains by default; set
//! `OMS_DURABLE_N`): bulk import of a `.mg`, and — on a database built once —
//! an indexed RECALL's store operation (type + subject, limit 20), BM25
//! search for a middling and a common word, and opening the file. Run with
//! `cargo bench -p oms --bench durable`; whole-process figures (a cold
//! `cal run`, RSS) come from `scripts/bench-store.sh`. Both go to
//! docs/performance.md ("The durable store").

use std::path::PathBuf;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use divan::{Bencher, black_box};
use oms::durable::{DurableStore, OpenOptions};
use oms::mg::{PackOptions, pack};
use oms::store::{CmpOp, Filter, Query, StoreConfig};
use oms::synthetic::{lcg, mixed_grain, word};
use oms::{Grain, GrainType, Value};

fn main() {
    divan::main();
}

const NOW: i64 = 1_772_798_400_000;

struct Fixture {
    dir: tempfile::TempDir,
    file: Vec<u8>,
    store: DurableStore,
}

fn size() -> usize {
    std::env::var("OMS_DURABLE_N").ok().and_then(|s| s.parse().ok()).unwrap_or(100_000)
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let n = size();
        let blobs: Vec<Vec<u8>> =
            (0..n).map(|i| Grain::from_json(&mixed_grain(i, NOW)).unwrap().encode().unwrap().bytes).collect();
        let file = pack(blobs.iter().map(Vec::as_slice), None, &PackOptions::default()).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let store = DurableStore::create(&dir.path().join("bench.db"), StoreConfig::fixed_clock(NOW)).unwrap();
        store.import_mg(&file).unwrap();
        Fixture { dir, file, store }
    })
}

fn path(f: &Fixture) -> PathBuf {
    f.dir.path().join("bench.db")
}

/// Bulk import of the whole `.mg` into a new database (divide by the size for grains/s).
#[divan::bench(sample_count = 3, sample_size = 1)]
fn import_mg(b: Bencher) {
    let f = fixture();
    let counter = AtomicU64::new(0);
    b.with_inputs(|| {
        let p = f.dir.path().join(format!("import-{}.db", counter.fetch_add(1, Ordering::Relaxed)));
        DurableStore::create(&p, StoreConfig::fixed_clock(NOW)).unwrap()
    })
    .bench_values(|db| black_box(db.import_mg(&f.file).unwrap()));
}

/// `query` with type + subject, limit 20: an indexed RECALL's store operation.
#[divan::bench(sample_count = 200)]
fn query_type_subject_limit_20(b: Bencher) {
    let f = fixture();
    let counter = AtomicU64::new(1);
    b.with_inputs(|| {
        let i = lcg(counter.fetch_add(1, Ordering::Relaxed)) >> 16;
        Query {
            filters: vec![
                Filter::Type(GrainType::Belief),
                Filter::Cmp {
                    field: "subject".into(),
                    op: CmpOp::Eq,
                    value: Value::Str(format!("entity-{}", i % (size() as u64 / 20).max(1))),
                },
            ],
            limit: Some(20),
            ..Query::default()
        }
    })
    .bench_values(|q| black_box(f.store.query(&q).unwrap()));
}

/// BM25 `search` for a word of middling frequency, limit 20.
#[divan::bench(sample_count = 50)]
fn search_middling_word(b: Bencher) {
    let f = fixture();
    let counter = AtomicU64::new(1);
    let q = Query { limit: Some(20), ..Query::default() };
    b.with_inputs(|| word(300 + (lcg(counter.fetch_add(1, Ordering::Relaxed)) >> 20) % 300))
        .bench_values(|w| black_box(f.store.search(&w, &q).unwrap()));
}

/// BM25 `search` for one of the commonest words, limit 20.
#[divan::bench(sample_count = 10)]
fn search_common_word(b: Bencher) {
    let f = fixture();
    let q = Query { limit: Some(20), ..Query::default() };
    b.bench(|| black_box(f.store.search(&word(1), &q).unwrap()));
}

/// Opening the database read-only (what every one-shot `cal run` pays first).
#[divan::bench(sample_count = 100)]
fn open_read_only(b: Bencher) {
    let f = fixture();
    let p = path(f);
    b.bench(|| black_box(DurableStore::open(&p, StoreConfig::fixed_clock(NOW), OpenOptions::read_only()).unwrap()));
}
