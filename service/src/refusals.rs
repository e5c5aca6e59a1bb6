//! The diagnostics the service answers with when it refuses a request or a write goes
//! only part of the way: one place for their codes and words.

use cal_grammar::{Code, Diagnostic, Span};

/// An internal invariant failed: reported as CAL-E030, never a panic.
pub(crate) fn bug(span: Span, what: &str) -> Diagnostic {
    Diagnostic::new(
        Code::E030,
        span,
        format!("Internal error: {what}. This is a bug in the CAL toolchain, please report it."),
    )
    .with_suggestion("Nothing was written.")
}

/// CAL-E903: the master kill switch is on (§20.3).
pub(crate) fn master_off() -> Diagnostic {
    Diagnostic::new(Code::E903, Span::default(), "CAL is switched off on this store (master kill switch, §20.3).")
        .with_suggestion("Ask the store's operator; `cal store switch DB master off` turns it back on.")
}

/// CAL-E044: the Tier 1 kill switch is on (§20.3).
pub(crate) fn tier1_off(span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::E044,
        span,
        "Tier 1 is switched off on this store (Tier 1 kill switch, §20.3); reads go on, nothing was written.",
    )
    .with_suggestion("Ask the store's operator; `cal store switch DB tier1 off` turns writes back on.")
}

/// CAL-E043: the token's write quota is spent.
pub(crate) fn quota_exhausted(span: Span, quota: u64) -> Diagnostic {
    Diagnostic::new(
        Code::E043,
        span,
        format!("This token's write quota is spent (it allowed {quota} evolve operations); nothing was written."),
    )
    .with_suggestion("Ask the issuer for a new token with a write quota (`cal token issue --quota N`).")
}

/// CAL-E052 or E043: a per-minute rate of the namespace is reached (§17.3).
pub(crate) fn rate_exceeded(code: Code, span: Span, op: &str, limit: u64) -> Diagnostic {
    Diagnostic::new(
        code,
        span,
        format!("Too many {op} operations in this namespace: at most {limit} per minute (§17.3); nothing was written."),
    )
    .with_suggestion("Wait a minute and prepare it again.")
}

/// CAL-W901 on an execute response: the grain is written, but the store's embedder could
/// not embed it (docs/spec-decisions-embed.md X8).
pub(crate) fn not_embedded(span: Span, e: &dyn std::fmt::Display) -> Diagnostic {
    Diagnostic::new(
        Code::W901,
        span,
        format!(
            "The grain is stored, but the embedder could not embed it ({e}), so it is found by keywords only for now."
        ),
    )
    .with_suggestion("Run `cal store embed DB` when the embedder is back.")
}
