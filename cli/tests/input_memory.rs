//! Any input under 10 MB costs `cal` under 100 MB in every command (issue 19): 10 MB of `;`
//! once took 330 MB (every token held), 209,000 short queries 257 MB (every tree held).
//! Each command runs on generated 10 MB inputs under an address-space ceiling (`prlimit
//! --as`): the binary's own mapping plus 100 MiB for the work and 64 MiB for the thread
//! stacks and allocator arenas every run has. Over it, an allocation fails and the process
//! aborts, so each answering with its ordinary exit status is the test; memory is never
//! timed and nothing is measured against a clock.

use std::process::{Command, Stdio};

const MIB: u64 = 1024 * 1024;

/// The inputs, each just under 10 MiB.
fn inputs(dir: &std::path::Path) -> Vec<(&'static str, std::path::PathBuf)> {
    let q = "RECALL beliefs ABOUT \"alice\" | LIMIT 1";
    let many = vec![q; 209_000].join(";\n");
    assert!(many.len() < 10 * MIB as usize);
    let huge = format!("RECALL beliefs WHERE subject IN [{}\"a\"]", "\"a\", ".repeat(2_000_000));
    let all = [("semicolons", ";".repeat(10_000_000)), ("queries", many), ("one query", huge)];
    write_all(dir, "cal", all)
}

