//! Templates (§10.2, §10.5–§10.7): rendering a parsed template over an
//! assembly, with EXTENDS-preset section inheritance, the `{{#each}}` cap and
//! the budget × 2 output bound.
//!
//! Rendering only. The template arrives parsed ([`Template`], from
//! `cal_parser::template`): its structure cannot be wrong, and whether its
//! variables and parent are allowed was decided where it was defined (the
//! checker's define-time rules, CAL-E086–E096). Nothing here validates, so
//! nothing here can disagree with the checker; a variable outside §10.5's set
//! (only an unchecked inline template can hold one) renders as the empty
//! string (§10.8).

use cal_grammar::templates::Var;
use std::collections::BTreeMap;

use cal_grammar::limits::{DEFAULT_BUDGET_TOKENS, MAX_EACH_ITERATIONS, TEMPLATE_OUTPUT_BUDGET_FACTOR};
use cal_grammar::{FormatName, TemplateSectionKind as K};
use cal_parser::template::{EACH, Node, Template};

use crate::assemble::{SourceInput, SourceReport};
use crate::budget::{Budget, BudgetUnit};
use crate::formats::{Assembly, markdown, sml, text};
use crate::grain::{CalValue, GrainInput};
use crate::project::canonical_number;
use crate::project::{Disclosure, Element, ProjectionOptions};

/// An element with the retrieved grain it was projected from, when the caller has it (for
/// the variables the projection does not keep: raw relation, creation time, score).
type Item<'a> = (&'a Element, Option<&'a GrainInput>);

struct Scope<'a> {
    vars: BTreeMap<&'static str, String>,
    flags: BTreeMap<&'static str, bool>,
    each: &'a [Item<'a>],
}

fn escape(s: &str) -> String {
    sml::escape_attr(s)
}

fn grain_vars(
    (e, raw): Item<'_>,
    disclosure: Disclosure,
) -> (BTreeMap<&'static str, String>, BTreeMap<&'static str, bool>) {
    let mut v = BTreeMap::new();
    if let Some(g) = raw {
        let [_, relation, _] = cal_grammar::fields::TRIPLE;
        if let Some(CalValue::Str(r)) = g.field(relation) {
            v.insert(Var::GrainRelation.as_str(), r);
        }
        if let Some(CalValue::Time(ms)) = g.field(cal_grammar::binding::TIME) {
            v.insert(Var::GrainCreatedAt.as_str(), crate::time::iso(ms));
        }
        v.insert(Var::GrainScore.as_str(), canonical_number(g.score));
    }
    v.insert(Var::GrainContent.as_str(), e.content.clone());
    v.insert(Var::GrainType.as_str(), e.tag.clone());
    v.insert(Var::GrainSubject.as_str(), e.triple.0.clone());
    v.insert(Var::GrainHumanizedRelation.as_str(), e.triple.1.clone());
    v.insert(Var::GrainObject.as_str(), e.triple.2.clone());
    for (var, attr) in [
        (Var::GrainConfidence.as_str(), "confidence"),
        (Var::GrainImportance.as_str(), "importance"),
        (Var::GrainTags.as_str(), "tags"),
    ] {
        if let Some(x) = e.attr(attr) {
            v.insert(var, x.text());
        }
    }
    if let Some(t) = e.attr("time").or_else(|| e.attr("observed")) {
        v.insert(Var::GrainRelativeTime.as_str(), t.text());
    }
    let mut f = BTreeMap::new();
    f.insert(Var::GrainIsFull.as_str(), disclosure == Disclosure::Full);
    f.insert(Var::GrainIsSummary.as_str(), disclosure == Disclosure::Summary);
    (v, f)
}

