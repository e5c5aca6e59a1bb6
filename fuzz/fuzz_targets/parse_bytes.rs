//! Lexer and parser on raw bytes: never panic, every diagnostic span on character
//! boundaries inside the input, every code from the registry.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| cal_fuzz::targets::parse_bytes(data));
