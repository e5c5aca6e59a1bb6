//! The constrained facade (§2.1, §2.3): the only way the interpreter reaches a
//! store. [`ReadFacade`] has read operations and nothing else — no write, no
//! delete, no key management — so a Tier 0 statement cannot change memory by
//! construction: the executor simply holds no method that could.
//!
//! Tier 1 (ADD, SUPERSEDE, REVERT) will get its own trait extending this one
//! with exactly `add`, `supersede` and `revert`; the store's `delete` (OMS
//! §28.4 compliance erasure) is never part of either.

use std::sync::{Arc, Mutex};

use oms::durable::DurableStore;
use oms::store::sealed::SealedGrain;
use oms::store::{CmpOp, Filter, Hit, Query, ResultEnvelope, Store, Stored, View};
use oms::{ContentAddress, OmsError, Value};

/// Read access to an OMS store, as the CAL executor sees it.
///
/// Every method maps to one store-protocol operation of OMS §28.4 (or, for
/// [`ReadFacade::get_history`] and [`ReadFacade::versions`], to the chain walk
/// and `query(include_superseded)` that §13 counts for HISTORY).
pub trait ReadFacade: Send + Sync {
    /// `query` (§28.4): structured filters, view, sort, limit, in the §28.1 envelope.
    fn query(&self, q: &Query) -> Result<ResultEnvelope, OmsError>;
    /// `search` (§28.4): BM25 relevance combined with the filters.
    fn search(&self, text: &str, q: &Query) -> Result<ResultEnvelope, OmsError>;
    /// The grains among `addresses` that `q`'s view and filters admit, in the order given
    /// (candidates found by a vector index, confined to what the query may see).
    fn admit(&self, q: &Query, addresses: &[ContentAddress]) -> Result<Vec<Hit>, OmsError>;
    /// How many grains `query` (or `search` with `text`) would match, without returning them.
    fn count(&self, text: Option<&str>, q: &Query) -> Result<usize, OmsError>;
    /// `exists` (§28.4).
    fn exists(&self, address: &ContentAddress) -> bool;
    /// `get` (§28.4), without counting an access (§22.10: chain walks are internal reads).
    fn get(&self, address: &ContentAddress) -> Option<Stored>;
    /// The version chain containing `address`, oldest first.
    fn get_history(&self, address: &ContentAddress) -> Result<Vec<Stored>, OmsError>;
    /// Every version with this (subject, relation), oldest first.
    fn versions(&self, subject: &str, relation: &str) -> Vec<Stored>;
    /// Addresses whose hex form starts with `hex_prefix` (8–64 lowercase hex
    /// digits, §3.4), ascending, at most `max` of them.
    fn resolve_prefix(&self, hex_prefix: &str, max: usize) -> Vec<ContentAddress>;
    /// Number of grains held.
    fn grain_count(&self) -> usize;
    /// The encrypted grain at `address` the store holds sealed (OMS §20.2), if any: it can
    /// be named but never formatted (CAL-E080, ruling C27). Stores that hold none say `None`.
    fn sealed(&self, _address: &ContentAddress) -> Option<Arc<SealedGrain>> {
        None
    }
}

/// The facade over the in-memory OMS store ([`oms::store::Store`]).
pub struct OmsFacade {
    store: Arc<Store>,
    /// Addresses sorted ascending for prefix lookups (`sha256:a1b2c3d4`), built
    /// on first use and rebuilt when the store's size changes.
    sorted: Mutex<(usize, Vec<ContentAddress>)>,
}

impl std::fmt::Debug for OmsFacade {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OmsFacade").field("grains", &self.store.len()).finish_non_exhaustive()
    }
}

impl OmsFacade {
    /// A facade over a shared store.
    pub fn new(store: Arc<Store>) -> Self {
        OmsFacade { store, sorted: Mutex::new((usize::MAX, Vec::new())) }
    }
}

fn hex_starts_with(a: &ContentAddress, prefix: &[u8]) -> bool {
    // Compare nibble by nibble without allocating the hex string.
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = a.as_bytes();
    prefix.len() <= 64
        && prefix.iter().enumerate().all(|(i, c)| {
            let Some(b) = bytes.get(i / 2).copied() else { return false };
            let nibble = if i % 2 == 0 { b >> 4 } else { b & 0x0f };
            HEX[nibble as usize] == c.to_ascii_lowercase()
        })
}

/// The smallest address whose hex form starts with `prefix` (missing digits as `0`).
fn lower_bound(prefix: &[u8]) -> Option<ContentAddress> {
    let mut out = [0u8; 32];
    for (i, c) in prefix.iter().enumerate() {
        let v = u8::try_from((*c as char).to_ascii_lowercase().to_digit(16)?).ok()?;
        if i % 2 == 0 {
            out[i / 2] |= v << 4;
        } else {
            out[i / 2] |= v;
        }
    }
    Some(ContentAddress::from_bytes(out))
}

