//! A store's semantic side: its embedder, the vectors of its grains, and the cache of query
//! vectors. One per process and store, shared by every interpreter that reads the store.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::Duration;

use oms::{ContentAddress, Grain, Value};

use crate::config::EmbedderConfig;
use crate::error::EmbedError;
use crate::index::{Entry, Scope, VectorIndex};
use crate::provider::{self, Embedder};

/// How many texts go to the embedder in one call when grains are embedded.
pub const BATCH: usize = 32;

/// How many query vectors a process keeps: past this the cache starts over, so its memory is
/// bounded (about 1,024 × dimensions × 4 bytes).
pub const QUERY_CACHE_ENTRIES: usize = 1_024;

/// The embedder, vectors and query cache of one store.
#[derive(Debug)]
pub struct Retriever {
    config: EmbedderConfig,
    embedder: Box<dyn Embedder>,
    index: RwLock<VectorIndex>,
    cache: Mutex<HashMap<String, Arc<[f32]>>>,
}

impl Retriever {
    /// A retriever with the embedder `config` names and no vectors yet.
    pub fn new(config: EmbedderConfig) -> Result<Retriever, EmbedError> {
        let embedder = provider::build(&config)?;
        Ok(Retriever::with_embedder(config, embedder))
    }

    /// A retriever over a given embedder (tests, or an embedder made in process).
    pub fn with_embedder(config: EmbedderConfig, embedder: Box<dyn Embedder>) -> Retriever {
        let index = RwLock::new(VectorIndex::new(config.dimensions));
        Retriever { config, embedder, index, cache: Mutex::new(HashMap::new()) }
    }

    /// The configuration.
    pub fn config(&self) -> &EmbedderConfig {
        &self.config
    }

    /// How many grains have a vector.
    pub fn len(&self) -> usize {
        self.index.read().unwrap_or_else(PoisonError::into_inner).len()
    }

    /// Whether no grain has a vector.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the grain at `address` has a vector.
    pub fn contains(&self, address: &ContentAddress) -> bool {
        self.index.read().unwrap_or_else(PoisonError::into_inner).contains(address)
    }

    /// The vector of a query text, from the cache or the embedder, within `timeout` (never
    /// longer than the configured timeout).
    pub fn query_vector(&self, text: &str, timeout: Duration) -> Result<Arc<[f32]>, EmbedError> {
        if let Some(v) = self.cache.lock().unwrap_or_else(PoisonError::into_inner).get(text) {
            return Ok(Arc::clone(v));
        }
        let timeout = timeout.min(Duration::from_millis(self.config.timeout_ms));
        if timeout.is_zero() {
            return Err(EmbedError::Timeout { after_ms: 0 });
        }
        let mut got = self.embedder.embed(&[text.to_string()], timeout)?;
        let v: Arc<[f32]> = got.pop().ok_or_else(|| EmbedError::BadResponse("no vector".into()))?.into();
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        if cache.len() >= QUERY_CACHE_ENTRIES {
            cache.clear();
        }
        cache.insert(text.to_string(), Arc::clone(&v));
        Ok(v)
    }

    /// The grains in `scope` at least as similar to `query` as the configured minimum, most
    /// similar first, ties by address.
    pub fn rank(&self, query: &[f32], scope: Scope<'_>) -> Vec<(ContentAddress, f32)> {
        self.index.read().unwrap_or_else(PoisonError::into_inner).search(query, scope, self.config.min_similarity)
    }

    /// Adds a grain's vector (one of the configured length); whether it was added.
    pub fn insert(&self, entry: Entry, vector: &[f32]) -> bool {
        self.index.write().unwrap_or_else(PoisonError::into_inner).insert(entry, vector)
    }

    /// Vectors for `texts`, [`BATCH`] at a time, each call within the configured timeout;
    /// `progress` hears how many are done after each batch.
    pub fn embed_texts(&self, texts: &[String], mut progress: impl FnMut(usize)) -> Result<Vec<Vec<f32>>, EmbedError> {
        let mut out = Vec::with_capacity(texts.len());
        for batch in texts.chunks(BATCH) {
            out.extend(self.embedder.embed(batch, Duration::from_millis(self.config.timeout_ms))?);
            progress(out.len());
        }
        Ok(out)
    }

    /// Embeds grains and indexes them ([`grain_text`] of each); grains already indexed, and
    /// grains without text, are skipped. The answer is how many were added.
    pub fn index_grains<'g>(
        &self,
        grains: impl IntoIterator<Item = (ContentAddress, &'g Grain)>,
        progress: impl FnMut(usize),
    ) -> Result<usize, EmbedError> {
        let mut todo: Vec<(Entry, String)> = Vec::new();
        for (address, g) in grains {
            if self.contains(&address) {
                continue;
            }
            if let Some(text) = grain_text(g, &self.config.model) {
                todo.push((entry_of(address, g), text));
            }
        }
        let texts: Vec<String> = todo.iter().map(|(_, t)| t.clone()).collect();
        let vectors = self.embed_texts(&texts, progress)?;
        let mut index = self.index.write().unwrap_or_else(PoisonError::into_inner);
        Ok(todo.into_iter().zip(vectors).filter(|((e, _), v)| index.insert(e.clone(), v)).count())
    }
}

/// The index entry of a grain.
pub fn entry_of(address: ContentAddress, g: &Grain) -> Entry {
    Entry { address, grain_type: g.grain_type().byte(), namespace: g.namespace().unwrap_or("").to_string() }
}

/// The text a grain is embedded from.
///
/// An `embedding_refs` entry (OMS §7.2) made with the same model that carries its
/// `chunk_text` names the exact text that was embedded, and is honoured; otherwise the text
/// is the grain's searchable projection, the same the keyword search indexes (subject,
/// then the CAL §10.3.2 content rule of its type), its words joined by single spaces. `None` for a grain
/// with no text at all.
pub fn grain_text(g: &Grain, model: &str) -> Option<String> {
    if let Some(Value::Array(refs)) = g.get("embedding_refs") {
        for r in refs {
            let Some(m) = r.as_map() else { continue };
            let same_model = m.get("model").and_then(Value::as_str) == Some(model);
            let first_chunk = m.get("chunk_index").and_then(Value::as_i64).unwrap_or(0) == 0;
            if let (true, true, Some(text)) = (same_model, first_chunk, m.get("chunk_text").and_then(Value::as_str))
                && !text.trim().is_empty()
            {
                return Some(text.to_string());
            }
        }
    }
    let mut text = String::new();
    for (_, part) in oms::store::search::projection(g) {
        for word in part.split_whitespace() {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(word);
        }
    }
    (!text.is_empty()).then_some(text)
}
