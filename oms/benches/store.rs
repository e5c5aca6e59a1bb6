//! Store benchmarks on generated grains (1,000,000 by default; set
//! `OMS_BENCH_N` to change): `get` by address, `query` by subject and by
//! (subject, relation), `search`, and load time from `.mg`. Memory per grain
//! is printed once while the store is built. Run with
//! `cargo bench -p oms --bench store`; figures go to docs/performance-oms.md.

use std::sync::OnceLock;
use std::time::Instant;

use divan::{Bencher, black_box};
use oms::store::{CmpOp, Filter, Query, SaveOptions, Store, StoreConfig};
use oms::synthetic::{lcg, word};
use oms::{ContentAddress, Grain, Value};

fn main() {
    divan::main();
}

const RELATIONS: [&str; 4] = ["prefers", "knows", "works_at", "avoids"];

/// Grain i: 20 grains per subject, 5 per (subject, relation).
fn grain(i: usize) -> Vec<u8> {
    let r = lcg(i as u64);
    let object = format!("{} {} {}", word(r >> 7), word(r >> 23), word(r >> 41));
    Grain::from_json_str(&format!(
        r#"{{"type":"belief","subject":"entity-{}","relation":"{}","object":"{object}","confidence":0.8,
        "created_at":{},"namespace":"bench","user_id":"user-{}"}}"#,
        i / 20,
        RELATIONS[i % 4],
        1_700_000_000_000u64 + i as u64,
        i % 1000
    ))
    .expect("valid grain")
    .encode()
    .expect("encodes")
    .bytes
}

fn rss_bytes() -> usize {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1).and_then(|p| p.parse::<usize>().ok()))
        .map_or(0, |pages| pages * 4096)
}

struct Fixture {
    store: Store,
    file: Vec<u8>,
    addresses: Vec<ContentAddress>,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let n = oms::synthetic::size_from_env("OMS_BENCH_N");
        let t = Instant::now();
        let blobs: Vec<Vec<u8>> = (0..n).map(grain).collect();
        eprintln!("generated {n} blobs in {:?}", t.elapsed());
        let before = rss_bytes();
        let store = Store::new(StoreConfig { track_access: false, ..StoreConfig::fixed_clock(1_800_000_000_000) });
        let t = Instant::now();
        let addresses: Vec<ContentAddress> = blobs.iter().map(|b| store.put(b).expect("put")).collect();
        let after = rss_bytes();
        eprintln!(
            "put {n} grains in {:?}; resident memory +{} MiB, {} bytes per grain (blob {} bytes)",
            t.elapsed(),
            (after - before) >> 20,
            (after - before) / n,
            blobs[0].len()
        );
        drop(blobs);
        let t = Instant::now();
        let file = store.save(&SaveOptions::default()).expect("save");
        eprintln!("saved {} MiB .mg in {:?}", file.len() >> 20, t.elapsed());
        Fixture { store, file, addresses }
    })
}

#[divan::bench]
fn get_by_address(b: Bencher) {
    let f = fixture();
    let mut i = 0usize;
    b.bench_local(|| {
        i = (i + 7919) % f.addresses.len();
        black_box(f.store.get(&f.addresses[i]))
    });
}

fn eq(field: &str, v: String) -> Filter {
    Filter::Cmp { field: field.into(), op: CmpOp::Eq, value: Value::Str(v) }
}

#[divan::bench]
fn query_by_subject_20(b: Bencher) {
    let f = fixture();
    let subjects = f.addresses.len() / 20;
    let mut i = 0usize;
    b.bench_local(|| {
        i = (i + 104_729) % subjects;
        let q = Query { filters: vec![eq("subject", format!("entity-{i}"))], limit: Some(20), ..Query::default() };
        let r = f.store.query(&q).expect("query");
        assert_eq!(r.results.len(), 20);
        black_box(r)
    });
}

#[divan::bench]
fn query_by_subject_relation(b: Bencher) {
    let f = fixture();
    let subjects = f.addresses.len() / 20;
    let mut i = 0usize;
    b.bench_local(|| {
        i = (i + 104_729) % subjects;
        let q = Query {
            filters: vec![eq("subject", format!("entity-{i}")), eq("relation", RELATIONS[i % 4].to_string())],
            ..Query::default()
        };
        black_box(f.store.query(&q).expect("query"))
    });
}

/// A large-result query (CAL `RECALL beliefs RECENT 10`): every belief is a
/// match, the page is selected without sorting all of them.
#[divan::bench(sample_count = 10)]
fn query_recent_10_of_all(b: Bencher) {
    let f = fixture();
    b.bench_local(|| {
        let q = Query { filters: vec![Filter::Type(oms::GrainType::Belief)], limit: Some(10), ..Query::default() };
        black_box(f.store.query(&q).expect("query"))
    });
}

#[divan::bench]
fn search_two_words(b: Bencher) {
    let f = fixture();
    let mut i = 0u64;
    b.bench_local(|| {
        i = lcg(i);
        let text = format!("{} {}", word(i >> 11), word(i >> 29));
        let q = Query { limit: Some(20), ..Query::default() };
        black_box(f.store.search(&text, &q).expect("search"))
    });
}

#[divan::bench(sample_count = 2, sample_size = 1)]
fn load_from_mg(b: Bencher) {
    let f = fixture();
    b.bench_local(|| black_box(Store::load(&f.file, StoreConfig::default()).expect("load").len()));
}
