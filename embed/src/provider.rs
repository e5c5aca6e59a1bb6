//! The embedder interface, and the checks every provider's answer passes before a vector
//! reaches the index: one vector per text, each of the configured length, every number finite.

use std::time::Duration;

use crate::command::CommandEmbedder;
use crate::config::{EmbedderConfig, Provider};
use crate::error::EmbedError;
use crate::http::HttpEmbedder;

/// Something that turns texts into vectors: a model server or a local command.
pub trait Embedder: Send + Sync + std::fmt::Debug {
    /// One vector per text, in order, within `timeout`.
    fn embed(&self, texts: &[String], timeout: Duration) -> Result<Vec<Vec<f32>>, EmbedError>;
}

/// The embedder a configuration names.
pub fn build(config: &EmbedderConfig) -> Result<Box<dyn Embedder>, EmbedError> {
    config.validate()?;
    Ok(match &config.provider {
        Provider::Http { url } => Box::new(HttpEmbedder::new(url, config)),
        Provider::Command { command } => Box::new(CommandEmbedder::new(command, config)),
    })
}

/// Refuses an answer with the wrong number of vectors, a vector of the wrong length, or a
/// number that is not finite (the fusion must stay deterministic, §17.4).
pub(crate) fn check_vectors(vectors: &[Vec<f32>], texts: usize, dimensions: usize) -> Result<(), EmbedError> {
    if vectors.len() != texts {
        return Err(EmbedError::BadResponse(format!("{} vectors for {texts} texts", vectors.len())));
    }
    if let Some(v) = vectors.iter().find(|v| v.len() != dimensions) {
        return Err(EmbedError::WrongDimensions { expected: dimensions, got: v.len() });
    }
    if vectors.iter().flatten().any(|x| !x.is_finite()) {
        return Err(EmbedError::BadResponse("a vector holds a number that is not finite".into()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_checked_for_count_length_and_finiteness() {
        assert!(check_vectors(&[vec![1.0, 0.0]], 1, 2).is_ok());
        assert!(matches!(check_vectors(&[vec![1.0, 0.0]], 2, 2), Err(EmbedError::BadResponse(_))));
        assert_eq!(
            check_vectors(&[vec![1.0, 0.0, 0.0]], 1, 2),
            Err(EmbedError::WrongDimensions { expected: 2, got: 3 })
        );
        assert!(matches!(check_vectors(&[vec![f32::NAN, 0.0]], 1, 2), Err(EmbedError::BadResponse(_))));
    }
}
