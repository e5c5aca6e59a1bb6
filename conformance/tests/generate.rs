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

fn whole_corpus() -> Vec<cal_conformance::Case> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cases");
    let corpus = cal_conformance::load_corpus(&dir);
    assert!(corpus.errors.is_empty(), "{:#?}", corpus.errors);
    corpus.cases
}

/// §24 lists the JSON form under Extended: no Core case requires it, and every JSON form a
/// Core case used to pin is still checked, by an Extended `<id>.json-form` case
/// (docs/spec-decisions-conformance.md C15).
#[test]
fn no_core_case_pins_the_json_form() {
    use cal_conformance::case::{Body, ParseExpect};
    let cases = whole_corpus();
    let pins_json = |c: &cal_conformance::Case| matches!(&c.body, Body::Parse(p) if matches!(&p.expect, ParseExpect::Accept { json: Some(_), .. }));
    let core: Vec<&str> = cases
        .iter()
        .filter(|c| c.level == cal_conformance::Level::Core && pins_json(c))
        .map(|c| c.id.as_str())
        .collect();
    assert!(core.is_empty(), "{core:?}");
    let moved: Vec<&cal_conformance::Case> = cases.iter().filter(|c| c.id.ends_with(".json-form")).collect();
    assert!(moved.len() >= 180, "{} JSON forms moved", moved.len());
    for m in moved {
        assert_eq!(m.level, cal_conformance::Level::Extended);
        assert!(pins_json(m));
        let origin = m.id.strip_suffix(".json-form").expect("suffix");
        let core = cases.iter().find(|c| c.id == origin).expect("the Core case it came from");
        assert_eq!(core.level, cal_conformance::Level::Core);
        let (Body::Parse(a), Body::Parse(b)) = (&core.body, &m.body) else { panic!("parse cases") };
        assert_eq!(a.query, b.query);
    }
}

/// Printing a query's text form is the way back of §15.2's mapping (the dual wire format,
/// Extended): no Core case requires a canonical text, and every one a Core case used to pin is
/// still checked, by an Extended `<id>.canonical` case (docs/spec-decisions-conformance.md C26).
#[test]
fn no_core_case_pins_the_canonical_text() {
    use cal_conformance::case::{Body, ParseExpect};
    let cases = whole_corpus();
    let pins_text = |c: &cal_conformance::Case| {
        matches!(&c.body, Body::Parse(p) if match &p.expect {
            ParseExpect::Accept { canonical, reads_back_as, .. } => canonical.is_some() || reads_back_as.is_some(),
            ParseExpect::WellFormed { reads_back_as } => reads_back_as.is_some(),
            ParseExpect::Reject { .. } => false,
        })
    };
    let core: Vec<&str> = cases
        .iter()
        .filter(|c| c.level == cal_conformance::Level::Core && pins_text(c))
        .map(|c| c.id.as_str())
        .collect();
    assert!(core.is_empty(), "{core:?}");
    let moved: Vec<&cal_conformance::Case> = cases.iter().filter(|c| c.id.ends_with(".canonical")).collect();
    assert!(moved.len() >= 1000, "{} canonical texts moved", moved.len());
    for m in moved {
        assert_eq!(m.level, cal_conformance::Level::Extended);
        assert!(pins_text(m), "{}", m.id);
        let origin = m.id.strip_suffix(".canonical").expect("suffix");
        let core = cases.iter().find(|c| c.id == origin).expect("the Core case it came from");
        let (Body::Parse(a), Body::Parse(b)) = (&core.body, &m.body) else { panic!("parse cases") };
        assert_eq!(a.query, b.query);
    }
}

/// The over-the-limit case of every limit whose code the spec does not give carries grammar
/// ruling B1 for its code, and no limit the spec gives a code does (C16).
#[test]
fn limits_without_a_spec_code_are_ruled() {
    let (cases, _) = boundary_cases();
    for info in LIMITS {
        for c in cases.iter().filter(|c| c.tags.iter().any(|t| t == info.name)) {
            let ruled = c.rulings.get("code").map(String::as_str);
            let over = !c.id.ends_with(".at");
            let want = (over && !info.code_from_spec).then_some(cal_conformance::limits::RULING_B1);
            assert_eq!(ruled, want, "{}", c.id);
        }
    }
    let corpus = whole_corpus();
    let hand: Vec<&str> = corpus
        .iter()
        .filter(|c| c.rulings.get("code").is_some_and(|r| r.ends_with("B1")) && !c.id.starts_with("gen."))
        .map(|c| c.id.as_str())
        .collect();
    for id in [
        "parse.err.e009.005",
        "parse.err.e013.004",
        "parse.err.e016.007",
        "parse.err.e030.001",
        "parse.limit.max_let.002",
    ] {
        assert!(hand.contains(&id), "{id} is ruled: {hand:?}");
    }
    assert!(!hand.contains(&"parse.err.e013.001"), "set operands: the spec's E013");
    assert!(!hand.contains(&"parse.err.e016.001"), "REASON length: the spec's E016");
}

