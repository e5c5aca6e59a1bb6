//! # cal-conformance — certify a CAL implementation at Core, Extended, Evolve or Full
//!
//! The corpus is data (`conformance/cases/**.json`, validated against
//! `schema/case-file.schema.json`); this crate loads it ([`loader`]), derives
//! generated variants ([`generate`], [`limits`]), runs every case against an
//! [`Implementation`] — ours in-process ([`inprocess`]), or any engine through
//! the JSON-lines protocol of `PROTOCOL.md` ([`subprocess`]) — judges the
//! answers ([`compare`], TOON up to its row layout: [`toon_layout`]), certifies a level (CAL §24, [`certify`]) and writes
//! the reports ([`report`]) and the summary fit to publish ([`publish`]); cases
//! needing a capability the engine lacks are not applicable ([`capability`]),
//! and canonical text is compared by re-parsing ([`reparse`]). [`stats`] measures the corpus itself, and
//! [`seeds`] turns it into fuzzing seeds; [`selection`] narrows a run (`--only`, `--tag`,
//! `--skip`, `--expected-failures`). [`adapter`] serves our toolchain
//! over the protocol (`cal conformance adapter`). The corpus and its fixture
//! stores are compiled into the binary ([`embedded`], [`load_embedded_corpus`]),
//! so a run needs no source tree; a directory can still be given instead
//! ([`load_corpus`]). [`examples`] draws Appendix B's request/response pairs
//! from the corpus (`cal conformance examples`).

pub mod adapter;
pub mod capability;
pub mod case;
pub mod certify;
pub mod compare;
pub mod embedded;
pub mod examples;
pub mod exclusions;
pub mod generate;
pub mod implementation;
pub mod inprocess;
mod inprocess_exec;
pub mod limits;
pub mod loader;
pub mod protocol;
pub mod protocol_schema;
pub mod publish;
mod raw;
pub mod reparse;
pub mod report;
pub mod runner;
pub mod seeds;
pub mod selection;
pub mod stats;
pub mod subprocess;
pub mod toon_layout;

pub use case::{Case, Flag, Kind, Level};
pub use implementation::Implementation;
pub use inprocess_exec::execute_with;
pub use loader::{Corpus, LoadError, load_dir};
pub use raw::{decode_hex, encode_hex};

use std::path::{Path, PathBuf};

/// The repository's corpus directory, resolved from this crate's location at build time
/// (for tests and authoring; a run uses the embedded copy, [`load_embedded_corpus`]).
pub fn default_cases_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cases")
}

/// The repository's fixture directory (`conformance/fixtures`), resolved like [`default_cases_dir`].
pub fn default_fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// The whole corpus: the hand-written cases under `dir`, their metamorphic variants, the
/// limit-boundary pairs and the §2.4 exclusions in every position, with the JSON-form pins of
/// Core cases moved to Extended cases of their own, and every id checked for uniqueness
/// across all of them.
pub fn load_corpus(dir: &Path) -> Corpus {
    complete(load_dir(dir))
}

/// The whole corpus as [`load_corpus`] gives it, from the copy of `conformance/cases`
/// compiled into this binary ([`embedded`]): what `cal conformance run` uses unless
/// given `--cases DIR`.
pub fn load_embedded_corpus() -> Corpus {
    complete(embedded::load_cases())
}

/// The hand-written cases plus everything derived from them.
fn complete(mut corpus: Corpus) -> Corpus {
    let variants = generate::metamorphic(&corpus.cases);
    corpus.cases.extend(variants);
    let (boundaries, problems) = limits::boundary_cases();
    corpus.cases.extend(boundaries);
    corpus.cases.extend(exclusions::exclusion_cases());
    generate::json_pins_at_extended(&mut corpus.cases);
    generate::canonical_pins_at_extended(&mut corpus.cases);
    corpus.errors.extend(problems.into_iter().map(|message| LoadError {
        file: PathBuf::from("conformance/templates/limits.json"),
        pointer: String::new(),
        message,
    }));
    let dups = loader::duplicate_ids(&corpus.cases);
    for d in dups {
        if !corpus.errors.contains(&d) {
            corpus.errors.push(d);
        }
    }
    corpus
}

/// Replaces the limit-boundary pairs with pairs at the values an implementation declared for
/// its configurable limits in `hello` (an engine with `MAX_IN_SET` 50 is tested at 50 and 51).
pub fn adapt_limits(corpus: &mut Corpus, declared: &serde_json::Map<String, serde_json::Value>) {
    let (pairs, _) = limits::boundary_cases_for(declared);
    let ids: std::collections::HashSet<String> = pairs.iter().map(|c| c.id.clone()).collect();
    corpus.cases.retain(|c| !ids.contains(&c.id));
    corpus.cases.extend(pairs);
}
