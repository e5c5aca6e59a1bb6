//! Replays the inputs kept under `fuzz/regressions/<target>/` (minimised crashes of the
//! cargo-fuzz targets) with the same checks as the targets, so CI runs them on every
//! build. Passes with no files present.

use std::path::{Path, PathBuf};

use cal_grammar::{Code, Diagnostic};

fn inputs(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions").join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries.flatten().map(|e| e.path()).filter(|p| p.is_file()).collect();
    files.sort();
    files.into_iter().filter_map(|p| std::fs::read(&p).ok().map(|b| (p, b))).collect()
}

fn check_spans(name: &Path, input: &[u8], text: Option<&str>, diagnostics: &[Diagnostic]) {
    for d in diagnostics {
        assert!(Code::ALL.contains(&d.code), "{}: code {:?} not in the registry", name.display(), d.code);
        for s in std::iter::once(d.span).chain(d.labels.iter().map(|l| l.span)) {
            let (start, end) = (s.start as usize, s.end as usize);
            assert!(start <= end && end <= input.len(), "{}: span {start}..{end} outside the input", name.display());
            if let Some(t) = text {
                assert!(
                    t.is_char_boundary(start) && t.is_char_boundary(end),
                    "{}: span splits a character",
                    name.display()
                );
            }
        }
    }
}

#[test]
fn parse_bytes_regressions() {
    for (name, data) in inputs("parse_bytes") {
        let text = std::str::from_utf8(&data).ok();
        check_spans(&name, &data, text, &cal_parser::parse_query_bytes(&data).diagnostics);
        if let Some(t) = text {
            check_spans(&name, &data, text, &cal_parser::parse_document(t).diagnostics);
        }
    }
}

/// Printed text parses without errors and prints the same again.
fn reprint(name: &Path, q: &cal_parser::ast::Query) {
    let printed = cal_parser::print::query_to_text(q);
    if printed.len() > 8192 {
        return;
    }
    let again = cal_parser::parse_query(&printed);
    assert!(
        !again.has_errors(),
        "{}: printed text does not parse:\n{printed}\n{:?}",
        name.display(),
        again.diagnostics
    );
    let q2 = again.ast.expect("no errors means a tree");
    assert_eq!(printed, cal_parser::print::query_to_text(&q2), "{}: printing is not idempotent", name.display());
    assert_eq!(cal_parser::json::query_to_json(q), cal_parser::json::query_to_json(&q2), "{}", name.display());
}

#[test]
fn print_idempotent_regressions() {
    for (name, data) in inputs("print_idempotent") {
        let Ok(text) = std::str::from_utf8(&data) else { continue };
        let parsed = cal_parser::parse_document(text);
        if parsed.has_errors() {
            continue;
        }
        for q in parsed.ast.iter().flat_map(|d| &d.queries) {
            let printed = cal_parser::print::query_to_text(q);
            if printed.len() > 8192 {
                continue;
            }
            let again = cal_parser::parse_query(&printed);
            assert!(!again.has_errors(), "{}: printed text does not parse:\n{printed}", name.display());
            let q2 = again.ast.expect("no errors means a tree");
            assert_eq!(
                printed,
                cal_parser::print::query_to_text(&q2),
                "{}: printing is not idempotent",
                name.display()
            );
        }
    }
}

#[test]
fn json_roundtrip_regressions() {
    for (name, data) in inputs("json_roundtrip") {
        let Ok(text) = std::str::from_utf8(&data) else { continue };
        let Ok(doc) = cal_parser::json::from_json_text(text) else { continue };
        for q in &doc.queries {
            reprint(&name, q);
        }
    }
}
