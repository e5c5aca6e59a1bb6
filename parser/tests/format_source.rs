//! `cal fmt` keeps comments (`cal_parser::print::format_source`).
//!
//! Each `tests/format_cases/*.cal` file is formatted and snapshotted (input, output,
//! the queries kept as written). For those files and for every file of the parser
//! corpus, the harness checks what a formatter must never break: every comment of
//! the input is in the output, in the same order; the output parses to the same
//! queries; formatting the output changes nothing; and a file without comments
//! formats exactly as the canonical document printer prints it.

use cal_lexer::Token;
use cal_parser::print::{Kept, document_to_text, format_source};
use cal_parser::{json, parse_document};
use std::fmt::Write as _;
use std::path::Path;

/// The comments of `text`, in order: what follows `--` on a line, outside every token.
/// (Written here from the tokens' gaps, independently of the formatter's own search.)
fn comments(text: &str) -> Vec<String> {
    let tokens: Vec<(Token<'_>, cal_grammar::Span)> = cal_lexer::lex(text).tokens;
    let mut gaps = Vec::new();
    let mut at = 0;
    for (_, span) in &tokens {
        gaps.push(&text[at..span.start as usize]);
        at = span.end as usize;
    }
    gaps.push(&text[at..]);
    gaps.iter()
        .flat_map(|gap| gap.split(['\r', '\n']))
        .filter_map(|line| line.find("--").map(|i| line[i..].trim_end().to_string()))
        .collect()
}

fn queries_as_json(text: &str) -> Vec<serde_json::Value> {
    let parsed = parse_document(text);
    assert!(!parsed.has_errors(), "{text}\n{:#?}", parsed.diagnostics);
    parsed.ast.map_or_else(Vec::new, |d| d.queries.iter().map(json::query_to_json).collect())
}

/// Formats `text` and checks the formatter's promises; returns the output and the
/// lines of the queries kept as written.
fn format_checked(path: &Path, text: &str) -> (String, Vec<u32>) {
    let parsed = parse_document(text);
    let doc = parsed.ast.expect("the case parses");
    let formatted = format_source(text, &doc);
    let out = &formatted.text;
    assert_eq!(comments(out), comments(text), "{}: a comment was lost or moved out of order:\n{out}", path.display());
    assert_eq!(queries_as_json(out), queries_as_json(text), "{}: the queries changed:\n{out}", path.display());
    let again = format_source(out, &parse_document(out).ast.expect("the output parses"));
    assert_eq!(&again.text, out, "{}: formatting is not idempotent", path.display());
    if comments(text).is_empty() {
        assert_eq!(out, &document_to_text(&doc), "{}: without comments, fmt is the canonical printer", path.display());
        assert!(formatted.kept_as_written.is_empty());
    }
    let index = cal_grammar::LineIndex::new(text);
    (formatted.text.clone(), formatted.kept_as_written.iter().map(|(s, _)| index.position(*s).line).collect())
}

#[test]
fn format_cases() {
    insta::glob!("format_cases/*.cal", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let (out, kept) = format_checked(path, &text);
        let mut snap = String::new();
        let _ = writeln!(snap, "Input\n-----\n{}", text.replace('\r', "␍"));
        let _ = writeln!(snap, "Output\n------\n{out}");
        let _ = writeln!(snap, "Kept as written (lines): {kept:?}");
        insta::assert_snapshot!(snap);
    });
}

#[test]
fn every_corpus_file_keeps_its_comments_and_its_queries() {
    let mut seen = 0;
    for dir in ["tests/corpus/ok", "tests/print_cases"] {
        let mut paths: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        paths.sort();
        for path in paths.iter().filter(|p| p.extension().is_some_and(|e| e == "cal")) {
            let text = std::fs::read_to_string(path).unwrap();
            format_checked(path, &text);
            seen += 1;
        }
    }
    assert!(seen > 150, "only {seen} files");
}

#[test]
fn a_query_whose_canonical_text_would_pass_the_limit_is_kept_as_written() {
    // `confidence>0.5` prints as `confidence > 0.5`: 429 more conditions make the canonical
    // text longer than 8,192 bytes even on one line, while the text as written is shorter.
    let limit = cal_grammar::limits::MAX_QUERY_BYTES;
    let written = format!("RECALL beliefs WHERE confidence>0.5{}", " AND confidence>0.5".repeat(429));
    assert!(written.len() <= limit);
    let doc = parse_document(&written).ast.expect("parses");
    assert!(cal_parser::print::query_to_text(&doc.queries[0]).len() > limit);
    let formatted = format_source(&written, &doc);
    assert_eq!(formatted.text, format!("{written}\n"));
    assert_eq!(formatted.kept_as_written, vec![(doc.queries[0].span, Kept::Length)]);
    assert!(!parse_document(&formatted.text).has_errors());
    // With fewer conditions the canonical text fits (on one line): formatted, not kept.
    let shorter = format!("RECALL beliefs WHERE confidence>0.5{}", " AND confidence>0.5".repeat(380));
    let doc = parse_document(&shorter).ast.expect("parses");
    let formatted = format_source(&shorter, &doc);
    assert!(formatted.kept_as_written.is_empty());
    assert!(formatted.text.len() - 1 <= limit && formatted.text.contains("confidence > 0.5"));
}
