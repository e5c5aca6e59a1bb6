//! `cal mg …`: memory-grain tools over the `oms` library (OMS 1.3). Every
//! subcommand parses arguments, reads bytes, calls `oms` and prints; invalid
//! grains or files exit 1 with their `ERR_*` code, usage and I/O problems exit 2.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use oms::mg::{self, MgFile, PackOptions};
use oms::tools::{self, GrainInput};
use oms::{Encoding, OmsError, Sensitivity, cose, disclosure};

use super::{OK, invalid, usage_error};
use crate::input;

/// The `cal mg` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum MgCommand {
    /// Encode a grain given as JSON (full field names); prints its address, size and blob hex,
    /// and any SHOULD-level warnings (OMS §17.2) on standard error.
    Encode {
        /// JSON file (standard input when absent).
        file: Option<PathBuf>,
        /// Minimum header sensitivity: public, internal, pii or phi.
        #[arg(long)]
        sensitivity: Option<String>,
        /// Encode the payload as deterministic CBOR instead of MessagePack.
        #[arg(long)]
        cbor: bool,
        /// Explicit type byte (e.g. 0xF0) for a domain-profile type.
        #[arg(long)]
        type_byte: Option<String>,
    },
    /// Decode a blob (or a COSE_Sign1 envelope) and print the grain as JSON.
    Decode {
        /// Blob file (standard input when absent).
        file: Option<PathBuf>,
        /// The input is hex text.
        #[arg(long)]
        hex: bool,
    },
    /// Pack grains into a .mg file.
    Pack {
        /// The .mg file to write.
        out: PathBuf,
        /// Read grains from JSON lines.
        #[arg(long)]
        jsonl: Option<PathBuf>,
        /// Grain files: JSON, blobs, hex, or COSE envelopes.
        files: Vec<PathBuf>,
        /// Sort by created_at.
        #[arg(long)]
        sort: bool,
        /// Drop duplicate content addresses.
        #[arg(long)]
        dedup: bool,
        /// Compress the grain region with zstd.
        #[arg(long)]
        compress: bool,
    },
    /// Print the grains of a .mg file as JSON lines.
    Unpack {
        /// The .mg file.
        file: PathBuf,
        /// Print each grain with its address, signature state and manifest entry.
        #[arg(long)]
        envelope: bool,
    },
    /// Verify a .mg file: checksum, structure, every address and every signature.
    Verify {
        /// The .mg file.
        file: PathBuf,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Sign a grain (JSON or blob) with an Ed25519 key; writes a COSE_Sign1.
    Sign {
        /// Grain file (standard input when absent).
        file: Option<PathBuf>,
        /// File holding the 32-byte Ed25519 seed as hex.
        #[arg(long)]
        key: PathBuf,
        /// Issued-at time (epoch seconds) for the unprotected header.
        #[arg(long)]
        iat: Option<i64>,
        /// Write the envelope here instead of printing it as hex.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Produce a selectively disclosed view of a grain (OMS §10).
    Disclose {
        /// Grain file (standard input when absent).
        file: Option<PathBuf>,
        /// Fields to elide, comma separated.
        #[arg(long, value_delimiter = ',', required = true)]
        elide: Vec<String>,
    },
}

/// Runs one `cal mg` subcommand.
pub fn run(cmd: MgCommand) -> ExitCode {
    match execute(cmd) {
        Ok(code) => code,
        Err(Failure::Usage(m)) => usage_error(&m),
        Err(Failure::Invalid(e)) => {
            errln!("{e}");
            invalid()
        }
    }
}

enum Failure {
    Usage(String),
    Invalid(OmsError),
}

impl From<OmsError> for Failure {
    fn from(e: OmsError) -> Self {
        Failure::Invalid(e)
    }
}

fn read(file: Option<&PathBuf>) -> Result<Vec<u8>, Failure> {
    input::read(file).map(|i| i.bytes).map_err(Failure::Usage)
}

/// Replaces `path` atomically ([`super::write_file`]).
fn write(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    super::write_file(path, bytes).map_err(Failure::Usage)
}

fn print(j: &serde_json::Value) {
    outln!("{}", serde_json::to_string_pretty(j).unwrap_or_default());
}

fn execute(cmd: MgCommand) -> Result<ExitCode, Failure> {
    match cmd {
        MgCommand::Encode { file, sensitivity, cbor, type_byte } => {
            let bytes = read(file.as_ref())?;
            let GrainInput::Json(mut grain) = tools::read_grain_input(&bytes, false)? else {
                return Err(Failure::Usage("encode expects a grain as a JSON object".into()));
            };
            if let Some(b) = type_byte {
                let byte = u8::from_str_radix(b.trim_start_matches("0x").trim_start_matches("0X"), 16)
                    .map_err(|_| Failure::Usage(format!("--type-byte {b:?} is not a hex byte")))?;
                let options = grain.options;
                grain = oms::Grain::with_type_byte(grain.into_fields(), byte)?;
                grain.options = options;
            }
            if let Some(s) = sensitivity {
                grain.options.sensitivity = Sensitivity::parse(&s)
                    .ok_or_else(|| Failure::Usage(format!("--sensitivity {s:?}: use public, internal, pii or phi")))?;
            }
            if cbor {
                grain.options.encoding = Encoding::Cbor;
            }
            let blob = grain.encode()?;
            // SHOULD-level findings (OMS §17.2) go to stderr; the grain is encoded all the same.
            for w in grain.warnings() {
                errln!("warning: {w}");
            }
            print(&tools::blob_summary(&blob));
        }
        MgCommand::Decode { file, hex } => {
            let input = tools::read_grain_input(&read(file.as_ref())?, hex)?;
            if let GrainInput::Json(_) = input {
                return Err(Failure::Usage("decode expects a blob; use `cal mg encode` for JSON".into()));
            }
            print(&input.grain().to_json());
        }
        MgCommand::Pack { out, jsonl, files, sort, dedup, compress } => {
            let mut entries = Vec::new();
            if let Some(path) = jsonl {
                let text = String::from_utf8(read(Some(&path))?)
                    .map_err(|_| Failure::Usage(format!("{} is not UTF-8", path.display())))?;
                let grains = tools::grains_from_jsonl(&text).map_err(|(line, e)| {
                    errln!("{}:{line}: {e}", path.display());
                    Failure::Invalid(e)
                })?;
                let bar = crate::progress::bar(grains.len(), "grains encoded");
                for g in grains {
                    entries.push(g.encode()?.bytes);
                    bar.inc(1);
                }
                bar.finish_and_clear();
            }
            let bar = crate::progress::bar(files.len(), "grain files read");
            for f in &files {
                let input = tools::read_grain_input(&read(Some(f))?, false).map_err(|e| {
                    errln!("{}: {e}", f.display());
                    Failure::Invalid(e)
                })?;
                entries.push(input.entry_bytes()?);
                bar.inc(1);
            }
            bar.finish_and_clear();
            if entries.is_empty() && !files.is_empty() {
                return Err(Failure::Usage("no grains to pack".into()));
            }
            let opts = PackOptions { sort, dedup, compress, ..PackOptions::default() };
            let file = mg::pack(entries.iter().map(Vec::as_slice), None, &opts)?;
            // What the file holds, not what was read: --dedup drops repeated addresses.
            let written = mg::FileHeader::parse(&file)?.count as usize;
            write(&out, &file)?;
            let mut summary =
                serde_json::json!({ "file": out.display().to_string(), "grains": written, "bytes": file.len() });
            if dedup {
                summary["read"] = entries.len().into();
                summary["duplicates_dropped"] = (entries.len() - written.min(entries.len())).into();
            }
            print(&summary);
        }
        MgCommand::Unpack { file, envelope } => {
            let data = read(Some(&file))?;
            let mg = MgFile::open(&data)?;
            for i in 0..mg.len() {
                outln!("{}", tools::unpack_line(&mg, i, envelope)?);
            }
        }
        MgCommand::Verify { file, json } => {
            let report = mg::verify(&read(Some(&file))?);
            if json {
                print(&tools::report_json(&report));
            } else {
                out!("{}", tools::report_text(&report));
            }
            if !report.is_ok() {
                if oms::durable::is_database(&file).unwrap_or(false) {
                    errln!(
                        "hint: {} is a store database, not a .mg file: `cal store verify` checks it",
                        file.display()
                    );
                }
                return Ok(invalid());
            }
        }
        MgCommand::Sign { file, key, iat, out } => {
            let seed =
                String::from_utf8(read(Some(&key))?).map_err(|_| Failure::Usage("key file is not text".into()))?;
            let key = cose::signing_key_from_hex(&seed).map_err(|e| Failure::Usage(e.to_string()))?;
            let input = tools::read_grain_input(&read(file.as_ref())?, false)?;
            let signed = cose::sign_blob(&input.blob()?.bytes, &key, iat)?;
            let mut summary =
                serde_json::json!({ "content_address": signed.address.to_hex(), "signer": signed.signer });
            match out {
                Some(path) => write(&path, &signed.cose)?,
                None => summary["cose_hex"] = oms::address::hex(&signed.cose).into(),
            }
            print(&summary);
        }
        MgCommand::Disclose { file, elide } => {
            let input = tools::read_grain_input(&read(file.as_ref())?, false)?;
            let names: Vec<&str> = elide.iter().map(String::as_str).collect();
            let view = disclosure::disclose(input.grain(), &names)?;
            let blob = view.encode()?;
            let mut summary = tools::blob_summary(&blob);
            summary["grain"] = view.to_json();
            print(&summary);
        }
    }
    Ok(OK)
}
