//! Issue 19: BM25 statistics were computed over every namespace, so the same grain in one
//! namespace scored 0.6877, 0.7234 or 0.5881 depending only on what other namespaces held (a
//! side channel across namespaces). A search confined to namespaces (`namespace = …`, the
//! filter a capability token adds) now scores over those alone, in both stores alike.

use oms::durable::DurableStore;
use oms::store::{CmpOp, Filter, Query, Store, StoreConfig};
use oms::{Grain, Value};

const NOW: i64 = 1_772_798_400_000;

fn belief(ns: &str, subject: &str, object: &str, i: i64) -> Vec<u8> {
    let j = format!(
        r#"{{"type":"belief","subject":"{subject}","relation":"notes","object":"{object}","confidence":0.9,"created_at":{},"namespace":"{ns}"}}"#,
        NOW - i
    );
    Grain::from_json_str(&j).unwrap().encode().unwrap().bytes
}

/// Namespace "a" is always the same; namespace "b" varies.
fn grains(b_variant: usize) -> Vec<Vec<u8>> {
    let mut out = vec![
        belief("a", "alice", "coffee in the morning", 1),
        belief("a", "alice", "tea in the morning", 2),
        belief("a", "bob", "long walks", 3),
    ];
    for i in 0..(5 + b_variant * 40) {
        let text = if i % (b_variant + 2) == 0 { "coffee coffee everywhere" } else { "unrelated words here" };
        out.push(belief("b", "carol", text, 100 + i as i64));
    }
    out
}

fn confined(ns: &str) -> Query {
    Query {
        filters: vec![Filter::Cmp { field: "namespace".into(), op: CmpOp::Eq, value: Value::Str(ns.into()) }],
        ..Query::default()
    }
}

fn scores_in_memory(b_variant: usize) -> Vec<(String, f64)> {
    let store = Store::new(StoreConfig::fixed_clock(NOW));
    for g in grains(b_variant) {
        store.put(&g).unwrap();
    }
    let env = store.search("coffee morning", &confined("a")).unwrap();
    env.results.iter().map(|h| (h.address.to_hex(), h.score)).collect()
}

fn scores_durable(b_variant: usize) -> Vec<(String, f64)> {
    let dir = tempfile::tempdir().unwrap();
    let store = DurableStore::create(&dir.path().join("s.db"), StoreConfig::fixed_clock(NOW)).unwrap();
    for g in grains(b_variant) {
        store.put(&g).unwrap();
    }
    let env = store.search("coffee morning", &confined("a")).unwrap();
    env.results.iter().map(|h| (h.address.to_hex(), h.score)).collect()
}

#[test]
fn a_confined_search_scores_the_same_whatever_other_namespaces_hold() {
    let base = scores_in_memory(0);
    assert_eq!(base.len(), 2, "two of a's grains match, with different scores: {base:?}");
    assert!(base[1].1 < 1.0);
    for variant in 1..4 {
        assert_eq!(scores_in_memory(variant), base, "in memory, namespace b variant {variant}");
        assert_eq!(scores_durable(variant), base, "durable, namespace b variant {variant}");
    }
    // Unconfined, the whole store is the collection: scores do depend on b (the raw scores
    // before normalization differ; the grains compared here are a's).
    let all = |v| {
        let store = Store::new(StoreConfig::fixed_clock(NOW));
        for g in grains(v) {
            store.put(&g).unwrap();
        }
        store.search("coffee morning tea", &Query::default()).unwrap().results.len()
    };
    assert!(all(3) > all(0));
}
