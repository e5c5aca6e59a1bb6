//! Desugaring of the RECALL shortcuts (§9, §7.2, §8.1.1) into the canonical
//! WHERE / WITH / pipeline form.
//!
//! The interpreter only ever executes the desugared tree, so a shortcut and
//! its written-out form run through exactly the same code and produce the same
//! result (§9: "the desugared form is always valid and produces identical
//! results"). Conditions produced by a shortcut carry the shortcut's span, so a
//! runtime error still points at what the user wrote.
//!
//! | shortcut | becomes |
//! |---|---|
//! | `MY` | `WHERE user_id = $current_user_id` |
//! | `ABOUT "x"` | `WHERE subject = "x"`; fallback `WHERE query = "x"` when nothing matches structurally |
//! | `LIKE "x"` | `WHERE query = "x"` |
//! | `SINCE "x"` | `WHERE time = "x"` |
//! | `BETWEEN a AND b` | `WHERE time BETWEEN a AND b` |
//! | `THREAD "s"` | `WHERE session_id = "s" \| ORDER BY time ASC` |
//! | `THREAD FROM sha256:…` | `WHERE session_id = <session of that message> \| ORDER BY time ASC` |
//! | `RECENT n` | `\| ORDER BY time DESC \| LIMIT n` |
//! | `CONTRADICTIONS` | `WHERE contradicted = true WITH contradiction_detection` |
//! | `relation IS CAT` | `relation IN (…the §7.2 members…)` |
//!
//! Generated conditions come in clause order (MY, ABOUT, LIKE, SINCE,
//! BETWEEN, THREAD), then the written WHERE conditions, then CONTRADICTIONS.
//! RECENT's two stages go before the first stage that reshapes rows (SELECT,
//! COUNT, SUBJECTS/OBJECTS/HASHES, GROUP BY, PROJECT), THREAD's ORDER BY
//! before everything (docs/spec-decisions-interp.md, P1–P3).

use cal_grammar::fields::names;
use cal_grammar::relations::category_members;
use cal_parser::ast::{
    Comparator, Condition, FieldRef, IntLit, IntOrParam, Recall, SortDirection, Span, Stage, StageKind, Target, Test,
    ThreadKind, Value, ValueKind, WhereClause, WithClause, WithKind, WithOption,
};
use cal_parser::print::statement_to_text;

/// The parameter `MY` binds (§9.5): the session's user.
pub const CURRENT_USER_PARAM: &str = "current_user_id";

/// One shortcut and what it became, for EXPLAIN.
#[derive(Debug, Clone, PartialEq)]
pub struct Expansion {
    /// The shortcut keyword (`ABOUT`, `RECENT`, `relation IS`, …).
    pub shortcut: &'static str,
    /// The canonical form it expands to, as text.
    pub expands_to: String,
}

/// A RECALL with every shortcut written out.
#[derive(Debug, Clone, PartialEq)]
pub struct Desugared {
    /// The canonical statement: no MY, ABOUT, LIKE, SINCE, BETWEEN, THREAD
    /// (session form), RECENT, CONTRADICTIONS or `IS CATEGORY` remains.
    pub recall: Recall,
    /// With ABOUT: the same statement with `query = "x"` in place of
    /// `subject = "x"`, run when the structural form matches nothing (§9.1).
    pub fallback: Option<Recall>,
    /// With `THREAD FROM sha256:…`: the message whose session is the thread;
    /// the interpreter resolves it and adds `session_id = …` before running.
    pub thread_from: Option<Target>,
    /// What each shortcut became, in clause order.
    pub expansions: Vec<Expansion>,
}

fn string(value: &str, span: Span) -> Value {
    Value { kind: ValueKind::String(value.into()), span }
}

fn compare(field: &str, op: Comparator, value: Value, span: Span) -> Condition {
    Condition { field: FieldRef { name: field.into(), span }, test: Test::Compare { op, op_span: span, value }, span }
}

fn order_by_time(direction: SortDirection, span: Span) -> Stage {
    Stage {
        kind: StageKind::OrderBy { field: FieldRef { name: names::TIME.into(), span }, direction: Some(direction) },
        span,
    }
}

