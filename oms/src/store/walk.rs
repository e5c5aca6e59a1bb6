//! Top-k through the ordered indexes (issue 20). A structured query ordered by time
//! (RECENT n, `ORDER BY created_at`, the default order) or by a numeric field
//! (`confidence`, `importance`, `priority`) under a limit is answered by reading the
//! matching ordered index (`ordered.rs`) in the query's order, checking each grain against
//! the view and the filters the index does not answer, and stopping once `offset + limit`
//! grains pass and the ties of the last one (same key) are in: the work is the page and
//! the grains skipped to find it, not every match.
//!
//! - Time: the (type, namespace) index when the query names one type and one namespace
//!   (or a few, `namespace IN (…)`, merged), else the type's index, else the index of every
//!   grain; SINCE / BETWEEN (`created_at` in `[from, to)`) bound the part read. Used only
//!   while every grain has `created_at` (recency order puts the others last).
//! - Value: the field's value index, bounded by a comparison on that field. Used only while
//!   no grain holds a non-number there (it would sort among the numbers by kind).
//!
//! The walk reads whole runs of equal keys; of the run the page ends in it keeps the grains
//! with the first addresses (the query's order breaks ties by address, and equal keys are
//! equal values), and the caller sorts what it returns with the query's own comparator, so
//! the page is the one the full sort gives.
//! The total is counted apart, from index sizes when the index answers every filter, else
//! from the candidate lists (`plan.rs`), never by sorting. A walk expected to read more
//! entries than the shortest candidate list of its filters is not started, and one that
//! reads twice that list gives up, leaving the query to `plan.rs`, so no query costs much
//! more than it did without walks; `tests/store_scale.rs` compares every path with the
//! full scan.

use std::collections::BTreeSet;
use std::ops::Bound;

use super::Inner;
use super::indexes::{EQUALITY_INDEXED, Id, Key};
use super::ordered::{IdRange, NUMERIC, id_bounds};
use super::plan::{self, Candidates, numeric_bounds};
use super::query::{CmpOp, Filter, Query, SortKey, View};
use super::record::Record;
use crate::error::Result;
use crate::interrupt::Ticker;
use crate::value::Value;

/// A page found by a walk, with the query's exact total.
pub(crate) struct Walked<'a> {
    /// The first `offset + limit` matches in the query's order (fewer if there are fewer),
    /// unsorted; every one passes the view and the filters.
    pub(crate) records: Vec<&'a Record>,
    /// Matches before paging.
    pub(crate) total: usize,
}

/// The most namespaces of a `namespace IN (…)` whose time indexes a walk merges.
const MAX_NAMESPACES: usize = 16;

/// A key range of an ordered set.
type Range<K> = IdRange<K>;

/// One ordered set read in the query's order, its next entry in view.
type Cursor<'s, K> = std::iter::Peekable<Box<dyn Iterator<Item = &'s (K, Id)> + 's>>;

/// What a walk reads: the same key range of one or more ordered sets.
struct Source<'a, K> {
    sets: Vec<&'a BTreeSet<(K, Id)>>,
    /// `None`: the range holds no key (a reversed BETWEEN), so nothing matches.
    range: Option<Range<K>>,
    /// `exact[i]`: every id in the range passes filter `i`, and every record that passes
    /// it (and the others marked so) is in the range.
    exact: Vec<bool>,
    /// Every match is in the range (only the unmarked filters and the view remain to check).
    complete: bool,
}

/// The page of `q` from an ordered index, or `None` when the query is not of a shape a
/// walk answers (or the walk would cost more than the candidate lists).
pub(crate) fn ordered_page<'a>(inner: &'a Inner, q: &Query, offset: usize) -> Result<Option<Walked<'a>>> {
    let Some(limit) = q.limit else { return Ok(None) };
    let need = offset.saturating_add(limit);
    let (field, descending) = match q.sort.as_slice() {
        [] => ("created_at", true),
        [SortKey { field, descending }] => (field.as_str(), *descending),
        _ => return Ok(None),
    };
    if field == "created_at" {
        match by_time(inner, q) {
            Some(s) => walk(inner, q, &s, descending, need),
            None => Ok(None),
        }
    } else if let Some(i) = NUMERIC.iter().position(|f| *f == field) {
        match by_value(inner, q, i) {
            Some(s) => walk(inner, q, &s, descending, need),
            None => Ok(None),
        }
    } else {
        Ok(None)
    }
}

