//! The directory-driven parser corpus.
//!
//! Every `tests/corpus/ok/*.cal` file must parse without errors; every
//! `tests/corpus/err/*.cal` file must produce at least one error, and exactly
//! the codes its `-- expect: CAL-Exxx …` lines list (in any order, each at
//! least once). Each file gets a snapshot that reads on its own: the source,
//! the AST, and the diagnostics drawn as code frames. The harness also checks
//! the invariants every parse must keep: diagnostic spans inside the text and on
//! character boundaries, and every AST node's span inside its parent's, list items
//! in source order, a node's parts disjoint, boundaries on characters
//! (`support/span_tree.rs`).

#[path = "support/span_tree.rs"]
mod span_tree;

use cal_grammar::{Diagnostic, LineIndex};
use cal_parser::parse_document;
use std::fmt::Write as _;
use std::path::Path;

fn frame(src: &str, d: &Diagnostic) -> String {
    let index = LineIndex::new(src);
    let pos = index.position(d.span);
    let line_text = src.lines().nth(pos.line as usize - 1).unwrap_or("");
    let width = src[pos.start as usize..pos.end as usize].chars().take_while(|c| *c != '\n').count().max(1);
    let mut out = String::new();
    let _ = writeln!(out, "{}[{}]: {}", if d.is_error() { "error" } else { "warning" }, d.code, d.message);
    let _ = writeln!(out, "  --> {}:{}", pos.line, pos.col);
    let _ = writeln!(out, "   | {line_text}");
    let _ = writeln!(out, "   | {}{}", " ".repeat(pos.col as usize - 1), "^".repeat(width));
    if let Some(s) = &d.suggestion {
        let _ = writeln!(out, "   = help: {s}");
    }
    if let Some(e) = &d.example {
        let _ = writeln!(out, "   = example: {e}");
    }
    if !d.valid_values.is_empty() {
        let _ = writeln!(out, "   = valid values: {}", d.valid_values.join(", "));
    }
    for l in &d.labels {
        let p = index.position(l.span);
        let _ = writeln!(out, "   = note: {} at {}:{}", l.message, p.line, p.col);
    }
    out
}

fn check_invariants(src: &str, diags: &[Diagnostic]) {
    for d in diags {
        let (s, e) = (d.span.start as usize, d.span.end as usize);
        assert!(s <= e && e <= src.len(), "span {:?} out of bounds", d.span);
        assert!(src.is_char_boundary(s) && src.is_char_boundary(e), "span {:?} not on char boundary", d.span);
    }
}

fn expected_codes(src: &str) -> Vec<String> {
    src.lines()
        .filter_map(|l| l.trim().strip_prefix("-- expect:"))
        .flat_map(|rest| rest.split_whitespace().map(str::to_string))
        .collect()
}

fn run(path: &Path, must_fail: bool) {
    let src = std::fs::read_to_string(path).unwrap();
    let parsed = parse_document(&src);
    check_invariants(&src, &parsed.diagnostics);
    if let Some(doc) = &parsed.ast {
        for q in &doc.queries {
            assert!(q.span.end as usize <= src.len());
        }
        let bad = span_tree::violations(&src, &format!("{doc:#?}"));
        assert!(
            bad.is_empty(),
            "{}: the tree's spans are not nested, ordered and on character boundaries:\n{}",
            path.display(),
            bad.join("\n")
        );
    }
    let errors: Vec<&Diagnostic> = parsed.diagnostics.iter().filter(|d| d.is_error()).collect();
    if must_fail {
        assert!(!errors.is_empty(), "{} parsed without errors", path.display());
        let got: Vec<&str> = parsed.diagnostics.iter().map(|d| d.code.as_str()).collect();
        for want in expected_codes(&src) {
            assert!(got.contains(&want.as_str()), "{}: expected {want}, got {got:?}", path.display());
        }
        for code in &got {
            assert!(
                expected_codes(&src).iter().any(|w| w == code) || expected_codes(&src).is_empty(),
                "{}: unexpected {code} (add it to `-- expect:` if it is right)",
                path.display()
            );
        }
    } else {
        assert!(
            errors.is_empty(),
            "{}:\n{}",
            path.display(),
            errors.iter().map(|d| frame(&src, d)).collect::<String>()
        );
    }
    let mut snap = String::new();
    let _ = writeln!(snap, "Source\n------\n{src}");
    if let Some(doc) = &parsed.ast {
        let _ = writeln!(snap, "AST\n---\n{doc:#?}\n");
    }
    if !parsed.diagnostics.is_empty() {
        let _ = writeln!(snap, "Diagnostics\n-----------");
        for d in &parsed.diagnostics {
            let _ = writeln!(snap, "{}", frame(&src, d));
        }
    }
    insta::assert_snapshot!(snap);
}

#[test]
fn ok_cases_parse_cleanly() {
    insta::glob!("corpus/ok/*.cal", |path| run(path, false));
}

#[test]
fn err_cases_report_their_codes() {
    insta::glob!("corpus/err/*.cal", |path| run(path, true));
}

/// The span check of every case finds each kind of mistake (on hand-written trees, since the
/// corpus has none left).
#[test]
fn the_span_check_finds_each_kind_of_mistake() {
    let src = "RECALL beliefs WHERE subject = \"zoë\"";
    let tree = |inner: &str| format!("Recall {{\n    where_: [\n{inner}\n    ],\n    span: 0..37,\n}}");
    let cond = |s: usize, e: usize| {
        format!("        Condition {{\n            field_span: {s}..{e},\n            span: {s}..{e},\n        }},")
    };
    assert_eq!(span_tree::violations(src, &tree(&cond(15, 37))), Vec::<String>::new());
    let outside = span_tree::violations(src, &tree(&cond(15, 40)));
    assert!(outside.iter().any(|v| v.contains("not a range inside the text")), "{outside:?}");
    let not_char = span_tree::violations(src, &tree(&cond(15, 35)));
    assert!(not_char.iter().any(|v| v.contains("character boundaries")), "{not_char:?}");
    let order = span_tree::violations(src, &tree(&format!("{}\n{}", cond(21, 28), cond(15, 20))));
    assert!(order.iter().any(|v| v.contains("out of source order")), "{order:?}");
    let overlap = span_tree::violations(src, &tree(&format!("{}\n{}", cond(15, 25), cond(21, 28))));
    assert!(overlap.iter().any(|v| v.contains("overlap")), "{overlap:?}");
    let parent = span_tree::violations(src, "Recall {\n    span: 0..14,\n    where_span: 15..20,\n}");
    assert!(parent.iter().any(|v| v.contains("outside the enclosing")), "{parent:?}");
}
