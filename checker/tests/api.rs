//! The public API: one pass reports every independent mistake in source order;
//! `check`, `check_document` and `analyze` agree; parameter bindings built from
//! a list report duplicates; and no input makes the checker panic.

mod common;

use cal_checker::{Params, analyze, check, check_document};
use cal_grammar::{Code, Span};
use cal_parser::ast::*;
use serde_json::json;

fn codes(text: &str, params: Option<&Params>) -> Vec<Code> {
    analyze(text, params).diagnostics.iter().map(|d| d.code).collect()
}

#[test]
fn several_independent_mistakes_are_all_reported_in_source_order() {
    let text = r#"RECALL goals WHERE subjct = "alice" AND goal_state = "done" AND confidence >= 80
        AND tool_name = "x" AND relation = "mg:prefer" WITH x_fast | ORDER BY user_id | LIMIT 5000 RECENT 3"#;
    let a = analyze(text, None);
    let got: Vec<Code> = a.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(
        got,
        [
            Code::E004, // subjct
            Code::E063, // "done"
            Code::E020, // 80
            Code::E060, // tool_name on goals
            Code::W001, // mg:prefer
            Code::W004, // x_fast
            Code::E021, // ORDER BY user_id
            Code::E010, // LIMIT 5000
            Code::E060, // LIMIT + RECENT
            Code::E060, // ORDER BY + RECENT
        ],
        "{:#?}",
        a.diagnostics
    );
    let starts: Vec<u32> = a.diagnostics.iter().map(|d| d.span.start).collect();
    assert!(starts.windows(2).all(|w| w[0] <= w[1]), "{starts:?}");
}

#[test]
fn check_check_document_and_analyze_agree() {
    let text = "RECALL beliefs WHERE subjct = \"a\"; ADD event SET subject = \"s\" REASON \"r\"";
    let doc = cal_parser::parse_document(text).ast.unwrap();
    let by_query: Vec<_> = doc.queries.iter().flat_map(|q| check(q, None)).collect();
    let by_doc = check_document(&doc, None);
    assert_eq!(by_query, by_doc);
    let analyzed: Vec<_> = analyze(text, None).diagnostics.into_iter().map(|d| (d.code, d.span)).collect();
    assert_eq!(by_doc.iter().map(|d| (d.code, d.span)).collect::<Vec<_>>(), analyzed);
    // analyze completes examples from replacements.
    let a = analyze("RECALL beliefs WHERE subjct = \"a\"", None);
    assert_eq!(a.diagnostics[0].example.as_deref(), Some("RECALL beliefs WHERE subject = \"a\""));
}

#[test]
fn bindings_from_a_list_report_duplicates_and_unbound_names() {
    let params = Params::from_args(["who=\"alice\"", "who=\"bob\"", "n=5"]).unwrap();
    assert_eq!(codes("RECALL WHERE subject = $who | LIMIT $n", Some(&params)), [Code::E009]);
    assert_eq!(codes("RECALL WHERE subject = $whom", Some(&params)), [Code::E009, Code::E008]);
    // Without bindings the same query is fine: only consistency is checked.
    assert!(codes("RECALL WHERE subject = $whom", None).is_empty());
    // The REST form: a JSON object.
    let rest = Params::from_json_object(json!({"c": 0.9, "tags": ["profile:healthcare"]}).as_object().unwrap());
    let q = "RECALL WHERE confidence >= $c AND tags INCLUDE $tags AND hc:patient_id = \"P\"";
    assert!(codes(q, Some(&rest)).is_empty());
    // Without bindings the profile tags are unknown, so W002 is not guessed.
    assert!(codes(q, None).is_empty());
    let bad = Params::from_pairs([("c", json!(9)), ("tags", json!("x"))]);
    assert_eq!(codes(q, Some(&bad)), [Code::E020, Code::E020]);
}

#[test]
fn too_many_parameters() {
    let q = |n: usize| {
        let ps: Vec<String> = (0..n).map(|i| format!("$p{i}")).collect();
        format!("RECALL WHERE subject IN ({})", ps.join(", "))
    };
    assert!(codes(&q(20), None).is_empty());
    assert_eq!(codes(&q(21), None), [Code::E009]);
}

/// A tiny deterministic generator, so that the robustness test needs no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn corpus_texts() -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in ["tests/corpus/ok", "tests/corpus/err", "../parser/tests/corpus/ok", "../parser/tests/corpus/err"] {
        if let Ok(entries) = std::fs::read_dir(root.join(dir)) {
            for e in entries.flatten() {
                if let Ok(t) = std::fs::read_to_string(e.path())
                    && t.len() < 3000
                {
                    out.push(t);
                }
            }
        }
    }
    out.sort();
    out
}

