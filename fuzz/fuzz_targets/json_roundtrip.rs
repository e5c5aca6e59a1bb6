//! JSON → text → JSON: a document accepted from `application/json+cal` prints to text
//! that parses without errors back to the same JSON.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| cal_fuzz::targets::json_roundtrip(data));
