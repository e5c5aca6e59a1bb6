//! Writes: `put`, `supersede`, `contradict` and `set_verification_status`,
//! each judged by the in-memory store's own rules.
//!
//! A write loads the grains its rules can look at — the target, its
//! supersession predecessors, the `derived_from` ancestors of the target and
//! of the new grain (up to [`MAX_HOPS`](crate::store::MAX_HOPS) each), and,
//! for a consent withdrawal, the grains whose basis it withdraws — into a
//! scratch [`Store`], runs the operation there, and writes back what changed
//! (new grains, changed index state, supersession records) in the same
//! `BEGIN IMMEDIATE` transaction. The invalidation policy (§23) therefore
//! has one implementation, and a refused write changes nothing.

use std::collections::{HashMap, HashSet, VecDeque};

use rusqlite::{OptionalExtension, Transaction, TransactionBehavior};

use super::ingest::{Ingest, id_of, write_state, write_supersession};
use super::read::{load, postings};
use super::verify::append_audit;
use super::{DurableStore, db_error};
use crate::address::ContentAddress;
use crate::error::{OmsError, Result};
use crate::grain::Grain;
use crate::mg::IndexState;
use crate::store::consent::withdraws;
use crate::store::indexes::{Id, Key};
use crate::store::record::{Parsed, Record, derived_from, parse_entry, str_field};
use crate::store::{MAX_HOPS, Store, StoreConfig};

/// The most grains one write may need to look at.
pub(crate) const MAX_WORKING_SET: usize = 100_000;

/// Where a write's working set starts.
#[derive(Default)]
pub(crate) struct Seeds {
    /// Grains to load with their `derived_from` ancestors and predecessors.
    addresses: Vec<ContentAddress>,
    /// Consents withdrawn: the grains on these bases are loaded (to be covered).
    withdrawn: Vec<String>,
    /// Bases of new grains: the withdrawals of these consents are loaded.
    bases: Vec<String>,
    /// Goals a new goal depends on: each is loaded with every later version of its chain,
    /// since a dependency is judged by the head of its chain.
    dependencies: Vec<ContentAddress>,
}

impl Seeds {
    /// Adds what a new (or imported) grain's rules can reach: itself when
    /// already stored, what it derives from, the grains its withdrawal
    /// covers, and the withdrawals of its own basis.
    pub(crate) fn add_grain(&mut self, g: &Grain, address: ContentAddress) {
        self.addresses.push(address);
        self.addresses.extend(derived_from(g));
        if let Some(prior) = withdraws(g) {
            self.withdrawn.push(prior.to_string());
        }
        if let Some(basis) = str_field(g, "processing_basis") {
            self.bases.push(basis.to_string());
        }
    }

    /// What superseding `old` by the grain `new_entry` can reach.
    pub(crate) fn for_supersession(old: &ContentAddress, new_entry: &[u8]) -> Result<Seeds> {
        let parsed = parse_entry(new_entry)?;
        let mut seeds = Seeds::for_new(&parsed.grain, parsed.address);
        seeds.addresses.push(*old);
        Ok(seeds)
    }

    /// Adds a grain known only by its address (a manifest claim's target).
    pub(crate) fn add_grain_address(&mut self, address: ContentAddress) {
        self.addresses.push(address);
    }

    pub(crate) fn for_new(g: &Grain, address: ContentAddress) -> Seeds {
        let mut s = Seeds::default();
        s.add_grain(g, address);
        s.dependencies.extend(crate::store::goals::depends_on(g));
        s
    }
}

