//! WITH options (§4 `with_option`, §16.5, §25.2): annotations appear only
//! when asked for, diversity and dedup change which grains come back, locale
//! changes the order, and options this implementation cannot honour are
//! ignored with a warning (CAL-W004) or a note, never an error.

mod common;

use std::sync::Arc;

use cal_interp::demo::Builder;
use common::{body, fixture, opts};
use serde_json::json;

#[test]
fn annotations_only_when_asked() {
    let f = fixture();
    let plain = f.run(r#"RECALL beliefs WHERE subject = "bob" AND relation = "mg:prefers""#);
    for k in ["score_breakdown", "explanation", "provenance", "contradictions"] {
        assert!(plain["results"][0].get(k).is_none(), "{k}");
    }
    let r = f.run(
        r#"RECALL beliefs WHERE subject = "bob" AND relation = "mg:prefers" WITH score_breakdown, explanation, provenance"#,
    );
    let e = &r["results"][0];
    assert_eq!(e["score_breakdown"]["method"], "structural");
    assert_eq!(e["explanation"]["conditions"], json!(["subject = \"bob\"", "relation = \"mg:prefers\""]));
    assert_eq!(e["provenance"]["created_at"], "2026-03-06T08:00:00Z");
    let r = f.run(r#"RECALL LIKE "dark mode" WITH score_breakdown | LIMIT 1"#);
    assert_eq!(r["results"][0]["score_breakdown"]["method"], "bm25");
    assert_eq!(r["results"][0]["score_breakdown"]["text_relevance"], 1.0);
}

#[test]
fn contradiction_detection_finds_opposite_relations() {
    let f = fixture();
    let r = f.run(r#"RECALL beliefs WHERE subject = "dave" WITH contradiction_detection"#);
    let e = &r["results"][0];
    assert_eq!(f.keys_of(&r["results"]), ["dave-avoids-espresso"]);
    assert_eq!(e["contradictions"]["contradicted"], false);
    assert!(
        e["contradictions"]["conflicts_with"].as_array().unwrap().is_empty(),
        "the espresso preference is contradicted"
    );
    let r = f.run(r#"RECALL beliefs WHERE subject = "dave" WITH contradiction_detection, superseded"#);
    let espresso = r["results"].as_array().unwrap().iter().find(|x| x["grain"]["relation"] == "mg:prefers").unwrap();
    assert_eq!(espresso["contradictions"]["contradicted"], true);
    assert_eq!(f.keys_of(&espresso["contradictions"]["conflicts_with"]), ["dave-avoids-espresso"]);
}

fn near_duplicates() -> (Arc<oms::store::Store>, cal_interp::Interpreter<cal_interp::OmsFacade>) {
    let mut b = Builder::new();
    let rows = [
        ("d1", "dark mode rollout plan for the settings page", "2026-03-01T10:00:00Z"),
        ("d2", "dark mode rollout plan for the settings page, revised", "2026-03-01T10:01:00Z"),
        ("d3", "dark mode rollout plan for settings", "2026-03-01T10:02:00Z"),
        ("w1", "weather plan for the dark winter mode of the office", "2026-03-01T10:03:00Z"),
        ("m1", "Äpfel mode", "2026-03-01T10:04:00Z"),
        ("m2", "apfel mode", "2026-03-01T10:05:00Z"),
        ("m3", "Birne mode", "2026-03-01T10:06:00Z"),
    ];
    for (k, o, t) in rows {
        b.put(k, json!({ "type": "belief", "subject": "doc", "relation": "about", "object": o, "confidence": 0.5, "created_at": t }))
            .unwrap();
    }
    let store = Arc::new(b.into_store());
    (store.clone(), cal_interp::over(store))
}

fn objects(r: &serde_json::Value) -> Vec<String> {
    r["results"].as_array().unwrap().iter().map(|x| x["grain"]["object"].as_str().unwrap().to_string()).collect()
}

fn run(i: &cal_interp::Interpreter<cal_interp::OmsFacade>, q: &str) -> cal_interp::Response {
    i.execute(&cal_parser::parse_query(q).into_result().unwrap(), &opts())
}

#[test]
fn diversity_mmr_and_threshold() {
    let (_, i) = near_duplicates();
    let plain = objects(&run(&i, r#"RECALL beliefs LIKE "dark mode rollout plan settings" | LIMIT 2"#).json);
    assert!(plain.iter().all(|o| o.contains("rollout")), "{plain:?}");
    let mmr = objects(
        &run(
            &i,
            r#"RECALL beliefs LIKE "dark mode rollout plan settings" WITH diversity(mmr, lambda = 0.3) | LIMIT 2"#,
        )
        .json,
    );
    assert_eq!(mmr[0], plain[0], "the most relevant grain still leads");
    assert!(!mmr[1].contains("rollout"), "the second is not a near-duplicate of the first: {mmr:?}");
    let t = objects(
        &run(&i, r#"RECALL beliefs LIKE "dark mode rollout plan settings" WITH diversity(threshold, 0.5)"#).json,
    );
    assert_eq!(t.iter().filter(|o| o.contains("rollout")).count(), 1, "near-duplicates dropped: {t:?}");
}

#[test]
fn dedup_keeps_the_first_of_each_value() {
    let f = fixture();
    let r = f.run(r#"RECALL beliefs WHERE relation IS PREFERENCE WITH dedup(subject) | ORDER BY subject ASC"#);
    let subjects: Vec<&str> =
        r["results"].as_array().unwrap().iter().map(|x| x["grain"]["subject"].as_str().unwrap()).collect();
    assert_eq!(subjects, ["alice", "bob", "dave"]);
    assert_eq!(r["total"], 3);
}

#[test]
fn locale_sorting_and_unsupported_locales() {
    let (_, i) = near_duplicates();
    let q = |w: &str| {
        run(
            &i,
            &format!(
                r#"RECALL beliefs WHERE object IN ("Äpfel mode", "apfel mode", "Birne mode") {w} | ORDER BY object ASC"#
            ),
        )
    };
    assert_eq!(objects(&q("").json), ["Birne mode", "apfel mode", "Äpfel mode"], "code points by default");
    assert_eq!(objects(&q(r#"WITH locale("de")"#).json), ["apfel mode", "Äpfel mode", "Birne mode"]);
    let sv = q(r#"WITH locale("sv")"#);
    assert_eq!(objects(&sv.json), objects(&q("").json), "unsupported locale ignored");
    assert_eq!(sv.warnings.iter().map(|w| w.code.as_str()).collect::<Vec<_>>(), ["CAL-W004"]);
}

#[test]
fn extensions_and_no_op_options() {
    let f = fixture();
    let base = f.run(r#"RECALL beliefs ABOUT "alice""#);
    let r = f.response(r#"RECALL beliefs ABOUT "alice" WITH x_hnsw_ef(200)"#, &opts());
    assert_eq!(body(&r.json), body(&base), "extensions never change results (§25.2)");
    assert_eq!(r.warnings.iter().map(|w| w.code.as_str()).collect::<Vec<_>>(), ["CAL-W004"]);
    assert_eq!(r.json["_cal"]["warnings"][0]["code"], "CAL-W004");
    for w in ["consistency(linearizable)", "cache(ttl = 60)", "summarize", "progressive_disclosure", "iso_timestamps"] {
        let r = f.response(&format!(r#"RECALL beliefs ABOUT "alice" WITH {w}"#), &opts());
        assert_eq!(body(&r.json), body(&base), "{w}");
        assert!(r.warnings.is_empty(), "{w}");
        assert!(r.json["_cal"]["notes"].is_array(), "{w} is noted");
    }
    assert_eq!(f.set(r#"RECALL beliefs ABOUT "alice" WITH superseded"#).len(), 6);
}
