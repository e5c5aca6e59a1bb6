//! How a structured query finds its candidates (issue 20): from the posting lists its
//! equality filters name, intersected starting with the shortest; from an ordered index
//! when a numeric range or a time range is narrower than any list. (A query ordered by
//! time or by a numeric field under a limit is first offered to `walk.rs`, which reads an
//! ordered index in the query's order and stops after the page.)
//!
//! Every path yields a superset of the matches (the caller applies the view and every
//! filter to each candidate), so answers are the same grains in the same order whichever
//! path is taken; `tests/store_scale.rs` compares them with the full scan.

use std::borrow::Cow;
use std::ops::Bound;

use super::Inner;
use super::indexes::{EQUALITY_INDEXED, Id, Key, Pair};
use super::ordered::{NUMERIC, ord_key};
use super::query::{CmpOp, Filter};
use super::read::eq_str;
use crate::error::Result;
use crate::interrupt::Ticker;
use crate::value::Value;

/// Where a query's candidates come from.
pub(crate) enum Candidates<'a> {
    /// These ids (ascending unless they came from an ordered index).
    Ids(Cow<'a, [Id]>),
    /// Every record: no filter narrows the store.
    All,
}

/// Whether `id` is in the sorted list `l` at or after `*from`, advancing `*from` past what
/// was searched (successive probes are ascending, so each list is read forward once).
///
/// The search gallops: it doubles its step from `*from` until it passes `id`, then
/// bisects the last step. Successive ids of a short list land a short way apart in a long
/// one, so each probe reads a few neighbouring cache lines, where bisecting the whole rest
/// of the list would start far away every time (issue 20: user_id + relation at 1M).
fn probe(l: &[Id], from: &mut usize, id: Id) -> bool {
    let rest = &l[*from..];
    let mut end = 1;
    while end < rest.len() && rest[end - 1] < id {
        end *= 2;
    }
    let start = end / 2;
    match rest[start..end.min(rest.len())].binary_search(&id) {
        Ok(i) => {
            *from += start + i + 1;
            true
        }
        Err(i) => {
            *from += start + i;
            false
        }
    }
}

/// The ids in every list (each sorted ascending), starting from the shortest; the
/// deadline (`oms::interrupt`) is looked at as the shortest list is read.
fn intersect<'a>(mut lists: Vec<&'a [Id]>) -> Result<Cow<'a, [Id]>> {
    lists.sort_by_key(|l| l.len());
    let Some((first, rest)) = lists.split_first() else { return Ok(Cow::Borrowed(&[])) };
    if rest.is_empty() {
        return Ok(Cow::Borrowed(first));
    }
    let mut ticker = Ticker::default();
    let mut acc: Vec<Id> = first.to_vec();
    for l in rest {
        let mut from = 0;
        let mut kept = Vec::with_capacity(acc.len());
        for id in acc {
            ticker.tick()?;
            if probe(l, &mut from, id) {
                kept.push(id);
            }
        }
        acc = kept;
        if acc.is_empty() {
            break;
        }
    }
    Ok(Cow::Owned(acc))
}

/// The key range a numeric comparison with `value` allows, if the value is a number, and
/// whether that range is exactly the comparison's matches.
///
/// A float on the right makes `compare` compare in `f64` whatever the field holds, which is
/// the keys' order, so the range is exact. An integer is compared with an integer field as
/// integers, which `as f64` may round: the range is then widened to include the value at
/// both ends and the filter checks each candidate itself.
pub(crate) fn numeric_bounds(op: CmpOp, value: &Value) -> Option<(Bound<u64>, Bound<u64>, bool)> {
    let k = ord_key(value.as_f64()?);
    let exact = matches!(value, Value::Float(_));
    let open = |k| if exact { Bound::Excluded(k) } else { Bound::Included(k) };
    Some(match op {
        CmpOp::Eq => (Bound::Included(k), Bound::Included(k), exact),
        CmpOp::Ge => (Bound::Included(k), Bound::Unbounded, exact),
        CmpOp::Gt => (open(k), Bound::Unbounded, exact),
        CmpOp::Le => (Bound::Unbounded, Bound::Included(k), exact),
        CmpOp::Lt => (Bound::Unbounded, open(k), exact),
        CmpOp::Ne => return None,
    })
}

