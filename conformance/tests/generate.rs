//! Generated variants and limit templates.

use cal_conformance::generate::{comments, keyword_case, whitespace};
use cal_conformance::limits::{boundary_cases, templates};
use cal_grammar::limits::LIMITS;

fn json_of(text: &str) -> serde_json::Value {
    let parsed = cal_parser::parse_document(text);
    assert!(!parsed.has_errors(), "{text}: {:?}", parsed.diagnostics);
    cal_parser::json::document_to_json(&parsed.ast.expect("a tree"))
}

#[test]
fn variants_change_the_text_but_not_the_json() {
    let q = "RECALL beliefs WHERE subject = \"RECALL alice\" AND confidence >= 0.8 RECENT 5 AS markdown";
    let expected = json_of(q);
    for variant in [keyword_case(q), whitespace(q), comments(q)] {
        let v = variant.expect("the query lexes cleanly");
        assert_ne!(v, q);
        assert_eq!(json_of(&v), expected, "{v}");
    }
    let cased = keyword_case(q).expect("variant");
    assert!(cased.starts_with("rEcAlL beliefs wHeRe"), "{cased}");
    assert!(cased.contains("\"RECALL alice\""), "string contents are untouched: {cased}");
    assert!(comments(q).expect("variant").contains("-- "));
}

#[test]
fn queries_with_template_text_or_lexical_errors_are_not_varied() {
    assert_eq!(whitespace("DEFINE TEMPLATE t ELEMENT { x  y }"), None);
    assert_eq!(keyword_case("RECALL \u{202E}beliefs"), None);
}

#[test]
fn every_template_names_a_limit_and_renders_its_boundary_pair() {
    let ts = templates().expect("templates/limits.json parses");
    assert!(ts.len() >= 20);
    let (cases, problems) = boundary_cases();
    assert!(problems.is_empty(), "{problems:#?}");
    assert_eq!(cases.len(), ts.len() * 2);
    for t in &ts {
        let info = LIMITS.iter().find(|l| l.name == t.limit).expect("a LIMITS row");
        let at = t.render(info.value as usize).expect("renders at the limit");
        if t.query.contains("{pad}") {
            assert_eq!(at.len(), info.value as usize + t.pad_extra, "{}", t.limit);
        }
    }
    // The values come from the grammar: MAX_IN_SET's "at" case has exactly MAX_IN_SET items.
    let at = cases.iter().find(|c| c.id == "gen.limit.max_in_set.at").expect("case");
    let cal_conformance::case::Body::Parse(p) = &at.body else { panic!("a parse case") };
    let text = String::from_utf8_lossy(p.query.bytes()).to_string();
    assert_eq!(text.matches(", ").count() + 1, cal_grammar::limits::MAX_IN_SET);
}

#[test]
fn declared_configurable_limits_move_their_boundary_pairs_and_others_do_not() {
    let mut declared = serde_json::Map::new();
    declared.insert("MAX_IN_SET".into(), serde_json::json!(50));
    declared.insert("MAX_QUERY_BYTES".into(), serde_json::json!(100));
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/cases");
    let mut corpus = cal_conformance::load_corpus(&dir);
    let before = corpus.cases.len();
    cal_conformance::adapt_limits(&mut corpus, &declared);
    assert_eq!(corpus.cases.len(), before, "pairs are replaced, not added");
    let text = |id: &str| {
        let case = corpus.cases.iter().find(|c| c.id == id).expect("case");
        let cal_conformance::case::Body::Parse(p) = &case.body else { panic!("a parse case") };
        String::from_utf8_lossy(p.query.bytes()).to_string()
    };
    assert_eq!(text("gen.limit.max_in_set.at").matches(", ").count() + 1, 50);
    assert_eq!(text("gen.limit.max_in_set.over").matches(", ").count() + 1, 51);
    assert_eq!(text("gen.limit.max_query_bytes.at").len(), cal_grammar::limits::MAX_QUERY_BYTES, "not configurable");
}
