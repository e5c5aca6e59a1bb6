//! The base protocol's gatekeeper: frames are read here, before `tower-lsp-server` sees them,
//! so that no single bad message can stop the server (issue 19: one malformed body used to
//! make `cal lsp` exit with status 0).
//!
//! * A frame whose header is malformed (no or a non-numeric `Content-Length`, a length over
//!   [`MAX_FRAME`]) is skipped up to the next header; the client gets a `-32700` error.
//! * A body that is not JSON gets `-32700 Parse error`; a JSON value that is not a JSON-RPC
//!   2.0 request, notification or response object (an array, `null`, `"jsonrpc": "1.0"`, a
//!   method that is not a string) gets `-32600 Invalid Request` with its `id` when it has one.
//! * Everything else is passed through unchanged.
//!
//! The guard also watches the lifecycle: `exit` after `shutdown` ends with status 0, `exit`
//! without it with status 1 (the LSP specification's rule).

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// Largest message body accepted (a document of the maximum size, JSON-escaped, with room).
pub const MAX_FRAME: usize = 64 * 1024 * 1024;

/// How the session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// `exit` after `shutdown`, or the input closed after `shutdown`.
    Clean,
    /// `exit` without `shutdown`, or the input closed without it.
    Abrupt,
}

/// One frame as bytes, ready to write.
pub fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

fn error(id: Value, code: i64, message: &str) -> Vec<u8> {
    frame(json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } }).to_string().as_bytes())
}

/// What one body is.
enum Verdict {
    /// Pass it on; `method` when it is a request or notification.
    Pass(Option<String>),
    /// Answer it with this error frame and drop it.
    Refuse(Vec<u8>),
}

fn judge(body: &[u8]) -> Verdict {
    let Ok(v) = serde_json::from_slice::<Value>(body) else {
        return Verdict::Refuse(error(Value::Null, -32700, "Parse error: the message body is not JSON"));
    };
    let Value::Object(m) = &v else {
        return Verdict::Refuse(error(Value::Null, -32600, "Invalid Request: a message is one JSON object"));
    };
    let id = m.get("id").cloned().filter(|i| i.is_string() || i.is_number()).unwrap_or(Value::Null);
    if m.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Verdict::Refuse(error(id, -32600, "Invalid Request: \"jsonrpc\" must be \"2.0\""));
    }
    match m.get("method") {
        Some(Value::String(method)) => Verdict::Pass(Some(method.clone())),
        Some(_) => Verdict::Refuse(error(id, -32600, "Invalid Request: \"method\" must be a string")),
        // A response to a server request.
        None if m.contains_key("result") || m.contains_key("error") => Verdict::Pass(None),
        None => Verdict::Refuse(error(id, -32600, "Invalid Request: no \"method\"")),
    }
}

/// Reads frames from `input`, answers bad ones on `errors`, and writes good ones to `to_server`.
/// Returns how the session ended.
pub async fn run<I, O>(input: I, mut to_server: O, errors: mpsc::Sender<Vec<u8>>) -> Ending
where
    I: AsyncRead + Unpin,
    O: AsyncWrite + Unpin,
{
    let mut input = BufReader::new(input);
    let mut shutdown = false;
    loop {
        // Headers: lines up to an empty one.
        let mut length: Option<usize> = None;
        let mut bad_header = false;
        let mut saw_any = false;
        loop {
            let mut line = String::new();
            match input.read_line(&mut line).await {
                Ok(0) | Err(_) => return if shutdown { Ending::Clean } else { Ending::Abrupt },
                Ok(_) => {}
            }
            let line = line.trim_end_matches(['\r', '\n']);
            if line.is_empty() {
                if saw_any {
                    break;
                }
                continue;
            }
            saw_any = true;
            match line.split_once(':') {
                Some((name, value)) if name.trim().eq_ignore_ascii_case("content-length") => {
                    match value.trim().parse::<usize>() {
                        Ok(n) if n <= MAX_FRAME => length = Some(n),
                        _ => bad_header = true,
                    }
                }
                Some(_) => {}
                None => bad_header = true,
            }
        }
        let Some(length) = length.filter(|_| !bad_header) else {
            let _ = errors
                .send(error(Value::Null, -32700, "Parse error: a message header without a valid Content-Length"))
                .await;
            continue;
        };
        let mut body = vec![0u8; length];
        if input.read_exact(&mut body).await.is_err() {
            return if shutdown { Ending::Clean } else { Ending::Abrupt };
        }
        match judge(&body) {
            Verdict::Refuse(e) => {
                let _ = errors.send(e).await;
            }
            Verdict::Pass(method) => {
                match method.as_deref() {
                    Some("shutdown") => shutdown = true,
                    Some("exit") => {
                        let _ = to_server.write_all(&frame(&body)).await;
                        let _ = to_server.flush().await;
                        return if shutdown { Ending::Clean } else { Ending::Abrupt };
                    }
                    _ => {}
                }
                if to_server.write_all(&frame(&body)).await.is_err() || to_server.flush().await.is_err() {
                    return if shutdown { Ending::Clean } else { Ending::Abrupt };
                }
            }
        }
    }
}

/// Copies whole frames from the server's output to `errors`' channel, so that the server's
/// messages and the guard's error answers are written to the client one frame at a time.
pub async fn frames<R: AsyncRead + Unpin>(from_server: R, out: mpsc::Sender<Vec<u8>>) {
    let mut r = BufReader::new(from_server);
    loop {
        let mut length = None;
        loop {
            let mut line = String::new();
            match r.read_line(&mut line).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
            let line = line.trim_end_matches(['\r', '\n']);
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':')
                && name.trim().eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse::<usize>().ok();
            }
        }
        let Some(n) = length else { continue };
        let mut body = vec![0u8; n];
        if r.read_exact(&mut body).await.is_err() {
            return;
        }
        if out.send(frame(&body)).await.is_err() {
            return;
        }
    }
}

/// Writes frames to the client until every sender is gone.
pub async fn write<W: AsyncWrite + Unpin>(mut output: W, mut frames: mpsc::Receiver<Vec<u8>>) {
    while let Some(f) = frames.recv().await {
        if output.write_all(&f).await.is_err() || output.flush().await.is_err() {
            return;
        }
    }
}
