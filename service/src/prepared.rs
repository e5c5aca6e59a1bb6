//! The prepared statement of two-phase execution (§18.2): what `prepare`
//! hands back and `execute` performs.
//!
//! A prepared token is signed by the server key like a capability token
//! (same HMAC, same canonical signing input) and carries everything execute
//! needs without trusting the caller: the capability it was prepared under
//! (token id, namespace, user, write quota), the canonical statement and its
//! hash, the exact blob to store (its `created_at` fixed at prepare), the
//! content address it will have, the chain head it supersedes and the
//! version it restores. It is single-use (its `prepared_id` is spent in the
//! store in the write's own transaction) and short-lived: it expires
//! [`PREPARED_TTL_MS`] after prepare, or with its capability token, whichever
//! is first (ruling S10). A read statement may be prepared too (§26: the flow is RECOMMENDED
//! for Tier 0): its token carries the statement and its parameters, no write, and execute runs
//! the read under the capability it was prepared under (ruling S17).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use crate::key::ServerKey;
use crate::token::{CapabilityToken, TokenError, sign_hex, uuid_v4, verify_hex};

/// How long a prepared statement may wait for execute: 5 minutes.
pub const PREPARED_TTL_MS: i64 = 5 * 60 * 1000;

/// A prepared evolve statement, member for member.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PreparedToken {
    /// UUID v4 of this preparation; spent by execute.
    pub prepared_id: String,
    /// The capability token it was prepared under.
    pub token_id: String,
    /// Its namespace.
    pub namespace: String,
    /// Its user.
    pub user_id: String,
    /// Its write quota (`write_quota_remaining` when issued).
    pub write_quota: u64,
    /// The statement, canonical text.
    pub query: String,
    /// SHA-256 of the canonical text (the envelope's `query_hash`).
    pub query_hash: String,
    /// `add`, `supersede` or `revert`; `read` for a Tier 0 statement (§26: RECOMMENDED), whose
    /// write members (`grain_type`, `blob`, `new_hash`, `reason`) are empty.
    pub operation: String,
    /// The grain type written (singular).
    pub grain_type: String,
    /// The blob to store, lower-case hex.
    pub blob: String,
    /// Its content address, `sha256:…`.
    pub new_hash: String,
    /// The chain head it supersedes (SUPERSEDE, REVERT).
    pub target_hash: Option<String>,
    /// The version REVERT restores.
    pub restored_hash: Option<String>,
    /// REASON.
    pub reason: String,
    /// The parameters a prepared read was given (execute takes none of its own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<serde_json::Map<String, Json>>,
    /// Epoch ms of prepare.
    pub issued_at: i64,
    /// Epoch ms from which execute refuses it.
    pub expires_at: i64,
    /// Lower-case hex HMAC-SHA256 over every other member (keys sorted, compact JSON).
    pub signature: String,
}

impl PreparedToken {
    /// A fresh id for a preparation.
    pub fn new_id() -> Result<String, TokenError> {
        uuid_v4()
    }

    /// An unsigned preparation of `q` under `t` at `now_ms`, with a fresh id and every write
    /// member empty: a read stays so, a write fills them from its preview.
    pub fn of_statement(t: &CapabilityToken, q: &cal_parser::ast::Query, now_ms: i64) -> Result<Self, TokenError> {
        Ok(PreparedToken {
            prepared_id: Self::new_id()?,
            token_id: t.token_id.clone(),
            namespace: t.namespace.clone(),
            user_id: t.user_id.clone(),
            write_quota: t.write_quota_remaining,
            query: cal_parser::print::query_to_text(q),
            query_hash: cal_interp::query_hash(q),
            operation: String::new(),
            grain_type: String::new(),
            blob: String::new(),
            new_hash: String::new(),
            target_hash: None,
            restored_hash: None,
            reason: String::new(),
            params: None,
            issued_at: now_ms,
            expires_at: now_ms.saturating_add(PREPARED_TTL_MS).min(t.expires_at),
            signature: String::new(),
        })
    }

    /// The audit entry of its prepare phase (§21), with the caller's agent and the actor's
    /// pseudonym.
    pub fn prepare_audit(&self, actor_id: String, agent_id: Option<&str>, tier: u8, statement_type: &str) -> Json {
        serde_json::json!({
            "token_id": self.token_id,
            "query_hash": self.query_hash,
            "namespace": self.namespace,
            "actor_id": actor_id,
            "agent_id": agent_id,
            "phase": "prepare",
            "prepared_id": self.prepared_id,
            "operation": self.operation,
            "target_hash": self.target_hash,
            "new_hash": (!self.new_hash.is_empty()).then_some(&self.new_hash),
            "reason": (!self.reason.is_empty()).then_some(&self.reason),
            "tier": tier,
            "statement_type": statement_type,
            "error": null,
        })
    }

    /// What the signature covers: every member but `signature`, keys sorted, no whitespace.
    pub fn signing_input(&self) -> String {
        let Ok(Json::Object(m)) = serde_json::to_value(self) else { return String::new() };
        let sorted: BTreeMap<String, Json> = m.into_iter().filter(|(k, _)| k != "signature").collect();
        serde_json::to_string(&sorted).unwrap_or_default()
    }

    /// Signs it with the server key.
    pub fn sign(mut self, key: &ServerKey) -> PreparedToken {
        self.signature = sign_hex(key, &self.signing_input());
        self
    }

    /// The token as one line of JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a prepared token and checks its signature and validity window at `now_ms`.
    pub fn verify(text: &str, key: &ServerKey, now_ms: i64) -> Result<PreparedToken, TokenError> {
        let t: PreparedToken = serde_json::from_str(text.trim()).map_err(|e| TokenError::Malformed(e.to_string()))?;
        verify_hex(key, &t.signing_input(), &t.signature)?;
        if now_ms >= t.expires_at {
            return Err(TokenError::Expired);
        }
        if now_ms < t.issued_at {
            return Err(TokenError::NotYetValid);
        }
        Ok(t)
    }

    /// The blob's bytes (`None` when the hex is damaged, which a valid signature rules out).
    pub fn blob_bytes(&self) -> Option<Vec<u8>> {
        let s = self.blob.as_bytes();
        if !s.len().is_multiple_of(2) {
            return None;
        }
        s.chunks(2).map(|c| std::str::from_utf8(c).ok().and_then(|h| u8::from_str_radix(h, 16).ok())).collect()
    }
}
