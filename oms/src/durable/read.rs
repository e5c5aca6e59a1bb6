//! The read side of the store protocol over the database: candidates from
//! the posting segments of a query's indexed filters (or the text postings
//! of its terms), only those grains decoded, then the in-memory store's own
//! filter, sort and page code ([`answer_query`], [`answer_search`]).

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, params};

use super::ingest::{KEY_TYPE, id_of, read_stats};
use super::rows::{self, TermPosting};
use super::{DurableStore, db_error};
use crate::address::ContentAddress;
use crate::error::{OmsError, Result};
use crate::grain::{DecodeOptions, decode_with};
use crate::mg::IndexState;
use crate::store::Hit;
use crate::store::indexes::{EQUALITY_INDEXED, Id, Key};
use crate::store::query::{Filter, Query, ResultEnvelope};
use crate::store::read::{QueryStream, answer_search, eq_str, walk_chain};
use crate::store::record::{Parsed, Record};
use crate::store::sealed::{SealedGrain, parse_sealed};
use crate::store::search::{Bm25, query_terms};
use crate::store::{Stored, stored};

/// Whether the store has the `sealed` table (a version 5 store opened read-only has not, and
/// holds no encrypted grain).
fn has_sealed_table(conn: &Connection) -> Result<bool> {
    conn.query_row("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sealed'", [], |_| Ok(()))
        .optional()
        .map(|o| o.is_some())
        .map_err(db_error)
}

/// Every encrypted grain the store holds, by address, each checked against its address.
pub(crate) fn sealed_rows(conn: &Connection) -> Result<Vec<SealedGrain>> {
    if !has_sealed_table(conn)? {
        return Ok(Vec::new());
    }
    let mut stmt = conn.prepare("SELECT address, blob FROM sealed ORDER BY address").map_err(db_error)?;
    let mut rows = stmt.query([]).map_err(db_error)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(db_error)? {
        let key: Vec<u8> = row.get(0).map_err(db_error)?;
        let blob: Vec<u8> = row.get(1).map_err(db_error)?;
        let address = <[u8; 32]>::try_from(key.as_slice())
            .map(ContentAddress::from_bytes)
            .map_err(|_| rows::damaged("an encrypted grain is stored under a key that is no address"))?;
        out.push(sealed_row(&address, &blob)?);
    }
    Ok(out)
}

/// A `sealed` row as a grain, checked against the address it is stored under.
pub(crate) fn sealed_row(address: &ContentAddress, blob: &[u8]) -> Result<SealedGrain> {
    let g = parse_sealed(blob)?;
    if g.address != *address {
        return Err(rows::damaged(format!("the encrypted grain stored as {address} hashes to {}", g.address)));
    }
    Ok(g)
}

/// Above this share of the store, candidates are read in one scan rather
/// than one lookup each.
const SCAN_FRACTION: usize = 4;

/// The columns of a record, and whether a supersession record names it as
/// the superseded grain (its state must then say so).
const RECORD_COLUMNS: &str = "g.id, g.address, g.blob, g.cose, g.signer, s.state, s.sum, x.new_id";

/// The tables a record is read from.
const RECORD_FROM: &str =
    "grains g LEFT JOIN grain_state s ON s.id = g.id LEFT JOIN supersessions x ON x.old_id = g.id";

/// Builds a record from a `grains` row (and its state), re-hashing the blob.
fn record_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Result<(Id, Record)>> {
    let id: i64 = row.get(0)?;
    let address: Vec<u8> = row.get(1)?;
    let blob: Vec<u8> = row.get(2)?;
    let cose: Option<Vec<u8>> = row.get(3)?;
    let signer: Option<String> = row.get(4)?;
    let state: Option<Vec<u8>> = row.get(5)?;
    let sum: Option<i64> = row.get(6)?;
    let superseded: Option<i64> = row.get(7)?;
    Ok(build_record(id, &address, blob, cose, signer, state, sum).and_then(|(id, r)| {
        if superseded.is_some() && r.state.superseded_by.is_none() {
            return Err(rows::damaged(format!(
                "{} is recorded as superseded, but its index state is missing or says otherwise",
                r.address
            )));
        }
        Ok((id, r))
    }))
}

