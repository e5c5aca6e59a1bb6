//! # cal-parser — text and JSON into the typed CAL/1 AST, and back
//!
//! * [`parse_query`] / [`parse_query_bytes`]: one query, as a server receives it.
//! * [`parse_document`]: a `.cal` file of queries separated by `;`, as an editor holds it.
//!
//! Both return a [`Parsed`]: the tree (possibly partial) *and* every
//! diagnostic, so the language server can work on a query that does not
//! parse yet. Parsing never panics, whatever the input.
//!
//! [`template`] is the syntax of the template sub-language: the text of a
//! template section (`ELEMENT { … }`) parsed into a tree.

pub mod ast;
pub mod json;
pub mod print;
pub mod spec_examples;
pub mod stream;
mod syntax;
pub mod template;

use ast::{Document, Query};
use cal_grammar::{Code, Diagnostic, Span, sort_diagnostics};
use cal_lexer::{Token, check_length, decode_utf8, lex_into, recycle};
use std::cell::Cell;

/// The result of parsing: a tree when one could be built, and the diagnostics in source order.
#[derive(Debug, Clone)]
pub struct Parsed<T> {
    /// The tree. `Some` even with errors when recovery produced a usable partial tree.
    pub ast: Option<T>,
    /// Lexical and syntax diagnostics, sorted by position.
    pub diagnostics: Vec<Diagnostic>,
}

impl<T> Parsed<T> {
    /// True when any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The tree when there were no errors, otherwise the diagnostics.
    pub fn into_result(self) -> Result<T, Vec<Diagnostic>> {
        match self.ast {
            Some(ast) if !self.has_errors() => Ok(ast),
            _ => Err(self.diagnostics),
        }
    }
}

/// Parses one query from raw bytes: CAL-E070 for invalid UTF-8, then as [`parse_query`].
pub fn parse_query_bytes(bytes: &[u8]) -> Parsed<Query> {
    match decode_utf8(bytes) {
        Ok(text) => parse_query(text),
        Err(d) => Parsed { ast: None, diagnostics: vec![d] },
    }
}

/// Parses one query. Over 8,192 bytes is CAL-E001 without further work (§17.3);
/// only whitespace and comments is CAL-E014.
pub fn parse_query(text: &str) -> Parsed<Query> {
    if let Some(d) = check_length(Span::new(0, text.len())) {
        return Parsed { ast: None, diagnostics: vec![d] };
    }
    let lexed = lex_into(text, recycle(TOKENS.take()));
    if lexed.tokens.is_empty() && lexed.diagnostics.is_empty() {
        keep_tokens(lexed.tokens);
        return Parsed { ast: None, diagnostics: vec![empty_query(text)] };
    }
    let mut parsed = Parsed { ast: None, diagnostics: Vec::new() };
    let diagnostics = syntax::single_query(text, (&lexed.tokens, lexed.plain), lexed.diagnostics, &mut parsed.ast);
    keep_tokens(lexed.tokens);
    parsed.diagnostics = finish(text, diagnostics, parsed.ast.as_ref().map(|q| q.span));
    parsed
}

