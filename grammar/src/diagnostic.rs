//! The one diagnostic type of the toolchain, in the shape of the spec's error object (§22.1).
//!
//! Front-end crates produce these as data; the CLI renders them with
//! `ariadne`, the language server converts them to LSP diagnostics, and
//! `--json` prints [`Diagnostic::to_json`]. Nobody formats an error by hand.

use crate::advice::advice;
use crate::codes::{Code, Severity};
use crate::display::escape_for_display;
use crate::span::{LineIndex, Span};
use serde_json::{Map, Value, json};

/// A secondary location that explains the primary one ("first defined here").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What to say there.
    pub message: String,
}

/// A problem found in a query, with everything a person (or an LLM) needs to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The registry code (`CAL-Exxx` / `CAL-Wxxx`).
    pub code: Code,
    /// Error or warning; follows from the code.
    pub severity: Severity,
    /// What is wrong, in one sentence.
    pub message: String,
    /// The primary location.
    pub span: Span,
    /// Secondary locations.
    pub labels: Vec<Label>,
    /// How to fix it ("Did you mean `beliefs`?").
    pub suggestion: Option<String>,
    /// A corrected query or fragment.
    pub example: Option<String>,
    /// The closed set the value should have come from, when there is one.
    pub valid_values: Vec<String>,
    /// What the parser would have accepted at this position.
    pub expected: Vec<String>,
    /// Text that fixes the problem when it replaces [`Diagnostic::span`]; the language
    /// server offers it as a quick fix and the CLI builds the example from it.
    pub replacement: Option<String>,
    /// An edit at another place of the query that resolves the problem without being the
    /// one obvious fix (the grain type to query for a field of another type, a field that
    /// this stage accepts): the example is built from it, but no quick fix applies it.
    pub rewrite: Option<(Span, String)>,
}

impl Diagnostic {
    /// A diagnostic with just a code, message and span; add the rest with the builders.
    pub fn new(code: Code, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: code.severity(),
            message: message.into(),
            span,
            labels: Vec::new(),
            suggestion: None,
            example: None,
            valid_values: Vec::new(),
            expected: Vec::new(),
            replacement: None,
            rewrite: None,
        }
    }

    /// Adds a machine-applicable fix for the primary span.
    pub fn with_replacement(mut self, text: impl Into<String>) -> Self {
        self.replacement = Some(text.into());
        self
    }

    /// Adds an edit elsewhere that resolves the problem (see [`Diagnostic::rewrite`]).
    pub fn with_rewrite(mut self, span: Span, text: impl Into<String>) -> Self {
        self.rewrite = Some((span, text.into()));
        self
    }

    /// The edit this diagnostic's example is built from: the replacement of its span, else
    /// its rewrite.
    pub fn own_edit(&self) -> Option<(Span, &str)> {
        match (&self.replacement, &self.rewrite) {
            (Some(fix), _) => Some((self.span, fix.as_str())),
            (None, Some((span, text))) => Some((*span, text.as_str())),
            (None, None) => None,
        }
    }

    /// Fills in `example` from [`Diagnostic::own_edit`]: the query text (`query_span` of
    /// `source`) with that edit applied. Does nothing when there is already an example.
    pub fn complete_example(&mut self, source: &str, query_span: Span) {
        if self.example.is_some() {
            return;
        }
        let Some(edit) = self.own_edit() else { return };
        self.example = apply_edits(source, query_span, &[edit]);
    }

    /// Adds the fix.
    pub fn with_suggestion(mut self, s: impl Into<String>) -> Self {
        self.suggestion = Some(s.into());
        self
    }

    /// Adds a corrected example.
    pub fn with_example(mut self, s: impl Into<String>) -> Self {
        self.example = Some(s.into());
        self
    }

    /// Adds the closed set of valid values.
    pub fn with_valid_values<I, S>(mut self, values: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.valid_values = values.into_iter().map(Into::into).collect();
        self
    }

    /// Adds the list of acceptable tokens.
    pub fn with_expected(mut self, expected: Vec<String>) -> Self {
        self.expected = expected;
        self
    }

    /// Adds a secondary label.
    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label { span, message: message.into() });
        self
    }

    /// True when the diagnostic rejects the query.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The suggestion, or — §22.1 makes a suggestion mandatory on every error — what
    /// would have been accepted here, the valid values, or the code's [`advice`]: always
    /// something to do, never a bare pointer to the spec or an internal name.
    pub fn suggestion_or_default(&self) -> String {
        /// How many expected tokens or valid values a sentence lists before "and N more".
        const SHOWN: usize = 8;
        fn list(items: &[String], last: &str) -> String {
            let shown: Vec<&str> = items.iter().take(SHOWN).map(String::as_str).collect();
            match shown.as_slice() {
                _ if items.len() > SHOWN => format!("{} and {} more", shown.join(", "), items.len() - SHOWN),
                [init @ .., tail] if !init.is_empty() => format!("{}{last}{tail}", init.join(", ")),
                _ => shown.join(""),
            }
        }
        match &self.suggestion {
            Some(s) => s.clone(),
            None if !self.expected.is_empty() => format!("Write {} at this point.", list(&self.expected, " or ")),
            None if !self.valid_values.is_empty() => {
                format!("Use one of the valid values: {}.", list(&self.valid_values, ", "))
            }
            None => advice(self.code),
        }
    }

    /// The spec's error object (§22.1) plus `"severity"`, with positions resolved against `source`.
    /// Texts that may quote the query have their bidi and control characters escaped
    /// ([`escape_for_display`]): whoever shows the object must not be shown a Trojan Source.
    pub fn to_json(&self, index: &LineIndex<'_>) -> Value {
        let mut obj = Map::new();
        obj.insert("code".into(), json!(self.code.as_str()));
        obj.insert("severity".into(), json!(self.severity));
        obj.insert("message".into(), json!(escape_for_display(&self.message)));
        obj.insert("position".into(), json!(index.position(self.span)));
        obj.insert("suggestion".into(), json!(escape_for_display(&self.suggestion_or_default())));
        if let Some(example) = &self.example {
            obj.insert("example".into(), json!(escape_for_display(example)));
        }
        if !self.valid_values.is_empty() {
            obj.insert("valid_values".into(), json!(self.valid_values));
        }
        if !self.expected.is_empty() {
            obj.insert("expected".into(), json!(self.expected));
        }
        if !self.labels.is_empty() {
            let labels: Vec<Value> = self
                .labels
                .iter()
                .map(|l| json!({"message": escape_for_display(&l.message), "position": index.position(l.span)}))
                .collect();
            obj.insert("related".into(), Value::Array(labels));
        }
        Value::Object(obj)
    }
}