fn build_record(
    id: i64,
    address: &[u8],
    blob: Vec<u8>,
    cose: Option<Vec<u8>>,
    signer: Option<String>,
    state: Option<Vec<u8>>,
    sum: Option<i64>,
) -> Result<(Id, Record)> {
    let id = Id::try_from(id).map_err(|_| rows::damaged(format!("grain id {id} is out of range")))?;
    let bytes: [u8; 32] =
        address.try_into().map_err(|_| rows::damaged(format!("grain {id}: the stored address is not 32 bytes")))?;
    let address = ContentAddress::from_bytes(bytes);
    if ContentAddress::of(&blob) != address {
        return Err(rows::damaged(format!("grain {address}: its blob no longer hashes to its address")));
    }
    let opts = DecodeOptions { wrapped: cose.is_some(), ..DecodeOptions::default() };
    let grain =
        decode_with(&blob, &opts).map_err(|e| rows::damaged(format!("grain {address} does not decode: {e}")))?;
    if cose.is_some() != signer.is_some() {
        return Err(rows::damaged(format!("grain {address}: envelope and signer disagree")));
    }
    let mut record = Record::new(Parsed {
        address,
        cose: cose.map(Vec::into_boxed_slice),
        blob: blob.into_boxed_slice(),
        grain,
        signer,
    });
    if let Some(bytes) = state {
        if sum != Some(rows::state_sum(i64::from(id), &bytes)) {
            return Err(rows::damaged(format!("the index state of {address}: checksum does not match")));
        }
        let st = rows::decode_state(&bytes)?;
        record.restore_counters(&st);
        record.state = IndexState { access_count: None, last_accessed_at: None, ..st }.into();
    }
    Ok((id, record))
}

/// Loads the records of `ids` (ascending), in that order.
pub(crate) fn load(conn: &Connection, ids: &[Id]) -> Result<Vec<(Id, Record)>> {
    let mut out = Vec::with_capacity(ids.len());
    load_batches(conn, Some(ids), usize::MAX, |batch| {
        out.extend(batch);
        Ok(())
    })?;
    Ok(out)
}

/// Hands the records of `ids` (ascending; `None`: every grain) to `visit`
/// in id order, at most `batch` at a time, so that no more than a batch of
/// decoded grains need be alive at once: one scan of the table when they are
/// many, one lookup each otherwise. Every id must name a stored grain.
pub(crate) fn load_batches(
    conn: &Connection,
    ids: Option<&[Id]>,
    batch: usize,
    mut visit: impl FnMut(Vec<(Id, Record)>) -> Result<()>,
) -> Result<()> {
    let batch = batch.max(1);
    let mut buf: Vec<(Id, Record)> = Vec::new();
    let mut found = 0usize;
    let scan = match ids {
        None => true,
        Some(ids) => {
            ids.len() > 64
                && ids.len().saturating_mul(SCAN_FRACTION)
                    > usize::try_from(read_stats(conn)?.grains).unwrap_or(usize::MAX)
        }
    };
    let mut push = |buf: &mut Vec<(Id, Record)>, r: (Id, Record)| -> Result<()> {
        found += 1;
        buf.push(r);
        if buf.len() >= batch { visit(std::mem::take(buf)) } else { Ok(()) }
    };
    if scan {
        let mut stmt = conn
            .prepare_cached(&format!("SELECT {RECORD_COLUMNS} FROM {RECORD_FROM} ORDER BY g.id"))
            .map_err(db_error)?;
        let mut rows = stmt.query([]).map_err(db_error)?;
        while let Some(row) = rows.next().map_err(db_error)? {
            let id: i64 = row.get(0).map_err(db_error)?;
            let wanted = ids.is_none_or(|ids| Id::try_from(id).is_ok_and(|id| ids.binary_search(&id).is_ok()));
            if wanted {
                push(&mut buf, record_from_row(row).map_err(db_error)??)?;
            }
        }
    } else {
        let mut stmt = conn
            .prepare_cached(&format!("SELECT {RECORD_COLUMNS} FROM {RECORD_FROM} WHERE g.id = ?1"))
            .map_err(db_error)?;
        for id in ids.unwrap_or_default() {
            if let Some(r) = stmt.query_row([i64::from(*id)], record_from_row).optional().map_err(db_error)? {
                push(&mut buf, r?)?;
            }
        }
    }
    if !buf.is_empty() {
        visit(buf)?;
    }
    if let Some(ids) = ids
        && found != ids.len()
    {
        return Err(rows::damaged(format!(
            "an index names {} grain(s) that are not stored",
            ids.len().saturating_sub(found)
        )));
    }
    Ok(())
}

