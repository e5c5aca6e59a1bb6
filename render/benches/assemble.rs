//! The §8.2 four-source ASSEMBLE, end to end (parse → check → plan → execute → render →
//! formatted text), on a generated store of 1,000,000 grains (`CAL_BENCH_N` changes the size)
//! with `BUDGET 2000 tokens`, in markdown, SML and TOON. Two queries: the spec's text verbatim
//! (whose cross-source `dedup(subject)` drops the `history` beliefs that `beliefs` already
//! holds), and the same without `dedup` (about 40 candidates competing for 2,000 tokens:
//! allocation, trimming and filling all run). Both say `WITH progressive_disclosure`, so both
//! assemble §8.2's three tiers. The store is built once per process. Run with
//! `cargo bench -p cal-render --bench assemble`; figures in docs/performance-render.md.
//!
//! The store: 50,000 subjects (`user-N`, and `alice`) with beliefs (65%), events (20%), goals
//! (5%) and observations (10%); objects of 3–8 pseudo-words from a 5,000-word vocabulary with a
//! Zipf-like skew; creation times over a year. `alice` holds 200 beliefs (60 with relation
//! `prefers`), 30 goals and 100 events with `user_id = "alice"`, a few superseded.

use std::sync::{Arc, OnceLock};
use std::time::Instant;

use cal_grammar::FormatName;
use cal_interp::{ExecOptions, Interpreter, OmsFacade};
use divan::{Bencher, black_box};
use oms::Grain;
use oms::store::{Store, StoreConfig};
use oms::synthetic::{lcg, text};

fn main() {
    divan::main();
}

const NOW: i64 = 1_772_798_400_000;
const DAY: i64 = 86_400_000;
const RELATIONS: [&str; 6] = ["prefers", "mg:knows", "works_on", "mg:avoids", "member_of", "mg:requires"];

fn encode(j: &serde_json::Value) -> Vec<u8> {
    Grain::from_json(j).expect("valid grain").encode().expect("encodes").bytes
}

fn grain(i: usize, subject: &str) -> serde_json::Value {
    let r = lcg(i as u64 ^ 0x9e37_79b9_7f4a_7c15);
    let created = NOW - 365 * DAY + (r % (365 * DAY as u64)) as i64;
    match r % 20 {
        0..13 => {
            serde_json::json!({ "type": "belief", "subject": subject, "relation": RELATIONS[(r >> 8) as usize % 6],
            "object": text(r), "confidence": ((r >> 20) % 100) as f64 / 100.0, "created_at": created,
            "namespace": "bench", "user_id": subject })
        }
        13..17 => {
            serde_json::json!({ "type": "event", "content": text(r), "role": if r.is_multiple_of(2) { "user" } else { "assistant" },
            "session_id": format!("sess-{}", i / 40), "created_at": created, "namespace": "bench", "user_id": subject })
        }
        17 => {
            let t = text(r);
            serde_json::json!({ "type": "goal", "subject": subject, "relation": "mg:intends", "object": t, "description": t,
                "goal_state": "active", "created_at": created, "namespace": "bench" })
        }
        _ => serde_json::json!({ "type": "observation", "subject": subject, "observer_id": format!("obs-{}", i % 50),
            "observer_type": "agent:monitor", "object": text(r), "created_at": created, "namespace": "bench" }),
    }
}

