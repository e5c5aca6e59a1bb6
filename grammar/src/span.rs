//! Byte spans and the line index that turns them into the positions people read.

use serde::{Deserialize, Serialize};

/// A half-open range of UTF-8 byte offsets into the query text.
///
/// Every AST node and every diagnostic carries one. It is kept to two `u32`s
/// because queries are at most 8 KiB and files a few megabytes; conversion to
/// line/column (or to UTF-16 for the language server) happens only at the edge.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Span {
    /// Offset of the first byte.
    pub start: u32,
    /// Offset one past the last byte.
    pub end: u32,
}

impl Span {
    /// Builds a span from `usize` offsets (saturating at `u32::MAX`, far beyond any real input).
    #[inline]
    pub fn new(start: usize, end: usize) -> Self {
        let clamp = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Span { start: clamp(start), end: clamp(end.max(start)) }
    }

    /// The empty span at `offset`, used for "expected something here" at end of input.
    #[inline]
    pub fn empty(offset: usize) -> Self {
        Span::new(offset, offset)
    }

    /// The smallest span covering both.
    #[inline]
    pub fn cover(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end) }
    }

    /// The span as a `usize` range, for slicing the source.
    #[inline]
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }

    /// Length in bytes.
    #[inline]
    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }

    /// True for a zero-width span.
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }
}

/// Compact `start..end`, so that AST dumps in snapshots stay readable.
impl std::fmt::Debug for Span {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

impl From<std::ops::Range<usize>> for Span {
    fn from(r: std::ops::Range<usize>) -> Self {
        Span::new(r.start, r.end)
    }
}

/// A resolved position in the shape of the spec's error object (§22.1).
///
/// `start`/`end` are 0-based byte offsets; `line` and `col` are 1-based and
/// `col` counts characters (Unicode scalar values), not bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    /// 0-based byte offset of the start.
    pub start: u32,
    /// 0-based byte offset one past the end.
    pub end: u32,
    /// 1-based line of the start.
    pub line: u32,
    /// 1-based character column of the start.
    pub col: u32,
}

/// Precomputed line starts of a source text, so that many spans can be
/// resolved to line/column without rescanning the text each time.
#[derive(Debug, Clone)]
pub struct LineIndex<'a> {
    text: &'a str,
    line_starts: Vec<u32>,
}

impl<'a> LineIndex<'a> {
    /// Indexes `text` (one pass over its bytes). A line ends at `\n`, `\r\n` or a lone
    /// `\r`: the three line endings of the language server protocol, which the CLI's
    /// code frames count the same way.
    pub fn new(text: &'a str) -> Self {
        let bytes = text.as_bytes();
        let mut line_starts = vec![0];
        line_starts.extend(
            bytes
                .iter()
                .enumerate()
                .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
                .map(|(i, _)| u32::try_from(i + 1).unwrap_or(u32::MAX)),
        );
        LineIndex { text, line_starts }
    }

    /// The text this index was built over.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// 0-based line number and the byte offset where that line starts.
    pub fn line_of(&self, offset: u32) -> (usize, u32) {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        (line, self.line_starts[line])
    }

    /// Resolves a span to the §22.1 position object. Offsets past the end or
    /// inside a character are clamped to the nearest preceding boundary.
    pub fn position(&self, span: Span) -> Position {
        let start = self.floor_boundary(span.start);
        let end = self.floor_boundary(span.end).max(start);
        let (line, line_start) = self.line_of(start);
        let col = self.text[line_start as usize..start as usize].chars().count() + 1;
        Position {
            start,
            end,
            line: u32::try_from(line + 1).unwrap_or(u32::MAX),
            col: u32::try_from(col).unwrap_or(u32::MAX),
        }
    }

    /// The UTF-16 (line, character) pair the language server protocol wants.
    pub fn utf16_position(&self, offset: u32) -> (u32, u32) {
        let offset = self.floor_boundary(offset);
        let (line, line_start) = self.line_of(offset);
        let units: usize = self.text[line_start as usize..offset as usize].chars().map(char::len_utf16).sum();
        (u32::try_from(line).unwrap_or(u32::MAX), u32::try_from(units).unwrap_or(u32::MAX))
    }

    /// The byte offset of a UTF-16 (line, character) pair, clamped to the line.
    pub fn offset_of_utf16(&self, line: u32, character: u32) -> u32 {
        let Some(&line_start) = self.line_starts.get(line as usize) else {
            return u32::try_from(self.text.len()).unwrap_or(u32::MAX);
        };
        let line_end = self.line_starts.get(line as usize + 1).map_or(self.text.len(), |&s| s as usize - 1);
        let mut units = 0u32;
        for (i, c) in self.text[line_start as usize..line_end].char_indices() {
            if units >= character {
                return line_start + u32::try_from(i).unwrap_or(0);
            }
            units += u32::try_from(c.len_utf16()).unwrap_or(1);
        }
        u32::try_from(line_end).unwrap_or(u32::MAX)
    }

    fn floor_boundary(&self, offset: u32) -> u32 {
        let mut o = (offset as usize).min(self.text.len());
        while !self.text.is_char_boundary(o) {
            o -= 1;
        }
        u32::try_from(o).unwrap_or(u32::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_end_at_lf_crlf_and_a_lone_cr() {
        let text = "a\nb\r\nc\rd\u{2028}e";
        let index = LineIndex::new(text);
        let at = |c: char| {
            let p = index.position(Span::new(text.find(c).unwrap(), text.find(c).unwrap() + 1));
            (p.line, p.col)
        };
        assert_eq!([at('a'), at('b'), at('c'), at('d'), at('e')], [(1, 1), (2, 1), (3, 1), (4, 1), (4, 3)]);
        assert_eq!(index.offset_of_utf16(3, 0), text.find('d').unwrap() as u32);
    }

    #[test]
    fn spec_example_position() {
        // §22.1: `RECALL fact WHERE …` reports start 7, end 11, line 1, col 8.
        let src = "RECALL fact WHERE subject = \"alice\"";
        let idx = LineIndex::new(src);
        let p = idx.position(Span::new(7, 11));
        assert_eq!(p, Position { start: 7, end: 11, line: 1, col: 8 });
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let src = "-- ünïcode\nRECALL \"é\" x";
        let idx = LineIndex::new(src);
        let x = src.rfind('x').unwrap();
        let p = idx.position(Span::new(x, x + 1));
        assert_eq!((p.line, p.col), (2, 12));
        assert_eq!(idx.utf16_position(x as u32), (1, 11));
        assert_eq!(idx.offset_of_utf16(1, 11), x as u32);
    }

    #[test]
    fn offsets_inside_a_character_are_clamped() {
        let src = "é";
        let idx = LineIndex::new(src);
        assert_eq!(idx.position(Span::new(1, 2)).start, 0);
    }
}
