//! A `.cal` document read a stretch at a time (issue 19: 10 MB of `;` held 330 MB of
//! tokens, 209,000 queries 257 MB of trees). [`DocumentReader`] lexes and parses one
//! stretch of about [`STRETCH_TOKENS`] tokens, hands over its queries and diagnostics,
//! and forgets them; [`crate::parse_document`] is the same reader, collected.
//!
//! A stretch ends only after a `;` that certainly ends a query in the parse of the whole
//! text, so the trees and diagnostics are those of parsing the whole at once (tested on
//! the corpus in `parser/tests/stream.rs`). A `;` ends a query there when no bracket is
//! open before it (recovery skips a broken group to its matching close, across `;`) and
//! the text since the previous `;` does not start with `LET` or `CAL` (a LET binding's
//! `;` is inside its query). Only the 1,000-diagnostic cap is document-wide: it is
//! carried from stretch to stretch, and its summary comes at the end.
//!
//! A stretch of more than [`MAX_STRETCH_BYTES`] without such a `;` (one enormous query,
//! or text whose brackets never close) is not parsed: it is refused with one CAL-E001,
//! as a single query over 8,192 bytes is (§17.3; docs/spec-decisions.md, P9).

use crate::ast::Query;
use cal_grammar::{Code, Diagnostic, Keyword, Span, limits::MAX_QUERY_BYTES};
use cal_lexer::{Token, check_length, lex_tokens, lex_window, recycle};

/// About how many tokens one stretch holds: enough that the work per stretch dwarfs
/// starting one, few enough that a stretch's tokens cost about half a megabyte.
pub const STRETCH_TOKENS: usize = 16 * 1024;

/// The longest stretch read without a `;` that ends a query (1 MiB): longer is refused
/// unparsed with CAL-E001.
pub const MAX_STRETCH_BYTES: usize = 1024 * 1024;

/// One stretch of a document: its queries in order and its diagnostics in source order.
#[derive(Debug, Default)]
pub struct Piece {
    /// The queries that parsed (possibly partially), in order.
    pub queries: Vec<Query>,
    /// Lexical and syntax diagnostics of the stretch, sorted, within the document's cap.
    pub diagnostics: Vec<Diagnostic>,
}

/// An iterator over the [`Piece`]s of a document; after the last, [`DocumentReader::summary`]
/// gives the count of diagnostics past the cap, if any.
pub struct DocumentReader<'s> {
    text: &'s str,
    from: usize,
    started: bool,
    buffer: Vec<(Token<'s>, Span)>,
    kept: usize,
    dropped: usize,
    first_dropped: Option<Span>,
    last_code: Option<(Code, Span)>,
    /// A stretch ends at the first `;` that ends a query once it holds this many tokens or bytes.
    stretch: (usize, usize),
}

impl<'s> DocumentReader<'s> {
    /// A reader at the start of `text`.
    pub fn new(text: &'s str) -> Self {
        DocumentReader {
            text,
            from: 0,
            started: false,
            buffer: Vec::new(),
            kept: 0,
            dropped: 0,
            first_dropped: None,
            last_code: None,
            stretch: (STRETCH_TOKENS, MAX_STRETCH_BYTES / 16),
        }
    }

    /// A reader whose stretches end at the first `;` that ends a query after `tokens`
    /// tokens or `bytes` bytes: the whole text as one stretch with `usize::MAX`, the way
    /// tests check that stretches change nothing.
    pub fn with_stretch(mut self, tokens: usize, bytes: usize) -> Self {
        self.stretch = (tokens, bytes);
        self
    }

    /// The diagnostic that counts those not listed past [`crate::MAX_DIAGNOSTICS`], once
    /// every piece has been read; it belongs after them all.
    pub fn summary(&self) -> Option<Diagnostic> {
        let (code, last) = self.last_code?;
        (self.dropped > 0).then(|| crate::summary(code, self.first_dropped.unwrap_or(last), self.dropped))
    }

    /// The byte range of the stretch of `text` that holds `offset` (the last stretch for an
    /// offset at the end): the queries around a position, read without the rest of a
    /// large document (the language server's requests, issue 19).
    pub fn stretch_around(text: &str, offset: usize) -> std::ops::Range<usize> {
        let mut reader = DocumentReader::new(text);
        loop {
            let from = reader.from;
            let (cut, _) = reader.next_cut();
            if offset < cut || cut >= text.len() || cut <= from {
                return from..cut.max(from);
            }
            reader.from = cut;
        }
    }

