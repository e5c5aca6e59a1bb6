//! ASSEMBLE (§8.2, §11.2): context name ≤ 64 and FOR text ≤ 256 characters
//! (CAL-E016), at most 8 sources (CAL-E013) with unique labels (CAL-E009),
//! sources that return grains (CAL-E021, LET sources through `lets.rs`),
//! BUDGET within 1–16,000 tokens / 1–200 grains (CAL-E030), PRIORITY naming
//! existing labels (CAL-E008) once each (CAL-E002), STREAM chunk_size within
//! 20–1000 (CAL-E078), inline templates (`templates.rs`) and WITH options.

use crate::context::{Amend, Checker};
use crate::fields::{Profiles, Scope};
use crate::limits::{text_length, too_many};
use crate::recall::{self, Site};
use crate::{lets, templates, with};
use cal_grammar::suggest::did_you_mean;
use cal_grammar::{BudgetUnit, Code, limits};
use cal_parser::ast::{Assemble, Budget, FormatKind, Priority, Source, SourceBody, Stream, StreamOptionKind};

/// Checks an ASSEMBLE statement.
pub(crate) fn check<'q>(cx: &mut Checker<'q>, a: &'q Assemble) {
    if let Some(n) = &a.name {
        text_length(cx, &n.name, n.span, limits::MAX_CONTEXT_NAME_CHARS, "The context name");
    }
    if let Some(f) = &a.intent {
        text_length(cx, &f.value, f.span, limits::MAX_FOR_CHARS, "The FOR text");
    }
    too_many(
        cx,
        Code::E013,
        &a.sources,
        |s| s.span,
        limits::MAX_SOURCES,
        "Too many ASSEMBLE sources",
        "Merge sources with similar queries, or drop the least important ones (§8.2).",
    );
    let labels = labels(cx, &a.sources);
    for s in &a.sources {
        match &s.body {
            SourceBody::Recall(r) => {
                recall::check_recall(cx, r, Site::Source);
            }
            SourceBody::LetRef(id) => lets::use_as_source(cx, id),
        }
    }
    if let Some(b) = &a.budget {
        budget(cx, b);
    }
    if let Some(p) = &a.priority {
        priority(cx, p, &labels);
    }
    if let Some(f) = &a.format
        && let FormatKind::Inline(body) = &f.kind
    {
        templates::check_body(cx, body);
    }
    if let Some(s) = &a.stream {
        stream(cx, s);
    }
    if let Some(w) = &a.with {
        with::check_options(cx, &scope(&a.sources), &w.options);
    }
}

/// The labels of the sources, each reported when it repeats an earlier one.
fn labels<'q>(cx: &mut Checker<'q>, sources: &'q [Source]) -> Vec<&'q str> {
    let mut seen: Vec<(&str, cal_grammar::Span)> = Vec::new();
    for l in sources.iter().filter_map(|s| s.label.as_ref()) {
        if let Some((_, first)) = seen.iter().find(|(n, _)| *n == l.name) {
            cx.error(Code::E009, l.span, format!("The label `{}` is used by two sources.", l.name))
                .help("Give each source its own label; PRIORITY and templates refer to sources by label.")
                .note(*first, "first used here");
        } else {
            seen.push((&l.name, l.span));
        }
    }
    seen.into_iter().map(|(n, _)| n).collect()
}

/// What a WITH option of the ASSEMBLE resolves fields against: the grain type all
/// RECALL sources share (if they do), and the profile tags of any of them.
fn scope(sources: &[Source]) -> Scope {
    let recalls: Vec<_> = sources
        .iter()
        .filter_map(|s| match &s.body {
            SourceBody::Recall(r) => Some(r),
            SourceBody::LetRef(_) => None,
        })
        .collect();
    let grain = match recalls.first().and_then(|r| r.grain_type) {
        Some(g) if recalls.iter().all(|r| r.grain_type.map(|t| t.grain_type) == Some(g.grain_type)) => Some(g),
        _ => None,
    };
    // Profile tags are per source; a domain field in dedup(…) is only warned about when no
    // source can be told to select its profile, which the field check cannot see here.
    Scope { grain, profiles: Profiles::Unknown, grain_slot: None }
}

fn budget(cx: &mut Checker<'_>, b: &Budget) {
    let (max, unit) = match b.unit {
        BudgetUnit::Tokens => (limits::MAX_BUDGET_TOKENS as u64, "tokens"),
        BudgetUnit::Grains => (limits::MAX_BUDGET_GRAINS as u64, "grains"),
    };
    let n = b.amount.value;
    if (1..=max).contains(&n) {
        return;
    }
    let message = if n == 0 {
        format!("BUDGET 0 {unit} leaves no room for any context; the budget is at least 1.")
    } else {
        format!("BUDGET {n} {unit} exceeds the maximum of {max} {unit} (§8.2).")
    };
    cx.error(Code::E030, b.amount.span, message)
        .help(format!("Use a budget from 1 to {max} {unit}."))
        .fix(n.clamp(1, max).to_string());
}

fn priority(cx: &mut Checker<'_>, p: &Priority, labels: &[&str]) {
    for (i, l) in p.labels.iter().enumerate() {
        if let Some(first) = p.labels[..i].iter().find(|f| f.name == l.name) {
            cx.error(Code::E002, l.span, format!("`{}` appears twice in PRIORITY.", l.name))
                .help("Name each source once, highest priority first.")
                .note(first.span, "first named here");
            continue;
        }
        if labels.contains(&l.name.as_str()) {
            continue;
        }
        let d = cx.error(Code::E008, l.span, format!("PRIORITY names `{}`, but no source has that label.", l.name));
        match did_you_mean(&l.name, labels.iter().copied()) {
            Some(s) => {
                d.help(format!("Did you mean `{s}`?")).fix(s);
            }
            None if labels.is_empty() => {
                d.help("Label the sources (`name: (RECALL …)`) to order them with PRIORITY.");
            }
            None => {
                d.help("PRIORITY orders the labelled sources of FROM.");
            }
        }
        d.valid(labels.iter().copied());
    }
}

fn stream(cx: &mut Checker<'_>, s: &Stream) {
    for o in &s.options {
        if let StreamOptionKind::ChunkSize(n) = &o.kind {
            let (lo, hi) = (limits::MIN_CHUNK_SIZE as u64, limits::MAX_CHUNK_SIZE as u64);
            if !(lo..=hi).contains(&n.value) {
                cx.error(
                    Code::E078,
                    n.span,
                    format!("chunk_size = {} is out of range: a chunk is {lo} to {hi} tokens (§11.2).", n.value),
                )
                .help(format!("Use a chunk_size from {lo} to {hi}; the default is {}.", limits::DEFAULT_CHUNK_SIZE))
                .fix(n.value.clamp(lo, hi).to_string());
            }
        }
    }
}
