//! Capability tokens exactly as §18.1 defines them: who may do what, in which
//! namespace, until when, how often, signed with the server's key
//! (HMAC-SHA256 over the token's canonical JSON).
//!
//! A token is plain JSON so that an agent harness can read what it was
//! granted. Nothing in it is trusted until [`CapabilityToken::verify`] has
//! checked the signature and the validity window against the injected clock;
//! what remains to check per request (operations, grain types, uses, quota)
//! is answered by the verified token ([`Verified`]).

use std::collections::BTreeMap;

use cal_grammar::GrainType;
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use sha2::Sha256;

use crate::key::ServerKey;

type HmacSha256 = Hmac<Sha256>;

/// An operation a token may allow (§18.1 `allowed_ops`), one per statement
/// kind, plus `DefineTemplate`, the one Tier 1 action §18.1 does not list
/// (docs/spec-decisions-service.md S1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Op {
    /// RECALL.
    Recall,
    /// ASSEMBLE.
    Assemble,
    /// A RECALL that ends in `| COUNT`.
    Count,
    /// EXISTS.
    Exists,
    /// EXPLAIN (a dry run of any statement).
    Explain,
    /// HISTORY.
    History,
    /// DESCRIBE.
    Describe,
    /// BATCH.
    Batch,
    /// COALESCE.
    Coalesce,
    /// ADD (Tier 1).
    Add,
    /// SUPERSEDE (Tier 1).
    Supersede,
    /// REVERT (Tier 1).
    Revert,
    /// DEFINE TEMPLATE (Tier 1: it registers state that outlives the request).
    DefineTemplate,
}

impl Op {
    /// Every operation, Tier 0 first.
    pub const ALL: [Op; 13] = [
        Op::Recall,
        Op::Assemble,
        Op::Count,
        Op::Exists,
        Op::Explain,
        Op::History,
        Op::Describe,
        Op::Batch,
        Op::Coalesce,
        Op::Add,
        Op::Supersede,
        Op::Revert,
        Op::DefineTemplate,
    ];

    /// The operations of the Tier 0 token §18.1 shows: the first nine of [`Op::ALL`].
    pub const TIER0: &'static [Op] = Op::ALL.split_at(9).0;

    /// The tier an operation needs: 1 for the writes, 0 for the rest.
    pub const fn tier(self) -> u8 {
        match self {
            Op::Add | Op::Supersede | Op::Revert | Op::DefineTemplate => 1,
            _ => 0,
        }
    }

    /// The name as tokens spell it (`Recall`).
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Recall => "Recall",
            Op::Assemble => "Assemble",
            Op::Count => "Count",
            Op::Exists => "Exists",
            Op::Explain => "Explain",
            Op::History => "History",
            Op::Describe => "Describe",
            Op::Batch => "Batch",
            Op::Coalesce => "Coalesce",
            Op::Add => "Add",
            Op::Supersede => "Supersede",
            Op::Revert => "Revert",
            Op::DefineTemplate => "DefineTemplate",
        }
    }

    /// The operation spelled `word`, case-insensitively (`recall`, `Recall`, `define_template`).
    pub fn from_word(word: &str) -> Option<Op> {
        let w: String = word.chars().filter(|c| *c != '_').collect::<String>().to_ascii_lowercase();
        Op::ALL.into_iter().find(|op| op.as_str().to_ascii_lowercase() == w)
    }
}

/// A capability token (§18.1), member for member.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CapabilityToken {
    /// UUID v4.
    pub token_id: String,
    /// The namespace every request with this token runs in (§18.3).
    pub namespace: String,
    /// On whose behalf.
    pub user_id: String,
    /// 0 (read) or 1 (evolve).
    pub tier: u8,
    /// What it may do.
    pub allowed_ops: Vec<Op>,
    /// Epoch milliseconds.
    pub issued_at: i64,
    /// Epoch milliseconds; the token is refused from this instant on.
    pub expires_at: i64,
    /// How many requests may present it.
    pub max_uses: u64,
    /// Grain types ADD and SUPERSEDE may write (singular names); empty allows none for
    /// writes and does not restrict reads.
    pub allowed_grain_types: Vec<String>,
    /// Evolve operations left.
    pub write_quota_remaining: u64,
    /// Lower-case hex HMAC-SHA256 of [`CapabilityToken::signing_input`] under the server key.
    pub signature: String,
}

