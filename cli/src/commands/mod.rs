//! One module per `cal` subcommand; each turns arguments into a call of a library crate.

pub mod check;
pub mod conformance;
pub mod conformance_http;
pub mod convert;
pub mod embedder;
pub mod evolve;
pub mod explain;
pub mod fix;
pub mod fmt;
pub mod gate;
pub mod lsp;
pub mod manual;
pub mod mg;
pub mod prompt;
pub mod repl;
pub mod run;
pub mod serve;
pub mod store;
pub mod token;

use std::process::ExitCode;

/// Exit status: the input is fine.
pub const OK: ExitCode = ExitCode::SUCCESS;

/// Exit status 1: the input has errors (diagnostics were printed).
pub fn invalid() -> ExitCode {
    ExitCode::from(1)
}

/// Exit status 2: a usage or I/O problem; prints the message.
pub fn usage_error(message: &str) -> ExitCode {
    errln!("error: {message}");
    ExitCode::from(2)
}

/// Replaces the file at `path` with `bytes` atomically (`oms::atomic`): a failed write leaves
/// any old file as it was, and the message says so. A store database is never replaced: a
/// mistyped output path must not destroy a store (`cal store export db.db db.db`).
pub fn write_file(path: &std::path::Path, bytes: &[u8]) -> Result<(), String> {
    if let Some(db) = store_file(path) {
        return Err(format!(
            "refusing to replace {}: it is {} (this command writes another kind of file; choose another path)",
            path.display(),
            if db == path {
                "a store database".to_string()
            } else {
                format!("part of the store database {}", db.display())
            }
        ));
    }
    oms::atomic::write_atomic(path, bytes).map_err(|e| {
        // Only the last step (syncing the directory) can fail after the rename.
        let state = match std::fs::read(path) {
            Ok(now) if now == bytes => "; the new file is in place but may not be durable",
            Ok(_) => "; the existing file is unchanged",
            Err(_) => "",
        };
        format!("cannot write {}: {e}{state}", path.display())
    })
}

/// The store database that `path` is, or is a companion file of (its write-ahead log,
/// shared-memory index or rollback journal), if any.
fn store_file(path: &std::path::Path) -> Option<std::path::PathBuf> {
    if oms::durable::is_database(path).unwrap_or(false) {
        return Some(path.to_path_buf());
    }
    let name = path.file_name()?.to_str()?;
    ["-wal", "-shm", "-journal"].iter().find_map(|suffix| {
        let db = path.with_file_name(name.strip_suffix(suffix)?);
        oms::durable::is_database(&db).unwrap_or(false).then_some(db)
    })
}
