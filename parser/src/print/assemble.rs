//! ASSEMBLE (always one clause per line, one source per line), format specs,
//! STREAM, and template sections (shared with DEFINE TEMPLATE).

use super::recall::{recall, with_clause};
use super::values::quoted;
use super::{Ctx, newline};
use crate::ast::*;

/// `ASSEMBLE [name]` followed by its clauses, each on its own line.
pub(crate) fn assemble(a: &Assemble, cx: Ctx) -> String {
    let mut out = String::from("ASSEMBLE");
    if let Some(n) = &a.name {
        out.push(' ');
        out.push_str(&n.name);
    }
    let inner = cx.inner();
    if let Some(s) = &a.intent {
        newline(&mut out, inner);
        out.push_str("FOR ");
        out.push_str(&quoted(&s.value));
    }
    if !a.sources.is_empty() {
        newline(&mut out, inner);
        out.push_str("FROM");
        let last = a.sources.len() - 1;
        for (i, s) in a.sources.iter().enumerate() {
            newline(&mut out, inner + 2);
            let comma = usize::from(i != last);
            out.push_str(&source(s, Ctx::line(inner + 2).with_tail(comma)));
            if i != last {
                out.push(',');
            }
        }
    }
    if let Some(b) = &a.budget {
        newline(&mut out, inner);
        out.push_str(&format!("BUDGET {} {}", b.amount.value, b.unit.as_str()));
    }
    if let Some(p) = &a.priority {
        newline(&mut out, inner);
        let labels: Vec<&str> = p.labels.iter().map(|l| l.name.as_str()).collect();
        out.push_str(&format!("PRIORITY {}", labels.join(" > ")));
    }
    if let Some(f) = &a.format {
        newline(&mut out, inner);
        out.push_str(&format_spec(&f.kind, inner));
    }
    if let Some(s) = &a.stream {
        newline(&mut out, inner);
        out.push_str(&stream(s));
    }
    if let Some(w) = &a.with {
        newline(&mut out, inner);
        out.push_str(&with_clause(w, Ctx::line(inner)));
    }
    out
}

/// `[label: ](RECALL …)` or `[label: ]$name`.
fn source(s: &Source, cx: Ctx) -> String {
    let mut out = String::new();
    if let Some(l) = &s.label {
        out.push_str(&l.name);
        out.push_str(": ");
    }
    match &s.body {
        SourceBody::Recall(r) => {
            out.push('(');
            let body = recall(r, cx.after(out.len()).with_tail(1));
            out.push_str(&body);
            out.push(')');
        }
        SourceBody::LetRef(name) => {
            out.push('$');
            out.push_str(&name.name);
        }
    }
    out
}

/// `FORMAT name`, `FORMAT TEMPLATE name`, or an inline template, its sections one per line.
fn format_spec(kind: &FormatKind, indent: usize) -> String {
    match kind {
        FormatKind::Named(f) => format!("FORMAT {}", f.as_str()),
        FormatKind::Template(name) => format!("FORMAT TEMPLATE {}", name.name),
        FormatKind::Inline(body) => {
            let mut out = String::from("FORMAT TEMPLATE {");
            for s in &body.sections {
                newline(&mut out, indent + 2);
                out.push_str(&section(s));
            }
            newline(&mut out, indent);
            out.push('}');
            out
        }
    }
}

/// `STREAM` or `STREAM { option, … }`.
fn stream(s: &Stream) -> String {
    if s.options.is_empty() {
        return "STREAM".into();
    }
    let options: Vec<String> = s
        .options
        .iter()
        .map(|o| match &o.kind {
            StreamOptionKind::Events(e) => e.as_str().to_string(),
            StreamOptionKind::ChunkSize(n) => format!("chunk_size = {}", n.value),
        })
        .collect();
    format!("STREAM {{ {} }}", options.join(", "))
}

/// `ELEMENT {<raw text>}`: the text between the braces is printed exactly as stored.
pub(crate) fn section(s: &TemplateSection) -> String {
    format!("{} {{{}}}", s.kind.as_str(), s.text)
}
