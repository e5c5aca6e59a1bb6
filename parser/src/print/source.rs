//! Formatting a `.cal` file as written: the canonical printer plus the comments.
//!
//! The AST has no comments, so [`document_to_text`](super::document_to_text) alone
//! would delete every one, and a formatter must never delete what a person wrote.
//! [`format_source`] keeps them:
//!
//! * comments between queries (and before the first, after the last) stay, each on
//!   its own line in the order written; a comment that shared its line with the end
//!   of a query stays at the end of that line, after the `;`;
//! * a blank line written before a comment or a query is kept (one, however many
//!   were written); queries are separated by one blank line, as in the canonical
//!   document form;
//! * a query with a comment *inside* it is kept exactly as written, and reported in
//!   [`Formatted::kept_as_written`]: the printer lays a query out from its tree, and
//!   there is no place in the tree a comment could be carried to. Moving the comment
//!   above the query lets it be formatted;
//! * so is a query whose canonical text would be longer than a query may be (§17.3)
//!   while the text as written is not: canonical spacing (`a > 1` for `a>1`, `| LIMIT`
//!   for `LIMIT`) can add what even the one-line form cannot take back, and `cal fmt`
//!   must not turn a query that runs into one refused with CAL-E001.
//!
//! A file without comments formats to exactly `document_to_text`.

use super::query_to_text;
use crate::ast::Document;
use cal_grammar::Span;
use cal_grammar::limits::MAX_QUERY_BYTES;
use cal_lexer::Token;

/// A file formatted with its comments kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Formatted {
    /// The formatted text, ending with a newline (empty for an empty file).
    pub text: String,
    /// The queries left as written (their spans in the input, and why), in source order.
    pub kept_as_written: Vec<(Span, Kept)>,
}

/// Why a query was left as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kept {
    /// A comment lies inside it.
    Comment,
    /// Its canonical text would pass the length limit that the text as written keeps.
    Length,
}

/// A `--` comment of the input.
#[derive(Debug, Clone, Copy)]
struct Comment {
    /// From `--` to the end of its line, trailing whitespace excluded.
    span: Span,
    /// It follows code on its own line (the end of a query, a `;`).
    after_code: bool,
    /// A blank line separates it from what came before it.
    blank_before: bool,
}

/// Formats `text`, which parsed without errors into `document`, keeping its comments.
/// Linear in the size of the file (tokens, comments and queries are each in source order).
pub fn format_source(text: &str, document: &Document) -> Formatted {
    let tokens = cal_lexer::lex(text).tokens;
    let comments = comments(text, &tokens);
    let spans: Vec<Span> = comments.iter().map(|c| c.span).collect();
    let mut out = String::new();
    let mut kept_as_written = Vec::new();
    // Comments outside every query, in order; each query takes those before it.
    let queries = &document.queries;
    let mut pending = comments.iter().filter(|c| {
        let q = queries.partition_point(|q| q.span.start <= c.span.start);
        q == 0 || queries[q - 1].span.end < c.span.end
    });
    let mut next = pending.next();
    let mut after_query = false;
    for (i, query) in queries.iter().enumerate() {
        // The comment sharing its line with the end of the previous query.
        if let Some(c) = next.filter(|c| c.after_code && after_query && c.span.end <= query.span.start) {
            out.push(' ');
            out.push_str(&text[c.span.range()]);
            next = pending.next();
        }
        if i > 0 {
            out.push_str("\n\n");
        }
        let mut first_line = i == 0;
        while let Some(c) = next.filter(|c| c.span.end <= query.span.start) {
            if c.blank_before && !first_line && !out.ends_with("\n\n") {
                out.push('\n');
            }
            out.push_str(&text[c.span.range()]);
            out.push('\n');
            first_line = false;
            next = pending.next();
        }
        if !first_line && blank_line_before(text, &tokens, query.span.start) && !out.ends_with("\n\n") {
            out.push('\n');
        }
        let written = &text[query.span.range()];
        if comment_inside(&spans, query.span) {
            out.push_str(written);
            kept_as_written.push((query.span, Kept::Comment));
        } else {
            let printed = query_to_text(query);
            if printed.len() > MAX_QUERY_BYTES && written.len() <= MAX_QUERY_BYTES {
                out.push_str(written);
                kept_as_written.push((query.span, Kept::Length));
            } else {
                out.push_str(&printed);
            }
        }
        if i + 1 < queries.len() {
            out.push(';');
        }
        after_query = true;
    }
    // What follows the last query: a comment on its line, then the rest, one per line.
    if let Some(c) = next.filter(|c| c.after_code && after_query) {
        out.push(' ');
        out.push_str(&text[c.span.range()]);
        next = pending.next();
    }
    while let Some(c) = next {
        if !out.is_empty() {
            out.push('\n');
            if c.blank_before {
                out.push('\n');
            }
        }
        out.push_str(&text[c.span.range()]);
        next = pending.next();
    }
    if !out.is_empty() {
        out.push('\n');
    }
    Formatted { text: out, kept_as_written }
}