#[test]
fn no_panic_on_prefixes_and_mutations_of_the_corpus() {
    let texts = corpus_texts();
    let pieces = [
        "(", ")", "|", ",", ";", "$x", "RECALL", "WHERE", "IN", "{{#a}}", "}", "{", "\"", "LIMIT 0", "COUNT",
        "LET $a =",
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for t in &texts {
        let bounds: Vec<usize> = (0..=t.len()).filter(|i| t.is_char_boundary(*i)).step_by(7).collect();
        for &i in &bounds {
            let a = analyze(&t[..i], None);
            common::check_invariants("prefix", &t[..i], &a);
        }
        for _ in 0..8 {
            let at = bounds[(rng.next() % bounds.len() as u64) as usize];
            let piece = pieces[(rng.next() % pieces.len() as u64) as usize];
            let mutated = format!("{}{piece}{}", &t[..at], &t[at..]);
            let a = analyze(&mutated, Some(&Params::new()));
            common::check_invariants("mutation", &mutated, &a);
        }
    }
}

#[test]
fn no_panic_on_hand_built_trees() {
    let odd = Span { start: 50, end: 3 };
    let recall = Recall { span: odd, ..Recall::default() };
    let statements = vec![
        Statement::Recall(Box::new(recall.clone())),
        Statement::Coalesce(Coalesce { branches: vec![], span: odd }),
        Statement::Batch(Batch { entries: vec![], span: odd }),
        Statement::Assemble(Box::new(Assemble {
            name: Some(Ident { name: Default::default(), span: odd }),
            intent: None,
            sources: vec![],
            budget: Some(Budget { amount: IntLit { value: u64::MAX, span: odd }, unit: BudgetUnit::Tokens, span: odd }),
            priority: Some(Priority { labels: vec![Ident { name: "x".into(), span: odd }], span: odd }),
            format: Some(FormatSpec {
                kind: FormatKind::Inline(TemplateBody {
                    sections: vec![TemplateSection {
                        kind: TemplateSectionKind::Element,
                        text: "{{#a}}{{{{{{".into(),
                        text_span: odd,
                        span: odd,
                    }],
                    span: odd,
                }),
                span: odd,
            }),
            stream: None,
            with: None,
            span: odd,
        })),
        Statement::Supersede(Supersede {
            target: Target { kind: TargetKind::Param("t".into()), span: odd },
            sets: vec![],
            reason: None,
            span: odd,
        }),
        Statement::SetOp(SetOp {
            left: Box::new(Statement::Recall(Box::new(recall.clone()))),
            op: SetOperator::Union,
            op_span: odd,
            right: Box::new(Statement::Describe(Describe {
                target: DescribeTarget::Server,
                target_span: odd,
                grain_type: None,
                span: odd,
            })),
            span: odd,
        }),
    ];
    for s in statements {
        let q = Query { version: None, lets: vec![], body: QueryBody::Statement(s), span: odd };
        let _ = check(&q, None);
        let _ = check(&q, Some(&Params::new()));
    }
}

#[test]
fn duplicate_labels_are_reported_at_the_second_use_with_the_first_noted() {
    // ASSEMBLE sources and BATCH entries alike (conformance parse.err.e009.001).
    for (text, first, second) in [
        ("ASSEMBLE ctx FROM a: (RECALL beliefs), a: (RECALL goals)", 18, 39),
        ("BATCH { a: RECALL beliefs, a: RECALL goals }", 8, 27),
    ] {
        let a = analyze(text, None);
        assert_eq!(a.diagnostics.len(), 1, "{text}: {:#?}", a.diagnostics);
        let d = &a.diagnostics[0];
        assert_eq!((d.code, d.span), (Code::E009, Span::new(second, second + 1)), "{text}");
        assert_eq!(d.labels.iter().map(|l| l.span).collect::<Vec<_>>(), [Span::new(first, first + 1)], "{text}");
    }
}

/// Issue 19: a bidi override bound to a parameter used to pass the check that refuses it in a
/// literal (CAL-E071, §16.3); nested in an array too. A value without one passes.
#[test]
fn bound_values_pass_the_checks_literals_pass() {
    let q = "RECALL beliefs WHERE subject = $who AND tags INCLUDE $tags";
    let bidi = Params::from_json_object(json!({"who": "a\u{202e}b", "tags": ["x"]}).as_object().unwrap());
    assert_eq!(codes(q, Some(&bidi)), [Code::E071]);
    let nested = Params::from_json_object(json!({"who": "a", "tags": ["x\u{2066}"]}).as_object().unwrap());
    assert_eq!(codes(q, Some(&nested)), [Code::E071]);
    let clean = Params::from_json_object(json!({"who": "a", "tags": ["x"]}).as_object().unwrap());
    assert!(codes(q, Some(&clean)).is_empty());
}
