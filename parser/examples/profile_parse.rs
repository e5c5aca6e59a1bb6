//! Parses one query many times, for profilers (`valgrind --tool=callgrind`).
fn main() {
    let default = r#"RECALL beliefs ABOUT "alice" WHERE relation = "mg:prefers" AND confidence >= 0.8 AND tags INCLUDE ["ui", "preference"] WITH superseded | ORDER BY confidence DESC | LIMIT 10 AS markdown"#;
    // PROFILE_QUERY overrides the query, to profile fixed costs with a tiny one.
    let custom = std::env::var("PROFILE_QUERY").ok();
    let q = custom.as_deref().unwrap_or(default);
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let mut total = 0;
    for _ in 0..n {
        total += cal_parser::parse_query(std::hint::black_box(q)).diagnostics.len();
    }
    println!("{total}");
}