/// What an issuer asks for; [`Claims::issue`] fills the id, the times and the signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claims {
    /// The namespace.
    pub namespace: String,
    /// The user.
    pub user_id: String,
    /// 0 or 1.
    pub tier: u8,
    /// Operations; `None` gives every operation of the tier.
    pub ops: Option<Vec<Op>>,
    /// Grain types ADD and SUPERSEDE may write.
    pub grain_types: Vec<GrainType>,
    /// Evolve operations allowed.
    pub quota: u64,
    /// Lifetime in milliseconds.
    pub ttl_ms: i64,
    /// Uses allowed.
    pub max_uses: u64,
}

/// Why a token cannot be issued or was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenError {
    /// Not a token: not JSON, a member missing or unknown, a value of the wrong type.
    Malformed(String),
    /// The claims contradict each other (a Tier 0 token allowing ADD, an empty op list …).
    Invalid(String),
    /// The signature does not match the contents under this server's key.
    BadSignature,
    /// `expires_at` has passed.
    Expired,
    /// `issued_at` is in the future.
    NotYetValid,
}

impl std::fmt::Display for TokenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TokenError::Malformed(why) => write!(f, "not a capability token: {why}"),
            TokenError::Invalid(why) => write!(f, "the token's claims are inconsistent: {why}"),
            TokenError::BadSignature => f.write_str("the token's signature does not match its contents"),
            TokenError::Expired => f.write_str("the token has expired"),
            TokenError::NotYetValid => f.write_str("the token is not valid yet"),
        }
    }
}

impl std::error::Error for TokenError {}

/// Largest lifetime an issuer may ask for: 30 days.
pub const MAX_TTL_MS: i64 = 30 * 24 * 3_600_000;

impl Claims {
    /// Signs the claims into a token valid from `now_ms` for `ttl_ms`, with a fresh UUID v4.
    pub fn issue(&self, key: &ServerKey, now_ms: i64) -> Result<CapabilityToken, TokenError> {
        let ops = match &self.ops {
            Some(ops) => {
                let mut ops = ops.clone();
                ops.sort();
                ops.dedup();
                ops
            }
            None => Op::ALL.into_iter().filter(|op| op.tier() <= self.tier).collect(),
        };
        if self.ttl_ms <= 0 || self.ttl_ms > MAX_TTL_MS {
            return Err(TokenError::Invalid(format!(
                "a lifetime must be between 1 ms and 30 days, not {} ms",
                self.ttl_ms
            )));
        }
        let mut t = CapabilityToken {
            token_id: uuid_v4()?,
            namespace: self.namespace.clone(),
            user_id: self.user_id.clone(),
            tier: self.tier,
            allowed_ops: ops,
            issued_at: now_ms,
            expires_at: now_ms.saturating_add(self.ttl_ms),
            max_uses: self.max_uses,
            allowed_grain_types: self.grain_types.iter().map(|g| g.singular().to_string()).collect(),
            write_quota_remaining: self.quota,
            signature: String::new(),
        };
        t.check_consistent()?;
        t.signature = t.sign(key);
        Ok(t)
    }
}

/// A random UUID v4 (RFC 9562 §5.4), lower case.
pub(crate) fn uuid_v4() -> Result<String, TokenError> {
    let mut b = [0u8; 16];
    getrandom::fill(&mut b).map_err(|e| TokenError::Invalid(format!("no randomness available: {e}")))?;
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h: String = b.iter().map(|x| format!("{x:02x}")).collect();
    Ok(format!("{}-{}-{}-{}-{}", &h[..8], &h[8..12], &h[12..16], &h[16..20], &h[20..]))
}

impl CapabilityToken {
    /// Reads a token from its JSON text.
    pub fn parse(text: &str) -> Result<CapabilityToken, TokenError> {
        serde_json::from_str(text.trim()).map_err(|e| TokenError::Malformed(e.to_string()))
    }

