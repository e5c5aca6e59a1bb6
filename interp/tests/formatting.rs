//! The content layer wired into the interpreter: ASSEMBLE's `formatted_context`
//! (FORMAT, BUDGET, PRIORITY, WITH, inline templates) and RECALL `AS fmt`'s
//! `formatted` (§8.2, §10, §10.9.8, §14.2), rendered by cal-render.

mod common;

use common::{fixture, opts};
use serde_json::Value as Json;

const SOURCES: &str = r#"FROM mine: (RECALL beliefs WHERE subject = "alice"), goals: (RECALL goals ABOUT "alice"),
    events: (RECALL events ABOUT "alice") PRIORITY mine > goals > events"#;

fn assemble(format: &str, budget: &str) -> String {
    format!(r#"ASSEMBLE ctx FOR "helping alice" {SOURCES} BUDGET {budget} {format}"#)
}

fn text(r: &Json) -> &str {
    r["formatted_context"]["text"].as_str().unwrap_or_else(|| panic!("no formatted_context.text: {r}"))
}

#[test]
fn assemble_defaults_to_markdown() {
    let f = fixture();
    let r = f.run(&assemble("", "2000 tokens"));
    assert_eq!(r["formatted_context"]["format"], "markdown");
    let t = text(&r);
    assert!(t.starts_with("## Context: helping alice"), "{t}");
    assert!(t.contains("alice prefers dark mode"), "{t}");
    assert!(r.get("content").is_none(), "the old placeholder is gone");
}

#[test]
fn assemble_renders_sml_and_toon() {
    let f = fixture();
    let sml = f.run(&assemble("FORMAT sml", "2000 tokens"));
    let t = text(&sml);
    assert!(t.starts_with("<context intent=\"helping alice\">"), "{t}");
    assert!(t.contains("<belief subject=\"alice\""), "{t}");
    assert!(!t.contains("sha256:"), "no hashes in the content layer (§14.2): {t}");
    let toon = f.run(&assemble("FORMAT toon", "2000 tokens"));
    assert_eq!(toon["formatted_context"]["format"], "toon");
    assert!(text(&toon).starts_with("context: ctx"), "{}", text(&toon));
    let structured = f.run(&assemble("FORMAT structured", "2000 tokens"));
    assert_eq!(structured["formatted_context"]["format"], "sml", "presets resolve");
}

#[test]
fn assemble_never_exceeds_its_budget_and_counts_exactly() {
    let f = fixture();
    for format in ["", "FORMAT sml", "FORMAT toon", "FORMAT compact", "FORMAT json"] {
        for budget in [60, 150, 400, 2000] {
            let q = assemble(format, &format!("{budget} tokens"));
            let r = f.run(&q);
            let t = text(&r);
            let n = cal_render::tokens::count(t);
            assert_eq!(r["formatted_context"]["tokens"], n, "{q}");
            assert_eq!(r["_cal"]["budget"]["tokens_used"], n, "{q}");
            let sources = r["sources"].as_array().unwrap();
            let included: usize = sources.iter().map(|s| s["results"].as_array().map_or(0, Vec::len)).sum();
            if n > budget {
                // Only the format's empty envelope is left, and it alone is over: noted.
                assert_eq!(included, 0, "{q}: {n} tokens");
                assert!(r["_cal"]["notes"].to_string().contains("empty"), "{q}: {}", r["_cal"]);
            }
            assert_eq!(r["_cal"]["budget"]["grains_returned"], included, "{q}");
            for s in sources {
                assert!(s["allocated"].is_u64() && s["tokens_used"].is_u64() && s["truncated"].is_boolean(), "{s}");
            }
        }
    }
    let tight = f.run(&assemble("", "60 tokens"));
    assert!(tight["sources"].as_array().unwrap().iter().any(|s| s["truncated"] == true), "{tight}");
}

#[test]
fn assemble_grains_budget() {
    let f = fixture();
    let r = f.run(&assemble("FORMAT compact", "2 grains"));
    let included: usize = r["sources"].as_array().unwrap().iter().map(|s| s["results"].as_array().unwrap().len()).sum();
    assert!(included <= 2, "{r}");
    assert_eq!(text(&r).lines().filter(|l| l.starts_with('[')).count(), included, "{}", text(&r));
}

#[test]
fn assemble_with_disclosure_and_iso_timestamps() {
    let f = fixture();
    let summary = f.run(&assemble("FORMAT sml WITH progressive_disclosure(summary)", "2000 tokens"));
    let full = f.run(&assemble("FORMAT sml WITH progressive_disclosure(full), iso_timestamps", "2000 tokens"));
    assert!(text(&summary).len() < text(&full).len(), "{}\n---\n{}", text(&summary), text(&full));
    assert!(!text(&summary).contains("confidence="), "{}", text(&summary));
    assert!(text(&full).contains("2026-"), "ISO timestamps: {}", text(&full));
}

#[test]
fn assemble_inline_template_and_unknown_template() {
    let f = fixture();
    let r = f.run(&assemble(
        "FORMAT TEMPLATE { HEADER { CTX {{assembly.name}} } ELEMENT { * {{grain.content}} } }",
        "2000 tokens",
    ));
    assert_eq!(r["formatted_context"]["format"], "template");
    let t = text(&r);
    assert!(t.contains("CTX ctx"), "{t}");
    assert!(t.contains("* "), "{t}");
    assert_eq!(f.fails(&assemble("FORMAT TEMPLATE nowhere", "2000 tokens")), "CAL-E085");
}

#[test]
fn recall_as_toon_returns_the_table() {
    let f = fixture();
    let r = f.run(r#"RECALL beliefs WHERE subject = "alice" | ORDER BY confidence DESC | LIMIT 3 AS toon"#);
    assert_eq!(r["format"], "toon");
    let t = r["formatted"].as_str().unwrap();
    let header = t.lines().next().unwrap();
    assert!(header.starts_with("beliefs[3]{"), "{t}");
    assert_eq!(t.lines().count(), 4, "{t}");
    assert_eq!(r["_cal"]["budget"]["tokens_used"], cal_render::tokens::count(t));
    assert_eq!(r["results"].as_array().unwrap().len(), 3, "the JSON results stay");
    let notes = r["_cal"]["notes"].to_string();
    assert!(!notes.contains("not implemented"), "{notes}");
}

#[test]
fn recall_as_toon_indents_rows_and_prints_the_header_of_an_empty_result() {
    let f = fixture();
    let r = f.run(r#"RECALL beliefs WHERE subject = "alice" | LIMIT 2 AS toon"#);
    let t = r["formatted"].as_str().unwrap_or_default();
    assert!(t.lines().skip(1).all(|row| row.starts_with("  ")), "rows under the header (TOON v3): {t}");
    let empty = f.run(r#"RECALL beliefs WHERE subject = "nobody" AS toon"#);
    assert_eq!(empty["formatted"], "beliefs[0]{subject,content,confidence}:", "{empty}");
    assert_eq!(
        empty["_cal"]["budget"]["tokens_used"],
        cal_render::tokens::count("beliefs[0]{subject,content,confidence}:")
    );
    let summary = f.run(r#"RECALL goals WHERE subject = "nobody" WITH progressive_disclosure(summary) AS toon"#);
    assert_eq!(summary["formatted"], "goals[0]{subject,content}:");
    let untyped = f.run(r#"RECALL WHERE subject = "nobody" AS toon"#);
    assert_eq!(untyped["formatted"], "[0]:", "no type was queried: {untyped}");
}

#[test]
fn formatting_is_deterministic() {
    let f = fixture();
    for q in [
        assemble("", "300 tokens"),
        assemble("FORMAT toon", "300 tokens"),
        assemble("FORMAT sml WITH progressive_disclosure", "900 tokens"),
        r#"RECALL beliefs ABOUT "alice" AS markdown"#.to_string(),
    ] {
        let a = f.response(&q, &opts()).to_pretty();
        let b = f.response(&q, &opts()).to_pretty();
        assert_eq!(a, b, "{q}");
    }
}

#[test]
fn batch_adds_exact_tokens_of_formatted_entries() {
    let f = fixture();
    let r = f.run(
        r#"BATCH { a: RECALL beliefs ABOUT "alice" | LIMIT 2 AS toon, b: RECALL beliefs ABOUT "bob" | LIMIT 2 AS sml }"#,
    );
    let a = r["results"]["a"]["formatted"].as_str().unwrap();
    let b = r["results"]["b"]["formatted"].as_str().unwrap();
    let n = cal_render::tokens::count(a) + cal_render::tokens::count(b);
    assert_eq!(r["_cal"]["budget"]["tokens_used"], n, "{r}");
}
