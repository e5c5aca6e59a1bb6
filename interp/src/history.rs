//! EXISTS (§8.3) and HISTORY (§8.4).
//!
//! `HISTORY sha256:X` reads like `git log X`: X and the versions it
//! superseded, newest first, capped at 100 (§13: get + chain walk), with the
//! chain's head named when X itself has been superseded. `DIFF sha256:Y` adds
//! the field changes from X to Y. `HISTORY WHERE subject = … AND relation = …`
//! lists every version of that triple; `AS OF "…"` keeps the versions that
//! were current at the end of that time (OMS §15.2).

use cal_grammar::fields::names;
use cal_grammar::limits::MAX_HISTORY_VERSIONS;
use cal_grammar::{Code, Diagnostic, Span};
use cal_parser::ast::{Exists, History, HistoryKind, Target};
use oms::store::Stored;
use oms::{ContentAddress, Value};
use serde_json::Value as Json;

use crate::context::Ctx;
use crate::outcome::{Change, Diff, Existence, Version, Versions};
use crate::recall::{ambiguous, compile::interval};
use crate::timeexpr::format_rfc3339;
use crate::values::{self, Lit};

/// CAL-E046: no grain has this address (prefix).
pub(crate) fn not_found(hex: &str, span: Span) -> Diagnostic {
    Diagnostic::new(Code::E046, span, format!("No grain has the address sha256:{hex}."))
        .with_suggestion("Check the hash; EXISTS tells whether a grain exists.")
}

/// The one grain a target names (CAL-E046 for none, CAL-E015 for an ambiguous prefix).
fn resolve(cx: &mut Ctx<'_>, t: &Target) -> Result<(String, ContentAddress), Diagnostic> {
    let hex = values::target_hex(cx, t)?;
    match cx.resolve_visible(&hex, 2).as_slice() {
        [one] => Ok((hex, *one)),
        [] => match ContentAddress::parse(&hex).ok().and_then(|a| crate::recall::sealed::visible(cx, &a)) {
            Some(g) => Err(crate::recall::sealed::format_error(&g, t.span)),
            None => Err(not_found(&hex, t.span)),
        },
        _ => Err(ambiguous(&hex, t.span)),
    }
}

/// EXISTS: one `exists` operation (a prefix is looked up in the address index).
pub fn exists(cx: &mut Ctx<'_>, e: &Exists) -> Result<Existence, Diagnostic> {
    let hex = values::target_hex(cx, &e.target)?;
    let found: Vec<ContentAddress> = if hex.len() == 64 && cx.config.namespace.is_none() {
        ContentAddress::parse(&hex).ok().filter(|a| cx.facade.exists(a)).into_iter().collect()
    } else {
        cx.resolve_visible(&hex, 2)
    };
    cx.stats.store_ops += 1;
    if found.len() > 1 {
        cx.stats.note(format!("sha256:{hex} is a prefix of several grains' addresses"));
    }
    let content_address = match found.as_slice() {
        [one] => Some(one.to_hex()),
        _ => None,
    };
    Ok(Existence { exists: !found.is_empty(), content_address })
}

fn system_valid_from(s: &Stored) -> i64 {
    s.grain().get("system_valid_from").and_then(Value::as_i64).or_else(|| s.grain().created_at()).unwrap_or(0)
}

fn version(cx: &mut Ctx<'_>, s: &Stored, number: usize) -> Version {
    cx.stats.returned += 1;
    Version {
        version: number,
        content_address: s.address.to_hex(),
        grain: s.grain().to_json(),
        superseded_by: s.index.superseded_by.map(|a| a.to_hex()),
        system_valid_from: format_rfc3339(system_valid_from(s)),
        system_valid_to: s.index.system_valid_to.map(format_rfc3339),
    }
}

/// Field changes from `a` to `b`, by field name in order.
fn diff(a: &Stored, b: &Stored) -> Vec<Change> {
    let (fa, fb) = (a.grain().fields(), b.grain().fields());
    let mut names: Vec<&String> = fa.keys().chain(fb.keys()).collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .filter(|n| fa.get(*n) != fb.get(*n))
        .map(|n| {
            let side = |v: Option<&Value>| v.map_or(Json::Null, oms::json::to_json);
            Change { field: n.clone(), from: side(fa.get(n)), to: side(fb.get(n)) }
        })
        .collect()
}

