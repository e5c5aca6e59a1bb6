//! Regenerates the conformance fixture stores (`conformance/fixtures/<name>.mg`)
//! and their key maps (`conformance/authoring/execute_mg/keys/<name>.json`,
//! the address of every grain by the name the tables below give it, which
//! the case-authoring scripts use): `cargo run -p cal-conformance --example gen_fixtures`.
//! `-- --check` compares instead of writing and exits 1 on any drift.
//!
//! Every store is built from the tables here with a controlled clock (no
//! randomness, no system time), so the bytes are identical on every run. The
//! fixtures' shared "now" is [`CLOCK`] (2026-03-06T12:00:00Z, a Friday); the
//! `temporal` store places grains at fixed distances before and after it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use cal_interp::demo::{Builder, at};
use oms::OmsError;
use oms::store::SaveOptions;
use serde_json::{Value as Json, json};

/// The injected clock every execute case over these fixtures uses.
const CLOCK: &str = "2026-03-06T12:00:00Z";
/// The namespace of every fixture grain unless a table says otherwise.
const NS: &str = "conf:main";
/// The agent that wrote the system-generated grains.
const AGENT: &str = "did:web:agent.conf.example";
const HOUR: i64 = 3_600_000;
const DAY: i64 = 24 * HOUR;

/// One fixture: its name and the function that fills a builder.
type Fixture = (&'static str, fn(&mut Builder) -> Result<(), OmsError>);

/// Every fixture store, in the order they are written.
const FIXTURES: &[Fixture] = &[
    ("empty", |_| Ok(())),
    ("beliefs-basic", beliefs_basic),
    ("supersession-chains", supersession_chains),
    ("all-types", all_types),
    ("temporal", temporal),
    ("contradictions", contradictions),
    ("relations", relations),
    ("multi-namespace", multi_namespace),
    ("tasks-goals", tasks_goals),
    ("conversations", conversations),
    ("unicode", unicode),
    ("domain-profiles", domain_profiles),
    ("encrypted", encrypted),
    ("revert-six", revert_six),
];

/// A belief with the usual fields; `extra` entries are merged in.
fn belief(s: &str, r: &str, o: &str, c: f64, created: &str, tags: &[&str], extra: Json) -> Json {
    let mut j = json!({
        "type": "belief", "subject": s, "relation": r, "object": o, "confidence": c,
        "created_at": created, "namespace": NS, "structural_tags": tags,
    });
    merge(&mut j, extra);
    j
}

fn merge(j: &mut Json, extra: Json) {
    if let (Some(m), Json::Object(e)) = (j.as_object_mut(), extra) {
        for (k, v) in e {
            m.insert(k, v);
        }
    }
}

/// One row of `beliefs-basic`: key, subject, relation, object, confidence,
/// importance (negative: absent), created_at, tags, source_type.
type Row = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    f64,
    f64,
    &'static str,
    &'static [&'static str],
    &'static str,
);

#[rustfmt::skip]
const BASIC: &[Row] = &[
    ("alice-theme", "alice", "mg:prefers", "dark mode", 0.9, 0.6, "2026-01-06T09:00:00Z", &["preference", "ui"], "user_explicit"),
    ("alice-shortcuts", "alice", "mg:requires", "keyboard shortcuts", 0.88, 0.7, "2026-01-07T09:00:00Z", &["preference", "ui", "tooling"], "user_explicit"),
    ("alice-async", "alice", "mg:prefers", "async written updates", 0.92, 0.8, "2026-01-08T09:00:00Z", &["preference", "work"], "user_explicit"),
    ("alice-mornings", "alice", "mg:avoids", "meetings before 10:00", 0.85, -1.0, "2026-01-09T09:00:00Z", &["preference", "schedule"], "user_explicit"),
    ("alice-rust", "alice", "mg:prefers", "Rust for backend services", 0.8, 0.5, "2026-01-10T09:00:00Z", &["preference", "tooling"], "llm_generated"),
    ("alice-incidents", "alice", "mg:knows", "the incident response process", 0.95, 0.6, "2026-01-11T09:00:00Z", &["knowledge", "work"], "user_explicit"),
    ("alice-team", "alice", "member_of", "team-alpha", 1.0, 0.8, "2026-01-05T08:00:00Z", &["team"], "system"),
    ("alice-role", "alice", "role", "engineering lead", 0.99, 0.7, "2026-01-05T08:01:00Z", &["profile", "team"], "system"),
    ("alice-coffee", "alice", "mg:prefers", "flat white", 0.7, 0.2, "2026-01-12T09:00:00Z", &["preference", "personal"], "user_explicit"),
    ("bob-editor", "bob", "mg:prefers", "vim", 0.85, 0.4, "2026-01-13T09:00:00Z", &["preference", "tooling"], "user_explicit"),
    ("bob-theme", "bob", "mg:prefers", "dark mode", 0.6, 0.3, "2026-01-14T09:00:00Z", &["preference", "ui"], "agent_inferred"),
    ("bob-postgres", "bob", "mg:knows", "PostgreSQL query tuning", 0.9, 0.6, "2026-01-15T09:00:00Z", &["knowledge", "work"], "agent_inferred"),
    ("bob-reviews", "bob", "mg:prefers", "detailed code reviews", 0.8, -1.0, "2026-01-16T09:00:00Z", &["preference", "work"], "user_explicit"),
    ("bob-team", "bob", "member_of", "team-alpha", 1.0, 0.8, "2026-01-05T08:02:00Z", &["team"], "system"),
    ("bob-role", "bob", "role", "backend engineer", 0.99, 0.6, "2026-01-05T08:03:00Z", &["profile", "team"], "system"),
    ("carol-figma", "carol", "mg:prefers", "Figma for design reviews", 0.9, 0.5, "2026-01-17T09:00:00Z", &["preference", "tooling"], "user_explicit"),
    ("carol-theme", "carol", "mg:prefers", "light mode", 0.8, 0.3, "2026-01-18T09:00:00Z", &["preference", "ui"], "user_explicit"),
    ("carol-huddles", "carol", "mg:avoids", "huddles without an agenda", 0.85, 0.6, "2026-01-19T09:00:00Z", &["preference", "communication"], "user_explicit"),
    ("carol-wcag", "carol", "mg:knows", "accessibility guidelines", 0.95, 0.7, "2026-01-20T09:00:00Z", &["knowledge", "work"], "user_explicit"),
    ("carol-team", "carol", "member_of", "team-alpha", 1.0, 0.8, "2026-01-05T08:04:00Z", &["team"], "system"),
    ("dave-python", "dave", "mg:prefers", "Python notebooks", 0.75, 0.4, "2026-01-21T09:00:00Z", &["preference", "tooling"], "user_explicit"),
    ("dave-tea", "dave", "mg:prefers", "green tea", 0.65, 0.1, "2026-01-22T09:00:00Z", &["preference", "personal"], "agent_inferred"),
    ("dave-team", "dave", "member_of", "team-beta", 1.0, 0.8, "2026-01-05T08:05:00Z", &["team"], "system"),
    ("dave-stats", "dave", "mg:knows", "time series forecasting", 0.55, 0.5, "2026-01-23T09:00:00Z", &["knowledge"], "llm_generated"),
    ("erin-slides", "erin", "mg:prefers", "short slide decks", 0.7, 0.45, "2026-01-24T09:00:00Z", &["preference", "communication"], "user_explicit"),
    ("erin-team", "erin", "member_of", "team-beta", 1.0, 0.8, "2026-01-05T08:06:00Z", &["team"], "system"),
    ("team-alpha-lead", "team-alpha", "led_by", "alice", 0.99, 0.9, "2026-01-05T08:07:00Z", &[], "system"),
    ("phoenix-status", "project phoenix", "status", "on track", 0.6, 0.9, "2026-02-01T09:00:00Z", &["project:phoenix"], "agent_inferred"),
];

