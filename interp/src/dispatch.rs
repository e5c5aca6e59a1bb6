//! Statement dispatch: the exhaustive match over the twelve statements
//! (§2.3), and the two statements made of whole statements, BATCH (§8.7, one
//! result slot per entry) and COALESCE (§8.13, left to right with
//! short-circuit). No arm can reach a write: the facade has none.

use cal_grammar::{Code, Diagnostic};
use cal_parser::ast::{Batch, Statement};
use cal_planner::{Node, RecallPlan};

use crate::compose::fatal;
use crate::context::{Ctx, bug};
use crate::errors::diagnostic_json;
use crate::outcome::{BatchOutcome, Grains, Labelled, Outcome, PlanOutcome, Slot, SlotBody};
use crate::recall::{self, stages::Flow};
use crate::{compose, describe, history, setops};

/// CAL-E044 (§2.4): Tier 1 statements are parsed and explainable, never executed here.
pub fn tier1_refused(cx: &Ctx<'_>, s: &Statement) -> Diagnostic {
    let what = s.kind_name().to_uppercase();
    if cx.config.tier1_enabled {
        return Diagnostic::new(
            Code::E044,
            s.span(),
            format!(
                "{what} is a Tier 1 statement: it runs in two phases, prepare then execute (§18.2), never directly; nothing was written."
            ),
        )
        .with_suggestion(
            "Prepare it (`cal prepare --store DB --token T '…'`, or POST /memories/{id}/cal/prepare), review the preview, then execute the prepared token (`cal execute --store DB PREPARED.json`, or POST …/cal/execute).",
        );
    }
    Diagnostic::new(
        Code::E044,
        s.span(),
        format!("{what} is a Tier 1 statement and Tier 1 is not enabled here; nothing was written."),
    )
    .with_suggestion(format!(
        "Preview it with `EXPLAIN {what} …` (a dry run); to write, present a Tier 1 capability token and use prepare/execute."
    ))
}

/// Runs one statement with its plan node. Exhaustive over the twelve statements (§2.3).
pub fn run_statement(cx: &mut Ctx<'_>, s: &Statement, node: &Node) -> Result<Outcome, Diagnostic> {
    cx.deadline.check()?;
    match s {
        Statement::Recall(_) => match node {
            Node::Recall(p) => recall::body(cx, p, true).map(Outcome::Grains),
            _ => Err(bug(s.span(), "plan does not match a RECALL")),
        },
        Statement::Assemble(ast) => match node {
            Node::Assemble(p) => compose::assemble(cx, p, ast).map(Outcome::Assembly),
            _ => Err(bug(s.span(), "plan does not match an ASSEMBLE")),
        },
        Statement::SetOp(op) => setops::body(cx, op, node).map(Outcome::Grains),
        Statement::Exists(e) => history::exists(cx, e).map(Outcome::Existence),
        Statement::History(h) => history::history(cx, h).map(Outcome::Versions),
        Statement::Explain(_) => match node {
            Node::Explain(p) => Ok(Outcome::Plan(PlanOutcome { plan: p.to_json() })),
            _ => Err(bug(s.span(), "plan does not match an EXPLAIN")),
        },
        Statement::Describe(d) => describe::describe(cx, d).map(Outcome::Description),
        Statement::Batch(b) => batch(cx, b, node).map(Outcome::Batch),
        Statement::Coalesce(_) => match node {
            Node::Coalesce(branches) => coalesce(cx, branches).map(Outcome::Grains),
            _ => Err(bug(s.span(), "plan does not match a COALESCE")),
        },
        Statement::Add(_) | Statement::Supersede(_) | Statement::Revert(_) => Err(tier1_refused(cx, s)),
    }
}

/// BATCH: each entry runs on its own; an entry's failure fills its slot only.
pub fn batch(cx: &mut Ctx<'_>, b: &Batch, node: &Node) -> Result<BatchOutcome, Diagnostic> {
    let Node::Batch(nodes) = node else { return Err(bug(b.span, "plan does not match a BATCH")) };
    let mut slots = Vec::new();
    for (entry, (_, n)) in b.entries.iter().zip(nodes) {
        let body = match run_statement(cx, &entry.statement, n) {
            Ok(o) => SlotBody::Done(Box::new(o)),
            Err(d) if fatal(&d) => return Err(d),
            Err(d) => SlotBody::Failed { error: diagnostic_json(&d) },
        };
        let slot = Slot { statement_type: entry.statement.kind_name(), body };
        match slots.iter_mut().find(|(l, _): &&mut (String, Slot)| *l == entry.label.name.as_str()) {
            Some(existing) => existing.1 = slot,
            None => slots.push((entry.label.name.to_string(), slot)),
        }
    }
    Ok(BatchOutcome { results: Labelled(slots), total: b.entries.len() })
}

fn non_empty(flow: &Flow) -> bool {
    match flow {
        Flow::Rows(r) => !r.is_empty(),
        Flow::Values(_, v) => !v.is_empty(),
        Flow::Groups(_, g) => !g.is_empty(),
        Flow::Count(n) => *n > 0,
    }
}

/// COALESCE: the first branch with at least one grain wins; later branches do not run.
pub fn coalesce(cx: &mut Ctx<'_>, branches: &[RecallPlan]) -> Result<Grains, Diagnostic> {
    for (i, b) in branches.iter().enumerate() {
        let out = recall::run(cx, b, 0)?;
        if non_empty(&out.flow) {
            let g = recall::outcome(cx, out, 0, false);
            return Ok(Grains { branch: Some(Some(i + 1)), branches_run: Some(i + 1), ..g });
        }
    }
    Ok(Grains { branch: Some(None), branches_run: Some(branches.len()), ..Grains::default() })
}