/// CAL §19.1: no CAL syntax weakens the active policy. A grain covered by a
/// consent withdrawal (OMS §8.10) is out of the store's current and as-of
/// views already; `WITH superseded` and the contradicted view read the audit
/// view `View::All`, so they get a filter that leaves withdrawn grains out too.
fn without_withdrawn(q: &Query) -> std::borrow::Cow<'_, Query> {
    if q.view == View::All {
        let mut q = q.clone();
        q.filters.push(Filter::Cmp { field: "consent_withdrawn".into(), op: CmpOp::Eq, value: Value::Bool(false) });
        std::borrow::Cow::Owned(q)
    } else {
        std::borrow::Cow::Borrowed(q)
    }
}

impl ReadFacade for OmsFacade {
    fn query(&self, q: &Query) -> Result<ResultEnvelope, OmsError> {
        self.store.query(&without_withdrawn(q))
    }

    fn search(&self, text: &str, q: &Query) -> Result<ResultEnvelope, OmsError> {
        self.store.search(text, &without_withdrawn(q))
    }

    fn admit(&self, q: &Query, addresses: &[ContentAddress]) -> Result<Vec<Hit>, OmsError> {
        Ok(self.store.admit(&without_withdrawn(q), addresses))
    }

    fn count(&self, text: Option<&str>, q: &Query) -> Result<usize, OmsError> {
        let q = Query { limit: Some(0), cursor: None, ..without_withdrawn(q).into_owned() };
        let env = match text {
            Some(t) => self.store.search(t, &q)?,
            None => self.store.query(&q)?,
        };
        Ok(env.total)
    }

    fn exists(&self, address: &ContentAddress) -> bool {
        self.store.exists(address)
    }

    fn get(&self, address: &ContentAddress) -> Option<Stored> {
        self.store.peek(address).filter(|s| !s.consent_withdrawn())
    }

    fn get_history(&self, address: &ContentAddress) -> Result<Vec<Stored>, OmsError> {
        Ok(self.store.history(address)?.into_iter().filter(|s| !s.consent_withdrawn()).collect())
    }

    fn versions(&self, subject: &str, relation: &str) -> Vec<Stored> {
        self.store.versions(subject, relation).into_iter().filter(|s| !s.consent_withdrawn()).collect()
    }

    fn resolve_prefix(&self, hex_prefix: &str, max: usize) -> Vec<ContentAddress> {
        let prefix = hex_prefix.as_bytes();
        if prefix.is_empty() || prefix.len() > 64 || !prefix.iter().all(u8::is_ascii_hexdigit) {
            return Vec::new();
        }
        if prefix.len() == 64 {
            // A grain the store holds sealed exists, but names nothing a statement could read.
            return ContentAddress::parse(hex_prefix)
                .ok()
                .filter(|a| self.store.peek(a).is_some())
                .into_iter()
                .take(max)
                .collect();
        }
        let Some(start) = lower_bound(prefix) else { return Vec::new() };
        let mut guard = self.sorted.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let len = self.store.len();
        if guard.0 != len {
            let mut all = self.store.addresses();
            all.sort_unstable();
            *guard = (len, all);
        }
        let sorted = &guard.1;
        let from = sorted.partition_point(|a| *a < start);
        sorted[from..].iter().take_while(|a| hex_starts_with(a, prefix)).take(max).copied().collect()
    }

    fn grain_count(&self) -> usize {
        self.store.len()
    }

    fn sealed(&self, address: &ContentAddress) -> Option<Arc<SealedGrain>> {
        self.store.sealed(address)
    }
}

/// The facade over a durable store ([`oms::durable::DurableStore`]): the same
/// answers as [`OmsFacade`] over the same grains, read from the database.
///
/// The store can fail where memory cannot (a damaged file): the first such
/// error is kept, so that the caller reports it by name instead of trusting
/// an answer that might be smaller than the truth ([`DurableFacade::take_error`]).
pub struct DurableFacade {
    store: Arc<DurableStore>,
    error: Mutex<Option<OmsError>>,
}

impl std::fmt::Debug for DurableFacade {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DurableFacade").field("store", &self.store).finish_non_exhaustive()
    }
}

impl DurableFacade {
    /// A facade over a shared durable store.
    pub fn new(store: Arc<DurableStore>) -> Self {
        DurableFacade { store, error: Mutex::new(None) }
    }

    /// The store behind the facade.
    pub fn store(&self) -> &Arc<DurableStore> {
        &self.store
    }

    /// The first store error since the last call, if any: an answer given
    /// after one may be incomplete and must not be trusted.
    pub fn take_error(&self) -> Option<OmsError> {
        self.error.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take()
    }

