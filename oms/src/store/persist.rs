//! Persistence through `.mg` files (§11): load a store (judging and merging
//! the index manifest, §11.7) and save it back. Loading checks the whole
//! file — every grain and every manifest claim — and a corrupt or forged
//! file loads nothing.

use std::borrow::Cow;
use std::collections::HashSet;
use std::hash::BuildHasherDefault;
use std::sync::Arc;

use super::claims::Undo;
use super::indexes::Id;
use super::load_keys::{LoadScratch, LocalSymbols, Remap};
use super::ordered::Pending;
use super::record::{Bytes, Loaded, Parsed, parse_entry};
use super::sealed::{SealedGrain, is_sealed_entry, parse_sealed};
use super::{AddrHasher, Inner, Store, StoreConfig};
use crate::address::ContentAddress;
use crate::error::{OmsError, Result};
use crate::mg::{IndexState, Manifest, MgFile, PackOptions, pack};

/// Grains verified and inserted at a time by [`Store::load`]: large enough to keep both
/// cores busy, small enough that the index keys of one batch are a few megabytes.
pub(crate) const LOAD_BATCH: usize = 16_384;

/// Where the grains of a load keep their bytes: in these shared bytes (the file, or the
/// decompressed region of a compressed file), from this position on; `None`: copied out.
type Home<'a> = Option<(&'a Arc<Vec<u8>>, usize)>;

/// A batch of a load, verified: each loading thread's part of it, in file order, with the
/// strings that thread interned.
type Verified = Vec<(Vec<Loaded>, LocalSymbols)>;

/// How to save a store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SaveOptions {
    /// Include the local access counters (§11.7 "MAY include").
    pub include_local: bool,
    /// Compress the grain region with zstd.
    pub compress: bool,
}

impl Store {
    /// A new store holding the grains and index state of a `.mg` file.
    ///
    /// The grains are verified and inserted 16,384 at a time (nobody can read a
    /// store that is still being made), so what a grain is indexed under is held for two
    /// batches only, and a file that fails anywhere still loads nothing. The next batch
    /// is verified while the last one is inserted.
    pub fn load(bytes: &[u8], config: StoreConfig) -> Result<Store> {
        let store = Store::new(config);
        store.import_batched(bytes, None, LOAD_BATCH)?;
        Ok(store)
    }

    /// [`Store::load`] from a file's bytes that the store may keep: each grain's bytes stay
    /// where they lie in the file (or in the decompressed region of a compressed file)
    /// instead of being copied out, so the grains of a large store cost little more than
    /// the file itself (issue 20). The bytes live as long as one of their grains does.
    pub fn load_owned(bytes: Vec<u8>, config: StoreConfig) -> Result<Store> {
        let store = Store::new(config);
        let file = Arc::new(bytes);
        store.import_batched(&file, Some(&file), LOAD_BATCH)?;
        Ok(store)
    }

    /// Merges a `.mg` file into this store: every grain is verified (address,
    /// schema, signature) and every manifest entry checked before the store
    /// changes. The manifest's claims are judged, not merely merged
    /// (`claims.rs`): a supersession, contradiction, `contested` /
    /// `retracted` status, `system_valid_to`, inherited policy or consent
    /// withdrawal marker is accepted only when this store would have
    /// permitted the operation it records, with the proof the file carries;
    /// one failing claim fails the import with its code
    /// (`ERR_INVALIDATION_DENIED`, `ERR_EVIDENCE_REQUIRED`, `ERR_CONFLICT`,
    /// `ERR_SCHEMA`, or `ERR_INTEGRITY` for a reference to a grain that is in
    /// neither the file nor the store) and leaves the store as it was.
    /// Other index fields from the manifest overwrite the store's (last
    /// writer wins); a claim the store already holds stays; local counters
    /// are restored. Withdrawals in the file or the store cover the grains
    /// of their consent. Returns the number of grains that were new.
    pub fn import(&self, bytes: &[u8]) -> Result<usize> {
        self.import_batched(bytes, None, usize::MAX)
    }

    /// [`Store::import`] of a file's bytes that the store may keep: the new grains keep
    /// their bytes in them, as with [`Store::load_owned`]. The whole file stays in memory
    /// while any of them does, so it suits a file whose grains are mostly new (`cal run`
    /// opening its memory), not merging a small change into a large store.
    pub fn import_owned(&self, bytes: Vec<u8>) -> Result<usize> {
        let file = Arc::new(bytes);
        self.import_batched(&file, Some(&file), usize::MAX)
    }

