//! Templates (§10.2, §10.5–§10.8): rendering CAL's Mustache subset over an
//! assembly, with EXTENDS-preset section inheritance, inline templates, the
//! `{{#each}}` cap and the budget × 2 output bound, plus the per-namespace
//! template registry (CAL-E085, E088, E089).
//!
//! The tree comes from `cal_checker::mustache`, the parser the checker
//! validates templates with, so definition-time checking and rendering can
//! never disagree about what a template means.

use std::collections::BTreeMap;

use cal_checker::mustache::{self, EACH, Node};
use cal_grammar::limits::{
    DEFAULT_BUDGET_TOKENS, MAX_EACH_ITERATIONS, MAX_TEMPLATE_BYTES, MAX_TEMPLATES, TEMPLATE_OUTPUT_BUDGET_FACTOR,
};
use cal_grammar::{Code, FormatName, TemplateSectionKind as K};

use crate::assemble::{SourceInput, SourceReport};
use crate::budget::{Budget, BudgetUnit};
use crate::formats::{Assembly, markdown, sml, text};
use crate::grain::{CalValue, GrainInput};
use crate::project::canonical_number;
use crate::project::{Disclosure, Element, ProjectionOptions};

/// A template: the preset it extends and its own sections (raw Mustache text).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TemplateDef {
    /// `EXTENDS preset`; `None` means `readable` (§10.7).
    pub extends: Option<FormatName>,
    /// Sections as written (`ELEMENT { … }` → (`Element`, text)).
    pub sections: Vec<(K, String)>,
}

/// A render-time template error with its CAL code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateError {
    /// CAL-E085, E088, E089 (registry) or E091/E094 (a template that bypassed the checker).
    pub code: Code,
    /// What happened.
    pub message: String,
}

impl TemplateDef {
    /// Validates a template the way §10.8 asks at definition time, for callers that did not run
    /// the checker (a registry fed directly, a JSON request): the parent must be a preset other
    /// than data (CAL-E086, E087), the body at most 4,096 bytes (E092), each section once (E095),
    /// its Mustache well-formed (E091 unbalanced, E093 too deep, E094 excluded syntax) and every
    /// variable in the closed set (E090). The first problem is returned.
    pub fn validate(&self) -> Result<(), TemplateError> {
        let err = |code: Code, message: String| Err(TemplateError { code, message });
        match self.extends {
            Some(FormatName::Data | FormatName::Json) => {
                return err(Code::E086, "a template cannot extend the data preset".into());
            }
            Some(f) if !f.is_preset() => {
                return err(
                    Code::E087,
                    format!("`{}` is not a preset; extend structured, readable or compact", f.as_str()),
                );
            }
            _ => {}
        }
        let size: usize = self.sections.iter().map(|(_, t)| t.len()).sum();
        if size > MAX_TEMPLATE_BYTES {
            return err(Code::E092, format!("the template body is {size} bytes; at most {MAX_TEMPLATE_BYTES}"));
        }
        for (i, (kind, text)) in self.sections.iter().enumerate() {
            if self.sections[..i].iter().any(|(k, _)| k == kind) {
                return err(Code::E095, format!("section {} is defined twice", kind.as_str()));
            }
            let t = mustache::parse(text);
            if let Some(e) = t.errors.first() {
                return Err(structural(&e.kind));
            }
            if let Some(name) = unknown_variable(&t.nodes) {
                return err(Code::E090, format!("`{{{{{name}}}}}` is not a template variable (§10.5)"));
            }
        }
        Ok(())
    }
}

/// The code of a structural Mustache error.
fn structural(kind: &mustache::ErrorKind) -> TemplateError {
    let code = match kind {
        mustache::ErrorKind::Unclosed | mustache::ErrorKind::Unopened | mustache::ErrorKind::Mismatched => Code::E091,
        mustache::ErrorKind::TooDeep => Code::E093,
        _ => Code::E094,
    };
    TemplateError { code, message: format!("template section is malformed: {kind:?}") }
}

