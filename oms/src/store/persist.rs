//! Persistence through `.mg` files (§11): load a store (merging the index
//! manifest, §11.7) and save it back. Loading checks the whole file before
//! touching the store, so a corrupt file loads nothing.

use super::record::{Parsed, parse_entry};
use super::{Store, StoreConfig};
use crate::address::ContentAddress;
use crate::error::{OmsError, Result};
use crate::mg::{IndexState, Manifest, MgFile, PackOptions, pack};

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
    pub fn load(bytes: &[u8], config: StoreConfig) -> Result<Store> {
        let store = Store::new(config);
        store.import(bytes)?;
        Ok(store)
    }

    /// Merges a `.mg` file into this store: every grain is verified (address,
    /// schema, signature) and every manifest entry checked before anything is
    /// inserted. Portable index fields from the manifest overwrite the
    /// store's (last writer wins); local counters are restored. Returns the
    /// number of grains that were new.
    pub fn import(&self, bytes: &[u8]) -> Result<usize> {
        let file = MgFile::open(bytes)?;
        let entries = file.entries().collect::<Result<Vec<&[u8]>>>()?;
        let parsed = parse_all(&entries)?;
        let manifest = file.manifest().cloned().unwrap_or_default();
        let present: std::collections::HashSet<ContentAddress> = parsed.iter().map(|p| p.address).collect();
        for a in manifest.keys() {
            if !present.contains(a) {
                return Err(OmsError::schema("manifest", format!("entry for {a}, which is not in the file")));
            }
        }
        let mut inner = self.write();
        let mut added = 0;
        for p in parsed {
            if !inner.by_address.contains_key(&p.address) {
                inner.insert(p);
                added += 1;
            }
        }
        for (a, st) in &manifest {
            if let Some(id) = inner.id_of(a) {
                if let Some(r) = inner.records.get_mut(id as usize).and_then(Option::as_mut) {
                    r.state = IndexState { access_count: None, last_accessed_at: None, ..st.clone() };
                    r.restore_counters(st);
                }
            }
        }
        // Rebuild the backward links of every chain the manifest describes.
        let links: Vec<(ContentAddress, ContentAddress)> =
            inner.records.iter().flatten().filter_map(|r| r.state.superseded_by.map(|by| (r.address, by))).collect();
        for (old, new) in links {
            if let (Some(o), Some(n)) = (inner.id_of(&old), inner.id_of(&new)) {
                inner.supersedes.insert(n, o);
            }
        }
        Ok(added)
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
        pack(records.iter().map(|r| r.body.entry()), Some(&manifest), &pack_opts)
    }
}

/// Verifies every entry, on all cores: decoding dominates load time. Keeps
/// file order and reports the first failing grain.
pub(crate) fn parse_all(entries: &[&[u8]]) -> Result<Vec<Parsed>> {
    let threads = std::thread::available_parallelism().map_or(1, usize::from).clamp(1, 8);
    let chunk = entries.len().div_ceil(threads).max(1);
    let results: Vec<Result<Vec<Parsed>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = entries
            .chunks(chunk)
            .enumerate()
            .map(|(c, part)| {
                scope.spawn(move || {
                    part.iter()
                        .enumerate()
                        .map(|(i, e)| parse_entry(e).map_err(|err| annotate(err, c * chunk + i)))
                        .collect::<Result<Vec<Parsed>>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err(OmsError::Bug { detail: "a load thread panicked".into() })))
            .collect()
    });
    let mut out = Vec::with_capacity(entries.len());
    for r in results {
        out.extend(r?);
    }
    Ok(out)
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
