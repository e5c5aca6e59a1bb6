//! Read operations of the store protocol: `get`, `get_batch`, `exists`,
//! `query`, `search`, and version-chain walks for HISTORY.

use std::collections::HashSet;

use super::indexes::{Id, Pair};
use super::plan::{self, Candidates};
use super::query::{
    CmpOp, Filter, Hit, Query, ResultEnvelope, SortKey, decode_cursor, encode_cursor, fingerprint, sort_records,
};
use super::record::Record;
use super::{Store, Stored, search, stored, walk};
use crate::address::ContentAddress;
use crate::error::{OmsError, Result};
use crate::value::Value;

impl Store {
    /// `get` (§28.4): the grain at an address, or `None`. Counts as an access.
    pub fn get(&self, address: &ContentAddress) -> Option<Stored> {
        let inner = self.read();
        let r = inner.by_addr(address)?;
        if self.config.track_access {
            r.touch(self.now());
        }
        Some(stored(r))
    }

    /// `get` without touching access counters (internal reads, §22.10).
    pub fn peek(&self, address: &ContentAddress) -> Option<Stored> {
        self.read().by_addr(address).map(stored)
    }

    /// `get_batch` (§28.4): one answer per address, in order.
    pub fn get_batch(&self, addresses: &[ContentAddress]) -> Vec<Option<Stored>> {
        let inner = self.read();
        let now = self.now();
        addresses
            .iter()
            .map(|a| {
                let r = inner.by_addr(a)?;
                if self.config.track_access {
                    r.touch(now);
                }
                Some(stored(r))
            })
            .collect()
    }

    /// `exists` (§28.4).
    /// An encrypted grain the store holds sealed exists too.
    pub fn exists(&self, address: &ContentAddress) -> bool {
        let inner = self.read();
        inner.id_of(address).is_some() || inner.sealed.contains_key(address)
    }

    /// `query` (§28.4): structured filters, temporal view, sort (default
    /// `created_at` descending), limit and cursor, in the §28.1 envelope with
    /// score 1.0.
    pub fn query(&self, q: &Query) -> Result<ResultEnvelope> {
        let inner = self.read();
        let offset = q.cursor.as_deref().map(|c| decode_cursor(c, fingerprint(q, None))).transpose()?.unwrap_or(0);
        if let Some(found) = walk::ordered_page(&inner, q, offset)? {
            // Every record of the walk passed every filter already.
            let exact = vec![true; q.filters.len()];
            return answer_query_counted(found.records.into_iter(), q, self.touch_time(), Some(found.total), &exact);
        }
        let touch = self.touch_time();
        match plan::candidates(&inner, &q.filters)? {
            (Candidates::Ids(ids), exact) => {
                answer_query_counted(ids.iter().filter_map(|id| inner.record(*id)), q, touch, None, &exact)
            }
            (Candidates::All, exact) => answer_query_counted(inner.records.iter().flatten(), q, touch, None, &exact),
        }
    }

    /// [`Store::query`] answered by reading every record: the plain scan that the
    /// indexed paths (`plan.rs`) must agree with, grain for grain and in order. Kept as the
    /// oracle of the differential tests (`tests/store_scale.rs`), not for serving queries.
    pub fn query_by_scan(&self, q: &Query) -> Result<ResultEnvelope> {
        let inner = self.read();
        answer_query(inner.records.iter().flatten(), q, self.touch_time())
    }

    /// `search` (§28.4): BM25 text relevance combined with structured
    /// filters. Scores are normalised to [0, 1]; order is score descending
    /// (or the query's sort keys), ties by content address ascending.
    pub fn search(&self, text: &str, q: &Query) -> Result<ResultEnvelope> {
        let inner = self.read();
        let visible = search::visible_namespaces(q);
        let scores = inner.text.score(text, visible.as_deref())?;
        answer_search(
            scores.iter().filter_map(|(id, s)| inner.record(*id).map(|r| (r, *s))),
            text,
            q,
            self.touch_time(),
        )
    }

