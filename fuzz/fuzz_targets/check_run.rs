//! Checker and interpreter: text → `cal_checker::analyze` → every query of a clean
//! document executed over the demo store with a fixed clock. No panic, the store
//! digest is unchanged, and the same query twice gives the same response.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| cal_fuzz::targets::check_run(data));