/// The working set: the seeds, their `derived_from` ancestors and their
/// supersession predecessors, each walk bounded by `MAX_HOPS`.
fn working_set(tx: &Transaction<'_>, seeds: &Seeds, cap: usize) -> Result<Vec<(Id, Record)>> {
    let mut queue: VecDeque<(Id, usize)> = VecDeque::new();
    let mut seen: HashSet<Id> = HashSet::new();
    for a in &seeds.addresses {
        if let Some(id) = id_of(tx, a)?
            && seen.insert(id)
        {
            queue.push_back((id, 0));
        }
    }
    for (key, values) in [(Key::Basis, &seeds.withdrawn), (Key::PriorConsent, &seeds.bases)] {
        let mut values: Vec<&String> = values.iter().collect();
        values.sort_unstable();
        values.dedup();
        for v in values {
            for id in postings(tx, key as i64, v)? {
                if seen.insert(id) {
                    queue.push_back((id, MAX_HOPS));
                }
            }
        }
    }
    let mut forward = tx.prepare_cached("SELECT new_id FROM supersessions WHERE old_id = ?1").map_err(db_error)?;
    for a in &seeds.dependencies {
        let mut at = id_of(tx, a)?;
        let mut steps = 0;
        while let Some(id) = at
            && steps < cap
        {
            steps += 1;
            if seen.insert(id) {
                queue.push_back((id, MAX_HOPS));
            }
            at = forward
                .query_row([i64::from(id)], |r| r.get::<_, i64>(0))
                .optional()
                .map_err(db_error)?
                .and_then(|n| Id::try_from(n).ok());
        }
    }
    let mut back = tx.prepare_cached("SELECT old_id FROM supersessions WHERE new_id = ?1").map_err(db_error)?;
    let mut out = Vec::new();
    while let Some((id, depth)) = queue.pop_front() {
        if out.len() >= cap {
            return Err(OmsError::Unsupported {
                feature: format!("a write whose policy walk reaches more than {cap} grains"),
            });
        }
        let Some((id, record)) = load(tx, &[id])?.into_iter().next() else { continue };
        if depth <= MAX_HOPS {
            let mut next: Vec<Id> = Vec::new();
            for a in derived_from(record.body.grain()) {
                next.extend(id_of(tx, &a)?);
            }
            if let Some(old) = back.query_row([i64::from(id)], |r| r.get::<_, i64>(0)).optional().map_err(db_error)? {
                next.extend(Id::try_from(old).ok());
            }
            for n in next {
                if seen.insert(n) {
                    queue.push_back((n, depth + 1));
                }
            }
        }
        out.push((id, record));
    }
    Ok(out)
}

/// Writes back what a scratch store changed: new grains with their index
/// rows, every changed index state, every new supersession record.
fn write_back(
    tx: &Transaction<'_>,
    scratch: &Store,
    before: &HashMap<ContentAddress, (Id, IndexState)>,
    links: &[(ContentAddress, ContentAddress)],
    now: i64,
) -> Result<Written> {
    let mut ingest = Ingest::begin(tx)?;
    let mut ids: HashMap<ContentAddress, Id> = before.iter().map(|(a, (id, _))| (*a, *id)).collect();
    let mut written = Written::default();
    let addresses = scratch.addresses();
    for address in &addresses {
        if ids.contains_key(address) {
            continue;
        }
        let s = scratch.peek(address).ok_or_else(|| OmsError::Bug { detail: format!("{address} vanished") })?;
        let parsed = Parsed {
            address: *address,
            cose: s.signer().map(|_| s.entry().into()),
            blob: s.blob().into(),
            grain: s.grain().clone(),
            signer: s.signer().map(str::to_string),
        };
        let id = match ingest.add(parsed)? {
            Some(id) => {
                written.added.push(*address);
                id
            }
            None => ingest.id_of(address)?.ok_or_else(|| OmsError::Bug { detail: format!("{address} lost") })?,
        };
        ids.insert(*address, id);
    }
    ingest.finish()?;
    let id_of_addr = |a: &ContentAddress| {
        ids.get(a).copied().ok_or_else(|| OmsError::Bug { detail: format!("{a} has no id in the working set") })
    };
    for address in &addresses {
        let after = scratch.peek(address).map(|s| s.index).unwrap_or_default();
        let unchanged = match before.get(address) {
            Some((_, b)) => *b == after,
            None => after.is_default(),
        };
        if !unchanged {
            write_state(tx, id_of_addr(address)?, &after)?;
            written.states += 1;
        }
    }
    for (new, old) in scratch.links() {
        if !links.contains(&(new, old)) {
            let at = scratch.peek(&old).and_then(|s| s.index.system_valid_to).unwrap_or(now);
            write_supersession(tx, id_of_addr(&new)?, id_of_addr(&old)?, at, None)?;
        }
    }
    Ok(written)
}

