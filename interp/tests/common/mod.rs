//! A small fixture memory with one or more grains for every condition,
//! option and stage the tests exercise, built with the demo builder so that
//! every grain has a key; and helpers that run a query and name the grains
//! of the response by key.

#![allow(dead_code)] // each test file uses a different subset

use std::collections::HashMap;
use std::sync::Arc;

use cal_interp::demo::{Builder, NOW_MS, at};
use cal_interp::{ExecOptions, Interpreter, OmsFacade, Response};
use oms::store::Store;
use serde_json::{Value as Json, json};

/// The fixture's "now": the demo memory's, 2026-03-06T12:00:00Z.
pub const NOW: i64 = NOW_MS;

/// A store and the names of its grains.
pub struct Fixture {
    pub store: Arc<Store>,
    pub keys: HashMap<String, String>,
    pub interp: Interpreter<OmsFacade>,
}

fn belief(s: &str, r: &str, o: &str, c: f64, when: &str, tags: &[&str]) -> Json {
    json!({ "type": "belief", "subject": s, "relation": r, "object": o, "confidence": c, "created_at": when,
            "namespace": "team", "user_id": s, "structural_tags": tags })
}

/// Builds the fixture.
pub fn fixture() -> Fixture {
    let mut b = Builder::new();
    let put = |b: &mut Builder, k: &str, j: Json| {
        b.put(k, j).unwrap_or_else(|e| panic!("{k}: {e}"));
    };
    put(
        &mut b,
        "alice-dark",
        belief("alice", "mg:prefers", "dark mode", 0.9, "2026-03-05T10:00:00Z", &["preference", "ui"]),
    );
    put(
        &mut b,
        "alice-meetings",
        belief("alice", "mg:avoids", "meetings before 10:00", 0.8, "2026-03-01T09:00:00Z", &["preference", "schedule"]),
    );
    let mut rust = belief("alice", "mg:knows", "rust", 0.6, "2026-02-01T09:00:00Z", &["knowledge"]);
    rust["importance"] = json!(0.3);
    rust["source_type"] = json!("user_explicit");
    rust["epistemic_status"] = json!("probable");
    rust["recall_priority"] = json!("hot");
    put(&mut b, "alice-rust", rust);
    let mut vim = belief("bob", "mg:prefers", "vim", 0.7, "2026-03-06T08:00:00Z", &["preference", "tooling"]);
    vim["namespace"] = json!("other:sub");
    vim["importance"] = json!(0.9);
    put(&mut b, "bob-vim", vim);
    let mut bm = belief("bob", "member_of", "team-alpha", 1.0, "2026-01-10T09:00:00Z", &[]);
    bm.as_object_mut().unwrap().remove("structural_tags");
    put(&mut b, "bob-member", bm);
    put(&mut b, "alice-member", belief("alice", "member_of", "team-alpha", 1.0, "2026-01-10T09:01:00Z", &["team"]));
    put(&mut b, "carol-member", belief("carol", "member_of", "team-beta", 1.0, "2026-01-10T09:02:00Z", &["team"]));
    put(
        &mut b,
        "alice-tea",
        belief("alice", "mg:prefers", "tea", 0.5, "2026-01-15T09:00:00Z", &["preference", "drink"]),
    );
    b.supersede(
        "alice-tea",
        "alice-coffee",
        belief("alice", "mg:prefers", "coffee", 0.7, "2026-02-15T09:00:00Z", &["preference", "drink"]),
        "changed",
    )
    .unwrap();
    put(
        &mut b,
        "dave-espresso",
        belief("dave", "mg:prefers", "espresso", 0.4, "2026-02-20T09:00:00Z", &["preference", "drink"]),
    );
    b.contradict("dave-espresso", at("2026-02-21T09:00:00Z"), "dave drinks tea").unwrap();
    put(
        &mut b,
        "dave-avoids-espresso",
        belief("dave", "mg:avoids", "espresso", 0.9, "2026-02-21T09:00:00Z", &["preference", "drink"]),
    );
    let mut hc =
        belief("patient-7", "mg:knows", "penicillin allergy", 0.95, "2026-02-10T09:00:00Z", &["profile:healthcare"]);
    hc["hc:patient_id"] = json!("P-1");
    put(&mut b, "hc-allergy", hc);
    let mut hc2 =
        belief("patient-8", "mg:knows", "no known allergies", 0.95, "2026-02-11T09:00:00Z", &["profile:healthcare"]);
    hc2["hc:patient_id"] = json!("P-2");
    put(&mut b, "hc-none", hc2);
    b.verify("alice-rust", "verified").unwrap();
    let mut parent: Option<String> = None;
    for (i, (sid, role, text, when)) in [
        ("s1", "user", "let's plan the dark mode rollout", "2026-03-04T10:00:00Z"),
        ("s1", "assistant", "the rollout plan has three phases", "2026-03-04T10:01:00Z"),
        ("s1", "user", "start with the settings page", "2026-03-04T10:02:00Z"),
        ("s2", "user", "what is the weather in Berlin", "2026-02-02T08:00:00Z"),
    ]
    .into_iter()
    .enumerate()
    {
        let mut j = json!({ "type": "event", "content": text, "role": role, "session_id": sid, "user_id": "alice",
            "subject": "alice", "created_at": when, "namespace": "team" });
        if role == "assistant" {
            j["model_id"] = json!("model-x");
        }
        if sid == "s1"
            && let Some(p) = &parent
        {
            j["parent_message_id"] = json!(p);
        }
        let k = format!("e{}", i + 1);
        put(&mut b, &k, j);
        parent = Some(b.hex(&k));
    }
    let action = |tool: &str, err: bool, when: &str| {
        json!({ "type": "action", "tool_name": tool, "input": {"q": "x"}, "content": format!("{tool} result"),
                "is_error": err, "subject": "alice", "created_at": when, "namespace": "team", "tool_call_id": format!("call-{tool}-{err}") })
    };
    put(&mut b, "a-weather-ok", action("get_weather", false, "2026-03-03T09:00:00Z"));
    put(&mut b, "a-weather-err", action("get_weather", true, "2026-03-03T09:05:00Z"));
    put(&mut b, "a-docs", action("search_docs", false, "2026-03-02T09:00:00Z"));
    put(
        &mut b,
        "a-call",
        json!({ "type": "action", "action_phase": "call", "tool_name": "export", "input": {"f": "pdf"},
        "tool_call_id": "call-export", "created_at": "2026-03-02T10:00:00Z", "namespace": "team" }),
    );
    let goal = |s: &str, o: &str, state: &str, deadline: &str, when: &str| {
        json!({ "type": "goal", "description": o, "subject": s, "relation": "mg:intends", "object": o, "goal_state": state,
                "deadline": at(deadline), "assigned_agent": "did:web:agent", "created_at": when, "namespace": "team" })
    };
    put(
        &mut b,
        "g-review",
        goal("alice", "finish the review", "active", "2026-03-15T00:00:00Z", "2026-03-01T09:00:00Z"),
    );
    put(
        &mut b,
        "g-legacy",
        goal("bob", "retire the legacy api", "failed", "2026-02-01T00:00:00Z", "2026-01-05T09:00:00Z"),
    );
    let mut dep = goal("alice", "ship the slides", "suspended", "2026-04-01T00:00:00Z", "2026-03-02T09:00:00Z");
    dep["depends_on"] = json!([b.hex("g-review")]);
    put(&mut b, "g-slides", dep);
    put(
        &mut b,
        "o-monitor",
        json!({ "type": "observation", "observer_id": "obs-1", "observer_type": "agent:monitor",
        "subject": "alice", "object": "alice opened the dashboard", "created_at": "2026-03-05T09:14:00Z", "namespace": "team" }),
    );
    put(
        &mut b,
        "o-calendar",
        json!({ "type": "observation", "observer_id": "obs-2", "observer_type": "sensor:calendar",
        "subject": "alice", "object": "review scheduled for friday", "created_at": "2026-03-05T09:30:00Z", "namespace": "team" }),
    );
    let premise = b.hex("alice-dark");
    put(
        &mut b,
        "r-deductive",
        json!({ "type": "reasoning", "inference_method": "deductive", "premises": [premise],
        "conclusion": "alice likes dark interfaces", "subject": "alice", "created_at": "2026-03-05T11:00:00Z", "namespace": "team" }),
    );
    put(
        &mut b,
        "r-abductive",
        json!({ "type": "reasoning", "inference_method": "abductive", "premises": [],
        "conclusion": "the outage was caused by the migration", "subject": "bob", "created_at": "2026-02-05T11:00:00Z", "namespace": "team" }),
    );
    put(
        &mut b,
        "c-deploys",
        json!({ "type": "consensus", "participating_observers": ["a", "b", "c", "d"], "threshold": 3,
        "agreement_count": 4, "dissent_count": 0, "object": "deploys improved", "created_at": "2026-03-03T10:00:00Z", "namespace": "team" }),
    );
    put(
        &mut b,
        "c-mttr",
        json!({ "type": "consensus", "participating_observers": ["a", "b"], "threshold": 2,
        "agreement_count": 2, "dissent_count": 0, "object": "mttr under an hour", "created_at": "2026-03-03T11:00:00Z", "namespace": "team" }),
    );
    put(
        &mut b,
        "k-grant",
        json!({ "type": "consent", "subject_did": "did:web:alice", "grantee_did": "did:web:agent",
        "scope": ["store", "retrieve"], "is_withdrawal": false, "purpose": "personalization", "valid_to": at("2026-12-31T00:00:00Z"),
        "created_at": "2026-01-02T09:00:00Z", "namespace": "team" }),
    );
    let prior = b.hex("k-grant");
    put(
        &mut b,
        "k-withdraw",
        json!({ "type": "consent", "subject_did": "did:web:alice", "grantee_did": "did:web:agent",
        "scope": ["store"], "is_withdrawal": true, "prior_consent": prior, "purpose": "personalization",
        "created_at": "2026-03-01T09:00:00Z", "namespace": "team" }),
    );
    put(
        &mut b,
        "st-prep",
        json!({ "type": "state", "context": {"id": "ctx-prep"}, "plan": ["outline", "slides"],
        "subject": "agent", "created_at": "2026-03-04T12:00:00Z", "namespace": "team" }),
    );
    put(
        &mut b,
        "w-report",
        json!({ "type": "workflow", "trigger": "on:friday", "steps": ["collect data", "draft report"],
        "subject": "agent", "created_at": "2026-01-20T12:00:00Z", "namespace": "team" }),
    );
    let (store, keys) = b.finish();
    let store = Arc::new(store);
    let keys = keys.into_iter().map(|(k, a)| (a.to_hex(), k)).collect();
    Fixture { interp: cal_interp::over(store.clone()), store, keys }
}

