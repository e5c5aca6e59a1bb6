//! Checking a whole store, its statistics, its audit chain, and export to
//! `.mg`.
//!
//! [`DurableStore::verify`] trusts nothing it reads: SQLite's own integrity
//! check, every blob re-hashed and decoded, every signature re-verified,
//! every index recomputed from the blobs and compared with the stored
//! segments, the statistics recounted, every supersession recomputed
//! (both grains exist, same type, the new one derives from the old, the old
//! one's state names the new one) and the audit chain re-hashed. The first
//! fault is the error, named with its `ERR_` code.

use std::collections::{BTreeMap, HashMap};

use rusqlite::{Connection, Transaction, params};
use sha2::{Digest, Sha256};

use super::ingest::{index_keys, read_stats};
use super::read::{load_all, sealed_rows};
use super::rows::TermPosting;
use super::{DurableStore, db_error};
use crate::address::{ContentAddress, hex};
use crate::cose;
use crate::error::{CorruptReason, OmsError, Result};
use crate::mg::{Manifest, PackOptions, pack};
use crate::store::SaveOptions;
use crate::store::indexes::Id;
use crate::store::record::derived_from;
use crate::store::search::terms_of;

/// What `verify` checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VerifyReport {
    /// Grains re-hashed and decoded.
    pub grains: usize,
    /// Signed grains whose signatures were verified.
    pub signed: usize,
    /// Index state rows checked.
    pub states: usize,
    /// Supersession records recomputed.
    pub supersessions: usize,
    /// Posting keys and text terms recomputed and compared.
    pub index_keys: usize,
    /// Audit entries whose chain was re-hashed.
    pub audit_entries: usize,
}

/// Figures about a store (`cal store stats`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StoreStats {
    /// Grains held.
    pub grains: u64,
    /// Grains per type name.
    pub by_type: BTreeMap<String, u64>,
    /// Grains with a successor (superseded).
    pub superseded: u64,
    /// Supersession records.
    pub supersessions: u64,
    /// Audit entries.
    pub audit_entries: u64,
    /// Grains held as encrypted bytes (ruling C27), not counted in `grains`.
    pub encrypted: u64,
    /// Named templates (all versions).
    pub templates: u64,
    /// Distinct text terms.
    pub terms: u64,
    /// Bytes of the database file (without its WAL).
    pub file_bytes: u64,
}

/// The hash that starts the audit chain.
const GENESIS: [u8; 32] = [0; 32];

fn audit_hash(prev: &[u8], at_ms: i64, entry: &str) -> Vec<u8> {
    let mut h = Sha256::new();
    h.update(prev);
    h.update(at_ms.to_be_bytes());
    h.update(entry.as_bytes());
    h.finalize().to_vec()
}

/// Appends an entry to the audit chain: its hash covers the previous hash,
/// its time and its text, so removing, reordering or editing an entry
/// breaks every later link.
pub(crate) fn append_audit(tx: &Transaction<'_>, at_ms: i64, entry: &serde_json::Value) -> Result<()> {
    let text = entry.to_string();
    let prev: Vec<u8> = tx
        .query_row("SELECT hash FROM audit ORDER BY seq DESC LIMIT 1", [], |r| r.get(0))
        .or_else(|e| if matches!(e, rusqlite::Error::QueryReturnedNoRows) { Ok(GENESIS.to_vec()) } else { Err(e) })
        .map_err(db_error)?;
    let hash = audit_hash(&prev, at_ms, &text);
    tx.execute(
        "INSERT INTO audit (at_ms, entry, prev, hash) VALUES (?1, ?2, ?3, ?4)",
        params![at_ms, text, prev, hash],
    )
    .map_err(db_error)?;
    Ok(())
}

fn integrity(what: impl Into<String>) -> OmsError {
    OmsError::Integrity { what: what.into() }
}

