//! Semantic search from the command line (§16.4): `cal store embedder` configures a store's
//! embedder, `cal store embed` backfills its vectors, imports and writes embed what they
//! add, and `cal run` opens a store's embedder (or one given with `--embed-*` for `.mg`
//! stores) so that `query =`, `LIKE` and ABOUT searches rank by keywords and vectors fused.

use std::path::Path;
use std::sync::Arc;

use cal_embed::durable::{self as semantic, EmbedFailure};
use cal_embed::{EmbedderConfig, Provider, Retriever};
use oms::durable::DurableStore;
use oms::store::Store;

/// The embedder options of `cal store embedder`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct EmbedderArgs {
    /// The base URL of an OpenAI-compatible embeddings endpoint (`POST URL/embeddings`), e.g.
    /// `http://127.0.0.1:11434/v1` for Ollama. A key, when needed, is read from
    /// CAL_EMBEDDER_API_KEY when a request is sent, and never stored.
    #[arg(long, value_name = "URL", conflicts_with = "command")]
    pub url: Option<String>,
    /// A command (run with `sh -c`) that reads one JSON string per line and writes one JSON
    /// array of numbers per line.
    #[arg(long, value_name = "CMD")]
    pub command: Option<String>,
    /// The model's name, as the endpoint knows it.
    #[arg(long, value_name = "NAME")]
    pub model: Option<String>,
    /// The length of the model's vectors.
    #[arg(long, value_name = "N")]
    pub dimensions: Option<usize>,
    /// The languages the model serves, for DESCRIBE (comma-separated BCP 47 tags).
    #[arg(long, value_name = "TAGS", value_delimiter = ',')]
    pub languages: Vec<String>,
    /// The cosine similarity at which a vector counts as a match (default 0.5).
    #[arg(long, value_name = "S")]
    pub min_similarity: Option<f32>,
    /// How long one embedder call may take, in milliseconds (default 2000).
    #[arg(long, value_name = "MS")]
    pub timeout_ms: Option<u64>,
    /// Store the setting without asking the embedder for one vector first.
    #[arg(long)]
    pub no_check: bool,
}

/// The same options for `cal run`, `explain` and `repl` over `.mg` stores, prefixed.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct SessionEmbedder {
    /// Semantic search for `.mg` stores: the base URL of an OpenAI-compatible embeddings
    /// endpoint (a store database uses its own, `cal store embedder`).
    #[arg(long, value_name = "URL", conflicts_with = "embed_command")]
    pub embed_url: Option<String>,
    /// Semantic search for `.mg` stores: an embedding command (see `cal store embedder --command`).
    #[arg(long, value_name = "CMD")]
    pub embed_command: Option<String>,
    /// The embedding model's name.
    #[arg(long, value_name = "NAME")]
    pub embed_model: Option<String>,
    /// The embedding model's vector length.
    #[arg(long, value_name = "N")]
    pub embed_dimensions: Option<usize>,
    /// The languages the embedding model serves (comma-separated).
    #[arg(long, value_name = "TAGS", value_delimiter = ',')]
    pub embed_languages: Vec<String>,
    /// The cosine similarity at which a vector counts as a match (default 0.5).
    #[arg(long, value_name = "S")]
    pub embed_min_similarity: Option<f32>,
    /// How long one embedder call may take, in milliseconds (default 2000).
    #[arg(long, value_name = "MS")]
    pub embed_timeout_ms: Option<u64>,
}

/// Builds a configuration from the flags; `None` when no provider is named.
#[allow(clippy::too_many_arguments)]
fn config_of(
    url: Option<&String>,
    command: Option<&String>,
    model: Option<&String>,
    dimensions: Option<usize>,
    languages: &[String],
    min_similarity: Option<f32>,
    timeout_ms: Option<u64>,
    flag: &str,
) -> Result<Option<EmbedderConfig>, String> {
    let provider = match (url, command) {
        (Some(url), None) => Provider::Http { url: url.clone() },
        (None, Some(command)) => Provider::Command { command: command.clone() },
        (None, None) => {
            if model.is_some() || dimensions.is_some() {
                return Err(format!("name the embedder with --{flag}url URL or --{flag}command CMD"));
            }
            return Ok(None);
        }
        (Some(_), Some(_)) => return Err(format!("give --{flag}url or --{flag}command, not both")),
    };
    let model = model.ok_or_else(|| format!("the embedder needs --{flag}model NAME"))?;
    let dimensions = dimensions.ok_or_else(|| format!("the embedder needs --{flag}dimensions N"))?;
    let config = EmbedderConfig {
        provider,
        model: model.clone(),
        dimensions,
        languages: languages.to_vec(),
        min_similarity: min_similarity.unwrap_or(cal_embed::config::DEFAULT_MIN_SIMILARITY),
        timeout_ms: timeout_ms.unwrap_or(cal_embed::config::DEFAULT_TIMEOUT_MS),
    };
    config.validate().map_err(|e| e.to_string())?;
    Ok(Some(config))
}

