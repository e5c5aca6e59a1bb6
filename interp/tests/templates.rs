//! DEFINE TEMPLATE and `FORMAT TEMPLATE name` (§10.6–§10.8) in the interpreter: registration
//! per namespace, the 50-template cap (CAL-E089), duplicates (CAL-E088), unknown names
//! (CAL-E085), isolation between namespaces, no store writes, DESCRIBE, and template errors at
//! execution for templates that never went through the checker: the checker's own diagnostics,
//! from its one copy of the define-time rules.

mod common;

use std::sync::Arc;

use cal_grammar::Code;
use cal_interp::{InterpConfig, Interpreter, OmsFacade, store_digest};
use common::{fixture, opts};
use serde_json::Value as Json;

const SEMANTIC: &str = r#"DEFINE TEMPLATE semantic_sml EXTENDS structured
HEADER { <context intent="{{assembly.intent}}"> }
ELEMENT { <{{grain.type}} subject="{{grain.subject}}"{{#grain.confidence}} confidence="{{grain.confidence}}"{{/grain.confidence}}>{{grain.content}}</{{grain.type}}> }
ELEMENT_SUMMARY { <{{grain.type}} subject="{{grain.subject}}">{{grain.content}}</{{grain.type}}> }
SOURCE_BREAK { }
FOOTER { </context> }"#;

const USE: &str = r#"ASSEMBLE conversation_context FOR "helping alice with her project"
FROM beliefs: (RECALL beliefs ABOUT "alice" LIMIT 20), goals: (RECALL goals ABOUT "alice" RECENT 5)
BUDGET 3000 tokens FORMAT TEMPLATE semantic_sml"#;

fn text(r: &Json) -> &str {
    r["formatted_context"]["text"].as_str().unwrap_or_else(|| panic!("no formatted_context.text: {r}"))
}

fn run(i: &Interpreter<OmsFacade>, q: &str) -> cal_interp::Response {
    let q = cal_parser::parse_query(q).into_result().unwrap_or_else(|d| panic!("{q}: {d:?}"));
    i.execute(&q, &opts())
}

fn code(r: &cal_interp::Response) -> &'static str {
    r.error.as_ref().map_or("ok", |d| d.code.as_str())
}

#[test]
fn define_then_assemble_with_it() {
    let f = fixture();
    let before = store_digest(&f.store);
    let count = f.store.len();
    let d = f.run(SEMANTIC);
    assert_eq!(d["template"], "semantic_sml");
    assert_eq!(d["defined"], true);
    assert_eq!(d["extends"], "structured");
    assert_eq!(d["grains_written"], 0);
    assert_eq!(d["_cal"]["statement_type"], "define_template", "{d}");
    // Session state, not memory: the store is untouched.
    assert_eq!(store_digest(&f.store), before);
    assert_eq!(f.store.len(), count);

    let r = f.run(USE);
    assert_eq!(r["formatted_context"]["format"], "template");
    let t = text(&r);
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(lines.first(), Some(&"<context intent=\"helping alice with her project\">"), "{t}");
    assert_eq!(lines.last(), Some(&"</context>"), "{t}");
    assert!(lines.contains(&"<belief subject=\"alice\" confidence=\"0.9\">prefers dark mode</belief>"), "{t}");
    assert!(lines[1..lines.len() - 1].iter().all(|l| l.starts_with('<') && !l.starts_with("<context")), "{t}");
    assert_eq!(r["formatted_context"]["tokens"].as_u64(), Some(cal_render::tokens::count(t) as u64));
}

#[test]
fn summary_level_uses_element_summary() {
    let f = fixture();
    f.run(SEMANTIC);
    let r = f.run(&format!("{USE} WITH progressive_disclosure(summary)"));
    let t = text(&r);
    assert!(t.contains("<belief subject=\"alice\">prefers dark mode</belief>"), "{t}");
    assert!(!t.contains("confidence="), "{t}");
}

#[test]
fn duplicate_unknown_and_too_many() {
    let f = fixture();
    assert_eq!(f.fails(USE), "CAL-E085");
    f.run(SEMANTIC);
    let dup = f.response(SEMANTIC, &opts());
    assert_eq!(code(&dup), "CAL-E088");
    let span = dup.error.as_ref().map(|d| d.span).unwrap_or_default();
    assert_eq!(&SEMANTIC[span.start as usize..span.end as usize], "semantic_sml", "E088 points at the name");
    for i in 1..50 {
        f.run(&format!("DEFINE TEMPLATE t{i} ELEMENT {{ - {{{{grain.content}}}} }}"));
    }
    assert_eq!(f.fails("DEFINE TEMPLATE one_more ELEMENT { x }"), "CAL-E089");
    let unknown = f.response("ASSEMBLE c FROM a: (RECALL beliefs) FORMAT TEMPLATE nope", &opts());
    assert_eq!(code(&unknown), "CAL-E085");
    let span = unknown.error.as_ref().map(|d| d.span).unwrap_or_default();
    assert_eq!(span.end - span.start, 4, "E085 points at the name");
    // The 50 stored are all listed by DESCRIBE templates.
    let d = f.run("DESCRIBE templates");
    assert_eq!(d["templates"].as_array().map(Vec::len), Some(50), "{d}");
}

#[test]
fn namespaces_do_not_see_each_others_templates() {
    let f = fixture();
    let shared = InterpConfig { namespace: Some("team".into()), ..InterpConfig::default() };
    let other = InterpConfig { namespace: Some("other:sub".into()), ..shared.clone() };
    let team = Interpreter::new(OmsFacade::new(Arc::clone(&f.store)), shared);
    let sub = Interpreter::new(OmsFacade::new(Arc::clone(&f.store)), other);
    assert_eq!(code(&run(&team, SEMANTIC)), "ok");
    assert_eq!(code(&run(&team, USE)), "ok");
    assert_eq!(code(&run(&sub, USE)), "CAL-E085", "invisible in another namespace");
    assert_eq!(code(&run(&sub, SEMANTIC)), "ok", "the name is free there");
    assert_eq!(code(&run(&sub, SEMANTIC)), "CAL-E088");
    // An unconfined interpreter has its own registry too.
    assert_eq!(code(&run(&f.interp, USE)), "CAL-E085");
    let listed = run(&team, "DESCRIBE templates").json;
    assert_eq!(listed["templates"], serde_json::json!(["semantic_sml"]));
}

#[test]
fn capabilities_report_templates_and_auto_toon() {
    let f = fixture();
    let c = f.run("DESCRIBE capabilities");
    assert_eq!(c["capabilities"]["templates"], true);
    assert_eq!(c["capabilities"]["auto_toon_enabled"], false);
    let full = c["capabilities"]["levels"]["full"]["implemented"].to_string();
    assert!(full.contains("DEFINE TEMPLATE"), "{c}");
}

#[test]
fn definition_time_validation_without_the_checker() {
    // The interpreter is handed parsed (unchecked) queries here: it validates on its own.
    let f = fixture();
    assert_eq!(f.fails("DEFINE TEMPLATE a ELEMENT { {{#grain.confidence}} x }"), "CAL-E091");
    assert_eq!(f.fails("DEFINE TEMPLATE b ELEMENT { {{&grain.content}} }"), "CAL-E094");
    assert_eq!(f.fails("DEFINE TEMPLATE c ELEMENT { {{grain.secret}} }"), "CAL-E090");
    assert_eq!(f.fails("DEFINE TEMPLATE d EXTENDS data ELEMENT { x }"), "CAL-E086");
    assert_eq!(f.fails("DEFINE TEMPLATE e EXTENDS sml ELEMENT { x }"), "CAL-E087");
    assert_eq!(f.fails("DEFINE TEMPLATE g EXTENDS semantic_sml ELEMENT { x }"), "CAL-E087");
    assert_eq!(f.fails("DEFINE TEMPLATE h ELEMENT { x } ELEMENT { y }"), "CAL-E095");
    let deep = "{{#grain.is_full}}".repeat(6) + &"{{/grain.is_full}}".repeat(6);
    assert_eq!(f.fails(&format!("DEFINE TEMPLATE i ELEMENT {{ {deep} }}")), "CAL-E093");
    let big = "x".repeat(5000);
    assert_eq!(f.fails(&format!("DEFINE TEMPLATE j ELEMENT {{ {big} }}")), "CAL-E092");
    // The checker's rules, all of them: a name over 64 characters, and ELEMENT and
    // ELEMENT_SUMMARY both deciding summary-level grains (registered until issue 16).
    assert_eq!(f.fails(&format!("DEFINE TEMPLATE {} ELEMENT {{ x }}", "t".repeat(65))), "CAL-E016");
    let conflict = "DEFINE TEMPLATE k ELEMENT { {{^grain.is_summary}}x{{/grain.is_summary}} } ELEMENT_SUMMARY { y }";
    assert_eq!(f.fails(conflict), "CAL-E096");
    // Nothing was registered by the failures.
    assert_eq!(f.run("DESCRIBE templates")["templates"], serde_json::json!([]));
}

#[test]
fn an_unchecked_definition_gets_the_checkers_first_diagnostic() {
    let f = fixture();
    for text in [
        "DEFINE TEMPLATE a ELEMENT { - {{grain.secret}} }",
        "DEFINE TEMPLATE b EXTENDS sml ELEMENT { x }",
        "DEFINE TEMPLATE c EXTENDS nothing_like_it ELEMENT { x }",
        "DEFINE TEMPLATE d ELEMENT { {{#grain.confidence}} x } FOOTER { {{>p}} }",
    ] {
        let q = cal_parser::parse_query(text).into_result().unwrap_or_else(|d| panic!("{text}: {d:?}"));
        let checked = cal_checker::check(&q, None);
        let got = f.response(text, &opts()).error.unwrap_or_else(|| panic!("{text}: accepted"));
        assert_eq!(Some(&got), checked.first(), "{text}");
    }
}

#[test]
fn registry_codes() {
    // The per-namespace registry (formerly `cal_render::TemplateRegistry`): CAL-E085, E088, E089.
    let defined = |name: &str| {
        let text = format!("DEFINE TEMPLATE {name} ELEMENT {{ - {{{{grain.content}}}} }}");
        let q = cal_parser::parse_query(&text).into_result().unwrap_or_else(|d| panic!("{text}: {d:?}"));
        let cal_parser::ast::QueryBody::DefineTemplate(d) = q.body else { panic!("{text}") };
        cal_checker::validate_definition(&d).unwrap_or_else(|e| panic!("{text}: {e:?}"))
    };
    let reg = cal_interp::Templates::default();
    assert!(reg.names(None).is_empty());
    assert_eq!(reg.get(None, "nope").unwrap_err().code, Code::E085);
    assert_eq!(reg.define(None, defined("a")), Ok(1));
    assert_eq!(reg.define(None, defined("a")).unwrap_err().code, Code::E088);
    for i in 1..50 {
        assert_eq!(reg.define(None, defined(&format!("t{i:02}"))), Ok(i + 1));
    }
    assert_eq!(reg.define(None, defined("z")).unwrap_err().code, Code::E089);
    assert_eq!(reg.names(None).first().map(String::as_str), Some("a"));
    assert_eq!(reg.names(None).len(), 50);
    assert!(reg.get(None, "t49").is_ok());
    // Another namespace is another registry.
    assert_eq!(reg.get(Some("team"), "a").unwrap_err().code, Code::E085);
    assert_eq!(reg.define(Some("team"), defined("a")), Ok(1));
}

#[test]
fn inline_template_errors_at_render_time() {
    let f = fixture();
    let q = |body: &str| {
        format!("ASSEMBLE c FROM a: (RECALL beliefs ABOUT \"alice\") FORMAT TEMPLATE {{ ELEMENT {{ {body} }} }}")
    };
    assert_eq!(f.fails(&q("{{#grain.confidence}} open")), "CAL-E091");
    assert_eq!(f.fails(&q("{{/grain.confidence}}")), "CAL-E091");
    assert_eq!(f.fails(&q("{{>partial}}")), "CAL-E094");
    let deep = "{{#grain.is_full}}".repeat(6) + &"{{/grain.is_full}}".repeat(6);
    assert_eq!(f.fails(&q(&deep)), "CAL-E093");
    // Reported where the checker reports it: at the tag, not at the whole FORMAT clause.
    let unopened = q("ok {{/grain.confidence}}");
    let span = f.response(&unopened, &opts()).error.map(|d| d.span).unwrap_or_default();
    assert_eq!(&unopened[span.start as usize..span.end as usize], "{{/grain.confidence}}");
    // An undefined variable renders as the empty string (§10.8), not an error.
    let r = f.run(&q("[{{grain.type}}]{{grain.nothing}}"));
    assert!(text(&r).contains("[belief]"), "{r}");
}

#[test]
fn a_checked_document_defines_then_uses() {
    // What `cal run -f file.cal` does: check the whole document, then run its queries in order
    // on one interpreter.
    let f = fixture();
    let source = format!("{SEMANTIC};\n{USE};\nDESCRIBE templates");
    let analysis = cal_checker::analyze(&source, None);
    assert!(!analysis.has_errors(), "{:?}", analysis.diagnostics);
    let doc = analysis.document.unwrap_or_else(|| panic!("no document"));
    let responses: Vec<cal_interp::Response> = doc.queries.iter().map(|q| f.interp.execute(q, &opts())).collect();
    assert!(
        responses.iter().all(|r| r.error.is_none()),
        "{:?}",
        responses.iter().map(|r| &r.error).collect::<Vec<_>>()
    );
    assert!(text(&responses[1].json).starts_with("<context intent=\"helping alice with her project\">"));
    assert_eq!(responses[2].json["templates"], serde_json::json!(["semantic_sml"]));
}
