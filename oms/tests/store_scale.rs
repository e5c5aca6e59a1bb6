//! The indexed query paths of issue 20 (posting-list intersections, ordered numeric and
//! time ranges, the walks of the time indexes per type and per (type, namespace) and of
//! the value indexes, with their counted totals) against the plain scan they replaced
//! (`Store::query_by_scan`): the same grains, in the same order, with the same total and
//! cursor. Over a generated 10,000-grain store with supersessions and erasures, over small
//! random stores full of ties, and over the conformance fixtures.

use std::sync::OnceLock;

use oms::store::{CmpOp, Filter, Query, ResultEnvelope, SortKey, Store, StoreConfig, View};
use oms::synthetic::mixed_grain;
use oms::{ContentAddress, Grain, GrainType, Value};
use proptest::prelude::*;
use serde_json::json;

const NOW: i64 = 1_772_798_400_000;

fn config() -> StoreConfig {
    StoreConfig { track_access: false, ..StoreConfig::fixed_clock(NOW) }
}

fn blob(v: &serde_json::Value) -> Vec<u8> {
    Grain::from_json(v).expect("valid grain").encode().expect("encodes").bytes
}

/// What a page is, for comparison: addresses in order, the total and the cursor.
fn shape(env: &ResultEnvelope) -> (Vec<ContentAddress>, usize, Option<String>) {
    (env.results.iter().map(|h| h.address).collect(), env.total, env.next_cursor.clone())
}

/// Asserts that the indexed path and the scan agree on `q`, and on its next two pages
/// (through the cursor, so a walk starts past an offset).
fn agree(store: &Store, q: &Query) {
    let (fast, slow) = (store.query(q), store.query_by_scan(q));
    match (fast, slow) {
        (Ok(f), Ok(s)) => {
            assert_eq!(shape(&f), shape(&s), "{q:?}");
            let mut cursor = f.next_cursor;
            for _ in 0..2 {
                let Some(c) = cursor else { break };
                let next = Query { cursor: Some(c), ..q.clone() };
                let page = store.query(&next).expect("next page");
                assert_eq!(shape(&page), shape(&store.query_by_scan(&next).expect("next page")), "{next:?}");
                cursor = page.next_cursor;
            }
        }
        (f, s) => assert_eq!(
            f.map(|e| shape(&e)).map_err(|e| e.to_string()),
            s.map(|e| shape(&e)).map_err(|e| e.to_string()),
            "{q:?}"
        ),
    }
}

/// The 10,000-grain benchmark store, with 40 supersessions and 25 erasures, saved and
/// loaded again (so its grains are held as bytes and decoded when read, as after any load).
fn big() -> &'static Store {
    static S: OnceLock<Store> = OnceLock::new();
    S.get_or_init(|| {
        let store = Store::new(config());
        let mut addrs = Vec::new();
        for i in 0..10_000 {
            addrs.push(store.put(&blob(&mixed_grain(i, NOW))).expect("put"));
        }
        for i in 0..40 {
            let old = store.peek(&addrs[i * 7]).expect("stored");
            if old.grain().grain_type() != GrainType::Belief {
                continue;
            }
            let mut g = old.grain().to_json();
            g["object"] = json!(format!("revised {i}"));
            g["created_at"] = json!(NOW - i as i64);
            g["derived_from"] = json!([old.address.to_hex()]);
            store.supersede(&old.address, &blob(&g), None).expect("supersede");
        }
        for i in 0..25 {
            store.delete(&addrs[9_000 + i * 3]).expect("erase");
        }
        let saved = store.save(&oms::store::SaveOptions::default()).expect("saves");
        Store::load(&saved, config()).expect("loads")
    })
}

fn op() -> impl Strategy<Value = CmpOp> {
    prop::sample::select(vec![CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge])
}

fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        prop::sample::select(vec![0.0, 0.5, 0.9, 0.98, 0.99, 1.0, -0.0]).prop_map(Value::Float),
        (0i64..3).prop_map(Value::from),
        Just(Value::Str("0.5".into())),
    ]
}

fn filter(subjects: u64) -> impl Strategy<Value = Filter> {
    let eq = |field: &'static str, v: String| Filter::Cmp { field: field.into(), op: CmpOp::Eq, value: Value::Str(v) };
    prop_oneof![
        prop::sample::select(vec![GrainType::Belief, GrainType::Event, GrainType::Observation, GrainType::Goal])
            .prop_map(Filter::Type),
        (0..subjects).prop_map(move |s| eq("subject", format!("entity-{s}"))),
        prop::sample::select(vec!["mg:prefers", "mg:knows", "status", "nope"])
            .prop_map(move |r| eq("relation", r.into())),
        (0u64..1000).prop_map(move |u| eq("user_id", format!("user-{u}"))),
        (0u64..17).prop_map(move |n| eq("namespace", format!("bench-{n}"))),
        prop::collection::vec(0u64..17, 1..4).prop_map(|ns| Filter::In {
            field: "namespace".into(),
            values: ns.into_iter().map(|n| Value::Str(format!("bench-{n}"))).collect(),
        }),
        (op(), number()).prop_map(|(op, value)| Filter::Cmp { field: "importance".into(), op, value }),
        (op(), (0i64..4).prop_map(Value::from)).prop_map(|(op, value)| Filter::Cmp {
            field: "priority".into(),
            op,
            value
        }),
        Just(Filter::Exists("confidence".into())),
        Just(Filter::Cmp { field: "consent_withdrawn".into(), op: CmpOp::Eq, value: Value::Bool(false) }),
        (op(), number()).prop_map(|(op, value)| Filter::Cmp { field: "confidence".into(), op, value }),
        (prop::option::of(0i64..400), prop::option::of(0i64..400)).prop_map(|(a, b)| Filter::CreatedBetween {
            from: a.map(|d| NOW - d * 86_400_000),
            to: b.map(|d| NOW - d * 86_400_000),
        }),
        prop::sample::select(vec!["hot", "cold", "bench"]).prop_map(|t| Filter::TagsInclude(vec![t.into()])),
    ]
}