    /// The token as one line of JSON, members in §18.1's order.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// What the signature covers: every member but `signature`, keys sorted, no
    /// whitespace (so the bytes do not depend on how the token was laid out in transit).
    pub fn signing_input(&self) -> String {
        let Ok(Json::Object(m)) = serde_json::to_value(self) else { return String::new() };
        let sorted: BTreeMap<String, Json> = m.into_iter().filter(|(k, _)| k != "signature").collect();
        serde_json::to_string(&sorted).unwrap_or_default()
    }

    fn sign(&self, key: &ServerKey) -> String {
        sign_hex(key, &self.signing_input())
    }

    /// Claims that contradict each other are refused before the signature is even looked at
    /// by an issuer, and after it by a verifier.
    fn check_consistent(&self) -> Result<(), TokenError> {
        if self.tier > 1 {
            return Err(TokenError::Invalid(format!("tier must be 0 or 1, not {}", self.tier)));
        }
        if let Some(op) = self.allowed_ops.iter().find(|op| op.tier() > self.tier) {
            return Err(TokenError::Invalid(format!("a Tier {} token cannot allow {}", self.tier, op.as_str())));
        }
        if self.allowed_ops.is_empty() {
            return Err(TokenError::Invalid("allowed_ops is empty".into()));
        }
        if self.namespace.is_empty() || self.user_id.is_empty() {
            return Err(TokenError::Invalid("namespace and user_id must not be empty".into()));
        }
        if self.max_uses == 0 {
            return Err(TokenError::Invalid("max_uses must be at least 1".into()));
        }
        if self.expires_at <= self.issued_at {
            return Err(TokenError::Invalid("expires_at must be after issued_at".into()));
        }
        if let Some(t) = self.allowed_grain_types.iter().find(|t| GrainType::from_singular(t).is_none()) {
            return Err(TokenError::Invalid(format!("{t:?} is not a grain type")));
        }
        Ok(())
    }

    /// Checks the signature (in constant time) and the validity window at `now_ms`, and
    /// returns the token as something a request may rely on.
    pub fn verify(&self, key: &ServerKey, now_ms: i64) -> Result<Verified, TokenError> {
        verify_hex(key, &self.signing_input(), &self.signature)?;
        self.check_consistent()?;
        if now_ms >= self.expires_at {
            return Err(TokenError::Expired);
        }
        if now_ms < self.issued_at {
            return Err(TokenError::NotYetValid);
        }
        Ok(Verified { token: self.clone() })
    }
}

/// Lower-case hex HMAC-SHA256 of `input` under the server key.
pub(crate) fn sign_hex(key: &ServerKey, input: &str) -> String {
    let mut mac = HmacSha256::new_from_slice(key.bytes()).expect("HMAC takes any key length");
    mac.update(input.as_bytes());
    mac.finalize().into_bytes().iter().map(|b| format!("{b:02x}")).collect()
}

/// Checks a lower-case hex HMAC-SHA256 of `input`, in constant time.
pub(crate) fn verify_hex(key: &ServerKey, input: &str, signature: &str) -> Result<(), TokenError> {
    let sig = unhex(signature).ok_or(TokenError::BadSignature)?;
    let mut mac = HmacSha256::new_from_slice(key.bytes()).expect("HMAC takes any key length");
    mac.update(input.as_bytes());
    mac.verify_slice(&sig).map_err(|_| TokenError::BadSignature)
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if s.len() != 64 || !s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) {
        return None;
    }
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok()).collect()
}

/// A token whose signature and validity window were checked: the per-request questions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    token: CapabilityToken,
}

impl Verified {
    /// The token.
    pub fn token(&self) -> &CapabilityToken {
        &self.token
    }

    /// Whether it allows `op`.
    pub fn allows(&self, op: Op) -> bool {
        self.token.allowed_ops.contains(&op)
    }

    /// Whether ADD or SUPERSEDE may write a grain of type `g`.
    pub fn may_write(&self, g: GrainType) -> bool {
        self.token.allowed_grain_types.iter().any(|t| t == g.singular())
    }
}
