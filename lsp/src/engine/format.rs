//! Document and range formatting with the canonical printer of `cal fmt`.
//!
//! The printer works on the AST, which has no comments. `cal fmt` prints a
//! whole file and so drops them; an editor must never delete what a person
//! wrote, so here each query is reprinted on its own and a query with a
//! comment inside is left as written. Comments between queries survive
//! because only query spans are replaced. A document with syntax errors is
//! not formatted at all (as `cal fmt` refuses it).

use super::Edit;
use cal_grammar::Span;
use cal_parser::print::{document_to_text, query_to_text};

/// Edits that format the queries overlapping `range` (the whole document for `None`).
pub fn format(text: &str, range: Option<Span>) -> Vec<Edit> {
    let parsed = cal_parser::parse_document(text);
    if parsed.has_errors() {
        return Vec::new();
    }
    let Some(doc) = parsed.ast else { return Vec::new() };
    let tokens = cal_lexer::lex(text).tokens;
    if range.is_none() && !has_comment(text, &tokens, Span::new(0, text.len())) {
        let formatted = document_to_text(&doc);
        return if formatted == text {
            Vec::new()
        } else {
            vec![Edit { span: Span::new(0, text.len()), text: formatted }]
        };
    }
    doc.queries
        .iter()
        .filter(|q| range.is_none_or(|r| q.span.start <= r.end && r.start <= q.span.end))
        .filter(|q| !has_comment(text, &tokens, q.span))
        .filter_map(|q| {
            let printed = query_to_text(q);
            (text.get(q.span.range()) != Some(printed.as_str())).then_some(Edit { span: q.span, text: printed })
        })
        .collect()
}

/// True when a `--` comment lies between two tokens inside `span`.
fn has_comment(text: &str, tokens: &[(cal_lexer::Token<'_>, Span)], span: Span) -> bool {
    let mut prev = span.start as usize;
    let inside = tokens.iter().filter(|(_, s)| s.start >= span.start && s.end <= span.end);
    for (_, s) in inside {
        if text.get(prev..s.start as usize).is_some_and(|gap| gap.contains("--")) {
            return true;
        }
        prev = s.end as usize;
    }
    text.get(prev..span.end as usize).is_some_and(|gap| gap.contains("--"))
}
