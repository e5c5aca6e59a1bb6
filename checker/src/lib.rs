//! # cal-checker — the static semantics of CAL/1
//!
//! The parser accepts every query whose *shape* is right; this crate judges
//! what it *means*, before anything runs: which fields exist on which grain
//! type (§6), which operators and values a field takes (§5.2, Appendix E),
//! closed enum values, the shortcut combination rules (§9.8), `mg:` relations
//! (§7.3), pipelines, every resource limit of §17.3, parameters, LET chains
//! (§8.12), ASSEMBLE, evolve statements (§8.8–§8.10), streaming (§11.2),
//! templates (§10.2, §10.5–§10.8) and extensions (§25.2).
//!
//! It reports **every** problem in one pass, sorted by position, each with the
//! spec's code, a precise span, a message, and where possible a suggestion,
//! an example, the valid values and a machine-applicable `replacement`.
//!
//! Three entry points, one implementation:
//!
//! * [`check`] — one parsed [`Query`], as a server checks a request;
//! * [`check_document`] — a parsed `.cal` [`Document`], as an editor holds it;
//! * [`analyze`] — text in, parse *and* check diagnostics out, with examples
//!   completed from the replacements. `cal check` and the language server call
//!   this (or [`analyze_bytes`] for raw input), so both always report the same
//!   thing.
//!
//! Templates have two more: [`validate_definition`] judges one DEFINE TEMPLATE
//! by the same rules and yields it ready to render ([`DefinedTemplate`]), and
//! [`inline_template`] reads an inline body for rendering; the interpreter calls
//! them, so that the define-time rules exist once, here.
//!
//! Parameter bindings ([`Params`]) are optional: with them, every `$name`
//! must be bound (CAL-E008) and bound values are checked where they are used;
//! without them, parameters are checked for type consistency only.
//!
//! The crate never panics on any tree, including the partial trees the
//! parser's error recovery produces.

mod assemble;
mod context;
mod evolve;
mod fields;
mod lets;
mod limits;
mod lit;
mod operators;
mod params;
mod pipeline;
mod recall;
mod render;
mod shortcuts;
mod statements;
mod templates;
mod values;
mod with;

pub use params::{ParamArgError, Params, bidi_in, parse_param_arg};
pub use templates::{DefinedTemplate, inline_template, validate_definition};

use cal_grammar::{Code, Diagnostic, Phase, Span, sort_diagnostics};
use cal_parser::ast::{Document, Query};

/// Checks one query and returns every diagnostic, sorted by position.
///
/// `params` are the bindings the query will run with (`cal check --param`,
/// the REST `params` object); pass `None` when they are not known yet (an
/// editor), and parameters are then only checked for consistent use.
pub fn check(query: &Query, params: Option<&Params>) -> Vec<Diagnostic> {
    let mut diags = statements::check_query(query, params);
    if diags.len() > 1 {
        order(&mut diags);
    }
    diags
}

/// Sorts by position and drops repeats. A tree read from the JSON form has no positions
/// (every span is empty at 0): sorting would order its diagnostics by code, so the first
/// error of a JSON request could differ from its text's (issue 19, ruling D4). Its
/// diagnostics keep the order the checker met them in instead: the tree's, outer before
/// inner and left before right, which is the order positions give the text.
fn order(diags: &mut Vec<Diagnostic>) {
    if diags.iter().all(|d| d.span == Span::default()) {
        let mut seen = std::collections::HashSet::new();
        diags.retain(|d| seen.insert((d.code.as_str(), d.message.clone())));
    } else {
        sort_diagnostics(diags);
        diags.dedup_by(|a, b| a.code == b.code && a.span == b.span && a.message == b.message);
    }
}

/// Checks every query of a `.cal` document with the same bindings and returns
/// all diagnostics, sorted by position.
pub fn check_document(document: &Document, params: Option<&Params>) -> Vec<Diagnostic> {
    let mut diags: Vec<Diagnostic> = document.queries.iter().flat_map(|q| statements::check_query(q, params)).collect();
    order(&mut diags);
    diags
}

/// The parsed document and every diagnostic of the text, lexical to semantic.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The document, possibly partial when the text has syntax errors.
    pub document: Option<Document>,
    /// Parse and check diagnostics, in source order, examples completed.
    pub diagnostics: Vec<Diagnostic>,
}

impl Analysis {
    /// True when any diagnostic is an error (warnings do not reject a query).
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The diagnostics §17.1's pipeline reports: see [`as_pipeline_reports`].
    pub fn pipeline_diagnostics(&self) -> Vec<&Diagnostic> {
        as_pipeline_reports(&self.diagnostics)
    }
}

