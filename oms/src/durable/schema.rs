//! The database layout of a durable store, created once by [`create`] and
//! checked by [`check`] every time a store is opened.
//!
//! Append-only by construction: `grains`, `supersessions`, `reverts`,
//! `templates` and `audit` refuse every `UPDATE` and `DELETE` through
//! triggers, so not even a hand-written statement can rewrite or remove a
//! grain. Only the index layer (`grain_state`, the counters of `stats`,
//! `posting_counts`, `term_counts`, `tokens_used`, `quotas`) changes in
//! place, as OMS §5.6 allows; index segments (`postings`, `terms`) are only
//! ever added. Each posting list and term also has a count row, so that a
//! segment lost to damage is noticed by the query that needs it.

use rusqlite::Connection;

use crate::error::{CorruptReason, OmsError, Result};

/// `PRAGMA application_id` of a CAL store database: ASCII `CALS`.
pub const APPLICATION_ID: i32 = 0x4341_4C53;

/// `PRAGMA user_version`: the layout version this code reads and writes.
/// Version 1 (development builds of 2026-11-25 only) had no count rows and
/// other checksums; such a file is refused as an unsupported layout.
/// Version 2 lacked the Tier 1 control tables (`switches`, `rate_events`),
/// version 3 the per-namespace search statistics (`namespace_stats`), version 4
/// the embedder setting and the grains' vectors (`settings`, `vectors`), version 5
/// the grains held as encrypted bytes (`sealed`, ruling C27): all are read as they
/// are, and upgraded in place when opened for writing ([`upgrade`]).
pub const SCHEMA_VERSION: i32 = 6;