    /// The grains among `addresses` that `q`'s view and filters admit, in the order given,
    /// scored 1.0 (its sort, limit and cursor do not apply): how candidates found elsewhere (a
    /// vector index, CAL §16.4) are confined to what the query may see, without a query each.
    /// Not an access.
    pub fn admit(&self, q: &Query, addresses: &[ContentAddress]) -> Vec<Hit> {
        let inner = self.read();
        addresses
            .iter()
            .filter_map(|a| inner.by_addr(a))
            .filter(|r| q.view.admits(r) && q.filters.iter().all(|f| f.matches(r)))
            .map(admitted)
            .collect()
    }

    /// When reads count as accesses, the time to record them at.
    fn touch_time(&self) -> Option<i64> {
        self.config.track_access.then(|| self.now())
    }

    /// The version chain containing `address`, oldest first: walks
    /// supersession backwards to the root and `superseded_by` forwards to the
    /// head (HISTORY). Does not count as an access.
    pub fn history(&self, address: &ContentAddress) -> Result<Vec<Stored>> {
        let inner = self.read();
        let start = inner.id_of(address).ok_or_else(|| OmsError::NotFound { address: address.to_hex() })?;
        walk_chain(
            start,
            |id| Ok(inner.supersedes.get(&id).copied()),
            |id| Ok(inner.record(id).map(|r| (stored(r), r.state.superseded_by.and_then(|a| inner.id_of(&a))))),
        )
    }

    /// Every grain with this (subject, relation), all versions, ordered by
    /// `system_valid_from` then address; the caller applies a view (AS OF).
    pub fn versions(&self, subject: &str, relation: &str) -> Vec<Stored> {
        let inner = self.read();
        let mut rs: Vec<&Record> = inner
            .idx
            .pair(Pair::SubjectRelation, subject, relation)
            .iter()
            .filter_map(|id| inner.record(*id))
            .collect();
        rs.sort_by(|a, b| a.system_valid_from().cmp(&b.system_valid_from()).then(a.address.cmp(&b.address)));
        rs.into_iter().map(stored).collect()
    }

    /// Addresses of all grains, in insertion order.
    pub fn addresses(&self) -> Vec<ContentAddress> {
        self.read().records.iter().flatten().map(|r| r.address).collect()
    }
}

/// A record admitted by [`Store::admit`] (and the durable store's `admit`), as a hit scored 1.0
/// with no matched fields: the search that found it elsewhere says why it matched.
pub(crate) fn admitted(r: &Record) -> Hit {
    Hit { address: r.address, body: r.body.clone(), score: 1.0, matched_fields: Vec::new(), index: r.snapshot() }
}

/// The version chain through `start`, oldest first (HISTORY): `prev` steps
/// back from a version to the one it superseded until the root, then `next`
/// gives each version and its successor's id, to the head. Both walks stop at
/// a cycle. Shared by every store.
pub(crate) fn walk_chain<T>(
    start: Id,
    mut prev: impl FnMut(Id) -> Result<Option<Id>>,
    mut next: impl FnMut(Id) -> Result<Option<(T, Option<Id>)>>,
) -> Result<Vec<T>> {
    let mut root = start;
    let mut seen = HashSet::from([start]);
    while let Some(p) = prev(root)? {
        if !seen.insert(p) {
            break;
        }
        root = p;
    }
    let mut out = Vec::new();
    let mut cur = Some(root);
    let mut visited = HashSet::new();
    while let Some(id) = cur {
        if !visited.insert(id) {
            break;
        }
        let Some((version, successor)) = next(id)? else { break };
        out.push(version);
        cur = successor;
    }
    Ok(out)
}

/// Answers a structured query over candidate records (a superset of the
/// matches, in any order): the view and every filter are applied here, then
/// the sort and the page. Shared by every store so that each gives the same
/// grains in the same order for the same query.
pub(crate) fn answer_query<'a>(
    candidates: impl Iterator<Item = &'a Record>,
    q: &Query,
    touch: Option<i64>,
) -> Result<ResultEnvelope> {
    answer_query_counted(candidates, q, touch, None, &[])
}

