//! How much checking adds to lexing and parsing (docs/performance-checker.md).
//!
//! For each query: `lex_parse` (text to AST), `check` (AST to diagnostics,
//! on a tree parsed once), and `lex_parse_check` (both, as `analyze` does for
//! one query). The budget is `check` ≤ 20% of `lex_parse`.

use cal_checker::check;
use cal_parser::parse_query;
use divan::{Bencher, black_box};

fn main() {
    divan::main();
}

/// §8.1's first example: a typical RECALL with a condition pair, an option and a pipeline.
const TYPICAL: &str = r#"RECALL beliefs WHERE subject = "alice" AND relation = "prefers"
WITH contradiction_detection
| ORDER BY confidence DESC
| LIMIT 10"#;

/// §8.2's flagship ASSEMBLE.
const ASSEMBLE: &str = cal_parser::spec_examples::ASSEMBLE_8_2;

/// A query with ten mistakes: the cost of building diagnostics with suggestions.
const MISTAKES: &str = r#"RECALL goals WHERE subjct = "alice" AND goal_state = "done" AND confidence >= 80
  AND tool_name = "x" AND relation = "mg:prefer" WITH x_fast
  | ORDER BY user_id | LIMIT 5000 RECENT 3"#;

const QUERIES: &[(&str, &str)] = &[("typical", TYPICAL), ("assemble", ASSEMBLE), ("mistakes", MISTAKES)];

#[divan::bench(args = ["typical", "assemble", "mistakes"])]
fn lex_parse(b: Bencher, name: &str) {
    let text = QUERIES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t).unwrap_or_default();
    b.bench(|| parse_query(black_box(text)));
}

#[divan::bench(args = ["typical", "assemble", "mistakes"])]
fn check_only(b: Bencher, name: &str) {
    let text = QUERIES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t).unwrap_or_default();
    let ast = parse_query(text).ast.expect("the benchmark queries parse");
    b.bench(|| check(black_box(&ast), None));
}

#[divan::bench(args = ["typical", "assemble", "mistakes"])]
fn lex_parse_check(b: Bencher, name: &str) {
    let text = QUERIES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t).unwrap_or_default();
    b.bench(|| {
        let parsed = parse_query(black_box(text));
        parsed.ast.as_ref().map(|q| check(q, None))
    });
}
