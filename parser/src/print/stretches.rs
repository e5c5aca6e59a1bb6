//! [`format_source`] a stretch of the document at a time, for documents too large to hold
//! every tree at once (issue 19: `cal fmt` of 209,000 queries held 257 MB).
//!
//! A stretch ends after a `;` where the canonical text does not depend on what is on either
//! side: the `;` ends a query (no bracket open, not a LET binding's: `crate::stream`), no
//! comment stands between it and the tokens around it, and a query follows. There the
//! whole document's formatting writes the query, `;`, a blank line and the next query with
//! nothing else between, which is what joining the stretches' formatting writes
//! (`parser/tests/format_stretches.rs` checks it against the whole on the corpus).

use super::{Formatted, format_source};
use cal_grammar::Span;
use cal_lexer::{Token, lex_tokens, recycle};

/// Tokens per stretch, about.
pub const FORMAT_STRETCH_TOKENS: usize = 16 * 1024;

/// Formats `text`, which parses without errors, as [`format_source`] does, holding one
/// stretch of about `stretch` tokens at a time.
pub fn format_in_stretches(text: &str, stretch: usize) -> Formatted {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let mut kept_as_written = Vec::new();
    let mut from = 0;
    let cuts = cuts(text, stretch);
    let last = cuts.len();
    for (k, end) in cuts.into_iter().chain(std::iter::once(text.len())).enumerate() {
        let sub = &text[from..end];
        let document = crate::parse_document(sub).ast.unwrap_or(crate::ast::Document { queries: Vec::new() });
        let formatted = format_source(sub, &document);
        let mut piece = formatted.text;
        if k < last {
            if piece.ends_with('\n') {
                piece.pop();
            }
            piece.push_str(";\n\n");
        }
        out.push_str(&piece);
        let shift = |s: Span| Span::new(s.start as usize + from, s.end as usize + from);
        kept_as_written.extend(formatted.kept_as_written.into_iter().map(|(s, why)| (shift(s), why)));
        from = end;
    }
    Formatted { text: out, kept_as_written }
}

/// Where the stretches end (see the module documentation), holding no more than a few
/// thousand tokens at a time.
fn cuts(text: &str, stretch: usize) -> Vec<usize> {
    let mut cuts = Vec::new();
    let (mut ends, mut count) = (crate::stream::QueryEnds::default(), 0usize);
    // The last token seen, and a `;` that may end a stretch once the next token is seen.
    let mut prev_end = 0usize;
    let mut candidate: Option<usize> = None;
    let (mut from, mut buffer) = (0usize, Vec::new());
    while from < text.len() {
        let (lexed, end) = lex_tokens(text, from, 4096, buffer);
        for (t, span) in &lexed.tokens {
            let (start, stop) = (span.start as usize, span.end as usize);
            let gap_has_comment = text[prev_end..start].contains("--");
            if let Some(cut) = candidate.take()
                && !gap_has_comment
                && !matches!(t, Token::Semicolon)
            {
                cuts.push(cut);
                count = 0;
            }
            count += 1;
            if ends.step(t) && count >= stretch && !gap_has_comment {
                candidate = Some(stop);
            }
            prev_end = stop;
        }
        buffer = recycle(lexed.tokens);
        from = end;
    }
    cuts
}
