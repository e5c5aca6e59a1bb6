//! A damaged store database (`oms::durable`): the intact demo store with the input applied
//! as damage (offset/XOR pairs, truncation). Never panic; when `verify` passes on the
//! damaged file, every query answers as on the intact one.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| cal_fuzz::targets::durable_open(data));