/// Every stored record, in insertion order.
pub(crate) fn load_all(conn: &Connection, mut visit: impl FnMut(Id, Record) -> Result<()>) -> Result<()> {
    load_batches(conn, None, 1024, |batch| batch.into_iter().try_for_each(|(id, r)| visit(id, r)))
}

/// The ids posted under (`key`, `value`), ascending, every segment checked.
pub(crate) fn postings(conn: &Connection, key: i64, value: &str) -> Result<Vec<Id>> {
    postings_of_hash(conn, key, rows::value_hash(value), &format!("{value:?}"))
}

/// The ids posted under (`key`, `hash`), ascending; `what` names the key in errors.
/// Every segment is checked, and so is their number against the key's count
/// row: a segment lost to damage is an error, not a shorter list.
pub(crate) fn postings_of_hash(conn: &Connection, key: i64, hash: i64, what: &str) -> Result<Vec<Id>> {
    let count: Option<(i64, i64)> = conn
        .prepare_cached("SELECT n, sum FROM posting_counts WHERE key = ?1 AND hash = ?2")
        .and_then(|mut s| s.query_row(params![key, hash], |r| Ok((r.get(0)?, r.get(1)?))).optional())
        .map_err(db_error)?;
    let mut stmt = conn
        .prepare_cached("SELECT seg, ids, sum FROM postings WHERE key = ?1 AND hash = ?2 ORDER BY seg")
        .map_err(db_error)?;
    let mut rows = stmt.query(params![key, hash]).map_err(db_error)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(db_error)? {
        let (seg, bytes, sum): (i64, Vec<u8>, i64) =
            (row.get(0).map_err(db_error)?, row.get(1).map_err(db_error)?, row.get(2).map_err(db_error)?);
        let start = out.len();
        if sum != rows::postings_sum(key, hash, seg, &bytes)
            || rows::decode_ids(&bytes, &mut out).is_none()
            || out.get(start).is_none_or(|first| i64::from(*first) != seg)
        {
            return Err(rows::damaged(format!("an index segment for {what}")));
        }
    }
    check_count(count, out.len(), |n| rows::posting_count_sum(key, hash, n), what)?;
    Ok(out)
}

/// Checks a list's length against its count row (absent: the list must be empty).
fn check_count(count: Option<(i64, i64)>, len: usize, sum: impl Fn(i64) -> i64, what: &str) -> Result<()> {
    let n = match count {
        None => 0,
        Some((n, s)) if s == sum(n) => n,
        Some(_) => return Err(rows::damaged(format!("the count row of the index for {what}"))),
    };
    if usize::try_from(n).ok() != Some(len) {
        return Err(rows::damaged(format!("the index for {what} holds {len} entries where its count says {n}")));
    }
    Ok(())
}

/// The text postings of a term, ordered by id, every segment and the count checked.
pub(crate) fn term_postings(conn: &Connection, term: &str) -> Result<Vec<TermPosting>> {
    let count: Option<(i64, i64)> = conn
        .prepare_cached("SELECT n, sum FROM term_counts WHERE term = ?1")
        .and_then(|mut s| s.query_row([term], |r| Ok((r.get(0)?, r.get(1)?))).optional())
        .map_err(db_error)?;
    let mut stmt =
        conn.prepare_cached("SELECT seg, postings, sum FROM terms WHERE term = ?1 ORDER BY seg").map_err(db_error)?;
    let mut rows = stmt.query([term]).map_err(db_error)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next().map_err(db_error)? {
        let (seg, bytes, sum): (i64, Vec<u8>, i64) =
            (row.get(0).map_err(db_error)?, row.get(1).map_err(db_error)?, row.get(2).map_err(db_error)?);
        let start = out.len();
        if sum != rows::terms_sum(term, seg, &bytes)
            || rows::decode_terms(&bytes, &mut out).is_none()
            || out.get(start).is_none_or(|first| i64::from(first.id) != seg)
        {
            return Err(rows::damaged(format!("a text index segment for {term:?}")));
        }
    }
    check_count(count, out.len(), |n| rows::term_count_sum(term, n), &format!("{term:?}"))?;
    Ok(out)
}

/// Intersects two ascending id lists.
fn intersect(a: &[Id], b: &[Id]) -> Vec<Id> {
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out
}