/// The tables versions 3 to 6 added, created by [`create`] and by [`upgrade`].
const CONTROL_TABLES: &str = r"
CREATE TABLE IF NOT EXISTS switches (
    name   TEXT    PRIMARY KEY,
    on_    INTEGER NOT NULL,
    set_at INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS rate_events (
    bucket TEXT    NOT NULL,
    at_ms  INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS rate_events_bucket ON rate_events (bucket, at_ms);

CREATE TABLE IF NOT EXISTS namespace_stats (
    namespace TEXT    PRIMARY KEY,
    docs      INTEGER NOT NULL,
    total_len INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS settings (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS vectors (
    grain_id  INTEGER NOT NULL,
    model     TEXT    NOT NULL,
    type      INTEGER NOT NULL,
    namespace TEXT    NOT NULL,
    vector    BLOB    NOT NULL,
    PRIMARY KEY (model, grain_id)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS sealed (
    address BLOB PRIMARY KEY,
    blob    BLOB NOT NULL
) WITHOUT ROWID;
";

/// The tables whose rows may never be updated or deleted.
pub const APPEND_ONLY_TABLES: &[&str] = &["grains", "supersessions", "reverts", "templates", "audit"];

/// For the small append-only tables, the condition under which an insert
/// would displace an existing row: `INSERT OR REPLACE` deletes the row it
/// conflicts with, and SQLite fires delete triggers for that only with
/// `recursive_triggers`, which every connection of the store turns on but a
/// foreign connection might not. `grains` has no such trigger: on a table
/// written a million rows at a time it cost a tenth of a bulk import (a
/// statement journal per insert), every store connection refuses a REPLACE
/// through the delete trigger, and a grain replaced by a foreign connection
/// no longer matches its address or its index entries, which `verify`
/// reports (`grains_cannot_be_rewritten_or_deleted_even_by_hand`).
const DISPLACES: &[(&str, &str)] = &[
    (
        "supersessions",
        "EXISTS (SELECT 1 FROM supersessions WHERE new_id = NEW.new_id) \
         OR EXISTS (SELECT 1 FROM supersessions WHERE old_id = NEW.old_id)",
    ),
    ("reverts", "EXISTS (SELECT 1 FROM reverts WHERE seq = NEW.seq)"),
    ("templates", "EXISTS (SELECT 1 FROM templates WHERE seq = NEW.seq)"),
    ("audit", "EXISTS (SELECT 1 FROM audit WHERE seq = NEW.seq)"),
];

const TABLES: &str = r"
CREATE TABLE grains (
    id          INTEGER PRIMARY KEY,
    address     BLOB    NOT NULL UNIQUE,
    type        INTEGER NOT NULL,
    created_at  INTEGER,
    blob        BLOB    NOT NULL,
    cose        BLOB,
    signer      TEXT
);
CREATE INDEX grains_created ON grains (created_at, id);

CREATE TABLE grain_state (
    id    INTEGER PRIMARY KEY,
    state BLOB    NOT NULL,
    sum   INTEGER NOT NULL
);

CREATE TABLE supersessions (
    new_id        INTEGER PRIMARY KEY,
    old_id        INTEGER NOT NULL UNIQUE,
    at_ms         INTEGER NOT NULL,
    justification TEXT
);

CREATE TABLE reverts (
    seq         INTEGER PRIMARY KEY,
    target_id   INTEGER NOT NULL,
    restored_id INTEGER NOT NULL,
    new_id      INTEGER NOT NULL,
    at_ms       INTEGER NOT NULL
);

CREATE TABLE postings (
    key   INTEGER NOT NULL,
    hash  INTEGER NOT NULL,
    seg   INTEGER NOT NULL,
    ids   BLOB    NOT NULL,
    sum   INTEGER NOT NULL,
    PRIMARY KEY (key, hash, seg)
) WITHOUT ROWID;

CREATE TABLE posting_counts (
    key  INTEGER NOT NULL,
    hash INTEGER NOT NULL,
    n    INTEGER NOT NULL,
    sum  INTEGER NOT NULL,
    PRIMARY KEY (key, hash)
) WITHOUT ROWID;

CREATE TABLE term_counts (
    term TEXT    NOT NULL PRIMARY KEY,
    n    INTEGER NOT NULL,
    sum  INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE terms (
    term     TEXT    NOT NULL,
    seg      INTEGER NOT NULL,
    postings BLOB    NOT NULL,
    sum      INTEGER NOT NULL,
    PRIMARY KEY (term, seg)
) WITHOUT ROWID;

CREATE TABLE stats (
    id        INTEGER PRIMARY KEY CHECK (id = 1),
    grains    INTEGER NOT NULL,
    docs      INTEGER NOT NULL,
    total_len INTEGER NOT NULL,
    sum       INTEGER NOT NULL
);

CREATE TABLE templates (
    seq        INTEGER PRIMARY KEY,
    namespace  TEXT    NOT NULL,
    name       TEXT    NOT NULL,
    body       TEXT    NOT NULL,
    defined_at INTEGER NOT NULL
);
CREATE INDEX templates_name ON templates (namespace, name, seq);

CREATE TABLE tokens_used (
    token_id      TEXT    PRIMARY KEY,
    uses          INTEGER NOT NULL,
    first_used_at INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE quotas (
    token_id TEXT    PRIMARY KEY,
    used     INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE audit (
    seq   INTEGER PRIMARY KEY,
    at_ms INTEGER NOT NULL,
    entry TEXT    NOT NULL,
    prev  BLOB    NOT NULL,
    hash  BLOB    NOT NULL
);
";

/// Creates the layout in an empty database (inside the caller's transaction).
pub(crate) fn create(conn: &Connection) -> Result<()> {
    let mut sql = String::from(TABLES);
    sql.push_str(CONTROL_TABLES);
    for table in APPEND_ONLY_TABLES {
        for op in ["UPDATE", "DELETE"] {
            sql.push_str(&format!(
                "CREATE TRIGGER {table}_no_{op} BEFORE {op} ON {table} \
                 BEGIN SELECT RAISE(ABORT, '{table} is append-only: a stored row is never {verb}'); END;\n",
                op = op.to_lowercase(),
                verb = if op == "UPDATE" { "rewritten" } else { "deleted" },
            ));
        }
    }
    for (table, clash) in DISPLACES {
        sql.push_str(&format!(
            "CREATE TRIGGER {table}_no_replace BEFORE INSERT ON {table} \
             WHEN {clash} \
             BEGIN SELECT RAISE(ABORT, '{table} is append-only: a stored row is never replaced'); END;\n"
        ));
    }
    sql.push_str(&format!(
        "PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {SCHEMA_VERSION};
         INSERT INTO stats (id, grains, docs, total_len, sum) VALUES (1, 0, 0, 0, {});",
        super::rows::stats_sum(0, 0, 0)
    ));
    conn.execute_batch(&sql).map_err(super::db_error)
}

/// Checks that an opened database is a CAL store of a layout this code knows.
pub(crate) fn check(conn: &Connection) -> Result<()> {
    let app: i32 = conn.pragma_query_value(None, "application_id", |r| r.get(0)).map_err(super::db_error)?;
    let version: i32 = conn.pragma_query_value(None, "user_version", |r| r.get(0)).map_err(super::db_error)?;
    if app != APPLICATION_ID {
        return Err(OmsError::corrupt(CorruptReason::Container(format!(
            "not a CAL store: the database's application_id is {app:#x}, a store's is {APPLICATION_ID:#x} \
             (create one with `cal store init`)"
        ))));
    }
    if !(2..=SCHEMA_VERSION).contains(&version) {
        return Err(OmsError::Unsupported {
            feature: format!("store layout version {version} (this toolchain reads version {SCHEMA_VERSION})"),
        });
    }
    Ok(())
}

/// Brings a store of an older version to [`SCHEMA_VERSION`] (adds the tables it lacks, and
/// fills the statistics it never kept), inside one transaction; a current store is left alone.
pub(crate) fn upgrade(conn: &Connection) -> Result<()> {
    let version: i32 = conn.pragma_query_value(None, "user_version", |r| r.get(0)).map_err(super::db_error)?;
    if version == SCHEMA_VERSION {
        return Ok(());
    }
    let tx = conn.unchecked_transaction().map_err(super::db_error)?;
    tx.execute_batch(CONTROL_TABLES).map_err(super::db_error)?;
    if version < 4 {
        backfill_namespace_stats(&tx)?;
    }
    tx.execute_batch(&format!("PRAGMA user_version = {SCHEMA_VERSION};")).map_err(super::db_error)?;
    tx.commit().map_err(super::db_error)
}

/// Fills `namespace_stats` from the stored grains (a store made before version 4).
fn backfill_namespace_stats(conn: &Connection) -> Result<()> {
    let mut spaces: std::collections::BTreeMap<String, (i64, i64)> = std::collections::BTreeMap::new();
    let mut stmt = conn.prepare("SELECT blob FROM grains").map_err(super::db_error)?;
    let mut rows = stmt.query([]).map_err(super::db_error)?;
    while let Some(row) = rows.next().map_err(super::db_error)? {
        let blob: Vec<u8> = row.get(0).map_err(super::db_error)?;
        let g = crate::grain::decode(&blob)?;
        let len: u32 = crate::store::search::terms_of(&g).iter().map(|(_, n)| n).sum();
        let e = spaces.entry(g.namespace().unwrap_or("").to_string()).or_default();
        e.0 += 1;
        e.1 += i64::from(len);
    }
    for (ns, (docs, len)) in spaces {
        conn.execute(
            "INSERT OR REPLACE INTO namespace_stats (namespace, docs, total_len) VALUES (?1, ?2, ?3)",
            rusqlite::params![ns, docs, len],
        )
        .map_err(super::db_error)?;
    }
    Ok(())
}
