//! Invalidation policy evaluation (OMS §23): who may supersede, contradict
//! or erase a protected grain. Every refusal is `ERR_INVALIDATION_DENIED`
//! (or `ERR_EVIDENCE_REQUIRED`) with the reason; unknown or malformed
//! policies fail closed as `locked` (§23.3).

use crate::address::ContentAddress;
use crate::error::{OmsError, Result};
use crate::grain::Grain;
use crate::value::{Map, Value};

/// The modes of §23.2.
pub const MODES: &[&str] =
    &["open", "soft_locked", "locked", "quorum", "delegated", "timed", "hold", "consent_cascade"];

/// What a `supersession_auth` approval binds of the superseding grain `new`:
/// the lowercase hex SHA-256 of its canonical blob with `supersession_auth`
/// removed (the approvals travel inside the grain, so they cannot sign its
/// own address) and the signed flag clear (so an approval given before the
/// author signs still holds after). With no approvals in an unsigned grain
/// this is its content address. See docs/spec-decisions-oms.md S3.
pub fn supersede_auth_digest(new: &Grain) -> Result<String> {
    let mut g = new.without_field("supersession_auth");
    g.options.signed = false;
    Ok(g.encode()?.address.to_hex())
}

/// The payload a `supersession_auth` COSE signature must carry to approve
/// replacing `old` by `new`: `oms-supersede:<old address>:<digest>`, the
/// digest of [`supersede_auth_digest`]. Approvals collected for one
/// replacement therefore count for no other content.
pub fn supersede_auth_payload(old: &ContentAddress, new: &Grain) -> Result<Vec<u8>> {
    Ok(format!("oms-supersede:{old}:{}", supersede_auth_digest(new)?).into_bytes())
}

/// Payload a contradiction authorization must carry.
pub fn contradict_auth_payload(target: &ContentAddress) -> Vec<u8> {
    format!("oms-contradict:{target}").into_bytes()
}

/// The operation being attempted on a protected grain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// Supersession (`superseded_by` set).
    Supersede,
    /// Contradiction (`contradicted` set, §23.7 bypass 1).
    Contradict,
    /// Compliance erasure (§28.4 `delete`).
    Erase,
}

impl Op {
    fn verb(self) -> &'static str {
        match self {
            Op::Supersede => "supersede",
            Op::Contradict => "contradict",
            Op::Erase => "erase",
        }
    }
}

/// What the requester has proven.
#[derive(Debug, Clone, Default)]
pub struct Proof {
    /// DIDs whose COSE signature over the new grain (or contradiction) verified.
    pub signers: Vec<String>,
    /// Distinct DIDs with a valid `supersession_auth` signature for this target.
    pub cosigners: Vec<String>,
    /// Justification, from the request or the new grain's `supersession_justification`.
    pub justification: Option<String>,
    /// The acting agent's DID, for key separation (§23.8): the verified
    /// signer of the superseding grain, else its `author_did`.
    pub agent: Option<String>,
    /// Current time, epoch ms (injected clock).
    pub now_ms: i64,
}

/// A permitted invalidation; `review` when `soft_locked` accepted it with a
/// justification that a human should look at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Permit {
    /// Flag the result for human review.
    pub review: bool,
}

fn deny(target: &ContentAddress, op: Op, why: impl std::fmt::Display) -> OmsError {
    OmsError::InvalidationDenied { reason: format!("cannot {} {target}: {why}", op.verb()) }
}

fn strings(p: &Map, key: &str) -> Vec<String> {
    p.get(key)
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
        .unwrap_or_default()
}

/// Evaluates the policy of `target` (`None` = no policy = open).
pub fn check(
    policy: Option<&Map>,
    target: &ContentAddress,
    op: Op,
    proof: &Proof,
    key_separation: bool,
) -> Result<Permit> {
    let Some(p) = policy else { return Ok(Permit { review: false }) };
    let mode = p.get("mode").and_then(Value::as_str);
    check_mode(p, mode, target, op, proof, key_separation, 0)
}

