//! Field names, WITH options, format and preset names, and template variables
//! are spelled in this crate only. Code elsewhere that treats a string as one
//! of them (compares a name with it, builds a condition or a field reference
//! from it, looks it up, matches on it) names it through grammar
//! (`fields::names`, `WithOptionName`, `FormatName`, `templates::Var`) instead,
//! so renaming one is one edit here and the compiler finds every use.
//!
//! The scan reads the non-test source of every other crate and flags a string
//! literal equal to a field name in one of those positions. The few literals
//! that only look like field names (a JSON member, a format's attribute or
//! column name, a keyword of PROJECT) are listed in [`NOT_FIELDS`] with the
//! reason; `interp/src/fields.rs`, the one reader of OMS grains, spells OMS
//! names by design.

use std::path::{Path, PathBuf};

use cal_grammar::fields::{COMMON_FIELDS, type_fields};
use cal_grammar::{FormatName, GrainType, WithOptionName};

/// Crates whose source is scanned.
const CRATES: &[&str] = &["lexer", "parser", "checker", "planner", "interp", "render", "lsp", "cli", "conformance"];

/// Files read as OMS, not as CAL.
const OMS_READERS: &[&str] = &["interp/src/fields.rs"];

/// Literals that look like field names in a flagged position but are not field names:
/// (file, text on the line, why).
const NOT_FIELDS: &[(&str, &str, &str)] = &[
    ("interp/src/stream/events.rs", r#"k != "type""#, "the `type` member of an event object (§11.3)"),
    ("parser/src/syntax/recall.rs", r#""content" | "attr""#, "the PROJECT words content(…) and attr(…)"),
    ("lsp/src/engine/semantic.rs", r#"o == "hash""#, "a token kind for semantic highlighting"),
    ("lsp/src/engine/context.rs", r#"f == "content""#, "the PROJECT word content(…)"),
    (
        "cli/src/commands/repl/mod.rs",
        r#""json" => self.format"#,
        "the REPL's `:format json` command (the CLI's output, not a CAL format)",
    ),
    ("cli/src/commands/repl/mod.rs", r#""text" => self.format"#, "the REPL's `:format text` command"),
    ("conformance/src/loader.rs", r#"x == "json""#, "a file extension"),
];

/// The words the scan guards: field names, WITH option names, format and preset names, and
/// template variables.
fn field_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = COMMON_FIELDS.iter().map(|f| f.name).collect();
    for g in GrainType::ALL {
        names.extend(type_fields(*g).iter().map(|f| f.name));
    }
    names.extend(WithOptionName::words());
    names.extend(FormatName::words());
    names.extend(cal_grammar::templates::VARIABLES.iter().map(|v| v.name));
    names.sort_unstable();
    names.dedup();
    names
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n == "demo" || n == "tests") {
                continue; // fixture data and test code
            }
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") && p.file_name().is_some_and(|n| n != "tests.rs") {
            out.push(p);
        }
    }
}

/// True when the literal starting at byte `at` of `line` sits where a field name would.
fn in_field_position(line: &str, at: usize, literal_end: usize) -> bool {
    let before = line[..at].trim_end();
    let after = line[literal_end..].trim_start();
    let leads = ["==", "!=", "compare(", "name:", "field:", "get_str(", "_field(", "value(&r.hit,", "value(hit,"];
    leads.iter().any(|l| before.ends_with(l))
        || (before.is_empty() || before.ends_with('|')) && (after.starts_with("=>") || after.starts_with('|'))
        || before.contains("matches!(")
}

#[test]
fn no_crate_but_grammar_spells_a_field_name() {
    let names = field_names();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root");
    let mut found = Vec::new();
    for krate in CRATES {
        let mut files = Vec::new();
        rust_files(&root.join(krate).join("src"), &mut files);
        for f in files {
            let rel = f.strip_prefix(root).expect("in the workspace").to_string_lossy().replace('\\', "/");
            if OMS_READERS.contains(&rel.as_str()) {
                continue;
            }
            let text = std::fs::read_to_string(&f).expect("utf-8 source");
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            for (n, line) in code.lines().enumerate() {
                if line.trim_start().starts_with("//")
                    || NOT_FIELDS.iter().any(|(p, s, _)| *p == rel && line.contains(s))
                {
                    continue;
                }
                for name in &names {
                    let lit = format!("\"{name}\"");
                    for (at, _) in line.match_indices(&lit) {
                        // A template variable (`grain.subject`) is never anything else, wherever it is.
                        if name.contains('.') || in_field_position(line, at, at + lit.len()) {
                            found.push(format!("{rel}:{}: {}", n + 1, line.trim()));
                        }
                    }
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "field names spelled outside grammar (use cal_grammar::fields::names or a grammar table):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scan_sees_the_positions_it_guards() {
    let hits = |line: &str| {
        let at = line.find("\"subject\"").expect("a literal");
        in_field_position(line, at, at + "\"subject\"".len())
    };
    assert!(hits(r#"if c.field.name == "subject" {"#));
    assert!(hits(r#"compare("subject", Comparator::Eq, v, span)"#));
    assert!(hits(r#"FieldRef { name: "subject".into(), span }"#));
    assert!(hits(r#"    "subject" => Some(" | SUBJECTS"),"#));
    assert!(hits(r#"matches!(name, "relation" | "subject")"#));
    assert!(!hits(r#"json!({ "subject": subject })"#));
    assert!(!hits(r#"m.insert("subject".into(), v);"#));
}

#[test]
fn every_exception_still_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root");
    for (file, snippet, why) in NOT_FIELDS {
        let text = std::fs::read_to_string(root.join(file)).unwrap_or_default();
        assert!(text.contains(snippet), "stale exception in {file} ({why}): {snippet}");
    }
}