/// The candidates of a filter list: a superset of the records that pass every filter; and
/// which filters the candidates pass by construction (a posting list holds exactly the
/// grains whose field equals its key), so that they need not be checked on each.
pub(crate) fn candidates<'a>(inner: &'a Inner, filters: &[Filter]) -> Result<(Candidates<'a>, Vec<bool>)> {
    let idx = &inner.idx;
    let mut exact = vec![false; filters.len()];
    if let Some(a) = filters.iter().find_map(|f| match f {
        Filter::Address(a) => Some(a),
        _ => None,
    }) {
        return Ok((Candidates::Ids(Cow::Owned(inner.id_of(a).into_iter().collect())), exact));
    }
    let mut lists: Vec<&'a [Id]> = Vec::new();
    let (s, p, o) = (eq_str(filters, "subject"), eq_str(filters, "relation"), eq_str(filters, "object"));
    if let (Some(s), Some(p)) = (s, p) {
        lists.push(idx.pair(Pair::SubjectRelation, s, p));
    }
    if let (Some(p), Some(o)) = (p, o) {
        lists.push(idx.pair(Pair::RelationObject, p, o));
    }
    if let (Some(s), Some(o)) = (s, o) {
        lists.push(idx.pair(Pair::SubjectObject, s, o));
    }
    let mut type_byte = None;
    let mut type_list = None;
    for (f, exact) in filters.iter().zip(exact.iter_mut()) {
        match f {
            Filter::Cmp { field, op: CmpOp::Eq, value: Value::Str(v) } => {
                if let Some((_, key)) = EQUALITY_INDEXED.iter().find(|(name, _)| name == field) {
                    lists.push(idx.postings(*key, v));
                    *exact = true;
                }
            }
            Filter::Type(t) => {
                type_byte = Some(t.byte());
                type_list = Some(lists.len());
                lists.push(idx.of_type(t.byte()));
                *exact = true;
            }
            Filter::TagsInclude(tags) => {
                lists.extend(tags.iter().map(|t| idx.postings(Key::Tag, t)));
                *exact = true;
            }
            _ => {}
        }
    }
    let shortest = lists.iter().map(|l| l.len()).min();
    if shortest == Some(0) {
        return Ok((Candidates::Ids(Cow::Borrowed(&[])), exact));
    }
    // An ordered index is worth reading only while its range stays shorter than the
    // shortest list; it is then probed against the lists.
    let cap = shortest.unwrap_or(usize::MAX);
    let mut ranged: Option<Vec<Id>> = None;
    // The filter whose range was taken, if that range is exactly its matches.
    let mut ranged_exact: Option<usize> = None;
    for (i, f) in filters.iter().enumerate() {
        let mut exact_here = false;
        let found = match f {
            Filter::Cmp { field, op, value } if NUMERIC.contains(&field.as_str()) => numeric_bounds(*op, value)
                .and_then(|(lo, hi, exact)| {
                    exact_here = exact;
                    idx.ordered.numeric_range(field, lo, hi, ranged.as_ref().map_or(cap, Vec::len))
                }),
            Filter::CreatedBetween { from, to } => match type_byte {
                // Inside one namespace the (type, namespace) index is read: an unknown
                // namespace has no grain, and then its empty set is the answer.
                Some(t) if idx.ordered.undated == 0 => match eq_str(filters, "namespace").map(|ns| idx.symbol(ns)) {
                    Some(None) => Some(Vec::new()),
                    ns => {
                        idx.ordered.type_time_range(t, ns.flatten(), *from, *to, ranged.as_ref().map_or(cap, Vec::len))
                    }
                },
                _ => created_range(inner, *from, *to, ranged.as_ref().map_or(cap, Vec::len)),
            },
            _ => None,
        };
        if let Some(ids) = found {
            ranged = Some(ids);
            ranged_exact = exact_here.then_some(i);
        }
    }
    if let Some(i) = ranged_exact {
        exact[i] = true;
    }
    // The type of a candidate is on its record, which the caller reads anyway: when another
    // list or a range is shorter, checking it there costs less than searching the type's
    // (long) posting list for each id.
    let type_is_longer = type_list.is_some_and(|t| ranged.is_some() || lists.iter().any(|l| l.len() < lists[t].len()));
    if let Some(t) = type_list.filter(|_| type_is_longer) {
        lists.remove(t);
        for (f, exact) in filters.iter().zip(exact.iter_mut()) {
            if matches!(f, Filter::Type(_)) {
                *exact = false;
            }
        }
    }
    if let Some(mut ids) = ranged {
        ids.sort_unstable();
        let mut out = Vec::with_capacity(ids.len());
        let mut cursors = vec![0usize; lists.len()];
        let mut ticker = Ticker::default();
        for id in ids {
            ticker.tick()?;
            if lists.iter().zip(cursors.iter_mut()).all(|(l, from)| probe(l, from, id)) {
                out.push(id);
            }
        }
        return Ok((Candidates::Ids(Cow::Owned(out)), exact));
    }
    Ok((if lists.is_empty() { Candidates::All } else { Candidates::Ids(intersect(lists)?) }, exact))
}

/// Ids created in `[from, to)` from the global time index, or `None` once more than `cap`.
fn created_range(inner: &Inner, from: Option<i64>, to: Option<i64>, cap: usize) -> Option<Vec<Id>> {
    let mut out = Vec::new();
    for (c, id) in inner.idx.created.range((from.unwrap_or(i64::MIN), 0)..) {
        if to.is_some_and(|t| *c >= t) {
            break;
        }
        if out.len() == cap {
            return None;
        }
        out.push(*id);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Galloping finds what bisection finds, at every distance and past either end.
    #[test]
    fn probes_agree_with_a_plain_search() {
        let list: Vec<Id> = (0..500).map(|i| i * 3 + (i % 3)).collect();
        for step in [1, 2, 5, 40, 333] {
            let mut from = 0;
            for id in (0..1700).step_by(step) {
                let found = probe(&list, &mut from, id);
                assert_eq!(found, list.binary_search(&id).is_ok(), "{id}");
                assert_eq!(from, list.partition_point(|x| *x <= id), "{id}");
            }
        }
        assert!(!probe(&[], &mut 0, 3));
    }
}