/// The supersession records among the working set, as `(new, old)` addresses.
fn links_among(tx: &Transaction<'_>, set: &[(Id, Record)]) -> Result<Vec<(ContentAddress, ContentAddress)>> {
    let by_id: HashMap<Id, ContentAddress> = set.iter().map(|(id, r)| (*id, r.address)).collect();
    let mut back = tx.prepare_cached("SELECT old_id FROM supersessions WHERE new_id = ?1").map_err(db_error)?;
    let mut out = Vec::new();
    for (id, r) in set {
        if let Some(old) = back.query_row([i64::from(*id)], |row| row.get::<_, i64>(0)).optional().map_err(db_error)?
            && let Some(o) = Id::try_from(old).ok().and_then(|o| by_id.get(&o))
        {
            out.push((r.address, *o));
        }
    }
    Ok(out)
}

/// What a write changed.
#[derive(Debug, Default)]
pub(crate) struct Written {
    /// Grains new to the store.
    pub(crate) added: Vec<ContentAddress>,
    /// Grains whose index state changed.
    pub(crate) states: usize,
}

impl DurableStore {
    /// Runs `op` on a scratch store holding the working set of `seeds`, then
    /// writes back what it changed, all in one transaction.
    fn evolve<T>(&self, seeds: &Seeds, what: &str, op: impl FnOnce(&Store) -> Result<T>) -> Result<T> {
        self.writable()?;
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(db_error)?;
        let (out, written) = self.evolve_in(&tx, seeds, MAX_WORKING_SET, op)?;
        append_audit(
            &tx,
            self.now(),
            &serde_json::json!({
                "op": what,
                "added": written.added.iter().map(ContentAddress::to_hex).collect::<Vec<_>>(),
                "states_changed": written.states,
            }),
        )?;
        tx.commit().map_err(db_error)?;
        Ok(out)
    }

    /// The body of [`DurableStore::evolve`] inside the caller's transaction.
    pub(crate) fn evolve_in<T>(
        &self,
        tx: &Transaction<'_>,
        seeds: &Seeds,
        cap: usize,
        op: impl FnOnce(&Store) -> Result<T>,
    ) -> Result<(T, Written)> {
        let now = self.now();
        let set = working_set(tx, seeds, cap)?;
        let links = links_among(tx, &set)?;
        let before: HashMap<ContentAddress, (Id, IndexState)> =
            set.iter().map(|(id, r)| (r.address, (*id, r.snapshot()))).collect();
        let config =
            StoreConfig { clock: std::sync::Arc::new(move || now), track_access: false, ..self.config.clone() };
        let scratch = Store::scratch(config, set.into_iter().map(|(_, r)| r).collect(), &links);
        let out = op(&scratch)?;
        let written = write_back(tx, &scratch, &before, &links, now)?;
        Ok((out, written))
    }

    /// `put` (§28.4): stores a blob or COSE_Sign1 envelope (verified), by the
    /// in-memory store's rules (idempotent; a `derived_from` that implies
    /// supersession is refused; a consent withdrawal takes effect). Returns
    /// once the grain is durable.
    pub fn put(&self, entry: &[u8]) -> Result<ContentAddress> {
        let parsed = parse_entry(entry)?;
        let seeds = Seeds::for_new(&parsed.grain, parsed.address);
        self.evolve(&seeds, "put", |s| s.put(entry))
    }

    /// `supersede` (§28.4): atomically checks the invalidation policies that
    /// protect `old` (§23), stores the new grain, and records the supersession.
    pub fn supersede(
        &self,
        old: &ContentAddress,
        new_entry: &[u8],
        justification: Option<&str>,
    ) -> Result<ContentAddress> {
        let seeds = Seeds::for_supersession(old, new_entry)?;
        self.evolve(&seeds, "supersede", |s| s.supersede(old, new_entry, justification))
    }

    /// Marks a grain contradicted (§23.7), subject to the same policies.
    pub fn contradict(&self, target: &ContentAddress, auth: &[Vec<u8>], justification: Option<&str>) -> Result<()> {
        let seeds = Seeds { addresses: vec![*target], ..Seeds::default() };
        self.evolve(&seeds, "contradict", |s| s.contradict(target, auth, justification))
    }

    /// Sets `verification_status` (§28.3), with the store's authorization rules.
    pub fn set_verification_status(&self, address: &ContentAddress, status: &str, auth: &[Vec<u8>]) -> Result<()> {
        let seeds = Seeds { addresses: vec![*address], ..Seeds::default() };
        self.evolve(&seeds, "set_verification_status", |s| s.set_verification_status(address, status, auth))
    }
}
