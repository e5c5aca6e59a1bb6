//! The store protocol of OMS §28.4: get, put, supersede, exists, query,
//! search, put_batch, get_batch, delete; the index layer kept out of blobs.

use oms::store::{CmpOp, Filter, Query, SortKey, Store, StoreConfig, View};
use oms::{ContentAddress, Grain, GrainType, Value};

const NOW: i64 = 1_800_000_000_000;

fn store() -> Store {
    Store::new(StoreConfig::fixed_clock(NOW))
}

fn belief(subject: &str, relation: &str, object: &str, created: i64) -> Vec<u8> {
    Grain::from_json_str(&format!(
        r#"{{"type":"belief","subject":"{subject}","relation":"{relation}","object":"{object}",
        "confidence":0.8,"created_at":{created},"namespace":"ns","user_id":"u1","structural_tags":["t1"]}}"#
    ))
    .unwrap()
    .encode()
    .unwrap()
    .bytes
}

fn next_version(old: &ContentAddress, subject: &str, object: &str, created: i64) -> Vec<u8> {
    Grain::from_json_str(&format!(
        r#"{{"type":"belief","subject":"{subject}","relation":"prefers","object":"{object}",
        "confidence":0.9,"created_at":{created},"derived_from":["{old}"]}}"#
    ))
    .unwrap()
    .encode()
    .unwrap()
    .bytes
}

#[test]
fn put_get_exists_and_idempotence() {
    let s = store();
    let blob = belief("alice", "prefers", "tea", 1_000);
    let a = s.put(&blob).unwrap();
    assert_eq!(a, ContentAddress::of(&blob));
    assert_eq!(s.put(&blob).unwrap(), a, "put is idempotent");
    assert_eq!(s.len(), 1);
    assert!(s.exists(&a));
    let got = s.get(&a).unwrap();
    assert_eq!(got.blob(), &blob[..]);
    assert_eq!(got.grain().get_str("object"), Some("tea"));
    assert!(s.get(&ContentAddress::of(b"nope")).is_none());
    assert!(!s.exists(&ContentAddress::of(b"nope")));
    // Reads are counted in the index layer, never in the blob.
    let again = s.get(&a).unwrap();
    assert_eq!(again.index.access_count, Some(2));
    assert_eq!(again.index.last_accessed_at, Some(NOW));
    assert_eq!(again.blob(), &blob[..]);
    assert_eq!(s.peek(&a).unwrap().index.access_count, Some(2), "peek does not count");
}

#[test]
fn put_rejects_invalid_blobs() {
    let s = store();
    let mut bad = belief("a", "r", "o", 1);
    bad[3] ^= 1;
    assert_eq!(s.put(&bad).unwrap_err().code(), "ERR_CORRUPT");
    assert!(s.is_empty());
}

#[test]
fn put_refuses_implied_supersession() {
    let s = store();
    let a = s.put(&belief("alice", "prefers", "tea", 1_000)).unwrap();
    let e = s.put(&next_version(&a, "alice", "coffee", 2_000)).unwrap_err();
    assert_eq!(e.code(), "ERR_INVALIDATION_DENIED");
    // Deriving a different claim is fine.
    s.put(&next_version(&a, "bob", "coffee", 2_000)).unwrap();
}