fn check_audit(conn: &Connection) -> Result<usize> {
    let mut stmt = conn.prepare("SELECT seq, at_ms, entry, prev, hash FROM audit ORDER BY seq").map_err(db_error)?;
    let mut rows = stmt.query([]).map_err(db_error)?;
    let mut expect_prev = GENESIS.to_vec();
    let mut n = 0;
    while let Some(row) = rows.next().map_err(db_error)? {
        let (seq, at, entry, prev, hash): (i64, i64, String, Vec<u8>, Vec<u8>) = (
            row.get(0).map_err(db_error)?,
            row.get(1).map_err(db_error)?,
            row.get(2).map_err(db_error)?,
            row.get(3).map_err(db_error)?,
            row.get(4).map_err(db_error)?,
        );
        if prev != expect_prev {
            return Err(integrity(format!(
                "audit entry {seq} does not follow the one before it (the chain is broken)"
            )));
        }
        if hash != audit_hash(&prev, at, &entry) {
            return Err(integrity(format!("audit entry {seq} was altered (its hash does not match)")));
        }
        expect_prev = hash;
        n += 1;
    }
    Ok(n)
}

impl DurableStore {
    /// Checks the audit chain alone: every entry follows the one before it and is unaltered.
    /// Returns the number of entries.
    pub fn verify_audit(&self) -> Result<usize> {
        check_audit(&self.conn())
    }

