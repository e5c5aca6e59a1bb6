//! The checkpoints a streamed ASSEMBLE passes through, called by `compose::assemble` at each
//! phase boundary. Without a stream attached every hook is a no-op (the chunker does not even
//! run), apart from the runtime check of the STREAM options.

use std::collections::HashSet;

use cal_grammar::FormatName;
use cal_parser::ast::{Assemble, FormatKind, WithKind};
use cal_planner::AssemblePlan;
use cal_render::chunk::{self, Chunk, ElementRef, Layout};
use cal_render::{AssembleRequest, Budget, BudgetUnit, Output, SourceInput, SourceReport};
use serde_json::{Map, Value as Json, json};
use sha2::{Digest, Sha256};

use crate::content::{self, ASSEMBLE_DEFAULT_FORMAT};
use crate::context::{Ctx, Resolved};
use crate::outcome::{Assembly, SourceBody, SourceOutcome};
use crate::projection;
use crate::stream::events::{BudgetInfo, EventBody, SourceAllocation, SourceDedup, StreamInfo, Summary, TierInfo};
use crate::stream::{Emitter, StreamOptions};

/// `asm_` and the first eight hex digits of SHA-256 over the query hash, the clock and the user:
/// the same request gives the same id (§17.4), different requests practically never share one.
pub(crate) fn assembly_id(query_hash: &str, now_ms: i64, user: Option<&str>) -> String {
    let mut h = Sha256::new();
    h.update(query_hash.as_bytes());
    h.update(now_ms.to_be_bytes());
    h.update(user.unwrap_or_default().as_bytes());
    let hex = oms::address::hex(&h.finalize());
    format!("asm_{}", hex.get(..8).unwrap_or(&hex))
}

fn budget_info(a: &AssemblePlan) -> BudgetInfo {
    BudgetInfo { amount: a.budget.0, unit: a.budget.1.as_str().to_string() }
}

fn rank(a: &AssemblePlan, label: &str) -> usize {
    a.priority.iter().position(|l| l == label).map_or(0, |p| p + 1)
}

/// The format an ASSEMBLE asks for: its FORMAT resolved (`markdown` without one), or
/// `template` (Auto-TOON may still switch an unformatted ASSEMBLE to TOON).
fn requested_format(ast: &Assemble) -> String {
    match ast.format.as_ref().map(|f| &f.kind) {
        None => ASSEMBLE_DEFAULT_FORMAT.as_str().to_string(),
        Some(FormatKind::Named(f)) => f.resolve().as_str().to_string(),
        Some(FormatKind::Inline(_) | FormatKind::Template(_)) => "template".to_string(),
    }
}

/// The start of an ASSEMBLE: checks the STREAM options (CAL-E078 at run time as at check
/// time) and delivers `assembly_started`. Without a stream, a STREAM clause is noted: the
/// response is the complete result, events need a streaming transport.
pub(crate) fn begin(cx: &mut Ctx<'_>, a: &AssemblePlan, ast: &Assemble) -> Result<(), cal_grammar::Diagnostic> {
    let options = StreamOptions::from_clause(ast.stream.as_ref())?;
    let Some(em) = cx.stream.as_mut() else {
        if ast.stream.is_some() {
            cx.stats.note("STREAM: this response is the complete result; the events are delivered by a streaming transport (cal run --stream, Interpreter::execute_stream)");
        }
        return Ok(());
    };
    let format = requested_format(ast);
    let stream = StreamInfo { events: options.groups(), chunk_size: options.chunk_size };
    em.options = options;
    em.phase = "init";
    em.emit(EventBody::AssemblyStarted {
        name: a.name.clone(),
        intent: a.intent.clone(),
        budget: budget_info(a),
        sources: a.priority.clone(),
        format,
        stream,
    });
    Ok(())
}

/// A checkpoint: true when the stream was cancelled (never without a stream).
pub(crate) fn stop(cx: &mut Ctx<'_>) -> bool {
    cx.stream.as_mut().is_some_and(Emitter::stop)
}

/// `source_started`.
pub(crate) fn source_started(cx: &mut Ctx<'_>, a: &AssemblePlan, label: &str) {
    if let Some(em) = cx.stream.as_mut() {
        em.phase = "source_resolution";
        em.emit(EventBody::SourceStarted { source: label.to_string(), priority: rank(a, label) });
    }
}