fn alice(store: &Store) {
    let put = |j: serde_json::Value| store.put(&encode(&j)).expect("put");
    for i in 0..200u64 {
        let r = lcg(i ^ 0xa11c_e000);
        let relation = if i < 60 { "prefers" } else { RELATIONS[1 + (r % 5) as usize] };
        let created = NOW - (i as i64 + 1) * DAY / 3;
        let j = serde_json::json!({ "type": "belief", "subject": "alice", "relation": relation, "object": text(r),
            "confidence": 0.5 + (r % 50) as f64 / 100.0, "created_at": created, "namespace": "bench", "user_id": "alice" });
        let a = put(j.clone());
        if i < 5 {
            let mut newer = j;
            newer["object"] = text(r ^ 1).into();
            newer["created_at"] = (created + 1000).into();
            newer["derived_from"] = serde_json::json!([a.to_hex()]);
            store.supersede(&a, &encode(&newer), None).expect("supersede");
        }
    }
    for i in 0..30u64 {
        let r = lcg(i ^ 0x60a1);
        let t = text(r);
        put(
            serde_json::json!({ "type": "goal", "subject": "alice", "relation": "mg:intends", "object": t, "description": t,
            "goal_state": "active", "created_at": NOW - (i as i64 + 1) * DAY, "namespace": "bench", "user_id": "alice" }),
        );
    }
    for i in 0..100u64 {
        let r = lcg(i ^ 0xe7e7);
        put(
            serde_json::json!({ "type": "event", "content": text(r), "role": if i % 2 == 0 { "user" } else { "assistant" },
            "session_id": "sess-alice", "created_at": NOW - (i as i64 + 1) * 60_000, "namespace": "bench", "user_id": "alice" }),
        );
    }
}

fn interp() -> &'static Interpreter<OmsFacade> {
    static I: OnceLock<Interpreter<OmsFacade>> = OnceLock::new();
    I.get_or_init(|| {
        let n = oms::synthetic::size_from_env("CAL_BENCH_N");
        let t = Instant::now();
        let store = Store::new(StoreConfig { track_access: false, ..StoreConfig::fixed_clock(NOW) });
        for i in 0..n.saturating_sub(330) {
            store.put(&encode(&grain(i, &format!("user-{}", i / 20)))).expect("put");
        }
        alice(&store);
        eprintln!("built {} grains in {:?}", store.len(), t.elapsed());
        cal_interp::over(Arc::new(store))
    })
}

/// §8.2's example, with the format and (for the second query) `dedup` substituted.
fn query(format: FormatName, dedup: bool) -> String {
    let q = cal_parser::spec_examples::ASSEMBLE_8_2.replace("FORMAT markdown", &format!("FORMAT {format}"));
    let q = if dedup { q } else { q.replace(", dedup(subject)", "") };
    assert!(q.contains(&format!("FORMAT {format}")) && q.contains("dedup(subject)") == dedup, "{q}");
    q
}

/// What `cal run` does for one query, to the formatted text.
fn end_to_end(i: &Interpreter<OmsFacade>, text: &str, opts: &ExecOptions) -> (String, u64) {
    let query = cal_parser::parse_query(text).ast.expect("parses");
    let diags = cal_checker::check(&query, None);
    assert!(!diags.iter().any(cal_grammar::Diagnostic::is_error), "{diags:?}");
    let r = i.execute(&query, opts);
    assert!(r.error.is_none(), "{:?}", r.error);
    let f = &r.json["formatted_context"];
    (f["text"].as_str().unwrap_or_default().to_string(), f["tokens"].as_u64().unwrap_or(0))
}

const FORMATS: [FormatName; 3] = [FormatName::Markdown, FormatName::Sml, FormatName::Toon];

#[divan::bench(args = FORMATS, sample_count = 40)]
fn section_8_2_verbatim(b: Bencher, format: FormatName) {
    let i = interp();
    let opts = ExecOptions::fixed(NOW);
    let q = query(format, true);
    let (_, tokens) = end_to_end(i, &q, &opts);
    eprintln!("{format} (dedup): {tokens} tokens");
    b.bench(|| black_box(end_to_end(i, &q, &opts)));
}

#[divan::bench(args = FORMATS, sample_count = 40)]
fn section_8_2_without_dedup(b: Bencher, format: FormatName) {
    let i = interp();
    let opts = ExecOptions::fixed(NOW);
    let q = query(format, false);
    let (_, tokens) = end_to_end(i, &q, &opts);
    eprintln!("{format} (no dedup): {tokens} tokens");
    b.bench(|| black_box(end_to_end(i, &q, &opts)));
}

