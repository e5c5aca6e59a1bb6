//! Hybrid search latency (issue 22): `RECALL beliefs LIKE "…" | LIMIT 20` on a generated store
//! (100,000 grains; `CAL_BENCH_N` to change), by keywords alone and by keywords and vectors
//! fused, with 384-dimensional vectors for every grain. The embedder here is in process (words
//! hashed into 384 dimensions), so the figures are this toolchain's own cost: query
//! embedding is cached after the first call, as in a server, and a model's latency comes on top.
//! Run with `cargo bench -p cal-interp --bench hybrid`; figures go to docs/performance-embed.md.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use cal_embed::{EmbedError, Embedder, EmbedderConfig, Provider, Retriever};
use cal_interp::{ExecOptions, InterpConfig, Interpreter, OmsFacade};
use divan::{Bencher, black_box};
use oms::Grain;
use oms::store::{Store, StoreConfig};
use oms::synthetic::mixed_grain;

fn main() {
    divan::main();
}

const NOW: i64 = 1_772_798_400_000;
const DIMS: usize = 384;

/// Words hashed into 384 dimensions (FNV-1a), each word also spreading into two
/// neighbours, so that texts sharing words are similar.
#[derive(Debug)]
struct HashedWords;

fn vector(text: &str) -> Vec<f32> {
    let mut v = vec![0.0f32; DIMS];
    for word in text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in word.to_lowercase().bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        for k in 0..3u64 {
            v[((h >> (k * 16)) % DIMS as u64) as usize] += 1.0;
        }
    }
    v
}

impl Embedder for HashedWords {
    fn embed(&self, texts: &[String], _timeout: Duration) -> Result<Vec<Vec<f32>>, EmbedError> {
        Ok(texts.iter().map(|t| vector(t)).collect())
    }
}

struct Fixture {
    keywords: Interpreter<OmsFacade>,
    hybrid: Interpreter<OmsFacade>,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let n = std::env::var("CAL_BENCH_N").ok().and_then(|s| s.parse().ok()).unwrap_or(100_000);
        let store = Arc::new(Store::new(StoreConfig { track_access: false, ..StoreConfig::fixed_clock(NOW) }));
        for i in 0..n {
            store.put(&Grain::from_json(&mixed_grain(i, NOW)).unwrap().encode().unwrap().bytes).unwrap();
        }
        let config = EmbedderConfig {
            provider: Provider::Command { command: "in-process".into() },
            model: "hashed-words".into(),
            dimensions: DIMS,
            languages: Vec::new(),
            min_similarity: 0.5,
            timeout_ms: 60_000,
        };
        let retriever = Retriever::with_embedder(config, Box::new(HashedWords));
        let t = Instant::now();
        let grains: Vec<_> = store.addresses().iter().filter_map(|a| store.peek(a)).collect();
        retriever.index_grains(grains.iter().map(|s| (s.address, s.grain())), |_| {}).unwrap();
        eprintln!("{n} grains, {} vectors of {DIMS} dimensions indexed in {:?}", retriever.len(), t.elapsed());
        let keywords = Interpreter::new(OmsFacade::new(store.clone()), InterpConfig::default());
        let semantic = InterpConfig { semantic: Some(Arc::new(retriever)), ..InterpConfig::default() };
        Fixture { keywords, hybrid: Interpreter::new(OmsFacade::new(store), semantic) }
    })
}

/// Three words of the generated vocabulary (`oms::synthetic::word` 3, 17 and 250).
const QUERY: &str = r#"RECALL beliefs LIKE "nekaka bokaka qudoka" | LIMIT 20"#;

fn run(interp: &Interpreter<OmsFacade>) -> usize {
    let q = cal_parser::parse_query(QUERY).ast.expect("parses");
    let opts = ExecOptions { now_ms: NOW, ..ExecOptions::default() };
    let r = interp.execute(&q, &opts);
    assert!(r.error.is_none(), "{:?}", r.error);
    r.json["results"].as_array().map_or(0, Vec::len)
}

#[divan::bench(sample_count = 30)]
fn recall_like_keywords_only(b: Bencher) {
    let f = fixture();
    b.bench(|| black_box(run(&f.keywords)));
}

#[divan::bench(sample_count = 30)]
fn recall_like_hybrid(b: Bencher) {
    let f = fixture();
    b.bench(|| black_box(run(&f.hybrid)));
}