fn beliefs_basic(b: &mut Builder) -> Result<(), OmsError> {
    for (i, (key, s, r, o, c, imp, created, tags, st)) in BASIC.iter().enumerate() {
        let mut extra = json!({ "source_type": st, "user_id": s, "author_did": AGENT });
        if *imp >= 0.0 {
            extra["importance"] = json!(imp);
        }
        // Meta fields on a few rows, so that conditions on them have both outcomes.
        if i % 3 == 0 {
            extra["recall_priority"] = json!(["hot", "warm", "cold"][i % 9 / 3]);
            extra["epistemic_status"] = json!(["certain", "probable", "uncertain"][i % 9 / 3]);
        }
        if *s == "team-alpha" || *s == "project phoenix" {
            extra.as_object_mut().map(|m| m.remove("user_id"));
        }
        b.put(key, belief(s, r, o, *c, created, tags, extra))?;
    }
    Ok(())
}

/// A chain of versions of one (subject, relation): key prefix, subject,
/// relation, then (object, confidence, created_at) per version.
type Chain = (&'static str, &'static str, &'static str, &'static [(&'static str, f64, &'static str)]);

#[rustfmt::skip]
const CHAINS: &[Chain] = &[
    ("theme", "alice", "mg:prefers", &[("dark mode", 0.8, "2026-01-06T09:00:00Z"), ("light mode", 0.85, "2026-02-01T09:00:00Z"), ("dark mode with high contrast", 0.95, "2026-02-24T18:00:00Z")]),
    ("editor", "bob", "mg:prefers", &[("emacs", 0.7, "2026-01-07T10:00:00Z"), ("vim", 0.9, "2026-02-10T10:00:00Z")]),
    ("status", "project phoenix", "status", &[("planning", 0.6, "2026-01-05T09:00:00Z"), ("design", 0.6, "2026-01-19T09:00:00Z"), ("building", 0.7, "2026-02-02T09:00:00Z"), ("at risk", 0.75, "2026-02-16T09:00:00Z"), ("on track", 0.8, "2026-03-02T09:00:00Z")]),
    ("city", "carol", "lives_in", &[("Porto", 0.9, "2026-01-10T12:00:00Z"), ("Lisbon", 0.95, "2026-02-20T12:00:00Z")]),
];

fn supersession_chains(b: &mut Builder) -> Result<(), OmsError> {
    for (prefix, s, r, versions) in CHAINS {
        for (i, (o, c, created)) in versions.iter().enumerate() {
            let key = format!("{prefix}-v{}", i + 1);
            let j = belief(s, r, o, *c, created, &["versioned"], json!({ "user_id": s, "importance": 0.5 }));
            if i == 0 {
                b.put(&key, j)?;
            } else {
                b.supersede(&format!("{prefix}-v{i}"), &key, j, "newer information")?;
            }
        }
    }
    // Unversioned beliefs alongside the chains.
    #[rustfmt::skip]
    let single: &[(&str, &str, &str, &str, f64, &str)] = &[
        ("alice-team", "alice", "member_of", "team-alpha", 1.0, "2026-01-05T08:00:00Z"),
        ("bob-team", "bob", "member_of", "team-alpha", 1.0, "2026-01-05T08:00:01Z"),
        ("carol-team", "carol", "member_of", "team-alpha", 1.0, "2026-01-05T08:00:02Z"),
        ("alice-tea", "alice", "mg:prefers", "green tea", 0.6, "2026-01-20T08:00:00Z"),
    ];
    for (key, s, r, o, c, created) in single {
        b.put(key, belief(s, r, o, *c, created, &["single"], json!({ "user_id": s, "importance": 0.5 })))?;
    }
    Ok(())
}