/// §24 puts LIMIT in Core: a query whose only stages are LIMIT and OFFSET is a Core case
/// (C17), and one with any other stage is not.
#[test]
fn limit_and_offset_alone_are_core() {
    let cases = whole_corpus();
    let level = |id: &str| cases.iter().find(|c| c.id == id).map(|c| c.level).expect(id);
    use cal_conformance::Level::{Core, Extended};
    for id in [
        "parse.pipeline.limit.001",
        "parse.pipeline.offset.004",
        "parse.pipeline.chain.002",
        "parse.err.e012.001",
        "parse.pos.e012.001",
        "gen.limit.max_limit.at",
        "gen.limit.max_limit.over",
        "gen.limit.max_pipeline_stages.over",
    ] {
        assert_eq!(level(id), Core, "{id}");
    }
    for id in ["parse.pipeline.select.001", "parse.pipeline.chain.001", "parse.err.e012.002"] {
        assert_eq!(level(id), Extended, "{id}");
    }
}

/// The hand-written rate cases are written at §17.3's defaults; an engine that declares
/// another value for the limit in `hello` gets them not applicable, with the reason, and an
/// engine declaring the default (or nothing) runs them. Generated boundary pairs follow the
/// declared value instead and are never excused (ruling C32).
/// (case id, declared limits, not applicable?)
#[test]
fn cases_written_at_a_default_limit_are_not_applicable_when_another_value_is_declared() {
    use cal_conformance::limits::written_at_another_value;
    let cases = whole_corpus();
    let table: Vec<(&str, serde_json::Value, bool)> = vec![
        ("execute.evolve-rate.002", serde_json::json!({"MAX_ADD_PER_MINUTE": 50}), true),
        ("execute.evolve-rate.006", serde_json::json!({"MAX_ADD_PER_MINUTE": 10}), true),
        ("execute.evolve-rate.002", serde_json::json!({"MAX_ADD_PER_MINUTE": 20}), false),
        ("execute.evolve-rate.002", serde_json::json!({}), false),
        ("execute.evolve-rate.002", serde_json::json!({"MAX_SUPERSEDE_PER_MINUTE": 3}), false),
        ("execute.evolve-rate.007", serde_json::json!({"MAX_SUPERSEDE_PER_MINUTE": 3}), true),
        ("execute.evolve-rate.008", serde_json::json!({"MAX_SUPERSEDE_PER_MINUTE": 10}), false),
        ("gen.limit.max_in_set.over", serde_json::json!({"MAX_IN_SET": 50}), false),
    ];
    for (id, declared, excused) in table {
        let case = cases.iter().find(|c| c.id == id).unwrap_or_else(|| panic!("no case {id}"));
        let declared = declared.as_object().cloned().unwrap_or_default();
        let why = written_at_another_value(case, &declared);
        assert_eq!(why.is_some(), excused, "{id} with {declared:?}: {why:?}");
        if let Some(why) = why {
            assert!(why.starts_with("not applicable: written at §17.3's") && why.contains("declares"), "{why}");
        }
    }
    // Every §17.3 rate with a hand-written pair: the over case and the at case, tagged.
    for limit in ["MAX_ADD_PER_MINUTE", "MAX_SUPERSEDE_PER_MINUTE"] {
        let tagged: Vec<&str> =
            cases.iter().filter(|c| c.tags.iter().any(|t| t == limit)).map(|c| c.id.as_str()).collect();
        assert!(tagged.len() >= 2, "{limit}: {tagged:?}");
        assert!(
            cases.iter().any(|c| c.tags.iter().any(|t| t == limit) && c.tags.iter().any(|t| t == "limit-boundary")),
            "{limit} has an at-the-limit case"
        );
    }
}