/// `source_completed`, with the per-source estimate of §11.4.
pub(crate) fn source_completed(cx: &mut Ctx<'_>, a: &AssemblePlan, label: &str, outcome: &Resolved) {
    let Some(em) = cx.stream.as_mut() else { return };
    let (status, grains, total, tokens_estimate, error) = match outcome {
        Resolved::Rows(rows, total) => {
            ("ok", rows.len(), *total, rows.iter().map(|r| projection::tokens(&r.hit)).sum(), None)
        }
        Resolved::Values(v) => ("ok", v.len(), v.len(), 0, None),
        Resolved::Failed(d) => {
            em.sources_failed += 1;
            ("failed", 0, 0, 0, Some(crate::envelope::diagnostic_json(d)))
        }
    };
    em.emit(EventBody::SourceCompleted {
        source: label.to_string(),
        priority: rank(a, label),
        status: status.to_string(),
        grains,
        total,
        tokens_estimate,
        error,
    });
}

/// Grains per resolved source (before dedup, for `dedup_completed`).
pub(crate) fn counts(resolved: &[(String, Resolved)]) -> Vec<usize> {
    resolved.iter().map(|(_, r)| if let Resolved::Rows(rows, _) = r { rows.len() } else { 0 }).collect()
}

/// `dedup_completed`: what `WITH dedup(field)` removed from each source.
pub(crate) fn dedup_completed(cx: &mut Ctx<'_>, a: &AssemblePlan, before: &[usize], resolved: &[(String, Resolved)]) {
    let Some(em) = cx.stream.as_mut() else { return };
    if em.stop() {
        return;
    }
    em.phase = "deduplication";
    let after = counts(resolved);
    let mut sources: Vec<SourceDedup> = resolved
        .iter()
        .zip(before.iter().zip(&after))
        .map(|((label, _), (b, k))| SourceDedup { source: label.clone(), removed: b - k.min(b), kept: *k })
        .collect();
    sources.sort_by_key(|s| rank(a, &s.source));
    let removed = sources.iter().map(|s| s.removed).sum();
    em.emit(EventBody::DedupCompleted { field: a.dedup.clone(), removed, sources });
}

/// The formatted_context of an assembly cancelled before formatting: no text.
pub(crate) fn unformatted(ast: &Assemble) -> (Map<String, Json>, Vec<SourceReport>) {
    let format = requested_format(ast);
    let mut f = Map::new();
    f.insert("text".into(), "".into());
    f.insert("format".into(), format.into());
    f.insert("tokens".into(), 0.into());
    (f, Vec::new())
}

fn budget_of(a: &AssemblePlan) -> Budget {
    let amount = usize::try_from(a.budget.0).unwrap_or(usize::MAX);
    match a.budget.1 {
        cal_grammar::BudgetUnit::Tokens => Budget::new(amount, BudgetUnit::Tokens),
        cal_grammar::BudgetUnit::Grains => Budget::new(amount, BudgetUnit::Grains),
    }
}

/// The projection the ASSEMBLE's text was rendered with (as `compose::render_assembly` builds it).
fn projection_of(cx: &Ctx<'_>, a: &AssemblePlan, ast: &Assemble) -> cal_render::ProjectionOptions {
    let budget = budget_of(a);
    let budget_tokens = match budget.unit {
        BudgetUnit::Tokens => budget.amount,
        BudgetUnit::Grains => BudgetUnit::Tokens.default_amount(),
    };
    content::projection_options(cx, ast.with.as_ref(), budget_tokens, None, None)
}

/// How the disclosure level was chosen (§14.3).
fn chosen_by(ast: &Assemble) -> &'static str {
    let opts = ast.with.as_ref().map(|w| w.options.as_slice()).unwrap_or_default();
    match opts
        .iter()
        .find_map(|o| if let WithKind::ProgressiveDisclosure(l) = &o.kind { Some(l.is_some()) } else { None })
    {
        Some(true) => "with",
        Some(false) => "budget",
        None => "default",
    }
}

/// The figures of `formatted_context.tiers` (bare `progressive_disclosure`) for
/// `disclosure_decided`, in order; none without tiers. Their texts are not streamed: the chunks
/// deliver the tier shown, and the response carries all three (docs/streaming.md).
fn tier_infos(formatted: &Map<String, Json>) -> Vec<TierInfo> {
    let Some(Json::Object(tiers)) = formatted.get("tiers") else { return Vec::new() };
    let num = |t: &Json, k: &str| t.get(k).and_then(Json::as_u64).unwrap_or(0) as usize;
    tiers
        .iter()
        .map(|(name, t)| TierInfo {
            tier: name.clone(),
            level: t.get("level").and_then(Json::as_str).unwrap_or_default().to_string(),
            tokens: num(t, "tokens"),
            grains: num(t, "grains"),
        })
        .collect()
}

