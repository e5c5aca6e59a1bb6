//! `.mg` container files (OMS §11): header, offset index, grain region
//! (optionally zstd-compressed), optional index manifest (§11.7) and a
//! SHA-256 footer; plus the length-prefixed wire framing of §11.6.
//!
//! Layout decisions the spec leaves open are recorded in
//! docs/spec-decisions-oms.md: offsets are absolute positions in the
//! *uncompressed* layout (the §11.4 snippet slices the file with them); the
//! last grain ends where its self-delimiting encoding ends; a signed grain is
//! stored as its COSE_Sign1 envelope.

mod frame;
mod manifest;
mod read;
mod verify;
mod write;

pub use frame::{DEFAULT_MAX_FRAME, FrameReader, decode_frames, encode_frames, write_end, write_frame};
pub use manifest::{IndexState, Manifest, VERIFICATION_STATUSES};
pub use read::{MgFile, read_entry_at};
pub use verify::{EntryReport, MgReport, verify};
pub use write::{PackOptions, pack};

use crate::address::ContentAddress;
use crate::cose;
use crate::error::{CorruptReason, OmsError, Result};
use crate::grain::{DecodeOptions, Grain, decode_with};
use crate::header::{HEADER_LEN, Header};
use crate::{DEFAULT_MAX_DEPTH, cbor, msgpack};

/// File magic: "MG" followed by format version 1.
pub const MAGIC: [u8; 3] = *b"MG\x01";
/// Length of the file header.
pub const FILE_HEADER_LEN: usize = 16;
/// Length of the SHA-256 footer.
pub const FOOTER_LEN: usize = 32;
/// Flag bit 0: grains sorted by `created_at` ascending.
pub const FLAG_SORTED: u8 = 1 << 0;
/// Flag bit 1: no duplicate content addresses.
pub const FLAG_DEDUPLICATED: u8 = 1 << 1;
/// Flag bit 2: the grain region is one zstd frame.
pub const FLAG_COMPRESSED: u8 = 1 << 2;
/// Flag bit 3: a custom field map is included (not supported).
pub const FLAG_FIELD_MAP: u8 = 1 << 3;
/// Flag bit 4: an index manifest follows the grain region.
pub const FLAG_MANIFEST: u8 = 1 << 4;
/// Compression codec byte: none.
pub const CODEC_NONE: u8 = 0x00;
/// Compression codec byte: zstd.
pub const CODEC_ZSTD: u8 = 0x01;
/// Compression codec byte: lz4 (not supported).
pub const CODEC_LZ4: u8 = 0x02;
/// Field-map version written by this implementation (the OMS 1.x table).
pub const FIELD_MAP_VERSION: u8 = 0x01;

pub(crate) fn container(why: impl Into<String>) -> OmsError {
    OmsError::corrupt(CorruptReason::Container(why.into()))
}

/// The decoded 16-byte file header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileHeader {
    /// Flag byte.
    pub flags: u8,
    /// Number of grains.
    pub count: u32,
    /// Field-map version byte.
    pub field_map_version: u8,
    /// Compression codec byte.
    pub codec: u8,
}

impl FileHeader {
    /// Parses and checks the header: magic, version, reserved bits and bytes,
    /// and that the compressed flag agrees with the codec.
    pub fn parse(b: &[u8]) -> Result<Self> {
        if b.len() < FILE_HEADER_LEN {
            return Err(OmsError::TooShort { len: b.len() });
        }
        if b[0..2] != MAGIC[0..2] {
            return Err(container("bad magic: not an .mg file"));
        }
        if b[2] != MAGIC[2] {
            return Err(OmsError::Version { version: b[2] });
        }
        let h = FileHeader {
            flags: b[3],
            count: u32::from_be_bytes([b[4], b[5], b[6], b[7]]),
            field_map_version: b[8],
            codec: b[9],
        };
        if h.flags & 0xe0 != 0 {
            return Err(container(format!("reserved flag bits set: 0x{:02x}", h.flags)));
        }
        if h.flags & FLAG_FIELD_MAP != 0 {
            return Err(OmsError::Unsupported { feature: "custom field maps (.mg flag bit 3)".into() });
        }
        if b[10..16].iter().any(|x| *x != 0) {
            return Err(container("reserved header bytes are not zero"));
        }
        match (h.flags & FLAG_COMPRESSED != 0, h.codec) {
            (false, CODEC_NONE) | (true, CODEC_ZSTD) => {}
            (true, CODEC_LZ4) => return Err(OmsError::Unsupported { feature: "lz4 compression".into() }),
            (c, codec) => {
                return Err(container(format!("compressed flag {} disagrees with codec 0x{codec:02x}", u8::from(c))));
            }
        }
        Ok(h)
    }

    /// The 16 header bytes.
    pub fn to_bytes(self) -> [u8; FILE_HEADER_LEN] {
        let c = self.count.to_be_bytes();
        [
            MAGIC[0],
            MAGIC[1],
            MAGIC[2],
            self.flags,
            c[0],
            c[1],
            c[2],
            c[3],
            self.field_map_version,
            self.codec,
            0,
            0,
            0,
            0,
            0,
            0,
        ]
    }

    /// Whether the grain region is compressed.
    pub fn compressed(self) -> bool {
        self.flags & FLAG_COMPRESSED != 0
    }

    /// Whether a manifest is present.
    pub fn has_manifest(self) -> bool {
        self.flags & FLAG_MANIFEST != 0
    }
}

/// One grain entry as stored in a file: a bare blob or a COSE_Sign1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryInfo {
    /// The inner blob.
    pub blob: Vec<u8>,
    /// Its content address.
    pub address: ContentAddress,
    /// Whether the entry is a COSE envelope.
    pub signed: bool,
}

/// Extracts the inner blob of an entry (no signature check) and its address.
pub fn entry_info(entry: &[u8]) -> Result<EntryInfo> {
    if cose::is_cose(entry) {
        let blob = cose::unwrap_unverified(entry)?;
        let address = ContentAddress::of(&blob);
        Ok(EntryInfo { blob, address, signed: true })
    } else {
        Ok(EntryInfo { blob: entry.to_vec(), address: ContentAddress::of(entry), signed: false })
    }
}

/// Decodes an entry's grain without checking a signature.
pub fn entry_grain(entry: &[u8]) -> Result<Grain> {
    let info = entry_info(entry)?;
    decode_with(&info.blob, &DecodeOptions { wrapped: info.signed, ..DecodeOptions::default() })
}

/// Length of the self-delimiting entry at the start of `b`.
pub(crate) fn entry_len(b: &[u8]) -> Result<usize> {
    if cose::is_cose(b) {
        return cbor::item_len(b, DEFAULT_MAX_DEPTH + 4);
    }
    let h = Header::parse(b)?;
    if h.flags & crate::header::FLAG_ENCRYPTED != 0 {
        return Err(container("the last grain before the manifest is encrypted, so where it ends is unknown"));
    }
    let payload = &b[HEADER_LEN..];
    let used = if h.is_cbor() {
        cbor::read_value(payload, DEFAULT_MAX_DEPTH)?.1
    } else {
        msgpack::read_value(payload, DEFAULT_MAX_DEPTH)?.1
    };
    Ok(HEADER_LEN + used)
}
