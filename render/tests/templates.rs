//! Templates (§10.2, §10.5–§10.8) rendered: every section kind, every Mustache form of the
//! subset, inheritance from each preset and the caps. The renderer takes parsed templates
//! only; the error codes of templates are the checker's (`checker/tests/templates.rs`) and
//! the registry's the interpreter's (`interp/tests/templates.rs`).

mod common;

use cal_grammar::{FormatName, TemplateSectionKind as K};
use cal_parser::template::{ErrorKind, TagKind, Template};
use cal_render::{AssembleRequest, Budget, BudgetUnit, Disclosure, Output, SourceInput, assemble, tokens};
use common::{grains, opts};

fn def(extends: Option<FormatName>, sections: &[(K, &str)]) -> Template {
    Template::parse(extends, sections.iter().copied()).unwrap_or_else(|e| panic!("{sections:?}: {e:?}"))
}

fn req(t: Template, budget: Budget, level: Disclosure) -> AssembleRequest {
    AssembleRequest {
        name: "agent_context".into(),
        intent: Some("review <prep>".into()),
        sources: vec![
            SourceInput { label: "beliefs".into(), grains: grains("belief") },
            SourceInput { label: "goals".into(), grains: grains("goal") },
        ],
        budget,
        output: Output::Template(t),
        projection: opts(level),
    }
}

fn render(t: Template) -> String {
    assemble(&req(t, Budget::new(4000, BudgetUnit::Tokens), Disclosure::Standard)).text
}

#[test]
fn every_section_kind() {
    let t = def(
        Some(FormatName::Compact),
        &[
            (
                K::Header,
                "# {{assembly.name}} for {{assembly.intent}}: {{assembly.source_count}} sources, {{assembly.grain_count}} grains, {{budget.total}} {{budget.unit}}, {{disclosure.level}}",
            ),
            (
                K::SourceBreak,
                "## {{source.index}}/{{source.priority}} {{source.label}} ({{source.grain_count}}, truncated {{source.truncated}})",
            ),
            (K::Element, "- {{grain.type}}|{{grain.subject}}|{{grain.humanized_relation}}|{{grain.content}}"),
            (K::ElementSummary, "* {{grain.content}}"),
            (K::ElementOmit, "(more {{source.label}} omitted)"),
            (K::Footer, "end {{timestamp}}"),
        ],
    );
    assert_eq!(
        render(t.clone()),
        "# agent_context for review &lt;prep&gt;: 2 sources, 4 grains, 4000 tokens, standard\n\
         ## 0/1 beliefs (2, truncated false)\n\
         - belief|alice|prefers|prefers dark mode, always\n\
         - belief|bob|works at|works at -42 &quot;labs&quot;: [east]\n\
         ## 1/2 goals (2, truncated false)\n\
         - goal|alice|goal|complete Q1 review\n\
         - goal|team|goal|reduce P0 incidents by 20%\n\
         end 2026-03-15T09:00:00Z"
    );
    // ELEMENT_SUMMARY replaces ELEMENT at summary disclosure.
    let summary = assemble(&req(t.clone(), Budget::new(4000, BudgetUnit::Tokens), Disclosure::Summary)).text;
    assert!(summary.contains("\n* prefers dark mode, always\n"), "{summary}");
    assert!(!summary.contains("\n- "), "{summary}");
    // ELEMENT_OMIT follows a source that was cut for the budget.
    let cut = assemble(&req(t, Budget::new(1, BudgetUnit::Grains), Disclosure::Standard));
    assert!(cut.text.contains("(1, truncated true)\n- belief|alice"), "{}", cut.text);
    assert!(cut.text.contains("(more beliefs omitted)") && cut.text.contains("(more goals omitted)"), "{}", cut.text);
}

