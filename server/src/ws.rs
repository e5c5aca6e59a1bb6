//! WebSocket at `/memories/{id}/cal/ws` (§11.3): full duplex with explicit actions.
//!
//! The client sends JSON frames:
//! - `{"action": "assemble", "request_id": "req_1", "payload": {"query": "…", "params": {…}}}`
//!   runs a query (the token is the upgrade request's `Authorization: Bearer`, or the
//!   payload's `token`); an ASSEMBLE's events come back as frames, each the event's JSON
//!   with `request_id` added; any other answer comes back as one frame
//!   `{"request_id", "response": envelope}`;
//! - `{"action": "cancel" | "pause" | "resume", "assembly_id": "asm_…"}`: §11.5 and §11.6
//!   (pause holds chunk emission; progress events continue).
//!
//! A frame that is not one of these gets `{"error": §22.1}` and the socket stays open.

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use cal_grammar::{Code, Diagnostic, Span};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Map, Value, json};
use tokio::sync::mpsc;

use crate::app::AppState;
use crate::rest::{CalRequest, Started, bearer, start};
use crate::streams::Reader;

/// Upgrades to the WebSocket protocol.
pub async fn upgrade(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    let token = bearer(&headers);
    ws.max_message_size(state.config.body_limit).on_upgrade(move |socket| session(socket, state, id, token))
}

fn error_frame(message: &str) -> String {
    json!({ "error": cal_interp::diagnostic_json(
        &Diagnostic::new(Code::E002, Span::default(), message.to_string())
            .with_suggestion("Send {\"action\": \"assemble\", \"request_id\": \"…\", \"payload\": {\"query\": \"…\"}}, or cancel/pause/resume with an assembly_id."),
    ) })
    .to_string()
}

async fn session(socket: WebSocket, state: AppState, memory: String, token: String) {
    let (mut tx, mut rx) = socket.split();
    let (out_tx, mut out_rx) = mpsc::channel::<String>(64);
    let writer = tokio::spawn(async move {
        while let Some(frame) = out_rx.recv().await {
            if tx.send(Message::Text(frame.into())).await.is_err() {
                break;
            }
        }
    });
    while let Some(Ok(msg)) = rx.next().await {
        let text = match msg {
            Message::Text(t) => t.to_string(),
            Message::Close(_) => break,
            _ => continue,
        };
        let frame: Map<String, Value> = match serde_json::from_str(&text) {
            Ok(Value::Object(m)) => m,
            _ => {
                let _ = out_tx.send(error_frame("A frame is a JSON object with an `action`.")).await;
                continue;
            }
        };
        match frame.get("action").and_then(Value::as_str) {
            Some("assemble") => assemble(&state, &memory, &token, frame, out_tx.clone()),
            Some(action @ ("cancel" | "pause" | "resume")) => {
                let id = frame.get("assembly_id").and_then(Value::as_str).unwrap_or_default();
                match state.streams.find(id) {
                    Ok(s) if s.memory() == memory => match action {
                        "cancel" => s.stop("cancelled by the client"),
                        "pause" => s.set_paused(true),
                        _ => s.set_paused(false),
                    },
                    _ => {
                        let _ = out_tx.send(error_frame(&format!("No running stream {id:?} in this memory."))).await;
                    }
                }
            }
            _ => {
                let _ = out_tx.send(error_frame("Unknown action.")).await;
            }
        }
    }
    drop(out_tx);
    let _ = writer.await;
}

/// Runs one `assemble` action in its own task, forwarding its frames.
fn assemble(state: &AppState, memory: &str, token: &str, frame: Map<String, Value>, out: mpsc::Sender<String>) {
    let request_id = frame.get("request_id").cloned().unwrap_or(Value::Null);
    let payload = frame.get("payload").and_then(Value::as_object).cloned().unwrap_or_default();
    let token = payload.get("token").and_then(Value::as_str).map_or_else(|| token.to_string(), str::to_string);
    let text = match payload.get("query") {
        Some(Value::String(s)) => s.clone(),
        Some(form @ Value::Object(_)) => form.to_string(),
        _ => {
            let _ = out.try_send(error_frame("`payload.query` is missing."));
            return;
        }
    };
    let params = payload.get("params").and_then(Value::as_object).cloned().unwrap_or_default();
    let state = state.clone();
    let memory = memory.to_string();
    tokio::spawn(async move {
        match start(&state, memory, token, CalRequest { text, params }).await {
            Ok(Started::Streaming(stream)) => {
                stream.attach(None);
                let reader = Reader { stream };
                while let Some(e) = reader.stream.next().await {
                    let mut v: Value = serde_json::from_str(&e.json).unwrap_or(Value::Null);
                    v["request_id"] = request_id.clone();
                    if out.send(v.to_string()).await.is_err() {
                        break; // the socket closed: the reader detaches when dropped
                    }
                }
            }
            Ok(Started::Done(r)) => {
                let _ = out.send(json!({ "request_id": request_id, "response": r.json }).to_string()).await;
            }
            Err(d) => {
                let _ = out
                    .send(json!({ "request_id": request_id, "error": cal_interp::diagnostic_json(&d) }).to_string())
                    .await;
            }
        }
    });
}
