//! The one diagnostic type of the toolchain, in the shape of the spec's error object (§22.1).
//!
//! Front-end crates produce these as data; the CLI renders them with
//! `ariadne`, the language server converts them to LSP diagnostics, and
//! `--json` prints [`Diagnostic::to_json`]. Nobody formats an error by hand.

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
        }
    }

    /// Adds a machine-applicable fix for the primary span.
    pub fn with_replacement(mut self, text: impl Into<String>) -> Self {
        self.replacement = Some(text.into());
        self
    }

    /// Fills in `example` from `replacement`: the query text (`query_span` of `source`)
    /// with the primary span replaced. Does nothing when there is already an example.
    pub fn complete_example(&mut self, source: &str, query_span: Span) {
        if self.example.is_some() {
            return;
        }
        let (Some(fix), Some(q)) = (&self.replacement, source.get(query_span.range())) else { return };
        let (s, e) = (
            self.span.start.saturating_sub(query_span.start) as usize,
            self.span.end.saturating_sub(query_span.start) as usize,
        );
        if let (Some(before), Some(after)) = (q.get(..s), q.get(e..)) {
            self.example = Some(format!("{before}{fix}{after}").trim().to_string());
        }
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

    /// The suggestion, or a generic pointer to the rule when no specific fix is known:
    /// §22.1 makes a suggestion mandatory on every error.
    pub fn suggestion_or_default(&self) -> String {
        match &self.suggestion {
            Some(s) => s.clone(),
            None => {
                let info = self.code.info();
                format!("See CAL spec §{} ({}).", info.section, info.name)
            }
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
        assert!(v["suggestion"].as_str().unwrap().contains("§4"));
    }
}
