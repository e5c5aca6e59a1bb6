//! A durable store's embedder and vectors: the configuration kept in the store, the vectors
//! loaded for a search, new grains embedded as they arrive, and the resumable backfill of
//! `cal store embed`.

use std::sync::Arc;

use oms::durable::DurableStore;
use oms::{ContentAddress, Grain};

use crate::config::EmbedderConfig;
use crate::error::EmbedError;
use crate::index::Entry;
use crate::retriever::{Retriever, entry_of, grain_text};

/// The store setting that holds the embedder configuration (JSON).
pub const EMBEDDER_SETTING: &str = "embedder";

/// How many grains a backfill reads, embeds and stores per transaction.
pub const BACKFILL_BATCH: usize = 256;

/// Why a store's semantic side could not be opened.
#[derive(Debug)]
pub enum OpenFailure {
    /// The store could not be read.
    Store(oms::OmsError),
    /// The stored configuration is not one this toolchain reads, or cannot work.
    Config(String),
}

impl std::fmt::Display for OpenFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenFailure::Store(e) => write!(f, "{e}"),
            OpenFailure::Config(m) => write!(f, "the store's embedder setting is unusable: {m}"),
        }
    }
}

/// The embedder configuration stored in `store`, if one is.
pub fn stored_config(store: &DurableStore) -> Result<Option<EmbedderConfig>, OpenFailure> {
    let Some(text) = store.setting(EMBEDDER_SETTING).map_err(OpenFailure::Store)? else { return Ok(None) };
    let config: EmbedderConfig = serde_json::from_str(&text).map_err(|e| OpenFailure::Config(e.to_string()))?;
    config.validate().map_err(|e| OpenFailure::Config(e.to_string()))?;
    Ok(Some(config))
}

/// The semantic side of a store with an embedder: a retriever holding every vector the store
/// has for the configured model. `None` without an embedder.
pub fn open(store: &DurableStore) -> Result<Option<Arc<Retriever>>, OpenFailure> {
    let Some(config) = stored_config(store)? else { return Ok(None) };
    let identity = config.identity();
    let retriever = Retriever::new(config).map_err(|e| OpenFailure::Config(e.to_string()))?;
    for v in store.vectors(&identity).map_err(OpenFailure::Store)? {
        retriever.insert(Entry { address: v.address, grain_type: v.grain_type, namespace: v.namespace }, &v.vector);
    }
    Ok(Some(Arc::new(retriever)))
}

/// Embeds grains just written to `store` and stores their vectors (import, ADD, SUPERSEDE,
/// REVERT). Grains already embedded, and grains without text, are skipped. The answer is how
/// many were embedded.
pub fn embed_new(
    retriever: &Retriever,
    store: &DurableStore,
    grains: &[(ContentAddress, &Grain)],
    progress: impl FnMut(usize),
) -> Result<usize, EmbedFailure> {
    let model = retriever.config().model.clone();
    let todo: Vec<(Entry, String)> = grains
        .iter()
        .filter(|(a, _)| !retriever.contains(a))
        .filter_map(|(a, g)| grain_text(g, &model).map(|t| (entry_of(*a, g), t)))
        .collect();
    store_vectors(retriever, store, todo, progress)
}

/// What a backfill did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Backfill {
    /// Grains embedded and stored now.
    pub embedded: usize,
    /// Grains without any text (nothing to embed).
    pub without_text: usize,
    /// Grains that had a vector of this model already.
    pub already: usize,
}

/// Embeds every grain of `store` that has no vector of the configured model, a batch per
/// transaction: an interrupted backfill keeps what it stored, and running it again resumes.
/// `progress` hears (done, still to do) after each batch.
pub fn backfill(
    retriever: &Retriever,
    store: &DurableStore,
    mut progress: impl FnMut(usize, usize),
) -> Result<Backfill, EmbedFailure> {
    let identity = retriever.config().identity();
    let model = retriever.config().model.clone();
    let total = store.len().map_err(EmbedFailure::Store)?;
    let mut report = Backfill { already: retriever.len(), ..Backfill::default() };
    let mut after = i64::MIN;
    let mut done = 0usize;
    loop {
        let batch = store.unembedded(&identity, after, BACKFILL_BATCH).map_err(EmbedFailure::Store)?;
        let Some(last) = batch.last() else { break };
        after = last.row;
        let mut todo = Vec::with_capacity(batch.len());
        for u in &batch {
            match grain_text(u.grain.grain(), &model) {
                Some(text) => todo.push((entry_of(u.grain.address, u.grain.grain()), text)),
                None => report.without_text += 1,
            }
        }
        report.embedded += store_vectors(retriever, store, todo, |_| {})?;
        done += batch.len();
        progress(done, total.saturating_sub(report.already).saturating_sub(done));
    }
    Ok(report)
}

/// Why grains could not be embedded.
#[derive(Debug)]
pub enum EmbedFailure {
    /// The embedder failed; nothing of this batch was stored.
    Embedder(EmbedError),
    /// The store could not be read or written.
    Store(oms::OmsError),
}

impl std::fmt::Display for EmbedFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EmbedFailure::Embedder(e) => write!(f, "{e}"),
            EmbedFailure::Store(e) => write!(f, "{e}"),
        }
    }
}

fn store_vectors(
    retriever: &Retriever,
    store: &DurableStore,
    todo: Vec<(Entry, String)>,
    progress: impl FnMut(usize),
) -> Result<usize, EmbedFailure> {
    if todo.is_empty() {
        return Ok(0);
    }
    let texts: Vec<String> = todo.iter().map(|(_, t)| t.clone()).collect();
    let vectors = retriever.embed_texts(&texts, progress).map_err(EmbedFailure::Embedder)?;
    let rows: Vec<(ContentAddress, u8, String, Vec<f32>)> = todo
        .iter()
        .zip(&vectors)
        .map(|((e, _), v)| (e.address, e.grain_type, e.namespace.clone(), v.clone()))
        .collect();
    store.put_vectors(&retriever.config().identity(), &rows).map_err(EmbedFailure::Store)?;
    let mut added = 0;
    for ((entry, _), v) in todo.into_iter().zip(vectors) {
        if retriever.insert(entry, &v) {
            added += 1;
        }
    }
    Ok(added)
}
