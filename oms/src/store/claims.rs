//! The claims of a `.mg` manifest (§11.7) are checked, not merely merged.
//! The manifest's footer is an unkeyed hash, so anyone can edit a manifest
//! and recompute it; a portable field that takes a grain out of the current
//! view — `superseded_by`, `system_valid_to`, `contradicted`, a `contested`
//! or `retracted` status, a consent withdrawal marker, an inherited policy —
//! is accepted only when the operation it records would have been permitted
//! here. Supersessions are replayed in chain order through the very judgement
//! `supersede` uses (`judge.rs`), with the proof the superseding grain
//! carries; contradictions through the judgement `contradict` uses, with the
//! signatures kept in the index layer; withdrawal markers must name a stored
//! withdrawal of the grain's basis.
//!
//! `Store::import` runs this on the store being filled and undoes everything
//! when any claim fails; `mg::verify` runs it on a scratch store holding only
//! the file.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::indexes::Id;
use super::judge::{contradiction_proof, kept_contradiction_auth, supersession_proof};
use super::policy::Op;
use super::record::{
    EXTRA_CONSENT_WITHDRAWN, EXTRA_CONTRADICTED, EXTRA_INHERITED_POLICY, EXTRA_INVALIDATION_JUSTIFICATION,
    EXTRA_REVIEW, EXTRA_SUPERSESSION_JUSTIFICATION, Parsed,
};
use super::{Inner, Store, StoreConfig};
use crate::address::ContentAddress;
use crate::error::{OmsError, Result};
use crate::mg::{IndexState, Manifest, MgFile};
use crate::value::Value;

/// State to restore when an import is undone.
#[derive(Default)]
pub(crate) struct Undo {
    /// Index state (with counters) of stored grains the import may change.
    pub(crate) states: Vec<(Id, IndexState)>,
    /// Chain links (new → old) the import added.
    pub(crate) links: Vec<Id>,
}

/// The context of a claim, prefixed to an error's message; the code stays.
fn in_claim(e: OmsError, context: &str) -> OmsError {
    match e {
        OmsError::InvalidationDenied { reason } => {
            OmsError::InvalidationDenied { reason: format!("manifest claim {context}: {reason}") }
        }
        OmsError::EvidenceRequired { reason } => {
            OmsError::EvidenceRequired { reason: format!("manifest claim {context}: {reason}") }
        }
        OmsError::Conflict { reason } => OmsError::Conflict { reason: format!("manifest claim {context}: {reason}") },
        OmsError::Schema { field, problem } => {
            OmsError::Schema { field, problem: format!("{problem} (manifest claim {context})") }
        }
        other => other,
    }
}

fn is_true(st: &IndexState, key: &str) -> bool {
    st.extra.get(key) == Some(&Value::Bool(true))
}

fn invalidating_status(st: &IndexState) -> bool {
    matches!(st.verification_status.as_deref(), Some("contested" | "retracted"))
}

/// Copies what needs no judgement: `verified` / `unverified` status, the
/// proofs the claims rely on, the review flag (only ever added) and extras
/// this implementation does not interpret. Last writer wins for these.
fn merge_plain(state: &mut IndexState, st: &IndexState) {
    if let Some(s) = st.verification_status.as_deref().filter(|s| matches!(*s, "verified" | "unverified")) {
        state.verification_status = Some(s.to_string());
    }
    for (k, v) in &st.extra {
        match k.as_str() {
            EXTRA_CONTRADICTED | EXTRA_INHERITED_POLICY | EXTRA_CONSENT_WITHDRAWN => {}
            EXTRA_REVIEW => {
                if v == &Value::Bool(true) {
                    state.extra.insert(k.clone(), v.clone());
                }
            }
            _ => {
                state.extra.insert(k.clone(), v.clone());
            }
        }
    }
}

