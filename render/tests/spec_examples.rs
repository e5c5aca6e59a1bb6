//! The spec's own output examples (§14.2, §10.6, §10.9) rendered from fixture grains that
//! match them, plus ASSEMBLE budget invariants.

use cal_grammar::FormatName;
use cal_render::{
    AssembleRequest, Budget, BudgetUnit, Disclosure, GrainInput, Output, ProjectionOptions, SourceInput, assemble,
    render_recall, tokens,
};
use serde_json::{Value, json};

mod common;

const NOW: i64 = 1_773_565_200_000; // 2026-03-15T09:00:00Z
const MIN: i64 = 60_000;

fn g(v: Value) -> GrainInput {
    cal_interp::fields::grain_input_from_json(&v, 1.0, "sha256:00").expect("a grain")
}

fn belief(obj: &str, rel: &str, c: f64) -> GrainInput {
    g(json!({"type": "belief", "subject": "alice", "relation": rel, "object": obj, "confidence": c,
             "namespace": "ns", "created_at": NOW - 5 * MIN}))
}

fn goal(obj: &str, deadline: Option<i64>) -> GrainInput {
    let mut v = json!({"type": "goal", "subject": "alice", "object": obj, "goal_state": "active"});
    if let Some(d) = deadline {
        v["deadline"] = json!(d);
    }
    g(v)
}

fn event(role: &str, content: &str, ago_min: i64) -> GrainInput {
    g(json!({"type": "event", "role": role, "content": content, "created_at": NOW - ago_min * MIN}))
}

fn opts() -> ProjectionOptions {
    ProjectionOptions { now_ms: NOW, ..Default::default() }
}

fn section_14_2() -> AssembleRequest {
    AssembleRequest {
        name: "ctx".into(),
        intent: Some("helping alice with project".into()),
        sources: vec![
            SourceInput {
                label: "beliefs".into(),
                grains: vec![
                    belief("dark mode", "mg:prefers", 0.92),
                    belief("keyboard shortcuts", "mg:requires", 0.88),
                ],
            },
            SourceInput { label: "goals".into(), grains: vec![goal("complete Q1 review", None)] },
        ],
        budget: Budget::default_tokens(),
        output: Output::Format(FormatName::Sml),
        projection: opts(),
    }
}

#[test]
fn section_14_2_sml_markdown_compact() {
    let mut req = section_14_2();
    assert_eq!(
        assemble(&req).text,
        "<context intent=\"helping alice with project\">\n\
         <belief subject=\"alice\" confidence=\"0.92\">prefers dark mode</belief>\n\
         <belief subject=\"alice\" confidence=\"0.88\">requires keyboard shortcuts</belief>\n\
         <goal subject=\"alice\" state=\"active\">complete Q1 review</goal>\n\
         </context>"
    );
    req.output = Output::Format(FormatName::Readable);
    assert_eq!(
        assemble(&req).text,
        "## Context: helping alice with project\n\n\
         **Beliefs**\n\
         - alice prefers dark mode (confidence: 0.92)\n\
         - alice requires keyboard shortcuts (confidence: 0.88)\n\n\
         **Goals**\n\
         - alice: complete Q1 review (active)"
    );
    req.output = Output::Format(FormatName::Compact);
    assert_eq!(
        assemble(&req).text,
        "[belief] alice prefers dark mode (0.92)\n\
         [belief] alice requires keyboard shortcuts (0.88)\n\
         [goal] alice: complete Q1 review (active)"
    );
}

#[test]
fn section_10_9_toon_recall_examples() {
    let beliefs = [
        belief("dark mode", "mg:prefers", 0.95),
        belief("vim", "mg:prefers", 0.90),
        belief("in deep-focus blocks of 90 minutes", "mg:works_best", 0.82),
    ];
    let (text, n) = render_recall(&beliefs, FormatName::Toon, &opts());
    assert_eq!(
        text,
        rows_under_header(
            "beliefs[3]{subject,content,confidence}:\n\
             alice,prefers dark mode,0.95\n\
             alice,prefers vim,0.9\n\
             alice,works best in deep-focus blocks of 90 minutes,0.82"
        )
    );
    assert_eq!(n, tokens::count(&text));
    let events = [
        event("user", "Can you help me pull together the Q1 metrics?", 10),
        event("assistant", "Sure — retrieving deployment counts and incident data.", 10),
        event("user", "Focus on the reliability numbers first.", 8),
    ];
    assert_eq!(
        render_recall(&events, FormatName::Toon, &opts()).0,
        rows_under_header(
            "events[3]{role,time,content}:\n\
             user,10m ago,Can you help me pull together the Q1 metrics?\n\
             assistant,10m ago,Sure — retrieving deployment counts and incident data.\n\
             user,8m ago,Focus on the reliability numbers first."
        )
    );
}

