//! Templates (§10.2, §10.5–§10.8), for DEFINE TEMPLATE and inline
//! `FORMAT TEMPLATE { … }`: extending `data` (CAL-E086) or anything but a
//! preset (CAL-E087), the name (≤ 64 characters, CAL-E016), a variable
//! outside the closed set (CAL-E090), unbalanced sections (CAL-E091), a body
//! over 4,096 bytes (CAL-E092), nesting over 5 (CAL-E093), excluded Mustache
//! syntax (CAL-E094), a section defined twice (CAL-E095), and ELEMENT and
//! ELEMENT_SUMMARY both deciding how summary-level grains render (CAL-E096,
//! docs/spec-decisions-checker.md).
//!
//! These define-time rules exist only here. The interpreter, which must not
//! register a template the checker would reject even when it is handed an
//! unchecked query, asks [`validate_definition`] for a [`DefinedTemplate`]; the
//! renderer takes the [`Template`] inside it and never validates again. The
//! syntax is the parser's (`cal_parser::template`), the variable set and the
//! parents are the grammar's (`cal_grammar::templates`).

use crate::context::{Amend, Checker};
use crate::limits::text_length;
use cal_grammar::suggest::did_you_mean;
use cal_grammar::templates::Var;
use cal_grammar::templates::{TEMPLATE_PARENTS, VARIABLES, variable};
use cal_grammar::{Code, Diagnostic, FormatName, Span, TemplateSectionKind, limits, sort_diagnostics};
use cal_parser::ast::{DefineTemplate, Ident, TemplateBody, TemplateSection};
use cal_parser::template::{self, ErrorKind, SectionError, SyntaxError, TagKind, Template};
use std::ops::Range;

/// A DEFINE TEMPLATE that passed every define-time rule of the checker, with its template
/// parsed and ready to render.
///
/// Only [`validate_definition`] makes one, so a registry that stores these (the
/// interpreter's per-namespace templates) cannot hold a template the checker would reject,
/// however the definition reached it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DefinedTemplate {
    name: String,
    template: Template,
}

impl DefinedTemplate {
    /// The template's name (at most 64 characters).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The template, for rendering.
    pub fn template(&self) -> &Template {
        &self.template
    }

    /// The template, for rendering, without its name.
    pub fn into_template(self) -> Template {
        self.template
    }
}

/// Judges a DEFINE TEMPLATE by exactly the rules [`crate::check`] applies to it (CAL-E016,
/// E086–E096), for callers that execute a definition and cannot know whether it was checked.
/// Returns the template ready to render, or every error, sorted by position.
pub fn validate_definition(d: &DefineTemplate) -> Result<DefinedTemplate, Vec<Diagnostic>> {
    let mut cx = Checker::new(None);
    check_define(&mut cx, d);
    let mut diags = cx.into_diagnostics();
    if diags.iter().any(Diagnostic::is_error) {
        sort_diagnostics(&mut diags);
        diags.dedup_by(|a, b| a.code == b.code && a.span == b.span && a.message == b.message);
        return Err(diags);
    }
    let extends = d.extends.as_ref().and_then(|p| FormatName::from_word(&p.name));
    match Template::from_body(extends, &d.body) {
        Ok(template) => Ok(DefinedTemplate { name: d.name.name.to_string(), template }),
        // Unreachable when `check_define` found nothing, but a diagnostic is the honest answer.
        Err(e) => Err(vec![section_error(&d.body, &e)]),
    }
}

/// Parses an inline `FORMAT TEMPLATE { … }` body for rendering. At execution only what makes
/// a template unrenderable is an error — its structure (CAL-E091, E093, E094), reported as the
/// checker reports it; a variable outside the set renders as the empty string (§10.8), and
/// the other rules are the checker's to report before the query runs.
// The error ends the statement and goes straight into the response; boxing it buys nothing.
#[allow(clippy::result_large_err)]
pub fn inline_template(body: &TemplateBody) -> Result<Template, Diagnostic> {
    Template::from_body(None, body).map_err(|e| section_error(body, &e))
}

/// The diagnostic of a section that did not parse: the one [`crate::check`] gives for it.
fn section_error(body: &TemplateBody, e: &SectionError) -> Diagnostic {
    let mut cx = Checker::new(None);
    if let Some(s) = body.sections.get(e.index) {
        syntax_error(&mut cx, s, &e.error);
    }
    cx.into_diagnostics().pop().unwrap_or_else(|| {
        // `e.index` always indexes `body.sections`; should it not, the code still says what failed.
        Diagnostic::new(Code::E094, body.span, "This template section could not be read.")
    })
}

