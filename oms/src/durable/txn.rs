//! One write transaction, composed by the caller: the grain writes of a
//! request together with the bookkeeping that must stand or fall with them
//! (a token's use, its write quota, the per-minute rate, the audit entry).
//!
//! [`DurableStore::transaction`] runs a closure inside one `BEGIN IMMEDIATE`
//! transaction and commits only when it returns `Ok`; any `Err` rolls
//! everything back, so a refused write spends no quota and leaves no audit
//! entry of a write that did not happen (the caller then records the refusal
//! in a transaction of its own). [`DurableStore::dry_run`] runs the same
//! closure and always rolls back: a preview judged by exactly the code that
//! will perform the write.
//!
//! The store still knows nothing of CAL: a token is an opaque id with a use
//! limit and a quota, a rate bucket an opaque name, an audit entry opaque
//! JSON, a template an opaque body under a name.

use rusqlite::{OptionalExtension, Transaction, TransactionBehavior, params};

use super::ingest::id_of;
use super::verify::append_audit;
use super::write::Seeds;
use super::{DurableStore, db_error};
use crate::address::ContentAddress;
use crate::error::{OmsError, Result};
use crate::store::record::parse_entry;

/// The store inside one write transaction (see the module docs).
pub struct Tx<'a> {
    pub(crate) store: &'a DurableStore,
    pub(crate) tx: &'a Transaction<'a>,
}

/// What the store answers a request to register a named template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TemplateSlot {
    /// Registered; the namespace now holds this many.
    Defined(usize),
    /// A template of that name exists in the namespace already.
    Taken,
    /// The namespace holds the maximum already.
    Full,
}

/// A named template as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredTemplate {
    /// Its namespace (`""` for requests confined to none).
    pub namespace: String,
    /// Its name.
    pub name: String,
    /// The definition, as the caller stored it.
    pub body: String,
    /// When it was defined (epoch ms).
    pub defined_at: i64,
}

/// One entry of the audit chain, as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditRecord {
    /// Its position in the chain, from 1.
    pub seq: i64,
    /// When it was appended (epoch ms).
    pub at_ms: i64,
    /// The entry.
    pub entry: serde_json::Value,
}

