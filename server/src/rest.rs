//! §26 REST: `POST /memories/{id}/cal` (JSON envelope, or SSE / NDJSON events for a
//! streamed ASSEMBLE, by `Accept`), `…/prepare`, `…/execute`, stream cancellation and
//! resumption, and `/health`. Every handler only maps HTTP to the service and back.

use std::sync::Arc;

use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use cal_checker::Params;
use cal_grammar::{Code, Diagnostic, Span};
use cal_interp::ExecOptions;
use cal_interp::stream::Event;
use cal_parser::ast::Query;
use cal_service::Caller;
use serde_json::{Map, Value, json};

use crate::app::AppState;
use crate::status;
use crate::streams::{Reader, Stream, StreamRefusal};

/// A CAL request as a transport received it.
#[derive(Debug, Clone, Default)]
pub struct CalRequest {
    /// text/cal, or the JSON form as text.
    pub text: String,
    /// `$parameter` bindings.
    pub params: Map<String, Value>,
}

/// How the answer is delivered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery {
    /// One JSON envelope.
    Json,
    /// Server-Sent Events (§11.3, recommended).
    Sse,
    /// NDJSON (§11.3, fallback).
    Ndjson,
}

impl Delivery {
    /// From the `Accept` header.
    pub fn from_headers(headers: &HeaderMap) -> Delivery {
        let accept = headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()).unwrap_or("");
        if accept.contains("text/event-stream") {
            Delivery::Sse
        } else if accept.contains("application/x-ndjson") {
            Delivery::Ndjson
        } else {
            Delivery::Json
        }
    }
}

/// The envelope of a refusal that happened before the service saw the request.
fn refusal(d: Diagnostic) -> Response {
    let status = status::for_error(Some(&d));
    let body = json!({
        "_cal": { "version": cal_interp::CAL_VERSION },
        "error": cal_interp::diagnostic_json(&d),
    });
    (status, Json(body)).into_response()
}

/// A service response as HTTP: its status and its envelope.
pub fn answer(r: &cal_interp::Response) -> Response {
    (status::for_error(r.error.as_ref()), Json(r.json.clone())).into_response()
}

fn bad_body(message: String) -> Response {
    refusal(
        Diagnostic::new(Code::E002, Span::default(), message)
            .with_suggestion("Send {\"query\": \"RECALL …\", \"params\": {…}} as application/json, the query as text/cal, or its JSON form as application/json+cal."),
    )
}

/// Reads a request body by its `Content-Type` (§15.4): `text/cal`, `application/json+cal`
/// (the JSON form, validated against its schema by the service), or `application/json`
/// holding `{"query", "params"}` (§26), where `query` is text or the JSON form.
pub fn read_body(headers: &HeaderMap, body: &Bytes) -> Result<CalRequest, Response> {
    let ctype = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("application/json");
    let ctype = ctype.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    let text = std::str::from_utf8(body).map_err(|_| {
        refusal(
            Diagnostic::new(Code::E070, Span::default(), "The request body is not UTF-8.")
                .with_suggestion("Send the query as UTF-8 text."),
        )
    })?;
    match ctype.as_str() {
        "text/cal" | "text/plain" => Ok(CalRequest { text: text.to_string(), params: Map::new() }),
        "application/json+cal" => Ok(CalRequest { text: text.to_string(), params: Map::new() }),
        "application/json" | "" => {
            let v: Value =
                serde_json::from_str(text).map_err(|e| bad_body(format!("The request body is not JSON: {e}.")))?;
            let Value::Object(mut m) = v else {
                return Err(bad_body("The request body must be a JSON object {\"query\", \"params\"}.".into()));
            };
            if let Some(k) = m.keys().find(|k| *k != "query" && *k != "params") {
                return Err(bad_body(format!("Unknown member {k:?}: a request has `query` and `params`.")));
            }
            let text = match m.remove("query") {
                Some(Value::String(s)) => s,
                Some(form @ Value::Object(_)) => form.to_string(),
                _ => return Err(bad_body("`query` is missing: give the CAL text or its JSON form.".into())),
            };
            let params = match m.remove("params") {
                None | Some(Value::Null) => Map::new(),
                Some(Value::Object(p)) => p,
                Some(_) => return Err(bad_body("`params` must be an object of parameter bindings.".into())),
            };
            Ok(CalRequest { text, params })
        }
        other => Err((
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Json(json!({ "_cal": { "version": cal_interp::CAL_VERSION }, "error": cal_interp::diagnostic_json(
                &Diagnostic::new(Code::E002, Span::default(), format!("Content-Type {other} is not a CAL request."))
                    .with_suggestion("Use application/json, application/json+cal or text/cal."),
            ) })),
        )
            .into_response()),
    }
}

/// The capability token of a request: `Authorization: Bearer …`, its JSON text or that text
/// base64url-encoded (headers carry only visible ASCII). Empty when absent: the service
/// refuses it with the one credential refusal.
pub fn bearer(headers: &HeaderMap) -> String {
    let Some(v) = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()) else { return String::new() };
    let Some(t) = v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer ")) else { return String::new() };
    let t = t.trim();
    if t.starts_with('{') {
        return t.to_string();
    }
    use base64::Engine as _;
    base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(t.trim_end_matches('='))
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .unwrap_or_default()
}

