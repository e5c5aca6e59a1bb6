//! The shortcut combination rules of §9.8. Each invalid pair is CAL-E060
//! (AmbiguousShortcut) on the one written second, with a note on the first:
//! ABOUT + LIKE, RECENT + LIMIT, RECENT + ORDER BY, SINCE + WHERE time,
//! SINCE + BETWEEN, MY + WHERE user_id. The valid combinations of the table
//! (ABOUT + WHERE, CONTRADICTIONS + WITH contradiction_detection, AS + FORMAT)
//! pass. THREAD desugars to `WHERE session_id = …` (§8.1.1), so it follows the
//! field rules of session_id: CAL-E061 without a grain type, CAL-E060 on a
//! type other than events.

use crate::context::{Amend, Checker};
use cal_grammar::fields::names;
use cal_grammar::{Code, Diagnostic, GrainType, Span};
use cal_parser::ast::{Recall, StageKind};

/// Checks the shortcut combinations of one RECALL.
#[inline]
pub(crate) fn check(cx: &mut Checker<'_>, r: &Recall) {
    // Every rule below needs ABOUT with LIKE, RECENT, SINCE, MY or THREAD.
    if (r.about.is_none() || r.like.is_none())
        && r.recent.is_none()
        && r.since.is_none()
        && r.my.is_none()
        && r.thread.is_none()
    {
        return;
    }
    check_present(cx, r);
}

/// [`check`] for a RECALL that has shortcuts.
#[inline(never)]
fn check_present(cx: &mut Checker<'_>, r: &Recall) {
    if let (Some(about), Some(like)) = (&r.about, &r.like) {
        let plural = r.grain_type.map_or(String::new(), |g| format!("{} ", g.grain_type.plural()));
        let example = format!(
            "RECALL {plural}ABOUT {} WHERE query = {}",
            crate::render::quote(&about.value),
            crate::render::quote(&like.value)
        );
        pair(
            cx,
            ("ABOUT", about.span),
            ("LIKE", like.span),
            format!(
                "ABOUT already searches by subject and falls back to semantic search; to add a semantic search write `WHERE query = {}` instead of LIKE.",
                crate::render::quote_short(&like.value)
            ),
        )
        .example(example);
    }
    if let Some(n) = r.recent {
        for s in &r.pipeline {
            match &s.kind {
                StageKind::Limit(_) => {
                    pair(
                        cx,
                        ("RECENT", n.span),
                        ("LIMIT", s.span),
                        format!(
                            "RECENT {} already means `| ORDER BY time DESC | LIMIT {}`; keep one of them.",
                            n.value, n.value
                        ),
                    );
                }
                StageKind::OrderBy { .. } => {
                    pair(
                        cx,
                        ("RECENT", n.span),
                        ("ORDER BY", s.span),
                        format!(
                            "RECENT {} orders by time; drop ORDER BY, or replace RECENT with `| ORDER BY … | LIMIT {}`.",
                            n.value, n.value
                        ),
                    );
                }
                _ => {}
            }
        }
    }
    if let Some(since) = &r.since {
        if let Some(w) = &r.where_clause {
            for c in w.conditions.iter().filter(|c| c.field.name == names::TIME) {
                pair(
                    cx,
                    ("SINCE", since.span),
                    ("WHERE time", c.field.span),
                    format!(
                        "SINCE {} already means `WHERE time = {}`; keep one time condition.",
                        crate::render::quote_short(&since.value),
                        crate::render::quote_short(&since.value)
                    ),
                );
            }
        }
        if let Some(b) = &r.between {
            pair(
                cx,
                ("SINCE", since.span),
                ("BETWEEN", b.span),
                "SINCE and BETWEEN both set the time range; use one.".into(),
            );
        }
    }
    if let (Some(my), Some(w)) = (r.my, &r.where_clause) {
        for c in w.conditions.iter().filter(|c| c.field.name == names::USER_ID) {
            pair(
                cx,
                ("MY", my),
                ("WHERE user_id", c.field.span),
                "MY already means `WHERE user_id = $current_user_id`; drop MY or the user_id condition.".into(),
            );
        }
    }
    if let Some(t) = &r.thread {
        match r.grain_type {
            None => {
                cx.error(
                    Code::E061,
                    t.span,
                    "THREAD reads a conversation (`session_id`, a field of events); it needs `RECALL events`.",
                )
                .help("Write `RECALL events THREAD …` (§8.1.1).")
                .example("RECALL events THREAD \"sess-123\"");
            }
            Some(g) if g.grain_type != GrainType::Event => {
                cx.error(
                    Code::E060,
                    t.span,
                    format!(
                        "THREAD reads conversations, which are events; {} have no session_id.",
                        g.grain_type.plural()
                    ),
                )
                .help("Write `RECALL events THREAD …` (§8.1.1).")
                .note(g.span, format!("{} declared here", g.grain_type.plural()))
                .valid(["events"]);
            }
            Some(_) => {}
        }
    }
}

/// Reports CAL-E060 on the later of two shortcuts that cannot be combined.
fn pair<'c>(cx: &'c mut Checker<'_>, a: (&str, Span), b: (&str, Span), help: String) -> &'c mut Diagnostic {
    let (first, second) = if a.1.start <= b.1.start { (a, b) } else { (b, a) };
    cx.error(
        Code::E060,
        second.1,
        format!("{} cannot be combined with {}: together they are ambiguous (§9.8).", second.0, first.0),
    )
    .help(help)
    .note(first.1, format!("{} is here", first.0))
}