fn check_mode(
    p: &Map,
    mode: Option<&str>,
    target: &ContentAddress,
    op: Op,
    proof: &Proof,
    key_separation: bool,
    depth: u8,
) -> Result<Permit> {
    let allowed = Ok(Permit { review: false });
    let authorized = strings(p, "authorized");
    // Key separation (§23.8): the acting agent cannot authorize itself.
    let counts = |did: &String, mode: &str| {
        authorized.contains(did)
            && !(key_separation && matches!(mode, "locked" | "quorum") && proof.agent.as_deref() == Some(did.as_str()))
    };
    match mode {
        Some("open") => allowed,
        Some("consent_cascade") => allowed,
        Some("hold") => Err(deny(target, op, "it is under litigation hold (mode \"hold\")")),
        Some("soft_locked") => {
            if op == Op::Erase {
                return allowed;
            }
            match proof.justification.as_deref().map(str::trim) {
                Some(j) if !j.is_empty() => Ok(Permit { review: true }),
                _ => Err(deny(target, op, "mode \"soft_locked\" requires a supersession_justification")),
            }
        }
        Some("delegated") => {
            if op == Op::Erase {
                return allowed;
            }
            if proof.signers.iter().any(|s| authorized.contains(s)) {
                allowed
            } else {
                Err(deny(target, op, "mode \"delegated\" requires a COSE signature by an authorized DID"))
            }
        }
        Some("quorum") => {
            if op == Op::Erase {
                return allowed;
            }
            let threshold = match p.get("threshold").and_then(Value::as_i64) {
                Some(t) if t >= 1 => t as usize,
                _ => return Err(deny(target, op, "mode \"quorum\" without a valid threshold (fail closed)")),
            };
            let mut valid: Vec<&String> = proof.cosigners.iter().filter(|d| counts(d, "quorum")).collect();
            valid.sort();
            valid.dedup();
            if valid.len() >= threshold {
                allowed
            } else {
                Err(deny(
                    target,
                    op,
                    format!("mode \"quorum\" needs {threshold} authorized signatures, got {}", valid.len()),
                ))
            }
        }
        Some("timed") => {
            let until = p.get("locked_until").and_then(Value::as_i64);
            match until {
                Some(u) if proof.now_ms.div_euclid(1000) >= u => {
                    let fallback = p.get("fallback_mode").and_then(Value::as_str).unwrap_or("open");
                    if depth > 0 || fallback == "timed" {
                        return check_mode(p, Some("locked"), target, op, proof, key_separation, depth + 1);
                    }
                    check_mode(p, Some(fallback), target, op, proof, key_separation, depth + 1)
                }
                Some(u) => check_mode(p, Some("locked"), target, op, proof, key_separation, depth + 1)
                    .map_err(|_| deny(target, op, format!("mode \"timed\" is locked until {u} (epoch seconds)"))),
                None => Err(deny(target, op, "mode \"timed\" without locked_until (fail closed)")),
            }
        }
        Some("locked") => {
            if op == Op::Erase {
                return allowed;
            }
            // §12.5.4: a locked grain yields only to a signature by an authorized DID.
            if proof.signers.iter().chain(&proof.cosigners).any(|s| counts(s, "locked")) {
                allowed
            } else {
                Err(deny(target, op, "mode \"locked\" permits no invalidation without an authorized signature"))
            }
        }
        Some(other) => check_mode(p, Some("locked"), target, op, proof, key_separation, depth + 1)
            .map_err(|_| deny(target, op, format!("unknown mode {other:?} is treated as \"locked\" (fail closed)"))),
        None => check_mode(p, Some("locked"), target, op, proof, key_separation, depth + 1)
            .map_err(|_| deny(target, op, "policy without a mode is treated as \"locked\" (fail closed)")),
    }
}

/// The scope of a policy (§23.6): `grain` (default), `subtree` or `lineage`.
pub fn scope(policy: &Map) -> &str {
    policy.get("scope").and_then(Value::as_str).unwrap_or("grain")
}

/// Whether a policy protects anything at all (mode other than open).
pub fn is_protective(policy: Option<&Map>) -> bool {
    policy.is_some_and(|p| p.get("mode").and_then(Value::as_str) != Some("open"))
}