    /// [`Store::import`], verifying `batch` grains at a time under the write lock; with a
    /// batch as large as the file, every grain is verified before the lock is taken, so
    /// readers of a live store wait only for the inserts.
    /// With `keep`, `bytes` is that file, and the grains keep their bytes in it.
    fn import_batched(&self, bytes: &[u8], keep: Option<&Arc<Vec<u8>>>, batch: usize) -> Result<usize> {
        let file = MgFile::open(bytes)?;
        let spans = (0..file.len()).map(|i| file.entry_span(i)).collect::<Result<Vec<_>>>()?;
        let manifest = file.manifest().cloned().unwrap_or_default();
        let offset = file.region_offset();
        let decompressed: Arc<Vec<u8>>;
        // The region the entries lie in, and (when kept) the shared bytes it starts in.
        let (region, home): (&[u8], Home<'_>) = match (file.into_region(), offset) {
            (Cow::Borrowed(r), Some(at)) => (r, keep.map(|k| (k, at))),
            (region, _) => {
                decompressed = Arc::new(region.into_owned());
                (&decompressed[..], keep.map(|_| (&decompressed, 0)))
            }
        };
        // Encrypted grains are held apart, as their bytes (`sealed.rs`).
        let (sealed, spans): (Vec<_>, Vec<_>) = spans.into_iter().partition(|s| is_sealed_entry(&region[s.clone()]));
        let sealed = sealed.iter().map(|s| parse_sealed(&region[s.clone()])).collect::<Result<Vec<SealedGrain>>>()?;
        let entries: Vec<&[u8]> = spans.iter().map(|s| &region[s.clone()]).collect();
        let parse = |i: usize, e: &[u8], symbols: &mut LocalSymbols| {
            let bytes = || match home {
                Some((shared, at)) => Bytes::shared(shared, at + spans[i].start..at + spans[i].end),
                None => Bytes::Own(e.into()),
            };
            Loaded::parse(e, bytes, symbols)
        };
        let whole = batch >= entries.len();
        let verified = if whole { Some(par_map_local(&entries, 0, parse)?) } else { None };
        let mut present: Option<HashSet<ContentAddress, BuildHasherDefault<AddrHasher>>> =
            (!manifest.is_empty()).then(|| HashSet::with_capacity_and_hasher(entries.len(), Default::default()));
        if let Some(g) = sealed.iter().find(|g| manifest.contains_key(&g.address)) {
            return Err(OmsError::schema(
                "manifest",
                format!("index state for {}, an encrypted grain whose claims this store cannot judge", g.address),
            ));
        }
        let now = self.now();
        let mut inner = self.write();
        let first_new = inner.records.len();
        let mut added = Vec::with_capacity(entries.len());
        inner.reserve(entries.len());
        // The ordered indexes' entries, gathered while inserting and laid in at the end.
        let mut pending = Pending::with_capacity(entries.len());
        let mut scratch = LoadScratch::default();
        let mut insert = |inner: &mut Inner, parts: Verified, added: &mut Vec<Id>| {
            for (loaded, mut symbols) in parts {
                let mut remap = Remap::new(&mut symbols.names);
                for p in loaded {
                    if let Some(set) = present.as_mut() {
                        set.insert(p.address);
                    }
                    if inner.id_of(&p.address).is_none() {
                        added.push(inner.insert_loaded(p, &mut remap, &symbols.keys, &mut pending, &mut scratch));
                    }
                }
            }
        };
        let undo_added = |inner: &mut Inner, added: &[Id]| {
            for id in added.iter().rev() {
                inner.remove(*id);
            }
            inner.records.truncate(first_new);
        };
        let failed = match verified {
            Some(all) => {
                insert(&mut inner, all, &mut added);
                None
            }
            None => {
                // A pipeline: one thread verifies batch k + 1 (on all cores) while this one
                // inserts batch k, so the serial inserts overlap the verifying.
                std::thread::scope(|scope| {
                    let (tx, rx) = std::sync::mpsc::sync_channel::<Result<Verified>>(1);
                    let entries = &entries;
                    scope.spawn(move || {
                        for (k, part) in entries.chunks(batch.max(1)).enumerate() {
                            let verified = par_map_local(part, k * batch, parse);
                            let stop = verified.is_err();
                            // A send fails only once the inserting side has stopped.
                            if tx.send(verified).is_err() || stop {
                                break;
                            }
                        }
                    });
                    for verified in rx {
                        match verified {
                            Ok(loaded) => insert(&mut inner, loaded, &mut added),
                            Err(e) => return Some(e),
                        }
                    }
                    None
                })
            }
        };
        // Every index is whole again before anything (an undo, the manifest) reads it.
        inner.idx.absorb(pending);
        if let Some(e) = failed {
            undo_added(&mut inner, &added);
            return Err(e);
        }
        if let Some(set) = &present
            && let Some(a) = manifest.keys().find(|a| !set.contains(*a))
        {
            undo_added(&mut inner, &added);
            return Err(OmsError::schema("manifest", format!("entry for {a}, which is not in the file")));
        }
        let mut undo = Undo::default();
        let problems = self.apply_manifest(&mut inner, &manifest, &mut undo);
        if let Some(first) = problems.into_iter().next() {
            for id in undo.links {
                inner.supersedes.remove(&id);
            }
            for (id, st) in &undo.states {
                if let Some(r) = inner.record_mut(*id) {
                    r.state = IndexState { access_count: None, last_accessed_at: None, ..st.clone() }.into();
                    r.restore_counters(st);
                }
            }
            undo_added(&mut inner, &added);
            return Err(first);
        }
        inner.honour_withdrawals(&added, now, self.config.erasure_sla_ms);
        let mut new_sealed = 0;
        for g in sealed {
            inner.sealed.entry(g.address).or_insert_with(|| {
                new_sealed += 1;
                Arc::new(g)
            });
        }
        Ok(added.len() + new_sealed)
    }

