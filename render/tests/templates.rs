//! Templates (§10.2, §10.5–§10.8) rendered: every section kind, every Mustache form of the
//! subset, inheritance from each preset, the caps, and every template error code.

mod common;

use cal_grammar::{Code, FormatName, TemplateSectionKind as K};
use cal_render::{
    AssembleRequest, Budget, BudgetUnit, Disclosure, Output, SourceInput, TemplateDef, TemplateRegistry, assemble,
    tokens, try_assemble,
};
use common::{grains, opts};

fn def(extends: Option<FormatName>, sections: &[(K, &str)]) -> TemplateDef {
    TemplateDef { extends, sections: sections.iter().map(|(k, t)| (*k, (*t).to_string())).collect() }
}

fn req(t: TemplateDef, budget: Budget, level: Disclosure) -> AssembleRequest {
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

fn render(t: TemplateDef) -> String {
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
fn render_time_error_codes() {
    let fails = |text: &str| {
        try_assemble(&req(
            def(None, &[(K::Element, text)]),
            Budget::new(4000, BudgetUnit::Tokens),
            Disclosure::Standard,
        ))
        .map(|_| ())
        .unwrap_err()
        .code
    };
    assert_eq!(fails("{{#grain.confidence}} never closed"), Code::E091);
    assert_eq!(fails("{{/grain.confidence}}"), Code::E091);
    assert_eq!(fails("{{#grain.is_full}}{{/grain.is_summary}}"), Code::E091);
    assert_eq!(fails(&("{{#grain.is_full}}".repeat(6) + &"{{/grain.is_full}}".repeat(6))), Code::E093);
    for excluded in ["{{>partial}}", "{{&grain.content}}", "{{{grain.content}}}", "{{=<% %>=}}"] {
        assert_eq!(fails(excluded), Code::E094, "{excluded}");
    }
    // The lenient entry point renders such a template as nothing rather than failing.
    let bad = def(None, &[(K::Element, "{{#grain.confidence}}")]);
    assert_eq!(assemble(&req(bad, Budget::new(4000, BudgetUnit::Tokens), Disclosure::Standard)).text, "");
}

#[test]
fn definition_time_error_codes() {
    let code = |t: TemplateDef| t.validate().unwrap_err().code;
    assert!(def(Some(FormatName::Structured), &[(K::Element, "{{grain.content}}")]).validate().is_ok());
    assert_eq!(code(def(Some(FormatName::Data), &[])), Code::E086);
    assert_eq!(code(def(Some(FormatName::Json), &[])), Code::E086);
    assert_eq!(code(def(Some(FormatName::Sml), &[])), Code::E087);
    assert_eq!(code(def(None, &[(K::Element, "{{grain.secret}}")])), Code::E090);
    assert_eq!(code(def(None, &[(K::Element, "{{#grain.secret}}x{{/grain.secret}}")])), Code::E090);
    assert_eq!(code(def(None, &[(K::Element, "{{#each}}")])), Code::E091);
    assert_eq!(code(def(None, &[(K::Element, &"x".repeat(4097))])), Code::E092);
    assert_eq!(code(def(None, &[(K::Element, &("{{#each}}".repeat(6) + &"{{/each}}".repeat(6)))])), Code::E093);
    assert_eq!(code(def(None, &[(K::Element, "{{>p}}")])), Code::E094);
    assert_eq!(code(def(None, &[(K::Footer, "a"), (K::Footer, "b")])), Code::E095);
}

#[test]
fn registry_codes() {
    let mut reg = TemplateRegistry::default();
    assert!(reg.is_empty());
    assert_eq!(reg.get("nope").unwrap_err().code, Code::E085);
    reg.define("a", TemplateDef::default()).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(reg.define("a", TemplateDef::default()).unwrap_err().code, Code::E088);
    for i in 1..50 {
        reg.define(&format!("t{i:02}"), TemplateDef::default()).unwrap_or_else(|e| panic!("{e:?}"));
    }
    assert_eq!(reg.len(), 50);
    assert_eq!(reg.define("z", TemplateDef::default()).unwrap_err().code, Code::E089);
    assert_eq!(reg.names().first().map(String::as_str), Some("a"));
    assert!(reg.get("t49").is_ok());
}