/// Candidate ids for the filters, ascending: the intersection of every
/// posting list an indexed equality allows (the same access paths as the
/// in-memory store), or a `created_at` range; `None` when no index applies.
/// Always a superset of the matches: the filters are applied afterwards.
pub(crate) fn candidates(conn: &Connection, filters: &[Filter]) -> Result<Option<Vec<Id>>> {
    let mut lists: Vec<Vec<Id>> = Vec::new();
    for (field, key) in EQUALITY_INDEXED {
        if let Some(v) = eq_str(filters, field) {
            lists.push(postings(conn, key as i64, v)?);
        }
    }
    for f in filters {
        match f {
            Filter::Type(t) => lists.push(postings(conn, KEY_TYPE, &t.byte().to_string())?),
            Filter::TagsInclude(tags) => {
                for t in tags {
                    lists.push(postings(conn, Key::Tag as i64, t)?);
                }
            }
            Filter::Address(a) => return Ok(Some(id_of(conn, a)?.into_iter().collect())),
            _ => {}
        }
    }
    if !lists.is_empty() {
        lists.sort_by_key(Vec::len);
        let mut it = lists.into_iter();
        let mut acc = it.next().unwrap_or_default();
        for l in it {
            if acc.is_empty() {
                break;
            }
            acc = intersect(&acc, &l);
        }
        return Ok(Some(acc));
    }
    if let Some((from, to)) = filters.iter().find_map(|f| match f {
        Filter::CreatedBetween { from, to } => Some((*from, *to)),
        _ => None,
    }) {
        let mut stmt = conn
            .prepare_cached("SELECT id FROM grains WHERE created_at >= ?1 AND created_at < ?2 ORDER BY id")
            .map_err(db_error)?;
        let ids = stmt
            .query_map(params![from.unwrap_or(i64::MIN), to.unwrap_or(i64::MAX)], |r| r.get::<_, i64>(0))
            .map_err(db_error)?
            .map(|r| r.map_err(db_error).and_then(|id| Id::try_from(id).map_err(|_| rows::damaged("a grain id"))))
            .collect::<Result<Vec<Id>>>()?;
        // `to` is exclusive; the upper bound of i64 stands for "none", which the filter re-checks.
        return Ok(Some(ids));
    }
    Ok(None)
}

impl DurableStore {
    /// Number of grains held.
    pub fn len(&self) -> Result<usize> {
        Ok(usize::try_from(read_stats(&self.conn())?.grains).unwrap_or(usize::MAX))
    }

    /// Whether the store holds no grain.
    pub fn is_empty(&self) -> Result<bool> {
        Ok(self.len()? == 0)
    }

    /// `exists` (§28.4).
    /// An encrypted grain held sealed exists too (ruling C27).
    pub fn exists(&self, address: &ContentAddress) -> Result<bool> {
        Ok(id_of(&self.conn(), address)?.is_some() || self.sealed(address)?.is_some())
    }

    /// The encrypted grain at `address` the store holds sealed, if any; its bytes are hashed
    /// again, so a damaged row is an error, never a different grain.
    pub fn sealed(&self, address: &ContentAddress) -> Result<Option<SealedGrain>> {
        let conn = self.conn();
        if !has_sealed_table(&conn)? {
            return Ok(None);
        }
        let blob: Option<Vec<u8>> = conn
            .query_row("SELECT blob FROM sealed WHERE address = ?1", params![address.as_bytes().as_slice()], |r| {
                r.get(0)
            })
            .optional()
            .map_err(db_error)?;
        blob.map(|b| sealed_row(address, &b)).transpose()
    }

    /// How many encrypted grains the store holds sealed (not counted by [`DurableStore::len`]).
    pub fn sealed_len(&self) -> Result<usize> {
        Ok(sealed_rows(&self.conn())?.len())
    }

    /// `get` (§28.4) without counting an access: reads never write.
    pub fn get(&self, address: &ContentAddress) -> Result<Option<Stored>> {
        let conn = self.snapshot()?;
        let Some(id) = id_of(&conn, address)? else { return Ok(None) };
        Ok(load(&conn, &[id])?.first().map(|(_, r)| stored(r)))
    }

