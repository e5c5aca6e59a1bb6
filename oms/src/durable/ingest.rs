//! Writing new grains: the `grains` row, the posting segments of every index
//! the in-memory store keeps (the same fields, [`crate::store::indexes::fields`]),
//! the text postings with their BM25 statistics, and `.mg` import in bulk.
//!
//! Postings are collected per batch and written as one segment row per key,
//! so importing a million grains writes a few rows per distinct value rather
//! than one per grain and value; a single `put` writes one small segment per
//! key. Segments are keyed by the first id they hold and never rewritten, so
//! reading a key's segments in key order yields its ids ascending.

use std::borrow::Cow;
use std::collections::HashMap;

use rusqlite::{OptionalExtension, Transaction, params};

use super::rows::{self, TermPosting};
use super::{DurableStore, db_error};
use crate::address::ContentAddress;
use crate::error::{OmsError, Result};
use crate::mg::{IndexState, MgFile};
use crate::store::indexes::{Id, Key, fields};
use crate::store::persist::parse_all;
use crate::store::record::{Parsed, Record, parse_entry};
use crate::store::sealed::{is_sealed_entry, parse_sealed};
use crate::store::search::terms_of;

/// Posting key of the grain-type index. The single-field keys use [`Key`]'s
/// values (small integers); this one sits far above them.
///
/// There are no pair indexes (the in-memory store's SP, PO, SO): a query
/// intersects the single-field lists instead, which gives the same
/// candidates, and a pair key per grain and pair cost a third of a bulk
/// import's time in random B-tree inserts.
pub(crate) const KEY_TYPE: i64 = 100;

/// Grains parsed per batch in a bulk import: bounds memory, and each batch
/// writes one segment per key.
const BATCH: usize = 65_536;

/// What an import did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ImportReport {
    /// Grains in the file.
    pub in_file: usize,
    /// Grains that were new to the store.
    pub added: usize,
    /// Manifest entries applied.
    pub states: usize,
}

/// The statistics row: grains, text documents and their total length.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Stats {
    pub(crate) grains: i64,
    pub(crate) docs: i64,
    pub(crate) total_len: i64,
}

/// Reads the statistics row, checking its checksum.
pub(crate) fn read_stats(conn: &rusqlite::Connection) -> Result<Stats> {
    let (grains, docs, total_len, sum): (i64, i64, i64, i64) = conn
        .query_row("SELECT grains, docs, total_len, sum FROM stats WHERE id = 1", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
        })
        .map_err(db_error)?;
    if sum != rows::stats_sum(grains, docs, total_len) || grains < 0 || docs < 0 || total_len < 0 {
        return Err(rows::damaged("the statistics row's checksum does not match"));
    }
    Ok(Stats { grains, docs, total_len })
}