/// The spans of the `--` comments of `text` (lexed into `tokens`), in order.
pub fn comment_spans(text: &str, tokens: &[(Token<'_>, Span)]) -> Vec<Span> {
    comments(text, tokens).iter().map(|c| c.span).collect()
}

/// True when one of `comments` (in order, from [`comment_spans`]) lies inside `span`:
/// such a query cannot be reprinted without losing it.
pub fn comment_inside(comments: &[Span], span: Span) -> bool {
    let first = comments.partition_point(|c| c.start < span.start);
    comments.get(first).is_some_and(|c| c.end <= span.end)
}

/// Every comment of `text`, found in the gaps between its tokens (a `--` inside a
/// string or template text is part of that token).
fn comments(text: &str, tokens: &[(Token<'_>, Span)]) -> Vec<Comment> {
    let mut found = Vec::new();
    let mut at = 0usize;
    let ends = tokens.iter().map(|(_, s)| (s.start as usize, s.end as usize)).chain([(text.len(), text.len())]);
    for (start, end) in ends {
        let mut gap_from = at;
        let mut code_before = at > 0;
        while let Some(dash) = text.get(gap_from..start).and_then(|g| g.find("--")) {
            let from = gap_from + dash;
            let line_end = text[from..start].find(['\r', '\n']).map_or(start, |n| from + n);
            let space = &text[gap_from..from];
            let trimmed = text[from..line_end].trim_end();
            found.push(Comment {
                span: Span::new(from, from + trimmed.len()),
                after_code: code_before && line_breaks(space) == 0,
                blank_before: line_breaks(space) >= 2,
            });
            gap_from = line_end;
            code_before = false;
        }
        at = end;
    }
    found
}

/// True when the whitespace just before the token starting at `start` holds a blank line.
fn blank_line_before(text: &str, tokens: &[(Token<'_>, Span)], start: u32) -> bool {
    let before = tokens.partition_point(|(_, s)| s.start < start);
    let previous_end = before.checked_sub(1).map_or(0, |i| tokens[i].1.end as usize);
    let gap = &text[previous_end..start as usize];
    // Only the whitespace after the last comment of the gap counts.
    let tail = gap.rfind("--").map_or(gap, |c| &gap[c..]);
    let tail = tail.find(['\r', '\n']).map_or("", |n| &tail[n..]);
    line_breaks(tail) >= 2
}

/// How many line ends `s` holds: `\n`, `\r\n` and a lone `\r` count one each.
fn line_breaks(s: &str) -> usize {
    let b = s.as_bytes();
    b.iter().enumerate().filter(|&(i, &c)| c == b'\n' || (c == b'\r' && b.get(i + 1) != Some(&b'\n'))).count()
}