fn query(subjects: u64) -> impl Strategy<Value = Query> {
    let sort = prop_oneof![
        Just(vec![]),
        any::<bool>().prop_map(|d| vec![SortKey { field: "created_at".into(), descending: d }]),
        any::<bool>().prop_map(|d| vec![SortKey { field: "content_address".into(), descending: d }]),
        (prop::sample::select(vec!["confidence", "importance", "priority"]), any::<bool>())
            .prop_map(|(f, d)| vec![SortKey { field: f.into(), descending: d }]),
    ];
    let view =
        prop_oneof![Just(View::Current), Just(View::All), (0i64..3).prop_map(|d| View::AsOf(NOW - d * 3_600_000))];
    (prop::collection::vec(filter(subjects), 0..4), view, sort, prop::option::of(0usize..25))
        .prop_map(|(filters, view, sort, limit)| Query { filters, view, sort, limit, cursor: None })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 192, ..ProptestConfig::default() })]

    #[test]
    fn the_generated_store_answers_as_the_scan_does(q in query(500)) {
        agree(big(), &q);
    }

    /// Small stores where most grains share a creation time or a confidence: the page
    /// boundary of a recency walk falls inside runs of ties, which the address orders.
    #[test]
    fn ties_are_ordered_as_the_scan_orders_them(
        grains in prop::collection::vec(
            (0u8..3, 0u64..4, 0i64..3, 0u8..4, any::<bool>(), 0u64..3, prop::option::of(0u8..3), prop::option::of(0i64..3)),
            1..60,
        ),
        supersede in prop::collection::vec(any::<prop::sample::Index>(), 0..5),
        qs in prop::collection::vec(query(4), 1..8),
    ) {
        let store = Store::new(config());
        let mut addrs = Vec::new();
        for (i, (kind, subject, t, conf, hot, ns, importance, priority)) in grains.iter().enumerate() {
            let mut g = match kind {
                0 => json!({ "type": "belief", "subject": format!("entity-{subject}"), "relation": "mg:knows",
                    "object": format!("o{i}"), "user_id": format!("user-{subject}") }),
                1 => json!({ "type": "event", "subject": format!("entity-{subject}"), "content": format!("c{i}"),
                    "user_id": format!("user-{subject}") }),
                _ => json!({ "type": "observation", "subject": format!("entity-{subject}"), "observer_id": "o",
                    "observer_type": "agent:monitor", "object": format!("x{i}") }),
            };
            g["created_at"] = json!(NOW - t * 86_400_000);
            g["namespace"] = json!(format!("bench-{ns}"));
            g["structural_tags"] = json!([if *hot { "hot" } else { "cold" }]);
            if *kind == 0 {
                g["confidence"] = json!([0.0, 0.5, 0.99, 1.0][*conf as usize]);
            }
            if let Some(k) = importance {
                g["importance"] = json!([0.0, 0.5, 1.0][*k as usize]);
            }
            if let Some(p) = priority {
                g["priority"] = json!(p);
            }
            addrs.push(store.put(&blob(&g)).expect("put"));
        }
        for (n, ix) in supersede.iter().enumerate() {
            let old = store.peek(&addrs[ix.index(addrs.len())]).expect("stored");
            if old.grain().grain_type() != GrainType::Belief || old.index.superseded_by.is_some() {
                continue;
            }
            let mut g = old.grain().to_json();
            g["object"] = json!(format!("new {n}"));
            g["derived_from"] = json!([old.address.to_hex()]);
            store.supersede(&old.address, &blob(&g), None).expect("supersede");
        }
        for q in &qs {
            agree(&store, q);
        }
    }
}

/// Every conformance fixture, under a battery of queries built from what it holds, ordered
/// by time and by each numeric field.
#[test]
fn the_conformance_fixtures_answer_as_the_scan_does() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance/fixtures");
    let mut files: Vec<_> = std::fs::read_dir(&dir).expect("fixtures").flatten().map(|e| e.path()).collect();
    files.retain(|p| p.extension().is_some_and(|x| x == "mg"));
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    let types = [GrainType::Belief, GrainType::Event, GrainType::Goal, GrainType::Observation, GrainType::Action];
    for f in files {
        let store = Store::load(&std::fs::read(&f).expect("readable"), config()).expect("loads");
        let all = store.query_by_scan(&Query { view: View::All, ..Query::default() }).expect("scan");
        let mut queries = Vec::new();
        let sorts = [
            vec![],
            vec![SortKey { field: "created_at".into(), descending: false }],
            vec![SortKey { field: "confidence".into(), descending: true }],
            vec![SortKey { field: "importance".into(), descending: false }],
            vec![SortKey { field: "priority".into(), descending: true }],
        ];
        for limit in [None, Some(0), Some(1), Some(3), Some(10)] {
            for view in [View::Current, View::All, View::AsOf(NOW)] {
                // Ordered by a numeric field, a walk needs a limit: one page size is enough.
                for sort in sorts.iter().filter(|s| s.is_empty() || s[0].field == "created_at" || limit == Some(3)) {
                    for t in types {
                        queries.push(Query {
                            filters: vec![Filter::Type(t)],
                            view,
                            sort: sort.clone(),
                            limit,
                            cursor: None,
                        });
                    }
                    queries.push(Query { filters: vec![], view, sort: sort.clone(), limit, cursor: None });
                    for h in all.results.iter().take(12) {
                        for field in ["subject", "relation", "user_id", "namespace"] {
                            if let Some(v) = h.grain().get(field) {
                                let eq = Filter::Cmp { field: field.into(), op: CmpOp::Eq, value: v.clone() };
                                queries.push(Query {
                                    filters: vec![eq],
                                    view,
                                    sort: sort.clone(),
                                    limit,
                                    cursor: None,
                                });
                            }
                        }
                        if let Some(ns) = h.grain().get("namespace") {
                            let eq = Filter::Cmp { field: "namespace".into(), op: CmpOp::Eq, value: ns.clone() };
                            queries.push(Query {
                                filters: vec![Filter::Type(h.grain().grain_type()), eq],
                                view,
                                sort: sort.clone(),
                                limit,
                                cursor: None,
                            });
                        }
                        if let Some(c) = h.grain().get("confidence") {
                            for op in [CmpOp::Ge, CmpOp::Lt, CmpOp::Eq] {
                                let cmp = Filter::Cmp { field: "confidence".into(), op, value: c.clone() };
                                queries.push(Query {
                                    filters: vec![Filter::Type(h.grain().grain_type()), cmp],
                                    view,
                                    sort: sort.clone(),
                                    limit,
                                    cursor: None,
                                });
                            }
                        }
                    }
                }
            }
        }
        for q in &queries {
            agree(&store, q);
        }
    }
}