/// The index keys of a record, as (posting key, value hash): the same
/// single fields as the in-memory store's indexes, and the type.
pub(crate) fn index_keys(r: &Record) -> Vec<(i64, i64)> {
    let mut keys: Vec<(i64, i64)> = fields(r).iter().map(|(k, v)| (*k as i64, rows::value_hash(v))).collect();
    keys.push((KEY_TYPE, rows::value_hash(&r.body.grain().grain_type().byte().to_string())));
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// A grain ready to be written: the columns of its row, its index keys and
/// its term frequencies, worked out on any thread (tokenizing and stemming
/// are most of the cost). It borrows the entry's bytes where it can and holds
/// no decoded grain, so the writer thread frees almost nothing it did not
/// allocate.
pub(crate) struct Prepared<'a> {
    address: ContentAddress,
    type_byte: u8,
    created_at: i64,
    /// The blob (the entry itself for unsigned grains).
    blob: Cow<'a, [u8]>,
    /// The COSE_Sign1 envelope and its verified signer, for signed grains.
    signed: Option<(Cow<'a, [u8]>, String)>,
    keys: Vec<(i64, i64)>,
    terms: Vec<(String, u32)>,
    /// Whether the grain is a consent withdrawal.
    withdrawal: bool,
    /// Its `processing_basis`.
    basis: Option<String>,
    /// Its namespace (`""` when it has none), for the per-namespace search statistics.
    namespace: String,
}

impl<'a> Prepared<'a> {
    /// Verifies and prepares one `.mg` entry (a blob or a COSE_Sign1 envelope).
    pub(crate) fn from_entry(entry: &'a [u8]) -> Result<Prepared<'a>> {
        let p = parse_entry(entry)?;
        let signed = p.signer.is_some();
        let mut prepared = Prepared::new(p);
        if signed {
            prepared.signed = prepared.signed.map(|(_, signer)| (Cow::Borrowed(entry), signer));
        } else {
            prepared.blob = Cow::Borrowed(entry);
        }
        Ok(prepared)
    }

    /// Prepares a parsed grain.
    pub(crate) fn new(p: Parsed) -> Prepared<'static> {
        let record = Record::new(p);
        let keys = index_keys(&record);
        let body = &record.body;
        Prepared {
            address: record.address,
            type_byte: body.grain().grain_type().byte(),
            created_at: record.created_at(),
            blob: Cow::Owned(body.blob().to_vec()),
            signed: body.signer().map(|s| (Cow::Owned(body.entry().to_vec()), s.to_string())),
            keys,
            terms: terms_of(body.grain()),
            withdrawal: crate::store::consent::withdraws(body.grain()).is_some(),
            basis: crate::store::record::str_field(body.grain(), "processing_basis").map(str::to_string),
            namespace: body.grain().namespace().unwrap_or("").to_string(),
        }
    }

    /// The document length for BM25: the number of terms.
    fn doc_len(&self) -> u32 {
        self.terms.iter().map(|(_, n)| n).sum()
    }
}

type IntMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<crate::store::indexes::IntHasher>>;

/// Writes new grains and their index rows inside one transaction.
pub(crate) struct Ingest<'t> {
    tx: &'t Transaction<'t>,
    next_id: i64,
    stats: Stats,
    /// When the store was empty at the start: the addresses written since,
    /// so that duplicates are found without asking the database.
    fresh: Option<std::collections::HashSet<ContentAddress>>,
    postings: IntMap<(i64, i64), Vec<Id>>,
    terms: HashMap<String, Vec<TermPosting>>,
    /// Postings written per key and term since `begin`, for the count rows.
    posting_counts: IntMap<(i64, i64), i64>,
    term_counts: HashMap<String, i64>,
    /// Documents and terms added per namespace since `begin`.
    spaces: HashMap<String, (i64, i64)>,
}

