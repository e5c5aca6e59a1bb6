//! The checker's diagnostics in the shape an editor shows them: the message
//! with its suggestion, and the secondary labels as related locations.

use super::Document;
use super::docs;
use cal_grammar::{Diagnostic, Severity, Span};

/// One diagnostic, ready for conversion to the protocol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditorDiagnostic {
    /// Where.
    pub span: Span,
    /// `CAL-E003`.
    pub code: &'static str,
    /// The spec section that defines the rule, as a link.
    pub href: String,
    /// Error or warning.
    pub severity: Severity,
    /// Message, then the suggestion on its own line.
    pub message: String,
    /// Secondary labels.
    pub related: Vec<(Span, String)>,
}

/// Converts one front-end diagnostic.
pub fn convert(d: &Diagnostic) -> EditorDiagnostic {
    let info = d.code.info();
    let mut message = d.message.clone();
    if let Some(s) = &d.suggestion {
        message.push('\n');
        message.push_str(s);
    }
    EditorDiagnostic {
        span: d.span,
        code: info.code,
        href: docs::section_url(info.section),
        severity: d.severity,
        message,
        related: d.labels.iter().map(|l| (l.span, l.message.clone())).collect(),
    }
}

/// Every diagnostic of the document's latest analysis.
pub fn diagnostics(doc: &Document) -> Vec<EditorDiagnostic> {
    doc.analysis.diagnostics.iter().map(convert).collect()
}
