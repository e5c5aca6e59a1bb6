//! `cal prompt`: the §27 quick reference, generated from the grammar tables.
//! Every example query in it passes the checker without a diagnostic, it names every grain type,
//! format and pipeline stage of the tables, `--compact` is shorter, `--tier1`
//! adds the evolve section, and the token count goes to standard error. The
//! full text is snapshotted so that a change to the prompt is reviewed.

mod common;

use cal_grammar::ebnf;
use cal_grammar::prompt::{PromptOptions, quick_reference};
use cal_grammar::{FormatName, GrainType};

/// `cal prompt args`: standard output, and the token count printed on standard error.
fn prompt(args: &[&str]) -> (String, usize) {
    let mut argv = vec!["prompt"];
    argv.extend_from_slice(args);
    let out = common::cal(&argv, b"");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).expect("utf-8");
    let stderr = String::from_utf8(out.stderr).expect("utf-8");
    let tokens = stderr
        .lines()
        .find_map(|l| l.strip_suffix(" o200k_base tokens"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no token count on stderr: {stderr:?}"));
    (stdout, tokens)
}

/// The example queries: every line inside a ```cal fence.
fn examples(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        match line.trim() {
            "```cal" => inside = true,
            "```" => inside = false,
            q if inside && !q.is_empty() => out.push(q),
            _ => {}
        }
    }
    out
}

const VARIANTS: [&[&str]; 4] = [&[], &["--tier1"], &["--compact"], &["--compact", "--tier1"]];

#[test]
fn every_example_query_passes_the_checker() {
    for args in VARIANTS {
        let (text, _) = prompt(args);
        let queries = examples(&text);
        assert!(queries.len() >= 4, "{args:?}: {queries:?}");
        for q in queries {
            let analysis = cal_checker::analyze(q, None);
            // Not even a warning: an example teaches the form to copy.
            assert!(analysis.diagnostics.is_empty(), "{args:?}: {q}\n{:#?}", analysis.diagnostics);
            assert!(analysis.document.is_some_and(|d| d.queries.len() == 1), "{args:?}: one query per line: {q}");
        }
    }
}

#[test]
fn the_full_prompt_names_every_grain_type_format_and_stage() {
    let (text, _) = prompt(&[]);
    for g in GrainType::ALL {
        assert!(text.contains(g.plural()), "{g}");
    }
    for f in FormatName::ALL {
        assert!(text.contains(f.as_str()), "{f}");
    }
    for stage in ebnf::first_terminals("pipe_stage") {
        assert!(text.contains(&format!("| {stage}")), "{stage}");
    }
}

#[test]
fn compact_is_shorter_and_tier1_adds_the_evolve_section() {
    let (full, full_tokens) = prompt(&[]);
    let (compact, compact_tokens) = prompt(&["--compact"]);
    let (tier1, tier1_tokens) = prompt(&["--tier1"]);
    let (compact1, compact1_tokens) = prompt(&["--compact", "--tier1"]);
    assert!(compact_tokens * 3 < full_tokens * 2, "{compact_tokens} vs {full_tokens}");
    assert!(compact1_tokens * 3 < tier1_tokens * 2, "{compact1_tokens} vs {tier1_tokens}");
    for (text, evolve) in [(&full, false), (&compact, false), (&tier1, true), (&compact1, true)] {
        assert_eq!(text.contains("### Evolve operations"), evolve);
        assert_eq!(text.contains("REASON is mandatory"), evolve);
        assert_eq!(text.contains("prepare"), evolve);
        for op in ["ADD <type>", "SUPERSEDE sha256:", "REVERT sha256:"] {
            assert_eq!(text.contains(op), evolve, "{op}");
        }
    }
}

#[test]
fn the_command_prints_the_library_text() {
    let (text, tokens) = prompt(&["--compact"]);
    assert_eq!(text, quick_reference(PromptOptions { compact: true, tier1: false }));
    assert_eq!(tokens, cal_render::tokens::count(&text));
}

#[test]
fn the_full_prompt_is_reviewed() {
    let (text, _) = prompt(&[]);
    insta::assert_snapshot!("full", text);
    let (text, _) = prompt(&["--tier1"]);
    insta::assert_snapshot!("full_tier1", text);
}
