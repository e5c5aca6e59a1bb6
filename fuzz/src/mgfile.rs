//! The `mg_file` target: whole `.mg` files, damaged. The input patches one of three valid
//! files (a sample of the demo memory, `sample.rs`, uncompressed and zstd-compressed, and a
//! one-grain file): every
//! 5 bytes are a little-endian offset and a byte XORed in there (modulo the size); a
//! remainder of 1–4 bytes cuts that many bytes (times one plus the first byte's top four
//! bits) off the end. The first byte also picks the file (modulo 3) and, with bit 3,
//! recomputes the SHA-256 footer after the damage, so that it reaches past the integrity
//! check. The file is opened with
//! `MgFile::open_limited` under a 4 MiB ceiling on the decompressed region, every entry
//! the damage changed is decoded (and re-encoded when it decodes: the bytes were canonical;
//! the intact ones passed those checks when the base files were made) and `mg::verify`
//! reads it: never a panic, and memory bounded by the ceiling (libFuzzer's `-rss_limit_mb`
//! and `-malloc_limit_mb` catch any allocation beyond it).

use std::collections::HashSet;
use std::sync::OnceLock;

use sha2::{Digest, Sha256};

use crate::sample::demo_sample;

/// The ceiling on a decompressed grain region: a few times the largest base file.
pub const MAX_REGION: u64 = 4 << 20;

/// The three base files, and every entry they hold (each passed the blob checks once).
fn bases() -> &'static ([Vec<u8>; 3], HashSet<Vec<u8>>) {
    static BASES: OnceLock<([Vec<u8>; 3], HashSet<Vec<u8>>)> = OnceLock::new();
    BASES.get_or_init(|| {
        let sample = demo_sample();
        let file = oms::mg::MgFile::open(sample).expect("the sample opens");
        let blobs: Vec<Vec<u8>> = file.entries().map(|e| e.expect("a sample grain").to_vec()).collect();
        let compressed = oms::mg::PackOptions { compress: true, ..Default::default() };
        let packed = oms::mg::pack(blobs.iter().map(Vec::as_slice), file.manifest(), &compressed).expect("packs");
        let one = oms::mg::pack(blobs.iter().take(1).map(Vec::as_slice), None, &Default::default()).expect("packs");
        for b in &blobs {
            crate::targets::mg_blob(b);
        }
        ([sample.to_vec(), packed, one], blobs.into_iter().collect())
    })
}

/// Runs one damaged file (see the module documentation).
pub fn mg_file(data: &[u8]) {
    let Some((&how, patches)) = data.split_first() else { return };
    let (files, intact) = bases();
    let mut file = files[usize::from(how % 3)].clone();
    let chunks = patches.chunks_exact(5);
    let cut = chunks.remainder().len();
    for c in chunks {
        let at = u32::from_le_bytes([c[0], c[1], c[2], c[3]]) as usize % file.len();
        file[at] ^= c[4];
    }
    file.truncate(file.len().saturating_sub(cut * (1 + usize::from(how >> 4))));
    if how & 0x08 != 0 && file.len() >= 32 {
        let body = file.len() - 32;
        let digest = Sha256::digest(&file[..body]);
        file[body..].copy_from_slice(&digest);
    }
    if let Ok(f) = oms::mg::MgFile::open_limited(&file, MAX_REGION) {
        let _ = (f.header(), f.len(), f.manifest());
        for entry in f.entries().flatten().filter(|e| !intact.contains(*e)) {
            crate::targets::mg_blob(entry);
        }
    }
    let _ = oms::mg::verify(&file);
}
