//! The 9-byte fixed blob header (OMS §3.1) and the sensitivity rules of §13.

use sha2::{Digest, Sha256};

use crate::error::{OmsError, Result};
use crate::value::Value;

/// Length of the fixed header.
pub const HEADER_LEN: usize = 9;
/// The only blob version this implementation reads or writes.
pub const VERSION: u8 = 0x01;

/// Flag bit 0: a COSE_Sign1 envelope wraps the grain.
pub const FLAG_SIGNED: u8 = 1 << 0;
/// Flag bit 1: the payload is encrypted.
pub const FLAG_ENCRYPTED: u8 = 1 << 1;
/// Flag bit 2: the payload is zstd-compressed.
pub const FLAG_COMPRESSED: u8 = 1 << 2;
/// Flag bit 3: `content_refs` is present.
pub const FLAG_CONTENT_REFS: u8 = 1 << 3;
/// Flag bit 4: `embedding_refs` is present.
pub const FLAG_EMBEDDING_REFS: u8 = 1 << 4;
/// Flag bit 5: the payload is CBOR.
pub const FLAG_CBOR: u8 = 1 << 5;
/// Shift of the two sensitivity bits (6–7).
pub const SENSITIVITY_SHIFT: u8 = 6;

/// Header sensitivity classification (§13.1), ordered from least to most sensitive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Sensitivity {
    /// 00: no constraints.
    #[default]
    Public,
    /// 01: organization-internal.
    Internal,
    /// 10: personally identifiable information.
    Pii,
    /// 11: protected health information.
    Phi,
}

impl Sensitivity {
    /// The two-bit value.
    pub fn bits(self) -> u8 {
        match self {
            Sensitivity::Public => 0,
            Sensitivity::Internal => 1,
            Sensitivity::Pii => 2,
            Sensitivity::Phi => 3,
        }
    }

    /// From the two-bit value (higher bits ignored).
    pub fn from_bits(b: u8) -> Self {
        match b & 0b11 {
            0 => Sensitivity::Public,
            1 => Sensitivity::Internal,
            2 => Sensitivity::Pii,
            _ => Sensitivity::Phi,
        }
    }

    /// Parses `public`, `internal`, `pii` or `phi`.
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "public" => Sensitivity::Public,
            "internal" => Sensitivity::Internal,
            "pii" => Sensitivity::Pii,
            "phi" => Sensitivity::Phi,
            _ => return None,
        })
    }

    /// Lowercase name.
    pub fn name(self) -> &'static str {
        match self {
            Sensitivity::Public => "public",
            Sensitivity::Internal => "internal",
            Sensitivity::Pii => "pii",
            Sensitivity::Phi => "phi",
        }
    }

    /// The minimum sensitivity `structural_tags` require (§13.4): `phi:` → PHI;
    /// `pii:`, `sec:`, `legal:` → PII; `reg:` → internal.
    pub fn required_by_tags(tags: Option<&Value>) -> Self {
        let mut level = Sensitivity::Public;
        if let Some(Value::Array(items)) = tags {
            for tag in items.iter().filter_map(Value::as_str) {
                let l = if tag.starts_with("phi:") {
                    Sensitivity::Phi
                } else if tag.starts_with("pii:") || tag.starts_with("sec:") || tag.starts_with("legal:") {
                    Sensitivity::Pii
                } else if tag.starts_with("reg:") {
                    Sensitivity::Internal
                } else {
                    Sensitivity::Public
                };
                level = level.max(l);
            }
        }
        level
    }
}

/// The decoded fixed header of a blob.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// Byte 1, the whole flag field.
    pub flags: u8,
    /// Byte 2, the type byte.
    pub type_byte: u8,
    /// Bytes 3–4: first two bytes of SHA-256(namespace), big-endian.
    pub ns_hash: u16,
    /// Bytes 5–8: created_at in epoch seconds.
    pub created_at_sec: u32,
}

impl Header {
    /// Parses the first nine bytes of a blob (`ERR_TOO_SHORT`, `ERR_VERSION`).
    pub fn parse(blob: &[u8]) -> Result<Self> {
        if blob.len() < HEADER_LEN + 1 {
            return Err(OmsError::TooShort { len: blob.len() });
        }
        if blob[0] != VERSION {
            return Err(OmsError::Version { version: blob[0] });
        }
        Ok(Header {
            flags: blob[1],
            type_byte: blob[2],
            ns_hash: u16::from_be_bytes([blob[3], blob[4]]),
            created_at_sec: u32::from_be_bytes([blob[5], blob[6], blob[7], blob[8]]),
        })
    }

    /// The nine header bytes.
    pub fn to_bytes(self) -> [u8; HEADER_LEN] {
        let ns = self.ns_hash.to_be_bytes();
        let ca = self.created_at_sec.to_be_bytes();
        [VERSION, self.flags, self.type_byte, ns[0], ns[1], ca[0], ca[1], ca[2], ca[3]]
    }

    /// The sensitivity bits of the flags.
    pub fn sensitivity(self) -> Sensitivity {
        Sensitivity::from_bits(self.flags >> SENSITIVITY_SHIFT)
    }

    /// Whether flag bit 0 (signed) is set.
    pub fn is_signed(self) -> bool {
        self.flags & FLAG_SIGNED != 0
    }

    /// Whether flag bit 5 (CBOR payload) is set.
    pub fn is_cbor(self) -> bool {
        self.flags & FLAG_CBOR != 0
    }
}

/// The other namespace hash a reader accepts, and keeps, for a grain without
/// a namespace: 0x0000, which writers that leave the routing hint empty use.
/// Writers here use [`namespace_hash`]`(None)`; see docs/spec-decisions-oms.md, D1.
pub const ABSENT_NAMESPACE_HINT: u16 = 0x0000;

/// Namespace routing hash: the first two bytes of SHA-256 of the (NFC)
/// namespace. A grain without a namespace hashes the empty string (0xe3b0);
/// see docs/spec-decisions-oms.md.
pub fn namespace_hash(namespace: Option<&str>) -> u16 {
    let ns = namespace.unwrap_or("");
    // Grains of one store share few namespaces: remember the last one per thread.
    thread_local! {
        static LAST: std::cell::RefCell<(String, u16)> = const { std::cell::RefCell::new((String::new(), 0xe3b0)) };
    }
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        if last.0 != ns {
            let d = Sha256::digest(ns.as_bytes());
            *last = (ns.to_string(), u16::from_be_bytes([d[0], d[1]]));
        }
        last.1
    })
}