#[test]
fn raw_grain_variables() {
    // Variables the projection does not keep come from the retrieved grain; the hash never
    // reaches the content layer (§14.2).
    let t = def(
        Some(FormatName::Compact),
        &[(K::Element, "{{grain.relation}}|{{grain.created_at}}|{{grain.score}}|{{grain.hash}}|{{grain.importance}}")],
    );
    let text = render(t.clone());
    let first = text.lines().next().unwrap_or_default();
    // Importance is a full-disclosure attribute (§14.3): empty at standard.
    assert_eq!(first, "mg:prefers|2026-03-15T08:53:00Z|0.9||");
    assert!(!text.contains("sha256"), "{text}");
    let full = assemble(&req(t, Budget::new(4000, BudgetUnit::Tokens), Disclosure::Full)).text;
    assert_eq!(full.lines().next(), Some("mg:prefers|2026-03-15T08:53:00Z|0.9||0.1"));
}

#[test]
fn mustache_forms() {
    let t = def(
        Some(FormatName::Compact),
        &[
            (K::Header, "{{! a comment renders as nothing }}{{#each}}[{{grain.subject}}]{{/each}}"),
            (
                K::Element,
                "{{grain.content}}{{#grain.confidence}} ({{grain.confidence}}){{/grain.confidence}}{{^grain.confidence}} (no confidence){{/grain.confidence}}{{#grain.is_full}} FULL{{/grain.is_full}}{{#grain.is_summary}} SUMMARY{{/grain.is_summary}}{{grain.undefined_is_empty}}",
            ),
            (K::SourceBreak, "{{#each}}{{grain.type}};{{/each}}"),
        ],
    );
    let text = render(t.clone());
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "[alice][bob][alice][team]", "{{#each}} over all grains in HEADER");
    assert_eq!(lines[1], "belief;belief;", "{{#each}} over the source's grains in SOURCE_BREAK");
    assert_eq!(lines[2], "prefers dark mode, always (0.95)");
    assert_eq!(lines[5], "complete Q1 review (no confidence)");
    let full = assemble(&req(t, Budget::new(4000, BudgetUnit::Tokens), Disclosure::Full)).text;
    assert!(full.contains("prefers dark mode, always (0.95) FULL\n"), "{full}");
}

#[test]
fn inheritance_from_each_preset() {
    let only_element = |p| def(p, &[(K::Element, "* {{grain.content}}")]);
    // structured: the SML envelope around our elements.
    let sml = render(only_element(Some(FormatName::Structured)));
    assert!(sml.starts_with("<context intent=\"review &lt;prep&gt;\">\n* prefers dark mode"), "{sml}");
    assert!(sml.ends_with("\n</context>"), "{sml}");
    // readable (also the default parent): the markdown heading and source headings.
    for parent in [Some(FormatName::Readable), None] {
        let md = render(only_element(parent));
        assert!(md.starts_with("## Context: review <prep>\n"), "{md}");
        assert!(md.contains("**Beliefs**\n* prefers dark mode, always"), "{md}");
    }
    // compact: no envelope at all.
    assert_eq!(render(only_element(Some(FormatName::Compact))).lines().next(), Some("* prefers dark mode, always"));
    // A template overriding nothing is its parent.
    let parent = assemble(&AssembleRequest {
        output: Output::Format(FormatName::Structured),
        ..req(def(None, &[]), Budget::new(4000, BudgetUnit::Tokens), Disclosure::Standard)
    });
    assert_eq!(render(def(Some(FormatName::Structured), &[])), parent.text);
}