impl SessionEmbedder {
    /// The embedder these flags name, if any.
    pub fn config(&self) -> Result<Option<EmbedderConfig>, String> {
        config_of(
            self.embed_url.as_ref(),
            self.embed_command.as_ref(),
            self.embed_model.as_ref(),
            self.embed_dimensions,
            &self.embed_languages,
            self.embed_min_similarity,
            self.embed_timeout_ms,
            "embed-",
        )
    }
}

/// The semantic side of a store database, if it has an embedder.
pub fn open_for_database(store: &DurableStore) -> Result<Option<Arc<Retriever>>, String> {
    semantic::open(store).map_err(|e| format!("{}: {e}", store.path().display()))
}

/// The semantic side of an in-memory store under `config`: every grain embedded now, in
/// batches, with a progress bar on a terminal.
pub fn open_for_memory(store: &Store, config: EmbedderConfig) -> Result<Arc<Retriever>, String> {
    let retriever = Retriever::new(config).map_err(|e| e.to_string())?;
    let grains: Vec<oms::store::Stored> = store.addresses().iter().filter_map(|a| store.peek(a)).collect();
    let bar = crate::progress::bar(grains.len(), "grains embedded");
    let done = retriever.index_grains(grains.iter().map(|s| (s.address, s.grain())), |n| bar.set_position(n as u64));
    bar.finish_and_clear();
    done.map_err(|e| format!("the grains could not be embedded: {e}"))?;
    Ok(Arc::new(retriever))
}

/// `cal store embedder DB [options]`: with a provider, checks it (one vector of the right
/// length) and stores the setting; without one, prints the setting and the vectors held.
pub fn configure(store: &DurableStore, args: &EmbedderArgs) -> Result<serde_json::Value, String> {
    let config = config_of(
        args.url.as_ref(),
        args.command.as_ref(),
        args.model.as_ref(),
        args.dimensions,
        &args.languages,
        args.min_similarity,
        args.timeout_ms,
        "",
    )?;
    let Some(config) = config else { return describe(store) };
    if !args.no_check {
        let probe = Retriever::new(config.clone()).map_err(|e| e.to_string())?;
        probe
            .embed_texts(&["CAL embedder check".to_string()], |_| {})
            .map_err(|e| format!("{e} (the setting was not stored; --no-check stores it anyway)"))?;
    }
    let text = serde_json::to_string(&config).map_err(|e| e.to_string())?;
    let audit = serde_json::json!({
        "operation": "set_embedder", "tier": "admin", "model": config.identity(), "phase": "configure", "error": null,
    });
    store.set_setting(semantic::EMBEDDER_SETTING, &text, &audit).map_err(|e| e.to_string())?;
    describe(store)
}

/// The embedder setting and the vectors held per model.
fn describe(store: &DurableStore) -> Result<serde_json::Value, String> {
    let config = semantic::stored_config(store).map_err(|e| e.to_string())?;
    let models: serde_json::Map<String, serde_json::Value> =
        store.vector_models().map_err(|e| e.to_string())?.into_iter().map(|(m, n)| (m, n.into())).collect();
    let grains = store.len().map_err(|e| e.to_string())?;
    let current = config.as_ref().map(EmbedderConfig::identity);
    let embedded = current.as_ref().and_then(|c| models.get(c)).and_then(serde_json::Value::as_u64).unwrap_or(0);
    Ok(serde_json::json!({
        "embedder": config,
        "identity": current,
        "grains": grains,
        "embedded": embedded,
        "vectors_by_model": models,
    }))
}

/// `cal store embed DB`: embeds every grain without a vector of the configured model.
pub fn backfill(store: &DurableStore) -> Result<serde_json::Value, String> {
    let Some(retriever) = open_for_database(store)? else {
        return Err(format!(
            "{} has no embedder: configure one with `cal store embedder {} --url URL --model NAME --dimensions N`",
            store.path().display(),
            store.path().display()
        ));
    };
    let total = store.len().map_err(|e| e.to_string())?;
    let bar = crate::progress::bar(total.saturating_sub(retriever.len()), "grains embedded");
    let report = semantic::backfill(&retriever, store, |done, _| bar.set_position(done as u64));
    bar.finish_and_clear();
    let report = report.map_err(|e| failure(store.path(), &e))?;
    Ok(serde_json::json!({
        "model": retriever.config().identity(),
        "embedded": report.embedded,
        "already": report.already,
        "without_text": report.without_text,
        "vectors": retriever.len(),
    }))
}

/// After grains were written to a store with an embedder: embeds what has no vector yet. A
/// failure leaves the grains written (they are durable already) and says how to catch up.
pub fn after_write(store: &DurableStore) -> Option<String> {
    match open_for_database(store) {
        Ok(None) => None,
        Ok(Some(retriever)) => {
            let todo = store.len().unwrap_or(0).saturating_sub(retriever.len());
            let bar = crate::progress::bar(todo, "grains embedded");
            let done = semantic::backfill(&retriever, store, |n, _| bar.set_position(n as u64));
            bar.finish_and_clear();
            done.err().map(|e| {
            format!(
                "the grains are stored, but not yet embedded ({}); run `cal store embed {}` when the embedder is back",
                failure(store.path(), &e),
                store.path().display()
            )
            })
        }
        Err(e) => Some(e),
    }
}

fn failure(path: &Path, e: &EmbedFailure) -> String {
    format!("{}: {e}", path.display())
}
