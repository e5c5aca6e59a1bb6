//! Eight bytes at a time in a `u64` ("SIMD within a register"): the byte
//! tests every query pays for (ASCII, string ends, identifier ends) without
//! a branch per byte, and without `unsafe` or target-specific intrinsics.

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
}
