//! Beliefs of the demo memory: preferences (with supersession chains and a
//! contradiction), knowledge, team membership, project status (a chain of
//! eight versions), and the assistant's capabilities (OMS §28.5).

use oms::OmsError;
use serde_json::{Value as Json, json};

use super::{ASSISTANT, Builder, NAMESPACE};

const PEOPLE: &[&str] = &["alice", "bob", "carol", "dave", "erin", "frank"];

/// One belief row: key, subject, relation, object, confidence, importance, created_at, tags, source_type.
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

#[rustfmt::skip] // one belief per line reads as a table
const BELIEFS: &[Row] = &[
    // alice: engineering lead
    ("alice-theme", "alice", "mg:prefers", "dark mode", 0.9, 0.6, "2026-01-06T09:12:00Z", &["preference", "ui"], "user_explicit"),
    ("alice-shortcuts", "alice", "mg:requires", "keyboard shortcuts for every frequent action", 0.88, 0.7, "2026-01-06T09:15:00Z", &["preference", "ui", "tooling"], "user_explicit"),
    ("alice-async", "alice", "mg:prefers", "async written updates over status meetings", 0.92, 0.8, "2026-01-08T16:40:00Z", &["preference", "work", "schedule"], "user_explicit"),
    ("alice-mornings", "alice", "mg:avoids", "meetings before 10:00", 0.85, 0.7, "2026-01-08T16:42:00Z", &["preference", "schedule"], "user_explicit"),
    ("alice-rust", "alice", "mg:prefers", "Rust for backend services", 0.8, 0.5, "2026-01-14T11:03:00Z", &["preference", "tooling"], "llm_generated"),
    ("alice-summaries", "alice", "mg:prefers", "concise summaries with bullet points", 0.9, 0.8, "2026-01-20T10:30:00Z", &["preference", "communication"], "user_explicit"),
    ("alice-tables", "alice", "mg:prefers", "Markdown tables for metrics", 0.75, 0.5, "2026-02-02T14:05:00Z", &["preference", "communication", "metrics"], "agent_inferred"),
    ("alice-incidents", "alice", "mg:knows", "the incident response process", 0.95, 0.6, "2026-01-09T09:00:00Z", &["knowledge", "work"], "user_explicit"),
    ("alice-tz", "alice", "timezone", "Europe/Berlin", 0.99, 0.4, "2026-01-05T08:00:00Z", &["profile"], "system"),
    ("alice-role", "alice", "role", "engineering lead", 0.99, 0.7, "2026-01-05T08:00:00Z", &["profile", "team"], "system"),
    ("alice-team", "alice", "member_of", "team-alpha", 1.0, 0.8, "2026-01-05T08:00:00Z", &["team"], "system"),
    ("alice-phoenix", "alice", "works_on", "project phoenix", 0.95, 0.8, "2026-01-05T08:05:00Z", &["team", "project:phoenix"], "system"),
    ("alice-coffee", "alice", "mg:prefers", "flat white, no sugar", 0.7, 0.2, "2026-01-22T08:50:00Z", &["preference", "personal"], "user_explicit"),
    // bob: backend engineer
    ("bob-editor", "bob", "mg:prefers", "vim", 0.85, 0.4, "2026-01-07T10:00:00Z", &["preference", "tooling"], "user_explicit"),
    ("bob-mornings", "bob", "mg:prefers", "morning meetings", 0.7, 0.5, "2026-01-12T09:05:00Z", &["preference", "schedule"], "llm_generated"),
    ("bob-no-mornings", "bob", "mg:avoids", "morning meetings", 0.75, 0.5, "2026-02-16T17:20:00Z", &["preference", "schedule"], "user_explicit"),
    ("bob-postgres", "bob", "mg:knows", "PostgreSQL query tuning", 0.9, 0.6, "2026-01-13T15:10:00Z", &["knowledge", "work"], "agent_inferred"),
    ("bob-reviews", "bob", "mg:prefers", "detailed code reviews with line comments", 0.8, 0.6, "2026-01-21T13:45:00Z", &["preference", "work"], "user_explicit"),
    ("bob-tz", "bob", "timezone", "America/New_York", 0.99, 0.4, "2026-01-05T08:00:00Z", &["profile"], "system"),
    ("bob-role", "bob", "role", "backend engineer", 0.99, 0.6, "2026-01-05T08:00:00Z", &["profile", "team"], "system"),
    ("bob-team", "bob", "member_of", "team-alpha", 1.0, 0.8, "2026-01-05T08:00:00Z", &["team"], "system"),
    ("bob-phoenix", "bob", "works_on", "project phoenix", 0.95, 0.8, "2026-01-05T08:05:00Z", &["team", "project:phoenix"], "system"),
    ("bob-theme", "bob", "mg:prefers", "dark mode", 0.6, 0.3, "2026-02-03T10:00:00Z", &["preference", "ui"], "agent_inferred"),
    // carol: product designer
    ("carol-figma", "carol", "mg:prefers", "Figma for design reviews", 0.9, 0.5, "2026-01-07T11:30:00Z", &["preference", "tooling"], "user_explicit"),
    ("carol-theme", "carol", "mg:prefers", "light mode", 0.8, 0.3, "2026-01-07T11:32:00Z", &["preference", "ui"], "user_explicit"),
    ("carol-huddles", "carol", "mg:avoids", "Slack huddles without an agenda", 0.85, 0.6, "2026-01-19T15:00:00Z", &["preference", "communication"], "user_explicit"),
    ("carol-drink", "carol", "mg:prefers", "green tea", 0.7, 0.2, "2026-01-09T10:10:00Z", &["preference", "personal"], "user_explicit"),
    ("carol-wcag", "carol", "mg:knows", "accessibility guidelines (WCAG 2.2)", 0.95, 0.7, "2026-01-15T09:40:00Z", &["knowledge", "work"], "user_explicit"),
    ("carol-tz", "carol", "timezone", "Europe/Lisbon", 0.99, 0.4, "2026-01-05T08:00:00Z", &["profile"], "system"),
    ("carol-role", "carol", "role", "product designer", 0.99, 0.6, "2026-01-05T08:00:00Z", &["profile", "team"], "system"),
    ("carol-team", "carol", "member_of", "team-alpha", 1.0, 0.8, "2026-01-05T08:00:00Z", &["team"], "system"),
    ("carol-ds", "carol", "works_on", "design system refresh", 0.9, 0.7, "2026-01-05T08:05:00Z", &["team", "project:design-system"], "system"),
    // dave: data scientist
    ("dave-notebooks", "dave", "mg:prefers", "Python notebooks for exploration", 0.85, 0.5, "2026-01-08T13:00:00Z", &["preference", "tooling"], "user_explicit"),
    ("dave-docs", "dave", "mg:requires", "dataset documentation before review", 0.9, 0.7, "2026-01-16T10:20:00Z", &["preference", "work"], "user_explicit"),
    ("dave-forecast", "dave", "mg:knows", "time-series forecasting models", 0.9, 0.6, "2026-01-16T10:25:00Z", &["knowledge", "work", "metrics"], "agent_inferred"),
    ("dave-tea", "dave", "mg:prefers", "oolong tea", 0.6, 0.2, "2026-01-23T15:30:00Z", &["preference", "personal"], "llm_generated"),
    ("dave-tz", "dave", "timezone", "Asia/Singapore", 0.99, 0.4, "2026-01-05T08:00:00Z", &["profile"], "system"),
    ("dave-role", "dave", "role", "data scientist", 0.99, 0.6, "2026-01-05T08:00:00Z", &["profile", "team"], "system"),
    ("dave-team", "dave", "member_of", "team-alpha", 1.0, 0.8, "2026-01-05T08:00:00Z", &["team"], "system"),
    ("dave-metrics", "dave", "works_on", "Q1 metrics dashboard", 0.9, 0.8, "2026-01-05T08:05:00Z", &["team", "metrics"], "system"),
    // erin: product manager
    ("erin-status", "erin", "mg:prefers", "a weekly written status on Fridays", 0.9, 0.7, "2026-01-09T17:00:00Z", &["preference", "communication", "schedule"], "user_explicit"),
    ("erin-roadmap", "erin", "mg:knows", "the Q2 roadmap priorities", 0.85, 0.8, "2026-02-20T11:00:00Z", &["knowledge", "work"], "user_explicit"),
    ("erin-tz", "erin", "timezone", "Europe/London", 0.99, 0.4, "2026-01-05T08:00:00Z", &["profile"], "system"),
    ("erin-role", "erin", "role", "product manager", 0.99, 0.6, "2026-01-05T08:00:00Z", &["profile", "team"], "system"),
    ("erin-team", "erin", "member_of", "team-alpha", 1.0, 0.8, "2026-01-05T08:00:00Z", &["team"], "system"),
    ("erin-leadership", "erin", "member_of", "leadership", 1.0, 0.6, "2026-01-05T08:00:00Z", &["team"], "system"),
    // frank: from the neighbouring team
    ("frank-team", "frank", "member_of", "team-beta", 1.0, 0.8, "2026-01-05T08:00:00Z", &["team"], "system"),
    ("frank-theme", "frank", "mg:prefers", "dark mode", 0.7, 0.3, "2026-01-26T09:00:00Z", &["preference", "ui"], "user_explicit"),
    ("frank-role", "frank", "role", "site reliability engineer", 0.99, 0.6, "2026-01-05T08:00:00Z", &["profile", "team"], "system"),
    // the team and its projects
    ("team-owner", "team-alpha", "mg:owned_by", "acme engineering", 1.0, 0.5, "2026-01-05T08:00:00Z", &["team"], "system"),
    ("team-standup", "team-alpha", "holds", "a daily standup at 10:30 Berlin time", 0.9, 0.6, "2026-01-05T08:10:00Z", &["team", "schedule"], "user_explicit"),
    ("team-oncall", "team-alpha", "on_call_rotation", "weekly, handover on Mondays", 0.9, 0.6, "2026-01-05T08:12:00Z", &["team", "schedule"], "user_explicit"),
    ("deploys", "deploy pipeline", "status", "green; 47 deployments in Q1 so far", 0.9, 0.7, "2026-03-02T09:00:00Z", &["metrics", "project:phoenix"], "system"),
    ("incidents", "production", "had", "3 P0 incidents in Q1", 0.95, 0.9, "2026-03-02T09:05:00Z", &["metrics", "incident"], "system"),
    ("phoenix-owner", "project phoenix", "mg:owned_by", "alice", 0.95, 0.7, "2026-01-05T08:06:00Z", &["project:phoenix"], "system"),
    ("phoenix-stack", "project phoenix", "uses", "Rust, PostgreSQL and a React front end", 0.9, 0.5, "2026-01-14T11:00:00Z", &["project:phoenix", "tooling"], "llm_generated"),
    // the assistant (OMS §28.5 agent capabilities)
    ("cap-calendar", ASSISTANT, "mg:has_capability", "calendar scheduling", 1.0, 0.5, "2026-01-05T07:00:00Z", &["agent"], "system"),
    ("cap-metrics", ASSISTANT, "mg:has_capability", "metrics queries", 1.0, 0.5, "2026-01-05T07:00:00Z", &["agent"], "system"),
    ("cap-docs", ASSISTANT, "mg:has_capability", "document search", 1.0, 0.5, "2026-01-05T07:00:00Z", &["agent"], "system"),
    ("cap-tickets", ASSISTANT, "mg:has_capability", "ticket creation", 1.0, 0.5, "2026-01-05T07:00:00Z", &["agent"], "system"),
];

