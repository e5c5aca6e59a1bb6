//! A document of queries as `cal run`, `cal explain` and `cal prepare` take it, split into
//! its queries, each checked on its own: a query with a static error is refused with its
//! first error (the server's refusal, `cal_service::request::refusal`) while the others
//! still run (docs/spec-decisions-cli.md, L1).
//!
//! A document is split where the parser splits it, at every `;` token: each stretch of text
//! up to and including its `;` is one query, and every diagnostic that starts in it is that
//! query's. A stretch the parser could not read at all (`garbage here;`) has no tree but
//! still has its errors, so it is refused in its place rather than lost.

use cal_checker::Params;
use cal_grammar::Diagnostic;
use cal_parser::ast::{Document, Query};

/// The most bytes of text one invocation of `cal run`, `explain` or `prepare` reads
/// (10 MiB). Larger documents are refused before parsing (exit status 2).
pub const MAX_DOCUMENT_BYTES: usize = 10 * 1024 * 1024;

/// The most queries one document may hold (10,000). Every query's tree is kept until it
/// runs, so this bounds the memory a document costs besides the one response in hand.
pub const MAX_DOCUMENT_QUERIES: usize = 10_000;

/// One query of a document: its tree, or the first static error that refuses it.
pub struct Unit {
    /// The query to run, or the error to answer in its place.
    pub outcome: Result<Query, Diagnostic>,
    /// The query's static warnings, for its response's `_cal.warnings`.
    pub warnings: Vec<Diagnostic>,
}

/// A checked document.
pub struct Checked {
    /// Its queries in order.
    pub units: Vec<Unit>,
    /// Every diagnostic of the document, errors and warnings, in source order (for code frames).
    pub diagnostics: Vec<Diagnostic>,
}

/// Why a document is not taken at all (exit status 2).
pub fn too_large(text: &str) -> Option<String> {
    if text.len() > MAX_DOCUMENT_BYTES {
        return Some(format!(
            "the document is {} bytes; cal reads at most {MAX_DOCUMENT_BYTES} (10 MiB) per invocation: split it into several files",
            text.len()
        ));
    }
    None
}

fn too_many(n: usize) -> String {
    format!(
        "the document holds {n} queries; cal runs at most {MAX_DOCUMENT_QUERIES} per invocation: split it into several files"
    )
}

/// Parses and checks `text` (text/cal, or application/json+cal when it starts with `{` or `[`)
/// query by query. `Err` when the document is over a cap ([`MAX_DOCUMENT_BYTES`],
/// [`MAX_DOCUMENT_QUERIES`]).
pub fn check(text: &str, params: &Params) -> Result<Checked, String> {
    if let Some(e) = too_large(text) {
        return Err(e);
    }
    if cal_service::request::is_json_form(text) {
        return check_json(text, params);
    }
    // Counted without holding the tokens (10 MB of `;` is ten million of them: issue 19).
    let separators = cal_lexer::semicolons(text, MAX_DOCUMENT_QUERIES + 1);
    if separators.len() >= MAX_DOCUMENT_QUERIES {
        let (all, last) = if separators.len() > MAX_DOCUMENT_QUERIES {
            cal_lexer::count_semicolons(text)
        } else {
            (separators.len(), *separators.last().unwrap_or(&0))
        };
        // A trailing `;` ends the last query rather than starting another; count generously.
        let queries = all + usize::from(!text[last as usize..].trim().is_empty());
        if queries > MAX_DOCUMENT_QUERIES {
            return Err(too_many(queries));
        }
    }
    let (document, diagnostics) = cal_service::request::analyze(text, params);
    let mut queries = document.map(|d| d.queries).unwrap_or_default().into_iter().peekable();
    let mut diags = diagnostics.iter().peekable();
    let mut units = Vec::new();
    // Each stretch ends after its `;`; the last one at the end of the text (a diagnostic at
    // the very end, "expected …", belongs to it).
    let ends = separators.iter().copied().chain(std::iter::once(u32::MAX));
    for end in ends {
        let query = queries.next_if(|q| q.span.start < end);
        let mut mine = Vec::new();
        while let Some(d) = diags.next_if(|d| d.span.start < end) {
            mine.push(d.clone());
        }
        // Extra trees in one stretch cannot happen (the parser starts a query only after a
        // `;`), but none is dropped silently: each is refused with the stretch's errors.
        // The query's refusal is the first error §17.1's pipeline stops at (C37).
        let refused = cal_checker::as_pipeline_reports(&mine).into_iter().find(|d| d.is_error()).cloned();
        let outcome = match (query, refused) {
            (_, Some(e)) => Err(e),
            (Some(q), None) => Ok(q),
            (None, None) => continue, // blank, or only comments
        };
        units.push(Unit { outcome, warnings: mine.into_iter().filter(|d| !d.is_error()).collect() });
        while queries.next_if(|q| q.span.start < end).is_some() {}
    }
    Ok(Checked { units, diagnostics })
}

/// The JSON form: a document that does not read is one refusal; otherwise each query is
/// checked on its own (trees from JSON carry empty spans, so positions cannot tell whose a
/// diagnostic is).
fn check_json(text: &str, params: &Params) -> Result<Checked, String> {
    // Read in bounded memory: past the query cap the elements are only counted (ruling D3).
    let limits = cal_parser::json::ReadLimits { max_queries: MAX_DOCUMENT_QUERIES, ..Default::default() };
    let document = match cal_parser::json::read_document(text, &limits) {
        Ok(d) => d,
        Err(cal_parser::json::ReadError::TooManyQueries(n)) => return Err(too_many(n)),
        Err(cal_parser::json::ReadError::Refused(diagnostics)) => {
            let first = diagnostics.iter().find(|d| d.is_error()).cloned();
            let units = first.map(|e| Unit { outcome: Err(e), warnings: Vec::new() }).into_iter().collect();
            return Ok(Checked { units, diagnostics });
        }
    };
    let mut all = Vec::new();
    let mut units = Vec::new();
    for q in document.queries {
        let one = Document { queries: vec![q] };
        let diagnostics = cal_checker::check_document(&one, Some(params));
        let Some(q) = one.queries.into_iter().next() else { continue };
        let outcome = match diagnostics.iter().find(|d| d.is_error()) {
            Some(e) => Err(e.clone()),
            None => Ok(q),
        };
        let warnings = diagnostics.iter().filter(|d| !d.is_error()).cloned().collect();
        all.extend(diagnostics);
        units.push(Unit { outcome, warnings });
    }
    Ok(Checked { units, diagnostics: all })
}