    /// Saves every grain (envelopes for signed grains) in insertion order with
    /// a manifest of all non-default index state.
    pub fn save(&self, opts: &SaveOptions) -> Result<Vec<u8>> {
        let inner = self.read();
        let records: Vec<_> = inner.records.iter().flatten().collect();
        let mut manifest = Manifest::new();
        for r in &records {
            let st = if opts.include_local { r.snapshot() } else { r.state.portable_only() };
            if !st.is_default() {
                manifest.insert(r.address, st);
            }
        }
        let pack_opts = PackOptions { compress: opts.compress, ..PackOptions::default() };
        let mut sealed: Vec<&SealedGrain> = inner.sealed.values().map(AsRef::as_ref).collect();
        sealed.sort_unstable_by_key(|g| g.address);
        // Encrypted grains first: a reader finds the manifest from the last grain's length.
        let entries = sealed.into_iter().map(SealedGrain::blob).chain(records.iter().map(|r| r.body.entry()));
        pack(entries, Some(&manifest), &pack_opts)
    }
}

/// Verifies every entry, on all cores: decoding dominates load time. Keeps
/// file order and reports the first failing grain.
pub(crate) fn parse_all(entries: &[&[u8]]) -> Result<Vec<Parsed>> {
    par_map(entries, |_, e| parse_entry(e))
}

/// Maps `f` over entries on all cores, keeping their order; the first
/// failure (by position, annotated with it) is the error.
pub(crate) fn par_map<T: Send>(entries: &[&[u8]], f: impl Fn(usize, &[u8]) -> Result<T> + Sync) -> Result<Vec<T>> {
    par_map_from(entries, 0, f)
}

/// [`par_map`] over a part of a file whose first entry is entry `base` of the file.
fn par_map_from<T: Send>(
    entries: &[&[u8]],
    base: usize,
    f: impl Fn(usize, &[u8]) -> Result<T> + Sync,
) -> Result<Vec<T>> {
    let parts = par_map_local(entries, base, |i, e, _: &mut ()| f(i, e))?;
    let mut out = Vec::with_capacity(entries.len());
    for (part, ()) in parts {
        out.extend(part);
    }
    Ok(out)
}

/// [`par_map_from`] where each thread also keeps a state of its own (the strings it has
/// interned, `load_keys.rs`): the results of each thread's part come with its state, in
/// file order.
fn par_map_local<T: Send, S: Default + Send>(
    entries: &[&[u8]],
    base: usize,
    f: impl Fn(usize, &[u8], &mut S) -> Result<T> + Sync,
) -> Result<Vec<(Vec<T>, S)>> {
    let threads = std::thread::available_parallelism().map_or(1, usize::from).clamp(1, 8);
    let chunk = entries.len().div_ceil(threads).max(1);
    let f = &f;
    std::thread::scope(|scope| {
        let handles: Vec<_> = entries
            .chunks(chunk)
            .enumerate()
            .map(|(c, part)| {
                scope.spawn(move || {
                    let mut state = S::default();
                    let out = part
                        .iter()
                        .enumerate()
                        .map(|(i, e)| {
                            let at = base + c * chunk + i;
                            f(at, e, &mut state).map_err(|err| annotate(err, at))
                        })
                        .collect::<Result<Vec<T>>>()?;
                    Ok((out, state))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err(OmsError::Bug { detail: "a worker thread panicked".into() })))
            .collect()
    })
}

fn annotate(e: OmsError, i: usize) -> OmsError {
    match e {
        OmsError::Schema { field, problem } => OmsError::Schema { field, problem: format!("{problem} (grain {i})") },
        other => other,
    }
}

impl Store {
    /// A store holding `records` as they are (index state included) and the
    /// supersession links `(new, old)` between them: the working set in
    /// which the durable store runs one write with this store's own rules.
    pub(crate) fn scratch(
        config: StoreConfig,
        records: Vec<super::record::Record>,
        links: &[(ContentAddress, ContentAddress)],
    ) -> Store {
        let store = Store::new(config);
        {
            let mut inner = store.write();
            for r in records {
                inner.insert_record(r);
            }
            for (new, old) in links {
                if let (Some(n), Some(o)) = (inner.id_of(new), inner.id_of(old)) {
                    inner.supersedes.insert(n, o);
                }
            }
        }
        store
    }

    /// The supersession links `(new, old)` the store knows.
    pub(crate) fn links(&self) -> Vec<(ContentAddress, ContentAddress)> {
        let inner = self.read();
        let mut out: Vec<(ContentAddress, ContentAddress)> = inner
            .supersedes
            .iter()
            .filter_map(|(n, o)| Some((inner.record(*n)?.address, inner.record(*o)?.address)))
            .collect();
        out.sort_unstable();
        out
    }
}
