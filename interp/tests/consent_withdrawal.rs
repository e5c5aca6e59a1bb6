//! A consent withdrawal (OMS §8.10) takes the grains on the withdrawn basis
//! out of every RECALL at once — the current view and `WITH superseded`
//! alike (CAL §19.1: no CAL syntax weakens the active policy) — and
//! HISTORY does not show them either; after a save and a load it still does.

use std::sync::Arc;

use cal_interp::demo::{NOW_MS, config};
use cal_interp::{ExecOptions, over};
use oms::store::{SaveOptions, Store};
use oms::{ContentAddress, Grain};
use serde_json::Value as Json;

fn put(s: &Store, json: &str) -> ContentAddress {
    s.put(&Grain::from_json_str(json).unwrap().encode().unwrap().bytes).unwrap()
}

fn addresses(store: &Arc<Store>, query: &str) -> Vec<String> {
    let q = cal_parser::parse_query(query).into_result().unwrap_or_else(|d| panic!("{query}: {d:?}"));
    let r = over(store.clone()).execute(&q, &ExecOptions::fixed(NOW_MS));
    assert!(r.error.is_none(), "{query}: {:?}", r.error);
    let results = r.json["results"].as_array().cloned().unwrap_or_default();
    let mut out: Vec<String> =
        results.iter().filter_map(|h| h["content_address"].as_str().map(str::to_string)).collect();
    out.sort();
    out
}

#[test]
fn recall_no_longer_returns_a_grain_whose_consent_was_withdrawn() {
    let store = Arc::new(Store::new(config(NOW_MS)));
    let grant = put(
        &store,
        r#"{"type":"consent","subject_did":"did:web:a","grantee_did":"did:web:agent","scope":["store"],"is_withdrawal":false,"created_at":1772000000000}"#,
    );
    let covered = put(
        &store,
        &format!(
            r#"{{"type":"belief","subject":"alice","relation":"likes","object":"tea","confidence":0.9,"created_at":1772000001000,"processing_basis":"{grant}","invalidation_policy":{{"mode":"consent_cascade"}}}}"#
        ),
    );
    let free = put(
        &store,
        r#"{"type":"belief","subject":"alice","relation":"likes","object":"jazz","confidence":0.9,"created_at":1772000002000}"#,
    );
    let q = r#"RECALL beliefs WHERE subject = "alice""#;
    assert_eq!(addresses(&store, q), {
        let mut v = vec![covered.to_hex(), free.to_hex()];
        v.sort();
        v
    });
    put(
        &store,
        &format!(
            r#"{{"type":"consent","subject_did":"did:web:a","grantee_did":"did:web:agent","scope":["store"],"is_withdrawal":true,"prior_consent":"{grant}","created_at":1772000003000}}"#
        ),
    );
    let only_free = vec![free.to_hex()];
    assert_eq!(addresses(&store, q), only_free, "gone at once");
    assert_eq!(addresses(&store, &format!("{q} WITH superseded")), only_free);
    let history = over(store.clone()).execute(
        &cal_parser::parse_query(&format!("HISTORY sha256:{covered}")).into_result().unwrap(),
        &ExecOptions::fixed(NOW_MS),
    );
    let shown: Vec<Json> = history.json["results"].as_array().cloned().unwrap_or_default();
    assert!(shown.iter().all(|h| h["content_address"] != Json::String(covered.to_hex())), "{}", history.json);
    // And after a save and a load.
    let file = store.save(&SaveOptions::default()).unwrap();
    let reloaded = Arc::new(Store::load(&file, config(NOW_MS)).unwrap());
    assert_eq!(addresses(&reloaded, q), only_free);
    assert_eq!(reloaded.scheduled_erasures(), store.scheduled_erasures());
    assert_eq!(reloaded.scheduled_erasures().len(), 1);
}
