//! Every valid query of the toolchain's corpora reads without an ERROR or MISSING node, the
//! highlighting query compiles against the grammar, and the keyword list is the language's.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use tree_sitter::{Parser, Query};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn parser() -> Parser {
    let mut p = Parser::new();
    p.set_language(&tree_sitter_cal::LANGUAGE.into()).expect("the language loads");
    p
}

/// The `.cal` files whose queries the toolchain's parser accepts.
fn valid_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["parser/tests/corpus/ok", "checker/tests/corpus/ok", "examples"] {
        for e in std::fs::read_dir(repo().join(dir)).unwrap_or_else(|e| panic!("{dir}: {e}")) {
            let path = e.expect("entry").path();
            if path.extension().is_some_and(|x| x == "cal") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_valid_query_parses_without_errors() {
    let mut p = parser();
    let files = valid_files();
    assert!(files.len() > 100, "the corpora are where they were: {}", files.len());
    let mut bad = Vec::new();
    for path in &files {
        let text = std::fs::read(path).expect("readable");
        let tree = p.parse(&text, None).expect("a tree");
        if tree.root_node().has_error() {
            bad.push(format!("{}: {}", path.display(), tree.root_node().to_sexp()));
        }
    }
    assert!(bad.is_empty(), "{} of {} files have errors:\n{}", bad.len(), files.len(), bad.join("\n"));
}

#[test]
fn broken_brackets_and_strings_are_errors() {
    let mut p = parser();
    for text in ["RECALL beliefs WHERE (subject = \"a\"", "RECALL beliefs ABOUT \"alice", "RECALL beliefs )"] {
        let tree = p.parse(text, None).expect("a tree");
        assert!(tree.root_node().has_error(), "{text}: {}", tree.root_node().to_sexp());
    }
}

#[test]
fn keywords_are_case_insensitive_and_template_text_is_raw() {
    let mut p = parser();
    let tree =
        p.parse("recall Beliefs WHERE x = 1 -- note\n; DEFINE TEMPLATE t EXTENDS readable FOOTER { -- raw }", None);
    let sexp = tree.expect("a tree").root_node().to_sexp();
    assert!(sexp.starts_with("(source_file (query (keyword) (identifier) (keyword)"), "{sexp}");
    assert!(
        sexp.contains("(comment)")
            && sexp.contains("(template_section (section_keyword) (template_body (template_text)))"),
        "{sexp}"
    );
}

#[test]
fn the_highlighting_query_compiles() {
    Query::new(&tree_sitter_cal::LANGUAGE.into(), tree_sitter_cal::HIGHLIGHTS_QUERY).expect("highlights.scm is valid");
}

#[test]
fn the_keywords_are_the_languages() {
    let vocab = std::fs::read_to_string(repo().join("grammar/src/vocab.rs")).expect("vocab.rs");
    let start = vocab.find("pub enum Keyword {").expect("the Keyword enum");
    let body = &vocab[start..start + vocab[start..].find('}').expect("its end")];
    let language: BTreeSet<&str> = body.split('"').skip(1).step_by(2).collect();
    let json = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("keywords.json")).unwrap();
    let mut ours: BTreeSet<&str> = json.split('"').skip(1).step_by(2).collect();
    ours.extend(["ELEMENT_SUMMARY", "ELEMENT_OMIT", "SOURCE_BREAK", "ELEMENT", "HEADER", "FOOTER"]);
    assert_eq!(ours, language);
}
