//! Checks §8.1's typical RECALL (the `typical` query of `benches/check.rs`) many times, for
//! an instruction-level profile of the checker alone:
//! `valgrind --tool=callgrind target/release/examples/check_loop 100000`
//! (docs/performance-checker.md). The argument is the number of checks (default 100,000);
//! a second argument `parse` parses the query that many times instead, for the budget's
//! denominator (the checker may add 20% to lex + parse).

use cal_checker::check;
use cal_parser::parse_query;
use std::hint::black_box;

const TYPICAL: &str = r#"RECALL beliefs WHERE subject = "alice" AND relation = "prefers"
WITH contradiction_detection
| ORDER BY confidence DESC
| LIMIT 10"#;

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let ast = parse_query(TYPICAL).ast.expect("the typical query parses");
    if std::env::args().nth(2).as_deref() == Some("parse") {
        let mut parsed = 0;
        for _ in 0..n {
            parsed += usize::from(parse_query(black_box(TYPICAL)).ast.is_some());
        }
        println!("{n} parses, {parsed} trees");
        return;
    }
    let mut found = 0;
    for _ in 0..n {
        found += check(black_box(&ast), None).len();
    }
    println!("{n} checks, {found} diagnostics");
}