/// The namespaces a query is confined to by one `namespace = "…"` or a short
/// `namespace IN ("…", …)`, marking that filter exact.
fn namespaces<'q>(q: &'q Query, exact: &mut [bool]) -> Option<Vec<&'q str>> {
    let is_ns = |f: &Filter| match f {
        Filter::Cmp { field, op: CmpOp::Eq, value: Value::Str(_) } => field == "namespace",
        Filter::In { field, values } => {
            field == "namespace" && values.len() <= MAX_NAMESPACES && values.iter().all(|v| v.as_str().is_some())
        }
        _ => false,
    };
    let i = q.filters.iter().position(is_ns)?;
    exact[i] = true;
    match &q.filters[i] {
        Filter::Cmp { value, .. } => value.as_str().map(|s| vec![s]),
        Filter::In { values, .. } => {
            let mut names: Vec<&str> = values.iter().filter_map(Value::as_str).collect();
            names.sort_unstable();
            names.dedup();
            Some(names)
        }
        _ => None,
    }
}

/// The time index a query ordered by `created_at` reads.
fn by_time<'a>(inner: &'a Inner, q: &Query) -> Option<Source<'a, i64>> {
    let o = &inner.idx.ordered;
    if o.undated != 0 {
        return None;
    }
    let mut exact = vec![false; q.filters.len()];
    let mut ty = None;
    for (i, f) in q.filters.iter().enumerate() {
        if let Filter::Type(t) = f {
            if ty.is_some_and(|x| x != *t) {
                return None;
            }
            ty = Some(*t);
            exact[i] = true;
        }
    }
    let mut sets = Vec::new();
    match ty {
        None => sets.push(&inner.idx.created),
        Some(t) => match namespaces(q, &mut exact) {
            Some(names) => sets.extend(
                names
                    .into_iter()
                    .filter_map(|ns| inner.idx.symbol(ns))
                    .filter_map(|s| o.of_type_ns_by_time(t.byte(), s)),
            ),
            None => sets.extend(o.of_type_by_time(t.byte())),
        },
    }
    let (mut from, mut to): (Option<i64>, Option<i64>) = (None, None);
    for (i, f) in q.filters.iter().enumerate() {
        if let Filter::CreatedBetween { from: a, to: b } = f {
            from = from.max(*a);
            to = match (to, *b) {
                (Some(x), Some(y)) => Some(x.min(y)),
                (x, y) => x.or(y),
            };
            exact[i] = true;
        }
    }
    let range = id_bounds(from.map_or(Bound::Unbounded, Bound::Included), to.map_or(Bound::Unbounded, Bound::Excluded));
    Some(Source { sets, range, exact, complete: true })
}

/// The value index a query ordered by `NUMERIC[i]` reads.
fn by_value<'a>(inner: &'a Inner, q: &Query, i: usize) -> Option<Source<'a, u64>> {
    let o = &inner.idx.ordered;
    if o.odd[i] != 0 {
        return None;
    }
    let field = NUMERIC[i];
    let mut exact = vec![false; q.filters.len()];
    let mut bounds = None;
    // A filter on the field itself holds only grains that have it: those are all in the
    // index, so the walk sees every match; without one, grains lacking the field (sorted
    // last) may still be wanted after the index runs out.
    let mut complete = false;
    for (j, f) in q.filters.iter().enumerate() {
        match f {
            Filter::Cmp { field: name, op, value } if name == field => {
                complete = true;
                if bounds.is_none()
                    && let Some((lo, hi, ex)) = numeric_bounds(*op, value)
                {
                    bounds = Some((lo, hi));
                    exact[j] = ex;
                }
            }
            Filter::In { field: name, .. } | Filter::Exists(name) if name == field => complete = true,
            _ => {}
        }
    }
    let (lo, hi) = bounds.unwrap_or((Bound::Unbounded, Bound::Unbounded));
    Some(Source { sets: vec![o.by_value(i)], range: id_bounds(lo, hi), exact, complete })
}

/// Whether a record passes the filters a source does not answer.
fn passes(q: &Query, exact: &[bool], r: &Record) -> bool {
    q.filters.iter().zip(exact).all(|(f, e)| *e || f.matches(r))
}

