//! Every statement other than RECALL and ASSEMBLE, the dispatch over all twelve,
//! and DEFINE TEMPLATE.

use super::assemble::{assemble, section};
use super::recall::{in_scope, recall};
use super::values::{quoted, target, value};
use super::{Ctx, block, newline};
use crate::ast::*;

/// Any statement.
pub(crate) fn statement(s: &Statement, cx: Ctx) -> String {
    match s {
        Statement::Recall(r) => recall(r, cx),
        Statement::Assemble(a) => assemble(a, cx),
        Statement::SetOp(op) => set_op(op, cx),
        Statement::Exists(e) => format!("EXISTS {}", target(&e.target)),
        Statement::History(h) => history(h, cx),
        Statement::Explain(e) => format!("EXPLAIN {}", statement(&e.statement, cx.after("EXPLAIN ".len()))),
        Statement::Describe(d) => describe(d),
        Statement::Batch(b) => batch(b, cx),
        Statement::Add(a) => {
            let head = format!("ADD {}", a.grain_type.grain_type.singular());
            block(&head, &evolve_clauses(&a.sets, a.reason.as_ref()), cx)
        }
        Statement::Supersede(s) => {
            let head = format!("SUPERSEDE {}", target(&s.target));
            block(&head, &evolve_clauses(&s.sets, s.reason.as_ref()), cx)
        }
        Statement::Revert(r) => {
            let head = format!("REVERT {}", target(&r.target));
            block(&head, &evolve_clauses(&[], r.reason.as_ref()), cx)
        }
        Statement::Coalesce(c) => coalesce(c, cx),
    }
}

/// `(a) OP (b) OP (c)`: a left-nested chain prints flat; every operand is parenthesized,
/// so a right operand that is itself a set operation keeps its grouping. When the
/// chain does not fit, operands and operators alternate on their own lines.
fn set_op(op: &SetOp, cx: Ctx) -> String {
    // Walk down the left spine: ((a OP1 b) OP2 c) is the chain a, OP1 b, OP2 c.
    let mut tail: Vec<(&SetOperator, &Statement)> = Vec::new();
    let mut left = op;
    let first = loop {
        tail.push((&left.op, &left.right));
        match left.left.as_ref() {
            Statement::SetOp(inner) => left = inner,
            other => break other,
        }
    };
    tail.reverse();
    let operand = |s: &Statement, cx: Ctx| format!("({})", statement(s, cx.after(1).with_tail(1)));
    let mut flat = operand(first, Ctx::FLAT);
    for (o, s) in &tail {
        flat.push_str(&format!(" {} {}", o.as_str(), operand(s, Ctx::FLAT)));
    }
    if cx.fits(&flat) {
        return flat;
    }
    let line = Ctx::line(cx.indent);
    let mut out = operand(first, Ctx { tail: 0, ..cx });
    let last = tail.len() - 1;
    for (i, (o, s)) in tail.iter().enumerate() {
        newline(&mut out, cx.indent);
        out.push_str(o.as_str());
        newline(&mut out, cx.indent);
        let tail_cx = if i == last { line.with_tail(cx.tail) } else { line };
        out.push_str(&operand(s, tail_cx));
    }
    out
}

/// `HISTORY target [DIFF target]` or `HISTORY [IN …] WHERE subject = v AND relation = v [AS OF "…"]`.
fn history(h: &History, cx: Ctx) -> String {
    match &h.kind {
        HistoryKind::Hash { target: t, diff } => {
            let clauses: Vec<String> = diff.iter().map(|d| format!("DIFF {}", target(d))).collect();
            block(&format!("HISTORY {}", target(t)), &clauses, cx)
        }
        HistoryKind::Triple { scope, subject, relation, as_of } => {
            let mut clauses = Vec::new();
            if let Some(s) = scope {
                clauses.push(in_scope(s));
            }
            clauses.push(format!("WHERE subject = {} AND relation = {}", value(subject), value(relation)));
            if let Some(d) = as_of {
                clauses.push(format!("AS OF {}", quoted(&d.value)));
            }
            block("HISTORY", &clauses, cx)
        }
    }
}

/// `DESCRIBE target [grain_type]`.
fn describe(d: &Describe) -> String {
    match &d.grain_type {
        Some(g) => format!("DESCRIBE {} {}", d.target.as_str(), g.grain_type.singular()),
        None => format!("DESCRIBE {}", d.target.as_str()),
    }
}

/// `BATCH {` with one `label: statement` entry per line, then `}`.
fn batch(b: &Batch, cx: Ctx) -> String {
    let inner = cx.inner();
    let mut out = String::from("BATCH {");
    let last = b.entries.len().saturating_sub(1);
    for (i, e) in b.entries.iter().enumerate() {
        newline(&mut out, inner);
        let prefix = format!("{}: ", e.label.name);
        let comma = usize::from(i != last);
        let entry_cx = Ctx::line(inner).after(prefix.len()).with_tail(comma);
        out.push_str(&prefix);
        out.push_str(&statement(&e.statement, entry_cx));
        if i != last {
            out.push(',');
        }
    }
    newline(&mut out, cx.indent);
    out.push('}');
    out
}

/// `COALESCE(` with one RECALL per line, then `)`.
fn coalesce(c: &Coalesce, cx: Ctx) -> String {
    let inner = cx.inner();
    let mut out = String::from("COALESCE(");
    let last = c.branches.len().saturating_sub(1);
    for (i, r) in c.branches.iter().enumerate() {
        newline(&mut out, inner);
        let comma = usize::from(i != last);
        out.push_str(&recall(r, Ctx::line(inner).with_tail(comma)));
        if i != last {
            out.push(',');
        }
    }
    newline(&mut out, cx.indent);
    out.push(')');
    out
}

/// `SET field = value …` and `REASON "…"`.
fn evolve_clauses(sets: &[SetClause], reason: Option<&StringLit>) -> Vec<String> {
    let mut out: Vec<String> = sets.iter().map(|s| format!("SET {} = {}", s.field.name, value(&s.value))).collect();
    if let Some(r) = reason {
        out.push(format!("REASON {}", quoted(&r.value)));
    }
    out
}

/// `DEFINE TEMPLATE name`, then `EXTENDS parent` and each section on its own line.
pub(crate) fn define_template(d: &DefineTemplate, cx: Ctx) -> String {
    let inner = cx.inner();
    let mut out = format!("DEFINE TEMPLATE {}", d.name.name);
    if let Some(parent) = &d.extends {
        newline(&mut out, inner);
        out.push_str("EXTENDS ");
        out.push_str(&parent.name);
    }
    for s in &d.body.sections {
        newline(&mut out, inner);
        out.push_str(&section(s));
    }
    out
}
