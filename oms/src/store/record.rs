//! One stored grain: the immutable blob (and envelope, when signed), its
//! decoded form, and the mutable index layer of §5.6 / §28.3, which never
//! touches the blob or its address.

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, OnceLock};

use super::load_keys::{LocalKeys, LocalSymbols};
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

/// The bytes of a stored grain: its own allocation, or a stretch of the `.mg` file it
/// was loaded from, shared by every grain of that file (issue 20: a loaded store then
/// holds the file once, rather than the file and a copy of each of its grains).
#[derive(Debug)]
pub(crate) enum Bytes {
    /// Bytes of their own.
    Own(Box<[u8]>),
    /// `file[start..start + len]`.
    Shared { file: Arc<Vec<u8>>, start: u32, len: u32 },
}

impl Bytes {
    /// `file[range]`, shared when the range fits 32-bit positions, else copied.
    pub(crate) fn shared(file: &Arc<Vec<u8>>, range: std::ops::Range<usize>) -> Bytes {
        match (u32::try_from(range.start), u32::try_from(range.len())) {
            (Ok(start), Ok(len)) if range.end <= file.len() => Bytes::Shared { file: file.clone(), start, len },
            _ => Bytes::Own(file[range].into()),
        }
    }

    fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Own(b) => b,
            Bytes::Shared { file, start, len } => &file[*start as usize..*start as usize + *len as usize],
        }
    }
}

/// What only a signed grain has: its COSE_Sign1 envelope and the verified signer.
#[derive(Debug)]
struct Signed {
    cose: Box<[u8]>,
    signer: String,
}

/// The immutable part of a stored grain, in one allocation so that a read
/// touches one reference count.
///
/// A grain loaded from a `.mg` file is kept as its verified bytes only and decoded the
/// first time something reads its fields (issue 20: the decoded form is six times the
/// size of the bytes, and most grains of a large store are never read). What only signed
/// grains have is boxed apart, so that the body of an unsigned grain is 48 bytes.
#[derive(Debug)]
pub struct GrainBody {
    blob: Bytes,
    signed: Option<Box<Signed>>,
    grain: OnceLock<Box<Grain>>,
}

impl GrainBody {
    fn new(blob: Bytes, cose: Option<Box<[u8]>>, signer: Option<String>, grain: Option<Grain>) -> Self {
        let signed = cose.map(|cose| Box::new(Signed { cose, signer: signer.unwrap_or_default() }));
        let cell = OnceLock::new();
        if let Some(g) = grain {
            let _ = cell.set(Box::new(g));
        }
        GrainBody { blob, signed, grain: cell }
    }

    /// The blob, byte for byte as written.
    pub fn blob(&self) -> &[u8] {
        self.blob.as_slice()
    }

    /// The bytes as stored: the COSE_Sign1 envelope for signed grains, else the blob.
    pub fn entry(&self) -> &[u8] {
        self.signed.as_ref().map_or(self.blob(), |s| &s.cose)
    }

    /// The decoded grain (decoded now if it was loaded as bytes only).
    pub fn grain(&self) -> &Grain {
        self.grain.get_or_init(|| {
            let opts = DecodeOptions { wrapped: self.signed.is_some(), ..DecodeOptions::default() };
            // The same bytes passed the full decode (`parse_entry`) before they were stored,
            // and decoding is a pure function of them: this cannot fail.
            Box::new(decode_verified(self.blob(), &opts).expect("a stored blob decodes as it did when it was verified"))
        })
    }

    /// The verified signer DID of a signed grain.
    pub fn signer(&self) -> Option<&str> {
        self.signed.as_ref().map(|s| s.signer.as_str())
    }
}

/// The index-layer state of a record, allocated only once it differs from the default
/// (issue 20: most grains of a large store never have any, and the state is 136 bytes).
/// Reads see the default through `Deref`; the first mutable access allocates.
#[derive(Default)]
pub(crate) struct LazyState(Option<Box<IndexState>>);

