//! LET bindings (§8.12): at most five (CAL-E009), each name once (CAL-E009),
//! evaluated in declaration order (a later or own name is unbound, CAL-E008),
//! chaining only inside ASSEMBLE, linearly and at most three deep (CAL-E007),
//! and each use fitting what the binding yields (CAL-E021): values from
//! SUBJECTS/OBJECTS/HASHES for `field IN ($name)`, grains for a source.

use crate::context::{Amend, Checker, LetEdge, LetSlot, Output};
use crate::operators::{extractor_matches, wanted_extractors};
use crate::recall::{self, Site};
use crate::render;
use crate::values::Typed;
use cal_grammar::suggest::did_you_mean;
use cal_grammar::{Code, Span, limits};
use cal_parser::ast::{Ident, LetBinding};

/// Registers the LET names before anything is checked, so that every `$name` can be told apart
/// from a parameter; reports duplicates and the count limit.
pub(crate) fn declare<'q>(cx: &mut Checker<'q>, lets: &'q [LetBinding]) {
    for (i, b) in lets.iter().enumerate() {
        if let Some(first) = cx.let_index(&b.name.name) {
            let first_span = cx.lets[first].span;
            cx.error(Code::E009, b.name.span, format!("`${}` is bound twice by LET.", b.name.name))
                .help("Give each LET binding its own name.")
                .note(first_span, "first bound here");
        }
        if i == limits::MAX_LET {
            cx.error(
                Code::E009,
                b.name.span,
                format!("This query has {} LET bindings; at most {} are allowed (§8.12).", lets.len(), limits::MAX_LET),
            )
            .help("Inline a binding as a subquery, or split the request.");
        }
        cx.lets.push(LetSlot { name: &b.name.name, span: b.name.span, output: None, grain: None });
    }
}

/// Checks each binding's RECALL in order, then the chaining rules.
pub(crate) fn check<'q>(cx: &mut Checker<'q>, lets: &'q [LetBinding], in_assemble: bool) {
    if lets.is_empty() {
        return; // no bindings, so no edges between them
    }
    for (i, b) in lets.iter().enumerate() {
        cx.current_let = Some(i);
        let out = recall::check_recall(cx, &b.recall, Site::Let);
        if let Some(slot) = cx.lets.get_mut(i) {
            slot.output = Some(out);
            slot.grain = b.recall.grain_type.map(|g| g.grain_type);
        }
    }
    cx.current_let = None;
    let edges = cx.let_edges.clone();
    if !in_assemble {
        for e in &edges {
            let to = cx.lets[e.to].name;
            cx.error(
                Code::E007,
                e.span,
                format!("`${to}` is another LET binding; LET bindings can build on earlier ones only inside ASSEMBLE (§8.12)."),
            )
            .help("Use a subquery instead, or make the statement an ASSEMBLE.");
        }
        return;
    }
    let mut depth = vec![1usize; cx.lets.len()];
    for i in 0..depth.len() {
        let mine: Vec<&LetEdge> = edges.iter().filter(|e| e.from == i).collect();
        let mut targets: Vec<usize> = Vec::new();
        for e in &mine {
            if !targets.contains(&e.to) {
                targets.push(e.to);
                if targets.len() == 2 {
                    cx.error(
                        Code::E007,
                        e.span,
                        format!(
                            "`${}` builds on two LET bindings; chaining must be linear, one binding on the previous (§8.12).",
                            cx.lets[i].name
                        ),
                    )
                    .help("Build each LET binding on at most one earlier binding.");
                }
            }
        }
        let base = targets.iter().map(|t| depth[*t]).max().unwrap_or(0);
        depth[i] = base + 1;
        if depth[i] == limits::MAX_LET_CHAIN_DEPTH + 1
            && let Some(e) = mine.first()
        {
            cx.error(
                Code::E007,
                e.span,
                format!(
                    "This makes a chain of {} LET bindings; chains are at most {} deep (§8.12).",
                    depth[i],
                    limits::MAX_LET_CHAIN_DEPTH
                ),
            )
            .help("Shorten the chain: fold two bindings into one query.");
        }
    }
}

/// `field IN ($name)` where `$name` is LET binding `i`.
pub(crate) fn use_in_list(cx: &mut Checker<'_>, i: usize, span: Span, field: &Typed<'_>) {
    let slot = cx.lets[i].clone();
    if let Some(cur) = cx.current_let {
        if i >= cur {
            let message = if i == cur {
                format!("`${}` cannot use itself.", slot.name)
            } else {
                format!("`${}` is not bound yet: LET bindings are evaluated in declaration order.", slot.name)
            };
            cx.error(Code::E008, span, message)
                .help("Use only bindings declared before this one.")
                .note(slot.span, "bound here");
            return;
        }
        cx.let_edges.push(LetEdge { from: cur, to: i, span });
    }
    let Some(out) = slot.output else { return };
    if let Output::Values(ex) = out
        && extractor_matches(field, ex)
    {
        return;
    }
    let wanted: Vec<String> = wanted_extractors(field).iter().map(|e| format!("| {}", e.as_str())).collect();
    cx.error(
        Code::E021,
        span,
        format!(
            "`${}` yields {}, but `{} IN (…)` needs values from {}.",
            slot.name,
            out.describe(),
            field.name,
            render::or_list(&wanted)
        ),
    )
    .help(format!("End the LET binding's query with {}.", render::or_list(&wanted)))
    .note(slot.span, "bound here");
}

/// `label: ($name)` in an ASSEMBLE FROM clause.
pub(crate) fn use_as_source(cx: &mut Checker<'_>, name: &Ident) {
    let Some(i) = cx.let_index(&name.name) else {
        let names: Vec<&str> = cx.lets.iter().map(|l| l.name).collect();
        let d = cx.error(Code::E008, name.span, format!("No LET binding is called `${}`.", name.name));
        match did_you_mean(&name.name, names.iter().copied()) {
            Some(n) => {
                d.help(format!("Did you mean `${n}`?")).fix(format!("${n}"));
            }
            None => {
                d.help(format!("Declare it first: `LET ${} = RECALL …;`.", name.name));
            }
        }
        d.valid(names.iter().map(|n| format!("${n}")));
        return;
    };
    let slot = cx.lets[i].clone();
    if let Some(out) = slot.output
        && !out.is_grains()
    {
        cx.error(
            Code::E021,
            name.span,
            format!("`${}` yields {}, but an ASSEMBLE source needs grains.", slot.name, out.describe()),
        )
        .help("Remove the extractor or COUNT from the LET binding, or use it in `field IN (…)`.")
        .note(slot.span, "bound here");
    }
}