impl DurableStore {
    /// Runs `f` in one `BEGIN IMMEDIATE` transaction, committed only when it returns `Ok`
    /// (durable before this returns); an `Err` rolls back everything it did.
    pub fn transaction<T, E: From<OmsError>>(
        &self,
        f: impl FnOnce(&Tx<'_>) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E> {
        self.in_transaction(true, f)
    }

    /// Runs `f` as [`DurableStore::transaction`] would, then rolls everything back: what the
    /// writes would do, judged by the code that would do them.
    pub fn dry_run<T, E: From<OmsError>>(
        &self,
        f: impl FnOnce(&Tx<'_>) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E> {
        self.in_transaction(false, f)
    }

    fn in_transaction<T, E: From<OmsError>>(
        &self,
        commit: bool,
        f: impl FnOnce(&Tx<'_>) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E> {
        self.writable()?;
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(db_error)?;
        let out = f(&Tx { store: self, tx: &tx });
        match (commit, out) {
            (true, Ok(v)) => {
                tx.commit().map_err(db_error)?;
                Ok(v)
            }
            (_, out) => {
                tx.rollback().map_err(db_error)?;
                out
            }
        }
    }

    /// The named templates, oldest first.
    pub fn templates(&self) -> Result<Vec<StoredTemplate>> {
        let conn = self.conn();
        let mut stmt =
            conn.prepare("SELECT namespace, name, body, defined_at FROM templates ORDER BY seq").map_err(db_error)?;
        let rows = stmt
            .query_map([], |r| {
                Ok(StoredTemplate { namespace: r.get(0)?, name: r.get(1)?, body: r.get(2)?, defined_at: r.get(3)? })
            })
            .map_err(db_error)?;
        rows.collect::<rusqlite::Result<Vec<_>>>().map_err(db_error)
    }

    /// The audit chain, oldest first, from entry `from_seq` on.
    pub fn audit_entries(&self, from_seq: i64) -> Result<Vec<AuditRecord>> {
        let conn = self.conn();
        let mut stmt =
            conn.prepare("SELECT seq, at_ms, entry FROM audit WHERE seq >= ?1 ORDER BY seq").map_err(db_error)?;
        let rows = stmt
            .query_map(params![from_seq], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?, r.get::<_, String>(2)?)))
            .map_err(db_error)?;
        let mut out = Vec::new();
        for row in rows {
            let (seq, at_ms, text) = row.map_err(db_error)?;
            let entry = serde_json::from_str(&text)
                .map_err(|e| OmsError::Integrity { what: format!("audit entry {seq} is not JSON: {e}") })?;
            out.push(AuditRecord { seq, at_ms, entry });
        }
        Ok(out)
    }

    /// The value of a switch (`false` when never set).
    pub fn switch(&self, name: &str) -> Result<bool> {
        let conn = self.conn();
        switch_in(&conn, name)
    }

    /// Sets a switch, with the audit entry that records who set it and why, in one transaction.
    pub fn set_switch(&self, name: &str, on: bool, audit: &serde_json::Value) -> Result<()> {
        self.transaction(|tx| {
            tx.tx
                .execute(
                    "INSERT INTO switches (name, on_, set_at) VALUES (?1, ?2, ?3) \
                     ON CONFLICT (name) DO UPDATE SET on_ = excluded.on_, set_at = excluded.set_at",
                    params![name, on, tx.store.now()],
                )
                .map_err(db_error)?;
            tx.append_audit(audit)
        })
    }

    /// Appends one entry to the audit chain in its own transaction.
    pub fn append_audit(&self, entry: &serde_json::Value) -> Result<()> {
        self.transaction(|tx| tx.append_audit(entry))
    }
}

/// A switch's value; a version 2 store opened read-only has no switches table, and every
/// switch of it is off.
fn switch_in(conn: &rusqlite::Connection, name: &str) -> Result<bool> {
    match conn.query_row("SELECT on_ FROM switches WHERE name = ?1", params![name], |r| r.get::<_, bool>(0)) {
        Ok(on) => Ok(on),
        Err(rusqlite::Error::QueryReturnedNoRows) => Ok(false),
        Err(rusqlite::Error::SqliteFailure(_, Some(m))) if m.starts_with("no such table") => Ok(false),
        Err(e) => Err(db_error(e)),
    }
}

impl Tx<'_> {
    /// The store's clock.
    pub fn now(&self) -> i64 {
        self.store.now()
    }

    /// `put` (§28.4) inside this transaction, by the in-memory store's rules.
    pub fn put(&self, entry: &[u8]) -> Result<ContentAddress> {
        let parsed = parse_entry(entry)?;
        let seeds = Seeds::for_new(&parsed.grain, parsed.address);
        let (address, _) = self.store.evolve_in(self.tx, &seeds, super::write::MAX_WORKING_SET, |s| s.put(entry))?;
        Ok(address)
    }

    /// `supersede` (§28.4) inside this transaction: the policies protecting `old` (§23) are
    /// judged, the new grain stored and the supersession recorded.
    pub fn supersede(
        &self,
        old: &ContentAddress,
        new_entry: &[u8],
        justification: Option<&str>,
    ) -> Result<ContentAddress> {
        let seeds = Seeds::for_supersession(old, new_entry)?;
        let (address, _) = self.store.evolve_in(self.tx, &seeds, super::write::MAX_WORKING_SET, |s| {
            s.supersede(old, new_entry, justification)
        })?;
        Ok(address)
    }

    /// Records that `new` reverted `target` to the content of `restored` (the supersession
    /// itself is [`Tx::supersede`]'s).
    pub fn record_revert(
        &self,
        target: &ContentAddress,
        restored: &ContentAddress,
        new: &ContentAddress,
    ) -> Result<()> {
        let id = |a: &ContentAddress| id_of(self.tx, a)?.ok_or_else(|| OmsError::NotFound { address: a.to_string() });
        self.tx
            .execute(
                "INSERT INTO reverts (target_id, restored_id, new_id, at_ms) VALUES (?1, ?2, ?3, ?4)",
                params![id(target)?, id(restored)?, id(new)?, self.now()],
            )
            .map_err(db_error)?;
        Ok(())
    }

