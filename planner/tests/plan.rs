//! The planner on its own: every shortcut's desugared text (§9), the store
//! operation bounds of §13's table, the limit applied (§17.3), and EXPLAIN's
//! dry runs of Tier 1 statements.

use cal_planner::{LimitSource, Node, Operation, Output, Plan, PlanOptions, ViewPlan, plan_query};

fn plan(text: &str) -> Plan {
    let q = cal_parser::parse_query(text).into_result().unwrap_or_else(|d| panic!("{text}: {d:?}"));
    plan_query(&q, &PlanOptions::default())
}

fn recall(text: &str) -> cal_planner::RecallPlan {
    match plan(text).root {
        Node::Recall(r) => *r,
        other => panic!("{text}: {other:?}"),
    }
}

fn desugared(text: &str) -> String {
    recall(text).desugared_text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn shortcuts_desugar_as_section_9_says() {
    let cases = [
        (r#"RECALL beliefs ABOUT "alice""#, r#"RECALL beliefs WHERE subject = "alice""#),
        (
            r#"RECALL events ABOUT "alice" RECENT 5"#,
            r#"RECALL events WHERE subject = "alice" | ORDER BY time DESC | LIMIT 5"#,
        ),
        (r#"RECALL events SINCE "last week""#, r#"RECALL events WHERE time = "last week""#),
        (
            r#"RECALL LIKE "machine learning best practices""#,
            r#"RECALL WHERE query = "machine learning best practices""#,
        ),
        ("RECALL MY beliefs", "RECALL beliefs WHERE user_id = $current_user_id"),
        (
            r#"RECALL beliefs ABOUT "alice" CONTRADICTIONS"#,
            r#"RECALL beliefs WHERE subject = "alice" AND contradicted = true WITH contradiction_detection"#,
        ),
        (
            "RECALL events BETWEEN 1709251200 AND 1709337600",
            "RECALL events WHERE time BETWEEN 1709251200 AND 1709337600",
        ),
        (r#"RECALL events THREAD "sess-123""#, r#"RECALL events WHERE session_id = "sess-123" | ORDER BY time ASC"#),
        (
            r#"RECALL beliefs WHERE subject = "alice" AND relation IS PREFERENCE"#,
            r#"RECALL beliefs WHERE subject = "alice" AND relation IN ("mg:prefers", "mg:avoids", "mg:requires")"#,
        ),
        (
            r#"RECALL WHERE relation IS PERMISSION"#,
            r#"RECALL WHERE relation IN ("mg:permits", "mg:revokes", "mg:prohibits")"#,
        ),
        (
            r#"RECALL beliefs ABOUT "alice" WHERE confidence >= 0.8 | SELECT object RECENT 3"#,
            r#"RECALL beliefs WHERE subject = "alice" AND confidence >= 0.8 | ORDER BY time DESC | LIMIT 3 | SELECT object"#,
        ),
    ];
    for (shortcut, expected) in cases {
        assert_eq!(desugared(shortcut), expected, "{shortcut}");
        let again = recall(expected);
        assert!(again.desugared.expansions.is_empty(), "{expected} has no shortcut left");
    }
}

#[test]
fn about_has_a_text_search_fallback() {
    let p = recall(r#"RECALL beliefs ABOUT "alice""#);
    let fb = p.desugared.fallback.expect("fallback");
    let text = cal_parser::print::recall_to_text(&fb);
    assert_eq!(text, r#"RECALL beliefs WHERE query = "alice""#);
    assert_eq!(p.operation, Operation::Query);
    assert_eq!((p.ops.min, p.ops.max), (1, 2));
    assert!(recall(r#"RECALL beliefs WHERE subject = "alice""#).desugared.fallback.is_none());
}

#[test]
fn thread_from_is_resolved_at_run_time() {
    let p = recall("RECALL events THREAD FROM sha256:a1b2c3d4");
    assert!(p.desugared.thread_from.is_some());
    assert_eq!((p.ops.min, p.ops.max), (2, 2), "get the message, then query its session");
}

#[test]
fn store_operation_bounds_follow_section_13() {
    let bounds = |t: &str| {
        let p = plan(t);
        (p.ops.min, p.ops.max)
    };
    assert_eq!(bounds(r#"RECALL beliefs WHERE subject = "a""#), (1, 1));
    assert_eq!(bounds("EXISTS sha256:a1b2c3d4"), (1, 1));
    assert_eq!(bounds("HISTORY sha256:a1b2c3d4"), (1, 101));
    assert_eq!(bounds("HISTORY sha256:a1b2c3d4 DIFF sha256:b1b2c3d4"), (2, 102));
    assert_eq!(bounds(r#"HISTORY WHERE subject = "a" AND relation = "b""#), (1, 1));
    assert_eq!(bounds("EXPLAIN RECALL beliefs"), (0, 0));
    assert_eq!(bounds("DESCRIBE grain_types"), (0, 0));
    assert_eq!(bounds(r#"ADD belief SET subject = "a" SET relation = "b" SET object = "c" REASON "r""#), (1, 1));
    assert_eq!(bounds(r#"SUPERSEDE sha256:a1b2c3d4 SET object = "x" REASON "r""#), (2, 3));
    assert_eq!(bounds(r#"REVERT sha256:a1b2c3d4 REASON "r""#), (3, 4));
    assert_eq!(bounds("(RECALL beliefs) UNION (RECALL goals)"), (2, 2));
    assert_eq!(bounds("ASSEMBLE x FROM a: (RECALL beliefs), b: (RECALL goals)"), (2, 2));
    assert_eq!(bounds(r#"RECALL beliefs WHERE subject IN (RECALL beliefs WHERE object = "t" | SUBJECTS)"#), (2, 2));
    assert_eq!(bounds(r#"LET $t = RECALL beliefs | SUBJECTS; RECALL goals WHERE subject IN ($t)"#), (2, 2));
    assert_eq!(bounds("COALESCE(RECALL beliefs, RECALL goals, RECALL events)"), (1, 3));
    let p = plan(r#"RECALL beliefs WITH contradiction_detection | LIMIT 5"#);
    assert_eq!((p.ops.min, p.ops.max), (1, 6), "one opposite-relation lookup per returned grain");
}

#[test]
fn the_limit_applied() {
    let limit = |t: &str| {
        let p = recall(t);
        (p.limit.applied, p.limit.source, p.rows_max)
    };
    assert_eq!(limit("RECALL beliefs"), (Some(20), LimitSource::Default, 20));
    assert_eq!(limit("RECALL beliefs | LIMIT 7"), (Some(7), LimitSource::Explicit, 7));
    assert_eq!(limit(r#"RECALL beliefs ABOUT "a" RECENT 3"#), (Some(3), LimitSource::Recent, 3));
    assert_eq!(limit("RECALL beliefs | FIRST"), (Some(1), LimitSource::First, 1));
    assert_eq!(limit("RECALL beliefs | COUNT"), (None, LimitSource::Count, 1));
    assert_eq!(limit("RECALL beliefs | LIMIT $n"), (None, LimitSource::Explicit, 1000));
    let p = recall("RECALL beliefs | SUBJECTS");
    let implicit: Vec<bool> = p.stages.iter().map(|s| s.implicit).collect();
    assert_eq!(implicit, [true, false], "the default LIMIT goes before the extractor");
    assert_eq!(p.output, Output::Values(cal_parser::ast::Extractor::Subjects));
    let p = recall("RECALL beliefs | SUBJECTS | LIMIT 50");
    assert!(p.stages.iter().all(|s| !s.implicit));
    assert_eq!(p.limit.source, LimitSource::AfterReshape);
    let mut o = PlanOptions::default();
    o.params.insert("n".into(), serde_json::json!(9));
    let q = cal_parser::parse_query("RECALL beliefs | LIMIT $n").into_result().unwrap();
    let Node::Recall(r) = plan_query(&q, &o).root else { panic!() };
    assert_eq!(r.limit.applied, Some(9));
}

#[test]
fn operation_and_view() {
    assert_eq!(recall(r#"RECALL LIKE "x""#).operation, Operation::Search);
    assert_eq!(recall(r#"RECALL events WHERE content = "x""#).operation, Operation::Search);
    assert_eq!(recall(r#"RECALL events WHERE role = "user""#).operation, Operation::Query);
    assert_eq!(recall("RECALL beliefs").view, ViewPlan::Current);
    assert_eq!(recall("RECALL beliefs WITH superseded").view, ViewPlan::All);
    assert_eq!(recall("RECALL beliefs CONTRADICTIONS").view, ViewPlan::NotSuperseded);
}

#[test]
fn work_bound_uses_the_store_size() {
    let q = cal_parser::parse_query("(RECALL beliefs) UNION (RECALL goals)").into_result().unwrap();
    let p = plan_query(&q, &PlanOptions { store_size: Some(1000), ..PlanOptions::default() });
    assert_eq!(p.work.grains_examined_max, Some(2000));
    assert_eq!(p.work.rows_max, 40);
    let p = plan("HISTORY sha256:a1b2c3d4");
    assert_eq!(p.work.scan_ops_max, 0, "chain steps are point reads");
}

#[test]
fn explain_of_evolve_statements_is_a_dry_run() {
    let p = plan(
        r#"EXPLAIN ADD belief SET subject = "alice" SET relation = "prefers" SET object = "dark mode" REASON "onboarding""#,
    );
    assert_eq!((p.statement_type, p.tier, p.ops.max), ("explain", 0, 0));
    let Node::Explain(inner) = &p.root else { panic!() };
    assert_eq!((inner.statement_type, inner.tier), ("add", 1));
    let json = p.to_json();
    let effects = json["plan"]["explained"]["plan"]["side_effects"].as_array().unwrap();
    assert!(effects[0].as_str().unwrap().starts_with("put: store 1 new belief grain"));
    assert_eq!(json["plan"]["explained"]["plan"]["dry_run"], true);
    let text = p.to_text();
    assert!(text.contains("dry run, nothing is written"), "{text}");
}

#[test]
fn lets_belong_to_the_explained_plan() {
    let p = plan(r#"LET $t = RECALL beliefs | SUBJECTS; EXPLAIN RECALL goals WHERE subject IN ($t)"#);
    assert!(p.lets.is_empty());
    let Node::Explain(inner) = &p.root else { panic!() };
    assert_eq!(inner.lets.len(), 1);
    assert_eq!((inner.ops.min, inner.ops.max), (2, 2));
}
