//! ASSEMBLE (§8.2): sources resolved, deduplicated across sources by
//! priority, then budgeted, formatted and counted by cal-render (see
//! [`crate::content`]). BATCH and COALESCE, which run whole statements, are
//! in [`crate::dispatch`].

use std::collections::HashSet;

use cal_grammar::{Code, Diagnostic};
use cal_parser::ast::{Assemble, FormatKind};
use cal_planner::{AssemblePlan, SourcePlan};
use cal_render::{AssembleRequest, Budget, BudgetUnit, Output, SourceInput, SourceReport, Tier};
use serde_json::{Map, Value as Json};

use crate::assembly_stream as stream;
use crate::content::{self, ASSEMBLE_DEFAULT_FORMAT};
use crate::context::{Bound, Ctx, Resolved, Row, bug};
use crate::errors::diagnostic_json;
use crate::fields;
use crate::outcome::{Assembly, BudgetOutcome, SourceBody, SourceOutcome};
use crate::recall::{self, stages::Flow, stages::Shaping};

/// Whether an error stops the whole request rather than one slot (timeouts do).
pub(crate) fn fatal(d: &Diagnostic) -> bool {
    matches!(d.code, Code::E031 | Code::E075)
}

/// ASSEMBLE (§8.2): resolve every source, `dedup(field)` keeping the copy from the
/// highest-priority source, then budget, format and count ([`render_assembly`]).
pub fn assemble(cx: &mut Ctx<'_>, a: &AssemblePlan, ast: &Assemble) -> Result<Assembly, Diagnostic> {
    stream::begin(cx, a, ast)?;
    let mut resolved: Vec<(String, Resolved)> = Vec::new();
    for (label, s) in &a.sources {
        if stream::stop(cx) {
            break;
        }
        stream::source_started(cx, a, label);
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
        stream::source_completed(cx, a, label, &r);
        resolved.push((label.clone(), r));
    }
    let stopped = stream::stop(cx);
    if !stopped && !resolved.is_empty() && resolved.iter().all(|(_, r)| matches!(r, Resolved::Failed(_))) {
        return Err(Diagnostic::new(Code::E076, Default::default(), "Every ASSEMBLE source failed.")
            .with_suggestion("Run each source on its own with RECALL to see why."));
    }
    let before_dedup = stream::counts(&resolved);
    if let Some(field) = &a.dedup {
        dedup_across_sources(&mut resolved, &a.priority, field);
    }
    stream::dedup_completed(cx, a, &before_dedup, &resolved);
    let stopped = stopped || stream::stop(cx);
    let (mut formatted, mut reports) =
        if stopped { stream::unformatted(ast) } else { render_assembly(cx, a, ast, &resolved)? };
    if !stopped {
        stream::deliver(cx, a, ast, &resolved, &mut formatted, &mut reports);
    }
    let tokens_before = cx.stats.tokens;
    let mut sources = Vec::new();
    for (label, r) in resolved {
        let rank = a.priority.iter().position(|l| *l == label).map_or(0, |p| p + 1);
        let weight = a.weights.get(rank.saturating_sub(1)).copied();
        let report = reports.iter().find(|r| r.label == label);
        let body = match r {
            Resolved::Rows(rows, total) => {
                let included = report.map_or(0, |r| r.grains).min(rows.len());
                let results = recall::entries(cx, &rows[..included], &Shaping::default());
                SourceBody::Rows { results, total, candidates: rows.len() }
            }
            Resolved::Values(vs) => SourceBody::Values { total: vs.len(), values: vs },
            Resolved::Failed(d) => SourceBody::Failed { error: diagnostic_json(&d) },
        };
        sources.push(SourceOutcome {
            label,
            priority: rank,
            weight,
            body,
            allocated: report.map_or(0, |r| r.allocated),
            tokens_used: report.map_or(0, |r| r.tokens_used),
            truncated: report.is_some_and(|r| r.truncated),
        });
    }
    cx.stats.tokens = tokens_before + formatted.get("tokens").and_then(Json::as_u64).unwrap_or(0);
    let mut out = Assembly {
        name: a.name.clone(),
        intent: a.intent.clone(),
        budget: BudgetOutcome { amount: a.budget.0, unit: a.budget.1.as_str() },
        priority: a.priority.clone(),
        sources,
        formatted_context: formatted,
        cancelled: None,
    };
    stream::finish(cx, a, &mut out);
    Ok(out)
}

/// What makes two grains copies under `dedup(field)`: the same grain type and the same value of
/// the field. A grain without the field has no key and is never a copy.
fn dedup_key(row: &Row, field: &str) -> Option<(String, String)> {
    let value = fields::value(&row.hit, field)?;
    let kind = row.hit.grain().grain_type().name().unwrap_or_default().to_string();
    Some((kind, oms::json::to_json(&value).to_string()))
}

