//! Plain text, the `compact` preset (§14.2): one line per grain,
//! `[belief] alice prefers dark mode (0.92)`, no headings, the fewest tokens
//! of the prose formats.

use super::{Doc, one_line, split_attrs};
use crate::project::Element;

/// One grain as one line.
pub fn element(el: &Element) -> String {
    let (lead, rest) = split_attrs(el);
    let lead: Vec<String> = lead.iter().map(|a| one_line(&a.value.text()).into_owned()).collect();
    let mut s = format!("[{}] ", el.tag);
    if !lead.is_empty() {
        s.push_str(&lead.join(" "));
        s.push_str(if el.tag == "belief" { " " } else { ": " });
    }
    s.push_str(&one_line(&el.content));
    let paren: Vec<String> = rest.iter().map(|a| one_line(&a.value.text()).into_owned()).collect();
    if !paren.is_empty() {
        s.push_str(&format!(" ({})", paren.join(", ")));
    }
    s
}

/// Renders a document.
pub fn render(doc: Doc<'_>) -> String {
    let lines: Vec<String> = match doc {
        Doc::Recall(els) => els.iter().map(element).collect(),
        Doc::Assemble(a) => a.sources.iter().flat_map(|s| s.elements.iter().map(element)).collect(),
    };
    lines.join("\n")
}