/// A §10.9.3 / §10.9.6 RECALL example as TOON v3 decodes it: the spec's text with every row
/// indented two spaces under its header. The spec prints the rows at depth 0, which TOON v3
/// decoders reject (erratum, docs/spec-decisions-render.md "TOON rows"); this is the only
/// change.
fn rows_under_header(spec: &str) -> String {
    let mut lines = spec.lines();
    let header = lines.next().unwrap_or_default().to_string();
    std::iter::once(header).chain(lines.map(|row| format!("  {row}"))).collect::<Vec<_>>().join("\n")
}

#[test]
fn section_10_9_4_toon_assemble_shape() {
    let req = AssembleRequest {
        name: "agent_context".into(),
        intent: Some("helping alice prepare her Q1 engineering review".into()),
        sources: vec![
            SourceInput {
                label: "beliefs".into(),
                grains: vec![belief("dark mode", "mg:prefers", 0.95), belief("vim", "mg:prefers", 0.9)],
            },
            SourceInput {
                label: "goals".into(),
                grains: vec![
                    goal("complete Q1 engineering review", Some(1_773_532_800_000)),
                    goal("reduce P0 incident rate by 20% in Q2", None),
                ],
            },
        ],
        budget: Budget::new(2000, BudgetUnit::Tokens),
        output: Output::Format(FormatName::Toon),
        projection: opts(),
    };
    let out = assemble(&req);
    // §10.9.4 writes the missing deadline as `-`; TOON's own quoting rules (leading hyphen)
    // and its null literal make that `null` here (docs/spec-decisions-render.md).
    let expected = format!(
        "context: agent_context\nintent: helping alice prepare her Q1 engineering review\ntokens: {}/2000\n\
         beliefs[2]{{subject,content,confidence}}:\n  alice,prefers dark mode,0.95\n  alice,prefers vim,0.9\n\n\
         goals[2]{{subject,content,state,deadline}}:\n  alice,complete Q1 engineering review,active,2026-03-15\n  \
         alice,reduce P0 incident rate by 20% in Q2,active,null",
        out.tokens
    );
    assert_eq!(out.text, expected);
    assert_eq!(out.tokens, tokens::count(&out.text));
}

#[test]
fn budgets_are_never_exceeded_and_counts_are_exact() {
    let many: Vec<GrainInput> =
        (0..60).map(|i| belief(&format!("topic number {i} with some words"), "mg:knows", 0.5)).collect();
    let evs: Vec<GrainInput> = (0..60).map(|i| event("user", &format!("message {i} about the review"), i)).collect();
    for format in [FormatName::Sml, FormatName::Markdown, FormatName::Text, FormatName::Toon, FormatName::Json] {
        for budget in [60, 200, 500, 1500] {
            let req = AssembleRequest {
                name: "c".into(),
                intent: Some("x".into()),
                sources: vec![
                    SourceInput { label: "beliefs".into(), grains: many.clone() },
                    SourceInput { label: "events".into(), grains: evs.clone() },
                ],
                budget: Budget::new(budget, BudgetUnit::Tokens),
                output: Output::Format(format),
                projection: ProjectionOptions { disclosure: Disclosure::Standard, ..opts() },
            };
            let out = assemble(&req);
            assert!(out.tokens <= budget, "{format:?} {budget}: {}", out.tokens);
            assert_eq!(out.tokens, tokens::count(&out.text));
            assert!(out.sources.iter().all(|s| s.truncated == (s.grains < s.candidates)));
            if budget < 1500 {
                assert!(out.sources.iter().all(|s| s.truncated), "{format:?} {budget}");
            }
        }
    }
}

#[test]
fn grains_budget_splits_by_weight() {
    let many: Vec<GrainInput> = (0..60).map(|i| belief(&format!("t{i}"), "mg:knows", 0.5)).collect();
    let req = AssembleRequest {
        name: "c".into(),
        intent: None,
        sources: vec![
            SourceInput { label: "a".into(), grains: many.clone() },
            SourceInput { label: "b".into(), grains: many.clone() },
            SourceInput { label: "c".into(), grains: many[..2].to_vec() },
        ],
        budget: Budget::new(20, BudgetUnit::Grains),
        output: Output::Format(FormatName::Text),
        projection: opts(),
    };
    let out = assemble(&req);
    let got: Vec<usize> = out.sources.iter().map(|s| s.grains).collect();
    // 10/6/4 by weight; c uses 2, its surplus of 2 goes to a and b by weight.
    assert_eq!(got.iter().sum::<usize>(), 20);
    assert_eq!(got[2], 2);
    assert!(got[0] >= 10 && got[1] >= 6);
}

