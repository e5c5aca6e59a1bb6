//! Statements made of other statements: BATCH (§8.7, one result slot per
//! entry), COALESCE (§8.13, left to right with short-circuit) and ASSEMBLE
//! (§8.2: for now its sources are resolved, deduplicated across sources by
//! priority, and returned as JSON; budgets and formatting come later).

use std::collections::HashSet;

use cal_grammar::{Code, Diagnostic};
use cal_parser::ast::Batch;
use cal_planner::{AssemblePlan, Node, RecallPlan, SourcePlan};
use serde_json::{Map, Value as Json, json};

use crate::engine::{Bound, Ctx, Row, bug, run_statement};
use crate::envelope::diagnostic_json;
use crate::fields;
use crate::recall::{self, stages::Flow, stages::Shaping};

/// Whether an error stops the whole request rather than one slot (timeouts do).
fn fatal(d: &Diagnostic) -> bool {
    matches!(d.code, Code::E031 | Code::E075)
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
        slots.insert(entry.label.name.clone(), Json::Object(slot));
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

enum Resolved {
    Rows(Vec<Row>, usize),
    Values(Vec<String>),
    Failed(Diagnostic),
}

/// ASSEMBLE, phases 1–2 of §8.2: resolve every source, then `dedup(field)`
/// keeping the copy from the highest-priority source.
pub fn assemble(cx: &mut Ctx<'_>, a: &AssemblePlan) -> Result<Map<String, Json>, Diagnostic> {
    let mut resolved: Vec<(String, Resolved)> = Vec::new();
    for (label, s) in &a.sources {
        let r = match s {
            SourcePlan::Recall(p) => match recall::run(cx, p, 0) {
                Ok(out) => match out.flow {
                    Flow::Rows(rows) => Resolved::Rows(rows, out.total),
                    Flow::Values(_, vs) => Resolved::Values(vs),
                    Flow::Groups(_, gs) => Resolved::Rows(gs.into_iter().flat_map(|(_, r)| r).collect(), out.total),
                    Flow::Count(n) => Resolved::Values(vec![n.to_string()]),
                },
                Err(d) if fatal(&d) => return Err(d),
                Err(d) => Resolved::Failed(d),
            },
            SourcePlan::Let(name) => match cx.lets.get(name) {
                Some(Bound::Rows(rows)) => Resolved::Rows(rows.clone(), rows.len()),
                Some(Bound::Values(vs)) => Resolved::Values(vs.clone()),
                None => Resolved::Failed(bug(Default::default(), &format!("LET ${name} was not evaluated"))),
            },
        };
        resolved.push((label.clone(), r));
    }
    if !resolved.is_empty() && resolved.iter().all(|(_, r)| matches!(r, Resolved::Failed(_))) {
        return Err(Diagnostic::new(Code::E076, Default::default(), "Every ASSEMBLE source failed.")
            .with_suggestion("Run each source on its own with RECALL to see why."));
    }
    if let Some(field) = &a.dedup {
        let mut seen: HashSet<String> = HashSet::new();
        for label in &a.priority {
            if let Some((_, Resolved::Rows(rows, _))) = resolved.iter_mut().find(|(l, _)| l == label) {
                rows.retain(|r| {
                    fields::value(&r.hit, field).is_none_or(|v| seen.insert(oms::json::to_json(&v).to_string()))
                });
            }
        }
    }
    let mut sources = Vec::new();
    for (label, r) in resolved {
        let rank = a.priority.iter().position(|l| *l == label).map_or(0, |p| p + 1);
        let weight = a.weights.get(rank.saturating_sub(1)).copied();
        let mut s = Map::new();
        s.insert("label".into(), label.into());
        s.insert("priority".into(), rank.into());
        s.insert("weight".into(), weight.map_or(Json::Null, |w| json!(w)));
        match r {
            Resolved::Rows(rows, total) => {
                s.insert("results".into(), Json::Array(recall::rows_json(cx, &rows, &Shaping::default())));
                s.insert("total".into(), total.into());
            }
            Resolved::Values(vs) => {
                s.insert("values".into(), json!(vs));
                s.insert("total".into(), vs.len().into());
            }
            Resolved::Failed(d) => {
                s.insert("error".into(), diagnostic_json(&d));
            }
        }
        sources.push(Json::Object(s));
    }
    let mut m = Map::new();
    m.insert("name".into(), a.name.clone().map_or(Json::Null, Json::String));
    m.insert("intent".into(), a.intent.clone().map_or(Json::Null, Json::String));
    m.insert("budget".into(), json!({ "amount": a.budget.0, "unit": a.budget.1.as_str() }));
    m.insert("priority".into(), json!(a.priority));
    m.insert("sources".into(), Json::Array(sources));
    m.insert(
        "content".into(),
        Json::String(
            "not rendered: ASSEMBLE budget allocation and FORMAT come in a later version; sources are listed above"
                .into(),
        ),
    );
    Ok(m)
}
