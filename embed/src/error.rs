//! Why an embedder gave no vectors. Each failure has its own name, so that a query that falls
//! back to keyword search can say exactly why (CAL-W901, docs/spec-decisions-embed.md).

use std::fmt;

/// An embedder failure.
#[derive(Debug, Clone, PartialEq)]
pub enum EmbedError {
    /// The configuration cannot work (a bad URL, no model, no dimensions).
    Config(String),
    /// The embedder could not be reached or exited without answering.
    Unavailable(String),
    /// The embedder did not answer within its time.
    Timeout {
        /// The time it was given, in milliseconds.
        after_ms: u64,
    },
    /// A vector of the wrong length.
    WrongDimensions {
        /// The configured length.
        expected: usize,
        /// The length received.
        got: usize,
    },
    /// An answer that is not the protocol's (bad JSON, too few vectors, a non-finite number).
    BadResponse(String),
}

impl fmt::Display for EmbedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EmbedError::Config(m) => write!(f, "the embedder is misconfigured: {m}"),
            EmbedError::Unavailable(m) => write!(f, "the embedder is unavailable: {m}"),
            EmbedError::Timeout { after_ms } => write!(f, "the embedder did not answer within {after_ms} ms"),
            EmbedError::WrongDimensions { expected, got } => write!(
                f,
                "the embedder returned vectors of {got} dimensions, but the store is configured for {expected} \
                 (check --dimensions against the model)"
            ),
            EmbedError::BadResponse(m) => write!(f, "the embedder's answer is not usable: {m}"),
        }
    }
}

impl std::error::Error for EmbedError {}

impl EmbedError {
    /// A short, stable name for the failure, reported in warnings and audit entries.
    pub fn kind(&self) -> &'static str {
        match self {
            EmbedError::Config(_) => "misconfigured",
            EmbedError::Unavailable(_) => "unavailable",
            EmbedError::Timeout { .. } => "timeout",
            EmbedError::WrongDimensions { .. } => "wrong_dimensions",
            EmbedError::BadResponse(_) => "bad_response",
        }
    }
}
