//! # cal-server — the reference CAL server
//!
//! `cal serve` and `cal mcp`: §26 REST with prepare/execute, SSE, NDJSON and WebSocket
//! streaming (§11.3), and MCP for agents, each a thin transport over `cal-service` (the
//! token gate, prepare/execute, quotas, audit, kill switches live there once). Handlers map
//! HTTP to service calls and statuses back; no statement is implemented here.
//!
//! | module | job |
//! |---|---|
//! | [`app`] | state, router, graceful shutdown |
//! | [`rest`] | §26 endpoints, request bodies (§15.4), bearer tokens |
//! | [`streams`] | streamed ASSEMBLEs: buffer, stall, reconnection, per-client limit (§11.6) |
//! | [`ws`] | the WebSocket actions (§11.3) |
//! | [`mcp`] | MCP tools, resources and prompt over stdio and Streamable HTTP |
//! | [`status`] | the HTTP status of each CAL code |

// Refusals are the toolchain's one `Diagnostic`; their size is never on a hot path.
#![allow(clippy::result_large_err)]

pub mod app;
pub mod mcp;
mod prompt;
pub mod rest;
pub mod status;
pub mod streams;
pub mod ws;

pub use app::{AppState, ServerConfig, router, serve, signal};
