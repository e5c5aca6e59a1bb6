//! Byte offsets ⇄ LSP positions. The front end speaks UTF-8 byte offsets; LSP
//! speaks (line, character) where a character is a UTF-16 code unit unless the
//! client and server agree on UTF-8. This is the only place that converts.

use cal_grammar::{LineIndex, Span};

/// The position encoding negotiated with the client (LSP 3.17 `positionEncoding`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Encoding {
    /// Characters are UTF-8 bytes, used when the client offers `utf-8`.
    Utf8,
    /// Characters are UTF-16 code units: the protocol's default.
    #[default]
    Utf16,
}

/// A line index over one text with the negotiated encoding.
#[derive(Debug, Clone)]
pub struct Lines<'a> {
    index: LineIndex<'a>,
    encoding: Encoding,
}

impl<'a> Lines<'a> {
    /// Indexes `text` (one pass).
    pub fn new(text: &'a str, encoding: Encoding) -> Self {
        Lines { index: LineIndex::new(text), encoding }
    }

    /// The (line, character) of a byte offset; offsets past the end or inside a character are clamped.
    pub fn position(&self, offset: u32) -> (u32, u32) {
        match self.encoding {
            Encoding::Utf16 => self.index.utf16_position(offset),
            Encoding::Utf8 => {
                let offset = floor(self.index.text(), offset as usize);
                let (line, start) = self.index.line_of(offset);
                (u32::try_from(line).unwrap_or(u32::MAX), offset - start)
            }
        }
    }

    /// Both ends of a span.
    pub fn range(&self, span: Span) -> ((u32, u32), (u32, u32)) {
        (self.position(span.start), self.position(span.end))
    }

    /// The byte offset of a (line, character) pair, clamped to the line and to a character boundary.
    pub fn offset(&self, line: u32, character: u32) -> u32 {
        match self.encoding {
            Encoding::Utf16 => self.index.offset_of_utf16(line, character),
            Encoding::Utf8 => {
                let text = self.index.text();
                let len = u32::try_from(text.len()).unwrap_or(u32::MAX);
                let start = self.offset_of_line(line);
                if start >= len {
                    return len;
                }
                let line_end = text[start as usize..].find(['\r', '\n']).map_or(text.len(), |i| start as usize + i);
                let want = (start as usize).saturating_add(character as usize).min(line_end);
                floor(text, want)
            }
        }
    }

    fn offset_of_line(&self, line: u32) -> u32 {
        // The UTF-16 offset of character 0 is the line start in every encoding.
        self.index.offset_of_utf16(line, 0)
    }
}

fn floor(text: &str, offset: usize) -> u32 {
    let mut o = offset.min(text.len());
    while !text.is_char_boundary(o) {
        o -= 1;
    }
    u32::try_from(o).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_encodings_round_trip() {
        let text = "-- é😀\nRECALL x";
        for enc in [Encoding::Utf8, Encoding::Utf16] {
            let lines = Lines::new(text, enc);
            for (i, _) in text.char_indices() {
                let (l, c) = lines.position(i as u32);
                assert_eq!(lines.offset(l, c), i as u32, "{enc:?} {i}");
            }
        }
        assert_eq!(Lines::new(text, Encoding::Utf16).position(text.len() as u32 - 1), (1, 7));
        assert_eq!(Lines::new(text, Encoding::Utf8).position(9), (0, 9));
        assert_eq!(Lines::new(text, Encoding::Utf16).position(9), (0, 6));
        assert_eq!(Lines::new(text, Encoding::Utf8).offset(9, 9), text.len() as u32);
    }
}
