//! Grains the store holds but cannot read: a payload encrypted outside OMS
//! (§3.1.1 flag bit 1; §20.2: "encrypt the entire blob as an opaque byte
//! sequence", and the content address is the hash of the ciphertext).
//!
//! This implementation holds no keys (CAL §2: it cannot touch encryption
//! keys), so such a grain is kept as its bytes and its clear header only: the
//! type byte, the namespace routing hash, `created_at` in seconds and the
//! sensitivity bits. It is counted apart from the grains the store can read,
//! answers `exists`, is written back by `save`, and is reachable by its full
//! address only — every other selection reads fields this store cannot see
//! (ruling C27, docs/spec-decisions-conformance.md).

use std::sync::Arc;

use super::Store;
use crate::address::ContentAddress;
use crate::error::{OmsError, Result};
use crate::header::{FLAG_ENCRYPTED, FLAG_SIGNED, Header, Sensitivity};
use crate::types::GrainType;

/// A grain held as encrypted bytes, with what its clear header says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SealedGrain {
    /// SHA-256 of the blob as stored (the ciphertext, §20.2).
    pub address: ContentAddress,
    /// The type the header's byte 2 names.
    pub grain_type: GrainType,
    /// Bytes 3–4: the namespace routing hash.
    pub ns_hash: u16,
    /// Bytes 5–8: `created_at` in epoch seconds.
    pub created_at_sec: u32,
    /// The header's sensitivity bits.
    pub sensitivity: Sensitivity,
    blob: Box<[u8]>,
}

impl SealedGrain {
    /// The blob, byte for byte as written.
    pub fn blob(&self) -> &[u8] {
        &self.blob
    }
}

/// Whether a `.mg` entry is an encrypted blob this store keeps sealed: a bare blob (not a
/// COSE envelope) whose header says flag bit 1. A signed blob with an encrypted payload
/// is not one of them and is refused as before (its signature covers bytes we cannot read).
pub(crate) fn is_sealed_entry(entry: &[u8]) -> bool {
    matches!(Header::parse(entry), Ok(h) if h.flags & FLAG_ENCRYPTED != 0 && h.flags & FLAG_SIGNED == 0)
}

/// Reads the clear header of an encrypted blob (`ERR_TOO_SHORT`, `ERR_VERSION`,
/// `ERR_UNKNOWN_TYPE`); the payload is not looked at.
pub(crate) fn parse_sealed(entry: &[u8]) -> Result<SealedGrain> {
    let h = Header::parse(entry)?;
    if h.flags & FLAG_ENCRYPTED == 0 {
        return Err(OmsError::Bug { detail: "a readable blob was taken for an encrypted one".into() });
    }
    Ok(SealedGrain {
        address: ContentAddress::of(entry),
        grain_type: GrainType::from_byte(h.type_byte)?,
        ns_hash: h.ns_hash,
        created_at_sec: h.created_at_sec,
        sensitivity: h.sensitivity(),
        blob: entry.into(),
    })
}

impl Store {
    /// The encrypted grain at `address`, if the store holds one.
    pub fn sealed(&self, address: &ContentAddress) -> Option<Arc<SealedGrain>> {
        self.read().sealed.get(address).cloned()
    }

    /// How many encrypted grains the store holds (not counted by [`Store::len`]).
    pub fn sealed_len(&self) -> usize {
        self.read().sealed.len()
    }
}
