//! End-to-end benchmarks of `cal run`'s path (parse → check → plan → execute
//! → JSON text) on a generated store of 1,000,000 grains (set `CAL_BENCH_N`
//! to change the size): a subject RECALL with LIMIT 20, a BM25 `LIKE`, and
//! HISTORY of a 100-version chain. Run with `cargo bench -p cal-interp --bench
//! run`; it is not part of `cargo test`. Figures go to docs/performance-interp.md.
//!
//! The store: beliefs (70%), events (20%) and observations (10%) about
//! 50,000 subjects (20 grains each), objects of 3–8 words drawn from a
//! 5,000-word vocabulary with a Zipf-like skew, 8 relations, 1,000 users,
//! creation times over a year — plus one (subject, relation) superseded 99
//! times.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use cal_interp::{ExecOptions, Interpreter, OmsFacade};
use divan::{Bencher, black_box};
use oms::store::{Store, StoreConfig};
use oms::synthetic::{lcg, mixed_grain, word};
use oms::{ContentAddress, Grain};

fn main() {
    divan::main();
}

const NOW: i64 = 1_772_798_400_000;
fn grain(i: usize) -> Vec<u8> {
    Grain::from_json(&mixed_grain(i, NOW)).expect("valid").encode().expect("encodes").bytes
}

fn rss_mib() -> usize {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1).and_then(|p| p.parse::<usize>().ok()))
        .map_or(0, |pages| pages * 4096 / (1 << 20))
}

struct Fixture {
    interp: Interpreter<OmsFacade>,
    head: ContentAddress,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let n = oms::synthetic::size_from_env("CAL_BENCH_N");
        let t = Instant::now();
        let store = Store::new(StoreConfig { track_access: false, ..StoreConfig::fixed_clock(NOW) });
        for i in 0..n {
            store.put(&grain(i)).expect("put");
        }
        eprintln!("built {n} grains in {:?}; resident memory {} MiB", t.elapsed(), rss_mib());
        let mut prev = store
            .put(&Grain::from_json(&serde_json::json!({ "type": "belief", "subject": "chain", "relation": "value",
                "object": "v0", "confidence": 0.9, "created_at": NOW - 1_000_000 })).unwrap().encode().unwrap().bytes)
            .unwrap();
        for v in 1..100 {
            let g = serde_json::json!({ "type": "belief", "subject": "chain", "relation": "value", "object": format!("v{v}"),
                "confidence": 0.9, "created_at": NOW - 1_000_000 + v, "derived_from": [prev.to_hex()] });
            prev = store.supersede(&prev, &Grain::from_json(&g).unwrap().encode().unwrap().bytes, None).unwrap();
        }
        Fixture { interp: cal_interp::over(Arc::new(store)), head: prev }
    })
}

/// The whole path `cal run` takes for one query, to the printed bytes.
fn end_to_end(f: &Fixture, text: &str, opts: &ExecOptions) -> String {
    let parsed = cal_parser::parse_query(text);
    let query = parsed.ast.expect("parses");
    let diags = cal_checker::check(&query, None);
    assert!(!diags.iter().any(cal_grammar::Diagnostic::is_error), "{text}: {diags:?}");
    let response = f.interp.execute(&query, opts);
    assert!(response.error.is_none(), "{text}: {:?}", response.error);
    response.to_pretty()
}

#[divan::bench(sample_count = 200)]
fn recall_subject_limit_20(b: Bencher) {
    let f = fixture();
    let opts = ExecOptions::fixed(NOW);
    let counter = AtomicU64::new(1);
    b.with_inputs(|| {
        let i = lcg(counter.fetch_add(1, Ordering::Relaxed));
        format!("RECALL beliefs WHERE subject = \"entity-{}\" | LIMIT 20", (i >> 16) % 50_000)
    })
    .bench_values(|q| black_box(end_to_end(f, &q, &opts)));
}

#[divan::bench(sample_count = 50)]
fn like_bm25(b: Bencher) {
    let f = fixture();
    let opts = ExecOptions::fixed(NOW);
    let counter = AtomicU64::new(1);
    b.with_inputs(|| {
        // Three words of middling frequency, different each time.
        let i = lcg(counter.fetch_add(1, Ordering::Relaxed));
        let r = i >> 16;
        format!(
            "RECALL LIKE \"{} {} {}\"",
            word(200 + r % 300),
            word(700 + (r >> 9) % 300),
            word(1500 + (r >> 19) % 500)
        )
    })
    .bench_values(|q| black_box(end_to_end(f, &q, &opts)));
}

#[divan::bench(sample_count = 20)]
fn like_bm25_common_word(b: Bencher) {
    let f = fixture();
    let opts = ExecOptions::fixed(NOW);
    b.bench(|| black_box(end_to_end(f, &format!("RECALL LIKE \"{} {}\"", word(1), word(2)), &opts)));
}

#[divan::bench(sample_count = 200)]
fn history_100_versions(b: Bencher) {
    let f = fixture();
    let opts = ExecOptions::fixed(NOW);
    let q = format!("HISTORY sha256:{}", f.head.to_hex());
    b.bench(|| black_box(end_to_end(f, &q, &opts)));
}
