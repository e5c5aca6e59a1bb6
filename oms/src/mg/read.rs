//! Reading `.mg` files: whole-file opening with integrity check, and random
//! access to one grain through `Read + Seek` without reading the rest.

use std::borrow::Cow;
use std::io::{Read, Seek, SeekFrom};

use super::manifest::{self, Manifest};
use super::{FILE_HEADER_LEN, FOOTER_LEN, FileHeader, container, entry_len};
use crate::address::ct_eq;
use crate::error::{CorruptReason, OmsError, Result};
use sha2::{Digest, Sha256};

/// Largest decompressed grain region accepted (offsets are u32).
pub const MAX_REGION: u64 = u32::MAX as u64;

/// Largest last grain a compressed region may end with: the region a file declares may
/// exceed where its last grain starts (its offset) by at most this much, so a small frame
/// declaring gigabytes (a decompression bomb) is refused before anything is allocated.
pub const MAX_LAST_ENTRY: u64 = 64 * 1024 * 1024;

/// An opened, checksum-verified `.mg` file.
#[derive(Debug)]
pub struct MgFile<'a> {
    header: FileHeader,
    region: Cow<'a, [u8]>,
    base: usize,
    offsets: Vec<u32>,
    manifest: Option<Manifest>,
}

impl<'a> MgFile<'a> {
    /// Opens a file held in memory: checks the header, the SHA-256 footer
    /// (`ERR_INTEGRITY`), the offset index, decompresses the grain region if
    /// needed and parses the manifest. Grains themselves are decoded lazily.
    pub fn open(data: &'a [u8]) -> Result<Self> {
        Self::open_limited(data, MAX_REGION)
    }

    /// [`MgFile::open`] with a ceiling on the decompressed grain region (bytes), for callers
    /// that bound the memory one file may take.
    pub fn open_limited(data: &'a [u8], max_region: u64) -> Result<Self> {
        let header = FileHeader::parse(data)?;
        let n = header.count as usize;
        let base = FILE_HEADER_LEN + 4 * n;
        if data.len() < FILE_HEADER_LEN + FOOTER_LEN || (data.len() as u64) < (base + FOOTER_LEN) as u64 {
            return Err(OmsError::corrupt(CorruptReason::Truncated));
        }
        let footer_at = data.len() - FOOTER_LEN;
        if !ct_eq(&Sha256::digest(&data[..footer_at]), &data[footer_at..]) {
            return Err(OmsError::Integrity { what: "file checksum (footer) does not match the contents".into() });
        }
        let offsets: Vec<u32> =
            data[FILE_HEADER_LEN..base].chunks_exact(4).map(|c| u32::from_be_bytes([c[0], c[1], c[2], c[3]])).collect();
        let body = &data[base..footer_at];
        let (region, manifest_bytes): (Cow<'a, [u8]>, &[u8]) = if header.compressed() {
            let frame = zstd::zstd_safe::find_frame_compressed_size(body)
                .map_err(|_| container("grain region is not a zstd frame"))?;
            let size = zstd::zstd_safe::get_frame_content_size(&body[..frame])
                .ok()
                .flatten()
                .ok_or_else(|| container("zstd frame does not declare its content size"))?;
            // What the file itself allows: its grains start at the offsets it lists, so the
            // region ends at most one grain after the last offset.
            let allowed = match offsets.last() {
                None => 0,
                Some(last) => u64::from(*last).saturating_sub(base as u64).saturating_add(MAX_LAST_ENTRY),
            };
            let ceiling = max_region.min(MAX_REGION - base as u64);
            if size > allowed || size > ceiling {
                return Err(container(format!(
                    "the compressed grain region declares {size} bytes, more than its offsets allow ({allowed}) \
                     or the limit ({ceiling}): refused before decompressing"
                )));
            }
            let region =
                zstd::bulk::decompress(&body[..frame], size as usize).map_err(|e| container(format!("zstd: {e}")))?;
            if region.len() as u64 != size {
                return Err(container("zstd frame content size mismatch"));
            }
            (Cow::Owned(region), &body[frame..])
        } else {
            let end = if !header.has_manifest() {
                body.len()
            } else if n == 0 {
                0
            } else {
                let last = (offsets[n - 1] as usize)
                    .checked_sub(base)
                    .filter(|o| *o < body.len())
                    .ok_or_else(|| container("last offset outside the file"))?;
                last + entry_len(&body[last..])?
            };
            (Cow::Borrowed(&body[..end]), &body[end..])
        };
        check_offsets(&offsets, base, region.len())?;
        let manifest = match (header.has_manifest(), manifest_bytes.is_empty()) {
            (false, true) => None,
            (false, false) => return Err(OmsError::corrupt(CorruptReason::TrailingBytes)),
            (true, true) => return Err(container("manifest flag set but no manifest present")),
            (true, false) => {
                let cbor = matches!(manifest_bytes[0], 0xa0..=0xbb);
                Some(manifest::decode(manifest_bytes, cbor)?)
            }
        };
        Ok(MgFile { header, region, base, offsets, manifest })
    }

