//! Write operations: `put`, `put_batch`, `supersede`, contradiction,
//! verification status and compliance `delete`. Each takes the write lock,
//! checks everything (the judgements of `judge.rs`), and only then mutates,
//! so it is all or nothing.

use super::indexes::{Id, IndexKeys, Key};
use super::judge::{Verdict, contradiction_proof, supersession_proof, valid_contradiction_auth};
use super::load_keys::{KeyBuf, LoadScratch, Remap};
use super::ordered::Pending;
use super::policy::{Op, Proof};
use super::record::{
    EXTRA_CONTRADICTED, EXTRA_INHERITED_POLICY, EXTRA_INVALIDATION_AUTH, EXTRA_INVALIDATION_JUSTIFICATION,
    EXTRA_REVIEW, EXTRA_SUPERSESSION_JUSTIFICATION, Parsed, Record, derived_from, parse_entry, str_field,
};
use super::{Inner, Store};
use crate::address::ContentAddress;
use crate::error::{OmsError, Result};
use crate::grain::Grain;
use crate::mg::VERIFICATION_STATUSES;
use crate::types::GrainType;
use crate::value::Value;

impl Inner {
    pub(crate) fn insert(&mut self, p: Parsed) -> Id {
        self.insert_record(Record::new(p))
    }

    /// Room for `n` more records (a bulk load), so the tables do not grow by doubling.
    pub(crate) fn reserve(&mut self, n: usize) {
        self.records.reserve_exact(n);
        // Only the address table is sized ahead: the index tables hold one entry per
        // distinct value, far fewer than the grains on most keys, and reserving a slot per
        // grain in each cost more memory than the grains themselves at a million (issue 20).
        self.by_address.reserve(&self.records, n);
    }

    /// Inserts a verified entry of a bulk load, indexed under the keys it carries, whose
    /// strings `remap` maps from the loading thread's symbols to the store's.
    /// The ordered indexes' entries go to `pending` (`Indexes::absorb` lays them in).
    /// `buf` holds the keys of the grain's part of the file.
    pub(crate) fn insert_loaded(
        &mut self,
        l: super::record::Loaded,
        remap: &mut Remap<'_>,
        buf: &KeyBuf,
        pending: &mut Pending,
        scratch: &mut LoadScratch,
    ) -> Id {
        let (r, keys, local) = Record::from_loaded(l);
        let LoadScratch { syms, terms } = scratch;
        syms.clear();
        terms.clear();
        syms.extend(local.fields(buf).iter().map(|&(k, s)| (k, remap.field(s, |t| self.idx.intern_owned(t)))));
        terms.extend(local.terms(buf).iter().map(|&(t, n)| (remap.term(t, |x| self.text.intern_term_owned(x)), n)));
        let space = match local.space {
            Some(s) => remap.space(s, |ns| self.text.space(Some(ns))),
            None => self.text.space(None),
        };
        self.insert_interned(r, &keys, syms, terms, space, Some(pending))
    }

    /// Inserts a record as it is, index state included.
    pub(crate) fn insert_record(&mut self, r: Record) -> Id {
        let keys = IndexKeys::of(r.body.grain());
        let syms: Vec<(Key, u32)> = keys.fields.iter().map(|(k, s)| (*k, self.idx.intern(s))).collect();
        let terms: Vec<(u32, u32)> = keys.terms.iter().map(|(t, n)| (self.text.intern_term(t), *n)).collect();
        let space = self.text.space(keys.namespace.as_deref());
        self.insert_interned(r, &keys, &syms, &terms, space, None)
    }

    fn insert_interned(
        &mut self,
        r: Record,
        keys: &IndexKeys,
        syms: &[(Key, u32)],
        terms: &[(u32, u32)],
        space: u32,
        pending: Option<&mut Pending>,
    ) -> Id {
        let id = self.records.len() as Id;
        if !r.state.is_default() {
            self.flagged.insert(id);
        }
        self.idx.insert(id, &r, syms, keys, pending);
        self.text.insert(id, terms, space);
        let address = r.address;
        self.records.push(Some(r));
        self.by_address.insert(&self.records, &address, id);
        self.live += 1;
        id
    }

    pub(crate) fn remove(&mut self, id: Id) {
        if let Some(r) = self.records.get_mut(id as usize).and_then(Option::take) {
            self.idx.remove(id, &r);
            self.text.remove(id, r.body.grain());
            self.by_address.remove(&r.address, id);
            self.supersedes.remove(&id);
            self.live -= 1;
        }
    }

    pub(crate) fn record_mut(&mut self, id: Id) -> Option<&mut Record> {
        self.flagged.insert(id);
        self.records.get_mut(id as usize).and_then(Option::as_mut)
    }