/// The text of `query_span` in `source` with `edits` applied, trimmed; an edit overlapping
/// an earlier one (in source order) is left out. `None` when an edit lies outside the query
/// or a span does not fall on character boundaries.
pub fn apply_edits(source: &str, query_span: Span, edits: &[(Span, &str)]) -> Option<String> {
    let query = source.get(query_span.range())?;
    if edits.iter().any(|(s, _)| s.start < query_span.start || s.end > query_span.end || s.start > s.end) {
        return None;
    }
    let mut sorted: Vec<(Span, &str)> = edits.to_vec();
    sorted.sort_by_key(|(s, _)| (s.start, s.end));
    let mut out = String::with_capacity(query.len());
    let mut at = 0usize;
    for (span, text) in sorted {
        let (s, e) = ((span.start - query_span.start) as usize, (span.end - query_span.start) as usize);
        if s < at {
            continue;
        }
        out.push_str(query.get(at..s)?);
        out.push_str(text);
        at = e;
    }
    out.push_str(query.get(at..)?);
    Some(out.trim().to_string())
}

/// Rebuilds the examples of the diagnostics of one query (those inside `query_span`) that
/// were built from their own edit alone, so that each shows the query with every
/// machine-applicable fix applied: an example must not repeat the user's other typos.
/// Explicit examples (a canonical query given by whoever reported it) are kept.
pub fn complete_examples_together(diagnostics: &mut [Diagnostic], source: &str, query_span: Span) {
    let inside = |d: &Diagnostic| d.span.start >= query_span.start && d.span.end <= query_span.end;
    let fixes: Vec<(Span, String)> = diagnostics
        .iter()
        .filter(|d| inside(d))
        .filter_map(|d| d.replacement.as_ref().map(|r| (d.span, r.clone())))
        .collect();
    if fixes.is_empty() || query_span.is_empty() {
        return;
    }
    for d in diagnostics.iter_mut().filter(|d| inside(d)) {
        let Some(own) = d.own_edit().map(|(s, t)| (s, t.to_string())) else { continue };
        let alone = apply_edits(source, query_span, &[(own.0, own.1.as_str())]);
        if d.example.is_some() && d.example != alone {
            continue;
        }
        // Its own edit first, so that another fix overlapping it gives way.
        let mut edits: Vec<(Span, &str)> = vec![(own.0, own.1.as_str())];
        let overlaps = |a: Span, b: Span| a.start < b.end && b.start < a.end || a == b;
        edits.extend(fixes.iter().filter(|(s, _)| !overlaps(*s, own.0)).map(|(s, t)| (*s, t.as_str())));
        // Only comments left (a stray `;` removed) is no example.
        let has_query = |e: &String| e.lines().any(|l| !l.trim().is_empty() && !l.trim_start().starts_with("--"));
        if let Some(example) = apply_edits(source, query_span, &edits).filter(has_query) {
            d.example = Some(example);
        }
    }
}

/// Sorts diagnostics into source order (then by code), the order every consumer shows them in.
pub fn sort_diagnostics(diags: &mut [Diagnostic]) {
    diags.sort_by_key(|d| (d.span.start, d.span.end, d.code));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_object_matches_spec_shape() {
        let src = "RECALL fact WHERE subject = \"alice\"";
        let d = Diagnostic::new(Code::E003, Span::new(7, 11), "Unknown grain type \"fact\".")
            .with_suggestion("Did you mean \"belief\"? (OMS renamed Fact -> Belief in v1.2)")
            .with_example("RECALL beliefs WHERE subject = \"alice\"")
            .with_valid_values(["belief", "event"]);
        let v = d.to_json(&LineIndex::new(src));
        assert_eq!(v["code"], "CAL-E003");
        assert_eq!(v["severity"], "error");
        assert_eq!(v["position"], json!({"start": 7, "end": 11, "line": 1, "col": 8}));
        assert_eq!(v["valid_values"][0], "belief");
    }

    #[test]
    fn every_error_gets_a_suggestion() {
        let d = Diagnostic::new(Code::E014, Span::empty(0), "Empty query.");
        let v = d.to_json(&LineIndex::new(""));
        assert_eq!(v["suggestion"], "Write a statement, for example a RECALL.");
        let expected = Diagnostic::new(Code::E002, Span::empty(0), "Unexpected end of query.")
            .with_expected(vec!["`)`".into(), "`,`".into()]);
        assert_eq!(expected.suggestion_or_default(), "Write `)` or `,` at this point.");
    }
}
