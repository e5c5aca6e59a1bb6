//! `did:key` identifiers (OMS §12.2, §22.4): multibase base58-btc of a
//! multicodec-prefixed public key. Ed25519 (multicodec 0xed, varint `ed 01`)
//! is the key type signing uses; other key types decode but are reported as
//! unsupported for verification.

use ed25519_dalek::VerifyingKey;

use crate::error::{OmsError, Result};

/// The prefix every `did:key` starts with.
pub const DID_KEY_PREFIX: &str = "did:key:";
/// Multicodec code of an Ed25519 public key.
pub const MULTICODEC_ED25519_PUB: u64 = 0xed;

/// A decoded `did:key`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DidKey {
    /// The multicodec code read from the varint prefix.
    pub codec: u64,
    /// The key bytes after the prefix.
    pub key: Vec<u8>,
}

impl DidKey {
    /// The Ed25519 verifying key, if this is one (`ERR_UNSUPPORTED` for other
    /// key types, `ERR_DID` for a malformed Ed25519 key).
    pub fn ed25519(&self) -> Result<VerifyingKey> {
        if self.codec != MULTICODEC_ED25519_PUB {
            return Err(OmsError::Unsupported { feature: format!("did:key with multicodec 0x{:x}", self.codec) });
        }
        let bytes: [u8; 32] =
            self.key.as_slice().try_into().map_err(|_| OmsError::Did {
                reason: format!("Ed25519 key must be 32 bytes, got {}", self.key.len()),
            })?;
        VerifyingKey::from_bytes(&bytes).map_err(|e| OmsError::Did { reason: format!("invalid Ed25519 key: {e}") })
    }
}

/// Encodes an Ed25519 public key as `did:key:z6Mk…`.
pub fn encode_ed25519(key: &VerifyingKey) -> String {
    let mut raw = Vec::with_capacity(34);
    write_varint(&mut raw, MULTICODEC_ED25519_PUB);
    raw.extend_from_slice(key.as_bytes());
    format!("{DID_KEY_PREFIX}z{}", bs58::encode(raw).into_string())
}

/// Decodes a `did:key` (§22.4): strip the prefix, decode multibase `z`
/// (base58-btc), read the full unsigned-varint multicodec, keep the rest.
pub fn decode(did: &str) -> Result<DidKey> {
    let rest = did
        .strip_prefix(DID_KEY_PREFIX)
        .ok_or_else(|| OmsError::Did { reason: format!("{did:?} does not start with did:key:") })?;
    let b58 = rest
        .strip_prefix('z')
        .ok_or_else(|| OmsError::Did { reason: "only multibase base58-btc ('z') is supported".into() })?;
    let raw = bs58::decode(b58).into_vec().map_err(|e| OmsError::Did { reason: format!("invalid base58: {e}") })?;
    let (codec, used) =
        read_varint(&raw).ok_or_else(|| OmsError::Did { reason: "truncated multicodec varint".into() })?;
    let key = raw[used..].to_vec();
    if key.is_empty() {
        return Err(OmsError::Did { reason: "no key bytes after the multicodec prefix".into() });
    }
    Ok(DidKey { codec, key })
}

/// Resolves a `did:key` straight to an Ed25519 verifying key.
pub fn resolve_ed25519(did: &str) -> Result<VerifyingKey> {
    decode(did)?.ed25519()
}

fn write_varint(out: &mut Vec<u8>, mut n: u64) {
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// Unsigned LEB128 as multiformats uses it (at most 9 bytes).
fn read_varint(b: &[u8]) -> Option<(u64, usize)> {
    let mut n = 0u64;
    for (i, byte) in b.iter().enumerate().take(9) {
        n |= u64::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            return Some((n, i + 1));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_example_is_ed25519() {
        let d = decode("did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK").unwrap();
        assert_eq!(d.codec, 0xed);
        assert_eq!(d.key.len(), 32);
        let vk = d.ed25519().unwrap();
        assert_eq!(encode_ed25519(&vk), "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK");
    }

    #[test]
    fn malformed_dids_fail_with_err_did() {
        for bad in ["did:web:example.com", "did:key:6Mkhax", "did:key:z0OIl", "did:key:z", "did:key:z2"] {
            let e = decode(bad).map(|_| ()).unwrap_err();
            assert_eq!(e.code(), "ERR_DID", "{bad}");
        }
    }

    #[test]
    fn varint_round_trip() {
        for n in [0u64, 1, 0x7f, 0x80, 0xed, 0x1200, u64::MAX >> 1] {
            let mut v = Vec::new();
            write_varint(&mut v, n);
            assert_eq!(read_varint(&v), Some((n, v.len())));
        }
    }
}
