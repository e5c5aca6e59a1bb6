//! Showing query text to a person without letting the text take over the display.
//!
//! A diagnostic quotes the query (a message names the unexpected word, an example
//! repeats the corrected query, a code frame shows the line), and the query may hold
//! what §16.3 rejects: bidi controls that reorder how a line reads ("Trojan Source"),
//! or control characters that a terminal obeys (an escape sequence in a comment). The
//! rejection is the lexer's job; this module makes sure that quoting the rejected text
//! does not do the harm the rejection prevents.

use std::borrow::Cow;

/// The bidi override and isolate characters CAL rejects (§16.3).
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Whether `c` would act on a terminal or on the text's direction rather than show as
/// itself: the bidi controls, and every control character but tab and line feed.
/// (A carriage return is one too: alone it moves the cursor back over the line.)
pub fn is_unsafe_to_show(c: char) -> bool {
    is_bidi_control(c) || (c.is_control() && c != '\n' && c != '\t')
}

/// `s` with every character that [`is_unsafe_to_show`] escaped as `\u{XXXX}`, for the
/// messages, suggestions and examples of a diagnostic. Borrowed when nothing needs it.
/// A `\r\n` line ending is kept as it is.
pub fn escape_for_display(s: &str) -> Cow<'_, str> {
    let needs = |(i, c): (usize, char)| is_unsafe_to_show(c) && !(c == '\r' && s[i + 1..].starts_with('\n'));
    if !s.char_indices().any(needs) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for (i, c) in s.char_indices() {
        if needs((i, c)) {
            out.push_str(&format!("\\u{{{:04X}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// The bytes of a query as text to draw code frames from, with every byte offset and
/// line where it was: invalid UTF-8 and unsafe control characters become `?` (one per
/// byte), bidi controls U+FFFD (three bytes, like them), and so do the Unicode line and
/// paragraph separators, which a code-frame renderer would count as line breaks where
/// [`LineIndex`](crate::LineIndex) (and the language server protocol) does not. Spans computed on the bytes
/// therefore stay on character boundaries of the result, which a renderer slicing by
/// byte offset needs (`String::from_utf8_lossy` would shift every offset after the
/// first bad byte).
pub fn display_source(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if is_bidi_control(c) || matches!(c, '\u{2028}' | '\u{2029}') {
                out.push('\u{FFFD}');
            } else if is_unsafe_to_show(c) && c != '\r' {
                out.extend(std::iter::repeat_n('?', c.len_utf8()));
            } else {
                out.push(c);
            }
        }
        out.extend(std::iter::repeat_n('?', chunk.invalid().len()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_borrowed() {
        assert!(matches!(escape_for_display("RECALL beliefs ABOUT \"née\"\n\t| LIMIT 5"), Cow::Borrowed(_)));
    }

    #[test]
    fn controls_and_bidi_are_escaped_but_line_endings_kept() {
        let s = "a\u{202E}b\u{2066}c\x1b[31md\re\r\nf\u{9B}";
        assert_eq!(escape_for_display(s), "a\\u{202E}b\\u{2066}c\\u{001B}[31md\\u{000D}e\r\nf\\u{009B}");
    }

    #[test]
    fn display_source_keeps_every_offset() {
        let bytes = b"RECALL \xff beliefs \xe2\x80\xae \xe2\x82 \x1b \xc2\x9b \r\n\t\xf0\x9f\x98\x80 \xe2\x80\xa8end";
        let shown = display_source(bytes);
        assert_eq!(shown.len(), bytes.len());
        assert_eq!(shown, "RECALL ? beliefs \u{FFFD} ?? ? ?? \r\n\t\u{1F600} \u{FFFD}end");
        // Every offset that starts a character (or an invalid byte) in the input starts one in the output.
        for (i, _) in shown.char_indices() {
            assert!(shown.is_char_boundary(i));
        }
        assert!(!shown.chars().any(|c| is_bidi_control(c) || (c.is_control() && !"\r\n\t".contains(c))));
    }
}
