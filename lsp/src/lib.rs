//! # cal-lsp — the CAL language server
//!
//! Two layers, so that the language smarts can be tested without an editor:
//!
//! * [`engine`]: pure functions over an in-memory [`engine::Document`] —
//!   diagnostics, completion, hover, formatting, symbols, definition,
//!   references, rename, semantic tokens, code actions and signature help.
//!   Everything works on UTF-8 byte offsets, the unit of every `Span` of the
//!   front end.
//! * [`server`]: the protocol layer on `tower-lsp-server` (the maintained fork
//!   of `tower-lsp`, with current LSP types). It owns the document store,
//!   publishes diagnostics (at once when analysis is cheap, debounced when it
//!   is not), and converts byte spans to LSP positions (UTF-16 by
//!   default, UTF-8 when the client offers it) only at the edge.
//!
//! [`textmate`] generates the TextMate grammar of the VS Code extension from
//! the grammar tables; a test fails when the committed file is stale.

pub mod engine;
pub mod server;
pub mod textmate;

pub use server::{Ending, serve, serve_stdio, serve_stdio_with};
