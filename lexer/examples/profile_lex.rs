//! Lexes one query many times, for profilers.
fn main() {
    let q = r#"RECALL beliefs ABOUT "alice" WHERE relation = "mg:prefers" AND confidence >= 0.8 AND tags INCLUDE ["ui", "preference"] WITH superseded | ORDER BY confidence DESC | LIMIT 10 AS markdown"#;
    let mut total = 0;
    for _ in 0..20000 {
        total += cal_lexer::lex(std::hint::black_box(q)).tokens.len();
    }
    println!("{total}");
}
