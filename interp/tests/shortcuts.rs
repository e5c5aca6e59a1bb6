//! Shortcuts (§9, §7.2, §8.1.1): each one returns what its desugared form
//! returns — compared on the whole response body — and the planner's
//! printed desugaring, parsed back and run, gives the same result too
//! (§9: "the desugared form is always valid and produces identical results").

mod common;

use cal_interp::demo::at;
use cal_planner::{PlanOptions, plan_recall};
use common::{Fixture, body, fixture, sorted};

fn same(f: &Fixture, shortcut: &str, written_out: &str) -> serde_json::Value {
    let a = f.run(shortcut);
    let b = f.run(written_out);
    assert_eq!(body(&a), body(&b), "{shortcut}\n  vs\n{written_out}");
    a
}

/// Runs the planner's own desugared text and compares it with the shortcut.
fn desugared_text_runs_the_same(f: &Fixture, shortcut: &str) {
    let q = cal_parser::parse_query(shortcut).into_result().unwrap();
    let cal_parser::ast::QueryBody::Statement(cal_parser::ast::Statement::Recall(r)) = &q.body else {
        panic!("not a RECALL")
    };
    let plan = plan_recall(r, &PlanOptions::default());
    assert!(!cal_planner::has_shortcuts(plan.recall()));
    same(f, shortcut, &plan.desugared_text);
}

#[test]
fn about_is_a_subject_condition() {
    let f = fixture();
    let r = same(&f, r#"RECALL beliefs ABOUT "bob""#, r#"RECALL beliefs WHERE subject = "bob""#);
    assert_eq!(f.keys_of(&r["results"]).len(), 2);
    same(
        &f,
        r#"RECALL beliefs ABOUT "alice" WHERE confidence >= 0.8"#,
        r#"RECALL beliefs WHERE subject = "alice" AND confidence >= 0.8"#,
    );
}

#[test]
fn about_falls_back_to_text_search() {
    let f = fixture();
    let r = same(&f, r#"RECALL beliefs ABOUT "espresso""#, r#"RECALL beliefs WHERE query = "espresso""#);
    assert_eq!(f.keys_of(&r["results"]), vec!["dave-avoids-espresso".to_string()], "the contradicted one stays out");
    assert_eq!(r["_cal"]["store_ops"], 2, "structural query, then search");
}

#[test]
fn recent_orders_by_time_and_limits() {
    let f = fixture();
    let r = same(
        &f,
        r#"RECALL beliefs ABOUT "alice" RECENT 2"#,
        r#"RECALL beliefs WHERE subject = "alice" | ORDER BY time DESC | LIMIT 2"#,
    );
    assert_eq!(f.keys_of(&r["results"]), vec!["alice-dark".to_string(), "alice-meetings".to_string()]);
    same(
        &f,
        r#"RECALL beliefs ABOUT "alice" | SELECT object RECENT 2"#,
        r#"RECALL beliefs WHERE subject = "alice" | ORDER BY time DESC | LIMIT 2 | SELECT object"#,
    );
}

#[test]
fn since_like_between() {
    let f = fixture();
    let r = same(&f, r#"RECALL events SINCE "last week""#, r#"RECALL events WHERE time = "last week""#);
    assert_eq!(
        sorted(&f.keys_of(&r["results"]).iter().map(String::as_str).collect::<Vec<_>>()),
        sorted(&["e1", "e2", "e3"])
    );
    same(&f, r#"RECALL LIKE "dark mode""#, r#"RECALL WHERE query = "dark mode""#);
    let (lo, hi) = (at("2026-03-04T00:00:00Z") / 1000, at("2026-03-04T10:01:30Z") / 1000);
    let r = same(
        &f,
        &format!("RECALL events BETWEEN {lo} AND {hi}"),
        &format!("RECALL events WHERE time BETWEEN {lo} AND {hi}"),
    );
    assert_eq!(sorted(&f.keys_of(&r["results"]).iter().map(String::as_str).collect::<Vec<_>>()), sorted(&["e1", "e2"]));
}

#[test]
fn my_is_the_current_user() {
    let f = fixture();
    let r = same(&f, "RECALL MY beliefs", "RECALL beliefs WHERE user_id = $current_user_id");
    assert!(f.keys_of(&r["results"]).iter().all(|k| k.starts_with("alice")));
    let mut o = common::opts();
    o.user = None;
    let r = f.response("RECALL MY beliefs", &o);
    assert_eq!(r.error.map(|d| d.code.as_str()), Some("CAL-E008"));
}

#[test]
fn contradictions_shortcut() {
    let f = fixture();
    let r = same(
        &f,
        r#"RECALL beliefs ABOUT "dave" CONTRADICTIONS"#,
        r#"RECALL beliefs WHERE subject = "dave" AND contradicted = true WITH contradiction_detection"#,
    );
    let results = r["results"].as_array().unwrap();
    assert_eq!(f.keys_of(&r["results"]), vec!["dave-espresso".to_string()]);
    let conflicts = &results[0]["contradictions"]["conflicts_with"];
    assert_eq!(f.keys_of(conflicts), vec!["dave-avoids-espresso".to_string()]);
    same(
        &f,
        r#"RECALL beliefs ABOUT "dave" CONTRADICTIONS WITH contradiction_detection"#,
        r#"RECALL beliefs ABOUT "dave" CONTRADICTIONS"#,
    );
}

#[test]
fn thread_shorthand() {
    let f = fixture();
    let r = same(&f, r#"RECALL events THREAD "s1""#, r#"RECALL events WHERE session_id = "s1" | ORDER BY time ASC"#);
    assert_eq!(f.keys_of(&r["results"]), vec!["e1".to_string(), "e2".to_string(), "e3".to_string()]);
    let e2 = f.keys.iter().find(|(_, k)| *k == "e2").map(|(a, _)| a.clone()).unwrap();
    let from = f.run(&format!("RECALL events THREAD FROM sha256:{}", &e2[..10]));
    assert_eq!(body(&from), body(&r));
    assert_eq!(f.fails("RECALL events THREAD FROM sha256:00000000"), "CAL-E046");
}

#[test]
fn relation_categories_expand_to_in() {
    let f = fixture();
    same(
        &f,
        r#"RECALL beliefs WHERE relation IS PREFERENCE"#,
        r#"RECALL beliefs WHERE relation IN ("mg:prefers", "mg:avoids", "mg:requires")"#,
    );
    same(
        &f,
        r#"RECALL beliefs WHERE relation IS KNOWLEDGE AND subject = "alice""#,
        r#"RECALL beliefs WHERE relation IN ("mg:knows", "mg:infers") AND subject = "alice""#,
    );
}

#[test]
fn every_printed_desugaring_runs_identically() {
    let f = fixture();
    for q in [
        r#"RECALL beliefs ABOUT "bob""#,
        r#"RECALL beliefs ABOUT "alice" WHERE relation IS PREFERENCE RECENT 2"#,
        r#"RECALL MY beliefs SINCE "last 30 days" | SELECT object"#,
        r#"RECALL LIKE "dark mode" | LIMIT 3"#,
        r#"RECALL beliefs ABOUT "dave" CONTRADICTIONS"#,
        r#"RECALL events THREAD "s1" | SELECT content"#,
        "RECALL events BETWEEN 1772582400 AND 1772668800",
        r#"RECALL beliefs WHERE relation IS PREFERENCE AND subject IN (RECALL beliefs WHERE object = "team-alpha" | SUBJECTS)"#,
    ] {
        desugared_text_runs_the_same(&f, q);
    }
}
