//! The hand-written recursive-descent parser of CAL/1.
//!
//! One function per production, a [`cursor::Cursor`] that records what each
//! position would have accepted, and recovery at every level: a broken WHERE
//! condition is skipped to the next `AND` (a missing one stands as an empty
//! condition), text that is no clause and a broken clause to the next clause
//! keyword, a broken `( … )` or `{ … }` group to its matching close (a missing
//! close keeps the inside), a broken BATCH entry to the next `,`, a LET binding
//! without its `;` is kept, and a broken query is skipped to the next `;`.
//! Diagnostics follow docs/spec-decisions.md (E1, E2); their wording and hints
//! are those of the chumsky grammar it replaced, which measured 16 times slower
//! than the latency bar (docs/architecture.md).
//!
//! Inlining: the productions a RECALL's clauses are made of (literals,
//! numbers, fields, stages, WITH options) are `#[inline(always)]` into the
//! few places that use them. Out of line, each returned its node through
//! memory and re-read the cursor after the call; inlined, a simple RECALL
//! parses in about 300 fewer instructions (docs/performance.md). Productions
//! that recurse (values, conditions, RECALL itself) stay out of line, and
//! inlining those measured slower; a value is inlined only where it goes
//! straight into its node (`value_in_place`).

mod assemble;
mod common;
mod cursor;
mod expected;
mod numbers;
mod recall;
mod statements;

use crate::ast::{Ident, LetBinding, Query, QueryBody, Statement, Version};
use cal_grammar::{Code, Diagnostic, Keyword, Span};
use cal_lexer::Token;
use cursor::{Cursor, PResult};
use expected::{Expect, eoi_bit};

pub(crate) use common::starts_statement;

/// `[CAL/n] LET* (statement | DEFINE TEMPLATE)`, into `out` (which is `None`),
/// left `None` when a statement parsed but cannot stand (see `statement`).
/// Each kind of body is built straight into `out`: a query is large, and
/// returning it by value copied it whole at each level on the way.
fn query(p: &mut Cursor<'_, '_>, out: &mut Option<Query>) -> PResult<()> {
    let start = p.start();
    let version = if p.at_kw(Keyword::Cal) { Some(version(p)?) } else { None };
    let mut lets = Vec::new();
    while p.at_kw(Keyword::Let) {
        let let_start = p.start();
        p.bump();
        let (name, name_span) = common::param(p)?;
        p.expect(Token::Eq)?;
        p.at_kw(Keyword::Recall);
        if !matches!(p.peek(), Some(Token::Kw(Keyword::Recall))) {
            return Err(p.error());
        }
        let recall = recall::recall(p)?;
        // A binding whose `;` is missing is reported there and kept, so the statement
        // after it is still parsed.
        if p.eat(Token::Semicolon).is_none() {
            let _ = p.error();
        }
        lets.push(LetBinding { name: Ident { name, span: name_span }, recall, span: p.since(let_start) });
    }
    if p.at_kw(Keyword::Define) {
        let body = QueryBody::DefineTemplate(statements::define_template(p)?);
        *out = Some(Query { version, lets, body, span: p.since(start) });
    } else if matches!(p.peek(), Some(Token::Kw(Keyword::Recall))) {
        // The commonest statement, its boxed node put in place without a detour through `statement`.
        p.expect_label(Expect::Statement);
        let recall = recall::recall_boxed(p)?;
        let body = QueryBody::Statement(Statement::Recall(recall));
        *out = Some(Query { version, lets, body, span: p.since(start) });
    } else if let Some(statement) = statements::statement(p)? {
        *out = Some(Query { version, lets, body: QueryBody::Statement(statement), span: p.since(start) });
    }
    Ok(())
}

fn version(p: &mut Cursor<'_, '_>) -> PResult<Version> {
    let start = p.start();
    p.bump();
    p.expect(Token::Slash)?;
    let Some(Token::Number(text)) = p.peek() else {
        return Err(p.error_expecting(Expect::Integer));
    };
    let num_span = p.bump();
    let major = text.parse::<u32>().ok();
    if major != Some(1) {
        let message = if text.starts_with("1.") {
            format!("Unsupported CAL version `CAL/{text}`: the prefix names a major version only.")
        } else {
            format!("Unsupported CAL version `CAL/{text}`; this implementation speaks CAL/1.")
        };
        p.report(
            Diagnostic::new(Code::E100, num_span, message)
                .with_suggestion("Write `CAL/1`, or omit the version prefix.")
                .with_replacement("1")
                .with_valid_values(["1"]),
        );
    }
    Ok(Version { major: major.unwrap_or(0), span: p.since(start) })
}

