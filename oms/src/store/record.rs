//! One stored grain: the immutable blob (and envelope, when signed), its
//! decoded form, and the mutable index layer of §5.6 / §28.3, which never
//! touches the blob or its address.

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, OnceLock};

use crate::address::ContentAddress;
use crate::cose;
use crate::error::Result;
use crate::grain::{DecodeOptions, Grain, decode, decode_verified};
use crate::mg::IndexState;
use crate::types::GrainType;
use crate::value::{Map, Value};

/// Index-layer extras kept in [`IndexState::extra`] under these keys, so they
/// travel through the `.mg` manifest.
pub(crate) const EXTRA_CONTRADICTED: &str = "ct";
/// A policy inherited through an autonomous goal transition (§23.5).
pub(crate) const EXTRA_INHERITED_POLICY: &str = "ipi";
/// Accepted under `soft_locked`: flagged for human review (§23.2).
pub(crate) const EXTRA_REVIEW: &str = "review";
/// The justification a `supersede` request gave (kept on the new grain, so
/// the supersession can be judged again when a `.mg` file is imported).
pub(crate) const EXTRA_SUPERSESSION_JUSTIFICATION: &str = "sj";
/// The COSE signatures over `oms-contradict:<address>` that authorized a
/// contradiction or a `contested` / `retracted` status.
pub(crate) const EXTRA_INVALIDATION_AUTH: &str = "ia";
/// The justification given with a contradiction.
pub(crate) const EXTRA_INVALIDATION_JUSTIFICATION: &str = "ij";
/// A consent withdrawal covers this grain: `{"by": <withdrawal address>,
/// "at": <epoch ms>, "due": <erasure deadline, epoch ms>}` (`due` only for
/// `consent_cascade` grains).
pub(crate) const EXTRA_CONSENT_WITHDRAWN: &str = "cw";

/// The policy of a Consent grain that sets none (§8.10 rule 4).
static CONSENT_DEFAULT_POLICY: LazyLock<Map> =
    LazyLock::new(|| Map::from([("mode".to_string(), Value::Str("soft_locked".to_string()))]));

/// The immutable part of a stored grain, in one allocation so that a read
/// touches one reference count.
///
/// A grain loaded from a `.mg` file is kept as its verified bytes only and decoded the
/// first time something reads its fields (issue 20: the decoded form is six times the
/// size of the bytes, and most grains of a large store are never read).
#[derive(Debug)]
pub struct GrainBody {
    /// The COSE_Sign1 envelope of a signed grain.
    cose: Option<Box<[u8]>>,
    blob: Box<[u8]>,
    grain: OnceLock<Grain>,
    signer: Option<String>,
}

impl GrainBody {
    /// The blob, byte for byte as written.
    pub fn blob(&self) -> &[u8] {
        &self.blob
    }

    /// The bytes as stored: the COSE_Sign1 envelope for signed grains, else the blob.
    pub fn entry(&self) -> &[u8] {
        self.cose.as_deref().unwrap_or(&self.blob)
    }

    /// The decoded grain (decoded now if it was loaded as bytes only).
    pub fn grain(&self) -> &Grain {
        self.grain.get_or_init(|| {
            let opts = DecodeOptions { wrapped: self.cose.is_some(), ..DecodeOptions::default() };
            // The same bytes passed the full decode (`parse_entry`) before they were stored,
            // and decoding is a pure function of them: this cannot fail.
            decode_verified(&self.blob, &opts).expect("a stored blob decodes as it did when it was verified")
        })
    }

    /// The verified signer DID of a signed grain.
    pub fn signer(&self) -> Option<&str> {
        self.signer.as_deref()
    }
}

pub(crate) struct Record {
    pub(crate) address: ContentAddress,
    pub(crate) body: Arc<GrainBody>,
    /// The grain's type, cached: type filters read it for every candidate.
    pub(crate) ty: GrainType,
    /// Whether the grain has a `processing_basis` (only those can be covered by a
    /// consent withdrawal), cached so an import need not decode the others.
    pub(crate) has_basis: bool,
    /// `created_at`, cached: recency order reads it for every candidate.
    pub(crate) created: Option<i64>,
    /// Portable and extra index-layer state (access counters live below).
    pub(crate) state: IndexState,
    pub(crate) access_count: AtomicU64,
    pub(crate) last_accessed_at: AtomicI64,
}

/// What an entry decodes to before it is stored.
pub(crate) struct Parsed {
    pub(crate) address: ContentAddress,
    pub(crate) cose: Option<Box<[u8]>>,
    pub(crate) blob: Box<[u8]>,
    pub(crate) grain: Grain,
    pub(crate) signer: Option<String>,
}

/// Decodes a blob or verifies a COSE_Sign1 entry.
pub(crate) fn parse_entry(entry: &[u8]) -> Result<Parsed> {
    if cose::is_cose(entry) {
        let v = cose::verify(entry)?;
        Ok(Parsed {
            address: v.address,
            cose: Some(entry.into()),
            blob: v.blob.into(),
            grain: v.grain,
            signer: Some(v.signer),
        })
    } else {
        let grain = decode(entry)?;
        Ok(Parsed { address: ContentAddress::of(entry), cose: None, blob: entry.into(), grain, signer: None })
    }
}