/// The options of a request: the server's clock, its parameters, measured timing.
pub fn options(state: &AppState, params: &Map<String, Value>) -> ExecOptions {
    ExecOptions { now_ms: state.now(), params: params.clone(), ..ExecOptions::default() }
}

/// Reads the request's one query through the service (a static refusal is audited there).
fn query(
    state: &AppState,
    caller: Caller<'_>,
    req: &CalRequest,
) -> Result<(Query, Vec<Diagnostic>), cal_interp::Response> {
    state.service.read_request(caller, &req.text, &Params::from_json_object(&req.params))
}

/// Runs blocking service work off the async threads.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T, Response> {
    tokio::task::spawn_blocking(f).await.map_err(|e| {
        refusal(Diagnostic::new(Code::E030, Span::default(), format!("The request failed inside the server: {e}.")))
    })
}

/// `POST /memories/{id}/cal`.
pub async fn run(State(state): State<AppState>, Path(id): Path<String>, headers: HeaderMap, body: Bytes) -> Response {
    let req = match read_body(&headers, &body) {
        Ok(r) => r,
        Err(r) => return r,
    };
    let token = bearer(&headers);
    let delivery = Delivery::from_headers(&headers);
    if delivery != Delivery::Json {
        return stream(state, id, token, req, delivery).await;
    }
    let st = state.clone();
    let done = blocking(move || {
        let caller = Caller { token: &token, memory: Some(&id) };
        match query(&st, caller, &req) {
            Err(r) => r,
            Ok((q, warnings)) => {
                let mut r = st.service.run(caller, &q, &options(&st, &req.params));
                cal_service::request::merge_warnings(&mut r.json, &warnings);
                r
            }
        }
    })
    .await;
    match done {
        Ok(r) => answer(&r),
        Err(r) => r,
    }
}

/// What starting a stream gave.
pub enum Started {
    /// Events are flowing: read them from the stream.
    Streaming(Arc<Stream>),
    /// The request ended without an event (refused, or not an ASSEMBLE): its envelope.
    Done(Box<cal_interp::Response>),
}

/// The client a stream counts against: the token's id (the token's holder), or its text.
fn client_of(token: &str) -> String {
    cal_service::CapabilityToken::parse(token).map_or_else(|_| token.to_string(), |t| t.token_id)
}

/// Starts a streamed request: the query runs on a blocking thread, its events go into a
/// registered stream; the answer is the stream once the first event arrived, or the
/// envelope when the request ended without one.
pub async fn start(state: &AppState, memory: String, token: String, req: CalRequest) -> Result<Started, Diagnostic> {
    let stream = match state.streams.open(&client_of(&token), &memory) {
        Ok(s) => s,
        Err(StreamRefusal::TooMany(n)) => return Err(too_many_streams(n)),
        Err(StreamRefusal::Expired) => return Err(expired()),
    };
    let (first_tx, first_rx) = tokio::sync::oneshot::channel::<()>();
    let (done_tx, done_rx) = tokio::sync::oneshot::channel::<cal_interp::Response>();
    let st = state.clone();
    let producer = stream.clone();
    tokio::task::spawn_blocking(move || {
        let caller = Caller { token: &token, memory: Some(&memory) };
        let response = match query(&st, caller, &req) {
            Err(r) => r,
            Ok((q, warnings)) => {
                let mut first = Some(first_tx);
                let mut r = st.service.run_with(caller, &q, &options(&st, &req.params), |interp, q, opts| {
                    let mut sink = |e: &Event| {
                        if let Some(tx) = first.take() {
                            st.streams.name(&e.assembly_id, &producer);
                            let _ = tx.send(());
                        }
                        producer.push(e)
                    };
                    interp.execute_stream(q, opts, &mut sink, &producer.cancel)
                });
                cal_service::request::merge_warnings(&mut r.json, &warnings);
                r
            }
        };
        st.streams.close(&producer);
        let _ = done_tx.send(response);
    });
    // The first event names the stream; a request that ends without one (refused, or not an
    // ASSEMBLE) drops the sender, and its envelope follows.
    match first_rx.await {
        Ok(()) => Ok(Started::Streaming(stream)),
        Err(_) => match done_rx.await {
            Ok(r) => Ok(Started::Done(Box::new(r))),
            Err(_) => Err(Diagnostic::new(Code::E030, Span::default(), "The request failed inside the server.")),
        },
    }
}

/// CAL-E905: a client's fourth concurrent stream (§11.6).
fn too_many_streams(n: usize) -> Diagnostic {
    Diagnostic::new(Code::E905, Span::default(), format!("This client has {n} streams open, the most allowed (§11.6)."))
        .with_suggestion("Wait for a stream to end, or cancel one (DELETE …/cal/stream/{assembly_id}).")
}

/// CAL-E081: no stream to resume.
fn expired() -> Diagnostic {
    Diagnostic::new(Code::E081, Span::default(), "No stream to resume: it ended more than 10 s ago, or never existed.")
        .with_suggestion("Send the ASSEMBLE again.")
}

