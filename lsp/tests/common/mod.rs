//! A minimal JSON-RPC client over an in-memory duplex, for end-to-end tests.

#![allow(dead_code)] // each test file uses a different part

use cal_lsp::server::{Config, serve_with};
use serde_json::{Value, json};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf};

/// The client side of a running server.
pub struct Client {
    write: WriteHalf<DuplexStream>,
    read: BufReader<ReadHalf<DuplexStream>>,
    next_id: i64,
    /// Notifications received while waiting for responses.
    pub notifications: Vec<Value>,
}

impl Client {
    /// Starts a server on the current runtime with a short debounce.
    pub fn start(debounce_ms: u64) -> Client {
        Client::start_with(Config { debounce: Duration::from_millis(debounce_ms), ..Config::default() })
    }

    /// Starts a server on the current runtime with these settings.
    pub fn start_with(config: Config) -> Client {
        let (client_end, server_end) = tokio::io::duplex(1 << 20);
        let (server_read, server_write) = tokio::io::split(server_end);
        tokio::spawn(serve_with(server_read, server_write, config));
        let (read, write) = tokio::io::split(client_end);
        Client { write, read: BufReader::new(read), next_id: 1, notifications: Vec::new() }
    }

    async fn send(&mut self, msg: Value) {
        let body = msg.to_string();
        let frame = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        self.write.write_all(frame.as_bytes()).await.expect("write");
    }

    async fn recv(&mut self) -> Value {
        let mut len = 0usize;
        loop {
            let mut line = String::new();
            self.read.read_line(&mut line).await.expect("read header");
            let line = line.trim();
            if line.is_empty() {
                break;
            }
            if let Some(v) = line.strip_prefix("Content-Length:") {
                len = v.trim().parse().expect("length");
            }
        }
        let mut body = vec![0; len];
        self.read.read_exact(&mut body).await.expect("read body");
        serde_json::from_slice(&body).expect("json")
    }

    /// Sends a request and returns its result (or error object), keeping notifications.
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})).await;
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(20), self.recv()).await.expect("response in time");
            if msg.get("id") == Some(&json!(id)) && msg.get("method").is_none() {
                return msg.get("result").or_else(|| msg.get("error")).cloned().unwrap_or(Value::Null);
            }
            self.notifications.push(msg);
        }
    }

    /// Sends a notification.
    pub async fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params})).await;
    }

    /// Waits for the next `publishDiagnostics` whose version is `version` (or any for `None`).
    pub async fn diagnostics(&mut self, version: Option<i64>) -> Value {
        let matches = |m: &Value| {
            m["method"] == "textDocument/publishDiagnostics"
                && version.is_none_or(|v| m["params"]["version"] == json!(v))
        };
        if let Some(i) = self.notifications.iter().position(matches) {
            return self.notifications.remove(i)["params"].clone();
        }
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(20), self.recv()).await.expect("diagnostics in time");
            if matches(&msg) {
                return msg["params"].clone();
            }
            self.notifications.push(msg);
        }
    }

    /// initialize + initialized, offering `encodings`.
    pub async fn initialize(&mut self, encodings: &[&str]) -> Value {
        self.initialize_with(encodings, Value::Null).await
    }

    /// initialize + initialized, offering `encodings`, with `initializationOptions`.
    pub async fn initialize_with(&mut self, encodings: &[&str], options: Value) -> Value {
        let r = self
            .request(
                "initialize",
                json!({"processId": null, "rootUri": null, "initializationOptions": options,
                       "capabilities": {"general": {"positionEncodings": encodings}}}),
            )
            .await;
        self.notify("initialized", json!({})).await;
        r
    }

    /// Sends a didChange replacing the whole text.
    pub async fn replace(&mut self, uri: &str, version: i64, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
        )
        .await;
    }

    /// didOpen.
    pub async fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "cal", "version": 1, "text": text}}),
        )
        .await;
    }
}
