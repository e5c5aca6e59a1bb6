//! What a hash literal may hold (CAL §3.4, OMS §5), decided once.
//!
//! A hash literal names an OMS content address, or a prefix of one: `sha256:` followed by
//! 8 to 64 hex digits. CAL §3.4 says "hex chars" without a case; OMS §5 and §5.1 say the
//! address "MUST be represented as a 64-character lowercase hexadecimal string. Uppercase
//! hexadecimal MUST be rejected". So the digits are lower-case, in the text form, in a bound
//! parameter and in the JSON form alike (docs/spec-decisions.md, L4): the lexer, the JSON
//! decoder, the checker and the interpreter all ask [`check_hex`], so no path can accept an
//! address another path (or the store) refuses.

use crate::limits::{MAX_HASH_HEX, MIN_HASH_HEX};

/// The text before the hex digits of every hash literal.
pub const HASH_PREFIX: &str = "sha256:";

/// Why the text after `sha256:` is not (a prefix of) a content address, most basic first:
/// each is reported only when the ones before it do not apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HexProblem {
    /// Nothing follows `sha256:`.
    Empty,
    /// A character that is no hex digit in either case.
    NotHex,
    /// Hex digits, but fewer than 8 or more than 64 (the count).
    Length(usize),
    /// 8 to 64 hex digits, some of them `A`–`F`: the address, spelt in a case OMS refuses.
    /// Lower-casing them is the whole fix.
    UpperCase,
}

/// Checks the digits after `sha256:`: `Ok` for 8 to 64 of `0-9a-f`.
pub fn check_hex(hex: &str) -> Result<(), HexProblem> {
    if hex.is_empty() {
        return Err(HexProblem::Empty);
    }
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(HexProblem::NotHex);
    }
    if !(MIN_HASH_HEX..=MAX_HASH_HEX).contains(&hex.len()) {
        return Err(HexProblem::Length(hex.len()));
    }
    if hex.bytes().any(|b| b.is_ascii_uppercase()) {
        return Err(HexProblem::UpperCase);
    }
    Ok(())
}

/// The hex digits of `sha256:<hex>` text when it is a valid hash literal: what a string bound
/// to a parameter must be to stand for a content address.
pub fn hex_of(text: &str) -> Option<&str> {
    text.strip_prefix(HASH_PREFIX).filter(|hex| check_hex(hex).is_ok())
}

impl HexProblem {
    /// The problem in words, for a message that goes on "… because {this}": `hex` is the text
    /// after `sha256:`.
    pub fn describe(self, hex: &str) -> String {
        match self {
            HexProblem::Empty => "no hex characters follow `sha256:`".to_string(),
            HexProblem::NotHex => format!("`{hex}` is not hexadecimal"),
            HexProblem::Length(n) => format!("it has {n} hex characters"),
            HexProblem::UpperCase => {
                format!("`{hex}` has upper-case hex digits, and content addresses are lower-case (OMS §5)")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_case_hex_of_8_to_64_digits() {
        assert_eq!(check_hex("a1b2c3d4"), Ok(()));
        assert_eq!(check_hex(&"0123456789abcdef".repeat(4)), Ok(()));
        assert_eq!(check_hex(""), Err(HexProblem::Empty));
        assert_eq!(check_hex("xyz12345"), Err(HexProblem::NotHex));
        assert_eq!(check_hex("a1b2c3d"), Err(HexProblem::Length(7)));
        assert_eq!(check_hex(&"a".repeat(65)), Err(HexProblem::Length(65)));
        assert_eq!(check_hex("A1B2C3D4"), Err(HexProblem::UpperCase));
        assert_eq!(check_hex("aBcDeF01"), Err(HexProblem::UpperCase));
        // A length problem is named before the case: lower-casing alone would not fix it.
        assert_eq!(check_hex("ABC"), Err(HexProblem::Length(3)));
        assert_eq!(hex_of("sha256:abcdef01"), Some("abcdef01"));
        assert_eq!(hex_of("sha256:ABCDEF01"), None);
        assert_eq!(hex_of("abcdef01"), None);
    }
}
