//! Checker and interpreter: text → `cal_checker::analyze` → every query of a clean
//! document executed over the demo store with a fixed clock. No panic, the store
//! digest is unchanged, and the same query twice gives the same response.
#![no_main]

use std::sync::{Arc, OnceLock};

use cal_interp::demo::{self, NOW_MS};
use cal_interp::{ExecOptions, store_digest};
use libfuzzer_sys::fuzz_target;
use oms::store::Store;

fn store() -> &'static (Arc<Store>, String) {
    static STORE: OnceLock<(Arc<Store>, String)> = OnceLock::new();
    STORE.get_or_init(|| {
        let s = Arc::new(demo::load(NOW_MS).expect("the demo store loads"));
        let d = store_digest(&s);
        (s, d)
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let analysis = cal_checker::analyze(text, None);
    if analysis.has_errors() {
        return;
    }
    let Some(doc) = analysis.document else { return };
    if doc.queries.is_empty() {
        return;
    }
    let (store, digest) = store();
    let interp = cal_interp::over(store.clone());
    let opts = ExecOptions::fixed(NOW_MS);
    for q in &doc.queries {
        let first = interp.execute(q, &opts);
        let second = interp.execute(q, &opts);
        assert_eq!(first.json, second.json, "same query twice, different responses");
    }
    assert_eq!(&store_digest(store), digest, "a Tier-0 query changed the store");
});