    /// Where the next stretch ends, and whether it is too long to parse.
    fn next_cut(&mut self) -> (usize, bool) {
        let text = self.text;
        let mut ends = QueryEnds::default();
        let (mut count, mut pos, mut last_safe) = (0usize, self.from, None);
        loop {
            let (lexed, end) = lex_tokens(text, pos, 4096, std::mem::take(&mut self.buffer));
            let mut found = None;
            for (t, span) in &lexed.tokens {
                count += 1;
                if ends.step(t) {
                    let cut = span.end as usize;
                    if count >= self.stretch.0 || cut - self.from >= self.stretch.1 {
                        found = Some(cut);
                        break;
                    }
                    last_safe = Some(cut);
                }
            }
            self.buffer = recycle(lexed.tokens);
            if let Some(cut) = found {
                return (cut, false);
            }
            if end >= text.len() {
                return (text.len(), count > 0 && last_safe.is_none() && text.len() - self.from > MAX_STRETCH_BYTES);
            }
            if count > 0 && end - self.from > MAX_STRETCH_BYTES {
                if let Some(cut) = last_safe {
                    return (cut, false);
                }
                // Too long already: read on (holding nothing) to where it ends, to refuse it whole.
                let mut pos = end;
                loop {
                    let (lexed, end) = lex_tokens(text, pos, 4096, std::mem::take(&mut self.buffer));
                    let mut found = None;
                    for (t, span) in &lexed.tokens {
                        if ends.step(t) {
                            found = Some(span.end as usize);
                            break;
                        }
                    }
                    self.buffer = recycle(lexed.tokens);
                    if let Some(cut) = found {
                        return (cut, true);
                    }
                    if end >= text.len() {
                        return (text.len(), true);
                    }
                    pos = end;
                }
            }
            pos = end;
        }
    }

    /// Counts a stretch's diagnostics against the document's budget; `last` is the last one
    /// the stretch's parse kept, whose code the summary takes.
    fn account(&mut self, kept: usize, last: Option<(Code, Span)>, dropped: usize, first_dropped: Option<Span>) {
        self.dropped += dropped;
        if let Some(s) = first_dropped {
            self.first_dropped.get_or_insert(s);
        }
        self.kept += kept;
        if last.is_some() {
            self.last_code = last;
        }
    }
}

impl Iterator for DocumentReader<'_> {
    type Item = Piece;

    fn next(&mut self) -> Option<Piece> {
        let text = self.text;
        if self.from >= text.len() && self.started {
            return None;
        }
        let first = !self.started;
        self.started = true;
        let (cut, too_long) = self.next_cut();
        let from = std::mem::replace(&mut self.from, cut);
        if too_long {
            let span = Span::new(from, cut);
            let d = Diagnostic::new(
                Code::E001,
                span,
                format!(
                    "This stretch of {} bytes has no `;` that ends a query; a query holds at most {MAX_QUERY_BYTES} bytes (§17.3), and a stretch longer than {MAX_STRETCH_BYTES} is not read.",
                    cut - from
                ),
            )
            .with_suggestion("End each query with `;` and close every bracket; split long queries, or bind long values as $parameters.");
            self.account(1, Some((d.code, d.span)), 0, None);
            return Some(Piece { queries: Vec::new(), diagnostics: vec![d] });
        }
        let (lexed, _) = lex_window(&text[..cut], from, usize::MAX, std::mem::take(&mut self.buffer));
        if first && cut == text.len() && lexed.tokens.is_empty() {
            // No token at all: the whole document is empty (or only what the lexer reported).
            let mut diagnostics = lexed.diagnostics;
            self.buffer = recycle(lexed.tokens);
            if diagnostics.is_empty() {
                diagnostics.push(crate::empty_query(text));
            }
            self.account(diagnostics.len(), diagnostics.last().map(|d| (d.code, d.span)), 0, None);
            return Some(Piece { queries: Vec::new(), diagnostics });
        }
        let limit = crate::MAX_DIAGNOSTICS.saturating_sub(self.kept);
        let (queries, (mut diagnostics, dropped, first_dropped)) =
            crate::syntax::document_stretch(text, (&lexed.tokens, lexed.plain), lexed.diagnostics, limit);
        self.buffer = recycle(lexed.tokens);
        self.account(diagnostics.len(), diagnostics.last().map(|d| (d.code, d.span)), dropped, first_dropped);
        for q in &queries {
            diagnostics.extend(check_length(q.span));
            for d in &mut diagnostics {
                if d.span.start >= q.span.start && d.span.end <= q.span.end {
                    d.complete_example(text, q.span);
                }
            }
        }
        let diagnostics = crate::finish(text, diagnostics, Some(Span::new(0, 0)));
        Some(Piece { queries, diagnostics })
    }
}

/// Where queries end in a token stream, one token at a time: a `;` at bracket depth 0 that
/// does not end a LET binding (`LET $x = …;` belongs to the query after it). Shared by the
/// document reader and the stretch formatter, so both cut at the same places.
#[derive(Debug, Clone, Copy)]
pub(crate) struct QueryEnds {
    depth: u32,
    segment_start: bool,
    in_let: bool,
}

impl Default for QueryEnds {
    fn default() -> Self {
        QueryEnds { depth: 0, segment_start: true, in_let: false }
    }
}

impl QueryEnds {
    /// Takes the next token; true when it is a `;` that ends a query.
    pub(crate) fn step(&mut self, t: &Token<'_>) -> bool {
        if self.segment_start {
            self.in_let = matches!(t, Token::Kw(Keyword::Let | Keyword::Cal));
            self.segment_start = false;
        }
        match t {
            Token::LParen | Token::LBracket | Token::LBrace => self.depth += 1,
            Token::RParen | Token::RBracket | Token::RBrace => self.depth = self.depth.saturating_sub(1),
            Token::Semicolon => {
                self.segment_start = true;
                return self.depth == 0 && !self.in_let;
            }
            _ => {}
        }
        false
    }
}