/// Whether a stage turns grains into something else (or annotates their rendering):
/// RECENT's stages must run before it.
pub fn reshapes(kind: &StageKind) -> bool {
    matches!(
        kind,
        StageKind::Select(_) | StageKind::Count | StageKind::Extract(_) | StageKind::GroupBy(_) | StageKind::Project(_)
    )
}

/// Replaces `relation IS CATEGORY` by `relation IN (…)` (§7.2), in the §7.2 order.
fn expand_category(c: &Condition, expansions: &mut Vec<Expansion>) -> Condition {
    match &c.test {
        Test::IsCategory(cat, span) => {
            let values = category_members(*cat).iter().map(|m| string(m, *span)).collect();
            let out = Condition { field: c.field.clone(), test: Test::InList(values), span: c.span };
            expansions
                .push(Expansion { shortcut: "relation IS", expands_to: conditions_text(std::slice::from_ref(&out)) });
            out
        }
        _ => c.clone(),
    }
}

/// The text of `WHERE c AND …` (without `WHERE`), printed by the canonical printer.
pub fn conditions_text(conditions: &[Condition]) -> String {
    let r = Recall {
        where_clause: Some(WhereClause { conditions: conditions.to_vec(), span: Span::default() }),
        ..Recall::default()
    };
    let text = statement_to_text(&cal_parser::ast::Statement::Recall(Box::new(r)));
    text.trim_start_matches("RECALL").trim_start().trim_start_matches("WHERE").trim().to_string()
}

/// The text of pipeline stages (`| ORDER BY time DESC | LIMIT 5`).
pub fn stages_text(stages: &[Stage]) -> String {
    let r = Recall { pipeline: stages.to_vec(), ..Recall::default() };
    let text = statement_to_text(&cal_parser::ast::Statement::Recall(Box::new(r)));
    text.trim_start_matches("RECALL").trim().to_string()
}