/// DEFINE TEMPLATE (§10.6).
pub(crate) fn check_define(cx: &mut Checker<'_>, d: &DefineTemplate) {
    text_length(cx, &d.name.name, d.name.span, limits::MAX_TEMPLATE_NAME_CHARS, "The template name");
    if let Some(parent) = &d.extends {
        extends(cx, parent);
    }
    check_body(cx, &d.body);
}

/// The names of the presets a template may extend, for messages and fixes.
const PRESETS: [&str; 3] = [TEMPLATE_PARENTS[0].as_str(), TEMPLATE_PARENTS[1].as_str(), TEMPLATE_PARENTS[2].as_str()];

/// EXTENDS: only the presets structured, readable and compact (§10.7).
fn extends(cx: &mut Checker<'_>, parent: &Ident) {
    let name = parent.name.as_str();
    match FormatName::from_word(name) {
        Some(f) if TEMPLATE_PARENTS.contains(&f) => {}
        Some(FormatName::Data | FormatName::Json) => {
            cx.error(
                Code::E086,
                parent.span,
                format!("A template cannot extend `{name}`: the data preset outputs structural JSON, not template text (§10.7)."),
            )
            .help("Extend structured, readable or compact.")
            .example("DEFINE TEMPLATE my_template EXTENDS structured ELEMENT { {{grain.content}} }")
            .valid(PRESETS);
        }
        Some(f) => {
            let preset = TEMPLATE_PARENTS.into_iter().find(|p| p.resolve() == f);
            let d = cx.error(
                Code::E087,
                parent.span,
                format!("`{name}` is an output format, not a preset; templates extend presets (§10.7)."),
            );
            d.valid(PRESETS);
            match preset {
                Some(p) => {
                    d.help(format!("The preset for {name} is `{p}`.")).fix(p.as_str());
                }
                None => {
                    d.help(format!("{name} has no preset; extend structured, readable or compact."));
                }
            }
        }
        None => {
            let d = cx.error(
                Code::E087,
                parent.span,
                format!("`{name}` is not a preset: templates extend only presets, one level deep (§10.7)."),
            );
            d.valid(PRESETS);
            match did_you_mean(name, PRESETS) {
                Some(p) => {
                    d.help(format!("Did you mean `{p}`?")).fix(p);
                }
                None => {
                    d.help("Copy the sections you need from the other template, and extend structured, readable or compact.")
                        .example("DEFINE TEMPLATE my_template EXTENDS readable ELEMENT { {{grain.content}} }");
                }
            }
        }
    }
}

/// The keyword of a section (keywords have a fixed length whatever their case).
fn keyword_span(s: &TemplateSection) -> Span {
    let start = s.span.start as usize;
    Span::new(start, (start + s.kind.as_str().len()).min(s.span.end as usize))
}

/// The span of a byte range of a section's text.
fn at(s: &TemplateSection, r: &Range<usize>) -> Span {
    let base = s.text_span.start as usize;
    let end = s.text_span.end as usize;
    Span::new((base + r.start).min(end), (base + r.end).min(end))
}

/// The sections of a template: structure, size, variables, conflicts.
pub(crate) fn check_body(cx: &mut Checker<'_>, body: &TemplateBody) {
    for (i, s) in body.sections.iter().enumerate() {
        if let Some(first) = body.sections[..i].iter().find(|f| f.kind == s.kind) {
            cx.error(Code::E095, keyword_span(s), format!("{} is defined twice in this template.", s.kind.as_str()))
                .help("Merge the two sections into one.")
                .note(keyword_span(first), "first defined here");
        }
    }
    size(cx, body);
    for s in &body.sections {
        section(cx, s);
    }
    conflicts(cx, body);
}

/// CAL-E092: the template text of all sections together, in bytes.
fn size(cx: &mut Checker<'_>, body: &TemplateBody) {
    let total: usize = body.sections.iter().map(|s| s.text.len()).sum();
    if total <= limits::MAX_TEMPLATE_BYTES {
        return;
    }
    let mut running = 0;
    let crossing = body.sections.iter().find(|s| {
        running += s.text.len();
        running > limits::MAX_TEMPLATE_BYTES
    });
    let end = body.sections.last().map_or(body.span.end, |s| s.text_span.end) as usize;
    let span = crossing.map_or(body.span, |s| Span::new(s.text_span.start as usize, end));
    cx.error(
        Code::E092,
        span,
        format!("The template text is {total} bytes; at most {} are allowed (§10.8).", limits::MAX_TEMPLATE_BYTES),
    )
    .help("Shorten the sections; text shared by all grains belongs in HEADER or FOOTER once.");
}