    /// The file header.
    pub fn header(&self) -> FileHeader {
        self.header
    }

    /// Number of grains.
    pub fn len(&self) -> usize {
        self.offsets.len()
    }

    /// Whether the file holds no grains.
    pub fn is_empty(&self) -> bool {
        self.offsets.is_empty()
    }

    /// The stored bytes of grain `i` (a blob or a COSE_Sign1).
    pub fn entry(&self, i: usize) -> Result<&[u8]> {
        Ok(&self.region[self.entry_span(i)?])
    }

    /// Where grain `i` lies in [`MgFile::region`].
    pub(crate) fn entry_span(&self, i: usize) -> Result<std::ops::Range<usize>> {
        let start = *self.offsets.get(i).ok_or_else(|| container(format!("no grain {i}")))? as usize - self.base;
        let end = self.offsets.get(i + 1).map_or(self.region.len(), |o| *o as usize - self.base);
        Ok(start..end)
    }

    /// Where [`MgFile::region`] starts in the file's bytes, when it is a part of them
    /// (`None` for a compressed file, whose region was decompressed).
    pub(crate) fn region_offset(&self) -> Option<usize> {
        matches!(self.region, Cow::Borrowed(_)).then_some(self.base)
    }

    /// The grain region: the file's own bytes, or the decompressed region of a compressed
    /// file (owned then). A store that keeps the grains' bytes where they lie takes it.
    pub(crate) fn into_region(self) -> Cow<'a, [u8]> {
        self.region
    }

    /// All entries in file order.
    pub fn entries(&self) -> impl Iterator<Item = Result<&[u8]>> + '_ {
        (0..self.len()).map(|i| self.entry(i))
    }

    /// The index manifest, if the file has one.
    pub fn manifest(&self) -> Option<&Manifest> {
        self.manifest.as_ref()
    }
}

fn check_offsets(offsets: &[u32], base: usize, region_len: usize) -> Result<()> {
    match offsets.first() {
        None if region_len == 0 => return Ok(()),
        None => return Err(container("grain region present but grain count is 0")),
        Some(first) if *first as usize != base => {
            return Err(container(format!("first offset {first} should be {base}")));
        }
        Some(_) => {}
    }
    for w in offsets.windows(2) {
        if w[1] <= w[0] {
            return Err(container("offsets are not strictly increasing"));
        }
    }
    let last = *offsets.last().unwrap_or(&0) as usize - base;
    if last >= region_len {
        return Err(container("offset points past the grain region"));
    }
    Ok(())
}

/// Reads grain `i` from a seekable source. For an uncompressed file only the
/// header, two offsets and the grain are read (plus, for the last grain of a
/// file with a manifest, the bytes up to the footer); the footer checksum is
/// not verified, so check the grain's content address if it matters.
/// Compressed files have to be read and decompressed whole (§11.4).
pub fn read_entry_at<R: Read + Seek>(r: &mut R, i: usize) -> Result<Vec<u8>> {
    let file_len = r.seek(SeekFrom::End(0))?;
    r.seek(SeekFrom::Start(0))?;
    let mut hb = [0u8; FILE_HEADER_LEN];
    r.read_exact(&mut hb)?;
    let header = FileHeader::parse(&hb)?;
    if header.compressed() {
        r.seek(SeekFrom::Start(0))?;
        let mut all = Vec::new();
        r.read_to_end(&mut all)?;
        return Ok(MgFile::open(&all)?.entry(i)?.to_vec());
    }
    let n = header.count as usize;
    if i >= n {
        return Err(container(format!("no grain {i} in a file of {n}")));
    }
    let footer_at =
        file_len.checked_sub(FOOTER_LEN as u64).ok_or_else(|| OmsError::corrupt(CorruptReason::Truncated))?;
    r.seek(SeekFrom::Start((FILE_HEADER_LEN + 4 * i) as u64))?;
    let mut ob = [0u8; 8];
    let has_next = i + 1 < n;
    r.read_exact(&mut ob[..if has_next { 8 } else { 4 }])?;
    let start = u64::from(u32::from_be_bytes([ob[0], ob[1], ob[2], ob[3]]));
    let end = if has_next { u64::from(u32::from_be_bytes([ob[4], ob[5], ob[6], ob[7]])) } else { footer_at };
    if start >= end || end > footer_at {
        return Err(container("offset index points outside the grain region"));
    }
    r.seek(SeekFrom::Start(start))?;
    let mut buf = vec![0u8; (end - start) as usize];
    r.read_exact(&mut buf)?;
    if !has_next && header.has_manifest() {
        let len = entry_len(&buf)?;
        buf.truncate(len);
    }
    Ok(buf)
}
