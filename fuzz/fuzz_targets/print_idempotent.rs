//! print → parse idempotency: a query that parses without errors prints to text that
//! parses without errors and prints the same text again.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| cal_fuzz::targets::print_idempotent(data));