fn section(cx: &mut Checker<'_>, s: &TemplateSection) {
    let t = template::parse(&s.text);
    for e in &t.errors {
        syntax_error(cx, s, e);
    }
    for tag in &t.tags {
        let known = matches!(tag.kind, TagKind::Variable | TagKind::Section | TagKind::Inverted)
            && template::is_valid_name(tag.name)
            && tag.name != template::EACH;
        if known && variable(tag.name).is_none() {
            unknown_variable(cx, s, tag.name, &tag.name_span);
        }
    }
}

/// CAL-E091, E093 and E094: a structural error of a section's text, with its message.
fn syntax_error(cx: &mut Checker<'_>, s: &TemplateSection, e: &SyntaxError) {
    let span = at(s, &e.span);
    match &e.kind {
        ErrorKind::Unsupported(kind) => {
            let d = cx.error(Code::E094, span, format!("Templates do not support {} (§10.2).", kind.describe()));
            match kind {
                TagKind::Unclosed => d.help("Close the tag with `}}`."),
                TagKind::Unescaped => d.help("Use `{{name}}`; values are always escaped."),
                _ => d.help("Templates use variables, sections, inverted sections, comments and {{#each}}."),
            };
        }
        ErrorKind::InvalidName => {
            cx.error(Code::E094, span, "This tag does not name a variable.")
                .help("Write a variable of the closed set, e.g. `{{grain.content}}`.");
        }
        ErrorKind::EachForm => {
            cx.error(Code::E094, span, "`each` is only used as `{{#each}}` … `{{/each}}`, without an argument.")
                .help("Write `{{#each}}` … `{{/each}}`.");
        }
        ErrorKind::Unclosed => {
            let name = &e.names.0;
            cx.error(Code::E091, span, format!("The section `{name}` is opened but never closed."))
                .help(format!("Close it with `{{{{/{name}}}}}` in the same {} section.", s.kind.as_str()));
        }
        ErrorKind::Unopened => {
            let name = &e.names.1;
            cx.error(Code::E091, span, format!("`{{{{/{name}}}}}` closes a section that is not open."))
                .help(format!("Open it with `{{{{#{name}}}}}` first, or remove this tag."));
        }
        ErrorKind::Mismatched => {
            let (open, close) = &e.names;
            let d = cx.error(
                Code::E091,
                span,
                format!("`{{{{/{close}}}}}` closes `{close}`, but the innermost open section is `{open}`."),
            );
            d.help(format!("Close `{open}` first: sections nest, they do not overlap."));
            if let Some(r) = &e.related {
                d.note(at(s, r), format!("`{open}` opened here"));
            }
        }
        ErrorKind::TooDeep => {
            cx.error(
                Code::E093,
                span,
                format!(
                    "This section is nested {} deep; at most {} levels are allowed (§10.8).",
                    limits::MAX_TEMPLATE_NESTING + 1,
                    limits::MAX_TEMPLATE_NESTING
                ),
            )
            .help("Flatten the template: combine conditions or move them to another section.");
        }
    }
}

fn unknown_variable(cx: &mut Checker<'_>, s: &TemplateSection, name: &str, r: &Range<usize>) {
    let names = VARIABLES.iter().map(|v| v.name);
    let suggestion = did_you_mean(name, names.clone())
        .or_else(|| VARIABLES.iter().map(|v| v.name).find(|v| v.rsplit('.').next() == Some(name)));
    let d = cx.error(Code::E090, at(s, r), format!("`{name}` is not a template variable (§10.5)."));
    match suggestion {
        Some(v) => {
            d.help(format!("Did you mean `{v}`?")).fix(v);
        }
        None => {
            d.help("Template variables are a closed set: assembly.*, budget.*, disclosure.level, timestamp, source.* and grain.*.");
        }
    }
    d.valid(names);
}

/// CAL-E096: ELEMENT branching on `grain.is_summary` while ELEMENT_SUMMARY exists.
fn conflicts(cx: &mut Checker<'_>, body: &TemplateBody) {
    let Some(summary) = body.sections.iter().find(|s| s.kind == TemplateSectionKind::ElementSummary) else { return };
    for element in body.sections.iter().filter(|s| s.kind == TemplateSectionKind::Element) {
        for tag in template::parse(&element.text).tags {
            if matches!(tag.kind, TagKind::Section | TagKind::Inverted) && tag.name == Var::GrainIsSummary.as_str() {
                cx.error(
                    Code::E096,
                    at(element, &tag.span),
                    "ELEMENT tests `grain.is_summary`, but ELEMENT_SUMMARY already renders summary-level grains: the two sections conflict.",
                )
                .help("Render summary-level grains in one place: drop this section from ELEMENT, or drop ELEMENT_SUMMARY.")
                .note(keyword_span(summary), "ELEMENT_SUMMARY defined here");
            }
        }
    }
}
