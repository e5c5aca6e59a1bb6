//! `.mg` decoding and canonical re-encoding: blobs through `oms::decode`, files through
//! `MgFile::open` and `mg::verify`, grains given as JSON through encode then decode. Never
//! panic; a blob that decodes re-encodes to the same bytes, and decode(encode(g)) == g.
//!
//! The first byte selects the mode: 0 a blob, 1 a file as given, 2 a file whose SHA-256
//! footer is appended (so mutations get past the integrity check), 3 a grain as JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| cal_fuzz::targets::mg_decode(data));
