//! # cal-conformance — certify a CAL implementation at Core, Extended, Evolve or Full
//!
//! The corpus is data (`conformance/cases/**.json`, validated against
//! `schema/case-file.schema.json`); this crate loads it, derives generated
//! variants, runs every case against an [`Implementation`] — ours in-process,
//! or any engine through the JSON-lines protocol of `PROTOCOL.md` — compares
//! the answers, certifies a level (CAL §24) and writes the reports.

pub mod case;
pub mod loader;
mod raw;

pub use case::{Case, Flag, Kind, Level};
pub use loader::{Corpus, LoadError, load_dir};
pub use raw::{decode_hex, encode_hex};

use std::path::PathBuf;

/// The repository's corpus directory, resolved from this crate's location at build time.
pub fn default_cases_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cases")
}

/// The repository's fixture directory (`conformance/fixtures`), resolved like [`default_cases_dir`].
pub fn default_fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}