/// Six preferences of alice, each superseded once, in one namespace: six current versions that
/// a REVERT can target, for MAX_REVERT_PER_MINUTE's boundary pair (§17.3: 5 per minute, C32).
fn revert_six(b: &mut Builder) -> Result<(), OmsError> {
    #[rustfmt::skip]
    let topics: &[(&str, &str, &str)] = &[
        ("editor", "vim", "helix"), ("drink", "coffee", "green tea"), ("city", "Porto", "Lisbon"),
        ("os", "linux", "macos"), ("language", "go", "rust"), ("theme", "light mode", "dark mode"),
    ];
    for (i, (key, old, new)) in topics.iter().enumerate() {
        let (v1, v2) = (format!("{key}-v1"), format!("{key}-v2"));
        let extra = || json!({ "user_id": "alice", "importance": 0.5 });
        let first = format!("2026-02-0{}T09:00:00Z", i + 1);
        b.put(&v1, belief("alice", "mg:prefers", old, 0.7, &first, &["versioned"], extra()))?;
        let second = format!("2026-02-1{}T09:00:00Z", i + 1);
        b.supersede(
            &v1,
            &v2,
            belief("alice", "mg:prefers", new, 0.8, &second, &["versioned"], extra()),
            "newer information",
        )?;
    }
    Ok(())
}

fn all_types(b: &mut Builder) -> Result<(), OmsError> {
    let t = |d: i64| at("2026-02-01T10:00:00Z") + d * HOUR;
    b.put(
        "belief-1",
        belief("alice", "mg:prefers", "dark mode", 0.9, "2026-02-01T09:00:00Z", &["ui"], json!({"user_id": "alice"})),
    )?;
    b.put(
        "belief-2",
        belief("bob", "mg:knows", "SQL", 0.8, "2026-02-01T09:30:00Z", &["knowledge"], json!({"user_id": "bob"})),
    )?;
    b.put("event-1", json!({"type": "event", "content": "Can you book a room for Thursday?", "role": "user", "session_id": "sess-1",
        "user_id": "alice", "subject": "alice", "created_at": t(0), "namespace": NS, "structural_tags": ["conversation"]}))?;
    let e1 = b.hex("event-1");
    b.put("event-2", json!({"type": "event", "content": "Booked room 4 for Thursday at 14:00.", "role": "assistant", "model_id": "model-a",
        "session_id": "sess-1", "parent_message_id": e1, "user_id": "alice", "subject": "alice", "created_at": t(1), "namespace": NS,
        "structural_tags": ["conversation"]}))?;
    b.put(
        "event-3",
        json!({"type": "event", "content": "Summarise the incident report.", "role": "user", "session_id": "sess-2",
        "user_id": "bob", "subject": "bob", "created_at": t(2), "namespace": NS, "structural_tags": ["conversation"]}),
    )?;
    b.put("state-1", json!({"type": "state", "context": {"id": "review_prep", "step": 2}, "plan": ["gather metrics", "draft outline"],
        "subject": AGENT, "relation": "mg:state_at", "user_id": "alice", "created_at": t(3), "namespace": NS, "structural_tags": ["state"]}))?;
    b.put("state-2", json!({"type": "state", "context": {"id": "triage"}, "plan": ["reproduce bug", "write test"],
        "subject": AGENT, "relation": "mg:state_at", "user_id": "bob", "created_at": t(4), "namespace": NS, "structural_tags": ["state"]}))?;
    b.put("workflow-1", json!({"type": "workflow", "trigger": "on:user_message", "steps": ["classify intent", "route to skill"],
        "subject": AGENT, "relation": "mg:requires_steps", "object": "message routing", "created_at": t(5), "namespace": NS, "structural_tags": ["workflow"]}))?;
    b.put("workflow-2", json!({"type": "workflow", "trigger": "on:schedule", "steps": ["collect metrics", "send digest"],
        "subject": AGENT, "relation": "mg:requires_steps", "object": "weekly digest", "created_at": t(6), "namespace": NS, "structural_tags": ["workflow"]}))?;
    b.put("action-1", json!({"type": "action", "tool_name": "get_weather", "input": {"city": "Lisbon"}, "content": "sunny, 18 C",
        "is_error": false, "tool_call_id": "call-1", "subject": "alice", "relation": "mg:did", "object": "checked the weather",
        "user_id": "alice", "created_at": t(7), "namespace": NS, "structural_tags": ["tool"]}))?;
    b.put("action-2", json!({"type": "action", "tool_name": "get_weather", "input": {"city": "Oslo"}, "content": "service unavailable",
        "is_error": true, "tool_call_id": "call-2", "subject": "bob", "relation": "mg:did", "object": "checked the weather",
        "user_id": "bob", "created_at": t(8), "namespace": NS, "structural_tags": ["tool"]}))?;
    b.put("action-3", json!({"type": "action", "action_phase": "call", "tool_name": "send_email", "input": {"to": "carol"},
        "tool_call_id": "call-3", "user_id": "alice", "created_at": t(9), "namespace": NS, "structural_tags": ["tool"]}))?;
    b.put(
        "observation-1",
        json!({"type": "observation", "observer_id": "obs-monitor", "observer_type": "agent:monitor",
        "subject": "alice", "relation": "mg:perceives", "object": "alice works late on Fridays", "confidence": 0.7,
        "created_at": t(10), "namespace": NS, "structural_tags": ["monitor"]}),
    )?;
    b.put("observation-2", json!({"type": "observation", "observer_id": "obs-calendar", "observer_type": "sensor:calendar",
        "subject": "team", "relation": "mg:perceives", "object": "planning meeting held", "created_at": t(11), "namespace": NS,
        "structural_tags": ["calendar"]}))?;
    b.put("goal-1", json!({"type": "goal", "description": "ship the Q1 review", "subject": "alice", "relation": "mg:intends",
        "object": "ship the Q1 review", "goal_state": "active", "deadline": at("2026-03-15T00:00:00Z"), "assigned_agent": AGENT,
        "user_id": "alice", "created_at": t(12), "namespace": NS, "structural_tags": ["goal"], "importance": 0.9}))?;
    b.put(
        "goal-2",
        json!({"type": "goal", "description": "retire the legacy API", "subject": "bob", "relation": "mg:intends",
        "object": "retire the legacy API", "goal_state": "failed", "deadline": at("2026-02-01T00:00:00Z"),
        "user_id": "bob", "created_at": t(13), "namespace": NS, "structural_tags": ["goal"], "importance": 0.4}),
    )?;
    let p = b.hex("belief-1");
    b.put("reasoning-1", json!({"type": "reasoning", "inference_method": "deductive", "premises": [p],
        "conclusion": "use a dark theme for alice's dashboards", "subject": "alice", "user_id": "alice", "created_at": t(14),
        "namespace": NS, "structural_tags": ["reasoning"]}))?;
    b.put("reasoning-2", json!({"type": "reasoning", "inference_method": "abductive", "premises": [b.hex("action-2")],
        "conclusion": "the weather service is down in the north", "subject": "bob", "user_id": "bob", "created_at": t(15),
        "namespace": NS, "structural_tags": ["reasoning"]}))?;
    b.put("consensus-1", json!({"type": "consensus", "participating_observers": ["did:web:a.example", "did:web:b.example", "did:web:c.example"],
        "threshold": 2, "agreement_count": 3, "dissent_count": 0, "agreed_content": "the release is ready", "subject": "release-7",
        "relation": "mg:agrees_with", "object": "the release is ready", "created_at": t(16), "namespace": NS, "structural_tags": ["consensus"]}))?;
    b.put("consensus-2", json!({"type": "consensus", "participating_observers": ["did:web:a.example", "did:web:b.example"],
        "threshold": 2, "agreement_count": 1, "dissent_count": 1, "agreed_content": "the outage was caused by DNS", "subject": "incident-9",
        "relation": "mg:agrees_with", "object": "the outage was caused by DNS", "created_at": t(17), "namespace": NS, "structural_tags": ["consensus"]}))?;
    b.put("consent-1", json!({"type": "consent", "subject_did": "did:web:conf.example:alice", "grantee_did": AGENT, "scope": ["store", "retrieve"],
        "is_withdrawal": false, "purpose": "personalization", "valid_to": at("2026-12-31T23:59:59Z"), "subject": "alice", "user_id": "alice",
        "created_at": t(18), "namespace": NS, "structural_tags": ["consent"]}))?;
    let prior = b.hex("consent-1");
    b.put(
        "consent-2",
        json!({"type": "consent", "subject_did": "did:web:conf.example:bob", "grantee_did": AGENT, "scope": ["share"],
        "is_withdrawal": true, "prior_consent": prior, "purpose": "analytics", "subject": "bob", "user_id": "bob",
        "created_at": t(19), "namespace": NS, "structural_tags": ["consent"]}),
    )?;
    Ok(())
}

