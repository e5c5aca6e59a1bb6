//! Document and range formatting with the canonical printer of `cal fmt`.
//!
//! The printer works on the AST, which has no comments; an editor must never
//! delete what a person wrote. Whole-document formatting is exactly `cal fmt`
//! (`cal_parser::print::format_in_stretches`: comments kept, a query with a comment
//! inside left as written). Range formatting reprints each query in range on its
//! own, again leaving one with a comment inside as written; the text between
//! queries is not touched. A document with syntax errors is not formatted at all
//! (as `cal fmt` refuses it).
//!
//! Both read the document a stretch at a time, as `cal fmt` does (issue 19): once for
//! its diagnostics, once to format, holding no more than one stretch's tokens and trees.

use super::Edit;
use cal_grammar::{Diagnostic, Span};
use cal_parser::print::{FORMAT_STRETCH_TOKENS, comment_spans, format_in_stretches, query_to_text};

/// Edits that format the queries overlapping `range` (the whole document for `None`).
pub fn format(text: &str, range: Option<Span>) -> Vec<Edit> {
    if cal_parser::document_diagnostics(text).iter().any(Diagnostic::is_error) {
        return Vec::new();
    }
    let Some(range) = range else {
        let formatted = format_in_stretches(text, FORMAT_STRETCH_TOKENS).text;
        return if formatted == text {
            Vec::new()
        } else {
            vec![Edit { span: Span::new(0, text.len()), text: formatted }]
        };
    };
    let mut edits = Vec::new();
    for piece in cal_parser::stream::DocumentReader::new(text) {
        for q in piece.queries.iter().filter(|q| q.span.start <= range.end && range.start <= q.span.end) {
            let Some(written) = text.get(q.span.range()) else { continue };
            // A comment inside the query lies between its tokens: lexing its own text finds it.
            if !comment_spans(written, &cal_lexer::lex(written).tokens).is_empty() {
                continue;
            }
            let printed = query_to_text(q);
            if written != printed {
                edits.push(Edit { span: q.span, text: printed });
            }
        }
        if piece.queries.last().is_some_and(|q| q.span.start > range.end) {
            break;
        }
    }
    edits
}
