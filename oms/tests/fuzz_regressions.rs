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
    if let Ok(grain) = oms::decode(data) {
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

/// Same modes as the target: the first byte picks blob, file, or file with its footer appended.
#[test]
fn mg_decode_regressions() {
    for (name, data) in inputs("mg_decode") {
        let Some((&mode, rest)) = data.split_first() else { continue };
        match mode % 3 {
            0 => blob(&name, rest),
            1 => file(&name, rest),
            _ => {
                let mut v = rest.to_vec();
                v.extend_from_slice(&Sha256::digest(rest));
                file(&name, &v);
            }
        }
    }
}