/// Offsets from [`CLOCK`] in milliseconds (negative: before it), with a key.
#[rustfmt::skip]
const TIMES: &[(&str, i64)] = &[
    ("m5min", -5 * 60_000), ("m1h", -HOUR), ("m3h", -3 * HOUR), ("m11h", -11 * HOUR), ("m13h", -13 * HOUR),
    ("m1d", -DAY), ("m2d", -2 * DAY), ("m3d", -3 * DAY), ("m4d", -4 * DAY - HOUR), ("m6d", -6 * DAY), ("m8d", -8 * DAY),
    ("m10d", -10 * DAY), ("m20d", -20 * DAY), ("m29d", -29 * DAY), ("m31d", -31 * DAY), ("m45d", -45 * DAY),
    ("m70d", -70 * DAY), ("m200d", -200 * DAY), ("m400d", -400 * DAY), ("p1h", HOUR), ("p2d", 2 * DAY),
];

fn temporal(b: &mut Builder) -> Result<(), OmsError> {
    let now = at(CLOCK);
    for (i, (key, off)) in TIMES.iter().enumerate() {
        let when = now + off;
        let subject = if i % 2 == 0 { "alice" } else { "bob" };
        b.put(&format!("belief-{key}"), json!({
            "type": "belief", "subject": subject, "relation": "noted", "object": format!("note at {key}"),
            "confidence": 0.5 + (i as f64) / 100.0, "created_at": when, "namespace": NS, "structural_tags": ["timeline"],
            "user_id": subject,
        }))?;
        if i % 3 == 0 {
            b.put(&format!("event-{key}"), json!({
                "type": "event", "content": format!("message at {key}"), "role": "user", "session_id": "sess-time",
                "user_id": subject, "subject": subject, "created_at": when + 1000, "namespace": NS, "structural_tags": ["timeline"],
            }))?;
        }
    }
    Ok(())
}

