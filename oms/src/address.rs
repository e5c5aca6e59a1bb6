//! Content addresses (OMS §5): lowercase hex SHA-256 of the complete blob,
//! parsed strictly (§5.1, §19.2) and compared in constant time (§20.4).

use std::fmt;

use sha2::{Digest, Sha256};

use crate::error::{OmsError, Result};

/// A grain's identity: the SHA-256 of its blob bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ContentAddress([u8; 32]);

impl ContentAddress {
    /// The address of a blob (or of any bytes).
    pub fn of(bytes: &[u8]) -> Self {
        ContentAddress(Sha256::digest(bytes).into())
    }

    /// Wraps a raw digest.
    pub fn from_bytes(b: [u8; 32]) -> Self {
        ContentAddress(b)
    }

    /// The raw digest.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// Parses the 64-character lowercase hex form. A wrong length fails with
    /// `ERR_HASH_LENGTH`; anything but `[0-9a-f]` (uppercase included) with
    /// `ERR_HASH_FORMAT`.
    pub fn parse(s: &str) -> Result<Self> {
        if s.len() != 64 {
            return Err(OmsError::HashLength { len: s.chars().count() });
        }
        let mut out = [0u8; 32];
        let bytes = s.as_bytes();
        for (i, o) in out.iter_mut().enumerate() {
            let hi = hex_val(bytes[2 * i]);
            let lo = hex_val(bytes[2 * i + 1]);
            match (hi, lo) {
                (Some(h), Some(l)) => *o = (h << 4) | l,
                _ => return Err(OmsError::HashFormat { found: s.to_string() }),
            }
        }
        Ok(ContentAddress(out))
    }

    /// The lowercase hex form.
    pub fn to_hex(&self) -> String {
        hex(&self.0)
    }

    /// Constant-time equality (§20.4): the time taken does not depend on
    /// where the digests first differ.
    pub fn ct_eq(&self, other: &ContentAddress) -> bool {
        ct_eq(&self.0, &other.0)
    }

    /// Checks that `blob` hashes to this address, in constant time
    /// (`ERR_INTEGRITY` otherwise).
    pub fn verify(&self, blob: &[u8]) -> Result<()> {
        if ContentAddress::of(blob).ct_eq(self) {
            Ok(())
        } else {
            Err(OmsError::Integrity { what: format!("blob does not hash to {}", self.to_hex()) })
        }
    }
}

impl fmt::Debug for ContentAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ContentAddress({})", self.to_hex())
    }
}

impl fmt::Display for ContentAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl std::str::FromStr for ContentAddress {
    type Err = OmsError;
    fn from_str(s: &str) -> Result<Self> {
        ContentAddress::parse(s)
    }
}

/// Constant-time comparison of two byte strings of equal length; different
/// lengths compare unequal (length is not secret).
pub fn ct_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let diff = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    std::hint::black_box(diff) == 0
}

/// Lowercase hex of arbitrary bytes.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 0x0f)]));
    }
    s
}

/// Decodes hex (either case, whitespace ignored); `None` if malformed.
pub fn unhex(s: &str) -> Option<Vec<u8>> {
    let digits: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if !digits.len().is_multiple_of(2) {
        return None;
    }
    digits
        .chunks(2)
        .map(|p| Some((hex_val(p[0].to_ascii_lowercase())? << 4) | hex_val(p[1].to_ascii_lowercase())?))
        .collect()
}

fn hex_val(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    }
}
