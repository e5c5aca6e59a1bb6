//! Benchmarks: placeholder replaced below.
fn main() {}
