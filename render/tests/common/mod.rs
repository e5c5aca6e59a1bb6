//! Fixture grains for the render tests: two of every grain type (§10.3.2), with the fields
//! each type's content rule and attributes read, full-disclosure metadata, and values that
//! exercise quoting (commas, quotes, colons, a leading hyphen, numeric-looking text, brackets,
//! a newline, non-ASCII).

#![allow(dead_code)] // each test file uses a different subset

use cal_render::{Disclosure, GrainInput, ProjectionOptions};
use serde_json::{Value, json};

/// 2026-03-15T09:00:00Z.
pub const NOW: i64 = 1_773_565_200_000;
const MIN: i64 = 60_000;
const DAY: i64 = 86_400_000;

/// The three disclosure levels, with their names.
pub const LEVELS: [(Disclosure, &str); 3] =
    [(Disclosure::Summary, "summary"), (Disclosure::Standard, "standard"), (Disclosure::Full, "full")];

/// Projection options at `level` with the fixture clock.
pub fn opts(level: Disclosure) -> ProjectionOptions {
    ProjectionOptions { disclosure: level, now_ms: NOW, ..Default::default() }
}

fn g(mut v: Value, i: usize) -> GrainInput {
    let meta = json!({"namespace": "ns-hidden-7", "importance": ((i % 9) + 1) as f64 / 10.0, "source_type": "user_explicit",
                      "structural_tags": ["fixture", format!("t{i}")], "verification_status": "verified",
                      "created_at": NOW - (i as i64 + 1) * 7 * MIN});
    if let (Some(o), Some(m)) = (v.as_object_mut(), meta.as_object()) {
        for (k, x) in m {
            o.entry(k.clone()).or_insert_with(|| x.clone());
        }
    }
    grain(&v, 0.9, &format!("sha256:{i:064x}"))
}

/// A grain given as OMS JSON, in the CAL view the interpreter hands the content layer.
pub fn grain(v: &Value, score: f64, hash: &str) -> GrainInput {
    cal_interp::fields::grain_input_from_json(v, score, hash).expect("a grain")
}

/// The grain types in §10.3.2's order, by their singular names.
pub const TYPES: [&str; 10] =
    ["belief", "event", "goal", "action", "observation", "reasoning", "state", "workflow", "consensus", "consent"];

/// The plural names (TOON groups, RECALL type names), in [`TYPES`]' order.
pub const PLURALS: [&str; 10] = [
    "beliefs",
    "events",
    "goals",
    "actions",
    "observations",
    "reasonings",
    "states",
    "workflows",
    "consensuses",
    "consents",
];

/// Two grains of `kind` (a singular type name).
pub fn grains(kind: &str) -> Vec<GrainInput> {
    let v: [Value; 2] = match kind {
        "belief" => [
            json!({"type": "belief", "subject": "alice", "relation": "mg:prefers", "object": "dark mode, always", "confidence": 0.95}),
            json!({"type": "belief", "subject": "bob", "relation": "acme:works_at", "object": "-42 \"labs\": [east]", "confidence": 0.9}),
        ],
        "event" => [
            json!({"type": "event", "role": "user", "content": "Can you help me pull together the Q1 metrics?"}),
            json!({"type": "event", "role": "assistant", "content": "Sure — first line\nsecond line", "created_at": NOW - 3 * DAY}),
        ],
        "goal" => [
            json!({"type": "goal", "subject": "alice", "object": "complete Q1 review", "description": "complete Q1 review",
                   "goal_state": "active", "deadline": 1_773_532_800_000_i64}),
            json!({"type": "goal", "subject": "team", "object": "reduce P0 incidents by 20%", "description": "reduce P0 incidents by 20%",
                   "goal_state": "satisfied"}),
        ],
        "action" => [
            json!({"type": "action", "tool_name": "query_metrics", "action_phase": "completed", "object": "retrieved 47 deployments"}),
            json!({"type": "action", "tool_name": "search_docs", "action_phase": "failed", "object": "123"}),
        ],
        "observation" => [
            json!({"type": "observation", "observer_id": "system", "observer_type": "system", "object": "alice opened the dashboard at 09:14 UTC"}),
            json!({"type": "observation", "observer_id": "dr-smith", "observer_type": "human", "object": "élevé: true"}),
        ],
        "reasoning" => [
            json!({"type": "reasoning", "inference_method": "deductive", "conclusion": "prioritise reliability"}),
            json!({"type": "reasoning", "inference_method": "abductive", "conclusion": "null"}),
        ],
        "state" => [
            json!({"type": "state", "context": {"id": "q1_review_prep"}, "plan": "outline slides; then data"}),
            json!({"type": "state", "context": {"id": "triage"}, "plan": "  padded plan  "}),
        ],
        "workflow" => [
            json!({"type": "workflow", "trigger": "review_prep_requested", "steps": ["retrieve metrics", "draft outline"]}),
            json!({"type": "workflow", "trigger": "incident", "steps": ["page on-call"]}),
        ],
        "consensus" => [
            json!({"type": "consensus", "threshold": 3, "agreement_count": 4, "object": "deploys improved 18%",
                   "participating_observers": ["did:a", "did:b", "did:c", "did:d"]}),
            json!({"type": "consensus", "threshold": 2, "agreement_count": 2, "object": "{braces} and \\ backslash",
                   "participating_observers": ["did:a", "did:b", "did:c"]}),
        ],
        _ => [
            json!({"type": "consent", "is_withdrawal": false, "subject_did": "alice", "grantee_did": "agent", "purpose": "access metrics dashboards"}),
            json!({"type": "consent", "is_withdrawal": true, "subject_did": "bob", "grantee_did": "agent", "purpose": "share calendar"}),
        ],
    };
    let base = TYPES.iter().position(|t| *t == kind).unwrap_or(0) * 2;
    v.into_iter().enumerate().map(|(i, x)| g(x, base + i)).collect()
}

/// Every fixture grain, type by type.
pub fn all() -> Vec<GrainInput> {
    TYPES.iter().flat_map(|t| grains(t)).collect()
}

/// Decodes TOON texts with the official implementation (`@toon-format/toon`, strict mode,
/// through `tests/toon-decode/decode.mjs`), exactly as given: per text, the value or the
/// decoder's error message. Needs node and `npm ci --prefix render/tests/toon-decode`.
pub fn toon_decode(texts: &[String]) -> Vec<Result<Value, String>> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/toon-decode");
    let mut child = std::process::Command::new("node")
        .arg("decode.mjs")
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("node is needed (npm ci --prefix render/tests/toon-decode): {e}"));
    let input = serde_json::to_vec(texts).unwrap_or_default();
    child
        .stdin
        .take()
        .map(|mut s| std::io::Write::write_all(&mut s, &input))
        .transpose()
        .unwrap_or_else(|e| panic!("stdin: {e}"));
    let out = child.wait_with_output().unwrap_or_else(|e| panic!("node: {e}"));
    assert!(
        out.status.success(),
        "decode.mjs failed: is node_modules installed? {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("decode.mjs output: {e}"));
    v.into_iter()
        .map(|r| match r.get("ok") {
            Some(ok) => Ok(ok.clone()),
            None => Err(r["error"].as_str().unwrap_or("?").to_string()),
        })
        .collect()
}
