//! The byte tests the scanner runs on every query: which bytes start and
//! continue a word, where a string literal ends, whether text is ASCII.
//! Where eight bytes remain they are tested at once in a `u64` ("SIMD within
//! a register"), without a branch per byte and without `unsafe` or
//! target-specific intrinsics; the byte-at-a-time definitions are kept beside
//! them, for the last few bytes and for the tests that check one against the
//! other.

/// A word whose eight bytes are all `b`.
pub(crate) const fn splat(b: u8) -> u64 {
    u64::from_ne_bytes([b; 8])
}

/// The high bit of each byte.
pub(crate) const HIGH: u64 = splat(0x80);

/// Eight bytes of text in memory order (lowest address in the lowest byte),
/// when there are eight from `at`.
#[inline(always)]
pub(crate) fn word_at(bytes: &[u8], at: usize) -> Option<u64> {
    let chunk: [u8; 8] = bytes.get(at..at.checked_add(8)?)?.try_into().ok()?;
    Some(u64::from_le_bytes(chunk))
}

/// Non-zero exactly when some byte of `w` is zero; the lowest set bit is the
/// high bit of the first zero byte (bits above it may be set spuriously).
#[inline(always)]
pub(crate) fn zero_bytes(w: u64) -> u64 {
    w.wrapping_sub(splat(1)) & !w & HIGH
}

/// Whether every byte is ASCII.
#[inline]
pub(crate) fn is_ascii(bytes: &[u8]) -> bool {
    let mut chunks = bytes.chunks_exact(16);
    let mut acc = 0u64;
    for c in &mut chunks {
        let (a, b) = c.split_at(8);
        acc |= word_at(a, 0).unwrap_or(0) | word_at(b, 0).unwrap_or(0);
    }
    acc & HIGH == 0 && chunks.remainder().iter().all(|&b| b < 0x80)
}

/// Whether every byte is ASCII and none is a backslash: a string literal
/// whose value is its text.
#[inline]
pub(crate) fn is_plain_ascii(bytes: &[u8]) -> bool {
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let w = word_at(c, 0).unwrap_or(HIGH);
        if (w & HIGH) | zero_bytes(w ^ splat(b'\\')) != 0 {
            return false;
        }
    }
    chunks.remainder().iter().all(|&b| b < 0x80 && b != b'\\')
}

/// Bytes that may continue an identifier, as a table. Words are short (six
/// bytes on average), so each byte is looked up (`ident_end`) rather than
/// eight classified at once in a `u64`, which measured 128 instructions
/// more per simple RECALL and no faster.
static IDENT: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || c == b'_';
        b += 1;
    }
    t
};

/// Whether `b` may start a word (`[A-Za-z_]`): a keyword, a name, `sha256:`.
#[inline(always)]
pub(crate) fn is_word_start(b: u8) -> bool {
    (b | 0x20).wrapping_sub(b'a') < 26 || b == b'_'
}

/// Whether `b` may continue an identifier (`[A-Za-z0-9_]`).
#[inline]
pub(crate) fn is_ident(b: u8) -> bool {
    IDENT[b as usize]
}

/// The offset of the first byte at or after `j` that does not continue an
/// identifier, or the end of the text. Eight bytes at a time where eight
/// remain, each tested through the table with no bounds check of its own (a
/// fixed-size chunk), which halves the instructions per byte of the plain loop.
#[inline(always)]
pub(crate) fn ident_end(bytes: &[u8], mut j: usize) -> usize {
    while let Some(chunk) = bytes.get(j..).and_then(|rest| rest.first_chunk::<8>()) {
        for (k, &b) in chunk.iter().enumerate() {
            if !is_ident(b) {
                return j + k;
            }
        }
        j += 8;
    }
    while j < bytes.len() && is_ident(bytes[j]) {
        j += 1;
    }
    j
}