fn healthcare(object: &str, patient: &str, encounter: &str) -> GrainInput {
    g(json!({"type": "observation", "observer_id": "dr-smith", "observer_type": "human", "object": object,
             "hc:patient_id": patient, "hc:encounter_id": encounter, "structural_tags": ["profile:healthcare"]}))
}

#[test]
fn section_10_3_5_and_10_9_6_project() {
    use cal_render::Project;
    let grains = [
        healthcare("elevated heart rate detected", "P-1234", "E-567"),
        healthcare("blood pressure within normal range", "P-1235", "E-568"),
    ];
    // §10.3.5: PROJECT content(object), attr(observer, hc:patient_id, hc:encounter_id) AS sml
    // (the spec breaks the element over three lines for reading; SML writes one line per grain).
    let project = Project {
        content: vec!["object".into()],
        attrs: vec!["observer".into(), "hc:patient_id".into(), "hc:encounter_id".into()],
    };
    let o = ProjectionOptions { project: Some(project), ..opts() };
    let (sml, _) = render_recall(&grains[..1], FormatName::Sml, &o);
    assert_eq!(
        sml,
        "<context>\n<observation observer=\"dr-smith\" hc:patient_id=\"P-1234\" hc:encounter_id=\"E-567\">\
         elevated heart rate detected</observation>\n</context>"
    );
    // §10.9.6: the projected fields are the TOON columns. Keys that are not identifiers are
    // quoted so that TOON decoders read them (docs/spec-decisions-render.md); the rows are
    // the spec's, indented under the header.
    let project =
        Project { content: vec!["object".into()], attrs: vec!["hc:patient_id".into(), "hc:encounter_id".into()] };
    let o = ProjectionOptions { project: Some(project), ..opts() };
    assert_eq!(
        render_recall(&grains, FormatName::Toon, &o).0,
        rows_under_header(
            "observations[2]{content,\"hc:patient_id\",\"hc:encounter_id\"}:\n\
             elevated heart rate detected,P-1234,E-567\n\
             blood pressure within normal range,P-1235,E-568"
        )
    );
}

/// Every TOON text this file renders — §10.9.3's two RECALL examples, §10.9.4's ASSEMBLE,
/// §10.9.6's PROJECT, the budget sweep's truncated ASSEMBLEs — read as is by the official
/// decoder (`@toon-format/toon`, strict).
#[test]
#[cfg_attr(not(toon_node), ignore = "needs node and `npm ci --prefix render/tests/toon-decode`")]
fn every_toon_example_decodes_as_is() {
    let beliefs = [belief("dark mode", "mg:prefers", 0.95), belief("vim", "mg:prefers", 0.90)];
    let events = [event("user", "Can you help me pull together the Q1 metrics?", 10)];
    let observations = [healthcare("elevated heart rate detected", "P-1234", "E-567")];
    let project = cal_render::Project {
        content: vec!["object".into()],
        attrs: vec!["hc:patient_id".into(), "hc:encounter_id".into()],
    };
    let projected = ProjectionOptions { project: Some(project), ..opts() };
    let mut texts = vec![
        render_recall(&beliefs, FormatName::Toon, &opts()).0,
        render_recall(&events, FormatName::Toon, &opts()).0,
        render_recall(&observations, FormatName::Toon, &projected).0,
    ];
    let many: Vec<GrainInput> = (0..30).map(|i| belief(&format!("topic {i}, with a comma"), "mg:knows", 0.5)).collect();
    for budget in [60, 200, 500, 1500] {
        let req = AssembleRequest {
            name: "agent_context".into(),
            intent: Some("helping alice".into()),
            sources: vec![
                SourceInput { label: "beliefs".into(), grains: many.clone() },
                SourceInput { label: "goals".into(), grains: vec![goal("complete Q1 engineering review", None)] },
            ],
            budget: Budget::new(budget, BudgetUnit::Tokens),
            output: Output::Format(FormatName::Toon),
            projection: opts(),
        };
        texts.push(assemble(&req).text);
    }
    let decoded = common::toon_decode(&texts);
    for (text, r) in texts.iter().zip(&decoded) {
        assert!(r.is_ok(), "the official decoder rejects\n{text}\n{r:?}");
    }
    assert_eq!(decoded[0].as_ref().ok().map(|v| v["beliefs"][1]["content"].clone()), Some(json!("prefers vim")));
    assert_eq!(decoded[2].as_ref().ok().map(|v| v["observations"][0]["hc:patient_id"].clone()), Some(json!("P-1234")));
}