/// The length of the shortest posting list (or numeric range) among the filters a source
/// does not answer: what the candidate lists of `plan.rs` would read instead of the walk
/// (`usize::MAX` when there is none).
fn shortest_list(inner: &Inner, q: &Query, exact: &[bool]) -> usize {
    let idx = &inner.idx;
    let mut best = usize::MAX;
    for (f, e) in q.filters.iter().zip(exact) {
        if *e {
            continue;
        }
        let n = match f {
            Filter::Cmp { field, op: CmpOp::Eq, value: Value::Str(v) } => {
                EQUALITY_INDEXED.iter().find(|(name, _)| name == field).map(|(_, k)| idx.postings(*k, v).len())
            }
            Filter::Cmp { field, op, value } if NUMERIC.contains(&field.as_str()) => numeric_bounds(*op, value)
                .and_then(|(lo, hi, _)| idx.ordered.numeric_range(field, lo, hi, best))
                .map(|ids| ids.len()),
            Filter::Type(t) => Some(idx.of_type(t.byte()).len()),
            Filter::TagsInclude(tags) => tags.iter().map(|t| idx.postings(Key::Tag, t).len()).min(),
            Filter::Address(_) => Some(1),
            _ => None,
        };
        if let Some(n) = n {
            best = best.min(n);
        }
    }
    best
}

/// Reads the source in order until `need` records pass and the run of the last one's key
/// ends; then counts the total. `None` when over budget, or when the source ran out before
/// the page was found and matches outside it remain.
fn walk<'a, K: Ord + Copy>(
    inner: &'a Inner,
    q: &Query,
    s: &Source<'_, K>,
    descending: bool,
    need: usize,
) -> Result<Option<Walked<'a>>> {
    let Some(range) = s.range else {
        return Ok(s.complete.then(|| Walked { records: Vec::new(), total: 0 }));
    };
    // A walk is worth it while the entries it expects to read to fill the page (matches
    // spread evenly among `size` entries, `shortest` of which at most can match) stay fewer
    // than the shortest candidate list; it gives up after twice that list in any case.
    let shortest = shortest_list(inner, q, &s.exact);
    let size: usize = s.sets.iter().map(|set| set.len()).sum();
    if shortest != usize::MAX && need.saturating_add(1).saturating_mul(size) / shortest.max(1) > shortest {
        return Ok(None);
    }
    let budget = shortest.saturating_mul(2).saturating_add(64);
    let mut iters: Vec<Cursor<'_, K>> = s
        .sets
        .iter()
        .map(|set| {
            let r = set.range(range);
            let it: Box<dyn Iterator<Item = &(K, Id)>> = if descending { Box::new(r.rev()) } else { Box::new(r) };
            it.peekable()
        })
        .collect();
    let mut ticker = Ticker::default();
    let mut records: Vec<&Record> = Vec::new();
    let mut last: Option<K> = None;
    // Where the run of the last key starts in `records`.
    let mut run_start = 0;
    let mut read = 0usize;
    let exhausted = loop {
        ticker.tick()?;
        // The next entry in the query's order among the sets' heads.
        let mut best: Option<(usize, K)> = None;
        for (j, it) in iters.iter_mut().enumerate() {
            if let Some(&&(k, _)) = it.peek()
                && best.is_none_or(|(_, b)| if descending { k > b } else { k < b })
            {
                best = Some((j, k));
            }
        }
        let Some((j, key)) = best else { break true };
        if records.len() >= need && last != Some(key) {
            break false;
        }
        read += 1;
        if read > budget {
            return Ok(None);
        }
        let Some(&(_, id)) = iters[j].next() else { break true };
        let Some(r) = inner.record(id) else { continue };
        if q.view.admits(r) && passes(q, &s.exact, r) {
            if last != Some(key) {
                run_start = records.len();
            }
            records.push(r);
            last = Some(key);
        }
    };
    let total_found = records.len();
    // The page ends inside the last run: equal keys are equal values (`Ordered::odd`), which
    // the query's order breaks by address, so only the run's first addresses are wanted.
    let wanted = need.saturating_sub(run_start);
    if records.len() - run_start > wanted {
        let run = &mut records[run_start..];
        if wanted > 0 {
            run.select_nth_unstable_by_key(wanted - 1, |r| r.address);
        }
        records.truncate(run_start + wanted);
    }
    if exhausted && s.complete {
        return Ok(Some(Walked { records, total: total_found }));
    }
    let total = count(inner, q, s, range)?;
    if exhausted && total != total_found {
        return Ok(None);
    }
    Ok(Some(Walked { records, total }))
}

/// A filter that every record whose index state never changed passes (so only the
/// flagged records need to be checked against it): how the audit view leaves out grains
/// covered by a consent withdrawal, and the contradicted view's opposite.
fn flag_only(f: &Filter) -> bool {
    matches!(f, Filter::Cmp { field, op: CmpOp::Eq, value: Value::Bool(false) }
        if field == "consent_withdrawn" || field == "contradicted")
}

