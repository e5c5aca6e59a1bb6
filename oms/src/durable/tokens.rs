//! Uses of capability tokens (CAL §18.1 `max_uses`), counted in the store so
//! that a spent token stays spent after a restart and two processes never
//! both take its last use. The store knows nothing else about tokens: the
//! service layer verifies them and asks here for one use.

use rusqlite::{OptionalExtension, TransactionBehavior, params};

use super::{DurableStore, db_error};
use crate::error::Result;

/// The answer to a request for one use of a token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenUse {
    /// The use was granted and recorded; `uses` counts it.
    Granted {
        /// Uses so far, this one included.
        uses: u64,
    },
    /// Every use was taken already; nothing was recorded.
    Spent,
}

impl DurableStore {
    /// Records one use of `token_id` unless it has had `max_uses` already, in one
    /// `BEGIN IMMEDIATE` transaction (durable before it returns).
    pub fn spend_token_use(&self, token_id: &str, max_uses: u64, now_ms: i64) -> Result<TokenUse> {
        self.writable()?;
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(db_error)?;
        let out = if spend_in(&tx, token_id, max_uses, now_ms)? {
            let uses: i64 = tx
                .query_row("SELECT uses FROM tokens_used WHERE token_id = ?1", params![token_id], |r| r.get(0))
                .map_err(db_error)?;
            TokenUse::Granted { uses: u64::try_from(uses).unwrap_or(u64::MAX) }
        } else {
            TokenUse::Spent
        };
        tx.commit().map_err(db_error)?;
        Ok(out)
    }
}

/// Records one use of `token_id` inside the caller's transaction unless it has had
/// `max_uses` already; `false` (nothing recorded) when it has.
pub(crate) fn spend_in(tx: &rusqlite::Connection, token_id: &str, max_uses: u64, now_ms: i64) -> Result<bool> {
    let used: Option<i64> = tx
        .query_row("SELECT uses FROM tokens_used WHERE token_id = ?1", params![token_id], |r| r.get(0))
        .optional()
        .map_err(db_error)?;
    let used = used.map_or(0, |u| u64::try_from(u).unwrap_or(u64::MAX));
    if used >= max_uses {
        return Ok(false);
    }
    let n = i64::try_from(used + 1).unwrap_or(i64::MAX);
    if used == 0 {
        tx.execute(
            "INSERT INTO tokens_used (token_id, uses, first_used_at) VALUES (?1, ?2, ?3)",
            params![token_id, n, now_ms],
        )
        .map_err(db_error)?;
    } else {
        tx.execute("UPDATE tokens_used SET uses = ?2 WHERE token_id = ?1", params![token_id, n]).map_err(db_error)?;
    }
    Ok(true)
}
