//! `arbitrary`-generated ASTs through printer, JSON form, checker, planner and the
//! Tier-0 interpreter over the demo memory and the conformance fixture stores
//! (`cal_fuzz::pipeline` holds the checks, shared with the regression replay test).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| cal_fuzz::pipeline::run(data));
