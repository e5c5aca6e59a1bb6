//! One CAL view of a grain: WHERE, SELECT, the JSON `projected` member and
//! every output format read a field through grammar's binding, so converted
//! values and defaults are the same everywhere. Before the view had one owner,
//! formatted output showed a consensus `threshold` as the stored count (3)
//! while WHERE used the ratio (0.75), and an action without `action_phase`
//! showed no phase while `action_phase = "complete"` matched it.

mod common;

use cal_grammar::FormatName;
use common::fixture;

const FORMATS: [FormatName; 7] = [
    FormatName::Sml,
    FormatName::Markdown,
    FormatName::Json,
    FormatName::Yaml,
    FormatName::Toon,
    FormatName::Triples,
    FormatName::Text,
];

/// The formatted text of a RECALL in `format`.
fn formatted(query: &str, format: FormatName) -> String {
    let f = fixture();
    let j = f.run(&format!("{query} AS {}", format.as_str()));
    j["formatted"].as_str().unwrap_or_else(|| panic!("{query} AS {}: no formatted text: {j}", format.as_str())).into()
}

#[test]
fn the_threshold_ratio_is_the_same_in_where_select_and_every_format() {
    let f = fixture();
    assert_eq!(f.keys(r#"RECALL consensuses WHERE threshold = 0.75"#), ["c-deploys"]);
    let selected = f.run(r#"RECALL consensuses WHERE threshold = 0.75 | SELECT threshold"#);
    assert_eq!(selected["results"][0]["grain"]["threshold"], 0.75);
    for format in FORMATS {
        if format == FormatName::Triples {
            continue; // triples carry subject, relation and object only
        }
        let text = formatted(r#"RECALL consensuses WHERE threshold = 0.75 WITH progressive_disclosure(full)"#, format);
        assert!(text.contains("0.75"), "{}: the ratio is missing:\n{text}", format.as_str());
        assert!(!text.contains("threshold: 3") && !text.contains("threshold=\"3\""), "{}: {text}", format.as_str());
    }
}

#[test]
fn an_action_without_a_phase_is_complete_in_where_select_and_every_format() {
    let f = fixture();
    let matched = f.set(r#"RECALL actions WHERE action_phase = "complete""#);
    assert!(matched.contains(&"a-docs".to_string()), "{matched:?}");
    let selected = f.run(r#"RECALL actions WHERE tool_name = "search_docs" | SELECT action_phase"#);
    assert_eq!(selected["results"][0]["grain"]["action_phase"], "complete");
    for format in FORMATS {
        if format == FormatName::Triples {
            continue;
        }
        let text = formatted(r#"RECALL actions WHERE tool_name = "search_docs""#, format);
        assert!(text.contains("complete"), "{}: the default phase is missing:\n{text}", format.as_str());
    }
}

#[test]
fn project_in_json_reads_the_same_view() {
    let f = fixture();
    let j = f.run(r#"RECALL consensuses WHERE threshold = 0.75 | PROJECT content(object), attr(threshold)"#);
    let p = &j["results"][0]["projected"];
    assert_eq!(p["content"], "deploys improved");
    assert_eq!(p["attrs"]["threshold"], 0.75);
}
