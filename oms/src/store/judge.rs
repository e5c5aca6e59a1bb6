//! The judgements behind every invalidation, in one place: whether a grain
//! may supersede another (guards, §23 policies with their bypass rules,
//! type and `derived_from` rules, goal transitions) and whether a grain may
//! be contradicted. `supersede` and `contradict` call them before they
//! write; importing a `.mg` file calls the very same functions to check the
//! claims its manifest makes (see `claims.rs`), so a claim passes exactly
//! when the operation it records would have passed.

use super::indexes::Id;
use super::policy::{self, Op, Permit, Proof, contradict_auth_payload, supersede_auth_payload};
use super::policy_walk::{Guard, Relation, guards};
use super::record::{EXTRA_INVALIDATION_AUTH, Record, derived_from, str_field};
use super::{Inner, Store};
use crate::address::{ContentAddress, unhex};
use crate::cose;
use crate::error::{OmsError, Result};
use crate::grain::Grain;
use crate::types::GrainType;
use crate::value::{Map, Value};

/// Goal fields that an autonomous state transition must leave unchanged.
const GOAL_CONTENT_FIELDS: &[&str] = &[
    "description",
    "criteria",
    "criteria_structured",
    "priority",
    "parent_goals",
    "depends_on",
    "deadline",
    "assigned_agent",
    "expected_output",
    "subject",
    "relation",
    "object",
    "namespace",
    "delegate_to",
    "delegate_from",
    "rollback_on_failure",
    "allowed_transitions",
    "evidence_required",
];

/// What a permitted supersession does besides linking the two grains.
#[derive(Debug, Clone, Default)]
pub(crate) struct Verdict {
    /// Accepted under `soft_locked`: flag the new grain for human review.
    pub(crate) review: bool,
    /// The policy the new grain inherits through an autonomous goal
    /// transition (§23.5), if any.
    pub(crate) inherited: Option<Map>,
}

/// Binary COSE entries of a list of signatures (binary values or hex text).
pub(crate) fn auth_list(v: Option<&Value>) -> Vec<Vec<u8>> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| match v {
                    Value::Bin(b) => Some(b.clone()),
                    Value::Str(s) => unhex(s),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default()
}

/// DIDs of the valid COSE signatures over `payload` among `entries`.
pub(crate) fn cosigners(entries: &[Vec<u8>], payload: &[u8]) -> Vec<String> {
    entries
        .iter()
        .filter_map(|e| cose::verify_payload(e).ok())
        .filter(|(_, p)| p.as_slice() == payload)
        .map(|(did, _)| did)
        .collect()
}

/// The proof a superseding grain carries for replacing `old`: its signer,
/// its `supersession_auth` approvals of replacing `old` by this very content
/// (`policy::supersede_auth_payload`), a justification (the request's, else
/// its `supersession_justification`) and the acting agent — the verified
/// signer when the grain is signed, else its self-declared `author_did`, so
/// that leaving `author_did` out (or naming someone else) cannot turn the
/// signer's own approval into authorization (§23.8).
pub(crate) fn supersession_proof(
    signer: Option<&str>,
    g: &Grain,
    old: &ContentAddress,
    justification: Option<&str>,
    now_ms: i64,
) -> Proof {
    let auth = auth_list(g.get("supersession_auth"));
    // A grain that cannot be encoded again has no approvals that could bind it.
    let cosigners = match supersede_auth_payload(old, g) {
        Ok(payload) if !auth.is_empty() => cosigners(&auth, &payload),
        _ => Vec::new(),
    };
    Proof {
        signers: signer.iter().map(|s| s.to_string()).collect(),
        cosigners,
        justification: justification
            .map(str::to_string)
            .or_else(|| str_field(g, "supersession_justification").map(str::to_string)),
        agent: signer.or_else(|| str_field(g, "author_did")).map(str::to_string),
        now_ms,
    }
}

/// The proof for contradicting `target` (or setting it `contested` or
/// `retracted`): COSE signatures over `oms-contradict:<target>`.
pub(crate) fn contradiction_proof(
    target: &ContentAddress,
    auth: &[Vec<u8>],
    justification: Option<&str>,
    now_ms: i64,
) -> Proof {
    let signers = cosigners(auth, &contradict_auth_payload(target));
    Proof {
        signers: signers.clone(),
        cosigners: signers,
        justification: justification.map(str::to_string),
        agent: None,
        now_ms,
    }
}

/// The authorization entries among `auth` that verify for `target`, kept in
/// the index layer so the contradiction can be checked again on import.
pub(crate) fn valid_contradiction_auth(target: &ContentAddress, auth: &[Vec<u8>]) -> Option<Value> {
    let payload = contradict_auth_payload(target);
    let kept: Vec<Value> = auth
        .iter()
        .filter(|e| !cosigners(std::slice::from_ref(e), &payload).is_empty())
        .cloned()
        .map(Value::Bin)
        .collect();
    (!kept.is_empty()).then_some(Value::Array(kept))
}

