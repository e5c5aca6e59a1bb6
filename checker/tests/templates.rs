//! The define-time rules of templates have one owner: `validate_definition` (what the
//! interpreter calls when it executes a DEFINE TEMPLATE) gives exactly the diagnostics
//! `check` gives, and `inline_template` (what it calls for `FORMAT TEMPLATE { … }`) rejects
//! only what cannot be rendered, with the checker's own diagnostic.

use cal_checker::{check, inline_template, validate_definition};
use cal_grammar::{Code, Diagnostic, FormatName, TemplateSectionKind as K};
use cal_parser::ast::{DefineTemplate, FormatKind, QueryBody, Statement, TemplateBody};
use std::path::Path;

fn query(text: &str) -> cal_parser::ast::Query {
    cal_parser::parse_query(text).into_result().unwrap_or_else(|d| panic!("{text}: {d:?}"))
}

fn definition(text: &str) -> DefineTemplate {
    match query(text).body {
        QueryBody::DefineTemplate(d) => d,
        other => panic!("{text}: not a DEFINE TEMPLATE: {other:?}"),
    }
}

fn inline_body(text: &str) -> TemplateBody {
    let q = query(text);
    let QueryBody::Statement(Statement::Assemble(a)) = q.body else { panic!("{text}: not an ASSEMBLE") };
    match a.format.map(|f| f.kind) {
        Some(FormatKind::Inline(body)) => body,
        other => panic!("{text}: no inline template: {other:?}"),
    }
}

fn code(text: &str) -> Code {
    let errors = validate_definition(&definition(text)).expect_err(text);
    errors.first().map(|d| d.code).unwrap_or_else(|| panic!("{text}: no diagnostic"))
}

#[test]
fn every_corpus_definition_gets_the_checkers_verdict() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut seen = 0;
    for dir in ["ok", "err"] {
        let mut files: Vec<_> =
            std::fs::read_dir(root.join(dir)).unwrap_or_else(|e| panic!("{dir}: {e}")).flatten().collect();
        files.sort_by_key(|f| f.path());
        for f in files {
            let src = std::fs::read_to_string(f.path()).unwrap_or_default();
            let Some(doc) = cal_parser::parse_document(&src).ast else { continue };
            for q in &doc.queries {
                let QueryBody::DefineTemplate(d) = &q.body else { continue };
                seen += 1;
                let checked: Vec<Diagnostic> = check(q, None).into_iter().filter(Diagnostic::is_error).collect();
                match validate_definition(d) {
                    Ok(t) => {
                        assert!(checked.is_empty(), "{}: checked {checked:?}", f.path().display());
                        assert_eq!(t.name(), d.name.name.as_str());
                    }
                    Err(errors) => assert_eq!(errors, checked, "{}", f.path().display()),
                }
            }
        }
    }
    assert!(seen >= 20, "only {seen} DEFINE TEMPLATE cases in the corpus");
}

#[test]
fn definition_time_error_codes() {
    // Formerly `TemplateDef::validate` in cal-render, a second copy of these rules.
    let ok = validate_definition(&definition("DEFINE TEMPLATE t EXTENDS structured ELEMENT { {{grain.content}} }"))
        .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(ok.template().parent(), FormatName::Structured);
    assert!(ok.template().section(K::Element).is_some());
    assert_eq!(code("DEFINE TEMPLATE t EXTENDS data ELEMENT { x }"), Code::E086);
    assert_eq!(code("DEFINE TEMPLATE t EXTENDS json ELEMENT { x }"), Code::E086);
    assert_eq!(code("DEFINE TEMPLATE t EXTENDS sml ELEMENT { x }"), Code::E087);
    assert_eq!(code("DEFINE TEMPLATE t EXTENDS my_other ELEMENT { x }"), Code::E087);
    assert_eq!(code("DEFINE TEMPLATE t ELEMENT { {{grain.secret}} }"), Code::E090);
    assert_eq!(code("DEFINE TEMPLATE t ELEMENT { {{#grain.secret}}x{{/grain.secret}} }"), Code::E090);
    assert_eq!(code("DEFINE TEMPLATE t ELEMENT { {{#each}} }"), Code::E091);
    assert_eq!(code(&format!("DEFINE TEMPLATE t ELEMENT {{ {} }}", "x".repeat(4097))), Code::E092);
    let deep = "{{#each}}".repeat(6) + &"{{/each}}".repeat(6);
    assert_eq!(code(&format!("DEFINE TEMPLATE t ELEMENT {{ {deep} }}")), Code::E093);
    assert_eq!(code("DEFINE TEMPLATE t ELEMENT { {{>p}} }"), Code::E094);
    assert_eq!(code("DEFINE TEMPLATE t FOOTER { a } FOOTER { b }"), Code::E095);
    assert_eq!(
        code("DEFINE TEMPLATE t ELEMENT { {{#grain.is_summary}}s{{/grain.is_summary}} } ELEMENT_SUMMARY { x }"),
        Code::E096
    );
    assert_eq!(code(&format!("DEFINE TEMPLATE {} ELEMENT {{ x }}", "t".repeat(65))), Code::E016);
}

#[test]
fn inline_bodies_are_rejected_only_when_they_cannot_render() {
    let inline = |body: &str| {
        let text = format!("ASSEMBLE c FROM a: (RECALL beliefs) FORMAT TEMPLATE {{ {body} }}");
        inline_template(&inline_body(&text)).map(|_| ()).map_err(|d| d.code)
    };
    // Structure: the checker's own diagnostic, pointing into the section.
    for (body, want, at) in [
        ("ELEMENT { {{#grain.confidence}} open }", Code::E091, "{{#grain.confidence}}"),
        ("HEADER { ok } ELEMENT { {{/grain.confidence}} }", Code::E091, "{{/grain.confidence}}"),
        ("ELEMENT { {{>partial}} }", Code::E094, "{{>partial}}"),
    ] {
        let text = format!("ASSEMBLE c FROM a: (RECALL beliefs) FORMAT TEMPLATE {{ {body} }}");
        let d = inline_template(&inline_body(&text)).expect_err(body);
        assert_eq!(d.code, want, "{body}");
        assert_eq!(&text[d.span.start as usize..d.span.end as usize], at, "{body}");
        let checked = check(&query(&text), None);
        assert!(checked.contains(&d), "{body}: {checked:?}");
    }
    let deep = "{{#grain.is_full}}".repeat(6) + &"{{/grain.is_full}}".repeat(6);
    assert_eq!(inline(&format!("ELEMENT {{ {deep} }}")), Err(Code::E093));
    // A variable outside the set renders as the empty string at execution (§10.8), a
    // duplicated section is the checker's to report: both still render.
    assert_eq!(inline("ELEMENT { [{{grain.type}}]{{grain.nothing}} }"), Ok(()));
    assert_eq!(inline("FOOTER { a } FOOTER { b }"), Ok(()));
}