fn chain(cx: &mut Ctx<'_>, target: &Target, other: Option<&Target>) -> Result<Versions, Diagnostic> {
    let (_, addr) = resolve(cx, target)?;
    let mut all = cx.facade.get_history(&addr).map_err(|_| not_found(&addr.to_hex(), target.span))?;
    all.retain(|s| cx.visible(s.grain().namespace()));
    cx.deadline.check()?;
    let Some(at) = all.iter().position(|s| s.address == addr) else {
        return Err(not_found(&addr.to_hex(), target.span));
    };
    let walked = at + 1;
    let shown = walked.min(MAX_HISTORY_VERSIONS);
    cx.stats.store_ops += shown as u64;
    cx.stats.scanned += shown as u64;
    let mut results = Vec::with_capacity(shown);
    for (i, s) in all[..walked].iter().enumerate().rev().take(shown) {
        results.push(version(cx, s, i + 1));
    }
    let head = all.last().filter(|h| h.address != addr).map(|h| h.address.to_hex());
    let mut out = Versions {
        as_of: None,
        results,
        total: walked,
        truncated: walked > shown,
        head: Some(head),
        diff: None,
        next_cursor: None,
    };
    if let Some(t) = other {
        let (_, other_addr) = resolve(cx, t)?;
        let b = match all.iter().find(|s| s.address == other_addr) {
            Some(s) => s.clone(),
            None => {
                cx.stats.store_ops += 1;
                cx.facade.get(&other_addr).ok_or_else(|| not_found(&other_addr.to_hex(), t.span))?
            }
        };
        let a = &all[at];
        out.diff = Some(Diff {
            from: a.address.to_hex(),
            to: b.address.to_hex(),
            same_chain: all.iter().any(|s| s.address == other_addr),
            changes: diff(a, &b),
        });
    }
    Ok(out)
}

fn text_of(cx: &Ctx<'_>, v: &cal_parser::ast::Value, what: &str) -> Result<String, Diagnostic> {
    match values::resolve(cx, v)? {
        Lit::Str(s) => Ok(s),
        other => Err(Diagnostic::new(Code::E020, v.span, format!("HISTORY's {what} must be a string, not {other:?}."))),
    }
}

/// HISTORY in both forms.
pub fn history(cx: &mut Ctx<'_>, h: &History) -> Result<Versions, Diagnostic> {
    match &h.kind {
        HistoryKind::Hash { target, diff } => chain(cx, target, diff.as_ref()),
        HistoryKind::Triple { scope, subject, relation, as_of } => {
            let (s, r) = (text_of(cx, subject, names::SUBJECT)?, text_of(cx, relation, names::RELATION)?);
            let all = cx.facade.versions(&s, &r);
            cx.stats.store_ops += 1;
            cx.stats.scanned += all.len() as u64;
            // Version numbers count the whole chain, oldest first, before any filtering.
            let mut versions: Vec<(usize, Stored)> = all.into_iter().enumerate().map(|(i, v)| (i + 1, v)).collect();
            let ns = cx
                .config
                .namespace
                .clone()
                .or_else(|| scope.as_ref().filter(|s| !s.is_scope).map(|s| s.value.value.to_string()));
            let prefix = if cx.config.namespace.is_none() {
                scope.as_ref().filter(|s| s.is_scope).map(|s| s.value.value.clone())
            } else {
                None
            };
            versions.retain(|(_, v)| {
                let n = v.grain().namespace();
                ns.as_deref().is_none_or(|want| n == Some(want))
                    && prefix.as_deref().is_none_or(|p| {
                        n.is_some_and(|n| n == p || n.strip_prefix(p).is_some_and(|r| r.starts_with(':')))
                    })
            });
            let mut as_of_text = None;
            if let Some(a) = as_of {
                let t = interval(cx, &Lit::Str(a.value.to_string()), a.span)?.to - 1;
                versions
                    .retain(|(_, v)| system_valid_from(v) <= t && v.index.system_valid_to.is_none_or(|end| end > t));
                as_of_text = Some(format_rfc3339(t));
            }
            let total = versions.len();
            let mut results = Vec::new();
            for (n, v) in versions.iter().rev().take(MAX_HISTORY_VERSIONS) {
                results.push(version(cx, v, *n));
            }
            Ok(Versions {
                as_of: as_of_text,
                results,
                total,
                truncated: total > MAX_HISTORY_VERSIONS,
                head: None,
                diff: None,
                next_cursor: None,
            })
        }
    }
}