/// Desugars one RECALL (§9). Subqueries inside `IN (…)` are left as written;
/// they are planned (and desugared) on their own.
pub fn desugar_recall(r: &Recall) -> Desugared {
    let mut expansions = Vec::new();
    let mut head: Vec<Condition> = Vec::new();
    if let Some(span) = r.my {
        let c = compare(
            names::USER_ID,
            Comparator::Eq,
            Value { kind: ValueKind::Param(CURRENT_USER_PARAM.into()), span },
            span,
        );
        expansions.push(Expansion {
            shortcut: "MY",
            expands_to: format!("WHERE {}", conditions_text(std::slice::from_ref(&c))),
        });
        head.push(c);
    }
    let about_at = r.about.as_ref().map(|about| {
        let c = compare(names::SUBJECT, Comparator::Eq, string(&about.value, about.span), about.span);
        let fb = compare(names::QUERY, Comparator::Eq, string(&about.value, about.span), about.span);
        expansions.push(Expansion {
            shortcut: "ABOUT",
            expands_to: format!(
                "WHERE {} (if nothing matches: WHERE {})",
                conditions_text(std::slice::from_ref(&c)),
                conditions_text(std::slice::from_ref(&fb))
            ),
        });
        head.push(c);
        (head.len() - 1, fb)
    });
    if let Some(like) = &r.like {
        let c = compare(names::QUERY, Comparator::Eq, string(&like.value, like.span), like.span);
        expansions.push(Expansion {
            shortcut: "LIKE",
            expands_to: format!("WHERE {}", conditions_text(std::slice::from_ref(&c))),
        });
        head.push(c);
    }
    if let Some(since) = &r.since {
        let c = compare(names::TIME, Comparator::Eq, string(&since.value, since.span), since.span);
        expansions.push(Expansion {
            shortcut: "SINCE",
            expands_to: format!("WHERE {}", conditions_text(std::slice::from_ref(&c))),
        });
        head.push(c);
    }
    if let Some(b) = &r.between {
        let c = Condition {
            field: FieldRef { name: names::TIME.into(), span: b.span },
            test: Test::Between { low: b.low.clone(), high: b.high.clone() },
            span: b.span,
        };
        expansions.push(Expansion {
            shortcut: "BETWEEN",
            expands_to: format!("WHERE {}", conditions_text(std::slice::from_ref(&c))),
        });
        head.push(c);
    }
    let mut pipeline: Vec<Stage> = Vec::new();
    let mut thread_from = None;
    if let Some(t) = &r.thread {
        let order = order_by_time(SortDirection::Asc, t.span);
        match &t.kind {
            ThreadKind::Session(s) => {
                let c = compare(names::SESSION_ID, Comparator::Eq, string(&s.value, s.span), t.span);
                expansions.push(Expansion {
                    shortcut: "THREAD",
                    expands_to: format!(
                        "WHERE {} {}",
                        conditions_text(std::slice::from_ref(&c)),
                        stages_text(std::slice::from_ref(&order))
                    ),
                });
                head.push(c);
            }
            ThreadKind::From(target) => {
                expansions.push(Expansion {
                    shortcut: "THREAD FROM",
                    expands_to: format!(
                        "WHERE session_id = <session of that message> {}",
                        stages_text(std::slice::from_ref(&order))
                    ),
                });
                thread_from = Some(target.clone());
            }
        }
        pipeline.push(order);
    }
    let mut body: Vec<Condition> = Vec::new();
    if let Some(w) = &r.where_clause {
        for c in &w.conditions {
            body.push(expand_category(c, &mut expansions));
        }
    }
    if let Some(span) = r.contradictions {
        let c = compare(names::CONTRADICTED, Comparator::Eq, Value { kind: ValueKind::Bool(true), span }, span);
        expansions.push(Expansion {
            shortcut: "CONTRADICTIONS",
            expands_to: format!("WHERE {} WITH contradiction_detection", conditions_text(std::slice::from_ref(&c))),
        });
        body.push(c);
    }
    pipeline.extend(r.pipeline.iter().cloned());
    if let Some(n) = r.recent {
        let stages = [
            order_by_time(SortDirection::Desc, n.span),
            Stage { kind: StageKind::Limit(IntOrParam::Int(IntLit { value: n.value, span: n.span })), span: n.span },
        ];
        expansions.push(Expansion { shortcut: "RECENT", expands_to: stages_text(&stages) });
        let at = pipeline.iter().position(|s| reshapes(&s.kind)).unwrap_or(pipeline.len());
        pipeline.splice(at..at, stages);
    }
    let mut with = r.with.clone();
    if let Some(span) = r.contradictions {
        let present =
            with.as_ref().is_some_and(|w| w.options.iter().any(|o| matches!(o.kind, WithKind::ContradictionDetection)));
        if !present {
            let w = with.get_or_insert_with(|| WithClause { options: Vec::new(), span });
            w.options.push(WithOption { kind: WithKind::ContradictionDetection, span });
        }
    }
    let build = |conditions: Vec<Condition>| {
        let span = r.where_clause.as_ref().map_or(r.span, |w| w.span);
        Recall {
            my: None,
            grain_type: r.grain_type,
            scope: r.scope.clone(),
            about: None,
            like: None,
            since: None,
            between: None,
            thread: None,
            where_clause: (!conditions.is_empty()).then_some(WhereClause { conditions, span }),
            with: with.clone(),
            pipeline: pipeline.clone(),
            recent: None,
            contradictions: None,
            as_format: r.as_format,
            span: r.span,
        }
    };
    let fallback = about_at.map(|(at, fb)| {
        let mut conditions = head.clone();
        conditions[at] = fb;
        conditions.extend(body.iter().cloned());
        build(conditions)
    });
    let mut conditions = head;
    conditions.extend(body);
    Desugared { recall: build(conditions), fallback, thread_from, expansions }
}

/// Whether a RECALL still contains a shortcut (it never does after [`desugar_recall`]).
pub fn has_shortcuts(r: &Recall) -> bool {
    r.my.is_some()
        || r.about.is_some()
        || r.like.is_some()
        || r.since.is_some()
        || r.between.is_some()
        || r.thread.as_ref().is_some_and(|t| matches!(t.kind, ThreadKind::Session(_)))
        || r.recent.is_some()
        || r.contradictions.is_some()
        || r.where_clause.as_ref().is_some_and(|w| w.conditions.iter().any(|c| matches!(c.test, Test::IsCategory(..))))
}
