//! # cal-service — what every request passes through around the interpreter
//!
//! The CLI, the HTTP server and the MCP server are thin transports over this
//! crate (ARCHITECTURE.md, "the second wave"), so a token check exists once
//! and every transport gives the same answer to the same request.
//!
//! Today it holds the capability token model of §18.1: the server key
//! ([`key`]), and tokens, their signature and their validity window
//! ([`token`]). Per-request enforcement (operations, grain types, uses,
//! quota, the token's namespace), two-phase prepare/execute, the audit trail
//! and the kill switches build on it (issue 17).

pub mod key;
pub mod token;

pub use key::{KeyError, ServerKey};
pub use token::{CapabilityToken, Claims, Op, TokenError, Verified};
