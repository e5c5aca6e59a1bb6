//! Markdown, the `readable` preset and ASSEMBLE's default (§10.1, §14.2):
//! `## Context: <intent>`, a bold heading per source (per type for RECALL),
//! one bullet per grain with its detail attributes in parentheses.

use super::{Doc, group_by_type, heading, is_bare, one_line, split_attrs};
use crate::project::Element;

/// The context heading of an ASSEMBLE.
pub fn header(intent: &str) -> String {
    format!("## Context: {intent}")
}

/// A group heading (`**Beliefs**`).
pub fn source_heading(label: &str) -> String {
    format!("**{}**", heading(label))
}

/// One grain as a bullet: `- alice prefers dark mode (confidence: 0.92)`,
/// `- alice: complete Q1 review (active)`.
pub fn element(el: &Element) -> String {
    let (lead, rest) = split_attrs(el);
    let lead: Vec<String> = lead.iter().map(|a| one_line(&a.value.text()).into_owned()).collect();
    let mut s = String::from("- ");
    if !lead.is_empty() {
        s.push_str(&lead.join(" "));
        s.push_str(if el.tag == "belief" { " " } else { ": " });
    }
    s.push_str(&one_line(&el.content));
    let paren: Vec<String> = rest
        .iter()
        .map(|a| {
            if is_bare(&a.name) {
                one_line(&a.value.text()).into_owned()
            } else {
                format!("{}: {}", a.name, one_line(&a.value.text()).into_owned())
            }
        })
        .collect();
    if !paren.is_empty() {
        s.push_str(&format!(" ({})", paren.join(", ")));
    }
    s
}

/// Renders a document; groups are separated by one blank line.
pub fn render(doc: Doc<'_>) -> String {
    let mut blocks: Vec<String> = Vec::new();
    match doc {
        Doc::Recall(els) => {
            for (group, items) in group_by_type(els) {
                let mut b = vec![source_heading(group)];
                b.extend(items.into_iter().map(element));
                blocks.push(b.join("\n"));
            }
        }
        Doc::Assemble(a) => {
            blocks.push(header(a.intent.as_deref().unwrap_or(&a.name)));
            for s in a.sources.iter().filter(|s| !s.elements.is_empty()) {
                let mut b = vec![source_heading(&s.label)];
                b.extend(s.elements.iter().map(element));
                blocks.push(b.join("\n"));
            }
        }
    }
    blocks.join("\n\n")
}
