//! Exact cosine search over 100k and 1M stored vectors of 384 dimensions (the size of
//! multilingual MiniLM and e5-small), and RRF fusion of two 1,000-grain rankings.
//! Figures: docs/performance-embed.md.

use cal_embed::{Entry, RRF_K, Scope, VectorIndex, fuse};
use oms::ContentAddress;

fn main() {
    divan::main();
}

const DIMS: usize = 384;

/// A reproducible pseudo-random vector (xorshift), so every run indexes the same data.
fn vector(seed: u64) -> Vec<f32> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..DIMS)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 40) as f32 / (1u64 << 24) as f32 - 0.5
        })
        .collect()
}

fn address(n: u64) -> ContentAddress {
    let mut b = [0u8; 32];
    b[..8].copy_from_slice(&n.to_be_bytes());
    ContentAddress::from_bytes(b)
}

fn index(n: u64) -> VectorIndex {
    let mut ix = VectorIndex::new(DIMS);
    for i in 0..n {
        let entry = Entry { address: address(i), grain_type: (i % 10) as u8 + 1, namespace: "bench".into() };
        ix.insert(entry, &vector(i));
    }
    ix
}

#[divan::bench(args = [100_000, 1_000_000], sample_count = 10)]
fn exact_search(bencher: divan::Bencher, n: u64) {
    let ix = index(n);
    let q = vector(u64::MAX - 1);
    bencher.bench(|| ix.search(divan::black_box(&q), Scope::default(), 0.2));
}

#[divan::bench(args = [100_000, 1_000_000], sample_count = 10)]
fn nearest_10(bencher: divan::Bencher, n: u64) {
    let ix = index(n);
    let q = vector(u64::MAX - 1);
    bencher.bench(|| ix.nearest(divan::black_box(&q), Scope::default(), 10));
}

#[divan::bench]
fn fuse_two_rankings_of_1000(bencher: divan::Bencher) {
    let keyword: Vec<(ContentAddress, f64)> = (0..1000).map(|i| (address(i * 2), 1.0 / (i + 1) as f64)).collect();
    let vector: Vec<(ContentAddress, f32)> = (0..1000).map(|i| (address(i * 3), 0.9)).collect();
    bencher.bench(|| fuse(divan::black_box(&keyword), divan::black_box(&vector), RRF_K));
}
