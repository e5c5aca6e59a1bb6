//! SML, the `structured` preset (§10.4, §14.2): flat semantic tags, one
//! `<context intent=…>` envelope, one element per grain, no group wrappers.
//! Attribute values escape `& < > "`; text content escapes `& < >`, so no
//! grain text can open or close a tag.

use super::{Doc, Source, one_line};
use crate::project::Element;

/// `&`, `<`, `>` and `"` as entities (attribute values), on one line.
pub fn escape_attr(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in one_line(s).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// `&`, `<` and `>` as entities (text content), on one line.
pub fn escape_text(s: &str) -> String {
    one_line(s).replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Element and attribute names come from closed tables or PROJECT field names; anything else
/// is reduced to name characters so it cannot break the markup.
fn name(s: &str) -> String {
    s.chars().filter(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ':' | '.')).collect()
}

/// The opening line of the envelope.
pub fn header(intent: Option<&str>) -> String {
    match intent {
        Some(i) => format!("<context intent=\"{}\">", escape_attr(i)),
        None => "<context>".to_string(),
    }
}

/// The closing line of the envelope.
pub fn footer() -> String {
    "</context>".to_string()
}

/// One grain as one line.
pub fn element(el: &Element) -> String {
    let tag = name(&el.tag);
    let mut s = format!("<{tag}");
    for a in &el.attrs {
        s.push_str(&format!(" {}=\"{}\"", name(&a.name), escape_attr(&a.value.text())));
    }
    s.push_str(&format!(">{}</{tag}>", escape_text(&el.content)));
    s
}

/// Renders a document.
pub fn render(doc: Doc<'_>) -> String {
    let mut lines = Vec::new();
    match doc {
        Doc::Recall(els) => {
            lines.push(header(None));
            lines.extend(els.iter().map(element));
        }
        Doc::Assemble(a) => {
            lines.push(header(a.intent.as_deref()));
            lines.extend(a.sources.iter().flat_map(|s: &Source| s.elements.iter().map(element)));
        }
    }
    lines.push(footer());
    lines.join("\n")
}
