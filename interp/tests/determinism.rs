//! Determinism (§17.4), safety (§2) and the demo memory.
//!
//! * The same query on the same memory with the same clock gives the same
//!   bytes — run twice, and on a store loaded with its grains in a shuffled
//!   order (different internal ids, different index insertion order).
//! * No Tier 0 statement changes the store: its digest (every grain and its
//!   portable index state, as `.mg` bytes) is the same before and after.
//! * The committed demo memory is exactly what the generator produces.

use std::sync::Arc;

use cal_interp::demo::{self, DEMO_MG, NOW_MS};
use cal_interp::{ExecOptions, Interpreter, OmsFacade, store_digest};
use oms::mg::{MgFile, PackOptions, pack};
use oms::store::Store;

/// Queries covering every Tier 0 statement, shortcut, stage and option.
const QUERIES: &[&str] = &[
    r#"RECALL beliefs ABOUT "alice" RECENT 5"#,
    r#"RECALL beliefs WHERE subject = "alice" AND relation IS PREFERENCE WITH contradiction_detection | ORDER BY confidence DESC"#,
    r#"RECALL LIKE "incident reliability metrics" WITH score_breakdown, explanation | LIMIT 7"#,
    r#"RECALL LIKE "dark mode" WITH diversity(mmr, lambda = 0.4) | LIMIT 5"#,
    r#"RECALL LIKE "standup blocked" WITH diversity(threshold, 0.6) | LIMIT 5"#,
    r#"RECALL MY goals SINCE "last 30 days" | SELECT object, goal_state, deadline"#,
    r#"RECALL events THREAD "sess-0302-alice" | SELECT role, content"#,
    r#"RECALL events BETWEEN 1772409600 AND 1772496000 | COUNT"#,
    r#"RECALL actions WHERE is_error = true | GROUP BY tool_name"#,
    r#"RECALL observations WHERE time = "last 7 days" | ORDER BY time ASC | PROJECT content(object), attr(observer)"#,
    r#"RECALL beliefs WHERE tags INCLUDE ["preference"] WITH dedup(subject), locale("de") | ORDER BY object ASC"#,
    r#"RECALL beliefs ABOUT "dave" CONTRADICTIONS"#,
    r#"RECALL beliefs WHERE relation = "member_of" | SUBJECTS"#,
    r#"RECALL WITH superseded, provenance | OFFSET 10 | LIMIT 10"#,
    r#"RECALL consents WHERE consent_action = "withdraw" | HASHES"#,
    r#"(RECALL beliefs ABOUT "alice") UNION (RECALL LIKE "dark mode")"#,
    r#"(RECALL LIKE "metrics") INTERSECT (RECALL WHERE user_id = "alice")"#,
    r#"(RECALL beliefs WHERE relation = "member_of" | SUBJECTS) EXCEPT (RECALL beliefs WHERE object = "leadership" | SUBJECTS)"#,
    r#"LET $team = RECALL beliefs WHERE relation = "member_of" AND object = "team-alpha" | SUBJECTS; RECALL goals WHERE subject IN ($team)"#,
    r#"COALESCE(RECALL beliefs WHERE subject = "alice" AND relation = "favorite_color", RECALL beliefs ABOUT "alice" LIKE "theme")"#,
    r#"BATCH { a: RECALL goals WHERE goal_state = "active", b: DESCRIBE capabilities, c: HISTORY WHERE subject = "project phoenix" AND relation = "status" }"#,
    r#"HISTORY WHERE subject = "project phoenix" AND relation = "status" AS OF "2026-02-15""#,
    r#"DESCRIBE fields goal"#,
    r#"DESCRIBE grammar"#,
    r#"DESCRIBE server"#,
    r#"EXPLAIN RECALL beliefs ABOUT "alice" RECENT 3"#,
    r#"ASSEMBLE ctx FOR "alice" FROM prefs: (RECALL beliefs ABOUT "alice"), goals: (RECALL goals ABOUT "alice") PRIORITY prefs > goals WITH dedup(subject)"#,
    r#"RECALL beliefs WHERE subject = "nobody" | COUNT"#,
];

fn interp(store: Arc<Store>) -> Interpreter<OmsFacade> {
    cal_interp::over(store)
}

fn options() -> ExecOptions {
    let mut o = ExecOptions::fixed(NOW_MS);
    o.user = Some("alice".into());
    o
}

fn run_all(i: &Interpreter<OmsFacade>) -> Vec<String> {
    QUERIES
        .iter()
        .map(|q| {
            let query = cal_parser::parse_query(q).into_result().unwrap_or_else(|d| panic!("{q}: {d:?}"));
            let r = i.execute(&query, &options());
            assert!(r.error.is_none(), "{q}: {:?}", r.error);
            r.to_pretty()
        })
        .collect()
}