    /// Records a permitted supersession of `old_id` by the stored grain
    /// `new_id`: the chain link, the new grain's inherited policy and review
    /// flag, and the old grain's `superseded_by` and `system_valid_to`
    /// (`valid_to`).
    pub(crate) fn link_supersession(&mut self, old_id: Id, new_id: Id, verdict: Verdict, valid_to: i64) {
        let new_addr = self.record(new_id).map(|r| r.address);
        self.supersedes.insert(new_id, old_id);
        if let Some(r) = self.record_mut(new_id) {
            if let Some(p) = verdict.inherited {
                r.state.extra.insert(EXTRA_INHERITED_POLICY.into(), Value::Map(p));
            }
            if verdict.review {
                r.state.extra.insert(EXTRA_REVIEW.into(), Value::Bool(true));
            }
        }
        if let (Some(r), Some(a)) = (self.record_mut(old_id), new_addr) {
            r.state.superseded_by = Some(a);
            r.state.system_valid_to = Some(valid_to);
        }
    }
}

/// `derived_from` on a new grain implies supersession when it points at a
/// grain of the same type that the new grain would replace: same subject and
/// relation, or (goals) the same description (§17.2).
fn implied_supersession(inner: &Inner, g: &Grain) -> Option<ContentAddress> {
    for a in derived_from(g) {
        let Some(old) = inner.by_addr(&a) else { continue };
        if old.body.grain().grain_type() != g.grain_type() {
            continue;
        }
        let same =
            |f: &str| str_field(old.body.grain(), f).is_some() && str_field(old.body.grain(), f) == str_field(g, f);
        if (same("subject") && same("relation")) || (g.grain_type() == GrainType::Goal && same("description")) {
            return Some(a);
        }
    }
    None
}

