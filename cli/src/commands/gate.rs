//! `cal run --token T --key K`: a capability token presented from the command
//! line, enforced by the service layer (`cal_service::Service`) exactly as a
//! server enforces it: the kill switches, the token, its operations, one use
//! counted in the store database, one audit entry per query in the store's
//! chain, and templates defined in the store. The token's namespace and user
//! replace any given with --namespace/--user (§18.3). A refused query gets
//! its §14.1 envelope with the refusal as the error, and nothing of it runs.
//!
//! `cal prepare` and `cal execute` (two-phase execution of ADD, SUPERSEDE and
//! REVERT, §18.2) open the same service.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use cal_interp::{ExecOptions, InterpConfig, Response};
use cal_parser::ast::Query;
use cal_service::{ServerKey, Service, ServiceConfig};
use oms::durable::{DurableStore, OpenOptions};

use super::run::{OpenError, Session};

/// The audit pseudonym key: `CAL_AUDIT_KEY` when set, else derived from the server key.
fn audit_key(key: &ServerKey) -> Vec<u8> {
    match std::env::var("CAL_AUDIT_KEY") {
        Ok(k) if !k.is_empty() => k.into_bytes(),
        _ => key.derive("cal audit pseudonyms"),
    }
}

/// Opens the service over the one store database of `stores`, with the key at `key`. The
/// store's clock is `now_ms` when given (one-shot commands, `--now`), else the system clock
/// (a server).
pub fn open_service(
    key: &Path,
    stores: &[PathBuf],
    now_ms: Option<i64>,
    interp: InterpConfig,
) -> Result<Service, OpenError> {
    let key = ServerKey::load(key).map_err(|e| OpenError::Usage(format!("{}: {e}", key.display())))?;
    let [db] = stores else {
        return Err(OpenError::Usage(
            "a token is checked against one store database: pass exactly one --store DB".into(),
        ));
    };
    let is_db = oms::durable::is_database(db).map_err(|e| OpenError::Usage(format!("{}: {e}", db.display())))?;
    if !is_db {
        return Err(OpenError::Usage(format!(
            "{} is not a store database; tokens, uses and audit entries live in one (cal store init)",
            db.display()
        )));
    }
    let clock = now_ms.map_or_else(oms::store::StoreConfig::default, oms::store::StoreConfig::fixed_clock);
    let store = DurableStore::open(db, clock, OpenOptions::read_write())
        .map_err(|e| OpenError::Store(format!("{}: {e}", db.display())))?;
    let audit_key = audit_key(&key);
    let mut interp = interp;
    if interp.semantic.is_none() {
        interp.semantic = super::embedder::open_for_database(&store).map_err(OpenError::Store)?;
    }
    Ok(Service::new(Arc::new(store), key, ServiceConfig { interp, audit_key, ..ServiceConfig::default() }))
}

/// Reads a token argument: the text itself, or `@FILE`.
pub fn token_text(token: &str) -> Result<String, OpenError> {
    match token.strip_prefix('@') {
        Some(path) => std::fs::read_to_string(path).map_err(|e| OpenError::Usage(format!("{path}: {e}"))),
        None => Ok(token.to_string()),
    }
}

/// A token and the service that checks it.
pub struct Gate {
    token: String,
    service: Service,
}

impl Gate {
    /// Loads the key, opens the store database as a service, and reads the token.
    pub fn open(token: &str, key: &Path, stores: &[PathBuf], session: &Session) -> Result<Gate, OpenError> {
        let mut interp = session.interp.config().clone();
        interp.audit = None;
        let service = open_service(key, stores, Some(session.opts.now_ms), interp)?;
        Ok(Gate { token: token_text(token)?, service })
    }

    /// Runs `q` through the service; `exec` runs it on the admitted interpreter.
    pub fn run(
        &self,
        q: &Query,
        opts: &ExecOptions,
        exec: impl FnOnce(&cal_interp::Interpreter<Arc<dyn cal_interp::ReadFacade>>, &Query, &ExecOptions) -> Response,
    ) -> Response {
        self.service.run_with(&self.token, q, opts, exec)
    }
}