/// Each named text written to `dir` as `name.ext`, checked to be under 10 MiB.
fn write_all(
    dir: &std::path::Path,
    ext: &str,
    all: impl IntoIterator<Item = (&'static str, String)>,
) -> Vec<(&'static str, std::path::PathBuf)> {
    all.into_iter()
        .map(|(name, text)| {
            assert!(text.len() < 10 * MIB as usize, "{name}: {} bytes", text.len());
            let path = dir.join(format!("{}.{ext}", name.replace(' ', "-")));
            std::fs::write(&path, text).unwrap();
            (name, path)
        })
        .collect()
}

/// The exit status of `cal args…` under the ceiling.
fn status_under_ceiling(args: &[&str]) -> Option<i32> {
    let bin = env!("CARGO_BIN_EXE_cal");
    let ceiling = std::fs::metadata(bin).unwrap().len() + 164 * MIB;
    let out = Command::new("prlimit")
        .arg(format!("--as={ceiling}"))
        .arg(bin)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .expect("prlimit (util-linux) runs");
    if out.status.code().is_none() {
        eprintln!("{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    out.status.code()
}

#[test]
#[cfg(target_os = "linux")]
fn ten_megabyte_inputs_stay_under_the_ceiling_in_every_command() {
    let dir = tempfile::tempdir().unwrap();
    for (name, path) in inputs(dir.path()) {
        let p = path.to_str().unwrap();
        let clean = name == "queries";
        // check: errors found (1) or none (0); run: refused over the query cap (2) or
        // answered with the query's error (1); fmt: the document printed (0) or refused (1).
        expect_statuses(
            name,
            &[
                (&["check", p], if clean { 0 } else { 1 }),
                (&["check", "--json", p], if clean { 0 } else { 1 }),
                (&["fmt", "--check", p], 1),
                (&["fmt", p], if clean { 0 } else { 1 }),
                (&["run", "-f", p], if name == "one query" { 1 } else { 2 }),
            ],
        );
    }
}

/// Each command answers with its ordinary exit status under the ceiling.
fn expect_statuses(name: &str, expected: &[(&[&str], i32)]) {
    for (args, status) in expected {
        assert_eq!(status_under_ceiling(args), Some(*status), "{name}: cal {args:?}");
    }
}

/// The JSON form (ruling D3): a 4.7 MB and a 10 MB request of 100,000 and 240,000
/// conditions (once parsed whole, 113 MB at 4.7 MB), a 10 MB document of 160,000 small
/// queries and one of 1,640 queries of 150 conditions each.
fn json_inputs(dir: &std::path::Path) -> Vec<(&'static str, std::path::PathBuf)> {
    let c = r#"{"field":"subject","op":"=","value":"a"}"#;
    let request =
        |n: usize| format!(r#"{{"statement":"recall","grain_type":"beliefs","where":[{}]}}"#, vec![c; n].join(","));
    let small = r#"{"statement":"recall","grain_type":"beliefs","about":"alice"}"#;
    let wide = request(150);
    let all = [
        ("request 4.7 MB", request(100_000)),
        ("request 10 MB", request(240_000)),
        ("document of small queries", format!("[{}]", vec![small; 160_000].join(","))),
        ("document of wide queries", format!("[{}]", vec![wide.as_str(); 1_640].join(","))),
    ];
    write_all(dir, "json", all)
}

#[test]
#[cfg(target_os = "linux")]
fn ten_megabyte_json_requests_stay_under_the_ceiling() {
    let dir = tempfile::tempdir().unwrap();
    for (name, path) in json_inputs(dir.path()) {
        let p = path.to_str().unwrap();
        // An over-size request is refused with CAL-E001 (run answers it, 1; text refuses
        // it, 1); the small-query document is over run's query cap (2); the wide one runs.
        let (run, text) = match name {
            "document of small queries" => (2, 0),
            "document of wide queries" => (0, 0),
            _ => (1, 1),
        };
        expect_statuses(name, &[(&["run", "-f", p], run), (&["text", p], text)]);
    }
}

/// One LSP message, framed.
fn frame(message: &serde_json::Value) -> Vec<u8> {
    let body = message.to_string();
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body.as_bytes());
    out
}

/// The next message the server writes.
fn read_message(out: &mut impl std::io::BufRead) -> serde_json::Value {
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        assert!(out.read_line(&mut line).unwrap() > 0, "the server ended its output");
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length:") {
            length = n.trim().parse().unwrap();
        }
    }
    let mut body = vec![0u8; length];
    out.read_exact(&mut body).unwrap();
    serde_json::from_slice(&body).unwrap()
}

/// The language server formats a 10 MB document of 209,000 queries, whole and by range,
/// a stretch at a time (it once parsed the whole document for either).
#[test]
#[cfg(target_os = "linux")]
fn the_language_server_formats_a_ten_megabyte_document_under_the_ceiling() {
    use serde_json::json;
    use std::io::Write;
    let text = vec!["recall beliefs about \"alice\" | limit 1"; 209_000].join(";\n");
    assert!(text.len() < 10 * MIB as usize);
    let uri = "file:///huge.cal";
    let doc = json!({ "uri": uri });
    let options = json!({ "tabSize": 2, "insertSpaces": true });
    let middle = json!({ "start": { "line": 100_000, "character": 0 }, "end": { "line": 100_001, "character": 0 } });
    let bin = env!("CARGO_BIN_EXE_cal");
    let ceiling = std::fs::metadata(bin).unwrap().len() + 164 * MIB;
    let mut child = Command::new("prlimit")
        .arg(format!("--as={ceiling}"))
        .args([bin, "lsp"])
        // The server's threads would each reserve a 64 MiB malloc arena of address space
        // (not of memory): one arena keeps the ceiling about memory.
        .env("MALLOC_ARENA_MAX", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("prlimit (util-linux) runs");
    let mut input = child.stdin.take().unwrap();
    let mut output = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut send = |m: serde_json::Value| input.write_all(&frame(&m)).unwrap();
    // The answer to request `id`, skipping notifications (diagnostics).
    let mut answer = |id: i64| loop {
        let m = read_message(&mut output);
        if m["id"] == id {
            return m;
        }
    };
    send(json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "capabilities": {} } }));
    answer(1);
    send(json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }));
    send(json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen",
                 "params": { "textDocument": { "uri": uri, "languageId": "cal", "version": 1, "text": text } } }));
    send(json!({ "jsonrpc": "2.0", "id": 2, "method": "textDocument/formatting",
                 "params": { "textDocument": doc, "options": options } }));
    let whole = answer(2);
    let whole = whole["result"].as_array().unwrap_or_else(|| panic!("edits: {whole}"));
    assert_eq!(whole.len(), 1, "the whole document in one edit");
    assert!(whole[0]["newText"].as_str().unwrap().starts_with("RECALL beliefs ABOUT \"alice\""));
    send(json!({ "jsonrpc": "2.0", "id": 3, "method": "textDocument/rangeFormatting",
                 "params": { "textDocument": doc, "range": middle, "options": options } }));
    let range = answer(3);
    let range = range["result"].as_array().unwrap_or_else(|| panic!("edits: {range}"));
    assert!(!range.is_empty() && range.len() <= 2, "the queries in range only: {}", range.len());
    assert_eq!(range[0]["range"]["start"]["line"], 100_000);
    send(json!({ "jsonrpc": "2.0", "id": 4, "method": "shutdown" }));
    answer(4);
    send(json!({ "jsonrpc": "2.0", "method": "exit" }));
    drop(input); // close the server's stdin (dropping the closure that borrows it closed nothing)
    assert_eq!(child.wait().unwrap().code(), Some(0), "the server stayed under the ceiling and exited cleanly");
}
