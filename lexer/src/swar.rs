//! The byte tests the scanner runs on every query: which bytes continue an
//! identifier, where a word or a string literal ends, whether text is ASCII.
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

/// Bytes that may continue an identifier, as a table: the byte-at-a-time
/// definition, used where fewer than eight bytes remain and by the tests
/// that check the word-at-a-time code against it.
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

/// Whether `b` may continue an identifier (`[A-Za-z0-9_]`).
#[inline]
pub(crate) fn is_ident(b: u8) -> bool {
    IDENT[b as usize]
}

/// The high bit set in each byte of `w` that is *not* an identifier byte
/// (`[A-Za-z0-9_]`), eight bytes at once (SWAR). On 7-bit values the sums
/// below stay inside their byte, so each byte is tested on its own:
/// `v + (0x80 - k)` has its high bit set exactly when `v >= k`.
#[inline(always)]
fn non_ident_bytes(w: u64) -> u64 {
    let x = w & !HIGH;
    let folded = x | splat(0x20);
    let letter = (folded + splat(0x80 - b'a')) & !(folded + splat(0x80 - b'z' - 1));
    let digit = (x + splat(0x80 - b'0')) & !(x + splat(0x80 - b'9' - 1));
    let underscore = !((x ^ splat(b'_')) + splat(0x7F));
    (!(letter | digit | underscore) & HIGH) | (w & HIGH)
}

/// Where the identifier bytes from `j` end: eight at a time while eight
/// remain, then one at a time.
#[inline(always)]
pub(crate) fn ident_end(bytes: &[u8], mut j: usize) -> usize {
    while let Some(w) = word_at(bytes, j) {
        let stop = non_ident_bytes(w);
        if stop != 0 {
            return j + (stop.trailing_zeros() / 8) as usize;
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

    fn ident_end_bytewise(bytes: &[u8], mut j: usize) -> usize {
        while j < bytes.len() && is_ident(bytes[j]) {
            j += 1;
        }
        j
    }

    #[test]
    fn every_byte_value_is_classified_as_the_table_says() {
        for b in 0..=255u8 {
            for at in 0..8 {
                let mut chunk = *b"abcdefgh";
                chunk[at] = b;
                let expected = if is_ident(b) { 8 } else { at };
                assert_eq!(ident_end(&chunk, 0), expected, "byte {b:#04x} at {at}");
            }
        }
    }

    proptest! {
        #[test]
        fn word_scans_agree_with_byte_loops(text in "[a-zA-Z0-9_\"\\\\ .\u{e9}\u{202e}-]{0,40}", from in 0usize..40) {
            let bytes = text.as_bytes();
            let from = from.min(bytes.len());
            prop_assert_eq!(ident_end(bytes, from), ident_end_bytewise(bytes, from));
            let expected = bytes[from..].iter().position(|&c| c == b'"' || c == b'\\').map_or(bytes.len(), |p| from + p);
            prop_assert_eq!(quote_or_backslash(bytes, from), expected);
        }
    }
}