/// Notes that the end of the query is acceptable here, then reports what follows if anything does.
fn expect_end(p: &mut Cursor<'_, '_>) -> PResult<()> {
    if p.at_end() {
        return Ok(());
    }
    p.expect_label_bit(eoi_bit());
    Err(p.error())
}

/// Parses a single query followed by an optional `;` and the end of input,
/// into `out` (where the caller keeps it: a query is large, and every return
/// by value on the way would copy it). Returns the lexer's diagnostics
/// (`lexical`) followed by the parser's.
#[inline(always)]
pub(crate) fn single_query<'s>(
    src: &'s str,
    lexed: (&[(Token<'s>, Span)], bool),
    lexical: Vec<Diagnostic>,
    out: &mut Option<Query>,
) -> Vec<Diagnostic> {
    untracked_first(src, lexed, lexical, out, query_to_end)
}

/// Runs `parse` untracked, and again tracked only when the first run met an
/// error or a diagnostic; the diagnostics are those of the run kept (cursor.rs),
/// after the lexer's.
#[inline(always)]
fn untracked_first<'s, T>(
    src: &'s str,
    lexed: (&[(Token<'s>, Span)], bool),
    lexical: Vec<Diagnostic>,
    out: &mut T,
    parse: impl Fn(&mut Cursor<'s, '_>, &mut T),
) -> Vec<Diagnostic> {
    untracked_first_within(src, lexed, lexical, crate::MAX_DIAGNOSTICS, out, parse).finish_diagnostics()
}

/// [`untracked_first`] keeping at most `limit` diagnostics, returning the cursor of the
/// run kept.
#[inline(always)]
fn untracked_first_within<'s, 't, T>(
    src: &'s str,
    (tokens, plain): (&'t [(Token<'s>, Span)], bool),
    lexical: Vec<Diagnostic>,
    limit: usize,
    out: &mut T,
    parse: impl Fn(&mut Cursor<'s, 't>, &mut T),
) -> Cursor<'s, 't> {
    let mut lexical = lexical;
    let lexical_dropped = lexical.len().saturating_sub(limit);
    lexical.truncate(limit);
    let mut p = Cursor::new(src, tokens, false, plain, lexical).with_dropped(lexical_dropped).with_limit(limit);
    parse(&mut p, out);
    if !p.needs_tracked_parse() {
        return p;
    }
    let mut p = Cursor::new(src, tokens, true, plain, p.into_given_diagnostics())
        .with_dropped(lexical_dropped)
        .with_limit(limit);
    parse(&mut p, out);
    p
}

#[inline(always)]
fn query_to_end(p: &mut Cursor<'_, '_>, out: &mut Option<Query>) {
    *out = None;
    let _ = query(p, out);
    p.eat(Token::Semicolon);
    let _ = expect_end(p);
}

/// Parses a document: queries separated by `;`. A query that fails is skipped
/// to the next `;` so that the ones after it are still parsed; text after a
/// complete query that is not `;` is reported and skipped, keeping the query;
/// a `;` with no query before it is an empty query (CAL-E014).
///
/// `lexed` holds one stretch's tokens (`src` is the whole text: crate::stream), and at most
/// `limit` diagnostics are kept. Returns the queries, the diagnostics kept, how many were
/// not and where the first of those was.
pub(crate) fn document_stretch<'s>(
    src: &'s str,
    lexed: (&[(Token<'s>, Span)], bool),
    lexical: Vec<Diagnostic>,
    limit: usize,
) -> (Vec<Query>, (Vec<Diagnostic>, usize, Option<Span>)) {
    let mut queries_parsed = Vec::new();
    let p = untracked_first_within(src, lexed, lexical, limit, &mut queries_parsed, |p, out| *out = queries(p));
    (queries_parsed, p.into_counted())
}

fn queries(p: &mut Cursor<'_, '_>) -> Vec<Query> {
    let mut queries = Vec::new();
    while !p.at_end() {
        if matches!(p.peek(), Some(Token::Semicolon)) {
            let span = p.bump();
            if p.is_full() {
                p.count_dropped(span);
                continue;
            }
            p.report(
                Diagnostic::new(Code::E014, span, "Empty query: nothing before this `;`.")
                    .with_suggestion("Remove the extra `;`, or write a statement before it.")
                    .with_replacement(""),
            );
            continue;
        }
        let mut q = None;
        let _ = query(p, &mut q);
        queries.extend(q);
        if p.at_end() || p.eat(Token::Semicolon).is_some() {
            continue;
        }
        p.expect_label_bit(eoi_bit());
        let _ = p.error();
        // Whatever follows, brackets included, is skipped to the next `;`.
        while p.peek().is_some_and(|t| t != Token::Semicolon) {
            p.bump();
        }
        p.eat(Token::Semicolon);
    }
    queries
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every query of the parser's corpus, ok and err.
    fn corpus() -> Vec<String> {
        let mut out = Vec::new();
        for dir in ["ok", "err"] {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus").join(dir);
            for entry in std::fs::read_dir(path).into_iter().flatten().flatten() {
                if let Ok(text) = std::fs::read_to_string(entry.path()) {
                    out.push(text);
                }
            }
        }
        assert!(out.len() > 200, "corpus not found");
        out
    }

    /// Parses `text` both ways with `parse`. The untracked run is only kept when it met
    /// nothing to report; then its result must be the tracked run's, and the tracked run
    /// must report nothing either. When it is not kept, something is reported. Returns
    /// whether it was kept.
    fn untracked_agrees_with_tracked<T: PartialEq + std::fmt::Debug>(
        text: &str,
        parse: impl Fn(&mut Cursor<'_, '_>) -> T,
    ) -> bool {
        let lexed = cal_lexer::lex(text);
        let mut untracked = Cursor::new(text, &lexed.tokens, false, lexed.plain, Vec::new());
        let fast = parse(&mut untracked);
        let mut tracked = Cursor::new(text, &lexed.tokens, true, lexed.plain, Vec::new());
        let slow = parse(&mut tracked);
        if untracked.needs_tracked_parse() {
            assert!(!tracked.diags.is_empty() || !lexed.diagnostics.is_empty(), "{text}");
            return false;
        }
        assert_eq!(fast, slow, "{text}");
        assert!(tracked.diags.is_empty(), "{text}");
        true
    }

    fn whole_query(p: &mut Cursor<'_, '_>) -> Option<Query> {
        let mut q = Some(Query {
            version: None,
            lets: Vec::new(),
            body: QueryBody::Statement(Statement::Recall(Box::default())),
            span: cal_grammar::Span::new(0, 0),
        });
        // Whatever `out` held before is replaced.
        query_to_end(p, &mut q);
        q
    }

    #[test]
    fn untracked_parse_agrees_with_tracked_parse() {
        let kept = corpus().iter().filter(|text| untracked_agrees_with_tracked(text, whole_query)).count();
        assert!(kept > 100, "{kept}");
    }

    /// A text the lexer found plain gives the same tree when its strings are
    /// read through `string_value` after all; and the corpus has plain texts.
    #[test]
    fn plain_strings_read_as_their_values() {
        let mut plain = 0;
        for text in corpus() {
            let lexed = cal_lexer::lex(&text);
            plain += usize::from(lexed.plain);
            let mut as_is = Cursor::new(&text, &lexed.tokens, true, lexed.plain, Vec::new());
            let mut unescaped = Cursor::new(&text, &lexed.tokens, true, false, Vec::new());
            assert_eq!(whole_query(&mut as_is), whole_query(&mut unescaped), "{text}");
        }
        assert!(plain > 100, "{plain}");
    }

    /// The same for documents: the whole corpus as one `;`-separated document, and each
    /// query twice in one.
    #[test]
    fn untracked_document_parse_agrees_with_tracked_parse() {
        let all = corpus();
        let mut documents = vec![all.join(";\n")];
        documents.extend(all.iter().map(|q| format!("{q};\n{q}")));
        let kept = documents.iter().filter(|text| untracked_agrees_with_tracked(text, queries)).count();
        assert!(kept > 100, "{kept}");
    }
}