fn render_nodes(nodes: &[Node], scope: &Scope<'_>, disclosure: Disclosure, out: &mut String) {
    for n in nodes {
        match n {
            Node::Text(t) => out.push_str(t),
            Node::Variable { name, .. } => {
                if let Some(v) = scope.vars.get(name.as_str()) {
                    out.push_str(&escape(v));
                }
            }
            Node::Section { name, inverted, children, .. } if name == EACH && !inverted => {
                for e in scope.each.iter().take(MAX_EACH_ITERATIONS) {
                    let (mut vars, flags) = grain_vars(*e, disclosure);
                    for (k, v) in &scope.vars {
                        vars.entry(k).or_insert_with(|| v.clone());
                    }
                    let inner = Scope { vars, flags, each: std::slice::from_ref(e) };
                    render_nodes(children, &inner, disclosure, out);
                }
            }
            Node::Section { name, inverted, children, .. } => {
                let name = name.as_str();
                let truthy =
                    scope.flags.get(name).copied().unwrap_or_else(|| {
                        scope.vars.get(name).is_some_and(|v| !v.is_empty() && v != "false" && v != "0")
                    });
                if truthy != *inverted {
                    render_nodes(children, scope, disclosure, out);
                }
            }
        }
    }
}

/// Renders one of the template's sections in `scope`. A section's text is trimmed: the
/// whitespace that opens its first literal text and closes its last is not output.
fn section(nodes: &[Node], scope: &Scope<'_>, disclosure: Disclosure) -> String {
    let last = nodes.len().saturating_sub(1);
    let mut out = String::new();
    for (i, n) in nodes.iter().enumerate() {
        match n {
            Node::Text(t) => {
                let mut t = t.as_str();
                if i == 0 {
                    t = t.trim_start();
                }
                if i == last {
                    t = t.trim_end();
                }
                out.push_str(t);
            }
            n => render_nodes(std::slice::from_ref(n), scope, disclosure, &mut out),
        }
    }
    out
}

fn preset_part(parent: FormatName, kind: K, a: &Assembly, src: Option<&str>, e: Option<&Element>) -> Option<String> {
    match (parent.resolve(), kind) {
        (FormatName::Sml, K::Header) => Some(sml::header(a.intent.as_deref())),
        (FormatName::Sml, K::Footer) => Some(sml::footer()),
        (FormatName::Sml, K::Element | K::ElementSummary) => e.map(sml::element),
        (FormatName::Markdown, K::Header) => Some(markdown::header(a.intent.as_deref().unwrap_or(&a.name))),
        (FormatName::Markdown, K::SourceBreak) => src.map(|l| format!("\n{}", markdown::source_heading(l))),
        (FormatName::Markdown, K::Element | K::ElementSummary) => e.map(markdown::element),
        (FormatName::Text, K::Element | K::ElementSummary) => e.map(text::element),
        _ => None,
    }
}