/// [`answer_query`] over candidates that hold at least the page (the first `offset +
/// limit` matches in the query's order), with the number of matches counted elsewhere
/// (`known_total`; `None` counts the candidates that match). `exact[i]` says that every
/// candidate passes filter `i` already (it came from that filter's posting list).
pub(crate) fn answer_query_counted<'a>(
    candidates: impl Iterator<Item = &'a Record>,
    q: &Query,
    touch: Option<i64>,
    known_total: Option<usize>,
    exact: &[bool],
) -> Result<ResultEnvelope> {
    let fp = fingerprint(q, None);
    let offset = q.cursor.as_deref().map(|c| decode_cursor(c, fp)).transpose()?.unwrap_or(0);
    let passes =
        |r: &Record| q.filters.iter().enumerate().all(|(i, f)| exact.get(i).copied().unwrap_or(false) || f.matches(r));
    let mut ticker = crate::interrupt::Ticker::default();
    let mut matches: Vec<(&Record, f64)> = Vec::new();
    for r in candidates {
        ticker.tick()?;
        if q.view.admits(r) && passes(r) {
            matches.push((r, 1.0));
        }
    }
    let default_sort = [SortKey { field: "created_at".into(), descending: true }];
    let keys: &[SortKey] = if q.sort.is_empty() { &default_sort } else { &q.sort };
    let total = known_total.unwrap_or(matches.len());
    let matches = sort_records(matches, keys, false, q.limit.map(|l| offset.saturating_add(l)));
    if crate::interrupt::expired() {
        return Err(OmsError::Interrupted);
    }
    let fields = filter_fields(&q.filters);
    Ok(page(matches, total, offset, q.limit, fp, touch, |_| fields.clone()))
}

/// [`answer_query`] over candidates that arrive in batches of owned records
/// (a store that decodes them from disk): only the first `offset + limit`
/// matches in the query's order are kept between batches, and the others are
/// counted, so memory is bounded by the page and a batch whatever the number
/// of matches. Exact, because the order is total (ties end with the
/// address): the first k of a union are the first k of the first k of its parts.
pub(crate) struct QueryStream<'q> {
    q: &'q Query,
    keys: Vec<SortKey>,
    keep: Option<usize>,
    offset: usize,
    fp: [u8; 8],
    kept: Vec<Record>,
    total: usize,
    slack: usize,
}

