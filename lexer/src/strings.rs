//! String literal values: escape resolution and NFC normalization (§3.4, §16.2).

use std::borrow::Cow;
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

/// Resolves the escapes of a string literal's raw inside and NFC-normalizes it.
///
/// Only `\"` and `\\` are escapes; any other backslash stands for itself, which
/// keeps every string the spec's grammar accepts meaning what it says there
/// (docs/spec-decisions.md). Borrows when nothing needs to change, which is the
/// common case, so the hot path does not allocate here.
pub fn string_value(raw: &str) -> Cow<'_, str> {
    // Most literals are short ASCII without escapes: one pass decides, and they are already NFC.
    if crate::swar::is_plain_ascii(raw.as_bytes()) {
        return Cow::Borrowed(raw);
    }
    let unescaped: Cow<'_, str> = if raw.contains('\\') {
        let mut out = String::with_capacity(raw.len());
        let mut chars = raw.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                match chars.next() {
                    Some('"') => out.push('"'),
                    Some('\\') => out.push('\\'),
                    Some(other) => {
                        out.push('\\');
                        out.push(other);
                    }
                    None => out.push('\\'),
                }
            } else {
                out.push(c);
            }
        }
        Cow::Owned(out)
    } else {
        Cow::Borrowed(raw)
    };
    nfc(unescaped)
}

/// NFC-normalizes, borrowing when the text is already NFC (all ASCII text is).
pub fn nfc(text: Cow<'_, str>) -> Cow<'_, str> {
    if crate::swar::is_ascii(text.as_bytes()) || is_nfc_quick(text.chars()) == IsNormalized::Yes {
        return text;
    }
    Cow::Owned(text.nfc().collect())
}

/// Writes a value back as a string literal that [`string_value`] reads as the same value.
pub fn quote(value: &str, out: &mut String) {
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(string_value(r#"say \"hi\""#), "say \"hi\"");
        assert_eq!(string_value(r"a\\b"), "a\\b");
        assert_eq!(string_value(r"C:\path\n"), "C:\\path\\n");
        assert!(matches!(string_value("plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn nfc_normalizes_decomposed_text() {
        let decomposed = "e\u{0301}";
        assert_eq!(string_value(decomposed), "\u{00e9}");
        assert!(matches!(string_value("caf\u{00e9}"), Cow::Borrowed(_)));
    }

    #[test]
    fn quote_round_trips() {
        for v in ["", "a\"b", "back\\slash", "end\\", "multi\nline", "\\\""] {
            let mut s = String::new();
            quote(v, &mut s);
            assert_eq!(string_value(&s[1..s.len() - 1]), v, "{s}");
        }
    }
}