/// The body of a stream, from `reader`, as SSE or NDJSON.
fn stream_body(reader: Reader, delivery: Delivery) -> Response {
    let body = futures_util::stream::unfold(reader, move |r| async move {
        let e = r.stream.next().await?;
        let bytes = match delivery {
            Delivery::Sse => Bytes::from(e.sse),
            _ => Bytes::from(e.json + "\n"),
        };
        Some((Ok::<_, std::convert::Infallible>(bytes), r))
    });
    let ctype = if delivery == Delivery::Sse { "text/event-stream" } else { "application/x-ndjson" };
    let mut r = Response::new(Body::from_stream(body));
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(ctype));
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    r
}

async fn stream(state: AppState, id: String, token: String, req: CalRequest, delivery: Delivery) -> Response {
    match start(&state, id, token, req).await {
        Ok(Started::Streaming(stream)) => {
            stream.attach(None);
            stream_body(Reader { stream }, delivery)
        }
        Ok(Started::Done(r)) => answer(&r),
        Err(d) => refusal(d),
    }
}

/// `GET /memories/{id}/cal/stream/{assembly_id}` with `Last-Event-ID`: resumes a stream
/// within the reconnection window (SSE; NDJSON by `Accept`).
pub async fn resume_stream(
    State(state): State<AppState>,
    Path((id, assembly_id)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    let stream = match state.streams.find(&assembly_id) {
        Ok(s) if s.memory() == id => s,
        _ => return refusal(expired()),
    };
    let after = headers.get("last-event-id").and_then(|v| v.to_str().ok()).and_then(|v| v.trim().parse::<u64>().ok());
    stream.attach(after);
    let delivery = match Delivery::from_headers(&headers) {
        Delivery::Ndjson => Delivery::Ndjson,
        _ => Delivery::Sse,
    };
    stream_body(Reader { stream }, delivery)
}

/// `DELETE /memories/{id}/cal/stream/{assembly_id}` (§11.5): cancels a running stream; its
/// reader gets the `cancelled` event and the partial result, and the audit entry records it.
pub async fn cancel_stream(State(state): State<AppState>, Path((id, assembly_id)): Path<(String, String)>) -> Response {
    match state.streams.find(&assembly_id) {
        Ok(s) if s.memory() == id => {
            s.stop("cancelled by DELETE");
            (StatusCode::ACCEPTED, Json(json!({ "assembly_id": assembly_id, "cancelled": true }))).into_response()
        }
        _ => refusal(expired()),
    }
}

/// `POST /memories/{id}/cal/prepare` (§18.2): `{token, plan, tier, side_effects}`.
pub async fn prepare(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if Delivery::from_headers(&headers) != Delivery::Json {
        return cannot_stream("prepare");
    }
    let req = match read_body(&headers, &body) {
        Ok(r) => r,
        Err(r) => return r,
    };
    let token = bearer(&headers);
    let done = blocking(move || {
        let caller = Caller { token: &token, memory: Some(&id) };
        let (q, _) = query(&state, caller, &req)?;
        state.service.prepare(caller, &q, &options(&state, &req.params))
    })
    .await;
    match done {
        Ok(Ok(p)) => (StatusCode::OK, Json(p.to_json())).into_response(),
        Ok(Err(r)) => answer(&r),
        Err(r) => r,
    }
}

/// CAL-E079: prepare and execute answer one JSON object; they cannot stream.
fn cannot_stream(what: &str) -> Response {
    refusal(
        Diagnostic::new(Code::E079, Span::default(), format!("{what} answers one JSON object; it cannot stream."))
            .with_suggestion("Ask for application/json; stream an ASSEMBLE through POST …/cal."),
    )
}

/// `POST /memories/{id}/cal/execute` with `{"token"}`: performs a prepared statement.
pub async fn execute(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if Delivery::from_headers(&headers) != Delivery::Json {
        return cannot_stream("execute");
    }
    let token = match serde_json::from_slice::<Value>(&body) {
        Ok(Value::Object(m)) if m.len() == 1 && m.get("token").is_some_and(Value::is_string) => {
            m["token"].as_str().unwrap_or_default().to_string()
        }
        _ => return bad_body("The body of execute is {\"token\": \"…\"}, the token prepare returned.".into()),
    };
    match blocking(move || state.service.execute_in(Some(&id), &token, &options(&state, &Map::new()))).await {
        Ok(r) => answer(&r),
        Err(r) => r,
    }
}

/// `GET /health`: the store answers, the switches, the streams running.
pub async fn health(State(state): State<AppState>) -> Response {
    let st = state.clone();
    let grains = blocking(move || st.service.store().len().ok()).await.ok().flatten();
    let body = json!({
        "status": if grains.is_some() { "ok" } else { "store unavailable" },
        "grains": grains,
        "master_switch": state.service.switch(cal_service::Switch::Master),
        "tier1_switch": state.service.switch(cal_service::Switch::Tier1),
        "streams": state.streams.running(),
        "version": env!("CARGO_PKG_VERSION"),
    });
    let status = if grains.is_some() { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
    (status, Json(body)).into_response()
}