/// Among the flagged records (a superset of those a view or a flag-only filter can
/// exclude), how many `inside` holds that the view or a flag-only filter excludes.
fn hidden(inner: &Inner, q: &Query, inside: impl Fn(Id, &Record) -> bool) -> usize {
    inner
        .flagged
        .iter()
        .filter_map(|id| inner.record(*id).map(|r| (*id, r)))
        // The view and the flag-only filters read the index state; `inside` may decode.
        .filter(|(_, r)| !(q.view.admits(r) && q.filters.iter().filter(|f| flag_only(f)).all(|f| f.matches(r))))
        .filter(|(id, r)| inside(*id, r))
        .count()
}

/// The number of matches of `q`: the source's size when it holds every match and answers
/// every filter (less the flagged records hidden), else through the candidate lists.
fn count<K: Ord + Copy>(inner: &Inner, q: &Query, s: &Source<'_, K>, range: Range<K>) -> Result<usize> {
    let as_of = matches!(q.view, View::AsOf(_));
    if s.complete && !as_of && q.filters.iter().zip(&s.exact).all(|(f, e)| *e || flag_only(f)) {
        let mut ticker = Ticker::default();
        let mut n = 0usize;
        for set in &s.sets {
            if matches!(range, (Bound::Unbounded, Bound::Unbounded)) {
                n += set.len();
            } else {
                for _ in set.range(range) {
                    ticker.tick()?;
                    n += 1;
                }
            }
        }
        let exact_filters = |r: &Record| q.filters.iter().zip(&s.exact).all(|(f, e)| !*e || f.matches(r));
        return Ok(n.saturating_sub(hidden(inner, q, |_, r| exact_filters(r))));
    }
    count_candidates(inner, q)
}

/// The number of matches of `q` from its candidates (`plan.rs`): the list's length when
/// it answers every filter, else each candidate checked.
fn count_candidates(inner: &Inner, q: &Query) -> Result<usize> {
    let (cands, exact) = plan::candidates(inner, &q.filters)?;
    let whole = !matches!(q.view, View::AsOf(_)) && q.filters.iter().zip(&exact).all(|(f, e)| *e || flag_only(f));
    let exact_filters = |r: &Record| q.filters.iter().zip(&exact).all(|(f, e)| !*e || f.matches(r));
    match cands {
        Candidates::Ids(ids) if whole => {
            Ok(ids.len().saturating_sub(hidden(inner, q, |id, r| ids.binary_search(&id).is_ok() && exact_filters(r))))
        }
        Candidates::All if whole => Ok(inner.live.saturating_sub(hidden(inner, q, |_, _| true))),
        Candidates::Ids(ids) => count_each(q, &exact, ids.iter().filter_map(|id| inner.record(*id))),
        Candidates::All => count_each(q, &exact, inner.records.iter().flatten()),
    }
}