impl<'t> Ingest<'t> {
    /// Starts writing after the last stored grain.
    pub(crate) fn begin(tx: &'t Transaction<'t>) -> Result<Ingest<'t>> {
        let stats = read_stats(tx)?;
        let max: Option<i64> = tx.query_row("SELECT max(id) FROM grains", [], |r| r.get(0)).map_err(db_error)?;
        Ok(Ingest {
            tx,
            next_id: max.map_or(0, |m| m + 1),
            stats,
            fresh: max.is_none().then(std::collections::HashSet::new),
            postings: IntMap::default(),
            terms: HashMap::new(),
            posting_counts: IntMap::default(),
            term_counts: HashMap::new(),
            spaces: HashMap::new(),
        })
    }

    /// The id of a stored grain.
    pub(crate) fn id_of(&self, address: &ContentAddress) -> Result<Option<Id>> {
        id_of(self.tx, address)
    }

    /// Stores one grain (unless its address is already stored) and collects
    /// its postings; returns its id when it was new.
    pub(crate) fn add(&mut self, p: Parsed) -> Result<Option<Id>> {
        self.add_prepared(Prepared::new(p))
    }

    /// [`Ingest::add`] for a grain prepared beforehand.
    pub(crate) fn add_prepared(&mut self, p: Prepared<'_>) -> Result<Option<Id>> {
        let known = match &mut self.fresh {
            Some(seen) => !seen.insert(p.address),
            None => self.id_of(&p.address)?.is_some(),
        };
        if known {
            return Ok(None);
        }
        let id = Id::try_from(self.next_id)
            .map_err(|_| OmsError::Unsupported { feature: format!("more than {} grains in one store", Id::MAX) })?;
        self.tx
            .prepare_cached(
                "INSERT INTO grains (id, address, type, created_at, blob, cose, signer) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )
            .and_then(|mut s| {
                s.execute(params![
                    i64::from(id),
                    &p.address.as_bytes()[..],
                    i64::from(p.type_byte),
                    p.created_at,
                    &*p.blob,
                    p.signed.as_ref().map(|(cose, _)| &**cose),
                    p.signed.as_ref().map(|(_, signer)| signer.as_str()),
                ])
            })
            .map_err(db_error)?;
        self.next_id += 1;
        let dl = p.doc_len();
        for k in p.keys {
            self.postings.entry(k).or_default().push(id);
        }
        for (term, n) in p.terms {
            self.terms.entry(term).or_default().push(TermPosting { id, tf: n, dl });
        }
        self.stats.grains += 1;
        self.stats.docs += 1;
        self.stats.total_len += i64::from(dl);
        let space = self.spaces.entry(p.namespace).or_default();
        space.0 += 1;
        space.1 += i64::from(dl);
        Ok(Some(id))
    }

    /// Writes the postings collected since the last flush as segments.
    pub(crate) fn flush(&mut self) -> Result<()> {
        let mut ins = self
            .tx
            .prepare_cached("INSERT INTO postings (key, hash, seg, ids, sum) VALUES (?1, ?2, ?3, ?4, ?5)")
            .map_err(db_error)?;
        let mut postings: Vec<_> = self.postings.drain().collect();
        postings.sort_unstable_by_key(|(k, _)| *k);
        for ((key, hash), ids) in postings {
            *self.posting_counts.entry((key, hash)).or_default() += ids.len() as i64;
            let seg = i64::from(ids[0]);
            let bytes = rows::encode_ids(&ids);
            let sum = rows::postings_sum(key, hash, seg, &bytes);
            ins.execute(params![key, hash, seg, bytes, sum]).map_err(db_error)?;
        }
        let mut ins = self
            .tx
            .prepare_cached("INSERT INTO terms (term, seg, postings, sum) VALUES (?1, ?2, ?3, ?4)")
            .map_err(db_error)?;
        let mut terms: Vec<_> = self.terms.drain().collect();
        terms.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        for (term, list) in terms {
            let seg = i64::from(list[0].id);
            let bytes = rows::encode_terms(&list);
            let sum = rows::terms_sum(&term, seg, &bytes);
            ins.execute(params![term, seg, bytes, sum]).map_err(db_error)?;
            *self.term_counts.entry(term).or_default() += list.len() as i64;
        }
        Ok(())
    }

    /// Flushes, then writes the count row of every key and term written to,
    /// and the statistics row. Called once, after the last grain.
    pub(crate) fn finish(mut self) -> Result<()> {
        self.flush()?;
        let fresh = self.fresh.is_some();
        let mut counts: Vec<((i64, i64), i64)> = self.posting_counts.drain().collect();
        counts.sort_unstable();
        let mut get = self
            .tx
            .prepare_cached("SELECT n, sum FROM posting_counts WHERE key = ?1 AND hash = ?2")
            .map_err(db_error)?;
        let mut put = self
            .tx
            .prepare_cached("INSERT OR REPLACE INTO posting_counts (key, hash, n, sum) VALUES (?1, ?2, ?3, ?4)")
            .map_err(db_error)?;
        for ((key, hash), added) in counts {
            let before = if fresh {
                0
            } else {
                match get.query_row(params![key, hash], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?))).optional() {
                    Ok(Some((n, sum))) if sum == rows::posting_count_sum(key, hash, n) => n,
                    Ok(Some(_)) => return Err(rows::damaged(format!("the count row of index key {key}"))),
                    Ok(None) => 0,
                    Err(e) => return Err(db_error(e)),
                }
            };
            let n = before + added;
            put.execute(params![key, hash, n, rows::posting_count_sum(key, hash, n)]).map_err(db_error)?;
        }
        let mut terms: Vec<(String, i64)> = self.term_counts.drain().collect();
        terms.sort_unstable();
        let mut get = self.tx.prepare_cached("SELECT n, sum FROM term_counts WHERE term = ?1").map_err(db_error)?;
        let mut put = self
            .tx
            .prepare_cached("INSERT OR REPLACE INTO term_counts (term, n, sum) VALUES (?1, ?2, ?3)")
            .map_err(db_error)?;
        for (term, added) in terms {
            let before = if fresh {
                0
            } else {
                match get.query_row([&term], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?))).optional() {
                    Ok(Some((n, sum))) if sum == rows::term_count_sum(&term, n) => n,
                    Ok(Some(_)) => return Err(rows::damaged(format!("the count row of term {term:?}"))),
                    Ok(None) => 0,
                    Err(e) => return Err(db_error(e)),
                }
            };
            let n = before + added;
            put.execute(params![term, n, rows::term_count_sum(&term, n)]).map_err(db_error)?;
        }
        let mut spaces: Vec<(String, (i64, i64))> = self.spaces.drain().collect();
        spaces.sort_unstable();
        let mut add = self
            .tx
            .prepare_cached(
                "INSERT INTO namespace_stats (namespace, docs, total_len) VALUES (?1, ?2, ?3) \
                 ON CONFLICT (namespace) DO UPDATE SET docs = docs + excluded.docs, total_len = total_len + excluded.total_len",
            )
            .map_err(db_error)?;
        for (ns, (docs, len)) in spaces {
            add.execute(params![ns, docs, len]).map_err(db_error)?;
        }
        let Stats { grains, docs, total_len } = self.stats;
        self.tx
            .execute(
                "UPDATE stats SET grains = ?1, docs = ?2, total_len = ?3, sum = ?4 WHERE id = 1",
                params![grains, docs, total_len, rows::stats_sum(grains, docs, total_len)],
            )
            .map_err(db_error)?;
        Ok(())
    }
}