/// The demo memory's entries in another order, with the same manifest.
fn shuffled(bytes: &[u8]) -> Vec<u8> {
    let file = MgFile::open(bytes).expect("demo memory opens");
    let mut entries: Vec<&[u8]> = file.entries().collect::<Result<_, _>>().expect("entries");
    entries.reverse();
    let n = entries.len();
    let mut interleaved: Vec<&[u8]> = Vec::with_capacity(n);
    let (a, b) = entries.split_at(n / 2);
    for i in 0..b.len().max(a.len()) {
        interleaved.extend(b.get(i));
        interleaved.extend(a.get(i));
    }
    pack(interleaved, file.manifest(), &PackOptions::default()).expect("repack")
}

#[test]
fn same_query_same_store_same_clock_same_bytes() {
    let store = Arc::new(demo::load(NOW_MS).unwrap());
    let i = interp(store.clone());
    let first = run_all(&i);
    assert_eq!(first, run_all(&i), "run twice");
    let other = Store::load(&shuffled(DEMO_MG), demo::config(NOW_MS)).unwrap();
    assert_eq!(other.len(), store.len());
    assert_ne!(other.addresses(), store.addresses(), "the order really differs");
    assert_eq!(first, run_all(&interp(Arc::new(other))), "store loaded in shuffled order");
}

#[test]
fn tier0_statements_leave_the_store_unchanged() {
    let store = Arc::new(demo::load(NOW_MS).unwrap());
    let before = store_digest(&store);
    let (len, addresses) = (store.len(), store.addresses());
    let i = interp(store.clone());
    run_all(&i);
    for q in [
        r#"ADD belief SET subject = "a" SET relation = "b" SET object = "c" REASON "r""#,
        r#"EXPLAIN ADD belief SET subject = "a" SET relation = "b" SET object = "c" REASON "r""#,
        r#"REVERT sha256:abcdef12 REASON "r""#,
    ] {
        let query = cal_parser::parse_query(q).into_result().unwrap();
        i.execute(&query, &options());
    }
    assert_eq!(store_digest(&store), before);
    assert_eq!((store.len(), store.addresses()), (len, addresses));
}

#[test]
fn demo_file_is_fresh() {
    let generated = demo::generate().expect("the demo memory generates");
    assert!(generated == DEMO_MG, "interp/demo/demo.mg is stale: run `cargo run -p cal-interp --example gen_demo`");
}

#[test]
fn demo_memory_has_every_grain_type_chains_and_contradictions() {
    let i = interp(Arc::new(demo::load(NOW_MS).unwrap()));
    let run = |q: &str| i.execute(&cal_parser::parse_query(q).into_result().unwrap(), &options()).json;
    for t in [
        "beliefs",
        "events",
        "states",
        "workflows",
        "actions",
        "observations",
        "goals",
        "reasonings",
        "consensuses",
        "consents",
    ] {
        let n = run(&format!("RECALL {t} | COUNT"))["count"].as_u64().unwrap();
        assert!(n >= 4, "{t}: {n}");
    }
    let total = run("RECALL WITH superseded | COUNT")["count"].as_u64().unwrap();
    assert!(total >= 200, "{total}");
    let phoenix = run(r#"HISTORY WHERE subject = "project phoenix" AND relation = "status""#);
    assert_eq!(phoenix["total"], 8);
    assert!(run("RECALL beliefs WHERE contradicted = true | COUNT")["count"].as_u64().unwrap() >= 2);
    let conflicts = run(r#"RECALL beliefs WHERE subject = "bob" WITH contradiction_detection, superseded"#);
    assert!(
        conflicts["results"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| !r["contradictions"]["conflicts_with"].as_array().unwrap().is_empty())
    );
}

#[test]
fn odd_inputs_are_errors_not_panics() {
    let i = interp(Arc::new(demo::load(NOW_MS).unwrap()));
    let mut o = options();
    o.params.insert("n".into(), serde_json::json!(-3));
    o.params.insert("h".into(), serde_json::json!("not a hash"));
    o.params.insert("arr".into(), serde_json::json!([1, [2, "x"]]));
    o.cursor = Some("cursor:garbage".into());
    for q in [
        "RECALL beliefs | LIMIT $n",
        "RECALL beliefs | OFFSET $n",
        "EXISTS $h",
        "HISTORY $h",
        "RECALL beliefs WHERE subject IN ($arr)",
        "RECALL beliefs WHERE confidence >= $arr",
        r#"RECALL beliefs WHERE time BETWEEN "yesterday" AND "2020-01-01""#,
        r#"RECALL beliefs WHERE time = "since since""#,
        "RECALL beliefs WHERE hash = sha256:ffffffff",
        r#"RECALL beliefs WHERE deadline >= 12"#,
        "RECALL beliefs",
    ] {
        let query = cal_parser::parse_query(q).into_result().unwrap_or_else(|d| panic!("{q}: {d:?}"));
        let r = i.execute(&query, &o);
        assert!(r.json.get("_cal").is_some(), "{q}");
    }
}
