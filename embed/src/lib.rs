//! Semantic search for CAL (§9.1, §16.4): an embedder interface with two real providers (an
//! OpenAI-compatible HTTP endpoint and a local command), an exact cosine index over the
//! vectors of a store, and reciprocal rank fusion of BM25 and vector rankings.
//!
//! Without an embedder nothing here runs and search is BM25 alone, as before. With one, a
//! `query =`, `LIKE` or `ABOUT` search ranks by both, and a grain found by either survives
//! (docs/spec-decisions-embed.md).

pub mod command;
pub mod config;
pub mod durable;
pub mod error;
pub mod fusion;
pub mod http;
pub mod index;
pub mod provider;
pub mod retriever;

pub use config::{EmbedderConfig, Provider};
pub use error::EmbedError;
pub use fusion::{Fused, RRF_K, fuse};
pub use index::{Entry, Scope, VectorIndex};
pub use provider::Embedder;
pub use retriever::{Retriever, entry_of, grain_text};
