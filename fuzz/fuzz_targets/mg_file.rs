//! Whole `.mg` files, damaged, opened under a ceiling on the decompressed region
//! (`cal_fuzz::mgfile`). Never panic; memory bounded.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| cal_fuzz::mgfile::mg_file(data));
