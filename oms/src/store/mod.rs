//! The in-memory OMS store: grains keyed by content address, the index layer
//! kept apart from the immutable blobs (§5.6, §28.3), the store protocol of
//! §28.4, invalidation policies (§23) and the temporal model (§15).
//!
//! Concurrency: one `RwLock` around the whole state. Readers share it; every
//! write (put, supersede, contradict, erase) takes it exclusively and checks
//! everything before changing anything, so each write is atomic and
//! supersession is linearizable. `import` judges a file's manifest claims on
//! the grains it has inserted and undoes the whole import when one fails,
//! all under the same exclusive lock, so no reader sees a partial import. Access counters are atomics, updated under
//! the read lock.
//!
//! `delete` (compliance erasure) exists here and only here: the CAL facade
//! never exposes it.

mod addr_index;
mod claims;
pub(crate) mod consent;
pub(crate) mod goals;
pub(crate) mod indexes;
mod judge;
mod load_keys;
mod ordered;
pub(crate) mod persist;
mod plan;
mod policy_walk;
mod postings;
pub(crate) mod read;
pub(crate) mod record;
pub mod sealed;
mod walk;
mod write;

pub mod policy;
pub mod query;
pub mod search;

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};

pub(crate) use claims::{manifest_problems, parse_file};
pub use persist::SaveOptions;
pub use query::{CmpOp, Filter, Hit, Query, ResultEnvelope, SortKey, View};
pub use record::GrainBody;

use crate::address::ContentAddress;
use crate::grain::Grain;
use crate::mg::IndexState;
use indexes::{Id, Indexes};
use record::Record;
use search::TextIndex;

/// Maximum hops followed through `derived_from` and supersession chains
/// (§23.6, §23.7).
pub const MAX_HOPS: usize = 16;

/// Default erasure SLA after a consent withdrawal: 30 days (§23.2, GDPR Art. 12(3)).
pub const DEFAULT_ERASURE_SLA_MS: i64 = 30 * 24 * 3600 * 1000;

/// A source of the current time in epoch milliseconds. Injected so that the
/// same store, query and clock give the same answer.
pub type Clock = Arc<dyn Fn() -> i64 + Send + Sync>;

/// Store settings.
#[derive(Clone)]
pub struct StoreConfig {
    /// The clock used for `system_valid_to`, timed policies and access times.
    pub clock: Clock,
    /// Count reads in `access_count` / `last_accessed_at` (§22.10).
    pub track_access: bool,
    /// Refuse self-authorization by the acting agent for locked and quorum
    /// grains (§23.8).
    pub key_separation: bool,
    /// Require non-empty `satisfaction_evidence` for autonomous `satisfied`
    /// and `failed` transitions of protected goals (§23.5 SHOULD).
    pub require_transition_evidence: bool,
    /// Erasure deadline after a consent withdrawal.
    pub erasure_sla_ms: i64,
}

impl Default for StoreConfig {
    fn default() -> Self {
        StoreConfig {
            clock: Arc::new(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
            }),
            track_access: true,
            key_separation: true,
            require_transition_evidence: true,
            erasure_sla_ms: DEFAULT_ERASURE_SLA_MS,
        }
    }
}

impl StoreConfig {
    /// A configuration with a fixed clock (tests, reproducible runs).
    pub fn fixed_clock(now_ms: i64) -> Self {
        StoreConfig { clock: Arc::new(move || now_ms), ..StoreConfig::default() }
    }
}

impl std::fmt::Debug for StoreConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoreConfig")
            .field("track_access", &self.track_access)
            .field("key_separation", &self.key_separation)
            .field("require_transition_evidence", &self.require_transition_evidence)
            .field("erasure_sla_ms", &self.erasure_sla_ms)
            .finish_non_exhaustive()
    }
}

