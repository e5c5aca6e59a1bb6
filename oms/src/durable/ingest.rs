//! Writing new grains: the `grains` row, the posting segments of every index
//! the in-memory store keeps (the same fields, [`crate::store::indexes::fields`]),
//! the text postings with their BM25 statistics, and `.mg` import in bulk.
//!
//! Postings are collected per batch and written as one segment row per key,
//! so importing a million grains writes a few rows per distinct value rather
//! than one per grain and value; a single `put` writes one small segment per
//! key. Segments are keyed by the first id they hold and never rewritten, so
//! reading a key's segments in key order yields its ids ascending.

use std::collections::HashMap;

use rusqlite::{OptionalExtension, Transaction, params};

use super::rows::{self, TermPosting};
use super::{DurableStore, db_error};
use crate::address::ContentAddress;
use crate::error::{OmsError, Result};
use crate::mg::{IndexState, MgFile};
use crate::store::indexes::{Id, Key, fields};
use crate::store::persist::parse_all;
use crate::store::record::{Parsed, Record};
use crate::store::search::terms_of;

/// Posting key of the grain-type index. The single-field keys use [`Key`]'s
/// values (small integers); the composite keys sit far above them.
pub(crate) const KEY_TYPE: i64 = 100;
/// Posting keys of the pair indexes: subject+relation, relation+object, subject+object.
pub(crate) const KEY_SP: i64 = 101;
pub(crate) const KEY_PO: i64 = 102;
pub(crate) const KEY_SO: i64 = 103;

/// The posting value of a pair.
pub(crate) fn pair_value(a: &str, b: &str) -> String {
    format!("{a}\u{0}{b}")
}

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

/// Writes new grains and their index rows inside one transaction.
pub(crate) struct Ingest<'t> {
    tx: &'t Transaction<'t>,
    next_id: i64,
    stats: Stats,
    postings: HashMap<(i64, String), Vec<Id>>,
    terms: HashMap<String, Vec<TermPosting>>,
}

impl<'t> Ingest<'t> {
    /// Starts writing after the last stored grain.
    pub(crate) fn begin(tx: &'t Transaction<'t>) -> Result<Ingest<'t>> {
        let stats = read_stats(tx)?;
        let max: Option<i64> = tx.query_row("SELECT max(id) FROM grains", [], |r| r.get(0)).map_err(db_error)?;
        Ok(Ingest { tx, next_id: max.map_or(0, |m| m + 1), stats, postings: HashMap::new(), terms: HashMap::new() })
    }

    /// The id of a stored grain.
    pub(crate) fn id_of(&self, address: &ContentAddress) -> Result<Option<Id>> {
        id_of(self.tx, address)
    }

    /// Stores one grain (unless its address is already stored) and collects
    /// its postings; returns its id when it was new.
    pub(crate) fn add(&mut self, p: Parsed) -> Result<Option<Id>> {
        if self.id_of(&p.address)?.is_some() {
            return Ok(None);
        }
        let id = Id::try_from(self.next_id)
            .map_err(|_| OmsError::Unsupported { feature: format!("more than {} grains in one store", Id::MAX) })?;
        let record = Record::new(p);
        let body = &record.body;
        self.tx
            .prepare_cached(
                "INSERT INTO grains (id, address, type, created_at, blob, cose, signer) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )
            .and_then(|mut s| {
                s.execute(params![
                    i64::from(id),
                    &record.address.as_bytes()[..],
                    i64::from(body.grain().grain_type().byte()),
                    record.created_at(),
                    body.blob(),
                    body.signer().map(|_| body.entry()),
                    body.signer(),
                ])
            })
            .map_err(db_error)?;
        self.next_id += 1;
        self.collect(id, &record);
        Ok(Some(id))
    }

    fn collect(&mut self, id: Id, r: &Record) {
        let keyed = fields(r);
        let find = |k: Key| keyed.iter().find(|(key, _)| *key == k).map(|(_, v)| *v);
        let mut keys: Vec<(i64, String)> = keyed.iter().map(|(k, v)| (*k as i64, (*v).to_string())).collect();
        let (s, p, o) = (find(Key::Subject), find(Key::Relation), find(Key::Object));
        for (key, a, b) in [(KEY_SP, s, p), (KEY_PO, p, o), (KEY_SO, s, o)] {
            if let (Some(a), Some(b)) = (a, b) {
                keys.push((key, pair_value(a, b)));
            }
        }
        keys.push((KEY_TYPE, r.body.grain().grain_type().byte().to_string()));
        for k in keys {
            let list = self.postings.entry(k).or_default();
            if list.last() != Some(&id) {
                list.push(id);
            }
        }
        let tf = terms_of(r.body.grain());
        let dl: u32 = tf.iter().map(|(_, n)| n).sum();
        for (term, n) in tf {
            self.terms.entry(term).or_default().push(TermPosting { id, tf: n, dl });
        }
        self.stats.grains += 1;
        self.stats.docs += 1;
        self.stats.total_len += i64::from(dl);
    }

    /// Writes the collected postings as segments and the statistics row.
    pub(crate) fn flush(&mut self) -> Result<()> {
        let mut ins = self
            .tx
            .prepare_cached("INSERT INTO postings (key, value, seg, ids, sum) VALUES (?1, ?2, ?3, ?4, ?5)")
            .map_err(db_error)?;
        let mut postings: Vec<_> = self.postings.drain().collect();
        postings.sort_unstable();
        for ((key, value), ids) in postings {
            let seg = i64::from(ids[0]);
            let bytes = rows::encode_ids(&ids);
            let sum = rows::postings_sum(key, &value, seg, &bytes);
            ins.execute(params![key, value, seg, bytes, sum]).map_err(db_error)?;
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
fn consent_effects(tx: &Transaction<'_>, p: &Parsed, withdrawn: &mut HashMap<String, bool>) -> Result<NeedsRules> {
    if crate::store::consent::withdraws(&p.grain).is_some() {
        return Ok(NeedsRules::Yes);
    }
    let Some(basis) = crate::store::record::str_field(&p.grain, "processing_basis") else { return Ok(NeedsRules::No) };
    if !withdrawn.contains_key(basis) {
        let has = !super::read::postings(tx, Key::PriorConsent as i64, basis)?.is_empty();
        withdrawn.insert(basis.to_string(), has);
    }
    Ok(if withdrawn[basis] { NeedsRules::Yes } else { NeedsRules::No })
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
        let file = MgFile::open(bytes)?;
        let entries = file.entries().collect::<Result<Vec<&[u8]>>>()?;
        let manifest = file.manifest().cloned().unwrap_or_default();
        let now = self.now();
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(db_error)?;
        let mut report = ImportReport { in_file: entries.len(), added: 0, states: manifest.len() };
        let mut rules = !manifest.is_empty();
        if !rules {
            let mut ingest = Ingest::begin(&tx)?;
            let mut withdrawn = HashMap::new();
            'batches: for batch in entries.chunks(BATCH) {
                let parsed = parse_all(batch)?;
                for p in &parsed {
                    if matches!(consent_effects(&tx, p, &mut withdrawn)?, NeedsRules::Yes) {
                        rules = true;
                        break 'batches;
                    }
                }
                for p in parsed {
                    if ingest.add(p)?.is_some() {
                        report.added += 1;
                    }
                }
                ingest.flush()?;
            }
        }
        if rules {
            // Start again inside the same transaction, from what the store held.
            tx.execute_batch("ROLLBACK; BEGIN IMMEDIATE").map_err(db_error)?;
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