/// The diagnostics a refusal reports, in §17.1's pipeline order: the lexer and the parser
/// come before the validator, so when a text has an error of the lex or parse phase, the
/// parser hands the validator no statement and the rejection is theirs alone. The checker
/// still checks the tree the parser recovered, for editors (`cal check`, the language
/// server show everything at once); a §22 error response and a conformance `parse` answer
/// leave those findings out, so that the first error is the one the pipeline stops at
/// (docs/spec-decisions-conformance.md C37). Without such an error: every diagnostic.
pub fn as_pipeline_reports(diagnostics: &[Diagnostic]) -> Vec<&Diagnostic> {
    let early = |d: &Diagnostic| matches!(d.code.info().phase, Phase::Prelex | Phase::Parse);
    let stopped = diagnostics.iter().any(|d| d.is_error() && early(d));
    diagnostics.iter().filter(|d| !stopped || early(d)).collect()
}

/// Parses a `.cal` text and checks what parsed: the single function behind
/// `cal check` and the language server's diagnostics.
///
/// Queries that have syntax errors are still checked (the parser recovers a
/// partial tree), so one pass shows everything, except that a check finding
/// that repeats a syntax error is dropped (inside its span, a missing part
/// before it, a word fragment split off by a stray letter: the recovered tree
/// is only a guess there); every diagnostic with a
/// `replacement` gets an `example` showing its query with that fix and every other
/// machine-applicable fix of the query applied (no example repeats another typo).
pub fn analyze(text: &str, params: Option<&Params>) -> Analysis {
    let mut queries = Vec::new();
    let diagnostics = analyze_each(text, params, |q| queries.extend(q));
    Analysis { document: Some(Document { queries }), diagnostics }
}

/// [`analyze`] a stretch of the document at a time (`cal_parser::stream`): `each` is given
/// the queries of each stretch once they are checked, to keep or to drop, so that a caller
/// that needs only the diagnostics (`cal check`) holds one stretch's trees at a time
/// (issue 19). Returns every diagnostic, as [`analyze`] does.
pub fn analyze_each(text: &str, params: Option<&Params>, mut each: impl FnMut(Vec<Query>)) -> Vec<Diagnostic> {
    let mut reader = cal_parser::stream::DocumentReader::new(text);
    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    let mut cap = Cap::default();
    // The last query read is checked once the next one is found (or the text ends): the
    // syntax errors up to the next query's start are its own.
    let mut pending: Option<Query> = None;
    let mut syntax: Vec<Span> = Vec::new();
    // Every query's span, in order: a few bytes per query, kept after its tree is dropped.
    let mut spans: Vec<Span> = Vec::new();
    for piece in reader.by_ref() {
        let mut found: Vec<Span> = piece.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.span).collect();
        found.sort_by_key(|s| (s.start, s.end));
        syntax.extend(found);
        diagnostics.extend(piece.diagnostics);
        let mut checked = Vec::with_capacity(piece.queries.len());
        spans.extend(piece.queries.iter().map(|q| q.span));
        for query in piece.queries {
            if let Some(prev) = pending.take() {
                check_one(text, params, &prev, query.span.start, &syntax, &mut diagnostics, &mut cap);
                checked.push(prev);
            }
            // Errors before this query belong to the ones already checked.
            let keep_from = syntax.partition_point(|s| s.start < query.span.start);
            syntax.drain(..keep_from);
            pending = Some(query);
        }
        if !checked.is_empty() {
            each(checked);
        }
    }
    if let Some(last) = pending.take() {
        check_one(text, params, &last, u32::MAX, &syntax, &mut diagnostics, &mut cap);
        each(vec![last]);
    }
    diagnostics.extend(reader.summary());
    if cap.dropped > 0
        && let Some(last) = diagnostics.last()
    {
        let summary = Diagnostic::new(
            last.code,
            cap.first_dropped.unwrap_or(last.span),
            format!(
                "{} more problems were found and are not listed: at most {} are reported per document.",
                cap.dropped,
                cal_parser::MAX_DIAGNOSTICS
            ),
        )
        .with_suggestion("Fix the problems listed first; the rest are reported once fewer remain.");
        diagnostics.push(summary);
    }
    // Each query holding a fix gets its examples completed together (the queries without one
    // have nothing to complete, and the document's trees are gone by now).
    let mut holding: Vec<Span> = diagnostics
        .iter()
        .filter(|d| d.replacement.is_some())
        .filter_map(|d| {
            let i = spans.partition_point(|s| s.start <= d.span.start);
            i.checked_sub(1).map(|i| spans[i]).filter(|s| d.span.end <= s.end)
        })
        .collect();
    holding.sort_by_key(|s| (s.start, s.end));
    holding.dedup();
    for query in holding {
        cal_grammar::complete_examples_together(&mut diagnostics, text, query);
    }
    // A fix in a stretch the parser could not read as a query (`SUPER SEDE …`): its example
    // is that stretch, between the `;`s around it, with the fixes applied.
    let unread: Vec<Span> = diagnostics
        .iter()
        .filter(|d| d.example.is_none() && d.replacement.is_some())
        .map(|d| stretch(text, d.span))
        .collect();
    for s in unread {
        cal_grammar::complete_examples_together(&mut diagnostics, text, s);
    }
    sort_diagnostics(&mut diagnostics);
    diagnostics.dedup_by(|a, b| a.code == b.code && a.span == b.span && a.message == b.message);
    diagnostics
}

