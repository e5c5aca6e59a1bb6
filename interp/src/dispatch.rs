//! Statement dispatch: the exhaustive match over the twelve statements
//! (§2.3), and the two statements made of whole statements, BATCH (§8.7, one
//! result slot per entry) and COALESCE (§8.13, left to right with
//! short-circuit). No arm can reach a write: the facade has none.

use cal_grammar::{Code, Diagnostic};
use cal_parser::ast::{Batch, Statement};
use cal_planner::{Node, RecallPlan};
use serde_json::{Map, Value as Json, json};

use crate::compose::fatal;
use crate::context::{Ctx, bug};
use crate::errors::diagnostic_json;
use crate::recall::{self, stages::Flow};
use crate::{compose, describe, history, setops};

/// CAL-E044 (§2.4): Tier 1 statements are parsed and explainable, never executed here.
pub fn tier1_refused(cx: &Ctx<'_>, s: &Statement) -> Diagnostic {
    let what = s.kind_name().to_uppercase();
    let message = if cx.config.tier1_enabled {
        format!("{what} is a Tier 1 statement, and this interpreter executes Tier 0 only; nothing was written.")
    } else {
        format!("{what} is a Tier 1 statement and Tier 1 is not enabled; nothing was written.")
    };
    Diagnostic::new(Code::E044, s.span(), message)
        .with_suggestion(format!("Preview it with `EXPLAIN {what} …` (a dry run that names its side effects)."))
}

/// Runs one statement with its plan node. Exhaustive over the twelve statements (§2.3).
pub fn run_statement(cx: &mut Ctx<'_>, s: &Statement, node: &Node) -> Result<Map<String, Json>, Diagnostic> {
    cx.deadline.check()?;
    match s {
        Statement::Recall(_) => match node {
            Node::Recall(p) => recall::body(cx, p, true),
            _ => Err(bug(s.span(), "plan does not match a RECALL")),
        },
        Statement::Assemble(ast) => match node {
            Node::Assemble(p) => compose::assemble(cx, p, ast),
            _ => Err(bug(s.span(), "plan does not match an ASSEMBLE")),
        },
        Statement::SetOp(op) => setops::body(cx, op, node),
        Statement::Exists(e) => history::exists(cx, e),
        Statement::History(h) => history::history(cx, h),
        Statement::Explain(_) => match node {
            Node::Explain(p) => {
                let mut body = Map::new();
                body.insert("plan".into(), p.to_json());
                Ok(body)
            }
            _ => Err(bug(s.span(), "plan does not match an EXPLAIN")),
        },
        Statement::Describe(d) => describe::describe(cx, d),
        Statement::Batch(b) => batch(cx, b, node),
        Statement::Coalesce(_) => match node {
            Node::Coalesce(branches) => coalesce(cx, branches),
            _ => Err(bug(s.span(), "plan does not match a COALESCE")),
        },
        Statement::Add(_) | Statement::Supersede(_) | Statement::Revert(_) => Err(tier1_refused(cx, s)),
    }
}

/// BATCH: each entry runs on its own; an entry's failure fills its slot only.
pub fn batch(cx: &mut Ctx<'_>, b: &Batch, node: &Node) -> Result<Map<String, Json>, Diagnostic> {
    let Node::Batch(nodes) = node else { return Err(bug(b.span, "plan does not match a BATCH")) };
    let mut slots = Map::new();
    for (entry, (_, n)) in b.entries.iter().zip(nodes) {
        let mut slot = Map::new();
        slot.insert("statement_type".into(), entry.statement.kind_name().into());
        match run_statement(cx, &entry.statement, n) {
            Ok(body) => slot.extend(body),
            Err(d) if fatal(&d) => return Err(d),
            Err(d) => {
                slot.insert("error".into(), diagnostic_json(&d));
            }
        }
        slots.insert(entry.label.name.to_string(), Json::Object(slot));
    }
    let mut m = Map::new();
    m.insert("results".into(), Json::Object(slots));
    m.insert("total".into(), b.entries.len().into());
    Ok(m)
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
pub fn coalesce(cx: &mut Ctx<'_>, branches: &[RecallPlan]) -> Result<Map<String, Json>, Diagnostic> {
    for (i, b) in branches.iter().enumerate() {
        let out = recall::run(cx, b, 0)?;
        if non_empty(&out.flow) {
            let mut m = recall::out_json(cx, out, 0, false);
            m.insert("branch".into(), (i + 1).into());
            m.insert("branches_run".into(), (i + 1).into());
            return Ok(m);
        }
    }
    let mut m = Map::new();
    m.insert("results".into(), json!([]));
    m.insert("total".into(), 0.into());
    m.insert("next_cursor".into(), Json::Null);
    m.insert("branch".into(), Json::Null);
    m.insert("branches_run".into(), branches.len().into());
    Ok(m)
}
