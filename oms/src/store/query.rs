//! Structured queries (OMS §28.4 `query`): filters, temporal views, sort,
//! limit and an opaque cursor, answered with the §28.1 envelope.

use std::cmp::Ordering;
use std::sync::Arc;

use serde_json::{Value as Json, json};
use sha2::{Digest, Sha256};

use super::record::{GrainBody, Record};
use crate::address::{ContentAddress, hex, unhex};
use crate::error::{OmsError, Result};
use crate::grain::Grain;
use crate::mg::IndexState;
use crate::types::GrainType;
use crate::value::Value;

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

/// One condition; a query's filters are ANDed.
///
/// Field names are full grain field names, dotted paths into maps
/// (`context.model`), or the index-layer fields `verification_status`
/// (default `"unverified"`), `contradicted` (default `false`),
/// `consent_withdrawn` (default `false`; covered by a consent withdrawal),
/// `superseded_by`, `system_valid_to`, `access_count`, `last_accessed_at`.
/// A missing field satisfies no comparison, not even `!=`.
#[derive(Debug, Clone, PartialEq)]
pub enum Filter {
    /// `field op value`. Numbers compare numerically across int/float,
    /// strings bytewise; other kinds only compare for (in)equality.
    Cmp {
        /// Field name or path.
        field: String,
        /// Operator.
        op: CmpOp,
        /// Right-hand side.
        value: Value,
    },
    /// `field IN (values…)`.
    In {
        /// Field name or path.
        field: String,
        /// Accepted values.
        values: Vec<Value>,
    },
    /// Grain type (so `belief` also matches payloads named `fact`).
    Type(GrainType),
    /// `tags INCLUDE [...]`: every tag present.
    TagsInclude(Vec<String>),
    /// `tags EXCLUDE [...]`: none of the tags present.
    TagsExclude(Vec<String>),
    /// `hash = …`.
    Address(ContentAddress),
    /// `created_at` in `[from, to)` (either bound optional).
    CreatedBetween {
        /// Inclusive lower bound, epoch ms.
        from: Option<i64>,
        /// Exclusive upper bound, epoch ms.
        to: Option<i64>,
    },
    /// Valid-time query (§15.2): `valid_from <= t <= valid_to`, absent bounds open.
    ValidAt(i64),
    /// The field is present.
    Exists(String),
}

/// Which grains a query sees along system time (§15.2).
///
/// A grain covered by a consent withdrawal (§8.10) is in neither `Current`
/// nor `AsOf` — at any T: processing stops when consent is withdrawn, and a
/// question about the past is processing too. Only `All`, the audit view,
/// still holds it (grant, withdrawal and data are retained until erased).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum View {
    /// What the agent knows now: grains without `system_valid_to`, not
    /// superseded, not covered by a consent withdrawal.
    #[default]
    Current,
    /// What the agent knew at system time T (epoch ms), withdrawn grains left out.
    AsOf(i64),
    /// Everything, superseded, contradicted and withdrawn grains included.
    All,
}

/// A sort key; ties always end with content address ascending (CAL §17.4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SortKey {
    /// Field name or path (index-layer fields allowed).
    pub field: String,
    /// Descending order.
    pub descending: bool,
}

/// A structured query.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Query {
    /// Conditions, ANDed.
    pub filters: Vec<Filter>,
    /// Temporal view.
    pub view: View,
    /// Sort keys. Empty means `created_at` descending for `query` and score
    /// descending for `search`.
    pub sort: Vec<SortKey>,
    /// Page size; `None` returns everything.
    pub limit: Option<usize>,
    /// Cursor from a previous page of the same query.
    pub cursor: Option<String>,
}