/// The supersession claims, roots of chains first (a claim `x → y` after
/// the claim `w → x`), then by address; conflicting claims are problems.
fn chain_order(
    inner: &Inner,
    manifest: &Manifest,
    problems: &mut Vec<OmsError>,
) -> Vec<(ContentAddress, ContentAddress)> {
    let mut back: HashMap<ContentAddress, ContentAddress> = HashMap::new();
    let mut claims = Vec::new();
    for (old, st) in manifest {
        let Some(new) = st.superseded_by else { continue };
        if let Some(existing) = inner.by_addr(old).and_then(|r| r.state.superseded_by) {
            if existing != new {
                problems.push(OmsError::Conflict {
                    reason: format!(
                        "manifest claim {old} superseded_by {new}: the store has it superseded by {existing}"
                    ),
                });
            }
            continue;
        }
        if let Some(other) = back.get(&new) {
            problems.push(OmsError::Conflict {
                reason: format!("manifest claims that {new} supersedes both {other} and {old}"),
            });
            continue;
        }
        back.insert(new, *old);
        claims.push((*old, new));
    }
    // Depth of a grain in the claimed chains, memoized so a long chain costs
    // linear time; a cycle (which no claim can pass) just stops the walk.
    let mut depth: HashMap<ContentAddress, usize> = HashMap::new();
    for (start, _) in &claims {
        let mut path = Vec::new();
        let mut a = *start;
        let mut base = 0;
        while let Some(prev) = back.get(&a) {
            if let Some(d) = depth.get(&a) {
                base = *d;
                break;
            }
            if path.len() > back.len() {
                break;
            }
            path.push(a);
            a = *prev;
        }
        for (i, p) in path.iter().rev().enumerate() {
            depth.entry(*p).or_insert(base + i + 1);
        }
    }
    let mut keyed: Vec<(usize, ContentAddress, ContentAddress)> =
        claims.into_iter().map(|(o, n)| (depth.get(&o).copied().unwrap_or(0), o, n)).collect();
    keyed.sort();
    keyed.into_iter().map(|(_, o, n)| (o, n)).collect()
}

impl Store {
    /// Applies a manifest to grains already in `inner`, judging every claim.
    /// Returns the claims that failed (their changes are not applied);
    /// `undo` collects what the caller needs to roll the rest back.
    pub(crate) fn apply_manifest(&self, inner: &mut Inner, manifest: &Manifest, undo: &mut Undo) -> Vec<OmsError> {
        let now = self.now();
        let mut problems = Vec::new();
        let mut touched: HashSet<Id> = HashSet::new();
        for (a, st) in manifest {
            touched.extend(inner.id_of(a));
            touched.extend(st.superseded_by.and_then(|b| inner.id_of(&b)));
        }
        let mut touched: Vec<Id> = touched.into_iter().collect();
        touched.sort_unstable();
        undo.states.extend(touched.iter().filter_map(|id| inner.record(*id).map(|r| (*id, r.snapshot()))));
        let before: BTreeMap<Id, IndexState> = undo.states.iter().cloned().collect();

        for (a, st) in manifest {
            let Some(id) = inner.id_of(a) else { continue };
            if let Some(r) = inner.record_mut(id) {
                merge_plain(&mut r.state, st);
                r.restore_counters(st);
            }
        }
        for (old, new) in chain_order(inner, manifest, &mut problems) {
            let valid_to = manifest.get(&old).and_then(|st| st.system_valid_to).unwrap_or(now);
            if let Err(e) = self.replay_supersession(inner, old, new, valid_to, now, undo) {
                problems.push(in_claim(e, &format!("{old} superseded_by {new}")));
            }
        }
        for (a, st) in manifest {
            let prior = inner.id_of(a).and_then(|id| before.get(&id));
            if let Err(e) = self.replay_invalidation(inner, a, st, prior, now) {
                problems.push(in_claim(e, &format!("invalidating {a}")));
            }
        }
        for (a, st) in manifest {
            let Some(id) = inner.id_of(a) else { continue };
            if let Some(claimed) = st.extra.get(EXTRA_INHERITED_POLICY) {
                let derived = inner.record(id).and_then(|r| r.state.extra.get(EXTRA_INHERITED_POLICY));
                if derived != Some(claimed) {
                    problems.push(OmsError::InvalidationDenied {
                        reason: format!(
                            "manifest gives {a} an inherited policy that no permitted goal transition gives it (§23.5)"
                        ),
                    });
                }
            }
            if let Some(marker) = st.extra.get(EXTRA_CONSENT_WITHDRAWN) {
                let Some(r) = inner.record_mut(id) else { continue };
                if r.withdrawn() {
                    continue;
                }
                r.state.extra.insert(EXTRA_CONSENT_WITHDRAWN.into(), marker.clone());
                if let Err(e) = inner.check_withdrawal_marker(id) {
                    if let Some(r) = inner.record_mut(id) {
                        r.state.extra.remove(EXTRA_CONSENT_WITHDRAWN);
                    }
                    problems.push(e);
                }
            }
        }
        problems
    }