fn contradictions(b: &mut Builder) -> Result<(), OmsError> {
    #[rustfmt::skip]
    let rows: &[(&str, &str, &str, &str, f64, &str)] = &[
        ("bob-likes-mornings", "bob", "mg:prefers", "morning meetings", 0.7, "2026-01-12T09:00:00Z"),
        ("bob-avoids-mornings", "bob", "mg:avoids", "morning meetings", 0.75, "2026-02-16T09:00:00Z"),
        ("alice-coffee", "alice", "mg:prefers", "espresso", 0.6, "2026-01-10T09:00:00Z"),
        ("alice-no-coffee", "alice", "mg:avoids", "espresso", 0.8, "2026-02-10T09:00:00Z"),
        ("carol-remote", "carol", "mg:requires", "remote work", 0.9, "2026-01-15T09:00:00Z"),
        ("carol-office", "carol", "mg:prohibits", "remote work", 0.4, "2026-01-20T09:00:00Z"),
        ("dave-sql", "dave", "mg:knows", "SQL window functions", 0.85, "2026-01-18T09:00:00Z"),
        ("dave-lang", "dave", "speaks", "Portuguese", 0.9, "2026-01-19T09:00:00Z"),
        ("erin-city", "erin", "lives_in", "Berlin", 0.7, "2026-01-21T09:00:00Z"),
        ("erin-city-2", "erin", "lives_in", "Munich", 0.7, "2026-02-21T09:00:00Z"),
        ("frank-theme", "frank", "mg:prefers", "light mode", 0.5, "2026-01-22T09:00:00Z"),
        ("frank-editor", "frank", "mg:prefers", "vscode", 0.95, "2026-01-23T09:00:00Z"),
    ];
    for (key, s, r, o, c, created) in rows {
        b.put(key, belief(s, r, o, *c, created, &["claims"], json!({"user_id": s})))?;
    }
    let at_ms = at("2026-02-25T12:00:00Z");
    b.contradict("bob-likes-mornings", at_ms, "bob said he avoids them")?;
    b.contradict("carol-office", at_ms, "carol works remotely")?;
    b.contradict("erin-city", at_ms, "erin moved")?;
    b.verify("dave-sql", "verified")?;
    b.verify("dave-lang", "contested")?;
    b.verify("frank-editor", "verified")?;
    b.verify("frank-theme", "retracted")?;
    Ok(())
}

/// Every standard relation of CAL §7.1 with its category, and the object used.
#[rustfmt::skip]
const MG: &[(&str, &str)] = &[
    ("mg:perceives", "OBSERVATION"), ("mg:state_at", "OBSERVATION"), ("mg:knows", "KNOWLEDGE"), ("mg:infers", "KNOWLEDGE"),
    ("mg:owned_by", "KNOWLEDGE"), ("mg:said", "INTERACTION"), ("mg:did", "INTERACTION"), ("mg:handed_off_to", "INTERACTION"),
    ("mg:agrees_with", "CONSENSUS"), ("mg:requires_steps", "WORKFLOW"), ("mg:intends", "LIFECYCLE"), ("mg:depends_on", "LIFECYCLE"),
    ("mg:permits", "PERMISSION"), ("mg:revokes", "PERMISSION"), ("mg:prohibits", "PERMISSION"), ("mg:requires", "PREFERENCE"),
    ("mg:prefers", "PREFERENCE"), ("mg:avoids", "PREFERENCE"), ("mg:delegates_to", "AGENCY"), ("mg:has_capability", "AGENCY"),
    ("mg:assigned_to", "AGENCY"),
];

fn relations(b: &mut Builder) -> Result<(), OmsError> {
    let base = at("2026-02-01T00:00:00Z");
    for (i, (rel, cat)) in MG.iter().enumerate() {
        let name = rel.trim_start_matches("mg:");
        for (j, s) in ["alice", "bob"].iter().enumerate() {
            if j == 1 && i % 2 == 1 {
                continue;
            }
            b.put(&format!("{s}-{name}"), json!({
                "type": "belief", "subject": s, "relation": rel, "object": format!("{} {name} object", cat.to_lowercase()),
                "confidence": 0.5 + (i as f64) / 50.0, "created_at": base + (i as i64) * HOUR + j as i64 * 60_000,
                "namespace": NS, "structural_tags": [cat.to_lowercase()], "user_id": s,
            }))?;
        }
    }
    // Relations outside the vocabulary: plain ones, and an unknown mg: one (CAL-W001 territory).
    #[rustfmt::skip]
    let other: &[(&str, &str, &str, &str)] = &[
        ("alice-likes", "alice", "likes", "jazz"),
        ("alice-prefers-plain", "alice", "prefers", "tea"),
        ("bob-member", "bob", "member_of", "team-alpha"),
        ("bob-unknown-mg", "bob", "mg:enjoys", "chess"),
    ];
    for (i, (key, s, r, o)) in other.iter().enumerate() {
        b.put(key, json!({
            "type": "belief", "subject": s, "relation": r, "object": o, "confidence": 0.6,
            "created_at": base + 30 * HOUR + i as i64 * 60_000, "namespace": NS, "structural_tags": ["other"], "user_id": s,
        }))?;
    }
    Ok(())
}