fn unknown_variable<'t>(nodes: &[Node<'t>]) -> Option<&'t str> {
    nodes.iter().find_map(|n| match n {
        Node::Text(_) => None,
        Node::Variable { name, .. } => mustache::variable(name).is_none().then_some(*name),
        Node::Section { name, children, .. } => {
            if *name != EACH && mustache::variable(name).is_none() {
                Some(*name)
            } else {
                unknown_variable(children)
            }
        }
    })
}

/// DEFINE TEMPLATE storage of one namespace: at most 50 templates (§10.8).
#[derive(Debug, Clone, Default)]
pub struct TemplateRegistry {
    templates: BTreeMap<String, TemplateDef>,
}

impl TemplateRegistry {
    /// Stores a template: CAL-E088 if the name exists, CAL-E089 when 50 are stored.
    pub fn define(&mut self, name: &str, def: TemplateDef) -> Result<(), TemplateError> {
        if self.templates.contains_key(name) {
            return Err(TemplateError { code: Code::E088, message: format!("template `{name}` already exists") });
        }
        if self.templates.len() >= MAX_TEMPLATES {
            let message = format!("this namespace already has {MAX_TEMPLATES} templates");
            return Err(TemplateError { code: Code::E089, message });
        }
        self.templates.insert(name.to_string(), def);
        Ok(())
    }

    /// How many templates are stored.
    pub fn len(&self) -> usize {
        self.templates.len()
    }

    /// True when no template is stored.
    pub fn is_empty(&self) -> bool {
        self.templates.is_empty()
    }

    /// The stored names, sorted (`DESCRIBE templates`).
    pub fn names(&self) -> Vec<String> {
        self.templates.keys().cloned().collect()
    }

    /// The template called `name`, or CAL-E085.
    pub fn get(&self, name: &str) -> Result<&TemplateDef, TemplateError> {
        self.templates
            .get(name)
            .ok_or_else(|| TemplateError { code: Code::E085, message: format!("no template named `{name}`") })
    }
}

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
            v.insert("grain.relation", r);
        }
        if let Some(CalValue::Time(ms)) = g.field(cal_grammar::binding::TIME) {
            v.insert("grain.created_at", crate::time::iso(ms));
        }
        v.insert("grain.score", canonical_number(g.score));
    }
    v.insert("grain.content", e.content.clone());
    v.insert("grain.type", e.tag.clone());
    v.insert("grain.subject", e.triple.0.clone());
    v.insert("grain.humanized_relation", e.triple.1.clone());
    v.insert("grain.object", e.triple.2.clone());
    for (var, attr) in [("grain.confidence", "confidence"), ("grain.importance", "importance"), ("grain.tags", "tags")]
    {
        if let Some(x) = e.attr(attr) {
            v.insert(var, x.text());
        }
    }
    if let Some(t) = e.attr("time").or_else(|| e.attr("observed")) {
        v.insert("grain.relative_time", t.text());
    }
    let mut f = BTreeMap::new();
    f.insert("grain.is_full", disclosure == Disclosure::Full);
    f.insert("grain.is_summary", disclosure == Disclosure::Summary);
    (v, f)
}