/// cal-render alone (no store, no interpreter): the 38 grains the query without dedup formats,
/// generated alike, through allocation, formatting and exact counting at BUDGET 2000 tokens.
#[divan::bench(args = FORMATS, sample_count = 40)]
fn render_only_38_grains(b: Bencher, format: FormatName) {
    use cal_render::{AssembleRequest, Budget, BudgetUnit, Output, ProjectionOptions, SourceInput};
    let g = |j: serde_json::Value| cal_interp::fields::grain_input_from_json(&j, 1.0, "sha256:00").expect("a grain");
    let belief = |i: u64| {
        g(serde_json::json!({ "type": "belief", "subject": "alice", "relation": "prefers", "object": text(i),
            "confidence": 0.8, "created_at": NOW - i as i64 * DAY / 3 }))
    };
    let goal = |i: u64| {
        g(serde_json::json!({ "type": "goal", "subject": "alice", "object": text(i ^ 7), "goal_state": "active",
            "created_at": NOW - i as i64 * DAY }))
    };
    let event = |i: u64| {
        g(
            serde_json::json!({ "type": "event", "role": "user", "content": text(i ^ 9), "created_at": NOW - i as i64 * 60_000 }),
        )
    };
    let sources = vec![
        SourceInput { label: "beliefs".into(), grains: (0..20).map(belief).collect() },
        SourceInput { label: "goals".into(), grains: (0..10).map(goal).collect() },
        SourceInput { label: "events".into(), grains: (0..5).map(event).collect() },
        SourceInput { label: "history".into(), grains: (20..23).map(belief).collect() },
    ];
    let req = AssembleRequest {
        name: "user_context".into(),
        intent: Some("conversation about alice's preferences and goals".into()),
        sources,
        budget: Budget::new(2000, BudgetUnit::Tokens),
        output: Output::Format(format),
        projection: ProjectionOptions { now_ms: NOW, ..Default::default() },
    };
    b.bench(|| black_box(cal_render::assemble(&req)));
}

/// The token counter alone: a line of about 25 tokens, and 800 tokens of markdown.
#[divan::bench(args = [1, 32], sample_count = 40)]
fn count_tokens(b: Bencher, lines: usize) {
    let text = (0..lines as u64)
        .map(|i| format!("- alice prefers {} (confidence: 0.8, 3d ago)", text(i)))
        .collect::<Vec<_>>()
        .join("\n");
    b.bench(|| black_box(cal_render::tokens::count(&text)));
}

/// TOON's tokens against JSON's for the same grains: the four sources' grains as RECALL
/// results (`AS toon` / `AS json`, and that JSON minified), printed once (§10.9.1 claims about
/// 40% fewer).
#[divan::bench(sample_count = 1)]
fn toon_vs_json_tokens() {
    let i = interp();
    let opts = ExecOptions::fixed(NOW);
    let sources = [
        r#"RECALL beliefs ABOUT "alice" WHERE relation = "prefers" LIMIT 20"#,
        r#"RECALL goals ABOUT "alice" RECENT 10"#,
        r#"RECALL events WHERE user_id = "alice" RECENT 5"#,
        r#"RECALL beliefs ABOUT "alice" LIMIT 100"#,
    ];
    for s in sources {
        let formatted = |fmt: FormatName| {
            let q = cal_parser::parse_query(&format!("{s} AS {fmt}")).ast.expect("parses");
            let r = i.execute(&q, &opts);
            r.json["formatted"].as_str().unwrap_or_default().to_string()
        };
        let (toon, json) = (formatted(FormatName::Toon), formatted(FormatName::Json));
        let minified = serde_json::from_str::<serde_json::Value>(&json).map(|v| v.to_string()).unwrap_or_default();
        let [t, j, m] = [&toon, &json, &minified].map(|x| cal_render::tokens::count(x));
        let fewer = |other: usize| 100.0 * (1.0 - t as f64 / other as f64);
        eprintln!("{s}: toon {t}, json {j} ({:.1}% fewer), minified json {m} ({:.1}% fewer)", fewer(j), fewer(m));
    }
}