/// One result of the §28.1 envelope.
#[derive(Debug, Clone)]
pub struct Hit {
    /// Content address.
    pub address: ContentAddress,
    /// The immutable grain: blob, envelope, decoded fields, signer.
    pub body: Arc<GrainBody>,
    /// Relevance in [0, 1] (1.0 for structured queries).
    pub score: f64,
    /// Fields that contributed to the match.
    pub matched_fields: Vec<String>,
    /// Index-layer state at query time.
    pub index: IndexState,
}

/// The §28.1 response envelope.
#[derive(Debug, Clone)]
pub struct ResultEnvelope {
    /// This page.
    pub results: Vec<Hit>,
    /// Matches before paging.
    pub total: usize,
    /// Cursor for the next page, if any.
    pub next_cursor: Option<String>,
}

impl Hit {
    /// The decoded grain.
    pub fn grain(&self) -> &Grain {
        self.body.grain()
    }
}

impl ResultEnvelope {
    /// The envelope as JSON, grains with full field names.
    pub fn to_json(&self) -> Json {
        json!({
            "results": self.results.iter().map(|h| json!({
                "grain": h.grain().to_json(),
                "score": h.score,
                "matched_fields": h.matched_fields,
                "content_address": h.address.to_hex(),
            })).collect::<Vec<_>>(),
            "total": self.total,
            "next_cursor": self.next_cursor,
        })
    }
}

/// Resolves a field of a record, index layer included.
pub(crate) fn field_value(r: &Record, field: &str) -> Option<Value> {
    match field {
        "verification_status" => {
            Some(Value::Str(r.state.verification_status.clone().unwrap_or_else(|| "unverified".into())))
        }
        "contradicted" => Some(Value::Bool(r.contradicted())),
        "consent_withdrawn" => Some(Value::Bool(r.withdrawn())),
        "superseded_by" => r.state.superseded_by.map(|a| Value::Str(a.to_hex())),
        "system_valid_to" => r.state.system_valid_to.map(Value::from),
        "access_count" => Some(Value::from(r.access_count.load(std::sync::atomic::Ordering::Relaxed))),
        "last_accessed_at" => r.snapshot().last_accessed_at.map(Value::from),
        "content_address" | "hash" => Some(Value::Str(r.address.to_hex())),
        _ => {
            if let Some(v) = r.body.grain().get(field) {
                return (!matches!(v, Value::Null)).then(|| v.clone());
            }
            let mut parts = field.split('.');
            let mut cur = r.body.grain().get(parts.next()?)?;
            for p in parts {
                cur = cur.as_map()?.get(p)?;
            }
            Some(cur.clone())
        }
    }
}

/// Orders two values of comparable kinds; `None` for incomparable kinds.
///
/// Public so that a query language over the store (CAL's ORDER BY and post-filters)
/// orders values exactly as the store's own filters and sorts do.
pub fn compare(a: &Value, b: &Value) -> Option<Ordering> {
    match (a, b) {
        (Value::Str(x), Value::Str(y)) => Some(x.as_bytes().cmp(y.as_bytes())),
        (Value::Bool(x), Value::Bool(y)) => Some(x.cmp(y)),
        (Value::Int(x), Value::Int(y)) => Some(x.cmp(y)),
        _ => match (a.as_f64(), b.as_f64()) {
            (Some(x), Some(y)) => x.partial_cmp(&y),
            _ => (a == b).then_some(Ordering::Equal),
        },
    }
}

fn has_tag(g: &Grain, tag: &str) -> bool {
    g.get("structural_tags").and_then(Value::as_array).is_some_and(|a| a.iter().any(|t| t.as_str() == Some(tag)))
}

