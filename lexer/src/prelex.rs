//! Checks on the raw bytes before any token exists (§3.1, §16.1, §16.3, §17.3).

use cal_grammar::{Code, Diagnostic, Span, limits};

/// Decodes the query bytes as UTF-8 (CAL-E070 at the first bad byte otherwise).
// The error path is cold and its Diagnostic goes straight into a Vec; boxing it buys nothing.
#[allow(clippy::result_large_err)]
pub fn decode_utf8(bytes: &[u8]) -> Result<&str, Diagnostic> {
    std::str::from_utf8(bytes).map_err(|e| {
        // The empty span at the first bad byte (conformance ruling C3): how many bytes a bad
        // sequence spans is a choice each decoder makes differently, where it starts is not.
        let at = e.valid_up_to();
        Diagnostic::new(
            Code::E070,
            Span::empty(at),
            format!("The query is not valid UTF-8: invalid byte sequence at byte offset {at}."),
        )
        .with_suggestion("Encode the query as UTF-8 (§16.1).")
    })
}

/// CAL-E001 when a single query is longer than 8,192 bytes.
#[inline]
pub fn check_length(span: Span) -> Option<Diagnostic> {
    (span.len() > limits::MAX_QUERY_BYTES).then(|| too_long(span))
}

/// The CAL-E001 diagnostic. Its example is the usual fix, not the query cut short (which is
/// no query): the long text bound as a parameter, its value sent beside the query (§3.4, §22.1
/// "example correction").
#[cold]
fn too_long(span: Span) -> Diagnostic {
    let len = span.len();
    Diagnostic::new(
        Code::E001,
        span,
        format!("The query is {len} bytes long; the maximum is {} bytes.", limits::MAX_QUERY_BYTES),
    )
    .with_suggestion("Split the query, or move repeated values into parameters or LET bindings.")
    .with_example("RECALL beliefs WHERE object = $text")
}

pub use cal_grammar::display::is_bidi_control;

/// CAL-E071 for every bidi control character anywhere in the text.
///
/// §16.3 names string literals; we reject them everywhere, comments included,
/// because a bidi override in a comment reorders how the rest of the line is
/// displayed ("Trojan Source") just as well (docs/spec-decisions.md).
pub fn check_bidi(text: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    // Most queries are ASCII.
    if crate::swar::is_ascii(text.as_bytes()) {
        return out;
    }
    let bytes = text.as_bytes();
    // Every bidi control encodes as E2 80 AA..AE or E2 81 A6..A9: scan for the lead byte.
    let mut i = 0;
    while let Some(p) = bytes[i..].iter().position(|&b| b == 0xE2) {
        let at = i + p;
        if let Some(c) = text.get(at..).and_then(|s| s.chars().next())
            && is_bidi_control(c)
        {
            out.push(
                Diagnostic::new(
                    Code::E071,
                    Span::new(at, at + c.len_utf8()),
                    format!("Bidirectional control character U+{:04X} is not allowed in a query.", c as u32),
                )
                .with_suggestion("Remove the character; grain content is stored in logical order (§16.3)."),
            );
        }
        i = at + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_error_points_at_bad_byte() {
        let d = decode_utf8(b"RECALL \xff beliefs").unwrap_err();
        assert_eq!(d.code, Code::E070);
        // The empty span at the bad byte, as the conformance suite's E070 cases say (ruling C3);
        // the span used to cover the bad sequence, and `cal check --json` then disagreed with them.
        assert_eq!(d.span, Span::empty(7));
        let d = decode_utf8(b"RECALL \xe2\x82 beliefs").unwrap_err();
        assert_eq!(d.span, Span::empty(7));
    }

    #[test]
    fn length_boundary() {
        let at = "a".repeat(limits::MAX_QUERY_BYTES);
        assert!(check_length(Span::new(0, at.len())).is_none());
        let over = "a".repeat(limits::MAX_QUERY_BYTES + 1);
        assert_eq!(check_length(Span::new(0, over.len())).unwrap().code, Code::E001);
    }

    /// The query cut short is not a query: E001's example is the usual fix, a parameter (§22.1).
    #[test]
    fn length_error_shows_the_parameter_fix() {
        let over = format!("{}§{}", "a".repeat(39), "b".repeat(limits::MAX_QUERY_BYTES));
        let d = check_length(Span::new(0, over.len())).unwrap();
        assert_eq!(d.example.as_deref(), Some("RECALL beliefs WHERE object = $text"));
        assert!(d.suggestion.is_some());
    }

    #[test]
    fn every_bidi_control_is_found() {
        for c in
            ['\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}', '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}']
        {
            let text = format!("RECALL ABOUT \"a{c}b\"");
            let d = check_bidi(&text);
            assert_eq!(d.len(), 1, "{c:?}");
            assert_eq!(d[0].span.start, 15);
        }
        // Neighbours of the ranges are fine.
        assert!(check_bidi("\u{2029}\u{2065}\u{206A}\u{2013}").is_empty());
    }
}
