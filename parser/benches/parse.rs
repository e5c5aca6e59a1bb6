//! Lex+parse benchmarks for the front end (issue 2): a typical RECALL, the
//! spec's four-source ASSEMBLE (§8.2), twelve spec-like queries, and
//! synthetic 1/4/8 KiB queries to show the cost is linear in size.
//! Figures and how they were taken: docs/performance.md.

use cal_parser::parse_query;
use divan::{Bencher, black_box};

fn main() {
    divan::main();
}

/// About 200 bytes: the "simple RECALL" class.
pub const SIMPLE_RECALL: &str = r#"RECALL beliefs ABOUT "alice" WHERE relation = "mg:prefers" AND confidence >= 0.8 AND tags INCLUDE ["ui", "preference"] WITH superseded | ORDER BY confidence DESC | LIMIT 10 AS markdown"#;

/// §8.2, verbatim.
pub const ASSEMBLE_8_2: &str = cal_parser::spec_examples::ASSEMBLE_8_2;

/// Twelve queries in the style of the spec's examples.
pub const SPEC_LIKE: [&str; 12] = [
    r#"RECALL beliefs WHERE subject = "alice" AND relation = "prefers" WITH contradiction_detection | ORDER BY confidence DESC | LIMIT 10"#,
    r#"RECALL actions WHERE tool_name = "get_weather" AND is_error = false | ORDER BY time DESC | LIMIT 20"#,
    r#"RECALL events THREAD "sess-123""#,
    r#"RECALL beliefs WHERE subject = "alice" AND relation IS PREFERENCE | ORDER BY confidence DESC"#,
    r#"EXISTS sha256:a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2"#,
    r#"HISTORY WHERE subject = "alice" AND relation = "prefers" AS OF "2025-06-15""#,
    r#"RECALL events ABOUT "alice" RECENT 5"#,
    r#"RECALL beliefs WHERE tags INCLUDE ["profile:healthcare"] AND hc:patient_id = "P-12345" AND hc:condition_code IN ("J06.9", "J20.9") AND relation = "mg:knows" | ORDER BY time DESC | LIMIT 20"#,
    r#"(RECALL WHERE user_id = "alice" AND query = "project status") EXCEPT (RECALL WHERE user_id = "bob" AND query = "project status")"#,
    r#"ADD belief SET subject = "alice" SET relation = "prefers" SET object = "dark mode" SET confidence = 0.9 SET tags = ["preference", "ui"] REASON "user stated preference during onboarding conversation""#,
    r#"CAL/1 BATCH { preferences: RECALL beliefs ABOUT "alice" WHERE relation = "prefers", recent: RECALL events ABOUT "alice" RECENT 5, team: RECALL beliefs WHERE relation = "member_of" AND object = "team-alpha" }"#,
    r#"COALESCE(RECALL beliefs WHERE subject = "alice" AND relation = "favorite_color", RECALL beliefs WHERE subject = "alice" AND relation = "prefers" AND tags INCLUDE ["color"])"#,
];

/// A RECALL of about `bytes` bytes: many conditions of the usual kinds.
pub fn sized_query(bytes: usize) -> String {
    let mut q = String::from(r#"RECALL beliefs WHERE subject = "alice""#);
    let mut i = 0;
    while q.len() + 160 < bytes {
        q.push_str(&format!(
            r#" AND object != "value number {i}" AND confidence >= 0.{} AND tags EXCLUDE ["t{i}"]"#,
            i % 10
        ));
        i += 1;
    }
    q.push_str(" | ORDER BY confidence DESC | LIMIT 10");
    q
}

#[divan::bench]
fn simple_recall(b: Bencher) {
    assert!(parse_query(SIMPLE_RECALL).diagnostics.is_empty());
    b.bench(|| parse_query(black_box(SIMPLE_RECALL)));
}

#[divan::bench]
fn assemble_8_2(b: Bencher) {
    assert!(parse_query(ASSEMBLE_8_2).diagnostics.is_empty());
    b.bench(|| parse_query(black_box(ASSEMBLE_8_2)));
}

/// The simple RECALL with its tree freed inside the timed region, as a caller
/// that parses, uses and drops a query pays; 64 parses per sample, so that
/// the timer's own cost (about 20 ns a reading) is spread thin.
#[divan::bench(sample_size = 64)]
fn simple_recall_and_drop(b: Bencher) {
    b.bench(|| drop(parse_query(black_box(SIMPLE_RECALL))));
}

/// All twelve per iteration; divide by 12 for the average.
#[divan::bench]
fn twelve_spec_like(b: Bencher) {
    for q in SPEC_LIKE {
        assert!(parse_query(q).diagnostics.is_empty(), "{q}");
    }
    b.bench(|| {
        for q in SPEC_LIKE {
            black_box(parse_query(black_box(q)));
        }
    });
}

#[divan::bench(args = [1024, 4096, 8192])]
fn sized(b: Bencher, bytes: usize) {
    let q = sized_query(bytes);
    assert!(q.len() <= 8192 && parse_query(&q).diagnostics.is_empty());
    b.counter(divan::counter::BytesCount::new(q.len())).bench(|| parse_query(black_box(&q)));
}

/// The lexer alone, to see the split between lexing and parsing.
#[divan::bench]
fn lex_only_simple_recall() -> usize {
    cal_lexer::lex(black_box(SIMPLE_RECALL)).tokens.len()
}

/// Two tokens: the fixed cost of a parse.
#[divan::bench]
fn trivial_exists() {
    black_box(parse_query(black_box("EXISTS $x")));
}