impl Filter {
    /// Whether a record satisfies this condition.
    pub(crate) fn matches(&self, r: &Record) -> bool {
        match self {
            Filter::Cmp { field, op, value } => {
                let Some(v) = field_value(r, field) else { return false };
                match (op, compare(&v, value)) {
                    (CmpOp::Eq, o) => o == Some(Ordering::Equal),
                    (CmpOp::Ne, o) => o != Some(Ordering::Equal),
                    (CmpOp::Lt, Some(o)) => o == Ordering::Less,
                    (CmpOp::Le, Some(o)) => o != Ordering::Greater,
                    (CmpOp::Gt, Some(o)) => o == Ordering::Greater,
                    (CmpOp::Ge, Some(o)) => o != Ordering::Less,
                    (_, None) => false,
                }
            }
            Filter::In { field, values } => {
                field_value(r, field).is_some_and(|v| values.iter().any(|x| compare(&v, x) == Some(Ordering::Equal)))
            }
            Filter::Type(t) => r.ty == *t,
            Filter::TagsInclude(tags) => tags.iter().all(|t| has_tag(r.body.grain(), t)),
            Filter::TagsExclude(tags) => !tags.iter().any(|t| has_tag(r.body.grain(), t)),
            Filter::Address(a) => r.address == *a,
            Filter::CreatedBetween { from, to } => {
                let c = r.created_at();
                from.is_none_or(|f| c >= f) && to.is_none_or(|t| c < t)
            }
            Filter::ValidAt(t) => {
                let from = r.body.grain().get("valid_from").and_then(Value::as_i64);
                let to = r.body.grain().get("valid_to").and_then(Value::as_i64);
                from.is_none_or(|f| f <= *t) && to.is_none_or(|v| *t <= v)
            }
            Filter::Exists(field) => field_value(r, field).is_some(),
        }
    }

    /// The field this condition is about, for `matched_fields`.
    pub(crate) fn field_name(&self) -> Option<&str> {
        match self {
            Filter::Cmp { field, .. } | Filter::In { field, .. } | Filter::Exists(field) => Some(field),
            Filter::Type(_) => Some("type"),
            Filter::TagsInclude(_) | Filter::TagsExclude(_) => Some("structural_tags"),
            Filter::Address(_) => None,
            Filter::CreatedBetween { .. } => Some("created_at"),
            Filter::ValidAt(_) => Some("valid_from"),
        }
    }
}

impl View {
    /// Whether a record is visible in this view.
    pub(crate) fn admits(&self, r: &Record) -> bool {
        match self {
            View::Current => r.state.system_valid_to.is_none() && r.state.superseded_by.is_none() && !r.withdrawn(),
            View::AsOf(t) => {
                r.system_valid_from() <= *t && r.state.system_valid_to.is_none_or(|end| end > *t) && !r.withdrawn()
            }
            View::All => true,
        }
    }
}