/// A grain as returned by `get`: immutable content plus an index snapshot.
#[derive(Debug, Clone)]
pub struct Stored {
    /// Content address (of the inner blob).
    pub address: ContentAddress,
    /// The immutable grain: blob, envelope, decoded fields, signer.
    pub body: Arc<GrainBody>,
    /// Index-layer state at the time of the read.
    pub index: IndexState,
}

impl Stored {
    /// The blob, byte for byte as written.
    pub fn blob(&self) -> &[u8] {
        self.body.blob()
    }

    /// The stored entry: the COSE_Sign1 envelope for signed grains, else the blob.
    pub fn entry(&self) -> &[u8] {
        self.body.entry()
    }

    /// The decoded grain.
    pub fn grain(&self) -> &Grain {
        self.body.grain()
    }

    /// The verified signer, for signed grains.
    pub fn signer(&self) -> Option<&str> {
        self.body.signer()
    }

    /// Whether a consent withdrawal covers the grain (§8.10): it is out of
    /// every view but the audit view `View::All`.
    pub fn consent_withdrawn(&self) -> bool {
        self.index.extra.contains_key(record::EXTRA_CONSENT_WITHDRAWN)
    }
}

/// Content addresses are already uniform hashes: their first eight bytes
/// make a perfectly good hash, with no need to rehash 32 bytes with SipHash.
#[derive(Default)]
pub(crate) struct AddrHasher(u64);

impl std::hash::Hasher for AddrHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8).take(1) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            self.0 ^= u64::from_le_bytes(b);
        }
    }
}

#[derive(Default)]
pub(crate) struct Inner {
    /// Records by id; `None` after compliance erasure.
    records: Vec<Option<Record>>,
    by_address: addr_index::AddrIndex,
    idx: Indexes,
    text: TextIndex,
    /// new → old, for walking chains backwards.
    supersedes: HashMap<Id, Id>,
    live: usize,
    /// Ids whose index-layer state was ever changed: a superset of the records that a
    /// view may hide, so that a count over an index needs to look only at these.
    flagged: BTreeSet<Id>,
    /// Grains held as encrypted bytes (`sealed.rs`): in no index, reachable by address only.
    sealed: HashMap<ContentAddress, Arc<sealed::SealedGrain>, std::hash::BuildHasherDefault<AddrHasher>>,
}

impl Inner {
    fn record(&self, id: Id) -> Option<&Record> {
        self.records.get(id as usize).and_then(Option::as_ref)
    }

    fn id_of(&self, a: &ContentAddress) -> Option<Id> {
        self.by_address.get(&self.records, a)
    }

    fn by_addr(&self, a: &ContentAddress) -> Option<&Record> {
        self.id_of(a).and_then(|id| self.record(id))
    }
}

/// The in-memory store. Cheap to share: wrap it in an `Arc`.
pub struct Store {
    inner: RwLock<Inner>,
    config: StoreConfig,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("len", &self.len()).field("config", &self.config).finish()
    }
}

impl Default for Store {
    fn default() -> Self {
        Store::new(StoreConfig::default())
    }
}

impl Store {
    /// An empty store.
    pub fn new(config: StoreConfig) -> Self {
        Store { inner: RwLock::new(Inner::default()), config }
    }

    /// The store's configuration.
    pub fn config(&self) -> &StoreConfig {
        &self.config
    }

    fn now(&self) -> i64 {
        (self.config.clock)()
    }

    fn read(&self) -> RwLockReadGuard<'_, Inner> {
        // A panic while holding the lock cannot leave partial state (writes
        // check before they mutate), so a poisoned lock is still usable.
        self.inner.read().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn write(&self) -> RwLockWriteGuard<'_, Inner> {
        self.inner.write().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Number of grains held.
    pub fn len(&self) -> usize {
        self.read().live
    }

    /// Whether the store is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A record as the protocol returns it.
pub(crate) fn stored(r: &Record) -> Stored {
    Stored { address: r.address, body: r.body.clone(), index: r.snapshot() }
}
