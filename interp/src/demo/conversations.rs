//! Conversations of the demo memory: Event grains threaded by `session_id`
//! and `parent_message_id` (OMS §28.6), one session per row of [`SESSIONS`].

use oms::OmsError;
use serde_json::json;

use super::{ASSISTANT, Builder, NAMESPACE, at};

/// A session: id, user, start time, tags, and messages as (minutes after start, role, text).
type Session =
    (&'static str, &'static str, &'static str, &'static [&'static str], &'static [(i64, &'static str, &'static str)]);

#[rustfmt::skip] // conversations read best as scripts
const SESSIONS: &[Session] = &[
    ("sess-0112-alice", "alice", "2026-01-12T10:05:00Z", &["conversation", "project:phoenix"], &[
        (0, "user", "Can you summarise where project phoenix stands before the design review?"),
        (1, "assistant", "Phoenix is in design review: the API draft is ready, auth is still open, and bob owns the storage layer."),
        (3, "user", "Keep it to bullet points next time, I read these on my phone."),
        (3, "assistant", "Noted: concise bullet points from now on."),
        (6, "user", "And please don't book anything before ten, I do focused work in the morning."),
        (7, "assistant", "Understood. I will keep your mornings free of meetings."),
    ]),
    ("sess-0119-bob", "bob", "2026-01-19T14:20:00Z", &["conversation", "project:phoenix"], &[
        (0, "user", "The orders query takes four seconds on staging. Any idea why?"),
        (1, "assistant", "The plan shows a sequential scan on orders; an index on (customer_id, created_at) should fix it."),
        (5, "user", "That worked, down to 40 ms. Can you open a ticket to add it in production?"),
        (6, "assistant", "Ticket PHX-214 created: add the orders index in production, assigned to you."),
        (9, "user", "Thanks. Morning slots are fine for the DB review, I'm an early bird."),
        (9, "assistant", "Great, I'll propose 9:00 New York time for the review."),
    ]),
    ("sess-0126-carol", "carol", "2026-01-26T11:00:00Z", &["conversation", "project:design-system"], &[
        (0, "user", "I need the contrast ratios for the new button palette."),
        (2, "assistant", "Primary on white is 4.8:1 and passes WCAG AA; the ghost variant is 3.1:1 and fails for body text."),
        (4, "user", "Flag the ghost variant in the design review doc, please."),
        (5, "assistant", "Added a note to the design review doc with the failing ratio and two darker alternatives."),
        (8, "user", "No huddle for this, just comment in Figma."),
        (8, "assistant", "Will do: comments in Figma, no huddle."),
    ]),
    ("sess-0203-dave", "dave", "2026-02-03T09:30:00Z", &["conversation", "metrics"], &[
        (0, "user", "Pull the deployment counts per week for Q1 so far."),
        (1, "assistant", "Weeks 1 to 5: 8, 9, 7, 11 and 6 deployments; week 5 was the infra migration."),
        (4, "user", "Can you forecast the rest of the quarter?"),
        (6, "assistant", "A seasonal naive forecast gives 8 per week, about 100 for the quarter, with wide bounds because of week 5."),
        (9, "user", "Write down where the data came from before I share it."),
        (10, "assistant", "Documented the source tables, the date range and the exclusion of the migration week."),
    ]),
    ("sess-0216-bob", "bob", "2026-02-16T17:00:00Z", &["conversation", "schedule"], &[
        (0, "user", "Move the DB review, mornings don't work for me any more."),
        (1, "assistant", "Moved it to 14:00 New York time on Thursday. Should I avoid mornings in general?"),
        (2, "user", "Yes, no meetings before lunch for now."),
        (3, "assistant", "Noted: no morning meetings for you."),
    ]),
    ("sess-0224-alice", "alice", "2026-02-24T18:10:00Z", &["conversation", "ui"], &[
        (0, "user", "Light mode is killing my eyes in the evening."),
        (1, "assistant", "Want me to switch your tools back to dark mode?"),
        (2, "user", "Dark mode, high contrast this time."),
        (3, "assistant", "Switched the dashboard and the docs site to dark mode with high contrast."),
    ]),
    ("sess-0302-alice", "alice", "2026-03-02T09:10:00Z", &["conversation", "metrics", "q1-review"], &[
        (0, "user", "Can you help me pull together the Q1 metrics?"),
        (1, "assistant", "Sure, retrieving deployment counts, incident data and velocity now."),
        (3, "user", "Focus on the reliability numbers first."),
        (5, "assistant", "47 deployments and 3 P0 incidents in Q1 so far; mean time to recovery was 52 minutes."),
        (8, "user", "Lead the review with the incident reduction story."),
        (9, "assistant", "Drafted an outline: headline metrics, incident retrospective, velocity trend, Q2 goals."),
        (12, "user", "Send the outline to erin for review by the 14th."),
        (13, "assistant", "Sent to erin with a review deadline of 2026-03-14."),
    ]),
    ("sess-0305-erin", "erin", "2026-03-05T16:30:00Z", &["conversation", "q1-review"], &[
        (0, "user", "I read alice's outline. Can we add the Q2 roadmap at the end?"),
        (2, "assistant", "Added a Q2 roadmap slide after the goals section, using your priority list."),
        (4, "user", "Good. My weekly status goes out tomorrow as usual."),
        (5, "assistant", "I'll have the status draft ready Friday morning."),
    ]),
];

pub(super) fn write(b: &mut Builder) -> Result<(), OmsError> {
    for (sid, user, start, tags, messages) in SESSIONS {
        let start_ms = at(start);
        let mut parent: Option<String> = None;
        for (i, (minutes, role, text)) in messages.iter().enumerate() {
            let when = start_ms + minutes * 60_000 + i as i64 * 1000;
            let mut j = json!({
                "type": "event", "content": text, "role": role, "session_id": sid, "user_id": user,
                "subject": user, "created_at": when, "namespace": NAMESPACE, "structural_tags": tags,
                "source_type": if *role == "user" { "user_explicit" } else { "llm_generated" },
            });
            if *role == "assistant" {
                j["model_id"] = "claude-sonnet-4".into();
                j["author_did"] = ASSISTANT.into();
            }
            if let Some(p) = &parent {
                j["parent_message_id"] = p.clone().into();
            }
            let key = format!("{sid}-{}", i + 1);
            let a = b.put(&key, j)?;
            parent = Some(a.to_hex());
        }
    }
    Ok(())
}