/// The grains each rendered source contributed to the text, in the order of `reports`.
fn included(resolved: &[(String, Resolved)], reports: &[SourceReport]) -> Vec<SourceInput> {
    reports
        .iter()
        .map(|rep| {
            let rows = resolved.iter().find_map(|(l, r)| match r {
                Resolved::Rows(rows, _) if *l == rep.label => Some(rows.as_slice()),
                _ => None,
            });
            let rows = rows.unwrap_or_default();
            SourceInput {
                label: rep.label.clone(),
                grains: rows[..rep.grains.min(rows.len())].iter().map(content::grain_input).collect(),
            }
        })
        .collect()
}

/// Phases 3–5 as events: `budget_allocated`, `disclosure_decided`, then the chunks of the
/// formatted text, with a cancellation checkpoint before each. A stream cancelled after `k`
/// chunks turns `formatted` and `reports` into the partial result ([`partial`]).
pub(crate) fn deliver(
    cx: &mut Ctx<'_>,
    a: &AssemblePlan,
    ast: &Assemble,
    resolved: &[(String, Resolved)],
    formatted: &mut Map<String, Json>,
    reports: &mut [SourceReport],
) {
    if cx.stream.is_none() {
        return;
    }
    let projection = projection_of(cx, a, ast);
    let sources = included(resolved, reports);
    let text = formatted.get("text").and_then(Json::as_str).unwrap_or_default().to_string();
    let format = formatted.get("format").and_then(Json::as_str).and_then(FormatName::from_word);
    let Some(em) = cx.stream.as_mut() else { return };
    let allocations = a
        .priority
        .iter()
        .map(|label| {
            let r = resolved.iter().find(|(l, _)| l == label).map(|(_, r)| r);
            let rep = reports.iter().find(|x| x.label == *label);
            let p = rank(a, label);
            SourceAllocation {
                source: label.clone(),
                priority: p,
                weight: a.weights.get(p.saturating_sub(1)).copied(),
                allocated: rep.map_or(0, |x| x.allocated),
                candidates: match r {
                    Some(Resolved::Rows(rows, _)) => rows.len(),
                    Some(Resolved::Values(v)) => v.len(),
                    _ => 0,
                },
                grains: rep.map_or(0, |x| x.grains),
                tokens_used: rep.map_or(0, |x| x.tokens_used),
                truncated: rep.is_some_and(|x| x.truncated),
                failed: matches!(r, Some(Resolved::Failed(_))),
            }
        })
        .collect();
    em.phase = "budget_allocation";
    em.emit(EventBody::BudgetAllocated { budget: budget_info(a), sources: allocations });
    em.phase = "progressive_disclosure";
    em.disclosure = projection.disclosure.as_str().to_string();
    em.emit(EventBody::DisclosureDecided {
        level: projection.disclosure.as_str().to_string(),
        chosen_by: chosen_by(ast).to_string(),
        tiers: tier_infos(formatted),
    });
    let layout = Layout { format, sources: &sources, projection: &projection };
    let chunking = chunk::chunk(&text, &layout, em.options.chunk_size);
    let chunks = chunking.chunks;
    em.chunks_total = chunks.len();
    em.phase = "formatting";
    let budget = a.budget.0;
    let by_grains = a.budget.1 == cal_grammar::BudgetUnit::Grains;
    let (mut tokens_emitted, mut grains_emitted) = (0usize, 0usize);
    for (i, c) in chunks.iter().enumerate() {
        if em.stop() {
            let delivered = &chunks[..i];
            partial(a, format, &projection, &sources, delivered, formatted, reports);
            return;
        }
        tokens_emitted += c.tokens;
        grains_emitted += c.elements.len();
        let used = if by_grains { grains_emitted } else { tokens_emitted };
        let mut labels: Vec<String> = Vec::new();
        for e in &c.elements {
            if let Some(s) = sources.get(e.source)
                && !labels.contains(&s.label)
            {
                labels.push(s.label.clone());
            }
        }
        em.emit(EventBody::Chunk {
            chunk_index: i,
            content: c.text.clone(),
            tokens: c.tokens,
            tokens_emitted,
            budget_remaining: budget.saturating_sub(used as u64),
            elements: c.elements.len(),
            sources: labels,
            last: i + 1 == chunks.len(),
        });
        em.chunks_delivered = i + 1;
        em.tokens_delivered = tokens_emitted;
    }
    // Everything was delivered: a cancellation arriving now has nothing left to stop (§11.5
    // "best-effort"), and the assembly completes.
    em.cancelled = None;
    if !chunking.by_element && format.is_some() {
        cx.stats.note("STREAM: element boundaries were not found in the formatted text; chunks end at line ends");
    }
}

