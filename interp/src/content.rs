//! The bridge to `cal-render`, CAL's content layer (§10, §14.2–14.4): turns
//! retrieved rows into [`GrainInput`]s and a query's WITH options and PROJECT
//! into [`ProjectionOptions`], then formats a RECALL (`AS fmt`, the response's
//! `formatted`, §10.9.8) or an ASSEMBLE (`FORMAT …`, the response's
//! `formatted_context`). Token counts are cal-render's exact o200k_base counts.

use cal_grammar::limits::DEFAULT_BUDGET_TOKENS;
use cal_grammar::{Diagnostic, FormatName, GrainType};
use cal_parser::ast::{ProjectSpec, WithClause, WithKind};
use cal_render::{Assembled, Disclosure, GrainInput, Project, ProjectionOptions, Tier};
use serde_json::{Map, Value as Json, json};

use crate::context::{Ctx, Row};

/// The format an ASSEMBLE without FORMAT renders in: markdown, "default for ASSEMBLE" (§10.1).
pub const ASSEMBLE_DEFAULT_FORMAT: FormatName = FormatName::Markdown;

/// A retrieved row as cal-render's input: its CAL view (`crate::fields`).
pub fn grain_input(row: &Row) -> GrainInput {
    crate::fields::grain_input(&row.hit)
}

/// `PROJECT content(…), attr(…)` as cal-render takes it (field names as written).
pub fn project_of(specs: &[ProjectSpec]) -> Project {
    let mut p = Project::default();
    for s in specs {
        let names = s.fields.iter().map(|f| f.name.to_string());
        if s.is_attr {
            p.attrs.extend(names);
        } else {
            p.content.extend(names);
        }
    }
    p
}

/// Projection options from WITH: `progressive_disclosure(level)` picks the level,
/// `progressive_disclosure` alone lets the budget (and LIMIT) pick it (§14.3; for an ASSEMBLE,
/// the tier shown first, the others beside it: [`tiered`]), no option means standard; `iso_timestamps` opts out of relative times (§10.3.4). The clock is the request's.
pub fn projection_options(
    cx: &Ctx<'_>,
    with: Option<&WithClause>,
    budget_tokens: usize,
    limit: Option<usize>,
    project: Option<&[ProjectSpec]>,
) -> ProjectionOptions {
    let mut o = ProjectionOptions { now_ms: cx.opts.now_ms, ..ProjectionOptions::default() };
    for opt in with.map(|w| w.options.as_slice()).unwrap_or_default() {
        match &opt.kind {
            WithKind::IsoTimestamps => o.iso_timestamps = true,
            WithKind::ProgressiveDisclosure(Some((level, _))) => o.disclosure = Disclosure::from_level(*level),
            WithKind::ProgressiveDisclosure(None) => o.disclosure = Disclosure::for_budget(budget_tokens, limit),
            _ => {}
        }
    }
    o.project = project.map(project_of);
    o
}

/// Whether the WITH clause asks for progressive disclosure without a level (its last
/// `progressive_disclosure` option is bare): an ASSEMBLE then returns §8.2's three tiers.
pub fn tiered(with: Option<&WithClause>) -> bool {
    with.map(|w| w.options.as_slice())
        .unwrap_or_default()
        .iter()
        .rev()
        .find_map(|o| if let WithKind::ProgressiveDisclosure(level) = &o.kind { Some(level.is_none()) } else { None })
        .unwrap_or(false)
}

/// `formatted_context.tiers` (§8.2 phase 4, docs/spec-decisions-interp.md W8): per tier, in
/// order (`summary`, `headlines`, `full`), its text, exact tokens, grains and §14.3 level.
pub fn tiers_json(tiers: &[(Tier, Assembled)]) -> Json {
    let mut m = Map::new();
    for (tier, out) in tiers {
        let grains: usize = out.sources.iter().map(|s| s.grains).sum();
        m.insert(
            tier.as_str().into(),
            json!({ "text": out.text, "tokens": out.tokens, "grains": grains, "level": tier.disclosure().as_str() }),
        );
    }
    Json::Object(m)
}

/// RECALL `AS fmt`: the rendered text (the response's `formatted`) and the format it resolved to; its exact tokens are
/// added to the envelope's `tokens_used`. CAL-E031 when the deadline passed while rendering. `grain_type` is the queried type (`RECALL beliefs`),
/// which names an empty result's TOON header (`beliefs[0]{…}:`).
pub fn recall_formatted(
    cx: &mut Ctx<'_>,
    grain_type: Option<GrainType>,
    rows: &[Row],
    format: FormatName,
    with: Option<&WithClause>,
    limit: Option<usize>,
    project: Option<&[ProjectSpec]>,
) -> Result<(String, &'static str), Diagnostic> {
    let opts = projection_options(cx, with, DEFAULT_BUDGET_TOKENS, limit, project);
    let grains: Vec<GrainInput> = rows.iter().map(grain_input).collect();
    let (text, tokens) = cal_render::render_recall_of(grain_type, &grains, format, &opts);
    // Rendering stops short at the deadline (cal_render's deadline.rs): never show that text.
    cx.deadline.check()?;
    cx.stats.tokens += tokens as u64;
    Ok((text, format.resolve().as_str()))
}
