//! Language-server latency: diagnostics for a 2,000-line `.cal` file after a
//! one-character edit (budget 20 ms) and completion in it (budget 5 ms).
//! Figures are recorded in docs/performance-lsp.md. `edit_to_published_diagnostics` is the
//! same edit through the whole server (JSON-RPC over an in-memory pipe, default settings):
//! from sending `didChange` to reading its `publishDiagnostics`.

use cal_lsp::engine::{Document, Encoding, completion, diagnostics, hover};
use cal_lsp::server::{Config, serve_with};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

fn main() {
    divan::main();
}

/// 2,000 lines: 400 five-line queries of the kinds an editor holds.
fn big_document() -> String {
    let mut s = String::new();
    for i in 0..400 {
        match i % 4 {
            0 => s.push_str(&format!(
                "-- query {i}\nRECALL beliefs\n  WHERE subject = \"user-{i}\" AND relation IS PREFERENCE\n  WITH diversity(mmr, lambda = 0.5)\n  | ORDER BY confidence DESC | LIMIT 10;\n"
            )),
            1 => s.push_str(
                "LET $recent = RECALL events WHERE time = \"last 7 days\" | SUBJECTS;\nRECALL goals\n  WHERE goal_state = \"active\"\n  AND subject IN ($recent)\n  AS markdown;\n",
            ),
            2 => s.push_str(&format!(
                "ASSEMBLE ctx_{i} FOR \"planning\"\n  FROM facts: (RECALL beliefs ABOUT \"alice\"), todo: (RECALL goals)\n  BUDGET 2000 tokens\n  PRIORITY todo > facts\n  FORMAT readable;\n"
            )),
            _ => s.push_str(&format!(
                "RECALL actions\n  WHERE action_phase = \"call\"\n  AND tool_name = \"search-{i}\"\n  AND confidence >= 0.7\n  | LIMIT 5;\n"
            )),
        }
    }
    s
}

#[divan::bench]
fn diagnostics_after_one_character_edit(bencher: divan::Bencher) {
    let text = big_document();
    assert_eq!(text.lines().count(), 2000);
    let doc = Document::new(text, 1);
    let mut flip = false;
    bencher.with_inputs(|| doc.clone()).bench_local_values(|mut doc| {
        // Change one character in the middle of the file (line 1000), then analyze.
        flip = !flip;
        doc.apply_change((1001, 22), (1001, 23), if flip { "x" } else { "y" }, Encoding::Utf16);
        doc.set_version(2);
        doc.analyze();
        diagnostics::diagnostics(&doc).len()
    });
}

#[divan::bench]
fn completion_after_where(bencher: divan::Bencher) {
    let mut text = big_document();
    text.push_str("RECALL actions WHERE confidence >= 0.5 AND ");
    let at = text.len();
    bencher.bench(|| completion::complete(divan::black_box(&text), at).items.len());
}

#[divan::bench]
fn hover_on_a_field(bencher: divan::Bencher) {
    let text = big_document();
    let doc = Document::new(text.clone(), 1);
    let at = text.rfind("tool_name").unwrap_or(0) + 2;
    bencher.bench(|| hover::hover(divan::black_box(&text), doc.analysis.document.as_ref(), at).is_some());
}

async fn send(w: &mut (impl AsyncWriteExt + Unpin), msg: Value) {
    let body = msg.to_string();
    w.write_all(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes()).await.expect("write");
}

async fn recv(r: &mut (impl AsyncBufReadExt + Unpin)) -> Value {
    let mut len = 0;
    loop {
        let mut line = String::new();
        r.read_line(&mut line).await.expect("read");
        match line.trim() {
            "" => break,
            l => len = l.strip_prefix("Content-Length:").map_or(len, |v| v.trim().parse().expect("length")),
        }
    }
    let mut body = vec![0; len];
    r.read_exact(&mut body).await.expect("read");
    serde_json::from_slice(&body).expect("json")
}

/// Reads messages until the diagnostics of `version` arrive.
async fn diagnostics_of(r: &mut (impl AsyncBufReadExt + Unpin), version: i64) {
    loop {
        let m = recv(r).await;
        if m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == version {
            return;
        }
    }
}

#[divan::bench(sample_count = 100)]
fn edit_to_published_diagnostics(bencher: divan::Bencher) {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    let (client, server) = tokio::io::duplex(1 << 20);
    let (server_read, server_write) = tokio::io::split(server);
    rt.spawn(serve_with(server_read, server_write, Config::default()));
    let (read, mut write) = tokio::io::split(client);
    let mut read = BufReader::new(read);
    let uri = "file:///bench.cal";
    rt.block_on(async {
        send(&mut write, json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}))
            .await;
        recv(&mut read).await;
        send(&mut write, json!({"jsonrpc": "2.0", "method": "initialized", "params": {}})).await;
        let open = json!({"textDocument": {"uri": uri, "languageId": "cal", "version": 1, "text": big_document()}});
        send(&mut write, json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": open})).await;
        diagnostics_of(&mut read, 1).await;
    });
    let mut version = 1;
    bencher.bench_local(|| {
        version += 1;
        let edit = if version % 2 == 0 { "x" } else { "y" };
        let change = json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [
            {"range": {"start": {"line": 1001, "character": 22}, "end": {"line": 1001, "character": 23}}, "text": edit}]});
        rt.block_on(async {
            send(&mut write, json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": change})).await;
            diagnostics_of(&mut read, version).await;
        });
    });
}