fn render_nodes(nodes: &[Node<'_>], scope: &Scope<'_>, disclosure: Disclosure, out: &mut String) {
    for n in nodes {
        match n {
            Node::Text(t) => out.push_str(t),
            Node::Variable { name, .. } => {
                if let Some(v) = scope.vars.get(name) {
                    out.push_str(&escape(v));
                }
            }
            Node::Section { name, inverted, children, .. } if *name == EACH && !inverted => {
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

/// Renders one section text in `scope`; CAL-E091/E094 if the text is malformed.
fn section(text: &str, scope: &Scope<'_>, disclosure: Disclosure) -> Result<String, TemplateError> {
    let t = mustache::parse(text.trim());
    if let Some(e) = t.errors.first() {
        return Err(structural(&e.kind));
    }
    let mut out = String::new();
    render_nodes(&t.nodes, scope, disclosure, &mut out);
    Ok(out)
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
/// characters (a grains budget uses the default token budget for this bound).
/// A malformed section renders as nothing.
pub fn render_assembly(
    t: &TemplateDef,
    a: &Assembly,
    reports: &[SourceReport],
    opts: &ProjectionOptions,
    budget: Budget,
) -> String {
    try_render_assembly(t, a, None, reports, opts, budget).unwrap_or_default()
}

/// [`render_assembly`], reporting a malformed section instead of rendering nothing. `raw`, when
/// given, holds the retrieved grains of each source in the order of `a`'s elements (each
/// source's elements are a prefix of its grains): `{{grain.relation}}`, `{{grain.created_at}}`
/// and `{{grain.score}}` read them; without it they render empty.
pub fn try_render_assembly(
    t: &TemplateDef,
    a: &Assembly,
    raw: Option<&[SourceInput]>,
    reports: &[SourceReport],
    opts: &ProjectionOptions,
    budget: Budget,
) -> Result<String, TemplateError> {
    let parent = t.extends.unwrap_or(FormatName::Readable);
    let own = |k: K| t.sections.iter().find(|(kind, _)| *kind == k).map(|(_, s)| s.as_str());
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
    base.insert("assembly.name", a.name.clone());
    base.insert("assembly.intent", a.intent.clone().unwrap_or_default());
    base.insert("assembly.source_count", a.sources.len().to_string());
    base.insert("assembly.grain_count", all.len().to_string());
    base.insert("budget.total", budget.amount.to_string());
    base.insert("budget.unit", budget.unit.as_str().to_string());
    let used = match budget.unit {
        BudgetUnit::Tokens => a.tokens_used,
        BudgetUnit::Grains => all.len(),
    };
    base.insert("budget.used", used.to_string());
    base.insert("budget.remaining", budget.amount.saturating_sub(used).to_string());
    let utilization = if budget.amount == 0 { 0.0 } else { (used as f64 / budget.amount as f64).min(1.0) };
    base.insert("budget.utilization", crate::project::canonical_number((utilization * 100.0).round() / 100.0));
    base.insert("disclosure.level", d.as_str().to_string());
    base.insert("timestamp", crate::time::iso(opts.now_ms));
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
        Some(s) => Some(section(s, &scope, d)?),
        None => preset_part(parent, K::Header, a, None, None),
    });
    for (i, s) in a.sources.iter().enumerate() {
        let mut vars = base.clone();
        let r = reports.get(i);
        vars.insert("source.label", s.label.clone());
        vars.insert("source.index", i.to_string());
        vars.insert("source.priority", (i + 1).to_string());
        vars.insert("source.grain_count", s.elements.len().to_string());
        vars.insert("source.tokens_used", r.map_or(0, |r| r.tokens_used).to_string());
        vars.insert("source.truncated", r.is_some_and(|r| r.truncated).to_string());
        let els: Vec<Item<'_>> = items(i, s).into_iter().map(item).collect();
        let sscope = Scope { vars: vars.clone(), flags: BTreeMap::new(), each: &els };
        push(match own(K::SourceBreak) {
            Some(x) => Some(section(x, &sscope, d)?),
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
                Some(x) => Some(section(x, &gscope, d)?),
                None => preset_part(parent, K::Element, a, None, Some(e)),
            });
        }
        if r.is_some_and(|r| r.truncated)
            && let Some(x) = own(K::ElementOmit)
        {
            push(Some(section(x, &sscope, d)?));
        }
    }
    push(match own(K::Footer) {
        Some(s) => Some(section(s, &scope, d)?),
        None => preset_part(parent, K::Footer, a, None, None),
    });
    let tokens = if budget.unit == BudgetUnit::Tokens { budget.amount } else { DEFAULT_BUDGET_TOKENS };
    let cap = tokens * TEMPLATE_OUTPUT_BUDGET_FACTOR;
    let out = lines.join("\n");
    Ok(match out.char_indices().nth(cap) {
        Some((i, _)) => out[..i].to_string(),
        None => out,
    })
}
