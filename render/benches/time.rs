//! Time text on the render path: RFC 3339 (`WITH iso_timestamps`, template `timestamp`),
//! deadlines and §10.3.4 relative ages, each over 1,000 instants spread across ten years.
//! Run with `cargo bench -p cal-render --bench time`; figures in docs/performance-render.md.
//! Exists because every rendered grain formats at least one time: a slower calendar would
//! show up in every RECALL, so a change to `time.rs` is measured here first.

use divan::counter::ItemsCount;
use divan::{Bencher, black_box};

fn main() {
    divan::main();
}

const NOW: i64 = 1_773_565_200_000; // 2026-03-15T09:00:00Z
const N: usize = 1000;

/// Instants from ten years back to now, at odd offsets so milliseconds are mostly non-zero.
fn instants() -> Vec<i64> {
    (0..N as i64).map(|i| NOW - i * 315_569_261 - i * 7).collect()
}

#[divan::bench]
fn iso(b: Bencher) {
    let xs = instants();
    b.counter(ItemsCount::new(N)).bench(|| {
        for &ms in &xs {
            black_box(cal_render::time::iso(black_box(ms)));
        }
    });
}

#[divan::bench]
fn relative(b: Bencher) {
    let xs = instants();
    b.counter(ItemsCount::new(N)).bench(|| {
        for &ms in &xs {
            black_box(cal_render::time::relative(black_box(ms), NOW));
        }
    });
}

#[divan::bench]
fn date_or_iso(b: Bencher) {
    let xs: Vec<i64> = instants().iter().map(|ms| ms - ms.rem_euclid(86_400_000)).collect();
    b.counter(ItemsCount::new(N)).bench(|| {
        for &ms in &xs {
            black_box(cal_render::time::date_or_iso(black_box(ms)));
        }
    });
}
