//! # cal-interp — the reference CAL interpreter (Tier 0)
//!
//! Executes checked CAL queries against an OMS store through a *constrained
//! facade* ([`ReadFacade`]): read operations only, no write and no delete, so
//! no statement can destroy memory — the executor holds no method that could
//! (§2.1, §2.3). Tier 1 statements are parsed, checked and explainable, and
//! refused here with CAL-E044.
//!
//! ```text
//! Query (checked AST) ──► cal_planner::plan_query ──► Interpreter::execute ──► Response
//!                              desugar, bound                 │ facade: query / search / count /
//!                                                             │ exists / get / history / versions
//!                                                             ▼
//!                                                        oms::store::Store
//! ```
//!
//! * [`Interpreter::execute`] runs one query: LET bindings once and in order,
//!   then the statement (an exhaustive match over the twelve statements), and
//!   returns the §14.1 envelope with the OMS §28.1 results.
//! * [`ExecOptions`] injects the clock, the user and the parameters: the same
//!   query on the same store with the same options gives the same bytes (§17.4).
//! * [`demo`] holds the built-in demo memory (a team assistant's memory).
//!
//! The interpreter never parses text (ARCHITECTURE.md): callers parse and
//! check, then hand it a [`cal_parser::ast::Query`].

// Every failure is the toolchain's one `Diagnostic` (ARCHITECTURE principle 3). An error ends
// the statement, so the size of `Err` is never on a hot path; boxing it would only add noise.
#![allow(clippy::result_large_err)]

mod assembly_stream;
pub mod audit;
mod auto_toon;
mod collate;
mod compose;
mod config;
mod content;
mod context;
pub mod demo;
mod describe;
mod dispatch;
mod engine;
mod envelope;
mod errors;
pub mod evolve;
mod facade;
pub mod fields;
mod history;
mod outcome;
mod projection;
mod recall;
mod setops;
pub mod stream;
mod templates;
pub mod text;
pub mod timeexpr;
mod values;

pub use audit::{AuditEntry, AuditSink, JsonLinesAudit, MemoryAudit, StreamAudit};
pub use config::{ExecOptions, InterpConfig, RegistryError, Templates, Timing};
pub use describe::{DECLARED_LEVEL, capabilities};
pub use engine::Interpreter;
pub use envelope::{CAL_VERSION, Response, diagnostic_json, query_hash};
pub use facade::{DurableFacade, OmsFacade, ReadFacade};

use std::sync::Arc;

use oms::store::{SaveOptions, Store};
use sha2::{Digest, Sha256};

/// SHA-256 of a store's portable content (every grain and its portable index
/// state, as `.mg` bytes): equal before and after any Tier 0 statement.
pub fn store_digest(store: &Store) -> String {
    let bytes = store.save(&SaveOptions::default()).unwrap_or_default();
    oms::address::hex(&Sha256::digest(&bytes))
}

/// An interpreter over an OMS store with the default configuration.
pub fn over(store: Arc<Store>) -> Interpreter<OmsFacade> {
    Interpreter::new(OmsFacade::new(store), InterpConfig::default())
}