/// The JSON of a belief row.
fn belief(r: &Row) -> Json {
    let (_, s, rel, o, c, imp, when, tags, source) = *r;
    let mut j = json!({
        "type": "belief", "subject": s, "relation": rel, "object": o, "confidence": c, "importance": imp,
        "created_at": when, "namespace": NAMESPACE, "structural_tags": tags, "source_type": source, "author_did": ASSISTANT,
    });
    if PEOPLE.contains(&s) {
        j["user_id"] = s.into();
    }
    if s == ASSISTANT {
        j["namespace"] = "agent:identity".into();
    }
    j
}

/// Versions after the first, as (first version, old key, new key, new object, confidence, created_at, reason).
#[rustfmt::skip]
const CHAINS: &[(&str, &str, &str, &str, f64, &str, &str)] = &[
    ("alice-theme", "alice-theme", "alice-theme-2", "light mode", 0.8, "2026-01-27T10:00:00Z", "alice switched themes for daytime work"),
    ("alice-theme", "alice-theme-2", "alice-theme-3", "dark mode with high contrast", 0.95, "2026-02-24T18:30:00Z", "alice said light mode strained her eyes"),
    ("bob-editor", "bob-editor", "bob-editor-2", "helix", 0.9, "2026-02-09T09:30:00Z", "bob moved to helix"),
    ("carol-drink", "carol-drink", "carol-drink-2", "oat cappuccino", 0.75, "2026-02-13T10:05:00Z", "carol mentioned she quit tea"),
    ("dave-forecast", "dave-forecast", "dave-forecast-2", "time-series forecasting and causal inference", 0.92, "2026-02-18T14:00:00Z", "dave presented a causal analysis"),
];

