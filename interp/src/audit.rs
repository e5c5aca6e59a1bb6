//! The audit trail (§21): every execution produces one entry — Tier 0 with
//! the query hash, namespace, pseudonymized actor, result count, tier and
//! duration; Tier 1 refusals too. Entries go to an [`AuditSink`] configured on
//! the interpreter: in memory for tests, JSON lines in a file for `cal run
//! --audit FILE`.

use std::io::Write;
use std::sync::Mutex;

use hmac::{Hmac, Mac};
use serde_json::{Value as Json, json};
use sha2::Sha256;

/// One audit entry (§21, Tier 0 table; `statement_type` and `error` added).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditEntry {
    /// Capability token correlation; `None` here (this implementation issues no tokens).
    pub token_id: Option<String>,
    /// SHA-256 of the normalized CAL string (the envelope's `query_hash`).
    pub query_hash: String,
    /// The token's namespace, when the request was confined to one.
    pub namespace: Option<String>,
    /// HMAC-SHA256 of the user id under the deployment's audit key.
    pub actor_id: Option<String>,
    /// Which agent (LLM) generated the query, when known.
    pub agent_id: Option<String>,
    /// Grains returned.
    pub result_count: u64,
    /// 0 for reads, 1 for evolve statements (refused here).
    pub tier: u8,
    /// Execution time.
    pub duration_ms: u64,
    /// The statement (`recall`, `add`, …).
    pub statement_type: &'static str,
    /// The error code, when the statement failed.
    pub error: Option<String>,
    /// The streaming fields of §21, when the request was streamed (§11.5: cancellation MUST be
    /// recorded).
    pub stream: Option<StreamAudit>,
}

/// §21's "Streaming audit fields" of a streamed ASSEMBLE.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamAudit {
    /// The event groups in effect (`progress`, `budget`, `chunks`).
    pub stream_options: Vec<String>,
    /// Events delivered.
    pub events_emitted: u64,
    /// Whether the assembly was cancelled.
    pub cancelled: bool,
    /// The reason given, when cancelled.
    pub cancel_reason: Option<String>,
    /// Sources that failed.
    pub sources_failed: usize,
}

impl AuditEntry {
    /// The entry as JSON, keys in the §21 order; the streaming fields follow for a streamed
    /// request (`stream_enabled` is absent, i.e. false, otherwise).
    pub fn to_json(&self) -> Json {
        let mut j = json!({
            "token_id": self.token_id,
            "query_hash": self.query_hash,
            "namespace": self.namespace,
            "actor_id": self.actor_id,
            "agent_id": self.agent_id,
            "result_count": self.result_count,
            "tier": self.tier,
            "duration_ms": self.duration_ms,
            "statement_type": self.statement_type,
            "error": self.error,
        });
        if let (Some(st), Some(m)) = (&self.stream, j.as_object_mut()) {
            m.insert("stream_enabled".into(), true.into());
            m.insert("stream_options".into(), json!(st.stream_options));
            m.insert("events_emitted".into(), st.events_emitted.into());
            m.insert("cancelled".into(), st.cancelled.into());
            m.insert("cancel_reason".into(), json!(st.cancel_reason));
            m.insert("sources_failed".into(), st.sources_failed.into());
        }
        j
    }
}

/// Where audit entries go. Recording must not fail the request: a sink that
/// cannot write reports it its own way.
pub trait AuditSink: Send + Sync + std::fmt::Debug {
    /// Records one entry.
    fn record(&self, entry: &AuditEntry);
}

/// Keeps entries in memory (tests, embedding applications).
#[derive(Debug, Default)]
pub struct MemoryAudit {
    entries: Mutex<Vec<AuditEntry>>,
}

impl MemoryAudit {
    /// The entries so far.
    pub fn entries(&self) -> Vec<AuditEntry> {
        self.entries.lock().map(|e| e.clone()).unwrap_or_default()
    }
}

impl AuditSink for MemoryAudit {
    fn record(&self, entry: &AuditEntry) {
        if let Ok(mut e) = self.entries.lock() {
            e.push(entry.clone());
        }
    }
}

/// Appends entries as JSON lines to a writer (a file for `cal run --audit`).
#[derive(Debug)]
pub struct JsonLinesAudit<W: Write + Send + std::fmt::Debug> {
    out: Mutex<W>,
}

impl<W: Write + Send + std::fmt::Debug> JsonLinesAudit<W> {
    /// A sink writing to `out`.
    pub fn new(out: W) -> Self {
        JsonLinesAudit { out: Mutex::new(out) }
    }
}

impl<W: Write + Send + std::fmt::Debug> AuditSink for JsonLinesAudit<W> {
    fn record(&self, entry: &AuditEntry) {
        if let Ok(mut out) = self.out.lock()
            && writeln!(out, "{}", entry.to_json()).and_then(|()| out.flush()).is_err()
        {
            eprintln!("warning: the audit entry for {} could not be written", entry.query_hash);
        }
    }
}

/// HMAC-SHA256 (RFC 2104) of `message` under `key`, as lowercase hex: the
/// pseudonymized `actor_id` of §21.
pub fn pseudonym(key: &[u8], message: &str) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes keys of any length");
    mac.update(message.as_bytes());
    oms::address::hex(&mac.finalize().into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_matches_rfc_4231_test_case_2() {
        assert_eq!(
            pseudonym(b"Jefe", "what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn long_keys_are_hashed_first() {
        // RFC 4231 test case 6: a 131-byte key.
        let key = [0xaau8; 131];
        assert_eq!(
            pseudonym(&key, "Test Using Larger Than Block-Size Key - Hash Key First"),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
    }
}
