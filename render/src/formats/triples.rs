//! Triples: one `subject | relation | object` line per grain (§10.1), the
//! relation humanized (§10.3.3). Grain types without a triple use their lead
//! attribute as subject and the type as relation. Attributes other than the
//! subject follow as `| name=value`. A `|` inside a value is written `\|`.

use super::Doc;
use crate::project::Element;

fn esc(s: &str) -> String {
    s.replace('\\', "\\\\").replace('|', "\\|").replace('\n', "\\n")
}

/// One grain as one line.
pub fn element(el: &Element) -> String {
    let (s, r, o) = &el.triple;
    let mut line = format!("{} | {} | {}", esc(s), esc(r), esc(o));
    for a in el.attrs.iter().filter(|a| a.name != cal_grammar::fields::names::SUBJECT) {
        line.push_str(&format!(" | {}={}", a.name, esc(&a.value.text())));
    }
    line
}

/// Renders a document; ASSEMBLE output starts with a `# context: name` line and puts a
/// `# label` line before each source.
pub fn render(doc: Doc<'_>) -> String {
    let mut lines = Vec::new();
    match doc {
        Doc::Recall(els) => lines.extend(els.iter().map(element)),
        Doc::Assemble(a) => {
            lines.push(format!("# context: {}", a.name));
            for s in &a.sources {
                lines.push(format!("# {}", s.label));
                lines.extend(s.elements.iter().map(element));
            }
        }
    }
    lines.join("\n")
}