    /// `query` (§28.4): the same answer as [`crate::store::Store::query`] over the same grains.
    pub fn query(&self, q: &Query) -> Result<ResultEnvelope> {
        let conn = self.snapshot()?;
        let ids = candidates(&conn, &q.filters)?;
        let mut answer = QueryStream::new(q, self.read_batch)?;
        let mut seen: i64 = 0;
        load_batches(&conn, ids.as_deref(), self.read_batch, |batch| {
            seen += i64::try_from(batch.len()).unwrap_or(i64::MAX);
            answer.add(batch.into_iter().map(|(_, r)| r).collect());
            Ok(())
        })?;
        // A scan of the whole table must meet every grain the store counted: a damaged page
        // can lose rows without SQLite noticing (a flipped cell count), and a smaller answer
        // must never pass for the whole one.
        if ids.is_none() {
            let counted = read_stats(&conn)?.grains;
            if seen != counted {
                return Err(rows::damaged(format!(
                    "the grains table yields {seen} rows, but the store holds {counted} grains"
                )));
            }
        }
        Ok(answer.finish(None))
    }

    /// The grains among `addresses` that `q`'s view and filters admit, in the order given,
    /// scored 1.0: the same answer as [`crate::store::Store::admit`] over the same grains.
    pub fn admit(&self, q: &Query, addresses: &[ContentAddress]) -> Result<Vec<Hit>> {
        let conn = self.snapshot()?;
        let mut ids = Vec::with_capacity(addresses.len());
        for a in addresses {
            if let Some(id) = id_of(&conn, a)? {
                ids.push(id);
            }
        }
        let by_id: HashMap<Id, Record> = load(&conn, &ids)?.into_iter().collect();
        Ok(ids
            .iter()
            .filter_map(|id| by_id.get(id))
            .filter(|r| q.view.admits(r) && q.filters.iter().all(|f| f.matches(r)))
            .map(crate::store::read::admitted)
            .collect())
    }

    /// `search` (§28.4): BM25 over the persisted text postings, with the
    /// statistics of the whole store, so scores equal the in-memory store's.
    pub fn search(&self, text: &str, q: &Query) -> Result<ResultEnvelope> {
        let conn = self.snapshot()?;
        let allowed = candidates(&conn, &q.filters)?;
        // A search confined to namespaces scores over them alone (issue 19), as the
        // in-memory store does: their documents, lengths and document frequencies.
        let visible = crate::store::search::visible_namespaces(q);
        let (docs, total_len, within) = match &visible {
            None => {
                let stats = read_stats(&conn)?;
                (stats.docs, stats.total_len, None)
            }
            Some(spaces) => {
                let in_spaces = namespace_members(&conn, spaces)?;
                let (docs, len) = namespace_stats(&conn, spaces, &in_spaces)?;
                (docs, len, Some(in_spaces))
            }
        };
        let mut scores: HashMap<Id, f64> = HashMap::new();
        if let Some(bm25) = Bm25::new(u64::try_from(docs).unwrap_or(0), u64::try_from(total_len).unwrap_or(0)) {
            for term in &query_terms(text) {
                let mut list = term_postings(&conn, term)?;
                if let Some(members) = &within {
                    list.retain(|p| members.binary_search(&p.id).is_ok());
                }
                if list.is_empty() {
                    continue;
                }
                let idf = bm25.idf(list.len());
                for p in list {
                    *scores.entry(p.id).or_default() += bm25.term_score(idf, p.tf, p.dl);
                }
            }
        }
        let mut ids: Vec<Id> = scores.keys().copied().collect();
        ids.sort_unstable();
        if let Some(allowed) = allowed {
            ids = intersect(&ids, &allowed);
        }
        let records = load(&conn, &ids)?;
        answer_search(records.iter().map(|(id, r)| (r, scores.get(id).copied().unwrap_or(0.0))), text, q, None)
    }

    /// The version chain containing `address`, oldest first (HISTORY): the
    /// supersession records backwards to the root, then `superseded_by`
    /// forwards to the head.
    pub fn history(&self, address: &ContentAddress) -> Result<Vec<Stored>> {
        let conn = self.snapshot()?;
        let start = id_of(&conn, address)?.ok_or_else(|| OmsError::NotFound { address: address.to_hex() })?;
        let mut back = conn.prepare_cached("SELECT old_id FROM supersessions WHERE new_id = ?1").map_err(db_error)?;
        walk_chain(
            start,
            |id| {
                let prev = back.query_row([i64::from(id)], |r| r.get::<_, i64>(0)).optional().map_err(db_error)?;
                prev.map(|p| Id::try_from(p).map_err(|_| rows::damaged("a supersession record"))).transpose()
            },
            |id| {
                let Some((_, r)) = load(&conn, &[id])?.into_iter().next() else { return Ok(None) };
                let successor = match r.state.superseded_by {
                    Some(a) => id_of(&conn, &a)?,
                    None => None,
                };
                Ok(Some((stored(&r), successor)))
            },
        )
    }

