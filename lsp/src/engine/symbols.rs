//! `textDocument/documentSymbol`: each query, its LET bindings and its ASSEMBLE sources.

use cal_grammar::Span;
use cal_parser::ast::{Document, QueryBody, SourceBody, Statement};
use cal_parser::print::{recall_to_text, statement_to_text};

/// What a symbol is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymbolKind {
    /// A query (its statement).
    Query,
    /// A LET binding.
    Let,
    /// An ASSEMBLE source.
    Source,
    /// A template definition.
    Template,
}

/// One entry of the outline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    /// Shown name.
    pub name: String,
    /// One line of detail.
    pub detail: String,
    /// Kind.
    pub kind: SymbolKind,
    /// Whole extent.
    pub span: Span,
    /// The name's extent (within `span`).
    pub selection: Span,
    /// Nested symbols.
    pub children: Vec<Symbol>,
}

fn first_line(s: &str) -> String {
    let line = s.lines().next().unwrap_or("");
    if line.chars().count() > 60 {
        format!("{}…", line.chars().take(60).collect::<String>())
    } else {
        line.to_string()
    }
}

/// The outline of a parsed document.
pub fn symbols(doc: &Document) -> Vec<Symbol> {
    doc.queries
        .iter()
        .map(|q| {
            let mut children: Vec<Symbol> = q
                .lets
                .iter()
                .map(|l| Symbol {
                    name: format!("${}", l.name.name),
                    detail: first_line(&recall_to_text(&l.recall)),
                    kind: SymbolKind::Let,
                    span: l.span,
                    selection: l.name.span,
                    children: Vec::new(),
                })
                .collect();
            let (name, detail, kind, selection) = match &q.body {
                QueryBody::Statement(s) => {
                    if let Statement::Assemble(a) = s {
                        children.extend(a.sources.iter().enumerate().map(|(i, src)| {
                            let (name, selection) = match (&src.label, &src.body) {
                                (Some(l), _) => (l.name.to_string(), l.span),
                                (None, SourceBody::LetRef(r)) => (format!("${}", r.name), r.span),
                                (None, _) => (format!("source {}", i + 1), src.span),
                            };
                            let detail = match &src.body {
                                SourceBody::Recall(r) => first_line(&recall_to_text(r)),
                                SourceBody::LetRef(r) => format!("${}", r.name),
                            };
                            Symbol {
                                name,
                                detail,
                                kind: SymbolKind::Source,
                                span: src.span,
                                selection,
                                children: Vec::new(),
                            }
                        }));
                    }
                    let name = match s {
                        Statement::Assemble(a) => {
                            format!("ASSEMBLE {}", a.name.as_ref().map_or("", |n| n.name.as_str()))
                        }
                        other => other.kind_name().to_uppercase(),
                    };
                    (name.trim().to_string(), first_line(&statement_to_text(s)), SymbolKind::Query, s.span())
                }
                QueryBody::DefineTemplate(d) => {
                    (format!("TEMPLATE {}", d.name.name), String::new(), SymbolKind::Template, d.name.span)
                }
            };
            Symbol { name, detail, kind, span: q.span, selection, children }
        })
        .collect()
}
