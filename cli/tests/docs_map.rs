//! The map stays true: every file or folder the documentation names exists,
//! and docs/architecture.md's crate table has a row for every workspace
//! member. A contributor following CONTRIBUTING.md or the architecture notes
//! must never be sent to a file that moved.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

/// The Markdown files that describe the tree: the front door, the contributor guide, every
/// note under docs/ and each crate's README.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut docs = vec![root.join("README.md"), root.join("CONTRIBUTING.md")];
    for dir in [root.join("docs")] {
        for e in std::fs::read_dir(dir).expect("docs/").flatten() {
            if e.path().extension().is_some_and(|x| x == "md") {
                docs.push(e.path());
            }
        }
    }
    for e in std::fs::read_dir(root).expect("root").flatten() {
        let readme = e.path().join("README.md");
        if e.path().is_dir() && readme.is_file() {
            docs.push(readme);
        }
    }
    docs.sort();
    docs
}

/// Backticked spans of a document that name a path of the repository: they start with a
/// top-level folder and contain a `/`. `file.rs::test_name` and `file.rs:12` name the file.
fn named_paths(text: &str, top_level: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, span) in text.split('`').enumerate() {
        if i % 2 == 0 || span.contains(char::is_whitespace) {
            continue;
        }
        let path = span.split("::").next().unwrap_or(span);
        let path = path.split(':').next().unwrap_or(path);
        let Some((first, _)) = path.split_once('/') else { continue };
        if !top_level.iter().any(|t| t == first) || path.contains(['*', '<', '>', '{', '…', '$']) {
            continue;
        }
        // Build outputs exist only after a build (`fuzz/target/`, `node_modules/`).
        if path.split('/').any(|c| c == "target" || c == "node_modules") {
            continue;
        }
        out.push(path.trim_end_matches(['.', ',', ')']).to_string());
    }
    out
}

#[test]
fn every_path_the_documentation_names_exists() {
    let root = root();
    let top_level: Vec<String> = std::fs::read_dir(&root)
        .expect("root")
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| !n.starts_with('.') && n != "target")
        .collect();
    let mut missing = Vec::new();
    for doc in documents(&root) {
        let text = std::fs::read_to_string(&doc).expect("utf-8 Markdown");
        let here = doc.parent().unwrap_or(&root);
        for p in named_paths(&text, &top_level) {
            if !root.join(&p).exists() && !here.join(&p).exists() {
                missing.push(format!("{}: `{p}`", doc.strip_prefix(&root).unwrap_or(&doc).display()));
            }
        }
    }
    assert!(missing.is_empty(), "the documentation names paths that do not exist:\n{}", missing.join("\n"));
}

#[test]
fn the_architecture_has_a_row_for_every_crate() {
    let root = root();
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("Cargo.toml");
    let members = manifest.split("members = [").nth(1).and_then(|s| s.split(']').next()).expect("a members list");
    let arch = std::fs::read_to_string(root.join("docs/architecture.md")).expect("docs/architecture.md");
    let rows: Vec<&str> = arch.lines().filter(|l| l.starts_with('|')).collect();
    for member in members.split(',').map(|m| m.trim().trim_matches('"')).filter(|m| !m.is_empty()) {
        let folder = format!("(`{member}/`)");
        assert!(rows.iter().any(|r| r.contains(&folder)), "docs/architecture.md has no crate row for {folder}");
    }
}

#[test]
fn the_path_reader_sees_what_documents_write() {
    let top = vec!["grammar".to_string(), "docs".to_string()];
    let text = "see `grammar/src/lib.rs::tests` and `docs/x.md:12`, not `src/a.rs`, `grammar/*.rs`, `a b/c` or `grammar/target/x`";
    assert_eq!(named_paths(text, &top), ["grammar/src/lib.rs", "docs/x.md"]);
}
