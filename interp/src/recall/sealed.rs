//! CAL-E080 GrainFormatError: a grain the store holds but this engine cannot
//! read, and so cannot format (ruling C27, docs/spec-decisions-conformance.md).
//!
//! The store keeps an encrypted grain (OMS §3.1.1 flag bit 1, §20.2) as its
//! bytes and clear header; CAL holds no keys (§2). Such a grain is reachable by
//! its full address only, by a request not confined to a namespace (its
//! namespace is a 2-byte routing hint, advisory under OMS §13.1, not proof).
//! A RECALL that names it by address, with nothing else its header cannot
//! answer, matches it; the grain is left out of the results (and of every
//! count, stage and assembly), and the response reports CAL-E080 for it — in
//! `_cal.warnings`, since the rest of the answer stands, and in a stream as an
//! `error` event of the formatting phase that does not end the stream. HISTORY
//! of it is refused with CAL-E080: the one grain it would show cannot be shown.

use std::sync::Arc;

use cal_grammar::{Code, Diagnostic, Span};
use oms::ContentAddress;
use oms::store::Filter;
use oms::store::sealed::SealedGrain;
use oms::types::GrainType;

use super::compile::{Compiled, Post};
use crate::context::Ctx;
use crate::stream::EventBody;

/// The E080 diagnostic for one sealed grain.
pub(crate) fn format_error(g: &SealedGrain, span: Span) -> Diagnostic {
    let kind = g.grain_type.name().unwrap_or("grain");
    Diagnostic::new(
        Code::E080,
        span,
        format!(
            "sha256:{} is a {kind} whose payload is encrypted (OMS §3.1.1 flag bit 1); this engine holds no key \
             to read it, so it cannot be formatted.",
            g.address.to_hex()
        ),
    )
    .with_suggestion("Read this grain where its key is held, or leave its address out of the query.")
}

/// The sealed grain at `address`, when this request may see it.
pub(crate) fn visible(cx: &Ctx<'_>, address: &ContentAddress) -> Option<Arc<SealedGrain>> {
    if cx.config.namespace.is_some() {
        return None;
    }
    cx.facade.sealed(address)
}

/// Reports CAL-E080 for every sealed grain a RECALL's conditions select: named by
/// address (`hash = …` or `hash IN (…)`), of the RECALL's type, with no other condition.
pub(crate) fn report_selected(cx: &mut Ctx<'_>, compiled: &Compiled, span: Span) {
    if cx.config.namespace.is_some() || compiled.text.is_some() || compiled.impossible {
        return;
    }
    let mut addresses: Vec<ContentAddress> = Vec::new();
    let mut types: Vec<GrainType> = Vec::new();
    for f in &compiled.filters {
        match f {
            Filter::Address(a) => addresses.push(*a),
            Filter::In { field, values } if field == cal_grammar::fields::names::HASH => {
                addresses
                    .extend(values.iter().filter_map(|v| v.as_str()).filter_map(|h| ContentAddress::parse(h).ok()));
            }
            Filter::Type(t) => types.push(*t),
            // Anything else reads a field (or index state) the store cannot see.
            _ => return,
        }
    }
    let header_only = compiled.posts.iter().all(|p| matches!(p, Post::NotSuperseded));
    if !header_only {
        return;
    }
    addresses.sort_unstable();
    addresses.dedup();
    for a in addresses {
        let Some(g) = visible(cx, &a) else { continue };
        if types.iter().any(|t| *t != g.grain_type) {
            continue;
        }
        let d = format_error(&g, span);
        if let Some(em) = cx.stream.as_mut() {
            let phase = em.phase.to_string();
            em.emit(EventBody::Error { phase, error: crate::errors::diagnostic_json(&d) });
        }
        cx.stats.warn(d);
    }
}
