//! Writing `.mg` files.

use sha2::{Digest, Sha256};

use super::manifest::{self, Manifest};
use super::{
    CODEC_NONE, CODEC_ZSTD, FIELD_MAP_VERSION, FILE_HEADER_LEN, FileHeader, container, entry_grain, entry_info,
};
use super::{FLAG_COMPRESSED, FLAG_DEDUPLICATED, FLAG_MANIFEST, FLAG_SORTED};
use crate::address::ContentAddress;
use crate::error::{OmsError, Result};
use crate::grain::Encoding;

/// How to pack a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PackOptions {
    /// Sort grains by `created_at`, then address, and set flag bit 0.
    pub sort: bool,
    /// Drop repeated content addresses (first wins) and set flag bit 1.
    pub dedup: bool,
    /// Compress the grain region with zstd (flag bit 2, codec 0x01).
    pub compress: bool,
    /// zstd level (3 is the §11.3 default).
    pub zstd_level: i32,
}

impl Default for PackOptions {
    fn default() -> Self {
        PackOptions { sort: false, dedup: false, compress: false, zstd_level: 3 }
    }
}

struct Packed<'a> {
    bytes: &'a [u8],
    address: ContentAddress,
    created_at: i64,
    cbor: bool,
    /// An encrypted blob: its length is not self-delimiting.
    sealed: bool,
}

/// Packs grain entries (bare blobs or COSE_Sign1 envelopes) into a `.mg`
/// file. Every entry is decoded first, so an invalid grain is never packed.
/// Manifest entries must name grains in the file; entries at their default
/// state are left out, and flag bit 4 is set only when something remains.
pub fn pack<'a>(
    entries: impl IntoIterator<Item = &'a [u8]>,
    manifest: Option<&Manifest>,
    opts: &PackOptions,
) -> Result<Vec<u8>> {
    let mut items = Vec::new();
    for (i, bytes) in entries.into_iter().enumerate() {
        if crate::store::sealed::is_sealed_entry(bytes) {
            // Encrypted (§20.2): packed as its bytes, dated by its clear header.
            let g = crate::store::sealed::parse_sealed(bytes).map_err(|e| annotate(e, i))?;
            let created_at = i64::from(g.created_at_sec) * 1000;
            items.push(Packed { bytes, address: g.address, created_at, cbor: false, sealed: true });
            continue;
        }
        let info = entry_info(bytes)?;
        let grain = entry_grain(bytes).map_err(|e| annotate(e, i))?;
        items.push(Packed {
            bytes,
            address: info.address,
            created_at: grain.created_at().unwrap_or(0),
            cbor: grain.options.encoding == Encoding::Cbor,
            sealed: false,
        });
    }
    if opts.dedup {
        let mut seen = std::collections::HashSet::new();
        items.retain(|p| seen.insert(p.address));
    }
    if opts.sort {
        items.sort_by(|a, b| a.created_at.cmp(&b.created_at).then(a.address.cmp(&b.address)));
    }
    let count = u32::try_from(items.len()).map_err(|_| container("more than 2^32 grains"))?;
    let base = FILE_HEADER_LEN + 4 * items.len();
    let mut offsets = Vec::with_capacity(items.len());
    let mut region = Vec::new();
    for p in &items {
        let off = u32::try_from(base + region.len()).map_err(|_| container("grain region exceeds 4 GiB"))?;
        offsets.push(off);
        region.extend_from_slice(p.bytes);
    }
    u32::try_from(base + region.len()).map_err(|_| container("grain region exceeds 4 GiB"))?;

    let manifest = match manifest {
        Some(m) => {
            let addresses: std::collections::HashSet<_> = items.iter().map(|p| p.address).collect();
            let mut kept = Manifest::new();
            for (a, st) in m {
                if !addresses.contains(a) {
                    return Err(OmsError::schema("manifest", format!("entry for {a}, which is not in the file")));
                }
                if !st.is_default() {
                    kept.insert(*a, st.clone());
                }
            }
            kept
        }
        None => Manifest::new(),
    };
    if !manifest.is_empty() && items.last().is_some_and(|p| p.sealed) {
        return Err(container(
            "an encrypted grain cannot be the last grain before a manifest: a reader finds where the manifest \
             starts from the last grain's own length, and ciphertext has none (§11.4)",
        ));
    }
    let mut flags = 0u8;
    if opts.sort {
        flags |= FLAG_SORTED;
    }
    if opts.dedup {
        flags |= FLAG_DEDUPLICATED;
    }
    if opts.compress {
        flags |= FLAG_COMPRESSED;
    }
    if !manifest.is_empty() {
        flags |= FLAG_MANIFEST;
    }
    let header = FileHeader {
        flags,
        count,
        field_map_version: FIELD_MAP_VERSION,
        codec: if opts.compress { CODEC_ZSTD } else { CODEC_NONE },
    };
    let mut out = Vec::with_capacity(base + region.len() + 64);
    out.extend_from_slice(&header.to_bytes());
    for o in &offsets {
        out.extend_from_slice(&o.to_be_bytes());
    }
    if opts.compress {
        let z = zstd::bulk::compress(&region, opts.zstd_level)?;
        out.extend_from_slice(&z);
    } else {
        out.extend_from_slice(&region);
    }
    if !manifest.is_empty() {
        let all_cbor = !items.is_empty() && items.iter().all(|p| p.cbor);
        out.extend_from_slice(&manifest::encode(&manifest, all_cbor)?);
    }
    let footer = Sha256::digest(&out);
    out.extend_from_slice(&footer);
    Ok(out)
}

fn annotate(e: OmsError, i: usize) -> OmsError {
    match e {
        OmsError::Schema { field, problem } => OmsError::Schema { field, problem: format!("{problem} (grain {i})") },
        other => other,
    }
}