/// Renders an assembly with a template (§10.6): HEADER once, then per source SOURCE_BREAK
/// and one ELEMENT per grain (ELEMENT_SUMMARY at summary disclosure when defined), ELEMENT_OMIT
/// after a source that was cut, FOOTER once. Sections the template does not define come from
/// the extended preset (§10.7). `{{#each}}` iterates the grains in scope (all grains in HEADER
/// and FOOTER, the source's in SOURCE_BREAK), at most 200. Output is cut at budget × 2
/// characters (a grains budget uses the default token budget for this bound). `raw`, when
/// given, holds the retrieved grains of each source in the order of `a`'s elements (each
/// source's elements are a prefix of its grains): `{{grain.relation}}`, `{{grain.created_at}}`
/// and `{{grain.score}}` read them; without it they render empty.
pub fn render_assembly(
    t: &Template,
    a: &Assembly,
    raw: Option<&[SourceInput]>,
    reports: &[SourceReport],
    opts: &ProjectionOptions,
    budget: Budget,
) -> String {
    let parent = t.parent();
    let own = |k: K| t.section(k);
    let d = opts.disclosure;
    let items = |i: usize, s: &'_ crate::formats::Source| -> Vec<(usize, usize)> {
        (0..s.elements.len()).map(|j| (i, j)).collect::<Vec<_>>()
    };
    let item = |(i, j): (usize, usize)| -> Item<'_> {
        let raw_grain = raw.and_then(|r| r.get(i)).and_then(|s| s.grains.get(j));
        (&a.sources[i].elements[j], raw_grain)
    };
    let all: Vec<Item<'_>> = a.sources.iter().enumerate().flat_map(|(i, s)| items(i, s)).map(item).collect();
    let mut base = BTreeMap::new();
    base.insert(Var::AssemblyName.as_str(), a.name.clone());
    base.insert(Var::AssemblyIntent.as_str(), a.intent.clone().unwrap_or_default());
    base.insert(Var::AssemblySourceCount.as_str(), a.sources.len().to_string());
    base.insert(Var::AssemblyGrainCount.as_str(), all.len().to_string());
    base.insert(Var::BudgetTotal.as_str(), budget.amount.to_string());
    base.insert(Var::BudgetUnit.as_str(), budget.unit.as_str().to_string());
    let used = match budget.unit {
        BudgetUnit::Tokens => a.tokens_used,
        BudgetUnit::Grains => all.len(),
    };
    base.insert(Var::BudgetUsed.as_str(), used.to_string());
    base.insert(Var::BudgetRemaining.as_str(), budget.amount.saturating_sub(used).to_string());
    let utilization = if budget.amount == 0 { 0.0 } else { (used as f64 / budget.amount as f64).min(1.0) };
    base.insert(
        Var::BudgetUtilization.as_str(),
        crate::project::canonical_number((utilization * 100.0).round() / 100.0),
    );
    base.insert(Var::DisclosureLevel.as_str(), d.as_str().to_string());
    base.insert(Var::Timestamp.as_str(), crate::time::iso(opts.now_ms));
    let mut lines: Vec<String> = Vec::new();
    let mut push = |s: Option<String>| {
        if let Some(s) = s {
            let s = s.trim_end().to_string();
            if !s.trim().is_empty() {
                lines.push(s);
            }
        }
    };
    let scope = Scope { vars: base.clone(), flags: BTreeMap::new(), each: &all };
    push(match own(K::Header) {
        Some(s) => Some(section(s, &scope, d)),
        None => preset_part(parent, K::Header, a, None, None),
    });
    for (i, s) in a.sources.iter().enumerate() {
        let mut vars = base.clone();
        let r = reports.get(i);
        vars.insert(Var::SourceLabel.as_str(), s.label.clone());
        vars.insert(Var::SourceIndex.as_str(), i.to_string());
        vars.insert(Var::SourcePriority.as_str(), (i + 1).to_string());
        vars.insert(Var::SourceGrainCount.as_str(), s.elements.len().to_string());
        vars.insert(Var::SourceTokensUsed.as_str(), r.map_or(0, |r| r.tokens_used).to_string());
        vars.insert(Var::SourceTruncated.as_str(), r.is_some_and(|r| r.truncated).to_string());
        let els: Vec<Item<'_>> = items(i, s).into_iter().map(item).collect();
        let sscope = Scope { vars: vars.clone(), flags: BTreeMap::new(), each: &els };
        push(match own(K::SourceBreak) {
            Some(x) => Some(section(x, &sscope, d)),
            None => preset_part(parent, K::SourceBreak, a, Some(&s.label), None),
        });
        for it in &els {
            let e = it.0;
            let (gv, flags) = grain_vars(*it, d);
            let mut v = vars.clone();
            v.extend(gv);
            let gscope = Scope { vars: v, flags, each: std::slice::from_ref(it) };
            let body =
                if d == Disclosure::Summary { own(K::ElementSummary).or(own(K::Element)) } else { own(K::Element) };
            push(match body {
                Some(x) => Some(section(x, &gscope, d)),
                None => preset_part(parent, K::Element, a, None, Some(e)),
            });
        }
        if r.is_some_and(|r| r.truncated)
            && let Some(x) = own(K::ElementOmit)
        {
            push(Some(section(x, &sscope, d)));
        }
    }
    push(match own(K::Footer) {
        Some(s) => Some(section(s, &scope, d)),
        None => preset_part(parent, K::Footer, a, None, None),
    });
    let tokens = if budget.unit == BudgetUnit::Tokens { budget.amount } else { DEFAULT_BUDGET_TOKENS };
    let cap = tokens * TEMPLATE_OUTPUT_BUDGET_FACTOR;
    let out = lines.join("\n");
    match out.char_indices().nth(cap) {
        Some((i, _)) => out[..i].to_string(),
        None => out,
    }
}
