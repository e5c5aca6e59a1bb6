//! OMS 1.3 memory grains: the grain model for the ten standard types,
//! canonical MessagePack and CBOR, field compaction, content addresses,
//! `.mg` containers, COSE Sign1 signing with `did:key` identities and
//! selective disclosure.
//!
//! This crate knows nothing about CAL; the CAL toolchain builds on it.
//! Every entry point that takes bytes or text returns a `Result` with an
//! [`OmsError`] carrying the spec's `ERR_*` code.

pub mod address;
pub mod atomic;
mod canon;
mod canon_check;
pub mod cbor;
pub mod cose;
pub mod did;
pub mod disclosure;
pub mod durable;
pub mod error;
pub mod fields;
pub mod grain;
pub mod header;
pub mod interrupt;
pub mod json;
pub mod mg;
pub mod msgpack;
pub mod schema;
pub mod store;
pub mod synthetic;
pub mod time;
pub mod tools;
pub mod types;
pub mod value;

pub use address::ContentAddress;
pub use canon::DEFAULT_MAX_DEPTH;
pub use error::{CorruptReason, OmsError, Result};
pub use grain::{Blob, DecodeOptions, Encoding, Grain, HeaderOptions, decode, decode_with};
pub use header::{Header, Sensitivity};
pub use types::GrainType;
pub use value::{Map, Value};
