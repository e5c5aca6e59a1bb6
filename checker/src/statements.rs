//! The query and its statement: LET bindings first, then the statement by
//! kind — set operations (operand count CAL-E013, operands that return
//! grains CAL-E021), BATCH (at most ten Tier 0 entries, CAL-E013 / CAL-E002,
//! unique labels CAL-E009), COALESCE (two to five branches, CAL-E013),
//! EXPLAIN, EXISTS, HISTORY — and the parameter rules once everything has
//! been seen.

use crate::context::{Amend, Checker};
use crate::params::{self, Params};
use crate::recall::{self, Site};
use crate::values::{Typed, Want, check_value};
use crate::{assemble, evolve, lets, limits, templates};
use cal_grammar::fields::names;
use cal_grammar::{Code, Diagnostic, Span, fields, limits as max};
use cal_parser::ast::{Batch, Coalesce, HistoryKind, Query, QueryBody, SetOp, Statement, Target, TargetKind};

/// Checks one query: LET bindings, the statement, then parameters.
#[inline]
pub(crate) fn check_query(query: &Query, params: Option<&Params>) -> Vec<Diagnostic> {
    let mut cx = Checker::new(params);
    if !query.lets.is_empty() {
        lets::declare(&mut cx, &query.lets);
        let in_assemble = match &query.body {
            QueryBody::Statement(s) => is_assemble(s),
            QueryBody::DefineTemplate(_) => false,
        };
        lets::check(&mut cx, &query.lets, in_assemble);
    }
    match &query.body {
        // The usual statement, without the dispatch of `statement` (the checker's budget is
        // counted in instructions: docs/performance-checker.md).
        QueryBody::Statement(Statement::Recall(r)) => {
            recall::check_recall(&mut cx, r, Site::Top);
        }
        QueryBody::Statement(s) => statement(&mut cx, s),
        QueryBody::DefineTemplate(d) => templates::check_define(&mut cx, d),
    }
    params::finish(&mut cx, query.span);
    cx.into_diagnostics()
}

fn is_assemble(s: &Statement) -> bool {
    match s {
        Statement::Assemble(_) => true,
        Statement::Explain(x) => is_assemble(&x.statement),
        _ => false,
    }
}

/// Checks any statement in a position that takes anything.
fn statement<'q>(cx: &mut Checker<'q>, s: &'q Statement) {
    match s {
        Statement::Recall(r) => {
            recall::check_recall(cx, r, Site::Top);
        }
        Statement::Assemble(a) => assemble::check(cx, a),
        Statement::SetOp(op) => set_op(cx, op),
        Statement::Exists(e) => target(cx, &e.target),
        Statement::History(h) => match &h.kind {
            HistoryKind::Hash { target: t, diff } => {
                target(cx, t);
                if let Some(d) = diff {
                    target(cx, d);
                }
            }
            HistoryKind::Triple { subject, relation, .. } => {
                if let (Some(s), Some(r)) =
                    (fields::common_field(names::SUBJECT), fields::common_field(names::RELATION))
                {
                    check_value(cx, subject, Want::Of(Typed::field(s)));
                    check_value(cx, relation, Want::Of(Typed::field(r)));
                }
            }
        },
        Statement::Explain(x) => statement(cx, &x.statement),
        Statement::Describe(_) => {}
        Statement::Batch(b) => batch(cx, b),
        Statement::Add(a) => evolve::check_add(cx, a),
        Statement::Supersede(s) => evolve::check_supersede(cx, s),
        Statement::Revert(r) => evolve::check_revert(cx, r),
        Statement::Coalesce(c) => coalesce(cx, c),
    }
}

/// A hash literal or a `$parameter` standing for one.
pub(crate) fn target<'q>(cx: &mut Checker<'q>, t: &'q Target) {
    if let TargetKind::Param(name) = &t.kind {
        params::use_param(cx, name, t.span, Want::Hash);
    }
}

/// The leaves of a chain of set operations, left to right.
fn operands<'q>(s: &'q Statement, out: &mut Vec<&'q Statement>) {
    match s {
        Statement::SetOp(op) => {
            operands(&op.left, out);
            operands(&op.right, out);
        }
        other => out.push(other),
    }
}

