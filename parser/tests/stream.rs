//! A document read a stretch at a time (`cal_parser::stream`, issue 19) gives the trees and
//! diagnostics of reading it whole, however short the stretches: on the corpus joined into
//! documents, on LET chains, on brackets left open across `;`, and past the diagnostic cap.

use cal_grammar::Diagnostic;
use cal_parser::ast::Query;
use cal_parser::stream::DocumentReader;

fn corpus() -> Vec<String> {
    let mut out = Vec::new();
    for dir in ["ok", "err"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus").join(dir);
        let mut files: Vec<_> = std::fs::read_dir(path).unwrap().flatten().map(|e| e.path()).collect();
        files.sort();
        out.extend(files.iter().filter_map(|p| std::fs::read_to_string(p).ok()));
    }
    assert!(out.len() > 200, "corpus not found");
    out
}

/// The queries and diagnostics of `text` read in stretches of `tokens` tokens.
fn read(text: &str, tokens: usize) -> (Vec<Query>, Vec<Diagnostic>) {
    let mut reader = DocumentReader::new(text).with_stretch(tokens, usize::MAX);
    let (mut queries, mut diagnostics) = (Vec::new(), Vec::new());
    for piece in reader.by_ref() {
        queries.extend(piece.queries);
        diagnostics.extend(piece.diagnostics);
    }
    diagnostics.extend(reader.summary());
    cal_grammar::sort_diagnostics(&mut diagnostics);
    (queries, diagnostics)
}

fn same_in_every_stretch(text: &str) {
    let whole = read(text, usize::MAX);
    for tokens in [1, 2, 3, 7, 40] {
        let (queries, diagnostics) = read(text, tokens);
        assert_eq!(queries, whole.0, "{tokens} tokens: {text:.200}");
        assert_eq!(diagnostics, whole.1, "{tokens} tokens: {text:.200}");
    }
    // And `parse_document` is the reader, collected.
    let parsed = cal_parser::parse_document(text);
    assert_eq!(parsed.ast.map(|d| d.queries), Some(whole.0));
    assert_eq!(parsed.diagnostics, whole.1);
}

#[test]
fn the_corpus_reads_the_same_in_stretches() {
    let all = corpus();
    same_in_every_stretch(&all.join(";\n"));
    for q in &all {
        same_in_every_stretch(&format!("{q};\n{q}"));
    }
}

#[test]
fn lets_open_brackets_and_empty_queries_read_the_same_in_stretches() {
    for text in [
        "LET $a = RECALL beliefs; LET $b = RECALL goals; RECALL beliefs WHERE subject IN $a; RECALL x",
        "CAL/1 LET $a = RECALL beliefs; RECALL beliefs; ;; RECALL goals",
        "RECALL beliefs WHERE (subject = \"a\"; RECALL goals); RECALL x; RECALL y",
        "RECALL beliefs WHERE subject IN [\"a\"; RECALL goals; RECALL x",
        "LET $a = RECALL beliefs WHERE ; RECALL goals; RECALL x",
        "BATCH { a: RECALL beliefs; b: RECALL goals }; RECALL x)",
        ") ( ; RECALL x; ] RECALL y;",
        "garbage here; RECALL beliefs LIMIT; ;",
    ] {
        same_in_every_stretch(text);
    }
}

#[test]
fn the_cap_holds_across_stretches() {
    let max = cal_parser::MAX_DIAGNOSTICS;
    let text = "x;".repeat(max + 500) + &";".repeat(100);
    let (_, d) = read(&text, 16);
    assert_eq!(d.len(), max + 1);
    assert!(d[max].message.starts_with("600 more problems"), "{}", d[max].message);
    assert_eq!(d[max].span.start as usize, 2 * max, "the summary points at the first one not listed");
    same_in_every_stretch(&text);
}

#[test]
fn a_stretch_that_never_ends_a_query_is_refused_unread() {
    // One query of 2 MiB, and brackets opened and never closed.
    let huge = format!("RECALL beliefs WHERE subject IN [{}]", "\"a\", ".repeat(400_000));
    let open = format!("RECALL beliefs WHERE ({}", "x; ".repeat(400_000));
    for text in [huge, open] {
        let parsed = cal_parser::parse_document(&text);
        assert_eq!(parsed.diagnostics.len(), 1, "{:?}", parsed.diagnostics);
        let d = &parsed.diagnostics[0];
        assert_eq!(d.code, cal_grammar::Code::E001);
        assert_eq!((d.span.start as usize, d.span.end as usize), (0, text.len()));
        assert_eq!(parsed.ast.map(|d| d.queries.len()), Some(0));
    }
    // What follows the first `;` that ends a query is read as usual.
    let text = format!("RECALL beliefs WHERE subject IN [{}]; RECALL x WHERE", "\"a\", ".repeat(400_000));
    let cut = text.find(';').unwrap() + 1;
    let parsed = cal_parser::parse_document(&text);
    let d = &parsed.diagnostics;
    assert_eq!((d[0].code.as_str(), d[0].span.end as usize), ("CAL-E001", cut));
    let rest: Vec<_> = cal_parser::parse_document(&text[cut..])
        .diagnostics
        .iter()
        .map(|d| (d.code, d.span.start as usize + cut))
        .collect();
    assert_eq!(d[1..].iter().map(|d| (d.code, d.span.start as usize)).collect::<Vec<_>>(), rest);
}