thread_local! {
    /// The token buffer of this thread's last parse, empty, kept for its next
    /// one (`cal_lexer::recycle`): a query's tokens then cost no allocation and
    /// no free, about 3 % of a simple RECALL's parse.
    static TOKENS: Cell<Vec<(Token<'static>, Span)>> = const { Cell::new(Vec::new()) };
}

/// The largest token buffer kept between parses: more than the lexer reserves
/// for the longest query (a quarter of its 8,192 bytes), so one allocation
/// serves every query, while the buffer of a large document is not held on to.
const KEPT_TOKENS: usize = 4096;

fn keep_tokens(tokens: Vec<(Token<'_>, Span)>) {
    if tokens.capacity() <= KEPT_TOKENS {
        TOKENS.set(recycle(tokens));
    }
}

/// The most diagnostics a document (or query) reports; past it they are counted in one
/// summary, so that checking a hostile input stays linear in time and memory (issue 19).
pub const MAX_DIAGNOSTICS: usize = 1000;

/// Parses a `.cal` document: queries separated by `;` (the last `;` optional).
/// Each query is limited to 8,192 bytes on its own (CAL-E001). The document is read a
/// stretch at a time ([`stream::DocumentReader`]), which a caller that need not hold every
/// tree uses directly.
pub fn parse_document(text: &str) -> Parsed<Document> {
    let mut reader = stream::DocumentReader::new(text);
    let (mut queries, mut diagnostics) = (Vec::new(), Vec::new());
    for piece in reader.by_ref() {
        queries.extend(piece.queries);
        diagnostics.extend(piece.diagnostics);
    }
    if let Some(summary) = reader.summary() {
        diagnostics.push(summary);
        sort_diagnostics(&mut diagnostics);
    }
    Parsed { ast: Some(Document { queries }), diagnostics }
}

/// The diagnostics of [`parse_document`], without holding its trees: what `cal fmt` needs
/// to know before it formats a large document a stretch at a time.
pub fn document_diagnostics(text: &str) -> Vec<Diagnostic> {
    let mut reader = stream::DocumentReader::new(text);
    let mut diagnostics = Vec::new();
    for piece in reader.by_ref() {
        diagnostics.extend(piece.diagnostics);
    }
    if let Some(summary) = reader.summary() {
        diagnostics.push(summary);
        sort_diagnostics(&mut diagnostics);
    }
    diagnostics
}

/// The diagnostic that stands for `dropped` more past [`MAX_DIAGNOSTICS`], with the code of
/// the last one listed, at the first one not listed.
fn summary(code: Code, span: Span, dropped: usize) -> Diagnostic {
    Diagnostic::new(
        code,
        span,
        format!("{dropped} more problems were found and are not listed: at most {MAX_DIAGNOSTICS} are reported per document."),
    )
    .with_suggestion("Fix the problems listed first; the rest are reported once fewer remain.")
}

fn empty_query(text: &str) -> Diagnostic {
    Diagnostic::new(Code::E014, Span::new(0, text.len()), "The query is empty.")
        .with_suggestion("Write a statement, for example a RECALL.")
        .with_example("RECALL beliefs ABOUT \"alice\"")
}

/// Completes examples, sorts into source order and drops exact duplicates
/// (recovery can visit the same bad token twice) and the syntax errors of
/// word fragments split off by a stray letter (see [`glued_to_stray_letter`]).
#[inline]
fn finish(text: &str, diagnostics: Vec<Diagnostic>, query_span: Option<Span>) -> Vec<Diagnostic> {
    if diagnostics.is_empty() { diagnostics } else { finish_reported(text, diagnostics, query_span) }
}

/// [`finish`] when there is something to finish: most queries have nothing to report.
#[cold]
fn finish_reported(text: &str, mut diagnostics: Vec<Diagnostic>, query_span: Option<Span>) -> Vec<Diagnostic> {
    let whole = query_span.unwrap_or(Span::new(0, text.len()));
    for d in &mut diagnostics {
        d.complete_example(text, whole);
    }
    let strays: Vec<Span> = diagnostics.iter().map(|d| d.span).filter(|s| is_stray_letter(text, *s)).collect();
    if !strays.is_empty() {
        diagnostics.retain(|d| !strays.iter().any(|s| glued_to_stray_letter(text, d.span, *s)));
    }
    sort_diagnostics(&mut diagnostics);
    diagnostics.dedup_by(|a, b| a.code == b.code && a.span == b.span);
    diagnostics
}

/// Whether `span` is exactly one non-ASCII letter: what the lexer reports as an
/// unexpected character when a look-alike (Greek `Ε`, Cyrillic `е`) sits in a word.
pub fn is_stray_letter(text: &str, span: Span) -> bool {
    let Some(s) = text.get(span.range()) else { return false };
    let mut chars = s.chars();
    matches!((chars.next(), chars.next()), (Some(c), None) if !c.is_ascii() && c.is_alphabetic())
}

/// Whether `span` is a word fragment touching the stray letter at `stray`
/// (`R` and `CALL` in `RΕCALL`): the lexer split one word at the letter it
/// rejected, so a diagnostic about a fragment repeats that one mistake and
/// points before it (one mistake, one diagnostic: docs/spec-decisions.md E1).
/// Callers drop such diagnostics when the stray letter has its own.
pub fn glued_to_stray_letter(text: &str, span: Span, stray: Span) -> bool {
    if span == stray || span.is_empty() || !(span.end == stray.start || span.start == stray.end) {
        return false;
    }
    text.get(span.range()).is_some_and(|s| s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
}