impl Store {
    /// `put` (§28.4): stores a blob or a COSE_Sign1 envelope (verified) and
    /// returns its address. Idempotent. Refuses `derived_from` claims that
    /// imply supersession (`ERR_INVALIDATION_DENIED`; use [`Store::supersede`]),
    /// and an `active` goal whose `depends_on` goals are not all `satisfied`
    /// (`ERR_CONFLICT`, or `ERR_SCHEMA` for a reference that is no goal; §8.7).
    /// A consent withdrawal takes every grain whose `processing_basis` is the
    /// withdrawn consent out of the current view at once, and schedules the
    /// `consent_cascade` ones for erasure; a grain put later on a withdrawn
    /// basis is covered as it arrives.
    pub fn put(&self, entry: &[u8]) -> Result<ContentAddress> {
        let parsed = parse_entry(entry)?;
        let now = self.now();
        let mut inner = self.write();
        if inner.id_of(&parsed.address).is_some() {
            return Ok(parsed.address);
        }
        if let Some(old) = implied_supersession(&inner, &parsed.grain) {
            return Err(OmsError::InvalidationDenied {
                reason: format!("derived_from {old} implies supersession; use supersede (§17.2)"),
            });
        }
        inner.check_dependencies(&parsed.grain)?;
        let covered = inner.covered_by(&parsed.grain);
        let address = parsed.address;
        let id = inner.insert(parsed);
        for c in covered {
            inner.mark_withdrawn(c, address, now, self.config.erasure_sla_ms);
        }
        inner.apply_withdrawals([id], now, self.config.erasure_sla_ms);
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
    /// `ERR_SCHEMA`, `ERR_INVALIDATION_DENIED`, `ERR_EVIDENCE_REQUIRED`, and
    /// the goal dependency refusals of [`Store::put`].
    /// A justification given here is kept in the new grain's index layer, so
    /// the supersession can be judged again when a saved file is imported.
    pub fn supersede(
        &self,
        old: &ContentAddress,
        new_entry: &[u8],
        justification: Option<&str>,
    ) -> Result<ContentAddress> {
        let parsed = parse_entry(new_entry)?;
        let now = self.now();
        let proof = supersession_proof(parsed.signer.as_deref(), &parsed.grain, old, justification, now);
        let mut inner = self.write();
        let old_id = inner.id_of(old).ok_or_else(|| OmsError::NotFound { address: old.to_hex() })?;
        let target = inner.record(old_id).ok_or_else(|| OmsError::NotFound { address: old.to_hex() })?;
        if let Some(by) = target.state.superseded_by {
            return Err(OmsError::Conflict { reason: format!("{old} is already superseded by {by}") });
        }
        if inner.id_of(&parsed.address).is_some() {
            return Err(OmsError::Conflict { reason: format!("{} is already stored", parsed.address) });
        }
        let verdict = self.judge_supersession(&inner, old_id, &parsed.grain, &proof)?;
        inner.check_dependencies(&parsed.grain)?;
        let new_addr = parsed.address;
        let new_id = inner.insert(parsed);
        if let (Some(j), Some(r)) = (justification, inner.record_mut(new_id)) {
            r.state.extra.insert(EXTRA_SUPERSESSION_JUSTIFICATION.into(), Value::Str(j.to_string()));
        }
        inner.link_supersession(old_id, new_id, verdict, now);
        inner.apply_withdrawals([new_id], now, self.config.erasure_sla_ms);
        Ok(new_addr)
    }

    /// Marks a grain contradicted (§23.7 bypass 1: subject to the same
    /// policies as supersession). `auth` holds COSE_Sign1 signatures over
    /// `oms-contradict:<address>`. Sets `contradicted`, `system_valid_to`
    /// and `verification_status = "contested"`. The signatures that verified
    /// and the justification are kept in the index layer, so the
    /// contradiction can be judged again when a saved file is imported.
    pub fn contradict(&self, target: &ContentAddress, auth: &[Vec<u8>], justification: Option<&str>) -> Result<()> {
        let now = self.now();
        let proof = contradiction_proof(target, auth, justification, now);
        let mut inner = self.write();
        let id = inner.id_of(target).ok_or_else(|| OmsError::NotFound { address: target.to_hex() })?;
        let review = self.judge_invalidation(&inner, id, Op::Contradict, &proof)?;
        let kept = valid_contradiction_auth(target, auth);
        if let Some(r) = inner.record_mut(id) {
            r.state.extra.insert(EXTRA_CONTRADICTED.into(), Value::Bool(true));
            r.state.system_valid_to.get_or_insert(now);
            r.state.verification_status = Some("contested".into());
            if review {
                r.state.extra.insert(EXTRA_REVIEW.into(), Value::Bool(true));
            }
            if let Some(k) = kept {
                r.state.extra.insert(EXTRA_INVALIDATION_AUTH.into(), k);
            }
            if let Some(j) = justification {
                r.state.extra.insert(EXTRA_INVALIDATION_JUSTIFICATION.into(), Value::Str(j.to_string()));
            }
        }
        Ok(())
    }

    /// Sets `verification_status` (§28.3). `contested` and `retracted` take a
    /// grain out of trusted status, so on protected grains they need the same
    /// authorization as a contradiction (kept in the index layer like it).
    pub fn set_verification_status(&self, address: &ContentAddress, status: &str, auth: &[Vec<u8>]) -> Result<()> {
        if !VERIFICATION_STATUSES.contains(&status) {
            return Err(OmsError::schema(
                "verification_status",
                format!("must be one of {}", VERIFICATION_STATUSES.join(", ")),
            ));
        }
        let proof = contradiction_proof(address, auth, None, self.now());
        let mut inner = self.write();
        let id = inner.id_of(address).ok_or_else(|| OmsError::NotFound { address: address.to_hex() })?;
        let invalidates = matches!(status, "contested" | "retracted");
        if invalidates {
            self.judge_invalidation(&inner, id, Op::Contradict, &proof)?;
        }
        let kept = invalidates.then(|| valid_contradiction_auth(address, auth)).flatten();
        if let Some(r) = inner.record_mut(id) {
            r.state.verification_status = Some(status.to_string());
            if let Some(k) = kept {
                r.state.extra.insert(EXTRA_INVALIDATION_AUTH.into(), k);
            }
        }
        Ok(())
    }

    /// `delete` (§28.4): compliance erasure only (GDPR Art. 17, consent
    /// cascade). Refused with `ERR_INVALIDATION_DENIED` while the grain — or a
    /// protecting ancestor — is under litigation hold, and for a consent
    /// withdrawal that still covers stored grains (§8.10 rule 3: both grant
    /// and withdrawal are retained; the covered grains' markers name it).
    /// Not reachable from CAL.
    pub fn delete(&self, address: &ContentAddress) -> Result<()> {
        let proof = Proof { now_ms: self.now(), ..Proof::default() };
        let mut inner = self.write();
        let id = inner.id_of(address).ok_or_else(|| OmsError::NotFound { address: address.to_hex() })?;
        self.judge_invalidation(&inner, id, Op::Erase, &proof)?;
        if inner.covers_any(id) {
            return Err(OmsError::InvalidationDenied {
                reason: format!(
                    "cannot erase {address}: it is a consent withdrawal that still covers stored grains (§8.10)"
                ),
            });
        }
        inner.remove(id);
        Ok(())
    }
}
