//! Write operations: `put`, `put_batch`, `supersede`, contradiction,
//! verification status and compliance `delete`. Each takes the write lock,
//! checks everything, and only then mutates, so it is all or nothing.

use super::indexes::{Id, Key};
use super::policy::{self, Op, Permit, Proof, contradict_auth_payload, supersede_auth_payload};
use super::policy_walk::{Guard, Relation, guards};
use super::record::{
    EXTRA_CONTRADICTED, EXTRA_INHERITED_POLICY, EXTRA_REVIEW, Parsed, Record, derived_from, parse_entry, str_field,
};
use super::{Inner, Store};
use crate::address::{ContentAddress, unhex};
use crate::cose;
use crate::error::{OmsError, Result};
use crate::grain::Grain;
use crate::mg::VERIFICATION_STATUSES;
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

impl Inner {
    pub(crate) fn insert(&mut self, p: Parsed) -> Id {
        self.insert_record(Record::new(p))
    }

    /// Inserts a record as it is, index state included.
    pub(crate) fn insert_record(&mut self, r: Record) -> Id {
        let id = self.records.len() as Id;
        self.idx.insert(id, &r);
        self.text.insert(id, &r.body.grain);
        self.by_address.insert(r.address, id);
        self.records.push(Some(r));
        self.live += 1;
        id
    }

    fn remove(&mut self, id: Id) {
        if let Some(r) = self.records.get_mut(id as usize).and_then(Option::take) {
            self.idx.remove(id, &r);
            self.text.remove(id, &r.body.grain);
            self.by_address.remove(&r.address);
            self.supersedes.remove(&id);
            self.scheduled_erasure.remove(&r.address);
            self.live -= 1;
        }
    }

    fn record_mut(&mut self, id: Id) -> Option<&mut Record> {
        self.records.get_mut(id as usize).and_then(Option::as_mut)
    }
}

/// `derived_from` on a new grain implies supersession when it points at a
/// grain of the same type that the new grain would replace: same subject and
/// relation, or (goals) the same description (§17.2).
fn implied_supersession(inner: &Inner, g: &Grain) -> Option<ContentAddress> {
    for a in derived_from(g) {
        let Some(old) = inner.by_addr(&a) else { continue };
        if old.body.grain.grain_type() != g.grain_type() {
            continue;
        }
        let same =
            |f: &str| str_field(&old.body.grain, f).is_some() && str_field(&old.body.grain, f) == str_field(g, f);
        if (same("subject") && same("relation")) || (g.grain_type() == GrainType::Goal && same("description")) {
            return Some(a);
        }
    }
    None
}

