//! The statements besides RECALL (§8): set operations with their score
//! merges (§8.11), LET (§8.12), COALESCE (§8.13), BATCH (§8.7), EXISTS
//! (§8.3), HISTORY (§8.4), DESCRIBE (§8.6), EXPLAIN (§8.5), ASSEMBLE's
//! source resolution (§8.2), Tier 1 refusal (§2.4) and the timeout (§17.3).

mod common;

use cal_interp::demo::Builder;
use common::{fixture, opts, sorted};
use serde_json::json;

fn hex(f: &common::Fixture, key: &str) -> String {
    f.keys.iter().find(|(_, k)| *k == key).map(|(a, _)| a.clone()).unwrap()
}

#[test]
fn union_merges_scores_by_max() {
    let f = fixture();
    let r = f
        .run(r#"(RECALL LIKE "dark mode") UNION (RECALL beliefs WHERE subject = "alice" AND relation = "mg:prefers")"#);
    let keys = f.keys_of(&r["results"]);
    let mut dedup = keys.clone();
    dedup.dedup();
    assert_eq!(keys.len(), dedup.len(), "deduplicated by content address");
    assert!(keys.contains(&"alice-coffee".to_string()) && keys.contains(&"e1".to_string()));
    let dark = r["results"].as_array().unwrap().iter().find(|x| x["grain"]["object"] == "dark mode").unwrap();
    assert_eq!(dark["score"], 1.0, "max of the text score and the structural 1.0");
    let scores: Vec<f64> = r["results"].as_array().unwrap().iter().map(|x| x["score"].as_f64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "ordered by merged score");
}

#[test]
fn intersect_keeps_common_grains_with_min_score() {
    let f = fixture();
    let r = f.run(r#"(RECALL LIKE "dark mode") INTERSECT (RECALL beliefs WHERE subject = "alice")"#);
    assert_eq!(f.keys_of(&r["results"]), ["alice-dark"]);
    let text = f.run(r#"RECALL LIKE "dark mode""#);
    let left = text["results"].as_array().unwrap().iter().find(|x| x["grain"]["object"] == "dark mode").unwrap();
    assert_eq!(r["results"][0]["score"], left["score"], "min of the text score and the structural 1.0");
}

#[test]
fn except_keeps_left_order_without_right_grains() {
    let f = fixture();
    let left = f.keys(r#"RECALL beliefs WHERE subject = "alice" | ORDER BY confidence DESC"#);
    let r = f.keys(r#"(RECALL beliefs WHERE subject = "alice" | ORDER BY confidence DESC) EXCEPT (RECALL beliefs WHERE relation = "member_of")"#);
    let expected: Vec<String> = left.into_iter().filter(|k| k != "alice-member").collect();
    assert_eq!(r, expected);
    let chain = f.run(r#"(RECALL beliefs WHERE subject = "alice" | SUBJECTS) UNION (RECALL beliefs WHERE subject = "bob" | SUBJECTS) EXCEPT (RECALL beliefs WHERE subject = "bob" | SUBJECTS)"#);
    assert_eq!(chain["values"], json!(["alice"]));
    assert_eq!(chain["_cal"]["store_ops"], 3, "one operation per operand");
}

#[test]
fn let_bindings_are_evaluated_once_in_order() {
    let f = fixture();
    let q = r#"LET $team = RECALL beliefs WHERE relation = "member_of" AND object = "team-alpha" | SUBJECTS;
               LET $theirs = RECALL beliefs WHERE relation = "mg:prefers";
               RECALL beliefs WHERE subject IN ($team) AND hash IN ($theirs)"#;
    let r = f.run(q);
    assert_eq!(
        sorted(&f.keys_of(&r["results"]).iter().map(String::as_str).collect::<Vec<_>>()),
        sorted(&["alice-coffee", "alice-dark", "bob-vim"])
    );
    assert_eq!(r["_cal"]["store_ops"], 3, "each binding once, then the statement");
    assert_eq!(f.fails(r#"LET $x = RECALL beliefs | SUBJECTS; RECALL beliefs WHERE subject = $x"#), "CAL-E021");
}

#[test]
fn coalesce_short_circuits() {
    let f = fixture();
    let r = f.run(r#"COALESCE(RECALL beliefs WHERE subject = "alice" AND relation = "favorite_color",
                              RECALL beliefs WHERE subject = "alice" AND relation = "mg:prefers" AND tags INCLUDE ["ui"],
                              RECALL beliefs LIKE "color preference")"#);
    assert_eq!(f.keys_of(&r["results"]), ["alice-dark"]);
    assert_eq!(r["branch"], 2);
    assert_eq!(r["_cal"]["store_ops"], 2, "the third branch did not run");
    let none = f.run(r#"COALESCE(RECALL beliefs WHERE subject = "x", RECALL beliefs WHERE subject = "y")"#);
    assert_eq!(none["branch"], json!(null));
    assert_eq!(none["results"], json!([]));
}

#[test]
fn batch_has_one_slot_per_entry_and_isolates_failures() {
    let f = fixture();
    let r = f.run(&format!(
        r#"BATCH {{ prefs: RECALL beliefs ABOUT "bob", here: EXISTS sha256:{}, gone: HISTORY sha256:00000000, kinds: DESCRIBE grain_types }}"#,
        hex(&f, "bob-vim")
    ));
    let slots = r["results"].as_object().unwrap();
    assert_eq!(slots.keys().collect::<Vec<_>>(), ["prefs", "here", "gone", "kinds"]);
    assert_eq!(f.keys_of(&slots["prefs"]["results"]).len(), 2);
    assert_eq!(slots["here"]["exists"], true);
    assert_eq!(slots["gone"]["error"]["code"], "CAL-E046");
    assert_eq!(slots["kinds"]["grain_types"].as_array().unwrap().len(), 10);
}

#[test]
fn exists_by_full_hash_and_prefix() {
    let f = fixture();
    let h = hex(&f, "alice-dark");
    let r = f.run(&format!("EXISTS sha256:{h}"));
    assert_eq!((r["exists"].clone(), r["_cal"]["store_ops"].clone()), (json!(true), json!(1)));
    assert_eq!(f.run(&format!("EXISTS sha256:{}", &h[..8]))["content_address"], h.as_str());
    assert_eq!(
        f.run("EXISTS sha256:0000000000000000000000000000000000000000000000000000000000000000")["exists"],
        false
    );
    let mut o = opts();
    o.params.insert("h".into(), json!(format!("sha256:{h}")));
    assert_eq!(f.response("EXISTS $h", &o).json["exists"], true);
}

/// docs/spec-decisions.md L4: a hash literal is lower-case hex, as OMS §5 writes content
/// addresses. An existing grain's address in upper case is refused on every path that takes
/// one — the text form (each position), a bound parameter (checker and interpreter alike),
/// the JSON form — and the same address in lower case is found. Before the ruling the text
/// form and parameters lower-cased it and answered, while the JSON form and OMS refused it.
#[test]
fn upper_case_hex_is_refused_on_every_path() {
    let f = fixture();
    let h = hex(&f, "alice-dark");
    let upper = format!("sha256:{}", h.to_ascii_uppercase());
    let codes = |text: &str| -> Vec<String> {
        let parsed = cal_parser::parse_document(text);
        parsed.diagnostics.iter().map(|d| d.code.as_str().to_string()).collect()
    };
    for text in [
        format!("EXISTS {upper}"),
        format!("HISTORY {upper}"),
        format!("HISTORY sha256:{h} DIFF {upper}"),
        format!("RECALL beliefs WHERE hash = {upper}"),
        format!("RECALL beliefs WHERE hash IN ({upper})"),
        format!("RECALL events THREAD FROM {upper}"),
        format!("SUPERSEDE {upper} SET object = \"x\" REASON \"r\""),
        format!("REVERT {upper} REASON \"r\""),
    ] {
        assert_eq!(codes(&text), ["CAL-E015"], "{text}");
        let lower = text.replace(&upper, &format!("sha256:{h}"));
        assert_eq!(codes(&lower), Vec::<String>::new(), "{lower}");
    }
    // The fix is machine-applicable: the literal in lower case.
    let d = &cal_parser::parse_document(&format!("EXISTS {upper}")).diagnostics[0];
    assert_eq!(d.replacement.as_deref(), Some(format!("sha256:{h}").as_str()));

    // A bound parameter: the checker and the interpreter (run without the checker) agree.
    let mut o = opts();
    o.params.insert("h".into(), json!(upper));
    let params = cal_checker::Params::from_pairs([("h", json!(upper))]);
    for text in ["EXISTS $h", "HISTORY $h", "RECALL beliefs WHERE hash = $h"] {
        let q = cal_parser::parse_query(text).into_result().expect("parses");
        let checked: Vec<&str> = cal_checker::check(&q, Some(&params)).iter().map(|d| d.code.as_str()).collect();
        assert_eq!(checked, ["CAL-E015"], "check {text}");
        let run = f.response(text, &o).error.map(|d| d.code.as_str().to_string());
        assert_eq!(run.as_deref(), Some("CAL-E015"), "run {text}");
    }
    o.params.insert("h".into(), json!(format!("sha256:{h}")));
    assert_eq!(f.response("EXISTS $h", &o).json["exists"], true);

    // The JSON form: a schema violation, its syntax error (docs/json-form.md).
    let json = |hash: &str| json!({ "statement": "exists", "target": { "hash": hash } });
    let errs = cal_parser::json::query_from_json(&json(&upper)).expect_err("upper-case hex is no hash");
    assert_eq!(errs.iter().map(|d| d.code.as_str()).collect::<Vec<_>>(), ["CAL-E002"]);
    assert!(cal_parser::json::query_from_json(&json(&format!("sha256:{h}"))).is_ok());
}

fn chain(n: usize) -> (common::Fixture, Vec<String>) {
    let mut b = Builder::new();
    let mut keys = Vec::new();
    for i in 0..n {
        let j = json!({ "type": "belief", "subject": "counter", "relation": "value", "object": format!("v{i}"),
            "confidence": 0.9, "created_at": 1_700_000_000_000i64 + i as i64 * 60_000 });
        let key = format!("v{i}");
        if i == 0 {
            b.put(&key, j).unwrap();
        } else {
            b.supersede(&format!("v{}", i - 1), &key, j, "next").unwrap();
        }
        keys.push(b.hex(&key));
    }
    let store = std::sync::Arc::new(b.into_store());
    let names = keys.iter().enumerate().map(|(i, h)| (h.clone(), format!("v{i}"))).collect();
    (common::Fixture { interp: cal_interp::over(store.clone()), store, keys: names }, keys)
}

#[test]
fn history_by_hash_walks_back_newest_first() {
    let (f, h) = chain(5);
    let r = f.run(&format!("HISTORY sha256:{}", h[2]));
    assert_eq!(f.keys_of(&r["results"]), ["v2", "v1", "v0"]);
    assert_eq!(r["results"][0]["version"], 3);
    assert_eq!(r["head"], h[4].as_str(), "v2 was superseded; the head is v4");
    let head = f.run(&format!("HISTORY sha256:{}", h[4]));
    assert_eq!(head["total"], 5);
    assert_eq!(head["head"], json!(null));
    let d = f.run(&format!("HISTORY sha256:{} DIFF sha256:{}", h[4], h[0]));
    let changes = d["diff"]["changes"].as_array().unwrap();
    let fields: Vec<&str> = changes.iter().map(|c| c["field"].as_str().unwrap()).collect();
    assert_eq!(fields, ["created_at", "derived_from", "object"]);
    assert_eq!(changes[2], json!({ "field": "object", "from": "v4", "to": "v0" }));
    assert_eq!(d["diff"]["same_chain"], true);
}

#[test]
fn history_is_capped_at_one_hundred_versions() {
    let (f, h) = chain(105);
    let r = f.run(&format!("HISTORY sha256:{}", h[104]));
    assert_eq!(r["results"].as_array().unwrap().len(), 100);
    assert_eq!(r["total"], 105);
    assert_eq!(r["truncated"], true);
    assert_eq!(r["results"][99]["version"], 6);
}

#[test]
fn history_by_triple_and_as_of() {
    let f = fixture();
    let r = f.run(r#"HISTORY WHERE subject = "alice" AND relation = "mg:prefers""#);
    let objects: Vec<&str> =
        r["results"].as_array().unwrap().iter().map(|x| x["grain"]["object"].as_str().unwrap()).collect();
    assert_eq!(objects, ["dark mode", "coffee", "tea"], "newest first, superseded versions included");
    let r = f.run(r#"HISTORY WHERE subject = "alice" AND relation = "mg:prefers" AS OF "2026-02-01""#);
    let objects: Vec<&str> =
        r["results"].as_array().unwrap().iter().map(|x| x["grain"]["object"].as_str().unwrap()).collect();
    assert_eq!(objects, ["tea"], "on 1 February alice still preferred tea, and dark mode was not yet known");
    assert_eq!(r["results"][0]["version"], 1);
}

#[test]
fn describe_targets() {
    let f = fixture();
    let d = |t: &str| f.run(&format!("DESCRIBE {t}"));
    let types = d("grain_types");
    assert_eq!(types["grain_types"].as_array().unwrap().len(), 10);
    assert_eq!(d("fields belief")["fields"].as_array().unwrap().len(), 18);
    assert_eq!(d("fields action")["fields"].as_array().unwrap().len(), 22);
    let all = d("fields");
    assert_eq!(all["by_grain_type"]["consent"].as_array().unwrap().len(), 6);
    let caps = d("capabilities");
    assert_eq!(caps["capabilities"]["cal_conformance"], "core");
    assert_eq!(caps["capabilities"]["cross_lingual_search"], false);
    assert_eq!(d("server")["server"]["grains"], f.store.len());
    assert_eq!(d("templates")["templates"], json!([]));
    assert_eq!(d("grammar")["grammar"], cal_grammar::EBNF, "verbatim");
}

#[test]
fn explain_runs_nothing_and_bounds_every_statement() {
    let f = fixture();
    let bounds = |q: &str| {
        let r = f.run(&format!("EXPLAIN {q}"));
        assert_eq!(r["_cal"]["store_ops"], 0, "{q}");
        assert_eq!(r["_cal"]["statement_type"], "explain");
        let ops = &r["plan"]["store_ops"];
        (ops["min"].as_u64().unwrap(), ops["max"].as_u64().unwrap())
    };
    assert_eq!(bounds(r#"RECALL beliefs WHERE subject = "alice""#), (1, 1));
    assert_eq!(bounds(r#"RECALL beliefs ABOUT "alice""#), (1, 2));
    assert_eq!(bounds(r#"(RECALL beliefs) UNION (RECALL goals)"#), (2, 2));
    assert_eq!(bounds(r#"ASSEMBLE ctx FROM a: (RECALL beliefs), b: (RECALL goals), c: (RECALL events)"#), (3, 3));
    assert_eq!(bounds(r#"COALESCE(RECALL beliefs, RECALL goals)"#), (1, 2));
    assert_eq!(bounds(r#"BATCH { a: RECALL beliefs, b: RECALL goals }"#), (2, 2));
    assert_eq!(bounds(r#"ADD belief SET subject = "a" SET relation = "b" SET object = "c" REASON "r""#), (1, 1));
    assert_eq!(bounds(r#"SUPERSEDE sha256:abcdef12 SET object = "x" REASON "r""#), (2, 3));
    assert_eq!(bounds(r#"REVERT sha256:abcdef12 REASON "r""#), (3, 4));
    let r = f.run(r#"EXPLAIN SUPERSEDE sha256:abcdef12 SET object = "x" REASON "r""#);
    let effects = r["plan"]["plan"]["side_effects"].as_array().unwrap();
    assert_eq!(effects.len(), 3);
    assert!(effects[2].as_str().unwrap().contains("superseded_by"));
    assert_eq!(r["plan"]["tier"], 1);
    let r = f.run(r#"EXPLAIN RECALL beliefs"#);
    assert_eq!(r["plan"]["plan"]["limit"], json!({ "applied": 20, "source": "default", "param": null }));
}

#[test]
fn tier1_statements_are_refused_and_change_nothing() {
    let f = fixture();
    let before = cal_interp::store_digest(&f.store);
    let len = f.store.len();
    let h = hex(&f, "alice-dark");
    for q in [
        r#"ADD belief SET subject = "a" SET relation = "b" SET object = "c" REASON "r""#.to_string(),
        format!(r#"SUPERSEDE sha256:{h} SET object = "light mode" REASON "r""#),
        format!(r#"REVERT sha256:{h} REASON "r""#),
    ] {
        assert_eq!(f.fails(&q), "CAL-E044", "{q}");
    }
    assert_eq!((cal_interp::store_digest(&f.store), f.store.len()), (before, len));
}

#[test]
fn assemble_resolves_sources_with_priority_dedup() {
    let f = fixture();
    let r = f.run(
        r#"LET $prefs = RECALL beliefs WHERE relation IS PREFERENCE;
        ASSEMBLE ctx FOR "helping alice" FROM mine: (RECALL beliefs WHERE subject = "alice"), prefs: ($prefs)
        BUDGET 500 tokens PRIORITY mine > prefs WITH dedup(object)"#,
    );
    let sources = r["sources"].as_array().unwrap();
    assert_eq!(sources[0]["label"], "mine");
    assert_eq!(sources[0]["priority"], 1);
    let prefs = f.keys_of(&sources[1]["results"]);
    assert!(
        !prefs.iter().any(|k| k.starts_with("alice")),
        "alice's copies stay in the higher-priority source: {prefs:?}"
    );
    assert_eq!(r["budget"], json!({ "amount": 500, "unit": "tokens" }));
}

#[test]
fn define_template_registers_the_template() {
    // Registration, codes and namespaces are in tests/templates.rs.
    let f = fixture();
    let r = f.run(r#"DEFINE TEMPLATE t ELEMENT { {{grain.content}} }"#);
    assert_eq!(r["defined"], true);
}

#[test]
fn timeout_is_enforced() {
    let f = fixture();
    let config = cal_interp::InterpConfig { query_timeout_ms: 0, ..Default::default() };
    let i = cal_interp::Interpreter::new(cal_interp::OmsFacade::new(f.store.clone()), config);
    let r = i.execute(&cal_parser::parse_query("RECALL beliefs").into_result().unwrap(), &opts());
    assert_eq!(r.error.map(|d| d.code.as_str()), Some("CAL-E031"));
}

#[test]
fn every_execution_is_audited() {
    let f = fixture();
    let sink = std::sync::Arc::new(cal_interp::MemoryAudit::default());
    let config = cal_interp::InterpConfig { audit: Some(sink.clone()), audit_key: b"k".to_vec(), ..Default::default() };
    let i = cal_interp::Interpreter::new(cal_interp::OmsFacade::new(f.store.clone()), config);
    let mut o = opts();
    o.agent_id = Some("agent-7".into());
    let run = |q: &str| i.execute(&cal_parser::parse_query(q).into_result().unwrap(), &o);
    let r = run(r#"RECALL beliefs ABOUT "bob""#);
    run(r#"ADD belief SET subject = "a" SET relation = "b" SET object = "c" REASON "r""#);
    let e = sink.entries();
    assert_eq!(e.len(), 2);
    assert_eq!(e[0].query_hash, r.json["_cal"]["query_hash"].as_str().unwrap());
    assert_eq!((e[0].tier, e[0].result_count, e[0].error.clone()), (0, 2, None));
    assert_eq!(e[0].actor_id.as_deref(), Some(cal_interp::audit::pseudonym(b"k", "alice").as_str()));
    assert_ne!(e[0].actor_id.as_deref(), Some("alice"), "pseudonymized");
    assert_eq!(e[0].agent_id.as_deref(), Some("agent-7"));
    assert_eq!((e[1].tier, e[1].error.as_deref()), (1, Some("CAL-E044")));
}
