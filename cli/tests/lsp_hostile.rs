//! `cal lsp` under hostile input (issue 19): each malformed JSON-RPC body is answered with a
//! JSON-RPC error and the server goes on serving; `exit` without `shutdown` ends with status
//! 1, after it with 0 (the LSP lifecycle).

use std::io::{Read, Write};
use std::process::{Command, Stdio};

fn frame(body: &str) -> Vec<u8> {
    let mut f = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    f.extend_from_slice(body.as_bytes());
    f
}

/// A running `cal lsp`: frames in, frames out, one at a time.
struct Lsp {
    child: std::process::Child,
    out: std::io::BufReader<std::process::ChildStdout>,
}

impl Lsp {
    fn start() -> Lsp {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cal"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("cal lsp starts");
        let out = std::io::BufReader::new(child.stdout.take().expect("stdout"));
        Lsp { child, out }
    }

    fn send(&mut self, bytes: &[u8]) {
        let stdin = self.child.stdin.as_mut().expect("stdin");
        stdin.write_all(bytes).expect("written");
        stdin.flush().expect("flushed");
    }

    /// The next message, skipping the server's own notifications (logs, diagnostics).
    fn next(&mut self) -> serde_json::Value {
        use std::io::BufRead;
        loop {
            let mut len = 0usize;
            loop {
                let mut line = String::new();
                assert!(self.out.read_line(&mut line).expect("a header") > 0, "the server closed its output");
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                if let Some(v) = line.strip_prefix("Content-Length: ") {
                    len = v.parse().expect("a length");
                }
            }
            let mut body = vec![0u8; len];
            self.out.read_exact(&mut body).expect("a body");
            let v: serde_json::Value = serde_json::from_slice(&body).expect("JSON");
            if v.get("id").is_some() {
                return v;
            }
        }
    }

    fn exit_code(mut self) -> i32 {
        drop(self.child.stdin.take());
        self.child.wait().expect("exits").code().unwrap_or(-1)
    }
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#;

#[test]
fn malformed_messages_get_errors_and_the_server_keeps_serving() {
    let mut lsp = Lsp::start();
    lsp.send(&frame(INITIALIZE));
    assert!(lsp.next().get("result").is_some());
    lsp.send(&frame(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#));
    let bad: [(&[u8], i64, serde_json::Value); 6] = [
        (b"Content-Length: 1\r\n\r\n{", -32700, serde_json::Value::Null),
        (b"Content-Length: 4\r\n\r\nnull", -32600, serde_json::Value::Null),
        (b"Content-Length: 2\r\n\r\n[]", -32600, serde_json::Value::Null),
        (&frame(r#"{"jsonrpc":"1.0","id":5,"method":"x"}"#), -32600, 5.into()),
        (&frame(r#"{"jsonrpc":"2.0","id":6,"method":7}"#), -32600, 6.into()),
        (b"Content-Length: abc\r\n\r\n", -32700, serde_json::Value::Null),
    ];
    for (bytes, code, id) in bad {
        lsp.send(bytes);
        let answer = lsp.next();
        assert_eq!(answer.pointer("/error/code").and_then(serde_json::Value::as_i64), Some(code), "{answer}");
        assert_eq!(answer["id"], id);
        // The server still answers a real request after each bad one.
        lsp.send(&frame(r#"{"jsonrpc":"2.0","id":42,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///x.cal"},"position":{"line":0,"character":0}}}"#));
        assert_eq!(lsp.next()["id"], 42);
    }
    lsp.send(&frame(r#"{"jsonrpc":"2.0","id":9,"method":"shutdown"}"#));
    assert!(lsp.next().get("result").is_some());
    lsp.send(&frame(r#"{"jsonrpc":"2.0","method":"exit"}"#));
    assert_eq!(lsp.exit_code(), 0);
}

#[test]
fn exit_without_shutdown_is_status_1() {
    let mut lsp = Lsp::start();
    lsp.send(&frame(INITIALIZE));
    lsp.next();
    lsp.send(&frame(r#"{"jsonrpc":"2.0","method":"exit"}"#));
    assert_eq!(lsp.exit_code(), 1);
    // The input closing without shutdown is the same.
    let mut lsp = Lsp::start();
    lsp.send(&frame(INITIALIZE));
    lsp.next();
    assert_eq!(lsp.exit_code(), 1);
}