/// `WITH dedup(field)` (§8.2 phase 2, docs/spec-decisions-interp.md W7): in PRIORITY order, a
/// source loses the grains whose key ([`dedup_key`]) a higher-priority source already holds.
/// Deduplication is across sources only: grains of one source never remove each other (two
/// goals about alice in one source are two goals), and a grain lacking the field is kept.
fn dedup_across_sources(resolved: &mut [(String, Resolved)], priority: &[String], field: &str) {
    let mut held: HashSet<(String, String)> = HashSet::new();
    for label in priority {
        let Some((_, Resolved::Rows(rows, _))) = resolved.iter_mut().find(|(l, _)| l == label) else { continue };
        rows.retain(|r| dedup_key(r, field).is_none_or(|k| !held.contains(&k)));
        held.extend(rows.iter().filter_map(|r| dedup_key(r, field)));
    }
}

/// ASSEMBLE phases 3–5 (§8.2) by cal-render: the sources that returned grains, in PRIORITY
/// order, are allocated the budget, formatted (FORMAT, default markdown) and counted. Sources
/// that failed or returned values take no share, so their budget goes to the others.
/// Returns `formatted_context` (`text`, `format`, `tokens`; with bare `progressive_disclosure`
/// also `tier` and `tiers`, see [`content::tiers_json`]) and the per-source reports of the text.
fn render_assembly(
    cx: &mut Ctx<'_>,
    a: &AssemblePlan,
    ast: &Assemble,
    resolved: &[(String, Resolved)],
) -> Result<(Map<String, Json>, Vec<SourceReport>), Diagnostic> {
    let (output, format) = match ast.format.as_ref().map(|f| (&f.kind, f.span)) {
        None => (Output::Format(ASSEMBLE_DEFAULT_FORMAT), ASSEMBLE_DEFAULT_FORMAT.as_str().to_string()),
        Some((FormatKind::Named(f), _)) => (Output::Format(*f), f.resolve().as_str().to_string()),
        Some((FormatKind::Inline(body), _)) => {
            (Output::Template(crate::templates::inline(body)?), "template".to_string())
        }
        Some((FormatKind::Template(name), _)) => {
            (Output::Template(crate::templates::resolve(cx, name)?), "template".to_string())
        }
    };
    let amount = usize::try_from(a.budget.0).unwrap_or(usize::MAX);
    let budget = match a.budget.1 {
        cal_grammar::BudgetUnit::Tokens => Budget::new(amount, BudgetUnit::Tokens),
        cal_grammar::BudgetUnit::Grains => Budget::new(amount, BudgetUnit::Grains),
    };
    let budget_tokens = match budget.unit {
        BudgetUnit::Tokens => budget.amount,
        BudgetUnit::Grains => BudgetUnit::Tokens.default_amount(),
    };
    let projection = content::projection_options(cx, ast.with.as_ref(), budget_tokens, None, None);
    let sources: Vec<SourceInput> = a
        .priority
        .iter()
        .filter_map(|label| match resolved.iter().find(|(l, _)| l == label) {
            Some((_, Resolved::Rows(rows, _))) => {
                Some(SourceInput { label: label.clone(), grains: rows.iter().map(content::grain_input).collect() })
            }
            _ => None,
        })
        .collect();
    let mut req = AssembleRequest {
        name: a.name.clone().unwrap_or_else(|| "context".to_string()),
        intent: a.intent.clone(),
        sources,
        budget,
        output,
        projection,
    };
    let format = crate::auto_toon::select(cx, ast, &mut req).unwrap_or(format);
    // Bare `progressive_disclosure`: all three tiers (§8.2 phase 4); the text shown is the one
    // the budget picked (§14.3), the others go beside it.
    let (out, tiers) = if content::tiered(ast.with.as_ref()) {
        let tiers = cal_render::assemble_tiers(&req);
        let shown = Tier::of(req.projection.disclosure);
        let out = tiers.iter().find(|(t, _)| *t == shown).map(|(_, o)| o.clone());
        let out = out.ok_or_else(|| bug(Default::default(), "no tier for the chosen disclosure"))?;
        (out, Some((shown, content::tiers_json(&tiers))))
    } else {
        (cal_render::assemble(&req), None)
    };
    // Rendering stops short at the deadline (cal_render's deadline.rs): never show that text.
    cx.deadline.check()?;
    if budget.unit == BudgetUnit::Tokens && out.text.is_empty() {
        cx.stats.note(format!(
            "BUDGET {} tokens is smaller than the {format} output's empty envelope: the formatted text is empty",
            budget.amount
        ));
    }
    let mut f = Map::new();
    f.insert("text".into(), out.text.into());
    f.insert("format".into(), format.into());
    f.insert("tokens".into(), out.tokens.into());
    if let Some((shown, tiers)) = tiers {
        f.insert("tier".into(), shown.as_str().into());
        f.insert("tiers".into(), tiers);
    }
    Ok((f, out.sources))
}