/// The status of project phoenix, version by version.
#[rustfmt::skip]
const PHOENIX: &[(&str, &str)] = &[
    ("2026-01-05T09:00:00Z", "planning"),
    ("2026-01-12T09:00:00Z", "design review"),
    ("2026-01-19T09:00:00Z", "implementation started"),
    ("2026-01-30T09:00:00Z", "API freeze"),
    ("2026-02-06T09:00:00Z", "beta with 3 customers"),
    ("2026-02-13T09:00:00Z", "blocked on the auth migration"),
    ("2026-02-20T09:00:00Z", "unblocked; beta expanded to 10 customers"),
    ("2026-03-04T09:00:00Z", "release candidate 1"),
];

pub(super) fn write(b: &mut Builder) -> Result<(), OmsError> {
    for r in BELIEFS {
        let mut j = belief(r);
        if r.0 == "alice-async" || r.0 == "carol-huddles" {
            if let Some(tags) = j["structural_tags"].as_array_mut() {
                tags.push("profile:consumer".into());
            }
            j["con:interaction_channel"] = "slack".into();
        }
        if r.0 == "bob-no-mornings" {
            let other = b.hex("bob-mornings");
            j["related_to"] = json!([{ "hash": other, "relation_type": "contradicts", "weight": 0.9 }]);
        }
        b.put(r.0, j)?;
    }
    for (first, old, new, object, c, when, why) in CHAINS {
        let Some(base) = BELIEFS.iter().find(|r| r.0 == *first) else { continue };
        let mut j = belief(base);
        j["object"] = (*object).into();
        j["confidence"] = (*c).into();
        j["created_at"] = (*when).into();
        b.supersede(old, new, j, why)?;
    }
    let mut prev = String::new();
    for (i, (when, status)) in PHOENIX.iter().enumerate() {
        let key = format!("phoenix-status-{}", i + 1);
        let j = json!({
            "type": "belief", "subject": "project phoenix", "relation": "status", "object": status,
            "confidence": 0.9, "importance": 0.9, "created_at": when, "namespace": NAMESPACE,
            "structural_tags": ["project:phoenix", "status"], "source_type": "system", "author_did": ASSISTANT,
        });
        if i == 0 {
            b.put(&key, j)?;
        } else {
            b.supersede(&prev, &key, j, "weekly status update")?;
        }
        prev = key;
    }
    // An inferred belief that a later observation contradicted (index layer, OMS §28.3).
    b.put(
        "dave-coffee",
        json!({
            "type": "belief", "subject": "dave", "relation": "mg:prefers", "object": "espresso", "confidence": 0.4,
            "importance": 0.2, "created_at": "2026-01-23T15:00:00Z", "namespace": NAMESPACE, "user_id": "dave",
            "structural_tags": ["preference", "personal"], "source_type": "llm_generated", "author_did": ASSISTANT,
        }),
    )?;
    b.contradict("dave-coffee", super::at("2026-01-23T15:31:00Z"), "dave said he does not drink coffee")?;
    b.put("alice-standup-time", json!({
        "type": "belief", "subject": "alice", "relation": "mg:prefers", "object": "standups at 09:00", "confidence": 0.5,
        "importance": 0.4, "created_at": "2026-01-10T12:00:00Z", "namespace": NAMESPACE, "user_id": "alice",
        "structural_tags": ["preference", "schedule"], "source_type": "llm_generated", "author_did": ASSISTANT,
    }))?;
    b.contradict(
        "alice-standup-time",
        super::at("2026-01-12T09:00:00Z"),
        "contradicts alice avoiding meetings before 10:00",
    )?;
    b.contradict("bob-mornings", super::at("2026-02-16T17:20:00Z"), "bob now avoids morning meetings")?;
    for key in ["alice-role", "bob-role", "carol-role", "dave-role", "erin-role", "incidents", "phoenix-status-8"] {
        b.verify(key, "verified")?;
    }
    Ok(())
}
