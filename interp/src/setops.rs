//! UNION / INTERSECT / EXCEPT (§8.11): each operand runs on its own (one
//! store operation per RECALL operand, §13), then the results are merged by
//! content address. UNION keeps the highest score and INTERSECT the lowest,
//! both ordered by merged score then address (§17.4); EXCEPT keeps the left
//! operand's grains and order.

use std::collections::HashMap;

use cal_grammar::{Code, Diagnostic};
use cal_parser::ast::{SetOp, SetOperator, Statement};
use cal_planner::Node;
use oms::ContentAddress;

use crate::context::{Ctx, Row, bug};
use crate::outcome::Grains;
use crate::recall::{self, stages::Flow, stages::Shaping};

/// What an operand yields.
#[derive(Debug)]
pub enum Coll {
    /// Grains.
    Rows(Vec<Row>),
    /// Extracted values.
    Values(Vec<String>),
}

fn operand(cx: &mut Ctx<'_>, s: &Statement, node: &Node) -> Result<Coll, Diagnostic> {
    match (s, node) {
        (Statement::Recall(_), Node::Recall(p)) => match recall::run(cx, p, 0)?.flow {
            Flow::Rows(rows) => Ok(Coll::Rows(rows)),
            Flow::Values(_, vs) => Ok(Coll::Values(vs)),
            Flow::Count(_) | Flow::Groups(..) => Err(Diagnostic::new(
                Code::E021,
                s.span(),
                "A set operand must return grains or extracted values, not a count or groups.",
            )
            .with_suggestion("Move COUNT or GROUP BY out of the operand.")),
        },
        (Statement::SetOp(op), _) => merged(cx, op, node),
        (Statement::Recall(_), _) => Err(bug(s.span(), "plan does not match a set operand")),
        _ => Err(Diagnostic::new(
            Code::E021,
            s.span(),
            format!("{} cannot be a set operand.", s.kind_name().to_uppercase()),
        )
        .with_suggestion("Set operations combine RECALL statements: (RECALL …) UNION (RECALL …).")),
    }
}

fn by_score(rows: &mut [Row]) {
    rows.sort_by(|a, b| {
        b.hit
            .score
            .partial_cmp(&a.hit.score)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then_with(|| a.hit.address.cmp(&b.hit.address))
    });
}

fn merge_rows(op: SetOperator, left: Vec<Row>, right: Vec<Row>) -> Vec<Row> {
    let right_scores: HashMap<ContentAddress, f64> = right.iter().map(|r| (r.hit.address, r.hit.score)).collect();
    match op {
        SetOperator::Union => {
            let mut out: Vec<Row> = Vec::with_capacity(left.len() + right.len());
            let mut at: HashMap<ContentAddress, usize> = HashMap::new();
            for r in left.into_iter().chain(right) {
                match at.get(&r.hit.address) {
                    Some(&i) => {
                        if r.hit.score > out[i].hit.score {
                            out[i].hit.score = r.hit.score;
                        }
                    }
                    None => {
                        at.insert(r.hit.address, out.len());
                        out.push(r);
                    }
                }
            }
            by_score(&mut out);
            out
        }
        SetOperator::Intersect => {
            let mut seen = std::collections::HashSet::new();
            let mut out: Vec<Row> = left
                .into_iter()
                .filter(|r| seen.insert(r.hit.address))
                .filter_map(|mut r| {
                    let s = *right_scores.get(&r.hit.address)?;
                    r.hit.score = r.hit.score.min(s);
                    Some(r)
                })
                .collect();
            by_score(&mut out);
            out
        }
        SetOperator::Except => left.into_iter().filter(|r| !right_scores.contains_key(&r.hit.address)).collect(),
    }
}

/// Merges extracted values in order, each once; linear (a set of what is already out, and
/// of the right operand): a store's subjects can be thousands on each side (issue 19).
fn merge_values(op: SetOperator, left: Vec<String>, right: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    let right_set: std::collections::HashSet<&String> = right.iter().collect();
    let wanted: Vec<String> = match op {
        SetOperator::Union => left.iter().chain(right.iter()).cloned().collect(),
        SetOperator::Intersect => left.into_iter().filter(|v| right_set.contains(v)).collect(),
        SetOperator::Except => left.into_iter().filter(|v| !right_set.contains(v)).collect(),
    };
    for v in wanted {
        if seen.insert(v.clone()) {
            out.push(v);
        }
    }
    out
}

/// Runs a set operation and merges its operands.
pub fn merged(cx: &mut Ctx<'_>, op: &SetOp, node: &Node) -> Result<Coll, Diagnostic> {
    let Node::SetOp { left: ln, right: rn, .. } = node else {
        return Err(bug(op.span, "plan does not match a set operation"));
    };
    let left = operand(cx, &op.left, ln)?;
    cx.deadline.check()?;
    let right = operand(cx, &op.right, rn)?;
    match (left, right) {
        (Coll::Rows(l), Coll::Rows(r)) => Ok(Coll::Rows(merge_rows(op.op, l, r))),
        (Coll::Values(l), Coll::Values(r)) => Ok(Coll::Values(merge_values(op.op, l, r))),
        _ => Err(Diagnostic::new(Code::E021, op.op_span, "One operand returns grains and the other extracted values.")
            .with_suggestion("Give both operands the same extractor, or none.")),
    }
}

/// The response members of a set operation.
pub fn body(cx: &mut Ctx<'_>, op: &SetOp, node: &Node) -> Result<Grains, Diagnostic> {
    Ok(match merged(cx, op, node)? {
        Coll::Rows(rows) => {
            Grains { results: recall::entries(cx, &rows, &Shaping::default()), total: rows.len(), ..Grains::default() }
        }
        Coll::Values(vs) => Grains { total: vs.len(), values: Some(vs), ..Grains::default() },
    })
}
