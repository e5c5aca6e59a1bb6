//! `cal key new` and `cal token issue | inspect`: the server key and the
//! capability tokens it signs (§18.1, `cal_service`). A token is printed as
//! one line of JSON, so it can be stored, passed as an argument and read by
//! a program. A refused or invalid token exits 1; usage and I/O problems
//! exit 2.

use std::path::PathBuf;
use std::process::ExitCode;

use cal_grammar::GrainType;
use cal_service::{CapabilityToken, Claims, Op, ServerKey};

use super::{OK, invalid, usage_error};

/// The `cal key` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum KeyCommand {
    /// Create a server key: 32 random bytes in FILE, mode 0600 (refuses an existing file).
    New {
        /// The key file to create.
        file: PathBuf,
    },
}

/// The `cal token` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum TokenCommand {
    /// Issue a capability token signed with the server key; prints it as one line of JSON.
    Issue(IssueArgs),
    /// Show a token's claims; with --key, verify its signature and validity now.
    Inspect {
        /// The token: its JSON text, `@FILE`, or `-` for standard input.
        token: String,
        /// The server key file, to verify the signature.
        #[arg(long)]
        key: Option<PathBuf>,
    },
}

/// `cal token issue` options.
#[derive(clap::Args, Debug)]
pub struct IssueArgs {
    /// The server key file (`cal key new`).
    #[arg(long)]
    key: PathBuf,
    /// The namespace every request with the token runs in (§18.3).
    #[arg(long)]
    namespace: String,
    /// On whose behalf.
    #[arg(long)]
    user: String,
    /// 0 (read) or 1 (evolve).
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=1))]
    tier: u8,
    /// Allowed operations, comma-separated (`recall,exists`); every operation of the tier by default.
    #[arg(long, value_delimiter = ',')]
    ops: Vec<String>,
    /// Grain types ADD and SUPERSEDE may write, comma-separated singular names (`belief,goal`).
    #[arg(long, value_delimiter = ',')]
    types: Vec<String>,
    /// Evolve operations allowed.
    #[arg(long, default_value_t = 0)]
    quota: u64,
    /// Lifetime: `90s`, `15m`, `2h`, `1d` (at most 30 days).
    #[arg(long, default_value = "15m")]
    ttl: String,
    /// Requests that may present the token.
    #[arg(long, default_value_t = 1)]
    max_uses: u64,
    /// Issue it as of this instant (RFC 3339) instead of now: for a server or a `cal run`
    /// that runs on a fixed clock (`--now`).
    #[arg(long, value_name = "RFC3339")]
    now: Option<String>,
}

/// `cal key …`.
pub fn key(cmd: &KeyCommand) -> ExitCode {
    match cmd {
        KeyCommand::New { file } => match ServerKey::create(file) {
            Ok(_) => {
                errln!(
                    "created {} (32 random bytes, mode 0600): keep it secret; anyone who reads it can mint tokens",
                    file.display()
                );
                OK
            }
            Err(e) => usage_error(&format!("{}: {e}", file.display())),
        },
    }
}

/// `cal token …`.
pub fn token(cmd: &TokenCommand) -> ExitCode {
    match cmd {
        TokenCommand::Issue(args) => issue(args),
        TokenCommand::Inspect { token, key } => inspect(token, key.as_ref()),
    }
}

/// Milliseconds of a lifetime written `90s`, `15m`, `2h` or `1d` (a day is 24 hours).
fn ttl_ms(text: &str) -> Result<i64, String> {
    let span: jiff::Span = text.parse().map_err(|e| format!("--ttl {text:?}: {e} (write 90s, 15m, 2h or 1d)"))?;
    let ms = span
        .total((jiff::Unit::Millisecond, jiff::SpanRelativeTo::days_are_24_hours()))
        .map_err(|e| format!("--ttl {text:?}: {e}"))?;
    Ok(ms as i64)
}

fn now_ms() -> i64 {
    jiff::Timestamp::now().as_millisecond()
}

fn issue(a: &IssueArgs) -> ExitCode {
    let key = match ServerKey::load(&a.key) {
        Ok(k) => k,
        Err(e) => return usage_error(&format!("{}: {e}", a.key.display())),
    };
    let ops = if a.ops.is_empty() {
        None
    } else {
        let mut ops = Vec::new();
        for w in &a.ops {
            match Op::from_word(w.trim()) {
                Some(op) => ops.push(op),
                None => {
                    let valid: Vec<&str> = Op::ALL.iter().map(|o| o.as_str()).collect();
                    return usage_error(&format!("--ops: {w:?} is not an operation ({})", valid.join(", ")));
                }
            }
        }
        Some(ops)
    };
    let mut grain_types = Vec::new();
    for t in &a.types {
        match GrainType::from_singular(t.trim()) {
            Some(g) => grain_types.push(g),
            None => return usage_error(&format!("--types: {t:?} is not a grain type (belief, goal, observation, …)")),
        }
    }
    let ttl_ms = match ttl_ms(&a.ttl) {
        Ok(ms) => ms,
        Err(e) => return usage_error(&e),
    };
    let claims = Claims {
        namespace: a.namespace.clone(),
        user_id: a.user.clone(),
        tier: a.tier,
        ops,
        grain_types,
        quota: a.quota,
        ttl_ms,
        max_uses: a.max_uses,
    };
    let issued_at = match &a.now {
        None => now_ms(),
        Some(t) => match oms::time::parse_rfc3339_ms(t) {
            Some(ms) => ms,
            None => return super::usage_error(&format!("--now {t:?} is not an RFC 3339 date-time")),
        },
    };
    match claims.issue(&key, issued_at) {
        Ok(t) => {
            outln!("{}", t.to_json());
            OK
        }
        Err(e) => usage_error(&e.to_string()),
    }
}

fn read_token(arg: &str) -> Result<String, String> {
    if arg == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).map_err(|e| format!("standard input: {e}"))?;
        return Ok(s);
    }
    match arg.strip_prefix('@') {
        Some(path) => std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}")),
        None => Ok(arg.to_string()),
    }
}

fn inspect(arg: &str, key: Option<&PathBuf>) -> ExitCode {
    let text = match read_token(arg) {
        Ok(t) => t,
        Err(e) => return usage_error(&e),
    };
    let token = match CapabilityToken::parse(&text) {
        Ok(t) => t,
        Err(e) => {
            errln!("error: {e}");
            return invalid();
        }
    };
    let now = now_ms();
    let (status, ok) = match key {
        None => ("not verified (no --key)".to_string(), true),
        Some(path) => match ServerKey::load(path) {
            Err(e) => return usage_error(&format!("{}: {e}", path.display())),
            Ok(k) => match token.verify(&k, now) {
                Ok(_) => ("valid".to_string(), true),
                Err(e) => (e.to_string(), false),
            },
        },
    };
    let report = serde_json::json!({
        "token": serde_json::to_value(&token).unwrap_or_default(),
        "status": status,
        "expires_in_ms": token.expires_at - now,
    });
    outln!("{}", serde_json::to_string_pretty(&report).unwrap_or_default());
    if ok { OK } else { invalid() }
}