/// RECENT n over each type, every view and both directions, on the generated store: the
/// recency walk and its counted total, page by page.
#[test]
fn recency_walks_answer_as_the_scan_does() {
    let store = big();
    for t in [GrainType::Belief, GrainType::Event, GrainType::Observation, GrainType::Goal] {
        for view in [View::Current, View::All, View::AsOf(NOW - 3_600_000)] {
            for sort in [vec![], vec![SortKey { field: "created_at".into(), descending: false }]] {
                for limit in [0, 1, 7, 40] {
                    agree(
                        store,
                        &Query {
                            filters: vec![Filter::Type(t)],
                            view,
                            sort: sort.clone(),
                            limit: Some(limit),
                            cursor: None,
                        },
                    );
                }
            }
        }
    }
}

/// The queries of one shape over a store, in every view, under limits that end a page
/// inside a run of ties and not, through three pages each (following the cursors), against
/// one unlimited scan per view: the page, the total and whether a cursor follows.
fn agree_in_every_view(store: &Store, filters: &[Filter], sort: &[SortKey]) {
    for view in [View::Current, View::All, View::AsOf(NOW - 3_600_000)] {
        let base = Query { filters: filters.to_vec(), view, sort: sort.to_vec(), limit: None, cursor: None };
        let order: Vec<ContentAddress> =
            store.query_by_scan(&base).expect("scan").results.iter().map(|h| h.address).collect();
        for limit in [7, 40] {
            let mut q = Query { limit: Some(limit), ..base.clone() };
            for page in 0..3 {
                let got = store.query(&q).expect("query");
                let start = (page * limit).min(order.len());
                let end = (page * limit + limit).min(order.len());
                assert_eq!(got.results.iter().map(|h| h.address).collect::<Vec<_>>(), order[start..end], "{q:?}");
                assert_eq!(got.total, order.len(), "{q:?}");
                assert_eq!(got.next_cursor.is_some(), end < order.len(), "{q:?}");
                match got.next_cursor {
                    Some(c) => q.cursor = Some(c),
                    None => break,
                }
            }
        }
    }
}

fn ns(name: &str) -> Filter {
    Filter::Cmp { field: "namespace".into(), op: CmpOp::Eq, value: Value::Str(name.into()) }
}