    /// Checks everything (see the module docs); the first fault is the error.
    pub fn verify(&self) -> Result<VerifyReport> {
        let conn = self.snapshot()?;
        let check: String = conn.query_row("PRAGMA integrity_check(1)", [], |r| r.get(0)).map_err(db_error)?;
        if check != "ok" {
            return Err(OmsError::corrupt(CorruptReason::Container(format!("SQLite integrity check: {check}"))));
        }
        super::schema::check(&conn)?;
        // Every encrypted grain still hashes to the address it is stored under.
        sealed_rows(&conn)?;
        let mut report = VerifyReport::default();
        let mut expect_postings: HashMap<(i64, i64), Vec<Id>> = HashMap::new();
        let mut expect_terms: HashMap<String, Vec<TermPosting>> = HashMap::new();
        let mut addresses: HashMap<ContentAddress, Id> = HashMap::new();
        let mut chain: HashMap<Id, (ContentAddress, Option<ContentAddress>, u8, Vec<ContentAddress>)> = HashMap::new();
        let mut total_len: i64 = 0;
        let mut spaces: std::collections::BTreeMap<String, (i64, i64)> = std::collections::BTreeMap::new();
        load_all(&conn, |id, r| {
            if let Some(signer) = r.body.signer() {
                let v = cose::verify(r.body.entry())
                    .map_err(|e| integrity(format!("grain {}: its signature no longer verifies: {e}", r.address)))?;
                if v.address != r.address || v.signer != signer {
                    return Err(integrity(format!(
                        "grain {}: its envelope does not match the stored grain",
                        r.address
                    )));
                }
                report.signed += 1;
            }
            for k in index_keys(&r) {
                expect_postings.entry(k).or_default().push(id);
            }
            let tf = terms_of(r.body.grain());
            let dl: u32 = tf.iter().map(|(_, n)| n).sum();
            total_len += i64::from(dl);
            let space = spaces.entry(r.body.grain().namespace().unwrap_or("").to_string()).or_default();
            space.0 += 1;
            space.1 += i64::from(dl);
            for (term, n) in tf {
                expect_terms.entry(term).or_default().push(TermPosting { id, tf: n, dl });
            }
            addresses.insert(r.address, id);
            chain.insert(
                id,
                (r.address, r.state.superseded_by, r.body.grain().grain_type().byte(), derived_from(r.body.grain())),
            );
            if r.state.superseded_by.is_some() || !r.state.is_default() {
                report.states += 1;
            }
            report.grains += 1;
            Ok(())
        })?;
        let stats = read_stats(&conn)?;
        if usize::try_from(stats.grains).ok() != Some(report.grains)
            || stats.docs != stats.grains
            || stats.total_len != total_len
        {
            return Err(integrity(format!(
                "the statistics row says {} grains and {} terms, the store holds {} and {total_len}",
                stats.grains, stats.total_len, report.grains
            )));
        }
        // The per-namespace search statistics (version 4; a version 3 store has none).
        let stored_spaces: Option<std::collections::BTreeMap<String, (i64, i64)>> =
            match conn.prepare("SELECT namespace, docs, total_len FROM namespace_stats") {
                Ok(mut stmt) => Some(
                    stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, (r.get::<_, i64>(1)?, r.get::<_, i64>(2)?))))
                        .map_err(db_error)?
                        .collect::<rusqlite::Result<_>>()
                        .map_err(db_error)?,
                ),
                Err(rusqlite::Error::SqliteFailure(_, Some(m))) if m.starts_with("no such table") => None,
                Err(e) => return Err(db_error(e)),
            };
        if let Some(stored) = stored_spaces
            && stored != spaces
        {
            return Err(integrity("the per-namespace search statistics do not match the stored grains"));
        }
        // Every index key recomputed from the blobs equals its stored segments.
        let mut stmt = conn.prepare("SELECT DISTINCT key, hash FROM postings").map_err(db_error)?;
        let stored_keys: Vec<(i64, i64)> = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(db_error)?
            .collect::<rusqlite::Result<_>>()
            .map_err(db_error)?;
        for (key, hash) in &stored_keys {
            let what = format!("key {key}, value hash {hash:#x}");
            let got = super::read::postings_of_hash(&conn, *key, *hash, &what)?;
            let want = expect_postings.remove(&(*key, *hash)).unwrap_or_default();
            if got != want {
                return Err(integrity(format!("the index under {what} does not match the grains")));
            }
            report.index_keys += 1;
        }
        if let Some(((key, hash), ids)) = expect_postings.into_iter().next() {
            return Err(integrity(format!(
                "the index under key {key}, value hash {hash:#x} is missing (it should list {} grain(s))",
                ids.len()
            )));
        }
        let mut stmt = conn.prepare("SELECT DISTINCT term FROM terms").map_err(db_error)?;
        let stored_terms: Vec<String> =
            stmt.query_map([], |r| r.get(0)).map_err(db_error)?.collect::<rusqlite::Result<_>>().map_err(db_error)?;
        for term in &stored_terms {
            let got = super::read::term_postings(&conn, term)?;
            if Some(&got) != expect_terms.remove(term).as_ref() {
                return Err(integrity(format!("the text index of {term:?} does not match the grains")));
            }
            report.index_keys += 1;
        }
        if let Some((term, _)) = expect_terms.into_iter().next() {
            return Err(integrity(format!("the text index of {term:?} is missing")));
        }
        // Count rows whose lists are gone entirely (the lookups above checked the others).
        let orphans: i64 = conn
            .query_row(
                "SELECT (SELECT count(*) FROM posting_counts c WHERE NOT EXISTS \
                   (SELECT 1 FROM postings p WHERE p.key = c.key AND p.hash = c.hash)) \
                 + (SELECT count(*) FROM term_counts c WHERE NOT EXISTS (SELECT 1 FROM terms t WHERE t.term = c.term))",
                [],
                |r| r.get(0),
            )
            .map_err(db_error)?;
        if orphans > 0 {
            return Err(integrity(format!("{orphans} index count row(s) name lists that are gone")));
        }
        // Supersession recomputed.
        let mut stmt = conn.prepare("SELECT new_id, old_id FROM supersessions ORDER BY new_id").map_err(db_error)?;
        let records: Vec<(i64, i64)> = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(db_error)?
            .collect::<rusqlite::Result<_>>()
            .map_err(db_error)?;
        for (new, old) in records {
            let lookup = |id: i64| Id::try_from(id).ok().and_then(|id| chain.get(&id));
            let (Some(n), Some(o)) = (lookup(new), lookup(old)) else {
                return Err(integrity(format!(
                    "a supersession record names grain {new} or {old}, which is not stored"
                )));
            };
            if o.1 != Some(n.0) {
                return Err(integrity(format!(
                    "{} is recorded as superseded by {}, but its state disagrees",
                    o.0, n.0
                )));
            }
            if n.2 != o.2 {
                return Err(integrity(format!("{} supersedes {} of another type", n.0, o.0)));
            }
            report.supersessions += 1;
        }
        let superseded: std::collections::HashSet<i64> = {
            let mut stmt = conn.prepare("SELECT old_id FROM supersessions").map_err(db_error)?;
            stmt.query_map([], |r| r.get(0)).map_err(db_error)?.collect::<rusqlite::Result<_>>().map_err(db_error)?
        };
        for (id, (address, by, _, _)) in &chain {
            if by.is_some() && !superseded.contains(&i64::from(*id)) {
                return Err(integrity(format!(
                    "{address} is marked superseded, but its supersession record is missing"
                )));
            }
            if let Some(by) = by
                && !addresses.contains_key(by)
            {
                return Err(integrity(format!("{address} is marked superseded by {by}, which is not stored")));
            }
        }
        report.audit_entries = check_audit(&conn)?;
        Ok(report)
    }

    /// Figures about the store.
    pub fn stats(&self) -> Result<StoreStats> {
        let conn = self.snapshot()?;
        let count = |sql: &str| -> Result<u64> {
            conn.query_row(sql, [], |r| r.get::<_, i64>(0)).map_err(db_error).map(|n| u64::try_from(n).unwrap_or(0))
        };
        let mut by_type = BTreeMap::new();
        let mut stmt =
            conn.prepare("SELECT type, count(*) FROM grains GROUP BY type ORDER BY type").map_err(db_error)?;
        let rows: Vec<(i64, i64)> = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(db_error)?
            .collect::<rusqlite::Result<_>>()
            .map_err(db_error)?;
        for (t, n) in rows {
            let name = u8::try_from(t)
                .ok()
                .and_then(|b| crate::types::GrainType::from_byte(b).ok())
                .and_then(crate::types::GrainType::name)
                .map_or_else(|| format!("0x{t:02x}"), str::to_string);
            by_type.insert(name, u64::try_from(n).unwrap_or(0));
        }
        let file_bytes = std::fs::metadata(&self.path).map_or(0, |m| m.len());
        Ok(StoreStats {
            grains: u64::try_from(read_stats(&conn)?.grains).unwrap_or(0),
            by_type,
            superseded: count("SELECT count(*) FROM supersessions")?,
            supersessions: count("SELECT count(*) FROM supersessions")?,
            audit_entries: count("SELECT count(*) FROM audit")?,
            encrypted: u64::try_from(sealed_rows(&conn)?.len()).unwrap_or(0),
            templates: count("SELECT count(*) FROM templates")?,
            terms: count("SELECT count(DISTINCT term) FROM terms")?,
            file_bytes,
        })
    }

    /// The store as a `.mg` file: every grain (envelopes for signed grains)
    /// in insertion order, with a manifest of all non-default index state,
    /// exactly as [`crate::store::Store::save`] writes an in-memory store.
    pub fn export_mg(&self, opts: &SaveOptions) -> Result<Vec<u8>> {
        let conn = self.snapshot()?;
        // Encrypted grains first, as the in-memory store saves them: a reader finds the
        // manifest from the last grain's length, which ciphertext does not have.
        let mut entries: Vec<Vec<u8>> = sealed_rows(&conn)?.into_iter().map(|g| g.blob().to_vec()).collect();
        let mut manifest = Manifest::new();
        load_all(&conn, |_, r| {
            let st = if opts.include_local { r.snapshot() } else { r.state.portable_only() };
            if !st.is_default() {
                manifest.insert(r.address, st);
            }
            entries.push(r.body.entry().to_vec());
            Ok(())
        })?;
        let popts = PackOptions { compress: opts.compress, ..PackOptions::default() };
        pack(entries.iter().map(Vec::as_slice), Some(&manifest), &popts)
    }

    /// The SHA-256 of the store's portable content as `.mg` bytes (equal for
    /// equal content, whichever store holds it).
    pub fn digest(&self) -> Result<String> {
        Ok(hex(&Sha256::digest(self.export_mg(&SaveOptions::default())?)))
    }
}
