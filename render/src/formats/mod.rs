//! The seven output formats of §10.1, one module each. Every format renders
//! the same [`Doc`]: either a RECALL result (a list of elements) or an
//! ASSEMBLE result (named sources in priority order). Presets resolve to
//! formats first (`readable` → `markdown`).

pub mod json;
pub mod markdown;
pub mod sml;
pub mod text;
pub mod toon;
pub mod triples;
pub mod yaml;

use cal_grammar::FormatName;
use cal_grammar::fields::projection;

use crate::project::{Attr, Element, ProjectionOptions};

/// One ASSEMBLE source after budget selection.
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    /// The source label from the FROM clause.
    pub label: String,
    /// Its elements, in rank order.
    pub elements: Vec<Element>,
}

/// An ASSEMBLE result ready to format.
#[derive(Debug, Clone, PartialEq)]
pub struct Assembly {
    /// The context name (`ASSEMBLE user_context`).
    pub name: String,
    /// The FOR text, if any.
    pub intent: Option<String>,
    /// Sources in priority order, highest first.
    pub sources: Vec<Source>,
    /// Tokens used, for formats that print it (TOON's `tokens:` line).
    pub tokens_used: usize,
    /// The token budget, for formats that print it.
    pub tokens_total: usize,
}

/// What a format renders.
#[derive(Debug, Clone, Copy)]
pub enum Doc<'a> {
    /// A RECALL result.
    Recall(&'a [Element]),
    /// An ASSEMBLE result.
    Assemble(&'a Assembly),
}

/// Renders `doc` in `format` (presets resolved). TOON needs the disclosure level and the
/// PROJECT attribute list to choose its columns; the other formats read the elements only.
pub fn render(format: FormatName, doc: Doc<'_>, opts: &ProjectionOptions) -> String {
    match format.resolve() {
        FormatName::Sml => sml::render(doc),
        FormatName::Markdown => markdown::render(doc),
        FormatName::Text => text::render(doc),
        FormatName::Json => json::render(doc),
        FormatName::Yaml => yaml::render(doc),
        FormatName::Triples => triples::render(doc),
        _ => toon::render_with(doc, opts.disclosure, opts.project.as_ref().map(|p| p.attrs.as_slice())),
    }
}

/// The element's "lead" attributes (those §10.3.2 shows at every level: subject, role, tool,
/// grantor…) and the rest, for the formats that write an element as a line of prose.
pub(crate) fn split_attrs(el: &Element) -> (Vec<&Attr>, Vec<&Attr>) {
    let lead_names: Vec<&str> = el
        .grain_type
        .map(|t| projection(t).attrs.iter().filter(|a| !a.detail).map(|a| a.attr).collect())
        .unwrap_or_default();
    el.attrs.iter().partition(|a| lead_names.contains(&a.name.as_str()) && a.name != "action")
}

/// Text on one line: the prose formats (sml, markdown, text) write one element per line, so a
/// line break inside grain content or an attribute value becomes a space there. The data
/// formats (json, yaml, toon, triples) keep it, escaped.
pub(crate) fn one_line(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains(['\n', '\r']) {
        return std::borrow::Cow::Borrowed(s);
    }
    std::borrow::Cow::Owned(s.replace("\r\n", " ").replace(['\n', '\r'], " "))
}

/// Attributes written as a bare value in prose formats (`(active)` rather than `(state: active)`).
pub(crate) fn is_bare(name: &str) -> bool {
    cal_grammar::fields::BARE_ATTRS.contains(&name)
}

/// `Beliefs` from `beliefs`, `Recent events` from `recent_events`.
pub(crate) fn heading(label: &str) -> String {
    let words = label.replace('_', " ");
    let mut c = words.chars();
    c.next().map_or_else(String::new, |f| f.to_uppercase().collect::<String>() + c.as_str())
}

/// Elements grouped by type, groups in order of first appearance (RECALL output).
pub(crate) fn group_by_type(elements: &[Element]) -> Vec<(&str, Vec<&Element>)> {
    let mut groups: Vec<(&str, Vec<&Element>)> = Vec::new();
    for e in elements {
        match groups.iter_mut().find(|(g, _)| *g == e.group) {
            Some((_, v)) => v.push(e),
            None => groups.push((&e.group, vec![e])),
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::project::Scalar;
    use cal_grammar::GrainType;

    fn multi_line() -> Element {
        Element {
            grain_type: Some(GrainType::Belief),
            tag: "belief".into(),
            group: "beliefs".into(),
            content: "alice prefers\ndark mode\r\nat night".into(),
            attrs: vec![Attr { name: "subject".into(), value: Scalar::Str("alice\nsmith".into()) }],
            triple: ("alice".into(), "prefers".into(), "dark mode".into()),
        }
    }

    #[test]
    fn prose_formats_keep_one_element_per_line() {
        let els = [multi_line(), multi_line()];
        let opts = ProjectionOptions::default();
        for format in [FormatName::Sml, FormatName::Markdown, FormatName::Text] {
            let out = render(format, Doc::Recall(&els), &opts);
            let element_lines = out.lines().filter(|l| l.contains("alice")).count();
            assert_eq!(element_lines, 2, "{format:?}:\n{out}");
            assert!(out.contains("alice prefers dark mode at night"), "{format:?}:\n{out}");
        }
    }

    #[test]
    fn data_formats_keep_line_breaks() {
        let els = [multi_line()];
        let out = render(FormatName::Json, Doc::Recall(&els), &ProjectionOptions::default());
        assert!(out.contains(r"alice prefers\ndark mode"), "{out}");
    }
}
