//! The query and ASSEMBLE timeouts (§17.3) interrupt the work that grows with the store
//! (issue 19): on a generated store where these queries take far longer than a small
//! configured timeout, each is answered with the timeout's code rather than run to the end.
//! Whether the time is up is all that is asserted, never how long anything took; the
//! overshoot on 100,000 grains is measured in docs/reliability.md.

use cal_interp::{ExecOptions, InterpConfig, Interpreter, OmsFacade};
use oms::store::{Store, StoreConfig};
use std::sync::Arc;

const NOW: i64 = 1_772_798_400_000;

fn store(n: usize) -> Arc<Store> {
    let store = Store::new(StoreConfig::default());
    for i in 0..n {
        let g = oms::Grain::from_json(&oms::synthetic::mixed_grain(i, NOW)).unwrap();
        store.put(&g.encode().unwrap().bytes).unwrap();
    }
    Arc::new(store)
}

fn code(store: &Arc<Store>, config: InterpConfig, text: &str) -> Option<&'static str> {
    let i = Interpreter::new(OmsFacade::new(store.clone()), config);
    let q = cal_parser::parse_query(text).into_result().unwrap();
    i.execute(&q, &ExecOptions::fixed(NOW)).error.map(|d| d.code.as_str())
}

#[test]
fn long_queries_stop_with_the_timeout_code() {
    let s = store(6_000);
    let quick = InterpConfig { query_timeout_ms: 20, assemble_timeout_ms: 20, ..Default::default() };
    let slow = [
        "RECALL beliefs WITH diversity(threshold, 0.5) | LIMIT 1000",
        "RECALL beliefs WITH diversity(mmr) | LIMIT 1000",
        "RECALL LIKE \"bomite vimilo ripaqu quzomi saloka guloka mikaka vikaka rukaka\" WITH diversity(mmr) | LIMIT 1000",
        "(RECALL beliefs WITH diversity(mmr) | LIMIT 1000 | SUBJECTS) UNION (RECALL events WITH diversity(mmr) | LIMIT 1000 | SUBJECTS)",
    ];
    for q in slow {
        assert_eq!(code(&s, quick.clone(), q), Some("CAL-E031"), "{q}");
    }
    let assemble = "ASSEMBLE big FOR \"x\" FROM a: (RECALL beliefs WITH diversity(mmr) | LIMIT 1000), \
                    b: (RECALL events WITH diversity(threshold, 0.5) | LIMIT 1000) BUDGET 16000 tokens FORMAT sml";
    assert_eq!(code(&s, quick, assemble), Some("CAL-E075"));
    // Given the time, such a query answers.
    let patient = InterpConfig { query_timeout_ms: 600_000, ..Default::default() };
    assert_eq!(code(&s, patient, "RECALL beliefs WITH diversity(threshold, 0.5) | LIMIT 10"), None);
}

/// Rendering a large result looks at the deadline too (cal_render's deadline.rs): a wide
/// `AS markdown` and a token-budgeted `FORMAT markdown` answer with the timeout's code, and
/// given the time they answer.
#[test]
fn wide_renders_stop_with_the_timeout_code() {
    let s = store(6_000);
    let quick = InterpConfig { query_timeout_ms: 1, assemble_timeout_ms: 1, ..Default::default() };
    let recall = "RECALL beliefs | LIMIT 1000 AS markdown";
    let assemble = "ASSEMBLE wide FOR \"x\" FROM a: (RECALL beliefs | LIMIT 1000), b: (RECALL events | LIMIT 1000) \
                    BUDGET 16000 tokens FORMAT markdown";
    assert_eq!(code(&s, quick.clone(), recall), Some("CAL-E031"));
    assert_eq!(code(&s, quick, assemble), Some("CAL-E075"));
    let patient = InterpConfig { query_timeout_ms: 600_000, assemble_timeout_ms: 600_000, ..Default::default() };
    assert_eq!(code(&s, patient.clone(), recall), None);
    assert_eq!(code(&s, patient, assemble), None);
}

/// The store's own loops stop once the deadline set around them has passed, and only then.
#[test]
fn the_store_stops_at_the_deadline_set_around_it() {
    let s = store(3_000);
    let q = oms::store::Query::default();
    assert!(s.search("bomite vimilo ripaqu", &q).is_ok());
    assert!(s.query(&q).is_ok());
    let _scope = oms::interrupt::within(std::time::Instant::now());
    assert!(matches!(s.search("bomite vimilo ripaqu", &q), Err(oms::error::OmsError::Interrupted)));
    assert!(matches!(s.query(&q), Err(oms::error::OmsError::Interrupted)));
}