/// Check findings not listed past the cap.
#[derive(Default)]
struct Cap {
    dropped: usize,
    first_dropped: Option<Span>,
}

/// Checks one query whose text runs to `next` (the next query's start: its `;` and any
/// skipped tail included), given the syntax errors from its start on (`syntax`, sorted).
fn check_one(
    text: &str,
    params: Option<&Params>,
    query: &Query,
    next: u32,
    syntax: &[Span],
    diagnostics: &mut Vec<Diagnostic>,
    cap: &mut Cap,
) {
    let from = syntax.partition_point(|s| s.start < query.span.start);
    let to = syntax.partition_point(|s| s.start < next);
    let here = &syntax[from..to];
    for mut d in statements::check_query(query, params) {
        // A syntax error that contains the finding lies in the same query.
        if here.iter().any(|s| s.start <= d.span.start && d.span.end <= s.end)
            || follows_from_syntax(text, d.span, here)
        {
            continue;
        }
        // As many as the parser reports at most (issue 19); the rest are counted.
        if diagnostics.len() >= cal_parser::MAX_DIAGNOSTICS {
            cap.dropped += 1;
            cap.first_dropped.get_or_insert(d.span);
            continue;
        }
        d.complete_example(text, query.span);
        diagnostics.push(d);
    }
}

/// The text between the `;` before `span` and the `;` after it (or the ends of the text),
/// counting only the `;` outside strings and comments: where a query the parser could not
/// read lies.
fn stretch(text: &str, span: Span) -> Span {
    let (mut from, mut to) = (0, text.len());
    let (mut in_string, mut in_comment, mut escaped) = (false, false, false);
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'\n' if in_comment => in_comment = false,
            _ if in_comment => {}
            b'\\' if in_string => escaped = !escaped,
            b'"' if !escaped => in_string = !in_string,
            b'-' if !in_string && bytes.get(i + 1) == Some(&b'-') => in_comment = true,
            b';' if !in_string && i < span.start as usize => from = i + 1,
            b';' if !in_string && i >= span.end as usize => {
                to = i;
                break;
            }
            _ => {}
        }
        if b != b'\\' {
            escaped = false;
        }
    }
    Span::new(from, to)
}

/// Whether a check finding at `span` only repeats a syntax error of its query
/// (`syntax`): where the parser reported an error the recovered tree is a guess
/// (one mistake, one diagnostic, docs/spec-decisions.md E1). Besides a finding
/// inside any syntax error's span (checked by the caller), that is when
/// * the finding is empty — it reports something missing at that point (a
///   REASON, an extractor at the end of a subquery) — and a syntax error comes at
///   or after it: the missing part may be what the parser could not read
///   (`… REASON` without its string ends the statement before REASON);
/// * the finding is about a word fragment glued to a stray non-ASCII letter
///   (`subj` of `subjеct` with a Cyrillic `е`).
fn follows_from_syntax(text: &str, span: Span, syntax: &[Span]) -> bool {
    syntax.iter().any(|s| {
        (span.is_empty() && s.start >= span.start)
            || (cal_parser::is_stray_letter(text, *s) && cal_parser::glued_to_stray_letter(text, span, *s))
    })
}

/// [`analyze`] for raw bytes, as a file or a request body arrives: invalid UTF-8 is
/// CAL-E070 (§3.1) and nothing else is reported.
pub fn analyze_bytes(bytes: &[u8], params: Option<&Params>) -> Analysis {
    match std::str::from_utf8(bytes) {
        Ok(text) => analyze(text, params),
        Err(_) => Analysis { document: None, diagnostics: cal_parser::parse_query_bytes(bytes).diagnostics },
    }
}

/// The codes of the registry that no static check can produce: only running a
/// query against a store, a clock or a connection can (Appendix C, phase
/// [`Phase::Execute`]). The corpus coverage test requires a case for every
/// other code.
pub fn execution_only_codes() -> impl Iterator<Item = Code> {
    Code::ALL.iter().copied().filter(|c| c.info().phase == Phase::Execute)
}