/// RECENT n, ORDER BY created_at, SINCE and BETWEEN inside one namespace (or a few) of the
/// generated store's sixteen: the walks of the (type, namespace) time index.
#[test]
fn namespaced_time_walks_answer_as_the_scan_does() {
    let store = big();
    let day = 86_400_000;
    let ranges = [
        None,
        Some(Filter::CreatedBetween { from: Some(NOW - 30 * day), to: None }),
        Some(Filter::CreatedBetween { from: Some(NOW - 200 * day), to: Some(NOW - 100 * day) }),
        Some(Filter::CreatedBetween { from: Some(NOW - 100 * day), to: Some(NOW - 200 * day) }),
    ];
    let places = [
        ns("bench-3"),
        ns("nowhere"),
        Filter::In {
            field: "namespace".into(),
            values: vec![Value::Str("bench-1".into()), Value::Str("bench-9".into())],
        },
    ];
    for t in [GrainType::Belief, GrainType::Event] {
        for place in &places {
            for (i, range) in ranges.iter().enumerate() {
                let mut filters = vec![Filter::Type(t), place.clone()];
                filters.extend(range.clone());
                // Both directions without a range; one each (alternating) within one.
                let ascending: &[bool] = match i {
                    0 => &[false, true],
                    _ if i % 2 == 1 => &[true],
                    _ => &[false],
                };
                for asc in ascending {
                    let sort =
                        if *asc { vec![SortKey { field: "created_at".into(), descending: false }] } else { vec![] };
                    agree_in_every_view(store, &filters, &sort);
                }
            }
        }
    }
}

/// ORDER BY each numeric field, both directions, under filters the value index answers,
/// filters it does not, and none: the walks of the value indexes, and the grains lacking
/// the field after them.
#[test]
fn numeric_walks_answer_as_the_scan_does() {
    let store = big();
    let cmp = |op, value| Filter::Cmp { field: "confidence".into(), op, value };
    let user = Filter::Cmp { field: "user_id".into(), op: CmpOp::Eq, value: Value::Str("user-7".into()) };
    let withdrawn = Filter::Cmp { field: "consent_withdrawn".into(), op: CmpOp::Eq, value: Value::Bool(false) };
    let shapes = [
        vec![],
        vec![Filter::Type(GrainType::Belief)],
        vec![Filter::Type(GrainType::Event)],
        vec![Filter::Type(GrainType::Belief), ns("bench-5")],
        vec![cmp(CmpOp::Ge, Value::Float(0.5))],
        vec![Filter::Type(GrainType::Belief), cmp(CmpOp::Lt, Value::Float(0.3))],
        vec![Filter::Type(GrainType::Belief), cmp(CmpOp::Ge, Value::from(1i64))],
        vec![Filter::Type(GrainType::Belief), user],
        vec![Filter::Type(GrainType::Belief), withdrawn],
    ];
    for (field, shapes) in [("confidence", &shapes[..]), ("importance", &shapes[..1])] {
        for filters in shapes {
            for descending in [true, false] {
                agree_in_every_view(store, filters, &[SortKey { field: field.into(), descending }]);
            }
        }
    }
}

/// A field holding a non-number in some grains sorts them among the numbers by kind, and
/// integers beyond 2^53 can share an `f64` key while comparing unequal: neither is what the
/// value index can order, and ORDER BY such a field still answers as the scan does.
#[test]
fn a_field_the_value_index_cannot_order_orders_as_the_scan_does() {
    let odd: [fn(i64) -> serde_json::Value; 2] = [
        |i| match i % 5 {
            0 => json!("high"),
            1 => json!(null),
            2 => json!(i % 3),
            3 => json!(0.5),
            _ => json!(i),
        },
        |i| json!((1i64 << 60) + i % 3),
    ];
    for priority in odd {
        let store = Store::new(config());
        for i in 0..40i64 {
            let g = json!({ "type": "goal", "description": format!("goal {i}"), "goal_state": "active",
                "created_at": NOW - i * 1000, "namespace": "bench-1", "priority": priority(i) });
            store.put(&blob(&g)).expect("put");
        }
        for filters in [vec![], vec![Filter::Type(GrainType::Goal), ns("bench-1")]] {
            for descending in [true, false] {
                agree_in_every_view(&store, &filters, &[SortKey { field: "priority".into(), descending }]);
            }
        }
    }
}
