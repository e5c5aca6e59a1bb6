//! The durable store: OMS grains in one SQLite file that survives `kill -9`
//! and power loss, behind the same store protocol (§28.4) as the in-memory
//! [`Store`](crate::store::Store), so that a query gives the same grains in
//! the same order on either.
//!
//! * **What is kept.** The canonical blob of every grain (and its COSE
//!   envelope and verified signer) keyed by content address; the index layer
//!   (§5.6) per grain; supersession and revert records; named templates per
//!   namespace; and the tables Tier 1 needs (used tokens, quota counters, the
//!   audit trail). The `.mg` file stays the interchange format: [`DurableStore::import_mg`]
//!   and [`DurableStore::export_mg`].
//! * **Append-only by construction.** No code path deletes or rewrites a
//!   grain: the store has no such method, no statement of this module updates
//!   or deletes a `grains` row, and triggers refuse any that would
//!   ([`schema::APPEND_ONLY_TABLES`]). Compliance erasure (OMS §28.4 `delete`)
//!   is not offered here at all.
//! * **Durability.** WAL journal with `synchronous = FULL`: a write is
//!   acknowledged (its method returns `Ok`) only after its transaction's WAL
//!   frames are fsync'ed, so an acknowledged grain survives a crash or power
//!   loss, and an interrupted one leaves no trace.
//! * **One writer, many readers.** Every write is one `BEGIN IMMEDIATE`
//!   transaction; a second writer waits at most [`OpenOptions::busy_timeout`]
//!   and is then refused with `ERR_BUSY`, changing nothing. Readers never block.
//! * **Answering without loading.** A query reads the posting lists of its
//!   indexed filters (or the text postings of its terms), decodes only those
//!   grains, and hands them to the same filter, sort and page code as the
//!   in-memory store ([`crate::store::read`]).
//! * **Integrity.** Every grain read is re-hashed against its address; every
//!   index row carries a checksum; SQLite's own errors for a damaged file
//!   become `ERR_CORRUPT`. [`DurableStore::verify`] checks everything.

mod ingest;
mod read;
mod rows;
pub mod schema;
mod tokens;
mod txn;
mod vectors;
mod verify;
mod write;

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use rusqlite::{Connection, ErrorCode, OpenFlags};

use crate::error::{CorruptReason, OmsError, Result};
use crate::store::StoreConfig;

pub use ingest::ImportReport;
pub use tokens::TokenUse;
pub use txn::{AuditRecord, StoredTemplate, TemplateSlot, Tx};
pub use vectors::{StoredVector, Unembedded};
pub use verify::{StoreStats, VerifyReport};

/// The first 16 bytes of every SQLite database file.
const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// Grains a query decodes at a time, by default.
pub const DEFAULT_READ_BATCH: usize = 4096;

/// How to open a store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenOptions {
    /// Open for writing (otherwise the file is opened read-only and every
    /// write is refused).
    pub write: bool,
    /// How long a write waits for another writer before `ERR_BUSY`.
    pub busy_timeout: Duration,
    /// How many grains a structured query decodes at a time: its memory is
    /// bounded by this and its page, however many grains it reads.
    pub read_batch: usize,
}

impl OpenOptions {
    /// Read-only access (`cal run --store`).
    pub fn read_only() -> Self {
        OpenOptions { write: false, busy_timeout: Duration::from_secs(2), read_batch: DEFAULT_READ_BATCH }
    }

    /// Read-write access.
    pub fn read_write() -> Self {
        OpenOptions { write: true, busy_timeout: Duration::from_secs(2), read_batch: DEFAULT_READ_BATCH }
    }
}

/// A durable OMS store in one SQLite file.
pub struct DurableStore {
    conn: Mutex<Connection>,
    config: StoreConfig,
    path: PathBuf,
    write: bool,
    read_batch: usize,
}

impl std::fmt::Debug for DurableStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DurableStore").field("path", &self.path).field("write", &self.write).finish_non_exhaustive()
    }
}

/// Whether the file at `path` is an SQLite database (by its first bytes), as
/// opposed to a `.mg` file or anything else.
pub fn is_database(path: &Path) -> std::io::Result<bool> {
    use std::io::Read;
    let mut head = [0u8; 16];
    let mut f = std::fs::File::open(path)?;
    let mut got = 0;
    while got < head.len() {
        match f.read(&mut head[got..])? {
            0 => break,
            n => got += n,
        }
    }
    Ok(got == head.len() && &head == SQLITE_MAGIC)
}