    /// Every grain with this (subject, relation), all versions, ordered by
    /// `system_valid_from` then address.
    pub fn versions(&self, subject: &str, relation: &str) -> Result<Vec<Stored>> {
        let conn = self.snapshot()?;
        let ids = intersect(
            &postings(&conn, Key::Subject as i64, subject)?,
            &postings(&conn, Key::Relation as i64, relation)?,
        );
        let mut rs = load(&conn, &ids)?;
        rs.sort_by(|(_, a), (_, b)| a.system_valid_from().cmp(&b.system_valid_from()).then(a.address.cmp(&b.address)));
        Ok(rs.iter().map(|(_, r)| stored(r)).collect())
    }

    /// Grains scheduled for erasure by consent withdrawals, with their
    /// deadlines (epoch ms), as [`crate::store::Store::scheduled_erasures`]
    /// reports them: read from the index state of the covered grains.
    pub fn scheduled_erasures(&self) -> Result<Vec<(ContentAddress, i64)>> {
        let conn = self.snapshot()?;
        let mut stmt = conn.prepare_cached("SELECT id FROM grain_state ORDER BY id").map_err(db_error)?;
        let ids = stmt
            .query_map([], |r| r.get::<_, i64>(0))
            .map_err(db_error)?
            .map(|r| r.map_err(db_error).and_then(|id| Id::try_from(id).map_err(|_| rows::damaged("a grain id"))))
            .collect::<Result<Vec<Id>>>()?;
        let mut out: Vec<(ContentAddress, i64)> =
            load(&conn, &ids)?.iter().filter_map(|(_, r)| Some((r.address, r.erasure_due()?))).collect();
        out.sort();
        Ok(out)
    }

    /// Up to `max` addresses at or after `start`, ascending (prefix lookups).
    pub fn addresses_from(&self, start: &ContentAddress, max: usize) -> Result<Vec<ContentAddress>> {
        let conn = self.snapshot()?;
        let mut stmt = conn
            .prepare_cached("SELECT address FROM grains WHERE address >= ?1 ORDER BY address LIMIT ?2")
            .map_err(db_error)?;
        let max = i64::try_from(max).unwrap_or(i64::MAX);
        stmt.query_map(params![&start.as_bytes()[..], max], |r| r.get::<_, Vec<u8>>(0))
            .map_err(db_error)?
            .map(|r| {
                let b = r.map_err(db_error)?;
                let b: [u8; 32] = b.try_into().map_err(|_| rows::damaged("a stored address is not 32 bytes"))?;
                Ok(ContentAddress::from_bytes(b))
            })
            .collect()
    }
}

/// The ids of the grains in `spaces`, ascending (from the namespace posting lists).
fn namespace_members(conn: &rusqlite::Connection, spaces: &[String]) -> Result<Vec<Id>> {
    let mut ids: Vec<Id> = Vec::new();
    for ns in spaces {
        ids.extend(postings(conn, Key::Namespace as i64, ns)?);
    }
    ids.sort_unstable();
    ids.dedup();
    Ok(ids)
}

/// Documents and terms in `spaces`: from `namespace_stats`, or — for a version 3 store opened
/// read-only, which has no such table — counted from the grains themselves (`members`).
fn namespace_stats(conn: &rusqlite::Connection, spaces: &[String], members: &[Id]) -> Result<(i64, i64)> {
    let mut stmt = match conn.prepare_cached("SELECT docs, total_len FROM namespace_stats WHERE namespace = ?1") {
        Ok(s) => s,
        Err(rusqlite::Error::SqliteFailure(_, Some(m))) if m.starts_with("no such table") => {
            let mut len = 0i64;
            for (_, r) in load(conn, members)? {
                len += i64::from(crate::store::search::terms_of(r.body.grain()).iter().map(|(_, n)| n).sum::<u32>());
            }
            return Ok((i64::try_from(members.len()).unwrap_or(i64::MAX), len));
        }
        Err(e) => return Err(db_error(e)),
    };
    let mut total = (0i64, 0i64);
    for ns in spaces {
        let row: Option<(i64, i64)> =
            stmt.query_row([ns], |r| Ok((r.get(0)?, r.get(1)?))).optional().map_err(db_error)?;
        if let Some((d, l)) = row {
            total = (total.0 + d, total.1 + l);
        }
    }
    Ok(total)
}
