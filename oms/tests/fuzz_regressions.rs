//! Replays the inputs kept under `fuzz/regressions/mg_decode/` (minimised crashes of the
//! cargo-fuzz target) with the same checks, so CI runs them. Passes with no files present.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

fn inputs(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/regressions").join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries.flatten().map(|e| e.path()).filter(|p| p.is_file()).collect();
    files.sort();
    files.into_iter().filter_map(|p| std::fs::read(&p).ok().map(|b| (p, b))).collect()
}

fn blob(name: &Path, data: &[u8]) {
    let decoded = oms::decode(data);
    let oracle = oms::grain::decode_by_reencoding(data, &oms::DecodeOptions::default());
    assert_eq!(decoded, oracle, "{}: the one-pass check and the re-encoding disagree", name.display());
    if let Ok(grain) = decoded {
        let blob =
            grain.encode().unwrap_or_else(|e| panic!("{}: a decoded grain does not encode: {e}", name.display()));
        assert_eq!(blob.bytes, data, "{}: re-encoding changed the bytes", name.display());
    }
}

fn file(name: &Path, data: &[u8]) {
    if let Ok(f) = oms::mg::MgFile::open(data) {
        let _ = (f.header(), f.len(), f.manifest());
        for entry in f.entries().flatten() {
            blob(name, entry);
        }
    }
    let _ = oms::mg::verify(data);
}

/// A grain given as JSON: when it encodes, the blob decodes back to the same grain.
fn grain_json(name: &Path, data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(grain) = oms::Grain::from_json_str(text) else { return };
    let Ok(blob) = grain.encode() else { return };
    let back = oms::decode(&blob.bytes)
        .unwrap_or_else(|e| panic!("{}: an encoded grain does not decode: {e}", name.display()));
    assert_eq!(back, grain, "{}: decode(encode(grain)) differs", name.display());
}

/// Same modes as the target: the first byte picks blob, file, file with its footer appended,
/// or grain JSON (fuzz/src/targets.rs, `mg_decode`).
#[test]
fn mg_decode_regressions() {
    for (name, data) in inputs("mg_decode") {
        let Some((&mode, rest)) = data.split_first() else { continue };
        match mode % 4 {
            0 => blob(&name, rest),
            1 => file(&name, rest),
            2 => {
                let mut v = rest.to_vec();
                v.extend_from_slice(&Sha256::digest(rest));
                file(&name, &v);
            }
            _ => grain_json(&name, rest),
        }
    }
}
