//! The checker's diagnostics in the shape an editor shows them: the message
//! with its suggestion, and the secondary labels as related locations.

use super::Document;
use super::docs;
use cal_grammar::display::escape_for_display;
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

/// Converts one front-end diagnostic. Texts that may quote the document have their
/// bidi and control characters escaped: an editor's hover must not be reordered by the
/// very character the diagnostic rejects (§16.3).
pub fn convert(d: &Diagnostic) -> EditorDiagnostic {
    let info = d.code.info();
    let mut message = escape_for_display(&d.message).into_owned();
    if let Some(s) = &d.suggestion {
        message.push('\n');
        message.push_str(&escape_for_display(s));
    }
    EditorDiagnostic {
        span: d.span,
        code: info.code,
        href: docs::section_url(info.section),
        severity: d.severity,
        message,
        related: d.labels.iter().map(|l| (l.span, escape_for_display(&l.message).into_owned())).collect(),
    }
}

/// Every diagnostic of the document's latest analysis.
pub fn diagnostics(doc: &Document) -> Vec<EditorDiagnostic> {
    doc.analysis.diagnostics.iter().map(convert).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use cal_grammar::Code;

    #[test]
    fn bidi_and_control_characters_reach_the_editor_escaped() {
        let d = Diagnostic::new(Code::E002, Span::new(0, 1), "Unexpected `a\u{202E}b`.")
            .with_suggestion("Remove `\u{1b}[2J`.");
        let e = convert(&d);
        assert_eq!(e.message, "Unexpected `a\\u{202E}b`.\nRemove `\\u{001B}[2J`.");
    }
}