#[test]
fn each_cap_and_output_bound() {
    let t = def(Some(FormatName::Compact), &[(K::Header, "{{#each}}x{{/each}}"), (K::Element, "{{! nothing }}")]);
    let many =
        SourceInput { label: "events".into(), grains: (0..250).map(|i| grains("event")[i % 2].clone()).collect() };
    let mut r = req(t, Budget::new(16_000, BudgetUnit::Tokens), Disclosure::Standard);
    r.sources = vec![many];
    let out = assemble(&r);
    assert_eq!(out.sources[0].grains, 250);
    assert_eq!(out.text, "x".repeat(200), "{{#each}} stops at 200");
    // Output bounded by budget × 2 characters, and by the token budget itself.
    let long = def(Some(FormatName::Compact), &[(K::Element, "{{grain.content}} {{grain.content}} {{grain.content}}")]);
    for budget in [10, 40, 100, 400] {
        let out = assemble(&req(long.clone(), Budget::new(budget, BudgetUnit::Tokens), Disclosure::Standard));
        assert!(out.text.chars().count() <= budget * 2, "{budget}: {}", out.text.chars().count());
        assert!(out.tokens <= budget && out.tokens == tokens::count(&out.text));
    }
    // A grains budget bounds the characters by the default token budget (4,000 × 2).
    let huge = def(Some(FormatName::Compact), &[(K::Header, "{{#each}}{{grain.content}}{{grain.content}}{{/each}}")]);
    let mut r = req(huge, Budget::new(200, BudgetUnit::Grains), Disclosure::Standard);
    r.sources[0].grains = (0..200).map(|i| grains("event")[i % 2].clone()).collect();
    assert!(assemble(&r).text.chars().count() <= 8000);
}

#[test]
fn a_malformed_template_never_reaches_the_renderer() {
    // What used to fail at render time (CAL-E091/E093/E094) cannot be built: a `Template` is
    // parsed whole before anything renders it, and the checker reports the codes.
    let fails = |text: &str| Template::parse(None, [(K::Element, text)]).map(|_| ()).expect_err(text).error.kind;
    assert_eq!(fails("{{#grain.confidence}} never closed"), ErrorKind::Unclosed);
    assert_eq!(fails("{{/grain.confidence}}"), ErrorKind::Unopened);
    assert_eq!(fails("{{#grain.is_full}}{{/grain.is_summary}}"), ErrorKind::Unclosed);
    assert_eq!(fails(&("{{#grain.is_full}}".repeat(6) + &"{{/grain.is_full}}".repeat(6))), ErrorKind::TooDeep);
    assert_eq!(fails("{{>partial}}"), ErrorKind::Unsupported(TagKind::Partial));
    for excluded in ["{{&grain.content}}", "{{{grain.content}}}"] {
        assert_eq!(fails(excluded), ErrorKind::Unsupported(TagKind::Unescaped), "{excluded}");
    }
    assert_eq!(fails("{{=<% %>=}}"), ErrorKind::Unsupported(TagKind::SetDelimiter));
}

#[test]
fn section_text_is_trimmed_before_rendering() {
    // The whitespace around a section's text is not output, whatever its first and last
    // nodes are; whitespace a variable or a comment leaves is.
    let t = def(
        Some(FormatName::Compact),
        &[(K::Header, "\n  {{! c }} [{{assembly.name}}]  \n"), (K::Element, "  {{grain.type}}  "), (K::Footer, "  ")],
    );
    let text = render(t);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], " [agent_context]");
    assert_eq!(lines[1], "belief");
    assert_eq!(lines.last(), Some(&"goal"));
}

#[test]
fn the_renderer_does_not_depend_on_the_checker() {
    // Rendering has no say in what a template may contain, so the crate that renders must not
    // reach the crate that judges (issue 16: one owner per meaning). Dev-dependencies may.
    let manifest = include_str!("../Cargo.toml");
    let deps = manifest
        .split("\n[")
        .find(|table| table.starts_with("dependencies]"))
        .unwrap_or_else(|| panic!("no [dependencies] table in render/Cargo.toml"));
    let names: Vec<&str> = deps
        .lines()
        .skip(1)
        .filter_map(|l| l.split(['=', '.']).next())
        .map(str::trim)
        .filter(|n| !n.is_empty() && !n.starts_with('#'))
        .collect();
    assert!(names.contains(&"cal-grammar") && names.contains(&"cal-parser"), "{names:?}");
    assert!(!names.contains(&"cal-checker"), "cal-render depends on cal-checker again: {names:?}");
    assert!(!manifest.contains("[dependencies.cal-checker]"), "cal-render depends on cal-checker again");
}
