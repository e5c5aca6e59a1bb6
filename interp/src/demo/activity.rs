//! The rest of the demo memory: tool calls (Action, OMS §27.1), observations
//! (daily standup notes and monitors), goals with a state transition,
//! reasoning, agent states, workflows, consensus records and consents.

use oms::OmsError;
use serde_json::json;

use super::{ASSISTANT, Builder, NAMESPACE, at};

/// A complete tool call: key, tool, user, session, created_at, input, result, is_error.
type ToolCall =
    (&'static str, &'static str, &'static str, &'static str, &'static str, &'static str, &'static str, bool);

/// A reasoning step: key, subject, inference method, premise keys, conclusion, created_at.
type Inference = (&'static str, &'static str, &'static str, &'static [&'static str], &'static str, &'static str);

#[rustfmt::skip]
const TOOL_CALLS: &[ToolCall] = &[
    ("act-phoenix-docs", "search_docs", "alice", "sess-0112-alice", "2026-01-12T10:06:00Z", "project phoenix design", "found the phoenix design doc and the API draft in confluence/engineering/phoenix", false),
    ("act-explain", "query_database", "bob", "sess-0119-bob", "2026-01-19T14:21:00Z", "EXPLAIN orders query on staging", "sequential scan on orders (2.1M rows), 4.1 s", false),
    ("act-ticket", "create_ticket", "bob", "sess-0119-bob", "2026-01-19T14:26:00Z", "add orders index in production", "created PHX-214, assigned to bob", false),
    ("act-contrast", "compute_contrast", "carol", "sess-0126-carol", "2026-01-26T11:01:00Z", "button palette v2", "primary 4.8:1, secondary 7.2:1, ghost 3.1:1", false),
    ("act-deploys", "query_metrics", "dave", "sess-0203-dave", "2026-02-03T09:31:00Z", "deployments per week, 2026-Q1", "weeks 1-5: 8, 9, 7, 11, 6", false),
    ("act-forecast", "run_notebook", "dave", "sess-0203-dave", "2026-02-03T09:35:00Z", "seasonal naive forecast", "kernel died: out of memory", true),
    ("act-forecast-2", "run_notebook", "dave", "sess-0203-dave", "2026-02-03T09:36:00Z", "seasonal naive forecast, sampled", "forecast 8 per week, 80% interval 5-11", false),
    ("act-calendar", "calendar_update", "bob", "sess-0216-bob", "2026-02-16T17:01:00Z", "move DB review to Thursday 14:00 EST", "moved; 3 attendees notified", false),
    ("act-theme", "update_settings", "alice", "sess-0224-alice", "2026-02-24T18:13:00Z", "theme = dark-high-contrast", "dashboard and docs site updated", false),
    ("act-q1-metrics", "query_metrics", "alice", "sess-0302-alice", "2026-03-02T09:11:00Z", "deployments and incidents, 2026-Q1", "retrieved 47 deployments and 3 P0 incidents for Q1 2026", false),
    ("act-mttr", "query_metrics", "alice", "sess-0302-alice", "2026-03-02T09:14:00Z", "mean time to recovery, 2026-Q1", "MTTR 52 minutes across 3 P0 incidents", false),
    ("act-template", "search_docs", "alice", "sess-0302-alice", "2026-03-02T09:18:00Z", "Q1 review template", "found Q1 review template in confluence/engineering/reviews", false),
    ("act-email", "send_email", "alice", "sess-0302-alice", "2026-03-02T09:23:00Z", "outline to erin, due 2026-03-14", "sent to erin@acme.example", false),
    ("act-weather", "get_weather", "erin", "sess-0305-erin", "2026-03-05T16:31:00Z", "London, tomorrow", "service unavailable (HTTP 503)", true),
    ("act-weather-2", "get_weather", "erin", "sess-0305-erin", "2026-03-05T16:32:00Z", "London, tomorrow", "light rain, 11 °C", false),
];

/// Daily standup notes, one per workday, cycling through these lines.
const STANDUP: &[&str] = &[
    "bob merged the storage layer refactor; carol is reviewing the new button palette",
    "dave is rebuilding the metrics pipeline; alice is on incident follow-ups",
    "carol shipped the colour tokens; bob is blocked on the auth migration",
    "erin is collecting Q2 roadmap input; dave is validating the forecast",
    "alice reviewed three PRs; bob paired with frank on the deploy pipeline",
    "carol ran an accessibility audit; dave documented the sales dataset",
    "bob unblocked the auth migration; erin scheduled the Q1 review",
];

/// Meetings on the team calendar, by weekday (0 = Monday): (weekday, time, title).
const MEETINGS: &[(i64, &str, &str)] = &[
    (0, "T13:00:00Z", "team-alpha planning"),
    (2, "T15:00:00Z", "phoenix architecture sync"),
    (3, "T14:00:00Z", "design critique with carol"),
];

pub(super) fn write(b: &mut Builder) -> Result<(), OmsError> {
    tools(b)?;
    weekly(b)?;
    observations(b)?;
    goals(b)?;
    reasoning(b)?;
    states_and_workflows(b)?;
    consensus_and_consent(b)
}

fn tools(b: &mut Builder) -> Result<(), OmsError> {
    for (key, tool, user, sid, when, input, result, err) in TOOL_CALLS {
        let mut j = json!({
            "type": "action", "tool_name": tool, "input": { "query": input }, "content": result, "is_error": err,
            "subject": user, "relation": "mg:did", "object": result, "user_id": user, "session_id": sid,
            "created_at": when, "namespace": NAMESPACE, "structural_tags": ["tool"], "author_did": ASSISTANT,
            "source_type": "system", "tool_call_id": format!("call-{key}"),
        });
        if *tool == "create_ticket" {
            j["context"] = json!({ "int:source_system": "jira" });
            j["structural_tags"] = json!(["tool", "profile:integration"]);
        }
        b.put(key, j)?;
    }
    // An asynchronous call and its result (OMS §27.1 "call" and "result" phases).
    b.put("act-export-call", json!({
        "type": "action", "action_phase": "call", "tool_name": "export_report", "input": { "format": "pdf" },
        "tool_call_id": "call-export-1", "user_id": "alice", "session_id": "sess-0302-alice",
        "created_at": "2026-03-02T09:25:00Z", "namespace": NAMESPACE, "structural_tags": ["tool"], "author_did": ASSISTANT,
    }))?;
    let call = b.hex("act-export-call");
    b.put("act-export-result", json!({
        "type": "action", "action_phase": "result", "tool_call_id": "call-export-1", "content": "q1-review-outline.pdf (4 pages)",
        "is_error": false, "derived_from": [call], "user_id": "alice", "created_at": "2026-03-02T09:26:00Z",
        "namespace": NAMESPACE, "structural_tags": ["tool"], "author_did": ASSISTANT,
    }))?;
    Ok(())
}

/// Recurring activity over the nine weeks: erin's Friday status thread, dave's
/// Monday dashboard refresh, and calendar observations of the team's meetings.
fn weekly(b: &mut Builder) -> Result<(), OmsError> {
    let monday = at("2026-01-05T00:00:00Z");
    let day = 86_400_000i64;
    for week in 0..9i64 {
        let start = monday + week * 7 * day;
        let sid = format!("status-w{:02}", week + 2);
        let friday = start + 4 * day + at("1970-01-01T08:30:00Z");
        let ask = b.put(&format!("{sid}-1"), json!({
            "type": "event", "content": format!("Draft my weekly status for week {}, please.", week + 2), "role": "user",
            "session_id": sid, "user_id": "erin", "subject": "erin", "created_at": friday, "namespace": NAMESPACE,
            "structural_tags": ["conversation", "status"], "source_type": "user_explicit",
        }))?;
        b.put(&format!("{sid}-2"), json!({
            "type": "event", "content": format!("Here is the week {} status: merged work, incidents, risks and next steps.", week + 2),
            "role": "assistant", "model_id": "claude-sonnet-4", "session_id": sid, "user_id": "erin", "subject": "erin",
            "parent_message_id": ask.to_hex(), "created_at": friday + 90_000, "namespace": NAMESPACE,
            "structural_tags": ["conversation", "status"], "source_type": "llm_generated", "author_did": ASSISTANT,
        }))?;
        let refresh = start + at("1970-01-01T07:00:00Z");
        let deploys = [8, 9, 7, 11, 6, 10, 9, 12, 8][week as usize];
        b.put(&format!("act-refresh-w{week}"), json!({
            "type": "action", "tool_name": "query_metrics", "input": { "query": "dashboard refresh" },
            "content": format!("dashboard refreshed: {deploys} deployments last week"), "is_error": false, "subject": "dave",
            "relation": "mg:did", "object": format!("dashboard refreshed: {deploys} deployments last week"), "user_id": "dave",
            "created_at": refresh, "namespace": NAMESPACE, "structural_tags": ["tool", "metrics"], "author_did": ASSISTANT,
            "source_type": "system", "tool_call_id": format!("call-refresh-{week}"),
        }))?;
        for (weekday, time, title) in MEETINGS {
            let when = start + weekday * day + at(&format!("1970-01-01{time}"));
            if when > super::NOW_MS {
                continue;
            }
            b.put(&format!("cal-w{week}-{weekday}"), json!({
                "type": "observation", "observer_id": "obs-calendar", "observer_type": "sensor:calendar",
                "subject": "team-alpha", "relation": "mg:perceives", "object": format!("meeting held: {title}"),
                "created_at": when, "namespace": NAMESPACE, "structural_tags": ["calendar"], "source_type": "sensor",
            }))?;
        }
    }
    Ok(())
}

fn observations(b: &mut Builder) -> Result<(), OmsError> {
    let start = at("2026-01-05T10:45:00Z");
    let mut line = 0;
    for day in 0..61i64 {
        let when = start + day * 86_400_000;
        // 2026-01-05 is a Monday: skip Saturdays and Sundays.
        if day % 7 >= 5 {
            continue;
        }
        b.put(&format!("standup-{day}"), json!({
            "type": "observation", "observer_id": "obs-standup-bot", "observer_type": "agent:summarizer",
            "subject": "team-alpha", "relation": "mg:perceives", "object": format!("standup: {}", STANDUP[line % STANDUP.len()]),
            "created_at": when, "namespace": NAMESPACE, "structural_tags": ["standup", "team"], "source_type": "agent_inferred",
        }))?;
        line += 1;
    }
    #[rustfmt::skip]
    let monitors: &[(&str, &str, &str, &str, &str)] = &[
        ("obs-dashboard", "obs-activity-monitor", "agent:monitor", "alice opened incident-dashboard at 09:14 UTC", "2026-03-02T09:14:00Z"),
        ("obs-late", "obs-activity-monitor", "agent:monitor", "alice worked past 20:00 on three days this week", "2026-02-27T21:00:00Z"),
        ("obs-review", "obs-calendar", "sensor:calendar", "Q1 review presentation scheduled for 2026-03-15 14:00 UTC", "2026-03-02T09:30:00Z"),
        ("obs-ci", "obs-ci", "sensor:ci", "main branch build time rose from 9 to 14 minutes", "2026-02-25T12:00:00Z"),
        ("obs-dave-tea", "obs-activity-monitor", "agent:monitor", "dave declined coffee at the offsite and asked for tea", "2026-01-23T15:31:00Z"),
    ];
    for (key, id, kind, what, when) in monitors {
        let subject = if what.starts_with("alice") {
            "alice"
        } else if what.starts_with("dave") {
            "dave"
        } else {
            "team-alpha"
        };
        b.put(key, json!({
            "type": "observation", "observer_id": id, "observer_type": kind, "subject": subject, "relation": "mg:perceives",
            "object": what, "created_at": when, "namespace": NAMESPACE, "structural_tags": ["monitor"], "source_type": "sensor",
        }))?;
    }
    Ok(())
}

fn goal(subject: &str, object: &str, state: &str, deadline: &str, created: &str) -> serde_json::Value {
    json!({
        "type": "goal", "description": object, "subject": subject, "relation": "mg:intends", "object": object,
        "goal_state": state, "deadline": at(deadline), "assigned_agent": ASSISTANT, "created_at": created,
        "namespace": NAMESPACE, "user_id": subject, "structural_tags": ["goal"],
        "importance": 0.8,
    })
}

fn goals(b: &mut Builder) -> Result<(), OmsError> {
    #[rustfmt::skip]
    let rows: &[(&str, &str, &str, &str, &str, &str)] = &[
        ("p0-rate", "alice", "reduce the P0 incident rate by 20% in Q2", "active", "2026-06-30T00:00:00Z", "2026-03-02T09:21:00Z"),
        ("orders-index", "bob", "ship the orders index to production", "active", "2026-01-23T00:00:00Z", "2026-01-19T14:27:00Z"),
        ("palette", "carol", "publish the accessible button palette", "active", "2026-02-06T00:00:00Z", "2026-01-26T11:06:00Z"),
        ("forecast", "dave", "publish the Q1 deployment forecast", "active", "2026-02-10T00:00:00Z", "2026-02-03T09:40:00Z"),
        ("roadmap", "erin", "agree on the Q2 roadmap", "active", "2026-03-20T00:00:00Z", "2026-02-20T11:05:00Z"),
        ("status-mail", "erin", "send the weekly status every Friday", "active", "2026-06-30T00:00:00Z", "2026-01-09T17:05:00Z"),
        ("offsite", "erin", "organise the team offsite in Lisbon", "suspended", "2026-04-30T00:00:00Z", "2026-01-28T10:00:00Z"),
        ("migration", "bob", "finish the auth migration", "active", "2026-02-20T00:00:00Z", "2026-02-13T09:30:00Z"),
        ("legacy-api", "bob", "retire the legacy orders API", "failed", "2026-02-01T00:00:00Z", "2026-01-07T10:30:00Z"),
        ("q1-review", "alice", "complete the Q1 engineering review presentation", "active", "2026-03-15T00:00:00Z", "2026-03-02T09:20:00Z"),
    ];
    // q1-review depends on the forecast, so it is active only once the forecast is satisfied
    // (OMS §8.7 depends_on): it is stored after the transitions below.
    for (key, s, o, state, deadline, created) in rows.iter().filter(|r| r.0 != "q1-review") {
        b.put(&format!("goal-{key}"), goal(s, o, state, deadline, created))?;
    }
    // Goals reach their end state by supersession (OMS §8.7).
    let transitions: &[(&str, &str, &str, &str)] = &[
        ("orders-index", "2026-01-22T16:00:00Z", "satisfied", "index live in production"),
        ("palette", "2026-02-05T12:00:00Z", "satisfied", "palette published in the design system"),
        ("forecast", "2026-02-09T15:00:00Z", "satisfied", "forecast shared with the team"),
        ("migration", "2026-02-20T08:00:00Z", "satisfied", "auth migration finished"),
    ];
    for (key, when, state, why) in transitions {
        let row = rows.iter().find(|r| r.0 == *key).ok_or(OmsError::NotFound { address: (*key).to_string() })?;
        let mut j = goal(row.1, row.2, state, row.4, when);
        j["satisfaction_evidence"] = json!([why]);
        b.supersede(&format!("goal-{key}"), &format!("goal-{key}-done"), j, why)?;
    }
    for (key, s, o, state, deadline, created) in rows.iter().filter(|r| r.0 == "q1-review") {
        let mut j = goal(s, o, state, deadline, created);
        j["depends_on"] = json!([b.hex("goal-forecast")]);
        b.put(&format!("goal-{key}"), j)?;
    }
    Ok(())
}

fn reasoning(b: &mut Builder) -> Result<(), OmsError> {
    #[rustfmt::skip]
    let rows: &[Inference] = &[
        ("why-incidents", "alice", "deductive", &["incidents", "alice-incidents"], "alice is prioritising reliability given 3 P0 incidents; lead with the incident reduction narrative", "2026-03-02T09:16:00Z"),
        ("why-week5", "dave", "abductive", &["act-deploys"], "low deployments in week 5 were likely caused by the infra migration; flag it as a contextual outlier", "2026-02-03T09:33:00Z"),
        ("why-mornings", "bob", "inductive", &["bob-mornings", "bob-no-mornings"], "bob's scheduling preference changed in February; prefer afternoons", "2026-02-16T17:05:00Z"),
        ("why-dark", "alice", "inductive", &["alice-theme-3"], "alice switches themes by time of day; keep dark high-contrast as the default", "2026-02-24T18:20:00Z"),
        ("why-index", "bob", "deductive", &["act-explain"], "a composite index on (customer_id, created_at) removes the sequential scan", "2026-01-19T14:22:00Z"),
        ("why-contrast", "carol", "analogical", &["carol-wcag", "act-contrast"], "the ghost button fails like last year's link colour did; darken it the same way", "2026-01-26T11:04:00Z"),
        ("why-status", "erin", "inductive", &["erin-status"], "erin reads status on Fridays; draft it on Friday mornings", "2026-03-05T16:36:00Z"),
        ("why-coffee", "dave", "abductive", &["obs-dave-tea"], "dave does not drink coffee; the espresso preference was wrong", "2026-01-23T15:32:00Z"),
    ];
    for (key, s, method, premises, conclusion, when) in rows {
        let premises: Vec<String> = premises.iter().map(|p| b.hex(p)).collect();
        b.put(&format!("reasoning-{key}"), json!({
            "type": "reasoning", "inference_method": method, "premises": premises, "conclusion": conclusion,
            "subject": s, "user_id": s, "created_at": when, "namespace": NAMESPACE, "structural_tags": ["reasoning"],
            "author_did": ASSISTANT, "source_type": "agent_inferred",
        }))?;
    }
    Ok(())
}

fn states_and_workflows(b: &mut Builder) -> Result<(), OmsError> {
    #[rustfmt::skip]
    let states: &[(&str, &str, &str, &[&str], &str)] = &[
        ("q1_review_prep", "alice", "sess-0302-alice-8", &["headline metrics", "incident retrospective", "velocity trend", "Q2 goals"], "2026-03-02T09:22:00Z"),
        ("q1_review_prep_v2", "erin", "sess-0305-erin-4", &["headline metrics", "incident retrospective", "velocity trend", "Q2 goals", "Q2 roadmap"], "2026-03-05T16:40:00Z"),
        ("phoenix_triage", "bob", "sess-0119-bob-6", &["reproduce slow query", "add index on staging", "open production ticket"], "2026-01-19T14:30:00Z"),
        ("palette_audit", "carol", "sess-0126-carol-6", &["measure contrast", "flag failures", "propose darker variants"], "2026-01-26T11:10:00Z"),
        ("forecast_run", "dave", "sess-0203-dave-6", &["pull weekly counts", "fit seasonal naive", "document sources"], "2026-02-03T09:45:00Z"),
    ];
    for (id, user, tail, plan, when) in states {
        let tail = b.hex(tail);
        b.put(
            &format!("state-{id}"),
            json!({
                "type": "state", "context": { "id": id, "messages_tail": tail, "model": "claude-sonnet-4" },
                "plan": plan, "subject": ASSISTANT, "relation": "mg:state_at", "user_id": user, "created_at": when,
                "namespace": NAMESPACE, "structural_tags": ["state"], "author_did": ASSISTANT,
            }),
        )?;
    }
    #[rustfmt::skip]
    let workflows: &[(&str, &str, &[&str], &str)] = &[
        ("review-prep", "on:review_prep_requested", &["retrieve Q1 metrics", "identify narrative arc", "draft slide outline", "populate data", "send for review"], "2026-03-02T09:24:00Z"),
        ("weekly-status", "on:friday_morning", &["collect merged PRs", "collect incidents", "draft status", "send to erin"], "2026-01-16T08:00:00Z"),
        ("incident-followup", "on:p0_resolved", &["collect timeline", "draft postmortem", "schedule review", "track action items"], "2026-01-30T12:00:00Z"),
        ("meeting-request", "on:meeting_requested", &["check attendee preferences", "avoid blocked hours", "propose two slots", "send invite"], "2026-01-12T11:00:00Z"),
    ];
    for (key, trigger, steps, when) in workflows {
        b.put(&format!("workflow-{key}"), json!({
            "type": "workflow", "trigger": trigger, "steps": steps, "subject": ASSISTANT, "relation": "mg:requires_steps",
            "object": key, "created_at": when, "namespace": NAMESPACE, "structural_tags": ["workflow"], "author_did": ASSISTANT,
        }))?;
    }
    Ok(())
}

fn consensus_and_consent(b: &mut Builder) -> Result<(), OmsError> {
    let reviewers = [
        "did:web:acme.example:agents:metrics",
        "did:web:acme.example:agents:reviewer",
        ASSISTANT,
        "did:web:acme.example:agents:sre",
    ];
    #[rustfmt::skip]
    let claims: &[(&str, &str, i64, i64, i64, &str)] = &[
        ("deploy-freq", "Q1 deployment frequency improved 18% over Q4 2025", 3, 4, 0, "2026-03-03T10:00:00Z"),
        ("mttr", "mean time to recovery in Q1 was under one hour", 3, 3, 1, "2026-03-03T10:05:00Z"),
        ("week5", "week 5 is an outlier caused by the infra migration", 2, 2, 1, "2026-02-04T12:00:00Z"),
        ("palette-ok", "the v2 palette meets WCAG AA except the ghost variant", 3, 4, 0, "2026-01-27T09:00:00Z"),
    ];
    for (key, claim, threshold, agree, dissent, when) in claims {
        let n = (*agree + *dissent) as usize;
        b.put(
            &format!("consensus-{key}"),
            json!({
                "type": "consensus", "participating_observers": reviewers[..n.min(4)], "threshold": threshold,
                "agreement_count": agree, "dissent_count": dissent, "agreed_content": claim, "object": claim,
                "subject": "team-alpha", "relation": "mg:agrees_with", "created_at": when, "namespace": NAMESPACE,
                "structural_tags": ["consensus", "metrics"],
            }),
        )?;
    }
    #[rustfmt::skip]
    let consents: &[(&str, &str, &[&str], &str, &str)] = &[
        ("alice-personal", "alice", &["store", "retrieve", "profile"], "personalization", "2026-01-05T08:30:00Z"),
        ("bob-personal", "bob", &["store", "retrieve"], "personalization", "2026-01-05T08:31:00Z"),
        ("carol-personal", "carol", &["store", "retrieve", "profile"], "personalization", "2026-01-05T08:32:00Z"),
        ("dave-personal", "dave", &["store", "retrieve"], "personalization", "2026-01-05T08:33:00Z"),
        ("erin-personal", "erin", &["store", "retrieve", "share"], "personalization", "2026-01-05T08:34:00Z"),
        ("alice-metrics", "alice", &["retrieve", "process"], "access engineering metrics dashboards for review preparation", "2026-03-02T09:12:00Z"),
        ("dave-share", "dave", &["share"], "share forecast notebooks with team-alpha", "2026-02-03T09:50:00Z"),
    ];
    for (key, who, scope, purpose, when) in consents {
        b.put(&format!("consent-{key}"), json!({
            "type": "consent", "subject_did": format!("did:web:acme.example:{who}"), "grantee_did": ASSISTANT,
            "scope": scope, "is_withdrawal": false, "purpose": purpose, "basis": "explicit_consent", "jurisdiction": "eu",
            "valid_to": at("2026-12-31T23:59:59Z"), "subject": who, "user_id": who, "created_at": when,
            "namespace": NAMESPACE, "structural_tags": ["consent"],
        }))?;
    }
    let prior = b.hex("consent-dave-share");
    b.put(
        "consent-dave-share-withdrawn",
        json!({
            "type": "consent", "subject_did": "did:web:acme.example:dave", "grantee_did": ASSISTANT, "scope": ["share"],
            "is_withdrawal": true, "prior_consent": prior, "purpose": "share forecast notebooks with team-alpha",
            "basis": "explicit_consent", "jurisdiction": "eu", "subject": "dave", "user_id": "dave",
            "created_at": "2026-02-27T10:00:00Z", "namespace": NAMESPACE, "structural_tags": ["consent"],
        }),
    )?;
    Ok(())
}
