//! An embedder that is a local command: `sh -c COMMAND` reads one JSON string per line on its
//! standard input and writes one JSON array of numbers per line on its standard output, in
//! order. The command runs once per batch, is killed when its time is up, and what it may
//! write is bounded.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::config::EmbedderConfig;
use crate::error::EmbedError;
use crate::provider::{Embedder, check_vectors};

/// The most bytes one answer line may have (8,192 dimensions written as JSON numbers fit in
/// about 200 KB).
const MAX_LINE_BYTES: u64 = 1024 * 1024;

/// An embedder run as a command.
#[derive(Debug)]
pub struct CommandEmbedder {
    command: String,
    dimensions: usize,
}

impl CommandEmbedder {
    /// An embedder running `command` through `sh -c`.
    pub fn new(command: &str, config: &EmbedderConfig) -> Self {
        CommandEmbedder { command: command.to_string(), dimensions: config.dimensions }
    }
}

impl Embedder for CommandEmbedder {
    fn embed(&self, texts: &[String], timeout: Duration) -> Result<Vec<Vec<f32>>, EmbedError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let started = Instant::now();
        let after_ms = u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX);
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(&self.command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| EmbedError::Unavailable(format!("cannot start `{}`: {e}", self.command)))?;
        let mut input = String::new();
        for t in texts {
            input.push_str(&serde_json::Value::String(t.clone()).to_string());
            input.push('\n');
        }
        let mut stdin = child.stdin.take().ok_or_else(|| EmbedError::Unavailable("no standard input".into()))?;
        let writer = std::thread::spawn(move || {
            // A command that exits early closes the pipe; its answer (or exit status) says why.
            let _ = stdin.write_all(input.as_bytes());
        });
        let stdout = child.stdout.take().ok_or_else(|| EmbedError::Unavailable("no standard output".into()))?;
        let stderr = child.stderr.take();
        let want = texts.len();
        let reader = std::thread::spawn(move || -> Result<Vec<Vec<f32>>, EmbedError> {
            let mut lines = BufReader::new(stdout);
            let mut out = Vec::with_capacity(want);
            while out.len() < want {
                let mut line = String::new();
                let n = (&mut lines)
                    .take(MAX_LINE_BYTES)
                    .read_line(&mut line)
                    .map_err(|e| EmbedError::BadResponse(format!("the answer is not UTF-8 text: {e}")))?;
                if n == 0 {
                    break;
                }
                if !line.ends_with('\n') && n as u64 == MAX_LINE_BYTES {
                    return Err(EmbedError::BadResponse(format!("an answer line is over {MAX_LINE_BYTES} bytes")));
                }
                let v: Vec<f32> = serde_json::from_str(line.trim()).map_err(|e| {
                    EmbedError::BadResponse(format!("line {} is not a JSON array of numbers: {e}", out.len() + 1))
                })?;
                out.push(v);
            }
            Ok(out)
        });
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if started.elapsed() >= timeout => {
                    let _ = child.kill();
                    let _ = child.wait();
                    break None;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
                Err(e) => return Err(EmbedError::Unavailable(format!("`{}`: {e}", self.command))),
            }
        };
        let _ = writer.join();
        let Some(status) = status else {
            return Err(EmbedError::Timeout { after_ms });
        };
        let vectors = reader.join().map_err(|_| EmbedError::BadResponse("the answer reader failed".into()))??;
        if !status.success() {
            let mut why = String::new();
            if let Some(mut e) = stderr {
                let _ = e.by_ref().take(500).read_to_string(&mut why);
            }
            return Err(EmbedError::Unavailable(format!("`{}` exited with {status}: {}", self.command, why.trim())));
        }
        check_vectors(&vectors, texts.len(), self.dimensions)?;
        Ok(vectors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Provider;

    fn embedder(command: &str, dimensions: usize) -> CommandEmbedder {
        let config = EmbedderConfig {
            provider: Provider::Command { command: command.into() },
            model: "test".into(),
            dimensions,
            languages: Vec::new(),
            min_similarity: 0.5,
            timeout_ms: 1_000,
        };
        CommandEmbedder::new(command, &config)
    }

    #[test]
    fn one_vector_per_line_in_order() {
        // Each text becomes [its length, 1]: `awk` sees the JSON string with its quotes.
        let e = embedder(r#"awk '{ print "[" length($0) - 2 ", 1]" }'"#, 2);
        let got = e.embed(&["ab".into(), "abcd".into()], Duration::from_secs(5)).unwrap();
        assert_eq!(got, vec![vec![2.0, 1.0], vec![4.0, 1.0]]);
    }

    #[test]
    fn failures_have_names() {
        let texts = ["x".to_string()];
        let slow = embedder("sleep 5", 2).embed(&texts, Duration::from_millis(100));
        assert_eq!(slow, Err(EmbedError::Timeout { after_ms: 100 }));
        let wrong = embedder("echo '[1, 2, 3]'", 2).embed(&texts, Duration::from_secs(5));
        assert_eq!(wrong, Err(EmbedError::WrongDimensions { expected: 2, got: 3 }));
        let failed = embedder("echo broken >&2; exit 3", 2).embed(&texts, Duration::from_secs(5));
        assert!(matches!(&failed, Err(EmbedError::Unavailable(m)) if m.contains("broken")), "{failed:?}");
        let garbage = embedder("echo hello", 2).embed(&texts, Duration::from_secs(5));
        assert!(matches!(garbage, Err(EmbedError::BadResponse(_))));
        let short = embedder("true", 2).embed(&texts, Duration::from_secs(5));
        assert!(matches!(short, Err(EmbedError::BadResponse(_))));
    }
}