/// The id of a stored grain.
pub(crate) fn id_of(conn: &rusqlite::Connection, address: &ContentAddress) -> Result<Option<Id>> {
    let id: Option<i64> = conn
        .prepare_cached("SELECT id FROM grains WHERE address = ?1")
        .and_then(|mut s| s.query_row([&address.as_bytes()[..]], |r| r.get(0)).optional())
        .map_err(db_error)?;
    id.map(|id| Id::try_from(id).map_err(|_| rows::damaged(format!("grain id {id} is out of range")))).transpose()
}

/// Writes a grain's index state (the whole state; an empty one is stored too,
/// so that clearing a field is durable).
pub(crate) fn write_state(tx: &Transaction<'_>, id: Id, state: &IndexState) -> Result<()> {
    let bytes = rows::encode_state(state)?;
    let sum = rows::state_sum(i64::from(id), &bytes);
    tx.prepare_cached("INSERT OR REPLACE INTO grain_state (id, state, sum) VALUES (?1, ?2, ?3)")
        .and_then(|mut s| s.execute(params![i64::from(id), bytes, sum]))
        .map_err(db_error)?;
    Ok(())
}

/// Records that `new` supersedes `old` (append-only: a grain already recorded
/// on either side keeps its first record).
pub(crate) fn write_supersession(
    tx: &Transaction<'_>,
    new: Id,
    old: Id,
    at_ms: i64,
    justification: Option<&str>,
) -> Result<()> {
    let recorded: Option<i64> = tx
        .prepare_cached("SELECT 1 FROM supersessions WHERE new_id = ?1 OR old_id = ?2")
        .and_then(|mut s| s.query_row(params![i64::from(new), i64::from(old)], |r| r.get(0)).optional())
        .map_err(db_error)?;
    if recorded.is_none() {
        tx.prepare_cached("INSERT INTO supersessions (new_id, old_id, at_ms, justification) VALUES (?1, ?2, ?3, ?4)")
            .and_then(|mut s| s.execute(params![i64::from(new), i64::from(old), at_ms, justification]))
            .map_err(db_error)?;
    }
    Ok(())
}

/// Why a bulk import must take the rules path instead: a grain whose
/// consent effects or claims the in-memory rules must judge.
enum NeedsRules {
    No,
    Yes,
}

/// Whether a parsed grain brings consent effects: it is a withdrawal, or its
/// basis has a stored withdrawal.
fn consent_effects(
    tx: &Transaction<'_>,
    p: &Prepared<'_>,
    withdrawn: &mut HashMap<String, bool>,
) -> Result<NeedsRules> {
    if p.withdrawal {
        return Ok(NeedsRules::Yes);
    }
    let Some(basis) = p.basis.as_deref() else { return Ok(NeedsRules::No) };
    let has = match withdrawn.get(basis) {
        Some(has) => *has,
        None => {
            let has = !super::read::postings(tx, Key::PriorConsent as i64, basis)?.is_empty();
            withdrawn.insert(basis.to_string(), has);
            has
        }
    };
    Ok(if has { NeedsRules::Yes } else { NeedsRules::No })
}