/// Sorts records by the keys, missing values last, then address ascending,
/// and keeps the first `keep` (all when `None`). Sort keys are extracted once
/// per record, and when only a page is wanted the page is selected in linear
/// time before sorting it.
pub(crate) fn sort_records<'a>(
    items: Vec<(&'a Record, f64)>,
    keys: &[SortKey],
    by_score: bool,
    keep: Option<usize>,
) -> Vec<(&'a Record, f64)> {
    if !by_score && keys.len() == 1 && keys[0].field == "created_at" {
        return sort_by_created(items, keys[0].descending, keep);
    }
    if !by_score && keys.len() == 1 && matches!(keys[0].field.as_str(), "content_address" | "hash") {
        return sort_by_address(items, keys[0].descending, keep);
    }
    let mut keyed: Vec<(Vec<Option<Value>>, &'a Record, f64)> =
        items.into_iter().map(|(r, s)| (keys.iter().map(|k| sort_value(r, &k.field)).collect(), r, s)).collect();
    let cmp = |(ka, a, sa): &(Vec<Option<Value>>, &Record, f64), (kb, b, sb): &(Vec<Option<Value>>, &Record, f64)| {
        if by_score
            && let Some(o) = sb.partial_cmp(sa)
            && o != Ordering::Equal
        {
            return o;
        }
        for ((va, vb), k) in ka.iter().zip(kb).zip(keys) {
            let o = match (va, vb) {
                (Some(x), Some(y)) => {
                    let o = compare(x, y).unwrap_or_else(|| x.kind().cmp(y.kind()));
                    if k.descending { o.reverse() } else { o }
                }
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (None, None) => Ordering::Equal,
            };
            if o != Ordering::Equal {
                return o;
            }
        }
        a.address.cmp(&b.address)
    };
    top_sorted(&mut keyed, keep, cmp);
    keyed.into_iter().map(|(_, r, s)| (r, s)).collect()
}

/// Recency order without extracting values: the cached `created_at`,
/// missing last, then address ascending.
fn sort_by_created(mut items: Vec<(&Record, f64)>, descending: bool, keep: Option<usize>) -> Vec<(&Record, f64)> {
    let cmp = |(a, _): &(&Record, f64), (b, _): &(&Record, f64)| {
        let o = match (a.created, b.created) {
            (Some(x), Some(y)) => {
                if descending {
                    y.cmp(&x)
                } else {
                    x.cmp(&y)
                }
            }
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        };
        o.then_with(|| a.address.cmp(&b.address))
    };
    top_sorted(&mut items, keep, cmp);
    items
}

/// Address order (CAL §17.4's order of equal scores) without formatting any
/// address as hex: hex order is byte order.
fn sort_by_address(mut items: Vec<(&Record, f64)>, descending: bool, keep: Option<usize>) -> Vec<(&Record, f64)> {
    let cmp = |(a, _): &(&Record, f64), (b, _): &(&Record, f64)| {
        if descending { b.address.cmp(&a.address) } else { a.address.cmp(&b.address) }
    };
    top_sorted(&mut items, keep, cmp);
    items
}

/// Sorts `items` by `cmp`, keeping only the first `keep` when given: a partial selection
/// first, so a LIMIT over a large candidate set does not sort what it will drop.
fn top_sorted<T>(items: &mut Vec<T>, keep: Option<usize>, cmp: impl Fn(&T, &T) -> Ordering + Copy) {
    if let Some(k) = keep {
        if k == 0 {
            items.clear();
        } else if k < items.len() {
            items.select_nth_unstable_by(k - 1, cmp);
            items.truncate(k);
        }
    }
    items.sort_unstable_by(cmp);
}

/// A sort key value; `created_at` is read without cloning the field map entry.
fn sort_value(r: &Record, field: &str) -> Option<Value> {
    match field {
        "created_at" => r.created.map(Value::from),
        _ => field_value(r, field),
    }
}

/// A fingerprint of the query shape, so a cursor cannot be replayed against
/// a different query.
pub(crate) fn fingerprint(q: &Query, text: Option<&str>) -> [u8; 8] {
    let d = Sha256::digest(format!("{:?}|{:?}|{:?}|{:?}|{text:?}", q.filters, q.view, q.sort, q.limit));
    let mut out = [0u8; 8];
    out.copy_from_slice(&d[..8]);
    out
}

/// Encodes an offset and a fingerprint as an opaque cursor.
pub(crate) fn encode_cursor(offset: usize, fp: [u8; 8]) -> String {
    let mut b = (offset as u64).to_be_bytes().to_vec();
    b.extend_from_slice(&fp);
    format!("c1{}", hex(&b))
}

/// Decodes a cursor for this query (`ERR_SCHEMA` if foreign or malformed).
pub(crate) fn decode_cursor(cursor: &str, fp: [u8; 8]) -> Result<usize> {
    let bad = || OmsError::schema("cursor", "not a cursor of this query");
    let b = cursor.strip_prefix("c1").and_then(unhex).filter(|b| b.len() == 16).ok_or_else(bad)?;
    if b[8..] != fp {
        return Err(bad());
    }
    let mut off = [0u8; 8];
    off.copy_from_slice(&b[..8]);
    usize::try_from(u64::from_be_bytes(off)).map_err(|_| bad())
}