fn set_op<'q>(cx: &mut Checker<'q>, op: &'q SetOp) {
    let mut leaves = Vec::new();
    operands(&op.left, &mut leaves);
    operands(&op.right, &mut leaves);
    limits::too_many(
        cx,
        Code::E013,
        &leaves,
        |s| s.span(),
        max::MAX_SET_OPERANDS,
        "Too many set operands",
        "Combine fewer queries, or filter with IN (…) instead of UNION.",
    );
    for s in leaves {
        match s {
            Statement::Recall(r) => {
                recall::check_recall(cx, r, Site::SetOperand);
            }
            Statement::Coalesce(c) => coalesce(cx, c),
            other => {
                cx.error(
                    Code::E021,
                    keyword_span(other),
                    format!("{} cannot be an operand of a set operation: operands are RECALL (or COALESCE) queries that return grains.", other.kind_name().to_uppercase()),
                )
                .help("Put RECALL queries on both sides of UNION, INTERSECT and EXCEPT.");
                statement(cx, other);
            }
        }
    }
}

/// The span of a statement's leading keyword (keywords have a fixed length whatever their case).
fn keyword_span(s: &Statement) -> Span {
    let start = s.span().start as usize;
    let len = match s {
        Statement::Recall(_) => 6,
        Statement::Assemble(_) => 8,
        Statement::Exists(_) => 6,
        Statement::History(_) => 7,
        Statement::Explain(_) => 7,
        Statement::Describe(_) => 8,
        Statement::Batch(_) => 5,
        Statement::Add(_) => 3,
        Statement::Supersede(_) => 9,
        Statement::Revert(_) => 6,
        Statement::Coalesce(_) => 8,
        Statement::SetOp(op) => return op.span,
    };
    Span::new(start, (start + len).min(s.span().end as usize))
}

fn batch<'q>(cx: &mut Checker<'q>, b: &'q Batch) {
    limits::too_many(
        cx,
        Code::E013,
        &b.entries,
        |e| e.span,
        max::MAX_BATCH,
        "Too many BATCH entries",
        "Split the entries over two BATCH requests (§8.7).",
    );
    for (i, e) in b.entries.iter().enumerate() {
        if let Some(first) = b.entries[..i].iter().find(|f| f.label.name == e.label.name) {
            cx.error(Code::E009, e.label.span, format!("The label `{}` is used twice in this BATCH.", e.label.name))
                .help("Give each entry its own label: it names the entry's result slot.")
                .note(first.label.span, "first used here");
        }
        match &e.statement {
            Statement::Recall(_)
            | Statement::Exists(_)
            | Statement::History(_)
            | Statement::Describe(_)
            | Statement::Coalesce(_) => {}
            other => {
                let kind = other.kind_name().to_uppercase();
                let why =
                    if other.is_tier1() { "it is a Tier 1 (evolve) statement" } else { "it is not a single read" };
                cx.error(
                    Code::E002,
                    keyword_span(other),
                    format!("{kind} cannot be a BATCH entry: {why}; BATCH runs only Tier 0 reads (§8.7)."),
                )
                .help("BATCH entries are RECALL, EXISTS, HISTORY, DESCRIBE or COALESCE; run this statement on its own.")
                .valid(["RECALL", "EXISTS", "HISTORY", "DESCRIBE", "COALESCE"]);
            }
        }
        statement(cx, &e.statement);
    }
}

pub(crate) fn coalesce<'q>(cx: &mut Checker<'q>, c: &'q Coalesce) {
    // No branch at all is the parser's placeholder for a broken `( … )` (the JSON
    // schema requires one): its syntax error is the diagnostic, not a branch count.
    if !c.branches.is_empty() && c.branches.len() < max::MIN_COALESCE {
        let span = c.branches.first().map_or(c.span, |b| b.span);
        cx.error(
            Code::E013,
            span,
            format!("COALESCE needs at least {} branches; this one has {}.", max::MIN_COALESCE, c.branches.len()),
        )
        .help("Add a fallback RECALL, or write the single RECALL without COALESCE.");
    }
    limits::too_many(
        cx,
        Code::E013,
        &c.branches,
        |b| b.span,
        max::MAX_COALESCE,
        "Too many COALESCE branches",
        "Keep the five most specific fallbacks (§8.13).",
    );
    for b in &c.branches {
        recall::check_recall(cx, b, Site::Coalesce);
    }
}