/// The partial result of a stream cancelled after the chunks `delivered`: per source, the
/// longest run of leading elements all delivered (TOON may deliver a later row of another
/// type first), rendered as a well-formed document of the format — or, for template output,
/// the delivered text itself. No chunk delivered: no text.
fn partial(
    a: &AssemblePlan,
    format: Option<FormatName>,
    projection: &cal_render::ProjectionOptions,
    sources: &[SourceInput],
    delivered: &[Chunk],
    formatted: &mut Map<String, Json>,
    reports: &mut [SourceReport],
) {
    let got: HashSet<ElementRef> = delivered.iter().flat_map(|c| c.elements.iter().copied()).collect();
    let kept: Vec<SourceInput> = sources
        .iter()
        .enumerate()
        .map(|(si, s)| {
            let k = (0..s.grains.len()).take_while(|&index| got.contains(&ElementRef { source: si, index })).count();
            SourceInput { label: s.label.clone(), grains: s.grains[..k].to_vec() }
        })
        .collect();
    let (text, tokens) = match (delivered.is_empty(), format) {
        (true, _) => (String::new(), 0),
        (false, Some(f)) => {
            let req = AssembleRequest {
                name: a.name.clone().unwrap_or_else(|| "context".to_string()),
                intent: a.intent.clone(),
                sources: kept.clone(),
                budget: budget_of(a),
                output: Output::Format(f),
                projection: projection.clone(),
            };
            chunk::render_selection(&req).unwrap_or_default()
        }
        (false, None) => {
            let t: String = delivered.iter().map(|c| c.text.as_str()).collect();
            let n = cal_render::tokens::count(&t);
            (t, n)
        }
    };
    formatted.insert("text".into(), text.into());
    formatted.insert("tokens".into(), tokens.into());
    formatted.insert("partial".into(), true.into());
    // The tiers were never delivered: the partial result is what the chunks carried.
    formatted.remove("tier");
    formatted.remove("tiers");
    for rep in reports.iter_mut() {
        let Some(k) = kept.iter().find(|s| s.label == rep.label) else { continue };
        let n = k.grains.len();
        rep.truncated = rep.truncated || n < rep.grains;
        rep.grains = n;
        rep.tokens_used = if n == 0 {
            0
        } else {
            cal_render::render_recall(&k.grains, format.unwrap_or(FormatName::Sml), projection).1
        };
    }
}

/// The end of an ASSEMBLE: `assembly_completed` with the final figures, or — when cancelled —
/// the response's `cancelled` member, the sources that never ran, and the `cancelled` event.
pub(crate) fn finish(cx: &mut Ctx<'_>, a: &AssemblePlan, out: &mut Assembly) {
    let Some(em) = cx.stream.as_mut() else { return };
    let formatted = &out.formatted_context;
    let tokens_used = formatted.get("tokens").and_then(Json::as_u64).unwrap_or(0) as usize;
    if let Some(reason) = em.cancelled.clone() {
        out.cancelled = Some(json!({ "code": "CAL-E082", "reason": reason, "phase": em.phase,
                    "chunks_delivered": em.chunks_delivered, "tokens_delivered": em.tokens_delivered }));
        let ran: Vec<String> = out.sources.iter().map(|s| s.label.clone()).collect();
        for (label, _) in a.sources.iter().filter(|(l, _)| !ran.contains(l)) {
            let p = rank(a, label);
            out.sources.push(SourceOutcome {
                label: label.clone(),
                priority: p,
                weight: a.weights.get(p.saturating_sub(1)).copied(),
                body: SourceBody::NotRun { status: "not_run" },
                allocated: 0,
                tokens_used: 0,
                truncated: false,
            });
        }
        let (phase, chunks_delivered, tokens_delivered) =
            (em.phase.to_string(), em.chunks_delivered, em.tokens_delivered);
        em.emit(EventBody::Cancelled {
            code: cal_grammar::Code::E082.as_str().to_string(),
            reason,
            phase,
            chunks_delivered,
            tokens_delivered,
        });
        return;
    }
    let grains: usize = out
        .sources
        .iter()
        .map(|s| match &s.body {
            SourceBody::Rows { results, .. } => results.len(),
            _ => 0,
        })
        .sum();
    let used = if a.budget.1 == cal_grammar::BudgetUnit::Grains { grains } else { tokens_used };
    let utilization =
        if a.budget.0 == 0 { 0.0 } else { (used as f64 / a.budget.0 as f64 * 10_000.0).round() / 10_000.0 };
    em.phase = "done";
    let summary = Summary {
        tokens_used,
        budget: budget_info(a),
        utilization,
        grains,
        sources: a.sources.len(),
        sources_failed: em.sources_failed,
        chunks: em.chunks_total,
        format: formatted.get("format").and_then(Json::as_str).unwrap_or_default().to_string(),
        disclosure: em.disclosure.clone(),
    };
    em.emit(EventBody::AssemblyCompleted { summary });
}