/// What [`LazyState`] reads as before anything was set.
static DEFAULT_STATE: IndexState = IndexState {
    superseded_by: None,
    system_valid_to: None,
    verification_status: None,
    access_count: None,
    last_accessed_at: None,
    extra: Map::new(),
};

impl From<IndexState> for LazyState {
    fn from(st: IndexState) -> Self {
        LazyState((st != DEFAULT_STATE).then(|| Box::new(st)))
    }
}

impl std::ops::Deref for LazyState {
    type Target = IndexState;
    fn deref(&self) -> &IndexState {
        self.0.as_deref().unwrap_or(&DEFAULT_STATE)
    }
}

impl std::ops::DerefMut for LazyState {
    fn deref_mut(&mut self) -> &mut IndexState {
        self.0.get_or_insert_with(Box::default)
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
    pub(crate) state: LazyState,
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
    pub(crate) blob: Bytes,
    pub(crate) signer: Option<String>,
    pub(crate) ty: GrainType,
    pub(crate) created: Option<i64>,
    pub(crate) keys: super::indexes::IndexKeys,
    /// Its field values and search terms, in the loading thread's symbols.
    pub(crate) local: LocalKeys,
}

impl Loaded {
    /// Verifies an entry (as `parse_entry`) and keeps its index keys, interning its strings
    /// in `symbols`; the bytes of an unsigned entry are `bytes()` (a stretch of the shared
    /// file, or a copy).
    pub(crate) fn parse(entry: &[u8], bytes: impl FnOnce() -> Bytes, symbols: &mut LocalSymbols) -> Result<Loaded> {
        let p = parse_entry(entry)?;
        let keys = super::indexes::IndexKeys::without_strings(&p.grain);
        let local = LocalKeys::of(&p.grain, symbols);
        let blob = if p.cose.is_some() { Bytes::Own(p.blob) } else { bytes() };
        Ok(Loaded {
            address: p.address,
            cose: p.cose,
            blob,
            signer: p.signer,
            ty: p.grain.grain_type(),
            created: p.grain.created_at(),
            keys,
            local,
        })
    }
}

impl Record {
    /// A record of a loaded entry, its grain not yet decoded; and its index keys.
    pub(crate) fn from_loaded(l: Loaded) -> (Self, super::indexes::IndexKeys, LocalKeys) {
        let has_basis = l.local.has_basis;
        let body = GrainBody::new(l.blob, l.cose, l.signer, None);
        let r = Record {
            address: l.address,
            body: Arc::new(body),
            ty: l.ty,
            has_basis,
            created: l.created,
            state: LazyState::default(),
            access_count: AtomicU64::new(0),
            last_accessed_at: AtomicI64::new(i64::MIN),
        };
        (r, l.keys, l.local)
    }

    pub(crate) fn new(p: Parsed) -> Self {
        let created = p.grain.created_at();
        Record {
            address: p.address,
            created,
            ty: p.grain.grain_type(),
            has_basis: str_field(&p.grain, "processing_basis").is_some(),
            body: Arc::new(GrainBody::new(Bytes::Own(p.blob), p.cose, p.signer, Some(p.grain))),
            state: LazyState::default(),
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
        let mut s = IndexState::clone(&self.state);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The per-grain structures a million-grain store holds a million of (issue 20): a
    /// byte more each is a megabyte more.
    #[test]
    fn records_and_bodies_stay_small() {
        assert!(std::mem::size_of::<Option<Record>>() <= 88, "{}", std::mem::size_of::<Option<Record>>());
        assert!(std::mem::size_of::<GrainBody>() <= 48, "{}", std::mem::size_of::<GrainBody>());
        assert_eq!(std::mem::size_of::<LazyState>(), 8);
    }

    #[test]
    fn a_lazy_state_allocates_only_when_set() {
        let mut s = LazyState::default();
        assert!(s.0.is_none() && s.is_default());
        assert!(LazyState::from(IndexState::default()).0.is_none());
        s.system_valid_to = Some(5);
        assert_eq!(s.system_valid_to, Some(5));
        assert!(s.0.is_some());
    }
}