#[test]
fn supersede_updates_the_index_layer_only() {
    let s = store();
    let old_blob = belief("alice", "prefers", "tea", 1_000);
    let a = s.put(&old_blob).unwrap();
    let b = s.supersede(&a, &next_version(&a, "alice", "coffee", 2_000), None).unwrap();
    let old = s.get(&a).unwrap();
    assert_eq!(old.blob(), &old_blob[..], "old blob unchanged");
    assert_eq!(old.index.superseded_by, Some(b));
    assert_eq!(old.index.system_valid_to, Some(NOW));
    assert!(s.get(&b).unwrap().index.superseded_by.is_none());
    // Superseding again is a conflict; so is storing the same new grain twice.
    let e = s.supersede(&a, &next_version(&a, "alice", "juice", 3_000), None).unwrap_err();
    assert_eq!(e.code(), "ERR_CONFLICT");
    // The new grain must derive from the old one and keep its type.
    let unrelated = belief("alice", "prefers", "milk", 4_000);
    assert_eq!(s.supersede(&b, &unrelated, None).unwrap_err().code(), "ERR_SCHEMA");
    let event =
        Grain::from_json_str(&format!(r#"{{"type":"event","content":"x","created_at":5,"derived_from":["{b}"]}}"#))
            .unwrap();
    assert_eq!(s.supersede(&b, &event.encode().unwrap().bytes, None).unwrap_err().code(), "ERR_SCHEMA");
    assert_eq!(s.supersede(&ContentAddress::of(b"x"), &unrelated, None).unwrap_err().code(), "ERR_NOT_FOUND");
    assert_eq!(s.len(), 2, "failed supersessions change nothing");
}

#[test]
fn batches() {
    let s = store();
    let blobs: Vec<Vec<u8>> = (0..5).map(|i| belief(&format!("s{i}"), "r", "o", i)).collect();
    let mut refs: Vec<&[u8]> = blobs.iter().map(Vec::as_slice).collect();
    let bad = vec![1u8, 2, 3];
    refs.push(&bad);
    let results = s.put_batch(&refs);
    assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 5);
    assert_eq!(results[5].as_ref().unwrap_err().code(), "ERR_TOO_SHORT");
    let addrs: Vec<ContentAddress> = results.iter().take(5).map(|r| *r.as_ref().unwrap()).collect();
    let mut ask = addrs.clone();
    ask.push(ContentAddress::of(b"missing"));
    let got = s.get_batch(&ask);
    assert!(got[..5].iter().all(Option::is_some));
    assert!(got[5].is_none());
}

fn eq(field: &str, v: &str) -> Filter {
    Filter::Cmp { field: field.into(), op: CmpOp::Eq, value: Value::from(v) }
}

#[test]
fn query_filters_sort_limit_cursor() {
    let s = store();
    for i in 0..30 {
        s.put(&belief(if i % 3 == 0 { "alice" } else { "bob" }, "likes", &format!("thing{i}"), 1_000 + i)).unwrap();
    }
    let q = Query { filters: vec![eq("subject", "alice")], limit: Some(4), ..Query::default() };
    let page1 = s.query(&q).unwrap();
    assert_eq!(page1.total, 10);
    assert_eq!(page1.results.len(), 4);
    let times: Vec<i64> = page1.results.iter().map(|h| h.grain().created_at().unwrap()).collect();
    assert_eq!(times, [1_027, 1_024, 1_021, 1_018], "default order: created_at descending");
    assert_eq!(page1.results[0].matched_fields, ["subject"]);
    assert_eq!(page1.results[0].score, 1.0);
    let mut all = page1.results.clone();
    let mut cursor = page1.next_cursor.clone();
    while let Some(c) = cursor {
        let page = s.query(&Query { cursor: Some(c), ..q.clone() }).unwrap();
        all.extend(page.results.clone());
        cursor = page.next_cursor;
    }
    assert_eq!(all.len(), 10);
    // A cursor from another query is refused.
    let other = Query { filters: vec![eq("subject", "bob")], cursor: page1.next_cursor.clone(), ..Query::default() };
    assert_eq!(s.query(&other).unwrap_err().code(), "ERR_SCHEMA");
    // Sort ascending on a field, numeric comparison, IN, tags, type.
    let q2 = Query {
        filters: vec![
            Filter::Type(GrainType::Belief),
            Filter::Cmp { field: "created_at".into(), op: CmpOp::Ge, value: Value::from(1_025i64) },
            Filter::In { field: "subject".into(), values: vec!["alice".into(), "bob".into()] },
            Filter::TagsInclude(vec!["t1".into()]),
            Filter::TagsExclude(vec!["nope".into()]),
        ],
        sort: vec![SortKey { field: "object".into(), descending: false }],
        ..Query::default()
    };
    let r = s.query(&q2).unwrap();
    let objects: Vec<&str> = r.results.iter().map(|h| h.grain().get_str("object").unwrap()).collect();
    assert_eq!(objects, ["thing25", "thing26", "thing27", "thing28", "thing29"]);
    let json = r.to_json();
    assert_eq!(json["total"], 5);
    assert!(json["results"][0]["content_address"].as_str().unwrap().len() == 64);
}

#[test]
fn query_by_index_layer_fields_and_paths() {
    let s = store();
    let a = s.put(&belief("alice", "prefers", "tea", 1)).unwrap();
    let _b = s.put(&belief("bob", "prefers", "tea", 2)).unwrap();
    s.set_verification_status(&a, "verified", &[]).unwrap();
    let q = Query { filters: vec![eq("verification_status", "verified")], ..Query::default() };
    let r = s.query(&q).unwrap();
    assert_eq!(r.total, 1);
    assert_eq!(r.results[0].address, a);
    let unverified = Query { filters: vec![eq("verification_status", "unverified")], ..Query::default() };
    assert_eq!(s.query(&unverified).unwrap().total, 1);
    assert_eq!(s.set_verification_status(&a, "bogus", &[]).unwrap_err().code(), "ERR_SCHEMA");
    let ctx = Grain::from_json_str(r#"{"type":"state","context":{"model":"m1"},"created_at":3}"#).unwrap();
    s.put(&ctx.encode().unwrap().bytes).unwrap();
    let q = Query { filters: vec![eq("context.model", "m1")], ..Query::default() };
    assert_eq!(s.query(&q).unwrap().total, 1);
    // A missing field satisfies no comparison, not even !=.
    let ne = Query {
        filters: vec![Filter::Cmp { field: "object".into(), op: CmpOp::Ne, value: "x".into() }],
        ..Query::default()
    };
    assert_eq!(s.query(&ne).unwrap().total, 2);
}

#[test]
fn search_is_bm25_normalised_and_deterministic() {
    let s = store();
    let texts = [
        ("alice", "prefers", "dark mode in every editor"),
        ("alice", "works_at", "ACME"),
        ("bob", "prefers", "light mode"),
        ("carol", "likes", "dark chocolate and dark coffee"),
    ];
    for (i, (subj, rel, obj)) in texts.iter().enumerate() {
        s.put(&belief(subj, rel, obj, i as i64)).unwrap();
    }
    let r = s.search("dark mode", &Query::default()).unwrap();
    assert_eq!(r.total, 3);
    assert_eq!(r.results[0].score, 1.0);
    assert!(r.results.iter().all(|h| (0.0..=1.0).contains(&h.score)));
    assert!(r.results.windows(2).all(|w| w[0].score >= w[1].score));
    assert!(r.results[0].matched_fields.contains(&"object".to_string()));
    // ABOUT "alice" finds grains about Alice through the subject.
    let about = s.search("Alice", &Query::default()).unwrap();
    assert_eq!(about.total, 2);
    // Filters combine with relevance; stemming and case folding apply.
    let q = Query { filters: vec![eq("subject", "alice")], ..Query::default() };
    let r2 = s.search("WORKING", &q).unwrap();
    assert_eq!(r2.total, 1, "works_at is humanized to 'works at' and stemmed");
    // Same store, same query: same bytes.
    let again = s.search("dark mode", &Query::default()).unwrap();
    assert_eq!(format!("{}", again.to_json()), format!("{}", r.to_json()));
    assert_eq!(s.search("", &Query::default()).unwrap().total, 0);
}

#[test]
fn search_ties_break_by_address() {
    let s = store();
    let mut addrs = Vec::new();
    for i in 0..6 {
        addrs.push(s.put(&belief(&format!("p{i}"), "likes", "tea", i)).unwrap());
    }
    let r = s.search("tea", &Query::default()).unwrap();
    let got: Vec<ContentAddress> = r.results.iter().map(|h| h.address).collect();
    addrs.sort();
    assert_eq!(got, addrs);
}

#[test]
fn delete_is_compliance_erasure() {
    let s = store();
    let a = s.put(&belief("alice", "prefers", "tea", 1)).unwrap();
    s.delete(&a).unwrap();
    assert!(!s.exists(&a));
    assert_eq!(s.query(&Query { filters: vec![eq("subject", "alice")], ..Query::default() }).unwrap().total, 0);
    assert_eq!(s.search("tea", &Query::default()).unwrap().total, 0);
    assert_eq!(s.delete(&a).unwrap_err().code(), "ERR_NOT_FOUND");
}

#[test]
fn views_current_as_of_and_all() {
    let s = Store::new(StoreConfig::fixed_clock(5_000));
    let a = s.put(&belief("alice", "prefers", "tea", 1_000)).unwrap();
    let b = s.supersede(&a, &next_version(&a, "alice", "coffee", 2_000), None).unwrap();
    let q = |view| Query { filters: vec![eq("subject", "alice")], view, ..Query::default() };
    let current = s.query(&q(View::Current)).unwrap();
    assert_eq!(current.results.iter().map(|h| h.address).collect::<Vec<_>>(), [b]);
    assert_eq!(s.query(&q(View::All)).unwrap().total, 2);
    // Before the supersession (svt = 5000) the old grain was current.
    let past = s.query(&q(View::AsOf(1_500))).unwrap();
    assert_eq!(past.results.iter().map(|h| h.address).collect::<Vec<_>>(), [a]);
    let later = s.query(&q(View::AsOf(6_000))).unwrap();
    assert_eq!(later.results.iter().map(|h| h.address).collect::<Vec<_>>(), [b]);
    // Before anything existed.
    assert_eq!(s.query(&q(View::AsOf(500))).unwrap().total, 0);
}

#[test]
fn valid_time_queries() {
    let s = store();
    let g = Grain::from_json_str(
        r#"{"type":"belief","subject":"alice","relation":"works_at","object":"Acme","confidence":0.9,
        "created_at":1737000000000,"valid_from":1735689600000,"valid_to":1767225600000}"#,
    )
    .unwrap();
    s.put(&g.encode().unwrap().bytes).unwrap();
    let at = |t| s.query(&Query { filters: vec![Filter::ValidAt(t)], ..Query::default() }).unwrap().total;
    assert_eq!(at(1_750_000_000_000), 1);
    assert_eq!(at(1_700_000_000_000), 0);
    assert_eq!(at(1_800_000_000_000), 0);
    let between = Query {
        filters: vec![Filter::CreatedBetween { from: Some(1_737_000_000_000), to: Some(1_737_000_000_001) }],
        ..Query::default()
    };
    assert_eq!(s.query(&between).unwrap().total, 1);
}

#[test]
fn history_walks_chains_both_ways() {
    let s = store();
    let a = s.put(&belief("alice", "prefers", "tea", 1)).unwrap();
    let b = s.supersede(&a, &next_version(&a, "alice", "coffee", 2), None).unwrap();
    let c = s.supersede(&b, &next_version(&b, "alice", "juice", 3), None).unwrap();
    for start in [a, b, c] {
        let h: Vec<ContentAddress> = s.history(&start).unwrap().iter().map(|x| x.address).collect();
        assert_eq!(h, [a, b, c]);
    }
    let versions: Vec<ContentAddress> = s.versions("alice", "prefers").iter().map(|x| x.address).collect();
    assert_eq!(versions, [a, b, c]);
    assert_eq!(s.history(&ContentAddress::of(b"x")).unwrap_err().code(), "ERR_NOT_FOUND");
}

#[test]
fn recency_order_puts_undated_grains_last() {
    let s = store();
    let a = s.put(&belief("a", "r", "o", 10)).unwrap();
    let b = s.put(&belief("b", "r", "o", 20)).unwrap();
    let mut m = oms::Map::new();
    m.insert("type".into(), "x:custom".into());
    let opaque = Grain::with_type_byte(m, 0xf0).unwrap();
    let c = s.put(&opaque.encode().unwrap().bytes).unwrap();
    let order = |sort: Vec<SortKey>, limit| -> Vec<ContentAddress> {
        s.query(&Query { sort, limit, ..Query::default() }).unwrap().results.iter().map(|h| h.address).collect()
    };
    assert_eq!(order(vec![], None), [b, a, c]);
    assert_eq!(order(vec![], Some(2)), [b, a]);
    let asc = vec![SortKey { field: "created_at".into(), descending: false }];
    assert_eq!(order(asc.clone(), None), [a, b, c]);
    assert_eq!(order(asc, Some(1)), [a]);
}

#[test]
fn address_order_is_byte_order_of_the_hex_form() {
    let s = store();
    let mut put: Vec<ContentAddress> =
        (0..12).map(|i| s.put(&belief("a", "r", &format!("o{i}"), 1_000 - i)).unwrap()).collect();
    let order = |field: &str, descending, limit| -> Vec<ContentAddress> {
        let sort = vec![SortKey { field: field.into(), descending }];
        s.query(&Query { sort, limit, ..Query::default() }).unwrap().results.iter().map(|h| h.address).collect()
    };
    put.sort_by_key(|a| a.to_hex());
    assert_eq!(order("content_address", false, None), put);
    assert_eq!(order("hash", false, Some(3)), put[..3]);
    let mut desc = put.clone();
    desc.reverse();
    assert_eq!(order("content_address", true, Some(4)), desc[..4]);
}
