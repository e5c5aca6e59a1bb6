//! §10.6: all ten grain types in SML, and templates (inline, EXTENDS, sections, caps).

use cal_grammar::{FormatName, TemplateSectionKind as K};
use cal_parser::template::Template;
use cal_render::{AssembleRequest, Budget, BudgetUnit, GrainInput, Output, ProjectionOptions, SourceInput, assemble};
use serde_json::{Value, json};

const NOW: i64 = 1_773_565_200_000;
const MIN: i64 = 60_000;

fn g(v: Value) -> GrainInput {
    cal_interp::fields::grain_input_from_json(&v, 1.0, "sha256:00").expect("a grain")
}

fn template(extends: Option<FormatName>, sections: &[(K, &str)]) -> Template {
    Template::parse(extends, sections.iter().copied()).unwrap_or_else(|e| panic!("{sections:?}: {e:?}"))
}

fn ten() -> Vec<GrainInput> {
    vec![
        g(
            json!({"type":"belief","subject":"alice","relation":"mg:prefers","object":"dark mode in all tools","confidence":0.95}),
        ),
        g(
            json!({"type":"goal","subject":"alice","object":"complete Q1 engineering review presentation","goal_state":"active","deadline":1_773_532_800_000_i64}),
        ),
        g(
            json!({"type":"event","role":"user","content":"Can you help me pull together the Q1 metrics?","created_at":NOW - 10 * MIN}),
        ),
        g(
            json!({"type":"action","tool_name":"query_metrics","action_phase":"completed","object":"retrieved 47 deployments and 3 P0 incidents for Q1 2026"}),
        ),
        g(
            json!({"type":"observation","observer_id":"system","observer_type":"system","object":"alice opened incident-dashboard at 09:14 UTC"}),
        ),
        g(
            json!({"type":"reasoning","inference_method":"deductive","conclusion":"alice is prioritising reliability given 3 P0 incidents; lead with incident reduction narrative"}),
        ),
        g(
            json!({"type":"state","context":{"id":"q1_review_prep"},"plan":"outlining slides: 1. headline metrics 2. incident retrospective 3. velocity trend 4. Q2 goals"}),
        ),
        g(
            json!({"type":"workflow","trigger":"review_prep_requested","steps":["retrieve Q1 metrics","identify narrative arc","draft slide outline","populate data","send for review by 2026-03-14"]}),
        ),
        g(
            json!({"type":"consensus","threshold":3,"agreement_count":4,"object":"Q1 deployment frequency improved 18% over Q4 2025",
                   "participating_observers":["did:a","did:b","did:c","did:d"]}),
        ),
        g(
            json!({"type":"consent","is_withdrawal":false,"subject_did":"alice","grantee_did":"agent","purpose":"access engineering metrics dashboards for review preparation"}),
        ),
    ]
}

fn req(output: Output) -> AssembleRequest {
    AssembleRequest {
        name: "agent_context".into(),
        intent: Some("helping alice prepare her Q1 engineering review".into()),
        sources: vec![SourceInput { label: "all".into(), grains: ten() }],
        budget: Budget::new(4000, BudgetUnit::Tokens),
        output,
        projection: ProjectionOptions { now_ms: NOW, ..Default::default() },
    }
}

#[test]
fn section_10_6_all_ten_types() {
    let out = assemble(&req(Output::Format(FormatName::Structured)));
    assert_eq!(
        out.text,
        r#"<context intent="helping alice prepare her Q1 engineering review">
<belief subject="alice" confidence="0.95">prefers dark mode in all tools</belief>
<goal subject="alice" state="active" deadline="2026-03-15">complete Q1 engineering review presentation</goal>
<event role="user" time="10m ago">Can you help me pull together the Q1 metrics?</event>
<action tool="query_metrics" phase="completed">retrieved 47 deployments and 3 P0 incidents for Q1 2026</action>
<observation observer="system">alice opened incident-dashboard at 09:14 UTC</observation>
<reasoning type="deductive">alice is prioritising reliability given 3 P0 incidents; lead with incident reduction narrative</reasoning>
<state context="q1_review_prep">outlining slides: 1. headline metrics 2. incident retrospective 3. velocity trend 4. Q2 goals</state>
<workflow trigger="review_prep_requested">1. retrieve Q1 metrics 2. identify narrative arc 3. draft slide outline 4. populate data 5. send for review by 2026-03-14</workflow>
<consensus threshold="0.75" count="4">Q1 deployment frequency improved 18% over Q4 2025</consensus>
<consent action="granted" grantor="alice" grantee="agent">access engineering metrics dashboards for review preparation</consent>
</context>"#
    );
}

#[test]
fn sml_escapes_attributes_and_text() {
    let mut r = req(Output::Format(FormatName::Sml));
    r.intent = Some("a \"quoted\" <intent> & more".into());
    r.sources[0].grains =
        vec![g(json!({"type":"belief","subject":"x\"><evil","relation":"mg:knows","object":"</context>"}))];
    let t = assemble(&r).text;
    assert_eq!(t.matches("<context").count(), 1);
    assert_eq!(t.matches("</context>").count(), 1);
    assert!(t.contains("intent=\"a &quot;quoted&quot; &lt;intent&gt; &amp; more\""));
    assert!(t.contains("&lt;/context&gt;"));
}

#[test]
fn inline_template_and_extends() {
    let inline = template(
        None,
        &[(
            K::Element,
            "\n- [{{grain.type}}] {{grain.content}}{{#grain.confidence}} ({{grain.confidence}}){{/grain.confidence}}\n",
        )],
    );
    let out = assemble(&req(Output::Template(inline)));
    let lines: Vec<&str> = out.text.lines().collect();
    assert_eq!(lines[0], "## Context: helping alice prepare her Q1 engineering review"); // inherited from readable
    assert!(lines.contains(&"- [belief] prefers dark mode in all tools (0.95)"));
    assert!(lines.contains(&"- [goal] complete Q1 engineering review presentation"));

    let semantic = template(
        Some(FormatName::Structured),
        &[
            (
                K::Element,
                r#"<{{grain.type}} subject="{{grain.subject}}"{{#grain.confidence}} confidence="{{grain.confidence}}"{{/grain.confidence}}>{{grain.content}}</{{grain.type}}>"#,
            ),
            (K::Footer, "{{! closing }}</context>{{^grain.is_full}}{{/grain.is_full}}"),
        ],
    );
    let t = assemble(&req(Output::Template(semantic))).text;
    assert!(t.starts_with("<context intent=\"helping alice prepare her Q1 engineering review\">\n"));
    assert!(t.contains("<belief subject=\"alice\" confidence=\"0.95\">prefers dark mode in all tools</belief>"));
    assert!(t.ends_with("</context>"));
}

#[test]
fn each_is_capped_and_output_is_bounded() {
    let each = template(
        Some(FormatName::Compact),
        &[(K::Header, "{{#each}}x{{/each}}"), (K::Element, "{{^grain.is_summary}}{{/grain.is_summary}}")],
    );
    let mut r = req(Output::Template(each));
    r.sources[0].grains =
        (0..300).map(|i| g(json!({"type":"event","role":"user","content":format!("m{i}")}))).collect();
    r.budget = Budget::new(16000, BudgetUnit::Tokens);
    assert_eq!(assemble(&r).text, "x".repeat(200));
    r.budget = Budget::new(50, BudgetUnit::Tokens);
    assert!(assemble(&r).text.chars().count() <= 100);
}