/// The contradiction authorization a record keeps in its index layer.
pub(crate) fn kept_contradiction_auth(r: &Record) -> Vec<Vec<u8>> {
    auth_list(r.state.extra.get(EXTRA_INVALIDATION_AUTH))
}

fn goal_state(g: &Grain) -> Option<&str> {
    str_field(g, "goal_state")
}

/// An autonomous goal transition (§23.4): the new state is listed in the
/// protected goal's `allowed_transitions` and nothing but the state (and its
/// evidence and bookkeeping) changes.
fn autonomous_transition(old: &Record, new: &Grain) -> bool {
    let g = old.body.grain();
    if g.grain_type() != GrainType::Goal || new.grain_type() != GrainType::Goal {
        return false;
    }
    let (Some(from), Some(to)) = (goal_state(g), goal_state(new)) else { return false };
    let allowed = g
        .get("allowed_transitions")
        .and_then(Value::as_array)
        .is_some_and(|a| a.iter().any(|s| s.as_str() == Some(to)));
    from != to && allowed && GOAL_CONTENT_FIELDS.iter().all(|f| g.get(f) == new.get(f))
}

impl Store {
    /// Whether `new` may supersede the grain `old_id` with `proof`: the
    /// target is not already superseded (`ERR_CONFLICT`), the types agree
    /// and `new` lists the target in `derived_from` (`ERR_SCHEMA`), an
    /// autonomous goal transition carries its evidence
    /// (`ERR_EVIDENCE_REQUIRED`), and every guard's policy — target,
    /// lineage predecessors, subtree ancestors, and the protected ancestors
    /// of `new` (chain injection) — permits it (`ERR_INVALIDATION_DENIED`).
    /// Changes nothing.
    pub(crate) fn judge_supersession(&self, inner: &Inner, old_id: Id, new: &Grain, proof: &Proof) -> Result<Verdict> {
        let target = inner.record(old_id).ok_or_else(|| OmsError::Bug { detail: "judged a missing grain".into() })?;
        let old = target.address;
        if let Some(by) = target.state.superseded_by {
            return Err(OmsError::Conflict { reason: format!("{old} is already superseded by {by}") });
        }
        if target.body.grain().grain_type() != new.grain_type() {
            return Err(OmsError::schema("type", "a superseding grain must have the type of the grain it supersedes"));
        }
        if !derived_from(new).contains(&old) {
            return Err(OmsError::schema(
                "derived_from",
                format!("a superseding grain must list {old} in derived_from"),
            ));
        }
        let autonomous = autonomous_transition(target, new);
        if autonomous {
            self.check_evidence(target, new)?;
        }
        let mut review = false;
        for Guard { record, relation } in guards(inner, old_id, Some(new)) {
            if autonomous && matches!(relation, Relation::Target | Relation::Predecessor) {
                continue;
            }
            let Permit { review: r } = policy::check(
                record.effective_policy(),
                &record.address,
                Op::Supersede,
                proof,
                self.config.key_separation,
            )?;
            review |= r;
        }
        // Goal laundering (§23.5): an autonomous transition inherits the policy.
        let inherited = autonomous.then(|| target.effective_policy().cloned()).flatten();
        Ok(Verdict { review, inherited })
    }

    /// Whether the grain `id` may be contradicted (or set `contested` /
    /// `retracted`, or otherwise taken out of the current view) with
    /// `proof`, or — for `Op::Erase` — erased: every guard's policy must
    /// permit it. Returns whether `soft_locked` asks for human review.
    pub(crate) fn judge_invalidation(&self, inner: &Inner, id: Id, op: Op, proof: &Proof) -> Result<bool> {
        let mut review = false;
        for Guard { record, .. } in guards(inner, id, None) {
            review |= policy::check(record.effective_policy(), &record.address, op, proof, self.config.key_separation)?
                .review;
        }
        Ok(review)
    }

    fn check_evidence(&self, target: &Record, new: &Grain) -> Result<()> {
        let to = goal_state(new).unwrap_or("");
        if !matches!(to, "satisfied" | "failed") {
            return Ok(());
        }
        let required =
            target.body.grain().get("evidence_required").and_then(Value::as_i64).unwrap_or(0).max(0) as usize;
        let required = if required == 0 && self.config.require_transition_evidence { 1 } else { required };
        let have = new.get("satisfaction_evidence").and_then(Value::as_array).map_or(0, <[Value]>::len);
        if have < required {
            return Err(OmsError::EvidenceRequired {
                reason: format!(
                    "transition of protected goal {} to {to:?} needs {required} satisfaction_evidence reference(s), got {have}",
                    target.address
                ),
            });
        }
        Ok(())
    }
}
