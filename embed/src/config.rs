//! What a store's embedder is: which provider, which model, how many dimensions, which
//! languages it is declared for. Kept in the store database as JSON (`cal store embedder`)
//! and given on the command line for `.mg` stores, so that one description serves both.

use serde::{Deserialize, Serialize};

use crate::error::EmbedError;

/// The default similarity a grain's vector must reach to count as a match of a query.
///
/// A vector index always has a nearest neighbour; without a floor every grain would "match"
/// every LIKE. 0.5 is a cosine at which multilingual sentence models (e5, bge-m3, MiniLM)
/// agree on topic; lower it for models with a high baseline (docs/spec-decisions-embed.md, X3).
pub const DEFAULT_MIN_SIMILARITY: f32 = 0.5;

/// The default time one embedder call may take, in milliseconds; the query's own timeout
/// (§17.3) bounds it further.
pub const DEFAULT_TIMEOUT_MS: u64 = 2_000;

/// The most dimensions a vector may have: the largest common models have 4,096; this bounds
/// the memory a wrong configuration or a hostile endpoint can claim.
pub const MAX_DIMENSIONS: usize = 8_192;

/// Where the vectors come from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "provider", rename_all = "snake_case")]
pub enum Provider {
    /// An OpenAI-compatible `POST {url}/embeddings` endpoint: Ollama, llama.cpp's server,
    /// text-embeddings-inference, vLLM, OpenAI itself. `url` is the base, e.g.
    /// `http://127.0.0.1:11434/v1`. A bearer key, when needed, is read from the environment
    /// variable `CAL_EMBEDDER_API_KEY` at call time and never stored.
    Http {
        /// The base URL.
        url: String,
    },
    /// A command run through `sh -c`: it reads one JSON string per line on standard input
    /// and writes one JSON array of numbers per line on standard output, in order.
    Command {
        /// The command line.
        command: String,
    },
}

/// A store's embedder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EmbedderConfig {
    /// The provider and its address.
    #[serde(flatten)]
    pub provider: Provider,
    /// The model's name, as the provider knows it (sent as `model` over HTTP).
    pub model: String,
    /// The length of every vector.
    pub dimensions: usize,
    /// The languages the model is declared for (DESCRIBE `supported_languages`).
    #[serde(default)]
    pub languages: Vec<String>,
    /// The cosine similarity at which a vector counts as a match.
    #[serde(default = "default_min_similarity")]
    pub min_similarity: f32,
    /// How long one call may take, in milliseconds.
    #[serde(default = "default_timeout_ms")]
    pub timeout_ms: u64,
}

fn default_min_similarity() -> f32 {
    DEFAULT_MIN_SIMILARITY
}

fn default_timeout_ms() -> u64 {
    DEFAULT_TIMEOUT_MS
}

impl EmbedderConfig {
    /// The identity stored beside every vector: a vector made by another model, or with
    /// another length, is never mixed into a search (it is reported as stale instead).
    pub fn identity(&self) -> String {
        format!("{}@{}", self.model, self.dimensions)
    }

    /// Checks the configuration before it is stored or used.
    pub fn validate(&self) -> Result<(), EmbedError> {
        let bad = |what: String| Err(EmbedError::Config(what));
        match &self.provider {
            Provider::Http { url } => {
                if !(url.starts_with("http://") || url.starts_with("https://")) {
                    return bad(format!("the embedder URL {url:?} must start with http:// or https://"));
                }
            }
            Provider::Command { command } => {
                if command.trim().is_empty() {
                    return bad("the embedder command is empty".into());
                }
            }
        }
        if self.model.trim().is_empty() {
            return bad("the embedder needs a model name (--model)".into());
        }
        if self.dimensions == 0 || self.dimensions > MAX_DIMENSIONS {
            return bad(format!("--dimensions must be between 1 and {MAX_DIMENSIONS}, not {}", self.dimensions));
        }
        if !(-1.0..=1.0).contains(&self.min_similarity) {
            return bad(format!("the minimum similarity must lie in [-1, 1], not {}", self.min_similarity));
        }
        if self.timeout_ms == 0 {
            return bad("the embedder timeout must be at least 1 ms".into());
        }
        for l in &self.languages {
            let ok = (2..=8).contains(&l.len()) && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
            if !ok {
                return bad(format!("{l:?} is not a language tag (BCP 47, e.g. en, fr, pt-BR)"));
            }
        }
        Ok(())
    }

    /// The languages DESCRIBE reports: those declared, else English alone (the language the
    /// keyword search stems for).
    pub fn declared_languages(&self) -> Vec<String> {
        if self.languages.is_empty() { vec!["en".into()] } else { self.languages.clone() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn http() -> EmbedderConfig {
        EmbedderConfig {
            provider: Provider::Http { url: "http://127.0.0.1:11434/v1".into() },
            model: "bge-m3".into(),
            dimensions: 1024,
            languages: vec!["en".into(), "fr".into()],
            min_similarity: DEFAULT_MIN_SIMILARITY,
            timeout_ms: DEFAULT_TIMEOUT_MS,
        }
    }

    #[test]
    fn round_trips_through_json_with_defaults() {
        let c = http();
        let text = serde_json::to_string(&c).unwrap();
        assert!(text.contains(r#""provider":"http""#), "{text}");
        assert_eq!(serde_json::from_str::<EmbedderConfig>(&text).unwrap(), c);
        let minimal: EmbedderConfig =
            serde_json::from_str(r#"{"provider":"command","command":"emb","model":"m","dimensions":3}"#).unwrap();
        assert_eq!(minimal.min_similarity, DEFAULT_MIN_SIMILARITY);
        assert_eq!(minimal.timeout_ms, DEFAULT_TIMEOUT_MS);
        assert_eq!(minimal.declared_languages(), ["en"]);
    }

    #[test]
    fn identity_names_model_and_length() {
        assert_eq!(http().identity(), "bge-m3@1024");
    }

    #[test]
    fn refuses_what_cannot_work() {
        assert!(http().validate().is_ok());
        type Breaks = Box<dyn Fn(&mut EmbedderConfig)>;
        let cases: Vec<Breaks> = vec![
            Box::new(|c| c.provider = Provider::Http { url: "127.0.0.1:11434".into() }),
            Box::new(|c| c.provider = Provider::Command { command: "  ".into() }),
            Box::new(|c| c.model = String::new()),
            Box::new(|c| c.dimensions = 0),
            Box::new(|c| c.dimensions = MAX_DIMENSIONS + 1),
            Box::new(|c| c.min_similarity = 1.5),
            Box::new(|c| c.timeout_ms = 0),
            Box::new(|c| c.languages = vec!["english language".into()]),
        ];
        for (i, break_it) in cases.iter().enumerate() {
            let mut c = http();
            break_it(&mut c);
            assert!(matches!(c.validate(), Err(EmbedError::Config(_))), "case {i} was accepted");
        }
        let mut edge = http();
        edge.dimensions = MAX_DIMENSIONS;
        assert!(edge.validate().is_ok());
    }
}
