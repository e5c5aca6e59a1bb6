//! The checker's diagnostics in the shape an editor shows them: the message
//! with its suggestion, and the secondary labels as related locations.

use super::Document;
use cal_grammar::display::escape_for_display;
use cal_grammar::{Diagnostic, Severity, Span};

/// One diagnostic, ready for conversion to the protocol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditorDiagnostic {
    /// Where.
    pub span: Span,
    /// `CAL-E003`.
    pub code: &'static str,
    /// The spec section that defines the rule, cited in words (`CAL spec §5.1 (Grain
    /// Types (Closed Set))`): there is no published copy to link to, so the protocol's
    /// `codeDescription` link is left out (docs/spec-decisions-cli.md, L6).
    pub cites: String,
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
    // §22.1's suggestion, which every error has (the code's advice when nothing specific is known).
    message.push('\n');
    message.push_str(&escape_for_display(&d.suggestion_or_default()));
    EditorDiagnostic {
        span: d.span,
        code: info.code,
        cites: super::spec_sections::cite(info.section),
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
