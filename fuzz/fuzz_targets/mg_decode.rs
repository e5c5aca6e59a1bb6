//! `.mg` decoding: blobs through `oms::decode`, files through `MgFile::open` and
//! `mg::verify`. Never panic; a blob that decodes re-encodes to the same bytes.
//!
//! The first byte selects the mode: 0 a blob, 1 a file as given, 2 a file whose
//! SHA-256 footer is appended (so mutations get past the integrity check).
#![no_main]

use libfuzzer_sys::fuzz_target;
use sha2::{Digest, Sha256};

fn blob(data: &[u8]) {
    if let Ok(grain) = oms::decode(data) {
        let blob = grain.encode().expect("a decoded grain encodes");
        assert_eq!(blob.bytes, data, "re-encoding a decoded blob changed its bytes");
    }
}

fn file(data: &[u8]) {
    if let Ok(f) = oms::mg::MgFile::open(data) {
        let _ = (f.header(), f.len(), f.manifest());
        for entry in f.entries().flatten() {
            blob(entry);
        }
    }
    let _ = oms::mg::verify(data);
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    match mode % 3 {
        0 => blob(rest),
        1 => file(rest),
        _ => {
            let mut v = rest.to_vec();
            v.extend_from_slice(&Sha256::digest(rest));
            file(&v);
        }
    }
});
