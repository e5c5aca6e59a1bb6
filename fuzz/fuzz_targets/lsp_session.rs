//! A session of editor requests against the language server's engine, in process: fuzzed
//! text, edits and positions (`cal_fuzz::lsp`). Never panic; every answer well-formed.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| cal_fuzz::lsp::lsp_session(data));
