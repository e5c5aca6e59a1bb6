//! The durable store answers exactly as the in-memory store: every execute
//! case of the corpus (hand-written, metamorphic variants and limit pairs)
//! is run on its fixture loaded from the `.mg` file and on a store database
//! imported from the same file, and the two responses must be equal, byte
//! for byte once serialised.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use cal_conformance::case::Body;
use cal_conformance::{default_cases_dir, default_fixtures_dir, execute_with, load_corpus};
use cal_interp::{DurableFacade, OmsFacade};
use oms::durable::{DurableStore, OpenOptions};
use oms::store::{Store, StoreConfig};

struct Pair {
    memory: Arc<Store>,
    durable: Arc<DurableFacade>,
    clock: Arc<AtomicI64>,
}

fn config(clock: &Arc<AtomicI64>) -> StoreConfig {
    let reader = Arc::clone(clock);
    StoreConfig {
        clock: Arc::new(move || reader.load(Ordering::SeqCst)),
        track_access: false,
        ..StoreConfig::default()
    }
}

fn load(name: &str, dir: &std::path::Path) -> Pair {
    let bytes = std::fs::read(default_fixtures_dir().join(format!("{name}.mg"))).expect("fixture");
    let clock = Arc::new(AtomicI64::new(0));
    let memory = Arc::new(Store::load(&bytes, config(&clock)).expect("fixture loads in memory"));
    let path = dir.join(format!("{name}.db"));
    DurableStore::create(&path, config(&clock)).expect("create").import_mg(&bytes).expect("fixture imports");
    // Three grains decoded at a time, so that a query's page is cut back between batches
    // again and again (the streaming top-k of `DurableStore::query`), as at scale.
    let opts = OpenOptions { read_batch: 3, ..OpenOptions::read_only() };
    let db = DurableStore::open(&path, config(&clock), opts).expect("open");
    Pair { memory, durable: Arc::new(DurableFacade::new(Arc::new(db))), clock }
}

#[test]
fn every_execute_case_answers_the_same_on_a_database() {
    let corpus = load_corpus(&default_cases_dir());
    let dir = tempfile::tempdir().expect("temp dir");
    let mut fixtures: BTreeMap<String, Pair> = BTreeMap::new();
    let (mut compared, mut differences) = (0usize, Vec::new());
    for case in &corpus.cases {
        let Body::Execute(e) = &case.body else { continue };
        let pair = fixtures.entry(e.fixture.clone()).or_insert_with(|| load(&e.fixture, dir.path()));
        if let Some(now) = oms::time::parse_rfc3339_ms(&e.clock) {
            pair.clock.store(now, Ordering::SeqCst);
        }
        let cap = e.capability.as_deref();
        let a = execute_with(OmsFacade::new(Arc::clone(&pair.memory)), &e.query, &e.clock, &e.params, cap);
        let b = execute_with(Arc::clone(&pair.durable), &e.query, &e.clock, &e.params, cap);
        if let Some(err) = pair.durable.take_error() {
            differences.push(format!("{}: the database failed: {err}", case.id));
            continue;
        }
        compared += 1;
        let (a, b) = (a.map(|v| v.to_string()), b.map(|v| v.to_string()));
        if a != b {
            differences.push(format!(
                "{}: {}\n  memory:   {:.300}\n  database: {:.300}",
                case.id,
                e.query,
                a.unwrap_or_default(),
                b.unwrap_or_default()
            ));
        }
    }
    assert!(compared > 500, "only {compared} execute cases were compared");
    assert!(
        differences.is_empty(),
        "{} of {compared} execute cases differ:\n{}",
        differences.len(),
        differences.join("\n")
    );
}