/// Writes entries in bulk: one thread parses and prepares the next batch
/// while this one writes the current batch (SQLite's writer is the
/// bottleneck; more parsing threads only take the core it needs). Returns the number of new grains, or
/// `true` when a grain needs the rules path (nothing is then worth keeping).
fn bulk(tx: &Transaction<'_>, entries: &[&[u8]]) -> Result<(usize, bool)> {
    std::thread::scope(|scope| {
        let (send, batches) = std::sync::mpsc::sync_channel::<Result<Vec<Prepared<'_>>>>(1);
        scope.spawn(move || {
            for batch in entries.chunks(BATCH) {
                let prepared: Result<Vec<Prepared<'_>>> = batch.iter().map(|e| Prepared::from_entry(e)).collect();
                let failed = prepared.is_err();
                if send.send(prepared).is_err() || failed {
                    break;
                }
            }
        });
        let mut ingest = Ingest::begin(tx)?;
        let mut withdrawn = HashMap::new();
        let mut added = 0;
        for prepared in batches {
            let prepared = prepared?;
            for p in &prepared {
                if matches!(consent_effects(tx, p, &mut withdrawn)?, NeedsRules::Yes) {
                    return Ok((0, true));
                }
            }
            for p in prepared {
                if ingest.add_prepared(p)?.is_some() {
                    added += 1;
                }
            }
            ingest.flush()?;
        }
        ingest.finish()?;
        Ok((added, false))
    })
}

impl DurableStore {
    /// Imports a `.mg` file in one transaction, so a failed import leaves the
    /// store as it was; grains already stored are kept as they are.
    ///
    /// A file that carries no manifest and no consent effects (the common
    /// case, and every large generated file) is written in bulk: each batch
    /// verified (address, schema, signature) on every core, then written.
    /// Any other file is judged by the in-memory store's own import
    /// (`Store::import`: every manifest claim replayed through the
    /// invalidation policy, withdrawals applied) on a scratch store holding
    /// the file and the stored grains its rules can reach, and what that
    /// changed is written back.
    pub fn import_mg(&self, bytes: &[u8]) -> Result<ImportReport> {
        self.writable()?;
        let mut conn = self.conn();
        super::with_import_cache(&mut conn, |conn| self.import_locked(conn, bytes))
    }

    fn import_locked(&self, conn: &mut rusqlite::Connection, bytes: &[u8]) -> Result<ImportReport> {
        let file = MgFile::open(bytes)?;
        let all = file.entries().collect::<Result<Vec<&[u8]>>>()?;
        let in_file = all.len();
        let (sealed, entries): (Vec<&[u8]>, Vec<&[u8]>) = all.into_iter().partition(|e| is_sealed_entry(e));
        let sealed = sealed.into_iter().map(parse_sealed).collect::<Result<Vec<_>>>()?;
        let manifest = file.manifest().cloned().unwrap_or_default();
        if let Some(g) = sealed.iter().find(|g| manifest.contains_key(&g.address)) {
            return Err(OmsError::schema(
                "manifest",
                format!("index state for {}, an encrypted grain whose claims this store cannot judge", g.address),
            ));
        }
        let now = self.now();
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(db_error)?;
        let mut report = ImportReport { in_file, added: 0, states: manifest.len() };
        let mut rules = !manifest.is_empty();
        if !rules {
            tx.execute_batch("SAVEPOINT bulk").map_err(db_error)?;
            let (added, needs_rules) = bulk(&tx, &entries)?;
            report.added = added;
            rules = needs_rules;
            // Start again from what the store held, keeping the write lock.
            let end = if rules { "ROLLBACK TO bulk; RELEASE bulk" } else { "RELEASE bulk" };
            tx.execute_batch(end).map_err(db_error)?;
        }
        if rules {
            let parsed = parse_all(&entries)?;
            let mut seeds = super::write::Seeds::default();
            for p in &parsed {
                seeds.add_grain(&p.grain, p.address);
            }
            for state in manifest.values() {
                if let Some(by) = state.superseded_by {
                    seeds.add_grain_address(by);
                }
            }
            drop(parsed);
            let (_, written) = self.evolve_in(&tx, &seeds, usize::MAX, |scratch| scratch.import(bytes))?;
            report.added = written.added.len();
        }
        for g in &sealed {
            report.added += tx
                .execute(
                    "INSERT OR IGNORE INTO sealed (address, blob) VALUES (?1, ?2)",
                    params![g.address.as_bytes().as_slice(), g.blob()],
                )
                .map_err(db_error)?;
        }
        super::verify::append_audit(
            &tx,
            now,
            &serde_json::json!({
                "op": "import",
                "file_sha256": crate::address::hex(&<sha2::Sha256 as sha2::Digest>::digest(bytes)),
                "grains": report.in_file,
                "added": report.added,
                "states": report.states,
            }),
        )?;
        tx.commit().map_err(db_error)?;
        Ok(report)
    }
}
