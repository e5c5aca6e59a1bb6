//! Consent withdrawal (OMS §8.10, §23.2 `consent_cascade`): a withdrawal
//! (`type: consent`, `is_withdrawal: true`, `prior_consent: X`) covers every
//! grain whose `processing_basis` is X — those stored before it and those
//! stored after it. A covered grain leaves the current view at once and,
//! when its policy is `consent_cascade`, is due for erasure within the SLA.
//!
//! The effect lives in the index layer of each covered grain (extra `cw`:
//! the withdrawal's address, when it took effect, the erasure deadline), so
//! it travels in the `.mg` manifest and in any store that persists the index
//! state, and `scheduled_erasures` is read back from the records. A marker
//! read from a file is honoured only when the withdrawal it names exists and
//! really withdraws the grain's basis: a marker can hide a grain, so it is a
//! claim like any other.

use super::indexes::{Id, Key};
use super::record::{EXTRA_CONSENT_WITHDRAWN, Record, str_field};
use super::{Inner, Store};
use crate::address::ContentAddress;
use crate::error::{OmsError, Result};
use crate::grain::Grain;
use crate::types::GrainType;
use crate::value::{Map, Value};

/// A withdrawal's effect on one covered grain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Withdrawn {
    /// The withdrawal grain.
    pub(crate) by: ContentAddress,
    /// When the store applied it (epoch ms).
    pub(crate) at: i64,
    /// The erasure deadline of a `consent_cascade` grain (epoch ms).
    pub(crate) due: Option<i64>,
}

impl Withdrawn {
    pub(crate) fn to_value(self) -> Value {
        let mut m = Map::new();
        m.insert("by".into(), Value::Str(self.by.to_hex()));
        m.insert("at".into(), Value::from(self.at));
        if let Some(d) = self.due {
            m.insert("due".into(), Value::from(d));
        }
        Value::Map(m)
    }

    /// Parses a marker; `ERR_SCHEMA` when it is malformed.
    pub(crate) fn from_value(v: &Value) -> Result<Withdrawn> {
        let bad = |why: &str| OmsError::schema("consent_withdrawn", why.to_string());
        let m = v.as_map().ok_or_else(|| bad("the withdrawal marker must be a map"))?;
        if m.keys().any(|k| !matches!(k.as_str(), "by" | "at" | "due")) {
            return Err(bad("the withdrawal marker has only the keys by, at and due"));
        }
        let by = m.get("by").and_then(Value::as_str).ok_or_else(|| bad("the withdrawal marker needs by"))?;
        let at = m.get("at").and_then(Value::as_i64).ok_or_else(|| bad("the withdrawal marker needs an integer at"))?;
        let due = match m.get("due") {
            None => None,
            Some(d) => Some(d.as_i64().ok_or_else(|| bad("due must be an integer"))?),
        };
        Ok(Withdrawn { by: ContentAddress::parse(by)?, at, due })
    }
}

/// The consent a withdrawal withdraws, when `g` is a withdrawal.
pub(crate) fn withdraws(g: &Grain) -> Option<&str> {
    if g.grain_type() != GrainType::Consent || g.get("is_withdrawal") != Some(&Value::Bool(true)) {
        return None;
    }
    str_field(g, "prior_consent")
}

/// Whether a grain's own (or inherited) policy is `consent_cascade`.
fn cascades(r: &Record) -> bool {
    r.effective_policy().and_then(|p| p.get("mode")).and_then(Value::as_str) == Some("consent_cascade")
}

impl Inner {
    /// Withdrawals stored for the consent `basis`, oldest first.
    pub(crate) fn withdrawals_of(&self, basis: &str) -> impl Iterator<Item = &Record> {
        self.idx
            .postings(Key::PriorConsent, basis)
            .iter()
            .filter_map(|id| self.record(*id))
            .filter(move |r| withdraws(r.body.grain()) == Some(basis))
    }

    /// Marks `id` as covered by the withdrawal `by`, unless it already is.
    pub(crate) fn mark_withdrawn(&mut self, id: Id, by: ContentAddress, now: i64, sla_ms: i64) {
        let Some(r) = self.record_mut(id) else { return };
        if r.withdrawn() || withdraws(r.body.grain()).is_some() {
            return;
        }
        let due = cascades(r).then(|| now.saturating_add(sla_ms));
        r.state.extra.insert(EXTRA_CONSENT_WITHDRAWN.into(), Withdrawn { by, at: now, due }.to_value());
    }

