//! # cal-service — what every request passes through around the interpreter
//!
//! The CLI, the HTTP server and the MCP server are thin transports over this
//! crate (ARCHITECTURE.md, "the second wave"), so a token check exists once
//! and every transport gives the same answer to the same request.
//!
//! Today it holds the capability token model of §18.1: the server key
//! ([`key`]); tokens, their signature and their validity window ([`token`]);
//! and the gate every request passes ([`gate`]): one refusal for a bad
//! credential, and every operation of the query checked against the token.
//! Two-phase prepare/execute, quotas, the audit trail and the kill switches
//! build on it (issue 17).

// Every refusal is the toolchain's one `Diagnostic` (ARCHITECTURE principle 3), as in the
// interpreter; a refusal ends the request, so its size is never on a hot path.
#![allow(clippy::result_large_err)]

pub mod gate;
pub mod key;
pub mod prepared;
mod refusals;
pub mod request;
pub mod service;
pub mod token;

pub use gate::{Needed, Refusal, authorize, required_ops, verify};
pub use key::{KeyError, ServerKey};
pub use prepared::{PREPARED_TTL_MS, PreparedToken};
pub use service::{Caller, Prepared, Rates, Service, ServiceConfig, Switch};
pub use token::{CapabilityToken, Claims, Op, TokenError, Verified};
