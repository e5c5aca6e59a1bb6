//! Document and range formatting with the canonical printer of `cal fmt`.
//!
//! The printer works on the AST, which has no comments; an editor must never
//! delete what a person wrote. Whole-document formatting is exactly `cal fmt`
//! (`cal_parser::print::format_source`: comments kept, a query with a comment
//! inside left as written). Range formatting reprints each query in range on its
//! own, again leaving one with a comment inside as written; the text between
//! queries is not touched. A document with syntax errors is not formatted at all
//! (as `cal fmt` refuses it).

use super::Edit;
use cal_grammar::Span;
use cal_parser::print::{comment_inside, comment_spans, format_source, query_to_text};

/// Edits that format the queries overlapping `range` (the whole document for `None`).
pub fn format(text: &str, range: Option<Span>) -> Vec<Edit> {
    let parsed = cal_parser::parse_document(text);
    if parsed.has_errors() {
        return Vec::new();
    }
    let Some(doc) = parsed.ast else { return Vec::new() };
    let Some(range) = range else {
        let formatted = format_source(text, &doc).text;
        return if formatted == text {
            Vec::new()
        } else {
            vec![Edit { span: Span::new(0, text.len()), text: formatted }]
        };
    };
    let comments = comment_spans(text, &cal_lexer::lex(text).tokens);
    doc.queries
        .iter()
        .filter(|q| q.span.start <= range.end && range.start <= q.span.end)
        .filter(|q| !comment_inside(&comments, q.span))
        .filter_map(|q| {
            let printed = query_to_text(q);
            (text.get(q.span.range()) != Some(printed.as_str())).then_some(Edit { span: q.span, text: printed })
        })
        .collect()
}