/// Options with the fixture's clock, fixed timing and user alice.
pub fn opts() -> ExecOptions {
    let mut o = ExecOptions::fixed(NOW);
    o.user = Some("alice".into());
    o
}

impl Fixture {
    /// Runs a query (which must parse) and returns the response.
    pub fn response(&self, text: &str, opts: &ExecOptions) -> Response {
        let parsed = cal_parser::parse_query(text);
        let q = match parsed.into_result() {
            Ok(q) => q,
            Err(d) => panic!("{text}: does not parse: {d:?}"),
        };
        self.interp.execute(&q, opts)
    }

    /// Runs a query that must succeed and returns its JSON.
    pub fn run(&self, text: &str) -> Json {
        let r = self.response(text, &opts());
        assert!(r.error.is_none(), "{text}: {:?}", r.error);
        r.json
    }

    /// Runs a query that must fail and returns the error code.
    pub fn fails(&self, text: &str) -> String {
        let r = self.response(text, &opts());
        r.error.map(|d| d.code.as_str().to_string()).unwrap_or_else(|| panic!("{text}: unexpectedly succeeded"))
    }

    /// The keys of the grains in `results`, in order.
    pub fn keys_of(&self, results: &Json) -> Vec<String> {
        results
            .as_array()
            .unwrap_or_else(|| panic!("not an array: {results}"))
            .iter()
            .map(|r| {
                let a = r["content_address"].as_str().unwrap_or_default();
                self.keys.get(a).cloned().unwrap_or_else(|| format!("?{a}"))
            })
            .collect()
    }

    /// The keys returned by a query, in order.
    pub fn keys(&self, text: &str) -> Vec<String> {
        self.keys_of(&self.run(text)["results"])
    }

    /// The keys returned by a query, sorted (for set comparisons).
    pub fn set(&self, text: &str) -> Vec<String> {
        let mut k = self.keys(text);
        k.sort();
        k
    }
}

/// Sorted owned strings, for readable expectations.
pub fn sorted(items: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = items.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// The response without its `_cal` block (whose query hash differs between equivalent texts).
pub fn body(j: &Json) -> Json {
    let mut j = j.clone();
    if let Some(m) = j.as_object_mut() {
        m.remove("_cal");
        m.remove("next_cursor");
    }
    j
}

/// Every `.cal` file of the parser's and checker's corpora and of `examples/`, sorted: the
/// queries the robustness and streaming tests run (valid or not, recovered trees included).
pub fn corpus_files() -> Vec<std::path::PathBuf> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "cal") {
                out.push(p);
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for dir in ["parser/tests/corpus", "checker/tests/corpus", "examples"] {
        walk(&root.join(dir), &mut files);
    }
    files.sort();
    files
}