fn multi_namespace(b: &mut Builder) -> Result<(), OmsError> {
    #[rustfmt::skip]
    let spaces: &[&str] = &["acme", "acme:eng", "acme:eng:backend", "acme:sales", "globex", "globex:eng"];
    let base = at("2026-02-10T00:00:00Z");
    for (i, ns) in spaces.iter().enumerate() {
        for (j, (s, o)) in
            [("alice", "dark mode"), ("bob", "light mode"), ("alice", "vim"), ("carol", "tea")].iter().enumerate()
        {
            let key = format!("{}-{j}", ns.replace(':', "-"));
            b.put(&key, json!({
                "type": "belief", "subject": s, "relation": if j == 2 { "mg:knows" } else { "mg:prefers" }, "object": o,
                "confidence": 0.5 + (j as f64) / 10.0, "created_at": base + (i * 4 + j) as i64 * HOUR, "namespace": ns,
                "structural_tags": ["ns-test"], "user_id": s,
            }))?;
        }
    }
    // One event per top-level namespace, and grains with no namespace at all.
    for (i, ns) in ["acme", "globex"].iter().enumerate() {
        b.put(&format!("event-{ns}"), json!({
            "type": "event", "content": format!("hello from {ns}"), "role": "user", "session_id": format!("sess-{ns}"),
            "user_id": "alice", "subject": "alice", "created_at": base + 40 * HOUR + i as i64 * HOUR, "namespace": ns,
        }))?;
    }
    b.put(
        "no-ns",
        json!({"type": "belief", "subject": "alice", "relation": "mg:prefers", "object": "no namespace",
        "confidence": 0.5, "created_at": base + 50 * HOUR, "user_id": "alice"}),
    )?;
    Ok(())
}

/// Goals: key, subject, objective, OMS goal_state, deadline, importance.
#[rustfmt::skip]
const GOALS: &[(&str, &str, &str, &str, &str, f64)] = &[
    ("review", "alice", "complete the Q1 review", "active", "2026-03-15T00:00:00Z", 0.9),
    ("index", "bob", "ship the orders index", "satisfied", "2026-01-23T00:00:00Z", 0.7),
    ("palette", "carol", "publish the button palette", "active", "2026-03-08T00:00:00Z", 0.6),
    ("forecast", "dave", "publish the deployment forecast", "satisfied", "2026-02-10T00:00:00Z", 0.5),
    ("offsite", "erin", "organise the offsite", "suspended", "2026-04-30T00:00:00Z", 0.3),
    ("legacy", "bob", "retire the legacy API", "failed", "2026-02-01T00:00:00Z", 0.4),
    ("roadmap", "erin", "agree on the Q2 roadmap", "active", "2026-03-20T00:00:00Z", 0.8),
    ("hiring", "alice", "hire two engineers", "active", "2026-06-30T00:00:00Z", 0.85),
];

fn tasks_goals(b: &mut Builder) -> Result<(), OmsError> {
    let base = at("2026-01-10T09:00:00Z");
    for (i, (key, s, o, state, deadline, imp)) in GOALS.iter().enumerate() {
        let mut j = json!({
            "type": "goal", "description": o, "subject": s, "relation": "mg:intends", "object": o, "goal_state": state,
            "deadline": at(deadline), "user_id": s, "created_at": base + i as i64 * DAY, "namespace": NS,
            "structural_tags": ["goal"], "importance": imp,
        });
        if i % 2 == 0 {
            j["assigned_agent"] = json!(AGENT);
        } else {
            j["assigned_agent"] = json!("did:web:helper.conf.example");
        }
        b.put(&format!("goal-{key}"), j)?;
    }
    // A goal that depends on two others, still open: it waits, suspended (OMS §8.7 depends_on
    // forbids `active` until both are satisfied).
    let deps = json!([b.hex("goal-review"), b.hex("goal-palette")]);
    b.put("goal-launch", json!({
        "type": "goal", "description": "launch the redesign", "subject": "carol", "relation": "mg:intends",
        "object": "launch the redesign", "goal_state": "suspended", "deadline": at("2026-05-01T00:00:00Z"), "depends_on": deps,
        "user_id": "carol", "created_at": base + 20 * DAY, "namespace": NS, "structural_tags": ["goal", "launch"], "importance": 0.95,
    }))?;
    // Goal dependency beliefs (mg:depends_on) and assignments.
    b.put(
        "dep-belief",
        belief(
            "launch the redesign",
            "mg:depends_on",
            "complete the Q1 review",
            0.9,
            "2026-02-01T09:00:00Z",
            &["plan"],
            json!({}),
        ),
    )?;
    b.put(
        "assign-belief",
        belief("task:orders-index", "mg:assigned_to", "bob", 0.95, "2026-01-11T09:00:00Z", &["plan"], json!({})),
    )?;
    // Tool calls: complete ones, an error, and an asynchronous call/result pair.
    #[rustfmt::skip]
    let tools: &[(&str, &str, &str, bool)] = &[
        ("search-1", "search_docs", "alice", false), ("search-2", "search_docs", "bob", false), ("sql-1", "query_database", "bob", false),
        ("sql-2", "query_database", "bob", true), ("ticket-1", "create_ticket", "bob", false), ("mail-1", "send_email", "alice", false),
        ("nb-1", "run_notebook", "dave", true), ("nb-2", "run_notebook", "dave", false),
    ];
    for (i, (key, tool, user, err)) in tools.iter().enumerate() {
        b.put(&format!("action-{key}"), json!({
            "type": "action", "tool_name": tool, "input": {"n": i}, "content": format!("{tool} output {i}"), "is_error": err,
            "tool_call_id": format!("call-{key}"), "subject": user, "relation": "mg:did", "object": format!("ran {tool}"),
            "user_id": user, "created_at": base + 30 * DAY + i as i64 * HOUR, "namespace": NS, "structural_tags": ["tool"],
        }))?;
    }
    b.put("action-export-call", json!({
        "type": "action", "action_phase": "call", "tool_name": "export_report", "input": {"format": "pdf"}, "tool_call_id": "call-export",
        "user_id": "alice", "created_at": base + 40 * DAY, "namespace": NS, "structural_tags": ["tool"],
    }))?;
    let call = b.hex("action-export-call");
    b.put("action-export-result", json!({
        "type": "action", "action_phase": "result", "tool_call_id": "call-export", "content": "report.pdf (4 pages)", "is_error": false,
        "derived_from": [call], "user_id": "alice", "created_at": base + 40 * DAY + 60_000, "namespace": NS, "structural_tags": ["tool"],
    }))?;
    for (i, (key, trigger)) in [("triage", "on:bug_report"), ("digest", "on:schedule")].iter().enumerate() {
        b.put(&format!("workflow-{key}"), json!({
            "type": "workflow", "trigger": trigger, "steps": ["collect", "summarise", "send"], "subject": AGENT,
            "relation": "mg:requires_steps", "object": key, "created_at": base + 45 * DAY + i as i64 * HOUR, "namespace": NS,
            "structural_tags": ["workflow"],
        }))?;
    }
    Ok(())
}

