//! Pipeline stages (§4 `pipe_stage`) and limits (§17.3): what each stage
//! keeps and drops, the default LIMIT 20, paging with the cursor, and the
//! bounds (CAL-E010).

mod common;

use common::fixture;
use serde_json::json;

#[test]
fn select_keeps_only_the_chosen_fields() {
    let f = fixture();
    let r = f.run(
        r#"RECALL beliefs WHERE subject = "bob" | ORDER BY object ASC | SELECT subject, object, time, hash, tags"#,
    );
    let first = &r["results"][0]["grain"];
    assert_eq!(first.as_object().unwrap().keys().collect::<Vec<_>>(), ["subject", "object", "time", "hash", "tags"]);
    assert_eq!(first["object"], "team-alpha");
    assert_eq!(first["time"], "2026-01-10T09:00:00Z", "times are RFC 3339 in SELECT output");
    assert!(first["hash"].as_str().unwrap().starts_with("sha256:"));
    assert_eq!(first["tags"], json!(null), "a missing field is null in SELECT output");
    assert!(r["results"][0]["content_address"].is_string(), "the envelope keeps the address");
}

#[test]
fn order_by_ascending_descending_and_missing_last() {
    let f = fixture();
    let q = |o: &str| f.keys(&format!(r#"RECALL beliefs WHERE subject = "alice" | ORDER BY {o}"#));
    assert_eq!(q("confidence DESC"), ["alice-member", "alice-dark", "alice-meetings", "alice-coffee", "alice-rust"]);
    assert_eq!(q("confidence ASC"), ["alice-rust", "alice-coffee", "alice-meetings", "alice-dark", "alice-member"]);
    assert_eq!(q("confidence"), q("confidence ASC"), "ASC is the default");
    let imp = f.keys("RECALL beliefs | ORDER BY importance DESC | LIMIT 3");
    assert_eq!(&imp[..2], ["bob-vim", "alice-rust"], "grains with importance first, whatever the direction");
    let imp = f.keys("RECALL beliefs | ORDER BY importance ASC | LIMIT 3");
    assert_eq!(&imp[..2], ["alice-rust", "bob-vim"]);
}

#[test]
fn ties_break_by_content_address_ascending() {
    let f = fixture();
    let r = f.run(r#"RECALL beliefs WHERE relation = "member_of" | ORDER BY confidence DESC"#);
    let addrs: Vec<String> =
        r["results"].as_array().unwrap().iter().map(|x| x["content_address"].as_str().unwrap().to_string()).collect();
    let mut sorted_addrs = addrs.clone();
    sorted_addrs.sort();
    assert_eq!(addrs, sorted_addrs, "all confidences are 1.0");
}

/// The addresses and scores of a response's results.
fn addresses_and_scores(r: &serde_json::Value) -> (Vec<String>, Vec<f64>) {
    let rs = r["results"].as_array().unwrap();
    (
        rs.iter().map(|x| x["content_address"].as_str().unwrap().to_string()).collect(),
        rs.iter().map(|x| x["score"].as_f64().unwrap()).collect(),
    )
}

#[test]
fn without_order_by_equal_scores_come_in_address_order() {
    // §17.4: equal scores by content address ascending. A structured RECALL
    // scores every match 1.0, so without ORDER BY its matches are in address
    // order, and LIMIT / OFFSET cut that order (not the store's recency order).
    let f = fixture();
    let (all, scores) = addresses_and_scores(&f.run(r#"RECALL beliefs WHERE subject = "alice""#));
    assert!(all.len() >= 4, "{all:?}");
    assert!(scores.iter().all(|s| *s == 1.0), "{scores:?}");
    let mut sorted = all.clone();
    sorted.sort();
    assert_eq!(all, sorted);
    let (two, _) = addresses_and_scores(&f.run(r#"RECALL beliefs WHERE subject = "alice" | LIMIT 2"#));
    assert_eq!(two, all[..2]);
    let (mid, _) = addresses_and_scores(&f.run(r#"RECALL beliefs WHERE subject = "alice" | OFFSET 1 | LIMIT 2"#));
    assert_eq!(mid, all[1..3]);
    let (every, _) = addresses_and_scores(&f.run("RECALL beliefs"));
    let mut sorted = every.clone();
    sorted.sort();
    assert_eq!(every, sorted, "the default LIMIT 20 takes the lowest addresses");
}

#[test]
fn limit_offset_first() {
    let f = fixture();
    let all = f.keys(r#"RECALL beliefs WHERE subject = "alice" | ORDER BY time DESC"#);
    assert_eq!(all.len(), 5);
    assert_eq!(f.keys(r#"RECALL beliefs WHERE subject = "alice" | ORDER BY time DESC | LIMIT 2"#), all[..2]);
    assert_eq!(
        f.keys(r#"RECALL beliefs WHERE subject = "alice" | ORDER BY time DESC | OFFSET 1 | LIMIT 2"#),
        all[1..3]
    );
    assert_eq!(
        f.keys(r#"RECALL beliefs WHERE subject = "alice" | ORDER BY time DESC | LIMIT 3 | OFFSET 2"#),
        all[2..3]
    );
    assert_eq!(f.keys(r#"RECALL beliefs WHERE subject = "alice" | ORDER BY time DESC | FIRST"#), all[..1]);
    let mut o = common::opts();
    o.params.insert("n".into(), json!(2));
    o.params.insert("skip".into(), json!(3));
    let r = f.response(r#"RECALL beliefs WHERE subject = "alice" | ORDER BY time DESC | OFFSET $skip | LIMIT $n"#, &o);
    assert_eq!(f.keys_of(&r.json["results"]), all[3..5]);
    o.params.insert("n".into(), json!(1001));
    let r = f.response(r#"RECALL beliefs | LIMIT $n"#, &o);
    assert_eq!(r.error.map(|d| d.code.as_str()), Some("CAL-E010"));
}

#[test]
fn default_limit_is_twenty_and_total_counts_every_match() {
    let f = fixture();
    let r = f.run("RECALL");
    assert_eq!(r["results"].as_array().unwrap().len(), 20);
    let total = r["total"].as_u64().unwrap();
    assert!(total > 20, "{total}");
    // The cursor pages through the rest; another query's cursor is refused.
    let cursor = r["next_cursor"].as_str().unwrap().to_string();
    let mut o = common::opts();
    o.cursor = Some(cursor.clone());
    let page2 = f.response("RECALL", &o);
    let p2 = f.keys_of(&page2.json["results"]);
    assert_eq!(p2.len() as u64, total - 20);
    assert!(page2.json["next_cursor"].is_null());
    let page1 = f.keys_of(&r["results"]);
    assert!(p2.iter().all(|k| !page1.contains(k)));
    let other = f.response("RECALL beliefs", &o);
    assert_eq!(other.error.map(|d| d.code.as_str()), Some("CAL-E020"));
}

#[test]
fn count_counts_all_matches() {
    let f = fixture();
    let r = f.run("RECALL | COUNT");
    assert_eq!(r["count"], r["total"]);
    assert!(r["count"].as_u64().unwrap() > 20, "the default limit does not cap COUNT");
    assert_eq!(r["results"], json!([]));
    assert_eq!(f.run(r#"RECALL beliefs WHERE subject = "alice" | LIMIT 2 | COUNT"#)["count"], 2);
    assert_eq!(f.run(r#"RECALL beliefs WHERE subject = "nobody" | COUNT"#)["count"], 0);
    // The store's count and counting the grains agree, also with post-filters and fallbacks.
    for q in [
        "RECALL beliefs",
        r#"RECALL LIKE "dark mode""#,
        "RECALL consensuses WHERE threshold >= 0.5",
        r#"RECALL beliefs ABOUT "espresso""#,
    ] {
        let counted = f.run(&format!("{q} | COUNT"))["count"].clone();
        let listed = f.run(&format!("{q} | LIMIT 1000"))["results"].as_array().unwrap().len();
        assert_eq!(counted, listed, "{q}");
    }
    assert_eq!(f.run("RECALL beliefs | COUNT")["_cal"]["budget"]["grains_returned"], 0, "counting copies no grain out");
}

#[test]
fn extractors_return_distinct_values_in_order() {
    let f = fixture();
    let r = f.run(r#"RECALL beliefs WHERE relation = "member_of" | ORDER BY subject ASC | SUBJECTS"#);
    assert_eq!(r["values"], json!(["alice", "bob", "carol"]));
    assert_eq!(r["extractor"], "subjects");
    let r = f.run(r#"RECALL beliefs WHERE relation = "member_of" | ORDER BY subject ASC | OBJECTS"#);
    assert_eq!(r["values"], json!(["team-alpha", "team-beta"]), "distinct");
    let r = f.run(r#"RECALL beliefs WHERE subject = "bob" | HASHES"#);
    assert_eq!(r["values"].as_array().unwrap().len(), 2);
    assert!(r["values"][0].as_str().unwrap().starts_with("sha256:"));
}

#[test]
fn group_by_groups_in_order_of_first_appearance() {
    let f = fixture();
    let r = f.run(r#"RECALL beliefs WHERE relation IS PREFERENCE | ORDER BY time DESC | GROUP BY subject"#);
    let keys: Vec<&str> = r["groups"].as_array().unwrap().iter().map(|g| g["key"].as_str().unwrap()).collect();
    assert_eq!(keys, ["bob", "alice", "dave"]);
    let alice = &r["groups"][1];
    assert_eq!(alice["count"], 3);
    assert_eq!(f.keys_of(&alice["results"]), ["alice-dark", "alice-meetings", "alice-coffee"]);
}

#[test]
fn project_composes_content_and_attributes() {
    let f = fixture();
    let r = f.run(r#"RECALL beliefs WHERE subject = "bob" AND relation = "mg:prefers" | PROJECT content(relation, object), attr(confidence, subject)"#);
    assert_eq!(
        r["results"][0]["projected"],
        json!({ "content": "prefers vim", "attrs": { "confidence": 0.7, "subject": "bob" } })
    );
    let r = f.run(r#"RECALL observations WHERE observer_id = "obs-1" | PROJECT content(object), attr(observer)"#);
    assert_eq!(
        r["results"][0]["projected"]["attrs"],
        json!({ "observer": "obs-1" }),
        "§10.3.2 attribute names resolve"
    );
}

#[test]
fn stage_type_mismatches_are_reported() {
    let f = fixture();
    assert_eq!(f.fails("RECALL beliefs | COUNT | LIMIT 2"), "CAL-E021");
    assert_eq!(f.fails("RECALL beliefs | SUBJECTS | GROUP BY subject"), "CAL-E021");
}

#[test]
fn limits_after_extractors_apply_to_values() {
    let f = fixture();
    let r = f.run(r#"RECALL beliefs | ORDER BY subject ASC | SUBJECTS | LIMIT 2"#);
    assert_eq!(r["values"], json!(["alice", "bob"]));
}

/// An ORDER BY the store cannot take (it follows a post-filter: numeric BETWEEN) selects
/// the window of the LIMIT after it instead of sorting every row: the page is the full
/// sort's slice, ties included, with the same total and cursor.
#[test]
fn an_order_by_in_memory_under_a_limit_is_the_full_sorts_slice() {
    let f = fixture();
    let base = "RECALL beliefs WHERE confidence BETWEEN 0 AND 1";
    for order in ["confidence DESC", "confidence ASC", "subject ASC"] {
        let all = f.keys(&format!("{base} | ORDER BY {order} | LIMIT 50"));
        assert!(all.len() > 6, "{all:?}");
        for (stages, from, len) in [("| LIMIT 3", 0, 3), ("| OFFSET 2 | LIMIT 3", 2, 3), ("| FIRST", 0, 1)] {
            let text = format!("{base} | ORDER BY {order} {stages}");
            let r = f.run(&text);
            assert_eq!(f.keys_of(&r["results"]), all[from..from + len], "{text}");
            assert_eq!(r["total"], json!(all.len()), "{text}");
            assert!(r["next_cursor"].is_string(), "{text}: more rows follow the window");
        }
    }
}