    /// Judges the claim "`new` superseded `old`" as `supersede` would, with
    /// the proof `new` carries, and links the two when it passes.
    fn replay_supersession(
        &self,
        inner: &mut Inner,
        old: ContentAddress,
        new: ContentAddress,
        valid_to: i64,
        now: i64,
        undo: &mut Undo,
    ) -> Result<()> {
        let old_id = inner.id_of(&old).ok_or_else(|| OmsError::NotFound { address: old.to_hex() })?;
        let new_id = inner.id_of(&new).ok_or_else(|| OmsError::Integrity {
            what: format!("manifest says {old} is superseded by {new}, which is in neither the file nor the store"),
        })?;
        if let Some(prev) = inner.supersedes.get(&new_id).and_then(|p| inner.record(*p)) {
            return Err(OmsError::Conflict { reason: format!("{new} already supersedes {}", prev.address) });
        }
        let r = inner.record(new_id).ok_or_else(|| OmsError::NotFound { address: new.to_hex() })?;
        let body = r.body.clone();
        let justification = r.extra_str(EXTRA_SUPERSESSION_JUSTIFICATION).map(str::to_string);
        let proof = supersession_proof(body.signer(), body.grain(), &old, justification.as_deref(), now);
        let verdict = self.judge_supersession(inner, old_id, body.grain(), &proof)?;
        inner.link_supersession(old_id, new_id, verdict, valid_to);
        undo.links.push(new_id);
        Ok(())
    }

    /// Judges the other invalidation claims of one manifest entry —
    /// `contradicted`, a `contested` / `retracted` status, a
    /// `system_valid_to` without `superseded_by` — as `contradict` would,
    /// with the signatures kept in the index layer, and applies them when
    /// they pass. State the store already had before the import is not judged again.
    fn replay_invalidation(
        &self,
        inner: &mut Inner,
        a: &ContentAddress,
        st: &IndexState,
        before: Option<&IndexState>,
        now: i64,
    ) -> Result<()> {
        let contradicted = is_true(st, EXTRA_CONTRADICTED);
        let status = invalidating_status(st);
        let lone_end = st.system_valid_to.is_some() && st.superseded_by.is_none();
        if !(contradicted || status || lone_end) {
            return Ok(());
        }
        let id = inner.id_of(a).ok_or_else(|| OmsError::NotFound { address: a.to_hex() })?;
        let known = before.is_some_and(|p| {
            (!contradicted || is_true(p, EXTRA_CONTRADICTED))
                && (!status || p.verification_status == st.verification_status)
                && (!lone_end || p.system_valid_to.is_some())
        });
        let mut review = false;
        if !known {
            let r = inner.record(id).ok_or_else(|| OmsError::NotFound { address: a.to_hex() })?;
            let auth = kept_contradiction_auth(r);
            let justification = r.extra_str(EXTRA_INVALIDATION_JUSTIFICATION).map(str::to_string);
            let proof = contradiction_proof(a, &auth, justification.as_deref(), now);
            review = self.judge_invalidation(inner, id, Op::Contradict, &proof)?;
        }
        if let Some(r) = inner.record_mut(id) {
            if contradicted {
                r.state.extra.insert(EXTRA_CONTRADICTED.into(), Value::Bool(true));
            }
            if status {
                r.state.verification_status = st.verification_status.clone();
            }
            if let Some(t) = st.system_valid_to {
                r.state.system_valid_to.get_or_insert(t);
            }
            if review {
                r.state.extra.insert(EXTRA_REVIEW.into(), Value::Bool(true));
            }
        }
        Ok(())
    }
}

/// The claims of a file's manifest that fail, judged on a scratch store
/// holding only the file's grains (default configuration: the system clock,
/// key separation on). Empty when the file has no manifest.
pub(crate) fn manifest_problems(file: &MgFile<'_>, parsed: Vec<Parsed>) -> Vec<OmsError> {
    let Some(manifest) = file.manifest() else { return Vec::new() };
    let store = Store::new(StoreConfig::default());
    let mut inner = store.write();
    for p in parsed {
        if inner.id_of(&p.address).is_none() {
            inner.insert(p);
        }
    }
    store.apply_manifest(&mut inner, manifest, &mut Undo::default())
}

/// Verifies every entry of a file (address, schema, signature).
pub(crate) fn parse_file(file: &MgFile<'_>) -> Result<Vec<Parsed>> {
    let mut entries = file.entries().collect::<Result<Vec<&[u8]>>>()?;
    entries.retain(|e| !super::sealed::is_sealed_entry(e));
    super::persist::parse_all(&entries)
}