/// Maps an SQLite error to the OMS vocabulary.
pub(crate) fn db_error(e: rusqlite::Error) -> OmsError {
    match e.sqlite_error_code() {
        Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => OmsError::Busy {
            reason: "another process is writing to this store (one writer at a time); nothing was written, \
                     try again when it has finished"
                .into(),
        },
        Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => {
            OmsError::corrupt(CorruptReason::Container(format!("the store database is damaged: {e}")))
        }
        Some(ErrorCode::DiskFull) => OmsError::Io { reason: format!("the disk is full: {e}; nothing was written") },
        Some(ErrorCode::ReadOnly) => OmsError::Io { reason: format!("the store is read-only here: {e}") },
        _ => OmsError::Io { reason: format!("store database: {e}") },
    }
}

impl DurableStore {
    /// Creates a new, empty store at `path`; refuses a path that exists.
    pub fn create(path: &Path, config: StoreConfig) -> Result<DurableStore> {
        // Claim the name first (atomically: no other creator can have it too), and give it
        // back if the store cannot be made, so that a retry is not told it exists.
        match std::fs::OpenOptions::new().write(true).create_new(true).open(path) {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                return Err(OmsError::Conflict {
                    reason: format!(
                        "{} already exists; a store is created only where there is no file",
                        path.display()
                    ),
                });
            }
            Err(e) => return Err(OmsError::Io { reason: format!("cannot create {}: {e}", path.display()) }),
        }
        Self::create_claimed(path, config).inspect_err(|_| {
            for suffix in ["", "-wal", "-shm"] {
                let mut p = path.as_os_str().to_owned();
                p.push(suffix);
                let _ = std::fs::remove_file(p);
            }
        })
    }

    /// Makes a store in the empty file `path` this process has just created.
    fn create_claimed(path: &Path, config: StoreConfig) -> Result<DurableStore> {
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(db_error)?;
        configure(&conn, &OpenOptions::read_write())?;
        let tx = conn.unchecked_transaction().map_err(db_error)?;
        schema::create(&tx)?;
        tx.commit().map_err(db_error)?;
        sync_dir(path);
        Ok(DurableStore {
            conn: Mutex::new(conn),
            config,
            path: path.to_path_buf(),
            write: true,
            read_batch: DEFAULT_READ_BATCH,
        })
    }

    /// Opens an existing store.
    pub fn open(path: &Path, config: StoreConfig, opts: OpenOptions) -> Result<DurableStore> {
        match is_database(path) {
            Ok(true) => {}
            Ok(false) => {
                return Err(OmsError::corrupt(CorruptReason::Container(format!(
                    "{} is not a store database (an SQLite file made by `cal store init`)",
                    path.display()
                ))));
            }
            Err(e) => return Err(OmsError::Io { reason: format!("cannot open {}: {e}", path.display()) }),
        }
        let flags = if opts.write {
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX
        } else {
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX
        };
        let conn = Connection::open_with_flags(path, flags).map_err(db_error)?;
        let conn = match configure(&conn, &opts).and_then(|()| schema::check(&conn)) {
            Ok(()) => conn,
            Err(e) if !opts.write && read_only_place(&e) => {
                // The fallback's own refusal (a log it may not fold in) says more than SQLite's.
                open_immutable(path, &opts).map_err(|fallback| if is_wal_refusal(&fallback) { fallback } else { e })?
            }
            Err(e) => return Err(e),
        };
        if opts.write {
            schema::upgrade(&conn)?;
        }
        Ok(DurableStore {
            conn: Mutex::new(conn),
            config,
            path: path.to_path_buf(),
            write: opts.write,
            read_batch: opts.read_batch,
        })
    }

    /// The store's configuration (clock, policy switches).
    pub fn config(&self) -> &StoreConfig {
        &self.config
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    pub(crate) fn conn(&self) -> MutexGuard<'_, Connection> {
        // Every transaction is committed or rolled back before the guard is
        // released, so a poisoned lock holds a consistent connection.
        self.conn.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The connection inside a read transaction: every statement of one read
    /// operation sees the same snapshot of the store (WAL), so a query never
    /// mixes candidates from before a commit with states from after it.
    fn snapshot(&self) -> Result<Snapshot<'_>> {
        let conn = self.conn();
        conn.execute_batch("BEGIN DEFERRED").map_err(db_error)?;
        Ok(Snapshot { conn })
    }

    pub(crate) fn now(&self) -> i64 {
        (self.config.clock)()
    }

    pub(crate) fn writable(&self) -> Result<()> {
        if self.write {
            Ok(())
        } else {
            Err(OmsError::Io { reason: format!("{} was opened read-only", self.path.display()) })
        }
    }
}

