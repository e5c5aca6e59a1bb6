//! RECALL conditions (§4 `condition`, §5.2, §6.3, §12.2): every form, on the
//! fixture memory, asserting what is returned *and* what is left out, and
//! NULL semantics (§5.4): a condition on a missing field never matches.

mod common;

use cal_interp::demo::at;
use common::{fixture, sorted};

#[test]
fn numeric_comparators() {
    let f = fixture();
    let q = |op: &str, v: &str| f.set(&format!(r#"RECALL beliefs WHERE subject = "alice" AND confidence {op} {v}"#));
    assert_eq!(q(">=", "0.8"), sorted(&["alice-dark", "alice-meetings", "alice-member"]));
    assert_eq!(q(">", "0.8"), sorted(&["alice-dark", "alice-member"]));
    assert_eq!(q("<", "0.7"), sorted(&["alice-rust"]));
    assert_eq!(q("<=", "0.7"), sorted(&["alice-coffee", "alice-rust"]));
    assert_eq!(q("=", "0.8"), sorted(&["alice-meetings"]));
    assert_eq!(q("!=", "0.9"), sorted(&["alice-coffee", "alice-meetings", "alice-member", "alice-rust"]));
}

#[test]
fn string_equality_and_inequality() {
    let f = fixture();
    assert_eq!(f.set(r#"RECALL beliefs WHERE subject != "alice" AND relation = "mg:prefers""#), sorted(&["bob-vim"]));
    assert_eq!(f.set(r#"RECALL beliefs WHERE object = "team-alpha""#), sorted(&["alice-member", "bob-member"]));
    assert!(f.set(r#"RECALL beliefs WHERE subject = "Alice""#).is_empty(), "values compare exactly");
}

#[test]
fn null_semantics() {
    let f = fixture();
    // Only beliefs carry confidence: events, actions, goals … have none and never match.
    let with_confidence = f.set("RECALL WHERE confidence >= 0.0 | LIMIT 100");
    assert_eq!(with_confidence.len(), 11);
    assert!(with_confidence.iter().all(|k| !k.starts_with('e') && !k.starts_with("a-") && !k.starts_with("g-")));
    // `!=` does not match a missing field either.
    assert_eq!(f.set("RECALL WHERE importance != 0.5 | LIMIT 100"), sorted(&["alice-rust", "bob-vim"]));
    assert!(f.set(r#"RECALL events WHERE model_id != "model-y""#).len() == 1, "only e2 has a model_id");
}

#[test]
fn type_condition() {
    let f = fixture();
    assert_eq!(f.set(r#"RECALL WHERE type = "goal""#), sorted(&["g-legacy", "g-review", "g-slides"]));
    assert_eq!(f.set(r#"RECALL WHERE type = "workflow""#), sorted(&["w-report"]));
}

#[test]
fn tags_include_and_exclude() {
    let f = fixture();
    assert_eq!(f.set(r#"RECALL beliefs WHERE tags INCLUDE ["preference", "ui"]"#), sorted(&["alice-dark"]));
    // A grain without tags holds none of them, so EXCLUDE keeps it.
    assert_eq!(f.set(r#"RECALL beliefs WHERE subject = "bob" AND tags EXCLUDE ["tooling"]"#), sorted(&["bob-member"]));
}

#[test]
fn in_with_values() {
    let f = fixture();
    assert_eq!(
        f.set(r#"RECALL beliefs WHERE subject IN ("bob", "carol") AND relation = "member_of""#),
        sorted(&["bob-member", "carol-member"])
    );
    assert_eq!(f.set(r#"RECALL actions WHERE tool_name IN ("search_docs", "export")"#), sorted(&["a-call", "a-docs"]));
}

#[test]
fn in_with_subqueries() {
    let f = fixture();
    let team_prefs = r#"RECALL beliefs WHERE relation = "mg:prefers"
        AND subject IN (RECALL beliefs WHERE relation = "member_of" AND object = "team-alpha" | SUBJECTS)"#;
    assert_eq!(f.set(team_prefs), sorted(&["alice-coffee", "alice-dark", "bob-vim"]), "dave is not in team-alpha");
    let by_hash = r#"RECALL reasonings WHERE premises IN (RECALL beliefs WHERE object = "dark mode" | HASHES)"#;
    assert_eq!(f.set(by_hash), sorted(&["r-deductive"]));
    let objects = r#"RECALL beliefs WHERE subject = "dave" AND object IN (RECALL beliefs WHERE subject = "dave" WITH superseded | OBJECTS)"#;
    assert_eq!(f.set(objects), sorted(&["dave-avoids-espresso"]));
}

#[test]
fn hash_condition_full_and_prefix() {
    let f = fixture();
    let hex = f.keys.iter().find(|(_, k)| *k == "alice-dark").map(|(a, _)| a.clone()).unwrap();
    assert_eq!(f.set(&format!("RECALL WHERE hash = sha256:{hex}")), sorted(&["alice-dark"]));
    assert_eq!(f.set(&format!("RECALL WHERE hash = sha256:{}", &hex[..12])), sorted(&["alice-dark"]));
    assert!(f.set("RECALL WHERE hash = sha256:0000000000000000").is_empty());
    let r = f.run("RECALL WHERE hash = sha256:0000000000000000");
    assert_eq!(r["_cal"]["store_ops"], 0, "an unknown prefix matches nothing without a store operation");
}

#[test]
fn time_expressions_use_the_injected_clock() {
    let f = fixture();
    assert_eq!(
        f.set(r#"RECALL beliefs WHERE time = "last 7 days""#),
        sorted(&["alice-dark", "alice-meetings", "bob-vim"])
    );
    assert_eq!(f.set(r#"RECALL beliefs WHERE time = "yesterday""#), sorted(&["alice-dark"]));
    assert_eq!(f.set(r#"RECALL beliefs WHERE time = "today""#), sorted(&["bob-vim"]));
    assert_eq!(f.set(r#"RECALL beliefs WHERE time = "2026-03-01""#), sorted(&["alice-meetings"]));
    assert_eq!(
        f.set(r#"RECALL beliefs WHERE time BETWEEN "2026-02-01" AND "2026-02-15""#),
        sorted(&["alice-coffee", "alice-rust", "hc-allergy", "hc-none"])
    );
    let (lo, hi) = (at("2026-02-10T00:00:00Z") / 1000, at("2026-02-11T00:00:00Z") / 1000);
    assert_eq!(f.set(&format!("RECALL beliefs WHERE time BETWEEN {lo} AND {hi}")), sorted(&["hc-allergy"]));
    // Another clock, another answer.
    let mut o = common::opts();
    o.now_ms = at("2026-02-12T00:00:00Z");
    let r = f.response(r#"RECALL beliefs WHERE time = "last 7 days""#, &o);
    assert_eq!(f.keys_of(&r.json["results"]).len(), 2, "hc-allergy and hc-none");
    assert_eq!(f.fails(r#"RECALL beliefs WHERE time = "next tuesday""#), "CAL-E020");
}

#[test]
fn index_layer_and_meta_fields() {
    let f = fixture();
    assert_eq!(f.set(r#"RECALL beliefs WHERE verification_status = "verified""#), sorted(&["alice-rust"]));
    assert_eq!(f.set(r#"RECALL beliefs WHERE subject = "alice" AND verification_status = "unverified""#).len(), 4);
    assert_eq!(f.set(r#"RECALL WHERE source_type = "user_explicit""#), sorted(&["alice-rust"]));
    assert_eq!(f.set(r#"RECALL WHERE epistemic_status = "probable""#), sorted(&["alice-rust"]));
    assert_eq!(f.set(r#"RECALL WHERE recall_priority = "hot""#), sorted(&["alice-rust"]));
    // Contradicted grains left the current view; asking for them brings them back (V1).
    assert_eq!(f.set("RECALL beliefs WHERE contradicted = true"), sorted(&["dave-espresso"]));
    assert_eq!(
        f.set(r#"RECALL beliefs WHERE subject = "dave" AND contradicted = false"#),
        sorted(&["dave-avoids-espresso"])
    );
}

#[test]
fn relation_categories() {
    let f = fixture();
    assert_eq!(
        f.set(r#"RECALL beliefs WHERE subject = "alice" AND relation IS PREFERENCE"#),
        sorted(&["alice-coffee", "alice-dark", "alice-meetings"])
    );
    assert_eq!(f.set(r#"RECALL beliefs WHERE subject = "alice" AND relation IS KNOWLEDGE"#), sorted(&["alice-rust"]));
}

#[test]
fn namespaces_and_scopes() {
    let f = fixture();
    assert_eq!(f.set(r#"RECALL beliefs IN "other:sub""#), sorted(&["bob-vim"]));
    assert_eq!(f.set(r#"RECALL beliefs IN SCOPE "other""#), sorted(&["bob-vim"]));
    assert!(f.set(r#"RECALL beliefs IN SCOPE "oth""#).is_empty(), "a scope is a whole namespace segment");
    assert_eq!(f.set(r#"RECALL beliefs WHERE namespace = "team" AND subject = "bob""#), sorted(&["bob-member"]));
    // A token namespace overwrites the query's (§2.3).
    let store = f.store.clone();
    let config = cal_interp::InterpConfig { namespace: Some("other:sub".into()), ..Default::default() };
    let interp = cal_interp::Interpreter::new(cal_interp::OmsFacade::new(store), config);
    let q = cal_parser::parse_query(r#"RECALL beliefs IN "team" WHERE namespace = "team""#).into_result().unwrap();
    let r = interp.execute(&q, &common::opts());
    assert_eq!(f.keys_of(&r.json["results"]), vec!["bob-vim".to_string()]);
    // Grains of other namespaces do not exist for a confined request, by hash either.
    let dark = f.keys.iter().find(|(_, k)| *k == "alice-dark").map(|(a, _)| a.clone()).unwrap();
    let vim = f.keys.iter().find(|(_, k)| *k == "bob-vim").map(|(a, _)| a.clone()).unwrap();
    let run = |q: String| interp.execute(&cal_parser::parse_query(&q).into_result().unwrap(), &common::opts());
    assert_eq!(run(format!("EXISTS sha256:{dark}")).json["exists"], false);
    assert_eq!(run(format!("EXISTS sha256:{}", &dark[..10])).json["exists"], false);
    assert_eq!(run(format!("EXISTS sha256:{vim}")).json["exists"], true);
    assert_eq!(run(format!("HISTORY sha256:{dark}")).error.map(|d| d.code.as_str()), Some("CAL-E046"));
    assert_eq!(run(format!("RECALL WHERE hash = sha256:{dark}")).json["results"], serde_json::json!([]));
}

#[test]
fn domain_fields() {
    let f = fixture();
    let q = r#"RECALL beliefs WHERE tags INCLUDE ["profile:healthcare"] AND hc:patient_id = "P-1""#;
    assert_eq!(f.set(q), sorted(&["hc-allergy"]));
    let q = r#"RECALL beliefs WHERE hc:patient_id IN ("P-1", "P-2")"#;
    assert_eq!(f.set(q), sorted(&["hc-allergy", "hc-none"]));
}

#[test]
fn score_filters_after_retrieval() {
    let f = fixture();
    let all = f.keys(r#"RECALL LIKE "dark mode""#);
    let top = f.keys(r#"RECALL LIKE "dark mode" WHERE score >= 0.99"#);
    assert_eq!(top, all[..1].to_vec());
    assert!(all.len() > 1);
}

#[test]
fn event_fields() {
    let f = fixture();
    assert_eq!(f.set(r#"RECALL events WHERE role = "assistant""#), sorted(&["e2"]));
    assert_eq!(f.set(r#"RECALL events WHERE session_id = "s2""#), sorted(&["e4"]));
    assert_eq!(f.set(r#"RECALL events WHERE model_id = "model-x""#), sorted(&["e2"]));
    assert_eq!(f.set(r#"RECALL events WHERE content = "rollout""#), sorted(&["e1", "e2"]));
    let e1 = f.keys.iter().find(|(_, k)| *k == "e1").map(|(a, _)| a.clone()).unwrap();
    assert_eq!(f.set(&format!("RECALL events WHERE parent_message_id = sha256:{}", &e1[..16])), sorted(&["e2"]));
}

#[test]
fn action_fields() {
    let f = fixture();
    assert_eq!(
        f.set(r#"RECALL actions WHERE tool_name = "get_weather" AND is_error = false"#),
        sorted(&["a-weather-ok"])
    );
    assert_eq!(f.set("RECALL actions WHERE is_error = true"), sorted(&["a-weather-err"]));
    // An absent action_phase is the synchronous "complete" phase (OMS §27.1).
    assert_eq!(
        f.set(r#"RECALL actions WHERE action_phase = "complete""#),
        sorted(&["a-docs", "a-weather-err", "a-weather-ok"])
    );
    assert_eq!(f.set(r#"RECALL actions WHERE action_phase = "call""#), sorted(&["a-call"]));
    assert_eq!(f.set(r#"RECALL actions WHERE tool_call_id = "call-export""#), sorted(&["a-call"]));
}

#[test]
fn observation_goal_and_reasoning_fields() {
    let f = fixture();
    assert_eq!(f.set(r#"RECALL observations WHERE observer_type = "agent:monitor""#), sorted(&["o-monitor"]));
    assert_eq!(f.set(r#"RECALL observations WHERE observer_id != "obs-1""#), sorted(&["o-calendar"]));
    assert_eq!(f.set(r#"RECALL goals WHERE goal_state = "active""#), sorted(&["g-review"]));
    assert_eq!(f.set(r#"RECALL goals WHERE goal_state = "abandoned""#), sorted(&["g-legacy"]), "OMS failed");
    assert_eq!(f.set(r#"RECALL goals WHERE goal_state = "blocked""#), sorted(&["g-slides"]), "OMS suspended");
    assert_eq!(f.set(r#"RECALL goals WHERE deadline = "2026-03-15""#), sorted(&["g-review"]));
    assert_eq!(
        f.set(r#"RECALL goals WHERE deadline BETWEEN "2026-03-01" AND "2026-04-30""#),
        sorted(&["g-review", "g-slides"])
    );
    assert_eq!(f.set(r#"RECALL goals WHERE assigned_agent = "did:web:agent""#).len(), 3);
    let review = f.keys.iter().find(|(_, k)| *k == "g-review").map(|(a, _)| a.clone()).unwrap();
    assert_eq!(f.set(&format!("RECALL goals WHERE depends_on = sha256:{review}")), sorted(&["g-slides"]));
    assert_eq!(f.set(r#"RECALL reasonings WHERE reasoning_type = "deductive""#), sorted(&["r-deductive"]));
    assert_eq!(f.set(r#"RECALL reasonings WHERE conclusion = "migration outage""#), sorted(&["r-abductive"]));
    assert_eq!(
        f.set(r#"RECALL reasonings WHERE conclusion != "alice likes dark interfaces""#),
        sorted(&["r-abductive"])
    );
}

#[test]
fn consensus_consent_state_and_workflow_fields() {
    let f = fixture();
    assert_eq!(f.set("RECALL consensuses WHERE threshold >= 0.8"), sorted(&["c-mttr"]), "2 of 2 vs 3 of 4");
    assert_eq!(f.set("RECALL consensuses WHERE agreement_count > 2"), sorted(&["c-deploys"]));
    assert_eq!(f.set(r#"RECALL consensuses WHERE participating_observers INCLUDE ["c"]"#), sorted(&["c-deploys"]));
    assert_eq!(f.set(r#"RECALL consents WHERE consent_action = "withdraw""#), sorted(&["k-withdraw"]));
    assert_eq!(f.set(r#"RECALL consents WHERE consent_action = "grant""#), sorted(&["k-grant"]));
    assert_eq!(f.set(r#"RECALL consents WHERE purpose = "personalization""#).len(), 2);
    assert_eq!(f.set(r#"RECALL consents WHERE grantor_did = "did:web:alice""#).len(), 2);
    assert_eq!(f.set(r#"RECALL consents WHERE scope = "retrieve""#), sorted(&["k-grant"]));
    assert_eq!(f.set(r#"RECALL consents WHERE expires_at = "2026-12-31""#), sorted(&["k-grant"]));
    assert_eq!(f.set(r#"RECALL states WHERE context = "ctx-prep""#), sorted(&["st-prep"]));
    assert_eq!(f.set(r#"RECALL states WHERE plan = "slides""#), sorted(&["st-prep"]));
    assert_eq!(f.set(r#"RECALL workflows WHERE trigger = "on:friday""#), sorted(&["w-report"]));
    assert_eq!(f.set(r#"RECALL workflows WHERE steps = "report""#), sorted(&["w-report"]));
    assert!(f.set(r#"RECALL workflows WHERE steps = "deploy""#).is_empty());
}

#[test]
fn superseded_versions_only_with_superseded() {
    let f = fixture();
    let q = r#"RECALL beliefs WHERE subject = "alice" AND relation = "mg:prefers" AND tags INCLUDE ["drink"]"#;
    assert_eq!(f.set(q), sorted(&["alice-coffee"]));
    assert_eq!(f.set(&format!("{q} WITH superseded")), sorted(&["alice-coffee", "alice-tea"]));
    let r = f.run(&format!("{q} WITH superseded"));
    let tea = r["results"].as_array().unwrap().iter().find(|x| x["grain"]["object"] == "tea").unwrap();
    assert!(tea["index"]["superseded_by"].is_string(), "the envelope shows the index layer");
}

#[test]
fn unbound_parameters_and_wrong_values_are_errors_not_panics() {
    let f = fixture();
    assert_eq!(f.fails("RECALL beliefs WHERE subject = $who"), "CAL-E008");
    let mut o = common::opts();
    o.params.insert("who".into(), serde_json::json!("bob"));
    let r = f.response("RECALL beliefs WHERE subject = $who AND relation = \"member_of\"", &o);
    assert_eq!(f.keys_of(&r.json["results"]), vec!["bob-member".to_string()]);
    o.params.insert("n".into(), serde_json::json!({"not": "a value"}));
    let r = f.response("RECALL beliefs WHERE confidence >= $n", &o);
    assert_eq!(r.error.map(|d| d.code.as_str()), Some("CAL-E020"));
}