    fn keep<T>(&self, r: Result<T, OmsError>) -> Result<T, OmsError> {
        if let Err(e) = &r {
            let mut slot = self.error.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            slot.get_or_insert_with(|| e.clone());
        }
        r
    }

    fn or_empty<T: Default>(&self, r: Result<T, OmsError>) -> T {
        self.keep(r).unwrap_or_default()
    }
}

/// The same CAL §19.1 confinement as [`OmsFacade`]: withdrawn grains stay out of every view.
impl ReadFacade for DurableFacade {
    fn query(&self, q: &Query) -> Result<ResultEnvelope, OmsError> {
        self.keep(self.store.query(&without_withdrawn(q)))
    }

    fn search(&self, text: &str, q: &Query) -> Result<ResultEnvelope, OmsError> {
        self.keep(self.store.search(text, &without_withdrawn(q)))
    }

    fn admit(&self, q: &Query, addresses: &[ContentAddress]) -> Result<Vec<Hit>, OmsError> {
        self.keep(self.store.admit(&without_withdrawn(q), addresses))
    }

    fn count(&self, text: Option<&str>, q: &Query) -> Result<usize, OmsError> {
        let q = Query { limit: Some(0), cursor: None, ..q.clone() };
        let env = match text {
            Some(t) => self.search(t, &q)?,
            None => self.query(&q)?,
        };
        Ok(env.total)
    }

    fn exists(&self, address: &ContentAddress) -> bool {
        self.or_empty(self.store.exists(address))
    }

    fn get(&self, address: &ContentAddress) -> Option<Stored> {
        self.or_empty(self.store.get(address)).filter(|s| !s.consent_withdrawn())
    }

    fn get_history(&self, address: &ContentAddress) -> Result<Vec<Stored>, OmsError> {
        let chain = match self.store.history(address) {
            Err(OmsError::NotFound { address }) => return Err(OmsError::NotFound { address }),
            other => self.keep(other)?,
        };
        Ok(chain.into_iter().filter(|s| !s.consent_withdrawn()).collect())
    }

    fn versions(&self, subject: &str, relation: &str) -> Vec<Stored> {
        self.or_empty(self.store.versions(subject, relation)).into_iter().filter(|s| !s.consent_withdrawn()).collect()
    }

    fn resolve_prefix(&self, hex_prefix: &str, max: usize) -> Vec<ContentAddress> {
        let prefix = hex_prefix.as_bytes();
        if prefix.is_empty() || prefix.len() > 64 || !prefix.iter().all(u8::is_ascii_hexdigit) {
            return Vec::new();
        }
        let Some(start) = lower_bound(prefix) else { return Vec::new() };
        let found = self.or_empty(self.store.addresses_from(&start, max));
        found.into_iter().take_while(|a| hex_starts_with(a, prefix)).take(max).collect()
    }

    fn grain_count(&self) -> usize {
        self.or_empty(self.store.len())
    }

    fn sealed(&self, address: &ContentAddress) -> Option<Arc<SealedGrain>> {
        self.or_empty(self.store.sealed(address)).map(Arc::new)
    }
}

/// A shared facade is a facade: one store can back several interpreters, and
/// a caller can keep a handle on the concrete facade (to ask a
/// [`DurableFacade`] for its error) while the interpreter holds `Arc<dyn ReadFacade>`.
impl<F: ReadFacade + ?Sized> ReadFacade for Arc<F> {
    fn query(&self, q: &Query) -> Result<ResultEnvelope, OmsError> {
        (**self).query(q)
    }
    fn search(&self, text: &str, q: &Query) -> Result<ResultEnvelope, OmsError> {
        (**self).search(text, q)
    }
    fn admit(&self, q: &Query, addresses: &[ContentAddress]) -> Result<Vec<Hit>, OmsError> {
        (**self).admit(q, addresses)
    }
    fn count(&self, text: Option<&str>, q: &Query) -> Result<usize, OmsError> {
        (**self).count(text, q)
    }
    fn exists(&self, address: &ContentAddress) -> bool {
        (**self).exists(address)
    }
    fn get(&self, address: &ContentAddress) -> Option<Stored> {
        (**self).get(address)
    }
    fn get_history(&self, address: &ContentAddress) -> Result<Vec<Stored>, OmsError> {
        (**self).get_history(address)
    }
    fn versions(&self, subject: &str, relation: &str) -> Vec<Stored> {
        (**self).versions(subject, relation)
    }
    fn resolve_prefix(&self, hex_prefix: &str, max: usize) -> Vec<ContentAddress> {
        (**self).resolve_prefix(hex_prefix, max)
    }
    fn grain_count(&self) -> usize {
        (**self).grain_count()
    }
    fn sealed(&self, address: &ContentAddress) -> Option<Arc<SealedGrain>> {
        (**self).sealed(address)
    }
}