/// The page cache of a bulk import (KiB): large enough that a million-grain
/// transaction does not spill pages to the WAL before it commits.
const IMPORT_CACHE_KIB: i64 = 512 * 1024;

/// The page cache otherwise (KiB).
const CACHE_KIB: i64 = 64 * 1024;

/// A read transaction on the store's connection, ended when dropped.
struct Snapshot<'a> {
    conn: MutexGuard<'a, Connection>,
}

impl std::ops::Deref for Snapshot<'_> {
    type Target = Connection;
    fn deref(&self) -> &Connection {
        &self.conn
    }
}

impl Drop for Snapshot<'_> {
    fn drop(&mut self) {
        // A read transaction has nothing to keep; ending it releases the snapshot.
        let _ = self.conn.execute_batch("ROLLBACK");
    }
}

fn configure(conn: &Connection, opts: &OpenOptions) -> Result<()> {
    conn.busy_timeout(opts.busy_timeout).map_err(db_error)?;
    if opts.write {
        // WAL: readers never block the writer; FULL: each commit fsyncs the WAL
        // before it returns, so an acknowledged write survives power loss.
        let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0)).map_err(db_error)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(OmsError::Io { reason: format!("the store could not switch to WAL mode (got {mode})") });
        }
    }
    conn.execute_batch(
        "PRAGMA synchronous = FULL; PRAGMA foreign_keys = OFF; PRAGMA recursive_triggers = ON; \
         PRAGMA temp_store = MEMORY;",
    )
    .map_err(db_error)?;
    set_cache(conn, CACHE_KIB)
}

/// Sets the page cache size in KiB.
fn set_cache(conn: &Connection, kib: i64) -> Result<()> {
    conn.execute_batch(&format!("PRAGMA cache_size = -{kib}")).map_err(db_error)
}

/// Runs `f` with the bulk-import page cache, restoring the usual one after.
pub(crate) fn with_import_cache<T>(conn: &mut Connection, f: impl FnOnce(&mut Connection) -> Result<T>) -> Result<T> {
    set_cache(conn, IMPORT_CACHE_KIB)?;
    let out = f(conn);
    set_cache(conn, CACHE_KIB)?;
    out
}

/// The words of the refusal to read a store whose log holds commits immutably.
const WAL_REFUSAL: &str = "its write-ahead log holds commits";

/// Whether an error is the immutable fallback's refusal of a store with a live log.
fn is_wal_refusal(e: &OmsError) -> bool {
    matches!(e, OmsError::Io { reason } if reason.contains(WAL_REFUSAL))
}

/// Whether an error says that this process may not create the files a WAL
/// reader needs (the `-shm` index) where the store lies.
fn read_only_place(e: &OmsError) -> bool {
    matches!(e, OmsError::Io { reason } if reason.contains("read-only") || reason.contains("unable to open"))
}

/// Opens a store that lies where this process cannot write (a read-only
/// directory or medium) as immutable: SQLite then needs no `-shm` file. Only
/// when no write-ahead log holds commits the main file lacks, since an
/// immutable reader would not see them.
fn open_immutable(path: &Path, opts: &OpenOptions) -> Result<Connection> {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    if std::fs::metadata(&wal).is_ok_and(|m| m.len() > 0) {
        return Err(OmsError::Io {
            reason: format!(
                "{} cannot be read from here: {WAL_REFUSAL}, and reading them needs a \
                 file this process may not create beside it; open the store once where it can be written \
                 (for example `cal store verify` as its owner) so that the log is folded in",
                path.display()
            ),
        });
    }
    // An absolute path gets an empty authority (`file:///…`), so that one starting with
    // `//` is not read as a host name.
    let encoded = uri_path(path);
    let uri = if path.is_absolute() {
        format!("file://{encoded}?immutable=1")
    } else {
        format!("file:{encoded}?immutable=1")
    };
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_URI;
    let conn = Connection::open_with_flags(uri, flags).map_err(db_error)?;
    configure(&conn, opts)?;
    schema::check(&conn)?;
    Ok(conn)
}

/// A path as the path part of an SQLite URI: everything but unreserved
/// characters and `/` percent-encoded.
fn uri_path(path: &Path) -> String {
    let mut out = String::new();
    for b in path.as_os_str().as_encoded_bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => out.push(char::from(*b)),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Syncs the directory holding `path`, so that a newly created file's name is durable.
fn sync_dir(path: &Path) {
    if let Some(dir) = path.parent() {
        let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
    }
}
