//! The `ast_pipeline` checks: a generated tree goes through the printer, the JSON form,
//! the checker, the planner and the Tier-0 interpreter over a fixture store.
//!
//! For every input: no panic anywhere; the JSON form reads back to the same tree; the
//! printed text parses back to the same tree (compared with `cal_parser::json::to_value`,
//! which ignores spans) and the checker gives the reparsed tree the same verdict; the text
//! and JSON forms accept the same trees; a tree the checker accepts prints to text that parses. For a tree the checker accepts:
//! the plan renders, two executions with the injected clock give the same response, and
//! the store's digest is unchanged (Tier 0 never writes).

use std::sync::{Arc, OnceLock};

use arbitrary::Unstructured;
use cal_grammar::limits::MAX_QUERY_BYTES;
use cal_grammar::{Code, Diagnostic};
use cal_interp::demo::{self, NOW_MS};
use cal_interp::{ExecOptions, store_digest};
use cal_parser::ast::Query;
use cal_parser::json::{query_from_json, to_value};
use cal_planner::{PlanOptions, plan_query};
use oms::store::Store;
use serde_json::{Map, Value as Json, json};

use crate::generate::{self, Vocab};

/// A store the generated queries run on, with what stays fixed across inputs.
pub struct Fixture {
    /// `demo` or the conformance fixture's file stem.
    pub name: &'static str,
    /// The store, shared with the interpreter.
    pub store: Arc<Store>,
    /// `store_digest` at load time; Tier 0 must leave it unchanged.
    pub digest: String,
    /// Content addresses of the store's grains, so EXISTS, HISTORY and `hash =` find things.
    pub vocab: Vocab,
}

/// The conformance fixture stores (generated, small) next to the demo memory.
const FIXTURES: &[(&str, &[u8])] = &[
    ("all-types", include_bytes!("../../conformance/fixtures/all-types.mg")),
    ("beliefs-basic", include_bytes!("../../conformance/fixtures/beliefs-basic.mg")),
    ("contradictions", include_bytes!("../../conformance/fixtures/contradictions.mg")),
    ("conversations", include_bytes!("../../conformance/fixtures/conversations.mg")),
    ("domain-profiles", include_bytes!("../../conformance/fixtures/domain-profiles.mg")),
    ("empty", include_bytes!("../../conformance/fixtures/empty.mg")),
    ("multi-namespace", include_bytes!("../../conformance/fixtures/multi-namespace.mg")),
    ("relations", include_bytes!("../../conformance/fixtures/relations.mg")),
    ("supersession-chains", include_bytes!("../../conformance/fixtures/supersession-chains.mg")),
    ("tasks-goals", include_bytes!("../../conformance/fixtures/tasks-goals.mg")),
    ("temporal", include_bytes!("../../conformance/fixtures/temporal.mg")),
    ("unicode", include_bytes!("../../conformance/fixtures/unicode.mg")),
];

fn fixture(name: &'static str, store: Store) -> Fixture {
    let store = Arc::new(store);
    let mut hashes: Vec<String> = store.addresses().iter().map(|a| a.to_hex()).collect();
    hashes.sort();
    Fixture { name, digest: store_digest(&store), store, vocab: Vocab { hashes } }
}

/// The demo memory first, then every conformance fixture, loaded once per process with
/// the fixtures' clock (2026-03-06T12:00:00Z, the demo's `NOW_MS`).
pub fn fixtures() -> &'static [Fixture] {
    static ALL: OnceLock<Vec<Fixture>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut all = vec![fixture("demo", demo::load(NOW_MS).expect("the demo store loads"))];
        for (name, bytes) in FIXTURES {
            let store = Store::load(bytes, demo::config(NOW_MS)).expect("a conformance fixture loads");
            all.push(fixture(name, store));
        }
        all
    })
}

/// Fixed clock and timing, and the parameters the generator may refer to (`BOUND_PARAMS`).
pub fn exec_options(fx: &Fixture) -> ExecOptions {
    let mut params = Map::new();
    params.insert("n".into(), json!(3));
    params.insert("who".into(), json!("alice"));
    params.insert("conf".into(), json!(0.8));
    if let Some(h) = fx.vocab.hashes.first() {
        params.insert("h".into(), Json::String(format!("sha256:{h}")));
    }
    ExecOptions { user: Some("alice".into()), params, ..ExecOptions::fixed(NOW_MS) }
}

fn has_errors(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(Diagnostic::is_error)
}

/// Decodes one fuzzer input into a fixture and a query: the first byte picks the store,
/// the rest drives the generator. `None` when the input is empty or runs out too early.
pub fn decode(data: &[u8]) -> Option<(&'static Fixture, Query)> {
    let (&which, rest) = data.split_first()?;
    let all = fixtures();
    let fx = &all[which as usize % all.len()];
    let mut u = Unstructured::new(rest);
    let q = generate::query(&mut u, &fx.vocab).ok()?;
    Some((fx, q))
}

/// Runs every check on one input; panics (with the printed query) on a violation.
pub fn run(data: &[u8]) {
    let Some((fx, q)) = decode(data) else { return };
    check_tree(fx, &q);
}

/// The checks on one tree over one fixture (see the module documentation).
pub fn check_tree(fx: &Fixture, q: &Query) {
    let fingerprint = to_value(q);
    let text = cal_parser::print::query_to_text(q);

    let json_ok = match query_from_json(&fingerprint) {
        Ok(back) => {
            assert_eq!(to_value(&back), fingerprint, "JSON form does not read back to the same tree:\n{text}");
            true
        }
        Err(_) => false,
    };

    let clean = !has_errors(&cal_checker::check(q, None));
    if text.len() <= MAX_QUERY_BYTES {
        let parsed = cal_parser::parse_query(&text);
        match parsed.ast {
            Some(again) if !parsed.has_errors() => {
                assert_eq!(to_value(&again), fingerprint, "print → parse changed the tree:\n{text}");
                // §15.3: whatever the text form accepts, the JSON form accepts too.
                assert!(json_ok, "the text parses but its JSON form is rejected:\n{text}\n{fingerprint}");
                let clean_again = !has_errors(&cal_checker::check(&again, None));
                assert_eq!(clean, clean_again, "the checker judges the reparsed tree differently:\n{text}");
            }
            _ => {
                let d = &parsed.diagnostics;
                assert!(!json_ok, "the JSON form accepts a tree whose text does not parse:\n{text}\n{d:?}");
                assert!(!clean, "a tree the checker accepts prints to text that does not parse:\n{text}\n{d:?}");
            }
        }
    }
    if !clean {
        return;
    }

    let opts = exec_options(fx);
    let plan = plan_query(q, &PlanOptions { params: opts.params.clone(), store_size: Some(fx.store.len() as u64) });
    let _ = (plan.to_json(), plan.to_text());

    // A fresh interpreter (default configuration, Tier 1 refused) for each run: DEFINE TEMPLATE
    // is session state, so a shared one would answer the second run with CAL-E088.
    let run = || cal_interp::over(fx.store.clone()).execute(q, &opts);
    let (first, second) = (run(), run());
    // A timeout is measured on the real clock and may hit one run and not the other.
    let timed_out =
        |r: &cal_interp::Response| r.error.as_ref().is_some_and(|d| matches!(d.code, Code::E031 | Code::E075));
    if !timed_out(&first) && !timed_out(&second) {
        assert_eq!(first.json, second.json, "same query twice on {}, different responses:\n{text}", fx.name);
    }
    assert_eq!(store_digest(&fx.store), fx.digest, "a Tier-0 query changed the {} store:\n{text}", fx.name);
}