/// The offset of the first `"` or `\` at or after `j`, or the end of the text.
#[inline(always)]
pub(crate) fn quote_or_backslash(bytes: &[u8], mut j: usize) -> usize {
    while let Some(w) = word_at(bytes, j) {
        let hit = zero_bytes(w ^ splat(b'"')) | zero_bytes(w ^ splat(b'\\'));
        if hit != 0 {
            return j + (hit.trailing_zeros() / 8) as usize;
        }
        j += 8;
    }
    while j < bytes.len() && bytes[j] != b'"' && bytes[j] != b'\\' {
        j += 1;
    }
    j
}

/// The offset of the first `"`, `\` or non-ASCII byte at or after `j`, or the
/// end of the text: where a string literal stops being its own value as written.
#[inline(always)]
pub(crate) fn quote_backslash_or_high(bytes: &[u8], mut j: usize) -> usize {
    while let Some(w) = word_at(bytes, j) {
        let hit = zero_bytes(w ^ splat(b'"')) | zero_bytes(w ^ splat(b'\\')) | (w & HIGH);
        if hit != 0 {
            return j + (hit.trailing_zeros() / 8) as usize;
        }
        j += 8;
    }
    while j < bytes.len() && bytes[j] != b'"' && bytes[j] != b'\\' && bytes[j] < 0x80 {
        j += 1;
    }
    j
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn agree_with_byte_loops(text in "[a-z\\\\\"\u{e9}\u{202e} ]{0,40}") {
            let b = text.as_bytes();
            prop_assert_eq!(is_ascii(b), b.is_ascii());
            prop_assert_eq!(is_plain_ascii(b), b.iter().all(|&c| c < 0x80 && c != b'\\'));
        }
    }

    #[test]
    fn a_high_or_backslash_byte_is_seen_anywhere() {
        for len in 0..40 {
            let ascii = vec![b'a'; len];
            assert!(is_ascii(&ascii) && is_plain_ascii(&ascii), "{len}");
            for at in 0..len {
                let mut high = ascii.clone();
                high[at] = 0xC3;
                assert!(!is_ascii(&high) && !is_plain_ascii(&high), "{len} {at}");
                let mut slash = ascii.clone();
                slash[at] = b'\\';
                assert!(is_ascii(&slash) && !is_plain_ascii(&slash), "{len} {at}");
            }
        }
    }

    /// Every byte value, at every position of texts shorter and longer than a chunk.
    #[test]
    fn identifier_ends_agree_with_a_byte_loop() {
        for len in 0..20 {
            for at in 0..len {
                for b in 0..=255u8 {
                    let mut text = vec![b'a'; len];
                    text[at] = b;
                    for from in 0..=len {
                        let expected = text[from..].iter().position(|&c| !is_ident(c)).map_or(len, |p| from + p);
                        assert_eq!(ident_end(&text, from), expected, "{len} {at} {b:#04x} {from}");
                    }
                }
            }
        }
    }

    #[test]
    fn word_starts_are_letters_and_underscore() {
        for b in 0..=255u8 {
            assert_eq!(is_word_start(b), b.is_ascii_alphabetic() || b == b'_', "{b:#04x}");
        }
    }

    proptest! {
        #[test]
        fn string_ends_agree_with_a_byte_loop(text in "[a-zA-Z0-9_\"\\\\ .\u{e9}\u{202e}-]{0,40}", from in 0usize..40) {
            let bytes = text.as_bytes();
            let from = from.min(bytes.len());
            let expected = bytes[from..].iter().position(|&c| c == b'"' || c == b'\\').map_or(bytes.len(), |p| from + p);
            prop_assert_eq!(quote_or_backslash(bytes, from), expected);
            let expected = bytes[from..].iter().position(|&c| c == b'"' || c == b'\\' || c >= 0x80).map_or(bytes.len(), |p| from + p);
            prop_assert_eq!(quote_backslash_or_high(bytes, from), expected);
        }
    }
}
