//! `cal run --token T --key K`: a capability token presented from the command
//! line, enforced by the service layer's gate (`cal_service::gate`) exactly as
//! a server will enforce it. The token's namespace and user replace any
//! given with --namespace/--user (§18.3); every query is authorized on its
//! own and spends one use, counted in the store database so that a spent
//! token stays spent across runs. A refused query gets its §14.1 envelope
//! with the refusal as the error, and nothing of it runs.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use cal_interp::{Interpreter, ReadFacade, Response};
use cal_parser::ast::Query;
use cal_service::{ServerKey, Verified};
use oms::durable::{DurableStore, OpenOptions, TokenUse};

use super::run::{OpenError, Session};

/// A verified token and where its uses are counted.
pub struct Gate {
    token: Result<Verified, cal_service::Refusal>,
    uses: DurableStore,
}

impl Gate {
    /// Loads the key, opens the store database for counting uses, and verifies the token at
    /// the session's clock. A refused token is not an error here: each query is answered with
    /// the refusal ([`Gate::answer`]).
    pub fn open(token: &str, key: &Path, stores: &[PathBuf], now_ms: i64) -> Result<Gate, OpenError> {
        let key = ServerKey::load(key).map_err(|e| OpenError::Usage(format!("{}: {e}", key.display())))?;
        let [db] = stores else {
            return Err(OpenError::Usage(
                "a token's uses are counted in a store database: pass exactly one --store DB".into(),
            ));
        };
        let is_db = oms::durable::is_database(db).map_err(|e| OpenError::Usage(format!("{}: {e}", db.display())))?;
        if !is_db {
            return Err(OpenError::Usage(format!(
                "{} is not a store database; a token's uses are counted in one (cal store init)",
                db.display()
            )));
        }
        let uses = DurableStore::open(db, oms::store::StoreConfig::fixed_clock(now_ms), OpenOptions::read_write())
            .map_err(|e| OpenError::Store(format!("{}: {e}", db.display())))?;
        let text = match token.strip_prefix('@') {
            Some(path) => std::fs::read_to_string(path).map_err(|e| OpenError::Usage(format!("{path}: {e}")))?,
            None => token.to_string(),
        };
        Ok(Gate { token: cal_service::verify(&text, &key, now_ms), uses })
    }

    /// Applies the token to the session: its namespace and user replace the session's.
    pub fn bind(&self, session: &mut Session) {
        let Ok(v) = &self.token else { return };
        let t = v.token();
        let facade: Arc<dyn ReadFacade> = session.interp.facade().clone();
        let mut config = session.interp.config().clone();
        config.namespace = Some(t.namespace.clone());
        session.interp = Interpreter::new(facade, config);
        session.opts.user = Some(t.user_id.clone());
    }

    /// The refusal for `q`, if any: the credential, then the operations, then a use.
    pub fn answer(&self, session: &Session, q: &Query) -> Option<Response> {
        let refuse = |d| Some(session.interp.refuse(q, &session.opts, d));
        let v = match &self.token {
            Ok(v) => v,
            Err(r) => return refuse(r.diagnostic.clone()),
        };
        if let Err(d) = cal_service::authorize(v, q) {
            return refuse(d);
        }
        let t = v.token();
        match self.uses.spend_token_use(&t.token_id, t.max_uses, session.opts.now_ms) {
            Ok(TokenUse::Granted { .. }) => None,
            Ok(TokenUse::Spent) => refuse(cal_service::gate::refused("every use was taken").diagnostic),
            Err(e) => refuse(cal_service::gate::refused(format!("the use could not be recorded: {e}")).diagnostic),
        }
    }
}
