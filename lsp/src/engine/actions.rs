//! `textDocument/codeAction`: quick fixes from the checker's machine-applicable
//! `replacement`s ("did you mean `beliefs`?", an excluded DELETE, a missing
//! REASON), and, where only a corrected `example` exists, replacing the query.

use super::Edit;
use cal_grammar::{Diagnostic, Span};
use cal_parser::ast::Document;

/// One quick fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Action {
    /// What the menu shows.
    pub title: String,
    /// The edits.
    pub edits: Vec<Edit>,
    /// The diagnostic it fixes.
    pub diagnostic: Diagnostic,
    /// True when it is the obvious fix (one replacement for one diagnostic).
    pub preferred: bool,
}

/// Quick fixes for the diagnostics that overlap `range`.
pub fn actions(text: &str, document: Option<&Document>, diagnostics: &[Diagnostic], range: Span) -> Vec<Action> {
    diagnostics
        .iter()
        .filter(|d| d.span.start <= range.end && range.start <= d.span.end)
        .filter_map(|d| {
            if let Some(fix) = &d.replacement {
                let shown = if fix.is_empty() { "remove it".to_string() } else { format!("`{}`", fix.trim()) };
                let title = match &d.suggestion {
                    Some(s) => format!("{}: {} ({s})", d.code, shown),
                    None => format!("{}: replace with {shown}", d.code),
                };
                return Some(Action {
                    title,
                    edits: vec![Edit { span: d.span, text: fix.clone() }],
                    diagnostic: d.clone(),
                    preferred: true,
                });
            }
            let example = d.example.as_ref()?;
            if cal_parser::parse_query(example).has_errors() {
                return None;
            }
            let query = document?.queries.iter().find(|q| q.span.start <= d.span.start && d.span.end <= q.span.end)?;
            (text.get(query.span.range()) != Some(example.as_str())).then(|| Action {
                title: format!("{}: use the corrected query", d.code),
                edits: vec![Edit { span: query.span, text: example.clone() }],
                diagnostic: d.clone(),
                preferred: false,
            })
        })
        .collect()
}