/// The candidates that pass the view and the filters not marked exact.
fn count_each<'a>(q: &Query, exact: &[bool], records: impl Iterator<Item = &'a Record>) -> Result<usize> {
    let mut ticker = Ticker::default();
    let mut n = 0;
    for r in records {
        ticker.tick()?;
        n += usize::from(q.view.admits(r) && passes(q, exact, r));
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Store, StoreConfig};
    use crate::types::GrainType;
    use serde_json::json;

    const NOW: i64 = 1_772_798_400_000;

    /// Twelve beliefs in three namespaces, one day apart, with confidences 0.0–0.9 and ties.
    fn store() -> Store {
        let store = Store::new(StoreConfig::fixed_clock(NOW));
        for i in 0..12i64 {
            let g = json!({ "type": "belief", "subject": format!("s{i}"), "relation": "knows", "object": "x",
                "confidence": (i % 5) as f64 / 10.0, "created_at": NOW - i * 86_400_000,
                "namespace": format!("ns-{}", i % 3) });
            let blob = crate::grain::Grain::from_json(&g).and_then(|g| g.encode()).expect("encodes").bytes;
            store.put(&blob).expect("put");
        }
        store
    }

    fn eq(field: &str, v: &str) -> Filter {
        Filter::Cmp { field: field.into(), op: CmpOp::Eq, value: Value::Str(v.into()) }
    }

    fn query(filters: Vec<Filter>, sort: Option<(&str, bool)>, limit: usize) -> Query {
        let sort = sort.map(|(f, d)| vec![SortKey { field: f.into(), descending: d }]).unwrap_or_default();
        Query { filters, sort, limit: Some(limit), ..Query::default() }
    }

    /// The walk answers these shapes itself (the differential tests show it answers them as
    /// the scan does; this shows they do not fall through to the candidate lists).
    #[test]
    fn the_shapes_of_issue_20_are_walked() {
        let s = store();
        let inner = s.read();
        let belief = Filter::Type(GrainType::Belief);
        let since = Filter::CreatedBetween { from: Some(NOW - 5 * 86_400_000), to: None };
        let at_least = Filter::Cmp { field: "confidence".into(), op: CmpOp::Ge, value: Value::Float(0.2) };
        let cases = [
            (query(vec![belief.clone(), eq("namespace", "ns-1")], None, 2), 4),
            (query(vec![belief.clone(), eq("namespace", "ns-1"), since], Some(("created_at", false)), 1), 2),
            (query(vec![belief.clone()], Some(("confidence", true)), 3), 12),
            (query(vec![belief.clone(), at_least], Some(("confidence", false)), 1), 6),
            (query(vec![eq("namespace", "nowhere"), belief], None, 5), 0),
        ];
        for (q, total) in cases {
            let walked = ordered_page(&inner, &q, 0).expect("no deadline").unwrap_or_else(|| panic!("{q:?}"));
            assert_eq!(walked.total, total, "{q:?}");
            assert!(walked.records.len() >= q.limit.unwrap_or(0).min(total), "{q:?}");
        }
    }

    /// The page ends inside a run of ties: the top confidence, 0.4, is held by two grains,
    /// and a page of one keeps the one with the first address, as the full sort does.
    #[test]
    fn a_run_of_ties_is_cut_at_the_first_addresses() {
        let s = store();
        let q = query(vec![Filter::Type(GrainType::Belief)], Some(("confidence", true)), 1);
        let scanned = s.query_by_scan(&Query { limit: Some(2), ..q.clone() }).expect("scan");
        let inner = s.read();
        let walked = ordered_page(&inner, &q, 0).expect("no deadline").expect("walked");
        assert_eq!(walked.records.iter().map(|r| r.address).collect::<Vec<_>>(), [scanned.results[0].address]);
        assert!(scanned.results[0].address < scanned.results[1].address);
        assert_eq!(scanned.results[1].grain().get("confidence"), Some(&Value::Float(0.4)));
    }

    /// A walk, a count and an intersection give up once the thread's deadline has passed.
    #[test]
    fn a_passed_deadline_interrupts_walks_and_intersections() {
        let s = Store::new(StoreConfig::fixed_clock(NOW));
        for i in 0..2_100i64 {
            let g = json!({ "type": "belief", "subject": format!("s{i}"), "relation": "knows", "object": "x",
                "confidence": (i % 10) as f64 / 10.0, "created_at": NOW - i, "namespace": "ns" });
            let blob = crate::grain::Grain::from_json(&g).and_then(|g| g.encode()).expect("encodes").bytes;
            s.put(&blob).expect("put");
        }
        let walked = query(vec![Filter::Type(GrainType::Belief)], Some(("confidence", true)), 2_000);
        let listed = Query {
            sort: vec![SortKey { field: "content_address".into(), descending: false }],
            ..query(vec![eq("relation", "knows"), eq("namespace", "ns")], None, 10)
        };
        for q in [walked, listed] {
            assert!(s.query(&q).is_ok(), "{q:?}");
            let _deadline = crate::interrupt::within(std::time::Instant::now() - std::time::Duration::from_millis(1));
            assert!(matches!(s.query(&q), Err(crate::error::OmsError::Interrupted)), "{q:?}");
        }
    }

    /// Without a limit, under a sort of several keys, or when a short posting list holds
    /// fewer grains than the walk expects to read, the candidate lists answer.
    #[test]
    fn other_shapes_are_left_to_the_candidate_lists() {
        let s = store();
        let inner = s.read();
        let unlimited = Query { limit: None, ..query(vec![], None, 1) };
        let two_keys = Query {
            sort: vec![
                SortKey { field: "confidence".into(), descending: true },
                SortKey { field: "created_at".into(), descending: true },
            ],
            ..query(vec![], None, 1)
        };
        let short = query(vec![eq("namespace", "ns-2")], Some(("confidence", false)), 1);
        for q in [unlimited, two_keys, query(vec![], Some(("subject", true)), 1), short] {
            assert!(ordered_page(&inner, &q, 0).expect("no deadline").is_none(), "{q:?}");
        }
    }
}
