//! The token gate every request passes before the interpreter sees it: the
//! token is verified, then every operation the query performs is checked
//! against what the token allows.
//!
//! "Every operation" means every statement anywhere in the query: the
//! top-level one, each BATCH entry, each COALESCE branch, each LET binding,
//! each ASSEMBLE source and each set-operation operand. EXPLAIN needs only
//! `Explain` (it is a dry run, whatever it plans). A RECALL ending in
//! `| COUNT` needs `Count`, which `Recall` also grants (ruling S5).
//!
//! Refusals of the credential itself (not a token, a bad signature, expired,
//! not yet valid, spent) are one code and one text, CAL-E901, so that nothing
//! outside tells them apart (§20.1 "identical error responses"); the reason
//! is kept for the audit trail ([`Refusal::reason`]). A valid token that does
//! not allow an operation is CAL-E044 when the operation needs Tier 1 and the
//! token is Tier 0 (the spec's code), else CAL-E902 naming what it allows.

use cal_grammar::{Code, Diagnostic, Span};
use cal_parser::ast::{Query, QueryBody, SourceBody, StageKind, Statement};

use crate::key::ServerKey;
use crate::token::{CapabilityToken, Op, Verified};

/// An operation a query performs, and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Needed {
    /// The operation.
    pub op: Op,
    /// The statement that performs it.
    pub span: Span,
}

/// Every operation `q` performs, in source order.
pub fn required_ops(q: &Query) -> Vec<Needed> {
    let mut out = Vec::new();
    for l in &q.lets {
        recall(&l.recall, l.span, &mut out);
    }
    match &q.body {
        QueryBody::Statement(s) => statement(s, &mut out),
        QueryBody::DefineTemplate(d) => out.push(Needed { op: Op::DefineTemplate, span: d.span }),
    }
    out
}

fn recall(r: &cal_parser::ast::Recall, span: Span, out: &mut Vec<Needed>) {
    let counts = r.pipeline.iter().any(|s| matches!(s.kind, StageKind::Count));
    out.push(Needed { op: if counts { Op::Count } else { Op::Recall }, span });
}

fn statement(s: &Statement, out: &mut Vec<Needed>) {
    let span = s.span();
    match s {
        Statement::Recall(r) => recall(r, span, out),
        Statement::Assemble(a) => {
            out.push(Needed { op: Op::Assemble, span });
            for src in &a.sources {
                if let SourceBody::Recall(r) = &src.body {
                    recall(r, src.span, out);
                }
            }
        }
        Statement::SetOp(op) => {
            statement(&op.left, out);
            statement(&op.right, out);
        }
        Statement::Exists(_) => out.push(Needed { op: Op::Exists, span }),
        Statement::History(_) => out.push(Needed { op: Op::History, span }),
        Statement::Explain(_) => out.push(Needed { op: Op::Explain, span }),
        Statement::Describe(_) => out.push(Needed { op: Op::Describe, span }),
        Statement::Batch(b) => {
            out.push(Needed { op: Op::Batch, span });
            for e in &b.entries {
                statement(&e.statement, out);
            }
        }
        Statement::Coalesce(c) => {
            out.push(Needed { op: Op::Coalesce, span });
            for r in &c.branches {
                recall(r, span, out);
            }
        }
        Statement::Add(_) => out.push(Needed { op: Op::Add, span }),
        Statement::Supersede(_) => out.push(Needed { op: Op::Supersede, span }),
        Statement::Revert(_) => out.push(Needed { op: Op::Revert, span }),
    }
}

/// A refused credential: the one diagnostic the caller sees, and the reason kept for audit.
#[derive(Debug, Clone)]
pub struct Refusal {
    /// CAL-E901, the same text whatever the reason.
    pub diagnostic: Diagnostic,
    /// Why, for the audit trail only.
    pub reason: String,
}

/// The one answer to a refused credential (§20.1).
pub fn refused(reason: impl Into<String>) -> Refusal {
    Refusal {
        diagnostic: Diagnostic::new(Code::E901, Span::default(), "The capability token was refused.").with_suggestion(
            "Ask the issuer for a new token; `cal token inspect TOKEN --key KEY` tells the issuer why.",
        ),
        reason: reason.into(),
    }
}

/// Verifies a token's text at `now_ms`: any failure is the one refusal.
pub fn verify(text: &str, key: &ServerKey, now_ms: i64) -> Result<Verified, Refusal> {
    let token = CapabilityToken::parse(text).map_err(|e| refused(e.to_string()))?;
    token.verify(key, now_ms).map_err(|e| refused(e.to_string()))
}

fn allowed(v: &Verified, op: Op) -> bool {
    v.allows(op) || (op == Op::Count && v.allows(Op::Recall))
}

/// Checks every operation of `q` against the token: CAL-E044 for a Tier 1 operation under a
/// Tier 0 token, CAL-E902 for an operation or an ADD grain type the token does not allow.
pub fn authorize(v: &Verified, q: &Query) -> Result<(), Diagnostic> {
    let t = v.token();
    for n in required_ops(q) {
        if n.op.tier() > t.tier {
            return Err(Diagnostic::new(
                Code::E044,
                n.span,
                format!("{} needs a Tier 1 token, and this token is Tier 0; nothing was written.", n.op.as_str()),
            )
            .with_suggestion("Ask the issuer for a Tier 1 token that allows it (`cal token issue --tier 1 …`)."));
        }
        if !allowed(v, n.op) {
            return Err(Diagnostic::new(Code::E902, n.span, format!("This token does not allow {}.", n.op.as_str()))
                .with_suggestion("Ask the issuer for a token whose allowed_ops include it.")
                .with_valid_values(t.allowed_ops.iter().map(|o| o.as_str().to_string())));
        }
    }
    if let QueryBody::Statement(Statement::Add(a)) = &q.body {
        may_write(v, a.grain_type.grain_type, a.grain_type.span)?;
    }
    Ok(())
}

/// CAL-E902 unless the token may write grains of type `g` (ADD, and what SUPERSEDE and REVERT
/// write).
pub fn may_write(v: &Verified, g: cal_grammar::GrainType, span: Span) -> Result<(), Diagnostic> {
    if v.may_write(g) {
        return Ok(());
    }
    let t = v.token();
    let allowed = if t.allowed_grain_types.is_empty() { "none".to_string() } else { t.allowed_grain_types.join(", ") };
    Err(Diagnostic::new(
        Code::E902,
        span,
        format!("This token may not write {} grains (it may write: {allowed}).", g.singular()),
    )
    .with_suggestion("Ask the issuer for a token whose allowed_grain_types include it."))
}

/// CAL-E902: the request addresses a memory (`/memories/{id}`) other than the token's
/// namespace (§26: the memory id names a namespace the token must allow).
pub fn other_memory(memory: &str, namespace: &str) -> Diagnostic {
    Diagnostic::new(Code::E902, Span::default(), format!("This token is for memory {namespace:?}, not {memory:?}."))
        .with_suggestion("Address the memory your token names, or ask the issuer for a token for this one.")
}