fn auth_entries(g: &Grain) -> Vec<Vec<u8>> {
    g.get("supersession_auth")
        .and_then(Value::as_array)
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
fn cosigners(entries: &[Vec<u8>], payload: &[u8]) -> Vec<String> {
    entries
        .iter()
        .filter_map(|e| cose::verify_payload(e).ok())
        .filter(|(_, p)| p.as_slice() == payload)
        .map(|(did, _)| did)
        .collect()
}

fn goal_state(g: &Grain) -> Option<&str> {
    str_field(g, "goal_state")
}

/// An autonomous goal transition (§23.4): the new state is listed in the
/// protected goal's `allowed_transitions` and nothing but the state (and its
/// evidence and bookkeeping) changes.
fn autonomous_transition(old: &Record, new: &Grain) -> bool {
    let g = &old.body.grain;
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
    /// `put` (§28.4): stores a blob or a COSE_Sign1 envelope (verified) and
    /// returns its address. Idempotent. Refuses `derived_from` claims that
    /// imply supersession (`ERR_INVALIDATION_DENIED`; use [`Store::supersede`]).
    /// A consent withdrawal schedules erasure of the `consent_cascade` grains
    /// it was the basis of.
    pub fn put(&self, entry: &[u8]) -> Result<ContentAddress> {
        let parsed = parse_entry(entry)?;
        let now = self.now();
        let mut inner = self.write();
        if inner.by_address.contains_key(&parsed.address) {
            return Ok(parsed.address);
        }
        if let Some(old) = implied_supersession(&inner, &parsed.grain) {
            return Err(OmsError::InvalidationDenied {
                reason: format!("derived_from {old} implies supersession; use supersede (§17.2)"),
            });
        }
        let cascade = consent_cascade(&inner, &parsed.grain);
        let address = parsed.address;
        inner.insert(parsed);
        for a in cascade {
            inner.scheduled_erasure.entry(a).or_insert(now + self.config.erasure_sla_ms);
        }
        Ok(address)
    }

    /// `put_batch` (§28.4): one result per entry, each put independently.
    pub fn put_batch(&self, entries: &[&[u8]]) -> Vec<Result<ContentAddress>> {
        entries.iter().map(|e| self.put(e)).collect()
    }

    /// `supersede` (§28.4): atomically checks the invalidation policies that
    /// protect `old` (§23), writes the new grain and sets `old`'s
    /// `superseded_by` and `system_valid_to`. The new grain must have the same
    /// type and list `old` in `derived_from`. Refusals:
    /// `ERR_NOT_FOUND`, `ERR_CONFLICT` (already superseded or already stored),
    /// `ERR_SCHEMA`, `ERR_INVALIDATION_DENIED`, `ERR_EVIDENCE_REQUIRED`.
    pub fn supersede(
        &self,
        old: &ContentAddress,
        new_entry: &[u8],
        justification: Option<&str>,
    ) -> Result<ContentAddress> {
        let parsed = parse_entry(new_entry)?;
        let now = self.now();
        let auth = auth_entries(&parsed.grain);
        let proof = Proof {
            signers: parsed.signer.iter().cloned().collect(),
            cosigners: cosigners(&auth, &supersede_auth_payload(old)),
            justification: justification
                .map(str::to_string)
                .or_else(|| str_field(&parsed.grain, "supersession_justification").map(str::to_string)),
            agent: str_field(&parsed.grain, "author_did").map(str::to_string),
            now_ms: now,
        };
        let mut inner = self.write();
        let old_id = inner.id_of(old).ok_or_else(|| OmsError::NotFound { address: old.to_hex() })?;
        let target = inner.record(old_id).ok_or_else(|| OmsError::NotFound { address: old.to_hex() })?;
        if let Some(by) = target.state.superseded_by {
            return Err(OmsError::Conflict { reason: format!("{old} is already superseded by {by}") });
        }
        if inner.by_address.contains_key(&parsed.address) {
            return Err(OmsError::Conflict { reason: format!("{} is already stored", parsed.address) });
        }
        if target.body.grain.grain_type() != parsed.grain.grain_type() {
            return Err(OmsError::schema("type", "a superseding grain must have the type of the grain it supersedes"));
        }
        if !derived_from(&parsed.grain).contains(old) {
            return Err(OmsError::schema(
                "derived_from",
                format!("a superseding grain must list {old} in derived_from"),
            ));
        }
        let autonomous = autonomous_transition(target, &parsed.grain);
        if autonomous {
            self.check_evidence(target, &parsed.grain)?;
        }
        let mut review = false;
        for Guard { record, relation } in guards(&inner, old_id, Some(&parsed.grain)) {
            if autonomous && matches!(relation, Relation::Target | Relation::Predecessor) {
                continue;
            }
            let Permit { review: r } = policy::check(
                record.effective_policy(),
                &record.address,
                Op::Supersede,
                &proof,
                self.config.key_separation,
            )?;
            review |= r;
        }
        // Goal laundering (§23.5): an autonomous transition inherits the policy.
        let inherited: Option<Map> = autonomous.then(|| target.effective_policy().cloned()).flatten();
        let new_addr = parsed.address;
        let new_id = inner.insert(parsed);
        inner.supersedes.insert(new_id, old_id);
        if let Some(r) = inner.record_mut(new_id) {
            if let Some(p) = inherited {
                r.state.extra.insert(EXTRA_INHERITED_POLICY.into(), Value::Map(p));
            }
            if review {
                r.state.extra.insert(EXTRA_REVIEW.into(), Value::Bool(true));
            }
        }
        if let Some(r) = inner.record_mut(old_id) {
            r.state.superseded_by = Some(new_addr);
            r.state.system_valid_to = Some(now);
        }
        Ok(new_addr)
    }

    fn check_evidence(&self, target: &Record, new: &Grain) -> Result<()> {
        let to = goal_state(new).unwrap_or("");
        if !matches!(to, "satisfied" | "failed") {
            return Ok(());
        }
        let required = target.body.grain.get("evidence_required").and_then(Value::as_i64).unwrap_or(0).max(0) as usize;
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

    /// Marks a grain contradicted (§23.7 bypass 1: subject to the same
    /// policies as supersession). `auth` holds COSE_Sign1 signatures over
    /// `oms-contradict:<address>`. Sets `contradicted`, `system_valid_to`
    /// and `verification_status = "contested"`.
    pub fn contradict(&self, target: &ContentAddress, auth: &[Vec<u8>], justification: Option<&str>) -> Result<()> {
        let signers = cosigners(auth, &contradict_auth_payload(target));
        let now = self.now();
        let proof = Proof {
            signers: signers.clone(),
            cosigners: signers,
            justification: justification.map(str::to_string),
            agent: None,
            now_ms: now,
        };
        let mut inner = self.write();
        let id = inner.id_of(target).ok_or_else(|| OmsError::NotFound { address: target.to_hex() })?;
        let mut review = false;
        for Guard { record, .. } in guards(&inner, id, None) {
            review |= policy::check(
                record.effective_policy(),
                &record.address,
                Op::Contradict,
                &proof,
                self.config.key_separation,
            )?
            .review;
        }
        if let Some(r) = inner.record_mut(id) {
            r.state.extra.insert(EXTRA_CONTRADICTED.into(), Value::Bool(true));
            r.state.system_valid_to.get_or_insert(now);
            r.state.verification_status = Some("contested".into());
            if review {
                r.state.extra.insert(EXTRA_REVIEW.into(), Value::Bool(true));
            }
        }
        Ok(())
    }

    /// Sets `verification_status` (§28.3). `contested` and `retracted` take a
    /// grain out of trusted status, so on protected grains they need the same
    /// authorization as a contradiction.
    pub fn set_verification_status(&self, address: &ContentAddress, status: &str, auth: &[Vec<u8>]) -> Result<()> {
        if !VERIFICATION_STATUSES.contains(&status) {
            return Err(OmsError::schema(
                "verification_status",
                format!("must be one of {}", VERIFICATION_STATUSES.join(", ")),
            ));
        }
        let signers = cosigners(auth, &contradict_auth_payload(address));
        let proof = Proof { signers: signers.clone(), cosigners: signers, now_ms: self.now(), ..Proof::default() };
        let mut inner = self.write();
        let id = inner.id_of(address).ok_or_else(|| OmsError::NotFound { address: address.to_hex() })?;
        if matches!(status, "contested" | "retracted") {
            for Guard { record, .. } in guards(&inner, id, None) {
                policy::check(
                    record.effective_policy(),
                    &record.address,
                    Op::Contradict,
                    &proof,
                    self.config.key_separation,
                )?;
            }
        }
        if let Some(r) = inner.record_mut(id) {
            r.state.verification_status = Some(status.to_string());
        }
        Ok(())
    }

    /// `delete` (§28.4): compliance erasure only (GDPR Art. 17, consent
    /// cascade). Refused with `ERR_INVALIDATION_DENIED` while the grain — or a
    /// protecting ancestor — is under litigation hold. Not reachable from CAL.
    pub fn delete(&self, address: &ContentAddress) -> Result<()> {
        let proof = Proof { now_ms: self.now(), ..Proof::default() };
        let mut inner = self.write();
        let id = inner.id_of(address).ok_or_else(|| OmsError::NotFound { address: address.to_hex() })?;
        for Guard { record, .. } in guards(&inner, id, None) {
            policy::check(record.effective_policy(), &record.address, Op::Erase, &proof, self.config.key_separation)?;
        }
        inner.remove(id);
        Ok(())
    }
}

/// Grains a consent withdrawal makes due for erasure: those whose
/// `processing_basis` is the withdrawn consent and whose mode is
/// `consent_cascade`.
fn consent_cascade(inner: &Inner, g: &Grain) -> Vec<ContentAddress> {
    if g.grain_type() != GrainType::Consent || g.get("is_withdrawal") != Some(&Value::Bool(true)) {
        return Vec::new();
    }
    let Some(prior) = str_field(g, "prior_consent") else { return Vec::new() };
    inner
        .idx
        .postings(Key::Basis, prior)
        .iter()
        .filter_map(|id| inner.record(*id))
        .filter(|r| r.effective_policy().and_then(|p| p.get("mode")).and_then(Value::as_str) == Some("consent_cascade"))
        .map(|r| r.address)
        .collect()
}