/// A conversation: session id, user, then (role, text) per message.
type Session = (&'static str, &'static str, &'static [(&'static str, &'static str)]);

fn conversations(b: &mut Builder) -> Result<(), OmsError> {
    #[rustfmt::skip]
    let sessions: &[Session] = &[
        ("sess-a", "alice", &[("user", "What is on my calendar today?"), ("assistant", "Two meetings: planning at 13:00 and a design critique at 15:00."),
            ("user", "Move the critique to Friday."), ("assistant", "Moved the design critique to Friday 15:00.")]),
        ("sess-b", "bob", &[("user", "Why is the orders query slow?"), ("assistant", "It does a sequential scan; an index on customer_id would help."),
            ("user", "Create a ticket for that."), ("tool", "created ticket PHX-214"), ("assistant", "Created PHX-214 and assigned it to you.")]),
        ("sess-c", "carol", &[("system", "You are a design assistant."), ("user", "Check the contrast of the ghost button."),
            ("assistant", "The ghost button has a contrast ratio of 3.1:1, below WCAG AA.")]),
        ("sess-d", "alice", &[("user", "Draft the weekly status."), ("assistant", "Here is the weekly status draft.")]),
    ];
    let base = at("2026-03-02T09:00:00Z");
    for (si, (sid, user, msgs)) in sessions.iter().enumerate() {
        let mut parent: Option<String> = None;
        for (mi, (role, text)) in msgs.iter().enumerate() {
            let key = format!("{sid}-{}", mi + 1);
            let mut j = json!({
                "type": "event", "content": text, "role": role, "session_id": sid, "user_id": user, "subject": user,
                "created_at": base + si as i64 * DAY + mi as i64 * 60_000, "namespace": NS, "structural_tags": ["conversation"],
            });
            if *role == "assistant" {
                j["model_id"] = json!(if si % 2 == 0 { "model-a" } else { "model-b" });
            }
            if let Some(p) = &parent {
                j["parent_message_id"] = json!(p);
            }
            b.put(&key, j)?;
            parent = Some(b.hex(&key));
        }
    }
    Ok(())
}

fn unicode(b: &mut Builder) -> Result<(), OmsError> {
    #[rustfmt::skip]
    let rows: &[(&str, &str, &str, &str)] = &[
        ("zoe", "zoë", "mg:prefers", "crème brûlée"),
        ("zoe-nfd-object", "zoë", "mg:knows", "São Paulo"),
        ("jose", "José", "mg:prefers", "café con leche"),
        ("jose-lower", "josé", "mg:prefers", "té verde"),
        ("tanaka", "田中", "mg:prefers", "緑茶"),
        ("tanaka-2", "田中", "mg:knows", "東京の地下鉄"),
        ("arabic", "مريم", "mg:prefers", "القهوة العربية"),
        ("hebrew", "דוד", "mg:prefers", "שוקולד"),
        ("emoji", "emoji-user", "mg:prefers", "🍕 pizza"),
        ("emoji-2", "emoji-user", "mg:avoids", "🌶️ spicy food"),
        ("greek", "Σοφία", "mg:prefers", "ελληνικός καφές"),
        ("cyrillic", "Ирина", "mg:prefers", "чай"),
        ("german", "Jürgen", "mg:prefers", "Straße"),
        ("ascii", "zoe", "mg:prefers", "plain tea"),
        ("angstrom", "Ångström", "unit_of", "length"),
        ("quote", "o\"brien", "mg:prefers", "a \"quoted\" object"),
    ];
    let base = at("2026-02-15T00:00:00Z");
    for (i, (key, s, r, o)) in rows.iter().enumerate() {
        b.put(
            key,
            json!({
                "type": "belief", "subject": s, "relation": r, "object": o, "confidence": 0.5 + (i as f64) / 40.0,
                "created_at": base + i as i64 * HOUR, "namespace": NS, "structural_tags": ["i18n"], "user_id": s,
            }),
        )?;
    }
    Ok(())
}

/// Domain-profile grains (CAL §12): `profile:` tags and prefixed fields, some
/// at the top level and some (integration) inside the `context` map (OMS Appendix A).
fn domain_profiles(b: &mut Builder) -> Result<(), OmsError> {
    #[rustfmt::skip]
    let rows: &[(&str, &str, &str, &str, &str, Json)] = &[
        ("hc-flu", "patient:P-12345", "mg:knows", "diagnosed with acute bronchitis", "profile:healthcare",
            json!({"hc:patient_id": "P-12345", "hc:condition_code": "J20.9", "hc:encounter_id": "E-1"})),
        ("hc-cold", "patient:P-12345", "mg:knows", "diagnosed with a common cold", "profile:healthcare",
            json!({"hc:patient_id": "P-12345", "hc:condition_code": "J06.9", "hc:encounter_id": "E-2"})),
        ("hc-diet", "patient:P-12345", "mg:prefers", "vegetarian meals", "profile:healthcare",
            json!({"hc:patient_id": "P-12345"})),
        ("hc-other", "patient:P-99999", "mg:knows", "sprained ankle", "profile:healthcare",
            json!({"hc:patient_id": "P-99999", "hc:condition_code": "S93.4"})),
        ("hc-untagged", "patient:P-12345", "mg:knows", "allergic to penicillin", "clinical",
            json!({"hc:patient_id": "P-12345", "hc:condition_code": "Z88.0"})),
        ("fin-risk", "acct:A-1", "mg:knows", "flagged for review", "profile:finance",
            json!({"fin:account_id": "A-1", "fin:risk_category": "high"})),
        ("fin-ok", "acct:A-2", "mg:knows", "in good standing", "profile:finance",
            json!({"fin:account_id": "A-2", "fin:risk_category": "low"})),
        ("legal-case", "case:C-7", "mg:knows", "privileged memo filed", "profile:legal",
            json!({"legal:case_id": "C-7", "legal:jurisdiction": "EU"})),
        ("int-jira", "ticket:PHX-214", "mg:knows", "synced from jira", "profile:integration",
            json!({"context": {"int:source_system": "jira", "int:sync_status": "ok"}})),
        ("int-gh", "ticket:GH-9", "mg:knows", "synced from github", "profile:integration",
            json!({"context": {"int:source_system": "github", "int:sync_status": "stale"}})),
        ("plain", "alice", "mg:prefers", "dark mode", "preference", json!({})),
    ];
    let base = at("2026-02-20T09:00:00Z");
    for (i, (key, s, r, o, tag, extra)) in rows.iter().enumerate() {
        let mut j = belief(s, r, o, 0.8, "2026-02-20T09:00:00Z", &[tag], extra.clone());
        j["created_at"] = json!(base + i as i64 * HOUR);
        b.put(key, j)?;
    }
    Ok(())
}

/// Three readable beliefs and two grains whose payloads are encrypted (OMS §3.1.1 flag
/// bit 1, §20.2): a belief about alice and a goal. No engine without their key can
/// format them (CAL-E080, ruling C27). The ciphertext is fixed bytes, so the fixture is
/// reproducible; what matters is that no reader can take it for a payload.
fn encrypted(b: &mut Builder) -> Result<(), OmsError> {
    let base = at("2026-03-01T09:00:00Z");
    for (i, (key, o)) in
        [("tea", "green tea"), ("editor", "a dark theme"), ("desk", "a standing desk")].iter().enumerate()
    {
        let mut j = belief("alice", "mg:prefers", o, 0.9, "2026-03-01T09:00:00Z", &["preference"], json!({}));
        j["created_at"] = json!(base + i as i64 * HOUR);
        b.put(key, j)?;
    }
    let ciphertext =
        |seed: u8| -> Vec<u8> { (0u8..64).map(|i| i.wrapping_mul(73).wrapping_add(seed) ^ 0x5a).collect() };
    let mut secret =
        belief("alice", "mg:knows", "the vault combination", 0.99, "2026-03-02T09:00:00Z", &["secret"], json!({}));
    secret["created_at"] = json!(base + DAY);
    b.put_encrypted("sealed-belief", secret, &ciphertext(1))?;
    let goal = json!({
        "type": "goal", "description": "rotate the vault keys", "subject": "alice", "relation": "mg:intends",
        "object": "rotate the vault keys", "goal_state": "active",
        "created_at": base + DAY + HOUR, "namespace": NS,
    });
    b.put_encrypted("sealed-goal", goal, &ciphertext(2))?;
    Ok(())
}

/// The bytes of one fixture and its key map (name → address hex, sorted).
fn build(fill: fn(&mut Builder) -> Result<(), OmsError>) -> Result<(Vec<u8>, Vec<u8>), OmsError> {
    let mut b = Builder::new();
    fill(&mut b)?;
    let (store, keys) = b.finish();
    let bytes = store.save(&SaveOptions::default())?;
    let map: BTreeMap<String, String> = keys.into_iter().map(|(k, a)| (k, a.to_hex())).collect();
    let mut text = serde_json::to_vec_pretty(&map).unwrap_or_default();
    text.push(b'\n');
    Ok((bytes, text))
}

/// Every fixture's (file, bytes) pairs: the `.mg` store and its key map.
pub fn outputs(root: &Path) -> Result<Vec<(PathBuf, Vec<u8>)>, OmsError> {
    let mut out = Vec::new();
    for (name, fill) in FIXTURES {
        let (mg, keys) = build(*fill)?;
        out.push((root.join("fixtures").join(format!("{name}.mg")), mg));
        out.push((root.join("authoring/execute_mg/keys").join(format!("{name}.json")), keys));
    }
    Ok(out)
}

#[allow(dead_code)] // the drift test includes this file for `outputs`
fn main() -> std::process::ExitCode {
    let check = std::env::args().any(|a| a == "--check");
    let root = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with("--"))
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    let files = match outputs(&root) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("generation failed: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let mut stale = 0;
    for (path, bytes) in &files {
        if check {
            if std::fs::read(path).ok().as_deref() != Some(bytes.as_slice()) {
                eprintln!("stale: {}", path.display());
                stale += 1;
            }
            continue;
        }
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        if let Err(e) = oms::atomic::write_atomic(path.as_ref(), bytes.as_ref()) {
            eprintln!("cannot write {}: {e}", path.display());
            return std::process::ExitCode::from(2);
        }
        println!("wrote {} ({} bytes)", path.display(), bytes.len());
    }
    if stale > 0 { std::process::ExitCode::FAILURE } else { std::process::ExitCode::SUCCESS }
}
