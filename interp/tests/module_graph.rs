//! The interpreter's modules form a layered graph: no module reaches, through
//! `crate::` paths, a module that reaches back to it. The context types
//! (`context.rs`) sit under every statement module, dispatch sits over them,
//! and the engine over dispatch. A cycle here is how `engine.rs` once became
//! the hub of a 16-file knot, so the test names the modules of any cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Top-level module of a source file (`recall/stages.rs` → `recall`).
fn top_module(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).expect("under src");
    let first = rel.components().next().expect("a component").as_os_str().to_string_lossy().to_string();
    first.trim_end_matches(".rs").to_string()
}

/// The `crate::x` modules a file's non-test code names.
fn references(text: &str) -> BTreeSet<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or_default();
    let mut out = BTreeSet::new();
    for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
        let mut rest = line.split(" //").next().unwrap_or_default();
        while let Some(i) = rest.find("crate::") {
            rest = &rest[i + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                for item in group[..end].split(',') {
                    let name: String =
                        item.trim().chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect();
                    out.insert(name);
                }
            } else {
                out.insert(rest.chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect());
            }
        }
    }
    out.retain(|n| !n.is_empty());
    out
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).expect("readable") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    files(&src, &mut all);
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &all {
        let m = top_module(&src, f);
        if m == "lib" {
            continue;
        }
        let refs = references(&std::fs::read_to_string(f).expect("utf-8 source"));
        g.entry(m.clone()).or_default().extend(refs.into_iter().filter(|r| *r != m));
    }
    let names: BTreeSet<String> = g.keys().cloned().collect();
    for deps in g.values_mut() {
        deps.retain(|d| names.contains(d));
    }
    g
}

/// A cycle through `start`, if there is one.
fn cycle_from(g: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    fn walk(
        g: &BTreeMap<String, BTreeSet<String>>,
        at: &str,
        start: &str,
        path: &mut Vec<String>,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        for next in g.get(at).into_iter().flatten() {
            if next == start {
                return true;
            }
            if seen.insert(next.clone()) {
                path.push(next.clone());
                if walk(g, next, start, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let mut path = vec![start.to_string()];
    walk(g, start, start, &mut path, &mut BTreeSet::new()).then_some(path)
}

#[test]
fn no_module_reaches_back_to_itself() {
    let g = graph();
    assert!(g.len() > 10, "the interpreter's modules were not found: {g:?}");
    let cycles: Vec<String> = g.keys().filter_map(|m| cycle_from(&g, m)).map(|c| c.join(" → ")).collect();
    assert!(cycles.is_empty(), "import cycles among interp's modules:\n{}", cycles.join("\n"));
}

#[test]
fn the_context_types_depend_on_no_statement_module() {
    let g = graph();
    let deps = &g["context"];
    for statement in ["recall", "compose", "dispatch", "engine", "history", "describe", "setops"] {
        assert!(!deps.contains(statement), "context.rs uses {statement}");
    }
}

#[test]
fn the_reference_reader_sees_groups_and_paths() {
    let refs = references("use crate::{a, b_c};\nlet x = crate::d::e(); // crate::f\n#[cfg(test)]\nuse crate::g;");
    assert_eq!(refs.into_iter().collect::<Vec<_>>(), ["a", "b_c", "d"]);
}
