//! `cal store …`: the durable store (an SQLite file, `oms::durable`):
//! create it, import and export `.mg` files, add grains, verify and
//! describe it. Invalid grains and damaged stores exit 1 with their `ERR_*`
//! code; usage and I/O problems exit 2.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use oms::OmsError;
use oms::durable::{DurableStore, OpenOptions};
use oms::store::{SaveOptions, StoreConfig};
use oms::tools::{self, GrainInput};

use super::{OK, invalid, usage_error};
use crate::input;

/// The `cal store` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum StoreCommand {
    /// Create an empty store database at DB (refuses an existing file).
    Init {
        /// The database file to create.
        db: PathBuf,
    },
    /// Import .mg files: each file is verified whole, then written in one transaction.
    Import {
        /// The store database.
        db: PathBuf,
        /// The .mg files to import, in order.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Export the store as a .mg file (written atomically: the old file stays intact on failure).
    Export {
        /// The store database.
        db: PathBuf,
        /// The .mg file to write.
        out: PathBuf,
        /// Compress the grain region with zstd.
        #[arg(long)]
        compress: bool,
        /// Include the local access counters in the manifest.
        #[arg(long)]
        local: bool,
    },
    /// Add grains one by one; prints each address once it is durable (committed and synced).
    Add {
        /// The store database.
        db: PathBuf,
        /// Grain files: JSON, blobs, hex, or COSE envelopes.
        files: Vec<PathBuf>,
        /// Read grains from JSON lines (`-` for standard input), one transaction each.
        #[arg(long, value_name = "FILE")]
        jsonl: Option<PathBuf>,
    },
    /// Check everything: every blob re-hashed, every signature, every index, supersession
    /// recomputed, the audit chain; exit 1 with the first fault named.
    Verify {
        /// The store database.
        db: PathBuf,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// The audit trail (§21): one JSON line per entry, oldest first; `--verify` checks that
    /// the chain is whole (an edited, reordered or removed entry is named, exit 1).
    Audit {
        /// The store database.
        db: PathBuf,
        /// Check the hash chain instead of listing it.
        #[arg(long)]
        verify: bool,
        /// List from entry N on.
        #[arg(long, value_name = "N", default_value_t = 1)]
        from: i64,
    },
    /// Turn a kill switch on or off (§20.3): `master` refuses every CAL operation,
    /// `tier1` refuses ADD, SUPERSEDE, REVERT and DEFINE TEMPLATE while reads go on.
    Switch {
        /// The store database.
        db: PathBuf,
        /// Which switch.
        #[arg(value_parser = ["master", "tier1"])]
        switch: String,
        /// `on` (refuse) or `off` (allow).
        #[arg(value_parser = ["on", "off"])]
        state: String,
        /// Why, for the audit trail.
        #[arg(long, default_value = "set by the local operator")]
        reason: String,
    },
    /// Configure semantic search (§16.4): the store's embedder, an OpenAI-compatible endpoint
    /// (--url) or a command (--command). It is asked for one vector first (--no-check skips
    /// that); without options, prints the setting and how many grains have vectors.
    Embedder {
        /// The store database.
        db: PathBuf,
        #[command(flatten)]
        /// The embedder.
        args: super::embedder::EmbedderArgs,
    },
    /// Embed every grain that has no vector of the configured model yet, a batch per
    /// transaction: resumable (run it again after an interruption) and idempotent.
    Embed {
        /// The store database.
        db: PathBuf,
    },
    /// Figures about the store: grains per type, supersessions, audit entries, size.
    Stats {
        /// The store database.
        db: PathBuf,
        /// Print as JSON.
        #[arg(long)]
        json: bool,
    },
}

enum Failure {
    Usage(String),
    Invalid(String),
}

fn invalid_at(path: &Path, e: &OmsError) -> Failure {
    Failure::Invalid(format!("{}: {e}", path.display()))
}

fn open(db: &Path, write: bool) -> Result<DurableStore, Failure> {
    let opts = if write { OpenOptions::read_write() } else { OpenOptions::read_only() };
    DurableStore::open(db, StoreConfig::default(), opts).map_err(|e| match e {
        OmsError::Io { .. } => Failure::Usage(format!("{}: {e}", db.display())),
        other => invalid_at(db, &other),
    })
}

fn print(j: &serde_json::Value) {
    outln!("{}", serde_json::to_string_pretty(j).unwrap_or_default());
}

/// Runs one `cal store` subcommand.
pub fn run(cmd: StoreCommand) -> ExitCode {
    match execute(cmd) {
        Ok(code) => code,
        Err(Failure::Usage(m)) => usage_error(&m),
        Err(Failure::Invalid(m)) => {
            errln!("error: {m}");
            invalid()
        }
    }
}

fn execute(cmd: StoreCommand) -> Result<ExitCode, Failure> {
    match cmd {
        StoreCommand::Init { db } => {
            DurableStore::create(&db, StoreConfig::default()).map_err(|e| match e {
                OmsError::Conflict { reason } => Failure::Usage(reason),
                other => Failure::Usage(format!("{}: {other}", db.display())),
            })?;
            print(&serde_json::json!({ "store": db.display().to_string(), "created": true }));
        }
        StoreCommand::Import { db, files } => {
            let store = open(&db, true)?;
            // Each file is one transaction with no finer step to report: the bar counts
            // files, and ticks on its own while a large one is verified and written.
            let bar = crate::progress::bar(files.len(), "files imported");
            for f in &files {
                let bytes = input::read(Some(f)).map_err(Failure::Usage)?.bytes;
                bar.set_message(format!("importing {} ({} bytes)", f.display(), bytes.len()));
                let r = store.import_mg(&bytes).map_err(|e| invalid_at(f, &e));
                bar.inc(1);
                if r.is_err() || bar.position() == files.len() as u64 {
                    bar.finish_and_clear();
                }
                let r = r?;
                print(&serde_json::json!({
                    "file": f.display().to_string(), "grains": r.in_file, "added": r.added, "states": r.states,
                }));
            }
            if let Some(w) = super::embedder::after_write(&store) {
                errln!("warning: {w}");
            }
        }
        StoreCommand::Export { db, out, compress, local } => {
            let store = open(&db, false)?;
            let bytes =
                store.export_mg(&SaveOptions { include_local: local, compress }).map_err(|e| invalid_at(&db, &e))?;
            super::write_file(&out, &bytes).map_err(Failure::Usage)?;
            let grains = oms::mg::MgFile::open(&bytes).map_or(0, |f| f.len());
            print(&serde_json::json!({ "file": out.display().to_string(), "grains": grains, "bytes": bytes.len() }));
        }
        StoreCommand::Add { db, files, jsonl } => {
            if files.is_empty() && jsonl.is_none() {
                return Err(Failure::Usage("nothing to add: give grain files or --jsonl FILE".into()));
            }
            let store = open(&db, true)?;
            for f in &files {
                let input = tools::read_grain_input(&input::read(Some(f)).map_err(Failure::Usage)?.bytes, false)
                    .map_err(|e| invalid_at(f, &e))?;
                add_one(&store, f, &input)?;
            }
            if let Some(path) = jsonl {
                add_jsonl(&store, &path)?;
            }
            if let Some(w) = super::embedder::after_write(&store) {
                errln!("warning: {w}");
            }
        }
        StoreCommand::Embedder { db, args } => {
            let store = open(&db, args.url.is_some() || args.command.is_some())?;
            print(&super::embedder::configure(&store, &args).map_err(Failure::Usage)?);
        }
        StoreCommand::Embed { db } => {
            let store = open(&db, true)?;
            print(&super::embedder::backfill(&store).map_err(Failure::Invalid)?);
        }
        StoreCommand::Verify { db, json } => {
            let store = open(&db, false)?;
            match store.verify() {
                Ok(r) => {
                    let j = serde_json::json!({
                        "valid": true, "grains": r.grains, "signed": r.signed, "states": r.states,
                        "supersessions": r.supersessions, "index_keys": r.index_keys, "audit_entries": r.audit_entries,
                    });
                    if json {
                        print(&j);
                    } else {
                        outln!(
                            "{}: valid — {} grains ({} signed), {} index states, {} supersessions, {} index keys, {} audit entries",
                            db.display(),
                            r.grains,
                            r.signed,
                            r.states,
                            r.supersessions,
                            r.index_keys,
                            r.audit_entries
                        );
                    }
                }
                Err(e) => {
                    if json {
                        print(&serde_json::json!({ "valid": false, "error": tools::error_json(&e) }));
                    }
                    return Err(invalid_at(&db, &e));
                }
            }
        }
        StoreCommand::Audit { db, verify, from } => {
            let store = open(&db, false)?;
            if verify {
                let n = store.verify_audit().map_err(|e| invalid_at(&db, &e))?;
                outln!("{}: the audit chain is whole — {n} entries", db.display());
            } else {
                for r in store.audit_entries(from).map_err(|e| invalid_at(&db, &e))? {
                    outln!("{}", serde_json::json!({ "seq": r.seq, "at_ms": r.at_ms, "entry": r.entry }));
                }
            }
        }
        StoreCommand::Switch { db, switch, state, reason } => {
            let store = open(&db, true)?;
            let which = if switch == "master" { cal_service::Switch::Master } else { cal_service::Switch::Tier1 };
            let on = state == "on";
            cal_service::service::set_switch(&store, which, on, None, &reason).map_err(|e| invalid_at(&db, &e))?;
            print(&serde_json::json!({ "switch": switch, "on": on }));
        }
        StoreCommand::Stats { db, json } => {
            let store = open(&db, false)?;
            let s = store.stats().map_err(|e| invalid_at(&db, &e))?;
            if json {
                print(&serde_json::json!({
                    "grains": s.grains, "by_type": s.by_type, "encrypted": s.encrypted, "supersessions": s.supersessions,
                    "audit_entries": s.audit_entries, "templates": s.templates, "terms": s.terms,
                    "file_bytes": s.file_bytes,
                }));
            } else {
                outln!("{:<16}{}", "store", db.display());
                outln!("{:<16}{}", "grains", s.grains);
                for (t, n) in &s.by_type {
                    outln!("  {t:<14}{n}");
                }
                if s.encrypted > 0 {
                    outln!("{:<16}{}", "encrypted", s.encrypted);
                }
                outln!("{:<16}{}", "supersessions", s.supersessions);
                outln!("{:<16}{}", "audit entries", s.audit_entries);
                outln!("{:<16}{}", "templates", s.templates);
                outln!("{:<16}{}", "text terms", s.terms);
                outln!("{:<16}{}", "file bytes", s.file_bytes);
            }
        }
    }
    Ok(OK)
}

/// Adds one grain and prints its address once the write is durable; SHOULD-level
/// warnings about the grain (OMS §17.2) go to standard error.
fn add_one(store: &DurableStore, origin: &Path, input: &GrainInput) -> Result<(), Failure> {
    for w in input.grain().warnings() {
        errln!("warning: {}: {w}", origin.display());
    }
    let entry = input.entry_bytes().map_err(|e| invalid_at(origin, &e))?;
    let address = store.put(&entry).map_err(|e| invalid_at(origin, &e))?;
    outln!("{}", address.to_hex());
    Ok(())
}

/// Adds grains from JSON lines, one transaction each, reading line by line.
fn add_jsonl(store: &DurableStore, path: &Path) -> Result<(), Failure> {
    let reader: Box<dyn BufRead> = if path.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let f =
            std::fs::File::open(path).map_err(|e| Failure::Usage(format!("cannot read {}: {e}", path.display())))?;
        Box::new(std::io::BufReader::new(f))
    };
    for (i, line) in reader.lines().enumerate() {
        let line = line.map_err(|e| Failure::Usage(format!("cannot read {}: {e}", path.display())))?;
        if line.trim().is_empty() {
            continue;
        }
        let at = PathBuf::from(format!("{}:{}", path.display(), i + 1));
        if !line.trim_start().starts_with('{') {
            return Err(Failure::Invalid(format!(
                "{}: a line of --jsonl must be one grain as a JSON object (full field names)",
                at.display()
            )));
        }
        let input = tools::read_grain_input(line.as_bytes(), false).map_err(|e| invalid_at(&at, &e))?;
        add_one(store, &at, &input)?;
    }
    Ok(())
}
