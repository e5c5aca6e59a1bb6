//! Writes the benchmark store (`oms::synthetic::mixed_grain`) as a `.mg` file:
//! `cargo run --release -p oms --example gen_store -- N OUT.mg`. Used by
//! `scripts/bench-store.sh` to measure the durable store at 10k, 100k and 1M grains.

use oms::Grain;
use oms::mg::{PackOptions, pack};
use oms::synthetic::mixed_grain;

/// The benchmark's "now": 2026-03-06T12:00:00Z.
const NOW: i64 = 1_772_798_400_000;

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(n), Some(out)) = (args.next().and_then(|n| n.parse::<usize>().ok()), args.next()) else {
        eprintln!("usage: gen_store N OUT.mg");
        std::process::exit(2);
    };
    let blobs: Vec<Vec<u8>> = (0..n)
        .map(|i| Grain::from_json(&mixed_grain(i, NOW)).and_then(|g| g.encode()).map(|b| b.bytes))
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| {
            eprintln!("gen_store: {e}");
            std::process::exit(1);
        });
    let file = pack(blobs.iter().map(Vec::as_slice), None, &PackOptions::default()).unwrap_or_else(|e| {
        eprintln!("gen_store: {e}");
        std::process::exit(1);
    });
    if let Err(e) = oms::atomic::write_atomic(std::path::Path::new(&out), &file) {
        eprintln!("gen_store: cannot write {out}: {e}");
        std::process::exit(2);
    }
    eprintln!("{n} grains, {} bytes: {out}", file.len());
}
