//! The OpenAI-compatible embeddings endpoint: `POST {base}/embeddings` with
//! `{"model": …, "input": [texts]}`, answered by `{"data": [{"index": i, "embedding": [..]}]}`.
//! Ollama (`/v1`), llama.cpp's server, text-embeddings-inference, vLLM and OpenAI speak it.

use std::time::Duration;

use serde::Deserialize;
use serde_json::json;

use crate::config::EmbedderConfig;
use crate::error::EmbedError;
use crate::provider::{Embedder, check_vectors};

/// The most bytes an answer may have: 64 texts of 8,192 dimensions written as JSON numbers
/// (about 20 bytes each) fit in 11 MB; anything larger is not an answer to our request.
const MAX_RESPONSE_BYTES: u64 = 32 * 1024 * 1024;

/// The environment variable a bearer key is read from at call time (never stored).
pub const API_KEY_ENV: &str = "CAL_EMBEDDER_API_KEY";

/// An embedder behind an OpenAI-compatible HTTP endpoint.
#[derive(Debug)]
pub struct HttpEmbedder {
    endpoint: String,
    model: String,
    dimensions: usize,
}

#[derive(Deserialize)]
struct Answer {
    data: Vec<Item>,
}

#[derive(Deserialize)]
struct Item {
    #[serde(default)]
    index: Option<usize>,
    embedding: Vec<f32>,
}

impl HttpEmbedder {
    /// An embedder for `config`, whose provider is [`crate::Provider::Http`] with base `url`.
    pub fn new(url: &str, config: &EmbedderConfig) -> Self {
        HttpEmbedder {
            endpoint: format!("{}/embeddings", url.trim_end_matches('/')),
            model: config.model.clone(),
            dimensions: config.dimensions,
        }
    }
}

impl Embedder for HttpEmbedder {
    fn embed(&self, texts: &[String], timeout: Duration) -> Result<Vec<Vec<f32>>, EmbedError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            .http_status_as_error(false)
            .max_redirects(0)
            .build()
            .into();
        let mut request = agent.post(&self.endpoint).header("content-type", "application/json");
        if let Ok(key) = std::env::var(API_KEY_ENV)
            && !key.is_empty()
        {
            request = request.header("authorization", &format!("Bearer {key}"));
        }
        let after_ms = u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX);
        let failed = |e: ureq::Error| match e {
            ureq::Error::Timeout(_) => EmbedError::Timeout { after_ms },
            ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::TimedOut => EmbedError::Timeout { after_ms },
            other => EmbedError::Unavailable(format!("{}: {other}", self.endpoint)),
        };
        let mut response =
            request.send(json!({ "model": self.model, "input": texts }).to_string().as_bytes()).map_err(failed)?;
        let status = response.status().as_u16();
        let body = response.body_mut().with_config().limit(MAX_RESPONSE_BYTES).read_to_string().map_err(failed)?;
        if status != 200 {
            let mut excerpt: String = body.chars().take(200).collect();
            if excerpt.len() < body.len() {
                excerpt.push('…');
            }
            return Err(EmbedError::Unavailable(format!("{} answered HTTP {status}: {excerpt}", self.endpoint)));
        }
        let answer: Answer = serde_json::from_str(&body)
            .map_err(|e| EmbedError::BadResponse(format!("{} did not answer with embeddings: {e}", self.endpoint)))?;
        let mut items = answer.data;
        if items.iter().all(|i| i.index.is_some()) {
            items.sort_by_key(|i| i.index);
            if items.iter().enumerate().any(|(n, i)| i.index != Some(n)) {
                return Err(EmbedError::BadResponse("the answer's indexes are not 0..n".into()));
            }
        }
        let vectors: Vec<Vec<f32>> = items.into_iter().map(|i| i.embedding).collect();
        check_vectors(&vectors, texts.len(), self.dimensions)?;
        Ok(vectors)
    }
}
