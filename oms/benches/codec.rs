//! Codec throughput: encode+hash and decode of small grains, `.mg` pack and
//! verify in MB/s. Run with `cargo bench -p oms --bench codec`.
//! Figures are recorded in docs/performance-oms.md; no test asserts timing.

use divan::counter::{BytesCount, ItemsCount};
use divan::{Bencher, black_box};
use oms::mg::{PackOptions, pack, verify};
use oms::{Grain, decode};

fn main() {
    divan::main();
}

/// A vector-1-sized belief (about 160 bytes encoded).
fn small(i: usize) -> Grain {
    Grain::from_json_str(&format!(
        r#"{{"type":"fact","subject":"user-{i}","relation":"prefers","object":"dark mode",
        "confidence":0.9,"source_type":"user_explicit","created_at":{},
        "namespace":"shared","author_did":"did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK"}}"#,
        1_768_471_200_000u64 + i as u64
    ))
    .expect("valid grain")
}

const N: usize = 1000;

#[divan::bench]
fn encode_and_hash_small(b: Bencher) {
    let grains: Vec<Grain> = (0..N).map(small).collect();
    b.counter(ItemsCount::new(N)).bench(|| {
        for g in &grains {
            black_box(g.encode().expect("encodes").address);
        }
    });
}

#[divan::bench]
fn decode_small(b: Bencher) {
    let blobs: Vec<Vec<u8>> = (0..N).map(|i| small(i).encode().expect("encodes").bytes).collect();
    b.counter(ItemsCount::new(N)).bench(|| {
        for blob in &blobs {
            black_box(decode(blob).expect("decodes"));
        }
    });
}

fn blobs(n: usize) -> Vec<Vec<u8>> {
    (0..n).map(|i| small(i).encode().expect("encodes").bytes).collect()
}

#[divan::bench(args = [false, true])]
fn mg_pack(b: Bencher, compress: bool) {
    let bl = blobs(10_000);
    let total: usize = bl.iter().map(Vec::len).sum();
    let opts = PackOptions { compress, ..PackOptions::default() };
    b.counter(BytesCount::new(total))
        .bench(|| black_box(pack(bl.iter().map(Vec::as_slice), None, &opts).expect("packs")));
}

#[divan::bench(args = [false, true])]
fn mg_verify(b: Bencher, compress: bool) {
    let bl = blobs(10_000);
    let total: usize = bl.iter().map(Vec::len).sum();
    let file =
        pack(bl.iter().map(Vec::as_slice), None, &PackOptions { compress, ..PackOptions::default() }).expect("packs");
    b.counter(BytesCount::new(total)).bench(|| {
        let r = verify(&file);
        assert!(r.is_ok());
        black_box(r)
    });
}

/// RFC 3339 text to epoch milliseconds (§4.8), the conversion every grain written as JSON
/// with a date-time pays: 1,000 instants over ten years, with `Z`, offsets and fractions.
#[divan::bench]
fn parse_rfc3339(b: Bencher) {
    let texts: Vec<String> = (0..N)
        .map(|i| {
            let (d, m, y) = (1 + i % 28, 1 + i % 12, 2016 + i % 10);
            match i % 3 {
                0 => format!("{y}-{m:02}-{d:02}T10:{:02}:00Z", i % 60),
                1 => format!("{y}-{m:02}-{d:02}T10:00:{:02}.123+02:00", i % 60),
                _ => format!("{y}-{m:02}-{d:02}t23:59:59.999999z"),
            }
        })
        .collect();
    b.counter(ItemsCount::new(N)).bench(|| {
        for t in &texts {
            black_box(oms::time::parse_rfc3339_ms(black_box(t)));
        }
    });
}