impl<'q> QueryStream<'q> {
    /// Starts answering `q` (a foreign cursor is refused here, as by
    /// `answer_query`); up to `slack` records beyond the page are kept
    /// before the kept ones are cut back to the page.
    pub(crate) fn new(q: &'q Query, slack: usize) -> Result<QueryStream<'q>> {
        let fp = fingerprint(q, None);
        let offset = q.cursor.as_deref().map(|c| decode_cursor(c, fp)).transpose()?.unwrap_or(0);
        let keys = if q.sort.is_empty() {
            vec![SortKey { field: "created_at".into(), descending: true }]
        } else {
            q.sort.clone()
        };
        let keep = q.limit.map(|l| offset.saturating_add(l));
        Ok(QueryStream { q, keys, keep, offset, fp, kept: Vec::new(), total: 0, slack })
    }

    /// Takes a batch of candidates: the matches are counted, and kept while
    /// they may still be among the first `offset + limit`.
    pub(crate) fn add(&mut self, batch: Vec<Record>) {
        let q = self.q;
        let before = self.kept.len();
        self.kept.extend(batch.into_iter().filter(|r| q.view.admits(r) && q.filters.iter().all(|f| f.matches(r))));
        self.total += self.kept.len() - before;
        if let Some(k) = self.keep
            && self.kept.len() > k.saturating_add(self.slack)
        {
            self.trim(k);
        }
    }

    /// Keeps only the first `k` kept records in the query's order.
    fn trim(&mut self, k: usize) {
        let first: Vec<ContentAddress> = {
            let refs: Vec<(&Record, f64)> = self.kept.iter().map(|r| (r, 1.0)).collect();
            sort_records(refs, &self.keys, false, Some(k)).into_iter().map(|(r, _)| r.address).collect()
        };
        let wanted: HashSet<ContentAddress> = first.into_iter().collect();
        self.kept.retain(|r| wanted.contains(&r.address));
    }

    /// The page, as `answer_query` gives it.
    pub(crate) fn finish(self, touch: Option<i64>) -> ResultEnvelope {
        let refs: Vec<(&Record, f64)> = self.kept.iter().map(|r| (r, 1.0)).collect();
        let matches = sort_records(refs, &self.keys, false, self.keep);
        let fields = filter_fields(&self.q.filters);
        page(matches, self.total, self.offset, self.q.limit, self.fp, touch, |_| fields.clone())
    }
}

/// Answers a text search over every record that shares a term with `text`,
/// with its raw BM25 score: view and filters applied, scores normalised by the
/// best remaining one, then sorted and paged. Shared by every store.
pub(crate) fn answer_search<'a>(
    scored: impl Iterator<Item = (&'a Record, f64)>,
    text: &str,
    q: &Query,
    touch: Option<i64>,
) -> Result<ResultEnvelope> {
    let fp = fingerprint(q, Some(text));
    let offset = q.cursor.as_deref().map(|c| decode_cursor(c, fp)).transpose()?.unwrap_or(0);
    let mut ticker = crate::interrupt::Ticker::default();
    let mut matches: Vec<(&Record, f64)> = Vec::new();
    for (r, s) in scored {
        ticker.tick()?;
        if q.view.admits(r) && q.filters.iter().all(|f| f.matches(r)) {
            matches.push((r, s));
        }
    }
    let best = matches.iter().map(|(_, s)| *s).fold(0.0f64, f64::max);
    if best > 0.0 {
        for m in &mut matches {
            m.1 /= best;
        }
    }
    let total = matches.len();
    let matches = sort_records(matches, &q.sort, q.sort.is_empty(), q.limit.map(|l| offset.saturating_add(l)));
    if crate::interrupt::expired() {
        return Err(OmsError::Interrupted);
    }
    let fields = filter_fields(&q.filters);
    Ok(page(matches, total, offset, q.limit, fp, touch, |r| {
        let mut f = search::matched_fields(r.body.grain(), text);
        for x in &fields {
            if !f.contains(x) {
                f.push(x.clone());
            }
        }
        f
    }))
}

/// Cuts the page `offset..offset+limit` out of `matches` (which holds at
/// least that prefix, sorted) of `total` results; `touch` counts an access
/// on each returned record.
fn page(
    matches: Vec<(&Record, f64)>,
    total: usize,
    offset: usize,
    limit: Option<usize>,
    fp: [u8; 8],
    touch: Option<i64>,
    fields: impl Fn(&Record) -> Vec<String>,
) -> ResultEnvelope {
    let end = limit.map_or(total, |l| offset.saturating_add(l).min(total));
    let results = matches
        .get(offset.min(total)..end)
        .unwrap_or(&[])
        .iter()
        .map(|(r, score)| {
            if let Some(now) = touch {
                r.touch(now);
            }
            Hit {
                address: r.address,
                body: r.body.clone(),
                score: *score,
                matched_fields: fields(r),
                index: r.snapshot(),
            }
        })
        .collect();
    let next_cursor = (end < total).then(|| encode_cursor(end, fp));
    ResultEnvelope { results, total, next_cursor }
}

fn filter_fields(filters: &[Filter]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for f in filters {
        if let Some(n) = f.field_name()
            && !out.iter().any(|x| x == n)
        {
            out.push(n.to_string());
        }
    }
    out
}

/// The string a filter requires `field` to equal, if any.
pub(crate) fn eq_str<'a>(filters: &'a [Filter], field: &str) -> Option<&'a str> {
    filters.iter().find_map(|f| match f {
        Filter::Cmp { field: fl, op: CmpOp::Eq, value: Value::Str(s) } if fl == field => Some(s.as_str()),
        _ => None,
    })
}