    /// Applies every stored withdrawal to the grains it covers that carry no
    /// marker yet (the grains of a `put` withdrawal, grains put after it, a
    /// file whose manifest left the markers out).
    pub(crate) fn apply_withdrawals(&mut self, ids: impl IntoIterator<Item = Id>, now: i64, sla_ms: i64) {
        for id in ids {
            let Some(r) = self.record(id) else { continue };
            if r.withdrawn() || !r.has_basis {
                continue;
            }
            let by = str_field(r.body.grain(), "processing_basis").and_then(|b| self.withdrawals_of(b).next());
            if let Some(by) = by.map(|w| w.address) {
                self.mark_withdrawn(id, by, now, sla_ms);
            }
        }
    }

    /// Grains a withdrawal grain covers: those whose basis it withdraws.
    pub(crate) fn covered_by(&self, g: &Grain) -> Vec<Id> {
        withdraws(g).map(|prior| self.idx.postings(Key::Basis, prior).to_vec()).unwrap_or_default()
    }

    /// Checks the withdrawal marker of `id` (if any): the withdrawal it
    /// names is stored (`ERR_INTEGRITY` when it is nowhere), is a consent
    /// withdrawal of this grain's `processing_basis`, and an erasure deadline
    /// is set only on a `consent_cascade` grain (`ERR_INVALIDATION_DENIED`).
    pub(crate) fn check_withdrawal_marker(&self, id: Id) -> Result<()> {
        let Some(r) = self.record(id) else { return Ok(()) };
        let Some(v) = r.state.extra.get(EXTRA_CONSENT_WITHDRAWN) else { return Ok(()) };
        let m = Withdrawn::from_value(v)?;
        let deny =
            |why: String| OmsError::InvalidationDenied { reason: format!("withdrawal marker on {}: {why}", r.address) };
        let w = self.by_addr(&m.by).ok_or_else(|| OmsError::Integrity {
            what: format!(
                "withdrawal marker on {} names {}, which is in neither the file nor the store",
                r.address, m.by
            ),
        })?;
        let basis = str_field(r.body.grain(), "processing_basis");
        match (withdraws(w.body.grain()), basis) {
            (None, _) => return Err(deny(format!("{} is not a consent withdrawal", m.by))),
            (Some(prior), Some(b)) if prior == b => {}
            (Some(prior), _) => {
                return Err(deny(format!("{} withdraws {prior}, which is not the grain's processing_basis", m.by)));
            }
        }
        if m.due.is_some() && !cascades(r) {
            return Err(deny("an erasure deadline on a grain whose policy is not consent_cascade".into()));
        }
        Ok(())
    }
}

impl Store {
    /// Grains scheduled for erasure by consent withdrawals, with deadlines
    /// (epoch ms), in address order. Read from the index layer of the
    /// records, so the schedule survives save, load and import.
    pub fn scheduled_erasures(&self) -> Vec<(ContentAddress, i64)> {
        let inner = self.read();
        let mut out: Vec<(ContentAddress, i64)> =
            inner.records.iter().flatten().filter_map(|r| Some((r.address, r.erasure_due()?))).collect();
        out.sort();
        out
    }

    /// Whether a consent withdrawal has taken the grain out of the current
    /// view (`None` when the grain is not stored).
    pub fn consent_withdrawn(&self, address: &ContentAddress) -> Option<bool> {
        self.read().by_addr(address).map(Record::withdrawn)
    }
}

impl Inner {
    /// Whether the withdrawal `id` is named by the marker of a stored grain.
    pub(crate) fn covers_any(&self, id: Id) -> bool {
        let Some(w) = self.record(id) else { return false };
        self.covered_by(w.body.grain()).iter().filter_map(|c| self.record(*c)).any(|c| {
            c.state
                .extra
                .get(EXTRA_CONSENT_WITHDRAWN)
                .and_then(|v| Withdrawn::from_value(v).ok())
                .is_some_and(|m| m.by == w.address)
        })
    }

    /// After an import: the withdrawals among `new` cover the stored grains
    /// of their consent, and the grains among `new` on a withdrawn basis are
    /// covered, whether or not the file's manifest said so.
    pub(crate) fn honour_withdrawals(&mut self, new: &[Id], now: i64, sla_ms: i64) {
        for id in new {
            let Some(w) = self.record(*id) else { continue };
            if w.ty != GrainType::Consent {
                continue;
            }
            let (by, covered) = (w.address, self.covered_by(w.body.grain()));
            for c in covered {
                self.mark_withdrawn(c, by, now, sla_ms);
            }
        }
        self.apply_withdrawals(new.iter().copied(), now, sla_ms);
    }
}

impl Record {
    /// The erasure deadline a consent withdrawal set on this grain, if any.
    pub(crate) fn erasure_due(&self) -> Option<i64> {
        Withdrawn::from_value(self.state.extra.get(EXTRA_CONSENT_WITHDRAWN)?).ok()?.due
    }
}