    /// The grain that supersedes `address` now, if any (`None` also when it is not stored).
    pub fn superseded_by(&self, address: &ContentAddress) -> Result<Option<ContentAddress>> {
        let Some(id) = id_of(self.tx, address)? else { return Ok(None) };
        let by: Option<Vec<u8>> = self
            .tx
            .query_row(
                "SELECT g.address FROM supersessions s JOIN grains g ON g.id = s.new_id WHERE s.old_id = ?1",
                params![id],
                |r| r.get(0),
            )
            .optional()
            .map_err(db_error)?;
        Ok(by.and_then(|b| <[u8; 32]>::try_from(b.as_slice()).ok()).map(ContentAddress::from_bytes))
    }

    /// Whether a grain is stored.
    pub fn exists(&self, address: &ContentAddress) -> Result<bool> {
        Ok(id_of(self.tx, address)?.is_some())
    }

    /// Records one use of `token_id` unless it has had `max_uses`; `false` when spent.
    pub fn spend_use(&self, token_id: &str, max_uses: u64) -> Result<bool> {
        super::tokens::spend_in(self.tx, token_id, max_uses, self.now())
    }

    /// Takes one unit of a token's write quota of `quota`; `false` when all are taken.
    pub fn take_quota(&self, token_id: &str, quota: u64) -> Result<bool> {
        if self.quota_used(token_id)? >= quota {
            return Ok(false);
        }
        self.tx
            .execute(
                "INSERT INTO quotas (token_id, used) VALUES (?1, 1) \
                 ON CONFLICT (token_id) DO UPDATE SET used = used + 1",
                params![token_id],
            )
            .map_err(db_error)?;
        Ok(true)
    }

    /// How much of a token's write quota is taken.
    pub fn quota_used(&self, token_id: &str) -> Result<u64> {
        let used: i64 = self
            .tx
            .query_row("SELECT used FROM quotas WHERE token_id = ?1", params![token_id], |r| r.get(0))
            .optional()
            .map_err(db_error)?
            .unwrap_or(0);
        Ok(u64::try_from(used).unwrap_or(u64::MAX))
    }

    /// Takes one slot of a sliding-window rate limit: at most `limit` takes of `bucket` in
    /// any `window_ms`; `false` (nothing recorded) when the window is full.
    pub fn take_rate(&self, bucket: &str, limit: u64, window_ms: i64) -> Result<bool> {
        let now = self.now();
        let since = now.saturating_sub(window_ms);
        self.tx
            .execute("DELETE FROM rate_events WHERE bucket = ?1 AND at_ms <= ?2", params![bucket, since])
            .map_err(db_error)?;
        let n: i64 = self
            .tx
            .query_row("SELECT count(*) FROM rate_events WHERE bucket = ?1", params![bucket], |r| r.get(0))
            .map_err(db_error)?;
        if u64::try_from(n).unwrap_or(u64::MAX) >= limit {
            return Ok(false);
        }
        self.tx
            .execute("INSERT INTO rate_events (bucket, at_ms) VALUES (?1, ?2)", params![bucket, now])
            .map_err(db_error)?;
        Ok(true)
    }

    /// The value of a switch, as this transaction sees it.
    pub fn switch(&self, name: &str) -> Result<bool> {
        switch_in(self.tx, name)
    }

    /// Appends one entry to the audit chain.
    pub fn append_audit(&self, entry: &serde_json::Value) -> Result<()> {
        append_audit(self.tx, self.now(), entry)
    }

    /// Registers the template `name` of `namespace` unless the name is taken there or the
    /// namespace holds `max` already.
    pub fn define_template(&self, namespace: &str, name: &str, body: &str, max: usize) -> Result<TemplateSlot> {
        let taken: bool = self
            .tx
            .query_row(
                "SELECT EXISTS (SELECT 1 FROM templates WHERE namespace = ?1 AND name = ?2)",
                params![namespace, name],
                |r| r.get(0),
            )
            .map_err(db_error)?;
        if taken {
            return Ok(TemplateSlot::Taken);
        }
        let held: i64 = self
            .tx
            .query_row("SELECT count(DISTINCT name) FROM templates WHERE namespace = ?1", params![namespace], |r| {
                r.get(0)
            })
            .map_err(db_error)?;
        let held = usize::try_from(held).unwrap_or(usize::MAX);
        if held >= max {
            return Ok(TemplateSlot::Full);
        }
        self.tx
            .execute(
                "INSERT INTO templates (namespace, name, body, defined_at) VALUES (?1, ?2, ?3, ?4)",
                params![namespace, name, body, self.now()],
            )
            .map_err(db_error)?;
        Ok(TemplateSlot::Defined(held + 1))
    }
}
