//! End-to-end: JSON-RPC to the server over an in-memory duplex connection.

mod common;

use common::Client;
use serde_json::json;

const URI: &str = "file:///tmp/demo.cal";

fn pos(line: u32, character: u32) -> serde_json::Value {
    json!({"line": line, "character": character})
}

#[tokio::test(flavor = "current_thread")]
async fn a_whole_session() {
    let mut c = Client::start(10);
    let init = c.initialize(&["utf-16"]).await;
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-16");
    assert_eq!(init["capabilities"]["textDocumentSync"], 2);

    // Diagnostics on open, with the code, its link and the suggestion.
    c.open(URI, "recall facts where subject = \"é\"").await;
    let d = c.diagnostics(Some(1)).await;
    assert_eq!(d["uri"], URI);
    let first = &d["diagnostics"][0];
    assert_eq!(first["code"], "CAL-E003");
    assert_eq!(first["severity"], 1);
    assert_eq!(first["range"], json!({"start": pos(0, 7), "end": pos(0, 12)}));
    // No link to a copy of the spec that is not published anywhere (spec-decisions-cli L6).
    assert!(first.get("codeDescription").is_none_or(serde_json::Value::is_null), "{first}");

    // An incremental edit fixes it; the debounced diagnostics for version 2 are empty.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2},
               "contentChanges": [{"range": {"start": pos(0, 7), "end": pos(0, 12)}, "text": "beliefs"}]}),
    )
    .await;
    let d = c.diagnostics(Some(2)).await;
    assert_eq!(d["diagnostics"], json!([]));

    // Completion after WHERE … AND: fields, documented.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 3},
               "contentChanges": [{"text": "RECALL goals WHERE goal_state = \"active\" AND "}]}),
    )
    .await;
    let items =
        c.request("textDocument/completion", json!({"textDocument": {"uri": URI}, "position": pos(0, 45)})).await;
    let labels: Vec<&str> = items.as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap()).collect();
    assert!(labels.contains(&"deadline") && labels.contains(&"subject"), "{labels:?}");
    assert!(!labels.contains(&"tool_name"));
    assert_eq!(items[0]["documentation"]["kind"], "markdown");

    // Hover on the field.
    let h = c.request("textDocument/hover", json!({"textDocument": {"uri": URI}, "position": pos(0, 22)})).await;
    assert!(h["contents"]["value"].as_str().unwrap().contains("goal_state"), "{h}");
    assert_eq!(h["range"], json!({"start": pos(0, 19), "end": pos(0, 29)}));

    // Formatting.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 4},
               "contentChanges": [{"text": "recall   beliefs   where subject = \"a\""}]}),
    )
    .await;
    let edits = c
        .request(
            "textDocument/formatting",
            json!({"textDocument": {"uri": URI}, "options": {"tabSize": 4, "insertSpaces": true}}),
        )
        .await;
    assert_eq!(edits[0]["newText"], "RECALL beliefs WHERE subject = \"a\"\n");

    // Rename a LET name.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 5},
               "contentChanges": [{"text": "LET $r = RECALL events;\nRECALL beliefs WHERE subject IN ($r)"}]}),
    )
    .await;
    let prep =
        c.request("textDocument/prepareRename", json!({"textDocument": {"uri": URI}, "position": pos(1, 34)})).await;
    assert_eq!(prep, json!({"start": pos(1, 33), "end": pos(1, 35)}));
    let edit = c
        .request(
            "textDocument/rename",
            json!({"textDocument": {"uri": URI}, "position": pos(1, 34), "newName": "recent"}),
        )
        .await;
    let changes = edit["changes"][URI].as_array().unwrap();
    assert_eq!(changes.len(), 2);
    assert!(changes.iter().all(|e| e["newText"] == "$recent"));
    let def = c.request("textDocument/definition", json!({"textDocument": {"uri": URI}, "position": pos(1, 34)})).await;
    assert_eq!(def["range"], json!({"start": pos(0, 4), "end": pos(0, 6)}));

    // Symbols, semantic tokens, signature help answer.
    let syms = c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": URI}})).await;
    assert_eq!(syms[0]["children"][0]["name"], "$r");
    let toks = c.request("textDocument/semanticTokens/full", json!({"textDocument": {"uri": URI}})).await;
    assert!(toks["data"].as_array().unwrap().len() >= 5 * 5);

    // Shutdown.
    let r = c.request("shutdown", json!(null)).await;
    assert_eq!(r, json!(null));
    c.notify("exit", json!(null)).await;
}

#[tokio::test(flavor = "current_thread")]
async fn utf8_positions_when_offered() {
    let mut c = Client::start(10);
    let init = c.initialize(&["utf-8", "utf-16"]).await;
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-8");
    c.open(URI, "-- é\nRECALL facts").await;
    let d = c.diagnostics(Some(1)).await;
    assert_eq!(d["diagnostics"][0]["range"]["start"], pos(1, 7));
    // A hover after a two-byte character: byte columns.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"text": "RECALL beliefs WHERE subject = \"é\" AND confidence > 0.5"}]}),
    )
    .await;
    let h = c.request("textDocument/hover", json!({"textDocument": {"uri": URI}, "position": pos(0, 42)})).await;
    assert_eq!(h["range"], json!({"start": pos(0, 40), "end": pos(0, 50)}), "{h}");
}

#[tokio::test(flavor = "current_thread")]
async fn code_actions_and_bad_requests() {
    let mut c = Client::start(10);
    c.initialize(&[]).await;
    c.open(URI, "RECALL facts").await;
    c.diagnostics(Some(1)).await;
    let acts = c
        .request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": URI}, "range": {"start": pos(0, 0), "end": pos(0, 12)}, "context": {"diagnostics": []}}),
        )
        .await;
    assert_eq!(acts[0]["edit"]["changes"][URI][0]["newText"], "beliefs", "{acts}");
    // Positions far outside the text and unknown documents answer, never crash.
    let h = c.request("textDocument/hover", json!({"textDocument": {"uri": URI}, "position": pos(99, 99)})).await;
    assert!(h.is_null() || h.is_object());
    let h = c
        .request("textDocument/completion", json!({"textDocument": {"uri": "file:///nope.cal"}, "position": pos(0, 0)}))
        .await;
    assert!(h.is_null());
    let r = c
        .request("textDocument/rename", json!({"textDocument": {"uri": URI}, "position": pos(0, 0), "newName": "x"}))
        .await;
    assert!(r.is_null());
    assert_eq!(c.request("shutdown", json!(null)).await, json!(null));
}

/// Issue 19: a huge document's answers are bounded: its diagnostics (a document of
/// semicolons) are capped with a summary, and its outline has at most `MAX_SYMBOLS` entries.
#[tokio::test(flavor = "current_thread")]
async fn huge_documents_get_bounded_answers() {
    let mut c = Client::start(10);
    c.initialize(&["utf-16"]).await;
    c.open(URI, &";".repeat(50_000)).await;
    let d = c.diagnostics(Some(1)).await;
    let n = d["diagnostics"].as_array().unwrap().len();
    assert_eq!(n, cal_parser::MAX_DIAGNOSTICS + 1, "capped, with one summary");
    let queries = "RECALL beliefs;\n".repeat(cal_lsp::server::MAX_SYMBOLS + 10);
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"text": queries}]}),
    )
    .await;
    c.diagnostics(Some(2)).await;
    let syms = c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": URI}})).await;
    assert_eq!(syms.as_array().unwrap().len(), cal_lsp::server::MAX_SYMBOLS);
}