/// A verified entry of a bulk load, with what it is indexed under, and without its decoded
/// form (`GrainBody` decodes it again when it is read).
pub(crate) struct Loaded {
    pub(crate) address: ContentAddress,
    pub(crate) cose: Option<Box<[u8]>>,
    pub(crate) blob: Box<[u8]>,
    pub(crate) signer: Option<String>,
    pub(crate) ty: GrainType,
    pub(crate) created: Option<i64>,
    pub(crate) keys: super::indexes::IndexKeys,
}

impl Loaded {
    /// Verifies an entry (as `parse_entry`) and keeps its bytes and index keys.
    pub(crate) fn parse(entry: &[u8]) -> Result<Loaded> {
        let p = parse_entry(entry)?;
        let keys = super::indexes::IndexKeys::of(&p.grain);
        Ok(Loaded {
            address: p.address,
            cose: p.cose,
            blob: p.blob,
            signer: p.signer,
            ty: p.grain.grain_type(),
            created: p.grain.created_at(),
            keys,
        })
    }
}

impl Record {
    /// A record of a loaded entry, its grain not yet decoded; and its index keys.
    pub(crate) fn from_loaded(l: Loaded) -> (Self, super::indexes::IndexKeys) {
        let has_basis = l.keys.has(super::indexes::Key::Basis);
        let body = GrainBody { cose: l.cose, blob: l.blob, grain: OnceLock::new(), signer: l.signer };
        let r = Record {
            address: l.address,
            body: Arc::new(body),
            ty: l.ty,
            has_basis,
            created: l.created,
            state: IndexState::default(),
            access_count: AtomicU64::new(0),
            last_accessed_at: AtomicI64::new(i64::MIN),
        };
        (r, l.keys)
    }

    pub(crate) fn new(p: Parsed) -> Self {
        let created = p.grain.created_at();
        Record {
            address: p.address,
            created,
            ty: p.grain.grain_type(),
            has_basis: str_field(&p.grain, "processing_basis").is_some(),
            body: Arc::new(GrainBody { cose: p.cose, blob: p.blob, grain: OnceLock::from(p.grain), signer: p.signer }),
            state: IndexState::default(),
            access_count: AtomicU64::new(0),
            last_accessed_at: AtomicI64::new(i64::MIN),
        }
    }

    /// `created_at` in ms (0 when absent, for opaque grains).
    pub(crate) fn created_at(&self) -> i64 {
        self.created.unwrap_or(0)
    }

    /// When the grain became active in the system: `system_valid_from`, or
    /// `created_at` when the writer did not set it (§15.1).
    pub(crate) fn system_valid_from(&self) -> i64 {
        self.body.grain().get("system_valid_from").and_then(Value::as_i64).unwrap_or_else(|| self.created_at())
    }

    pub(crate) fn contradicted(&self) -> bool {
        matches!(self.state.extra.get(EXTRA_CONTRADICTED), Some(Value::Bool(true)))
    }

    /// Whether a consent withdrawal has taken this grain out of the current view.
    pub(crate) fn withdrawn(&self) -> bool {
        self.state.extra.contains_key(EXTRA_CONSENT_WITHDRAWN)
    }

    /// A string extra of the index layer.
    pub(crate) fn extra_str(&self, key: &str) -> Option<&str> {
        self.state.extra.get(key).and_then(Value::as_str)
    }

    /// The policy that governs this grain: one inherited through an
    /// autonomous goal transition (§23.5), which wins, else its own
    /// `invalidation_policy`, else — for a Consent grain — the default
    /// `{"mode": "soft_locked"}` of §8.10 rule 4. Every judgement (supersede,
    /// contradict, erase, the guards of §23.6–23.7, `.mg` claims) reads the
    /// policy here, so the default applies to all of them.
    pub(crate) fn effective_policy(&self) -> Option<&Map> {
        if let Some(Value::Map(m)) = self.state.extra.get(EXTRA_INHERITED_POLICY) {
            return Some(m);
        }
        match self.body.grain().get("invalidation_policy").and_then(Value::as_map) {
            None if self.body.grain().grain_type() == GrainType::Consent => Some(&CONSENT_DEFAULT_POLICY),
            own => own,
        }
    }

    pub(crate) fn touch(&self, now_ms: i64) {
        self.access_count.fetch_add(1, Ordering::Relaxed);
        self.last_accessed_at.fetch_max(now_ms, Ordering::Relaxed);
    }

    /// The full index-layer state, access counters included.
    pub(crate) fn snapshot(&self) -> IndexState {
        let mut s = self.state.clone();
        let ac = self.access_count.load(Ordering::Relaxed);
        let laa = self.last_accessed_at.load(Ordering::Relaxed);
        s.access_count = (ac > 0).then_some(ac);
        s.last_accessed_at = (laa != i64::MIN).then_some(laa);
        s
    }

    /// Restores counters from a manifest entry.
    pub(crate) fn restore_counters(&self, st: &IndexState) {
        self.access_count.store(st.access_count.unwrap_or(0), Ordering::Relaxed);
        self.last_accessed_at.store(st.last_accessed_at.unwrap_or(i64::MIN), Ordering::Relaxed);
    }
}

/// A string field of a grain, if present.
pub(crate) fn str_field<'a>(g: &'a Grain, name: &str) -> Option<&'a str> {
    g.get(name).and_then(Value::as_str)
}

/// The `derived_from` addresses of a grain that parse as content addresses.
pub(crate) fn derived_from(g: &Grain) -> Vec<ContentAddress> {
    g.get("derived_from")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).filter_map(|s| ContentAddress::parse(s).ok()).collect())
        .unwrap_or_default()
}
