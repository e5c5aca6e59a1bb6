//! The HTTP binding `cal conformance adapter` offers the conformance runner: an execute request
//! with `http` (PROTOCOL.md "execute", docs/spec-decisions-conformance.md C24) is sent to our real
//! server (`cal-server`, the §26 REST binding with §11.3 streaming) over loopback, the way a
//! client would, and the endpoint's body is the answer. This is where the transport codes live:
//! CAL-E079 (an endpoint that cannot stream asked to) and CAL-E081 (a stream that cannot be
//! resumed). Each exchange gets a server of its own over a database made from the fixture, bound
//! to 127.0.0.1 on a free port and stopped when the exchange is over.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use cal_conformance::adapter::HttpBinding;
use cal_conformance::case::HttpExchange;
use cal_conformance::protocol::{Answer, Request};
use cal_grammar::GrainType;
use cal_server::{AppState, ServerConfig};
use cal_service::{Claims, ServerKey, Service, ServiceConfig};
use oms::durable::DurableStore;
use oms::store::StoreConfig;
use serde_json::{Value, json};

/// Our server as the adapter's HTTP binding.
pub struct LoopbackServer {
    runtime: tokio::runtime::Runtime,
}

impl LoopbackServer {
    /// A binding with its own async runtime (two worker threads: the machine is shared).
    pub fn new() -> Result<LoopbackServer, String> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the async runtime: {e}"))?;
        Ok(LoopbackServer { runtime })
    }
}

impl HttpBinding for LoopbackServer {
    fn exchange(&mut self, fixture: &std::path::Path, request: &Request) -> Answer {
        let Request::Execute { query, clock, params, capability, session, .. } = request else {
            return Answer::Errored("only execute requests go over HTTP".into());
        };
        let Some(http) = &session.http else { return Answer::Errored("the request has no `http`".into()) };
        let Some(now) = oms::time::parse_rfc3339_ms(clock) else {
            return Answer::Errored(format!("clock {clock:?} is not RFC 3339"));
        };
        let params = Value::Object(params.clone());
        let call = Call { query, params: &params, capability: capability.as_deref(), http };
        match self.with_server(fixture, now, call.token_shape(), |addr, token, memory| call.run(addr, token, memory)) {
            Ok(response) => Answer::Ok(json!({ "response": response })),
            Err(m) => Answer::Errored(m),
        }
    }
}

/// What the token of the exchange says: its namespace (the memory id of the path) and tier.
struct TokenShape {
    namespace: String,
    user: String,
    tier: u8,
}

impl LoopbackServer {
    /// Starts a server over a database made from `fixture`, runs `f` with its address, a token
    /// of `shape` and the memory id, and stops the server.
    fn with_server<T>(
        &self,
        fixture: &std::path::Path,
        now: i64,
        shape: TokenShape,
        f: impl FnOnce(SocketAddr, &str, &str) -> Result<T, String>,
    ) -> Result<T, String> {
        let bytes = std::fs::read(fixture).map_err(|e| format!("{}: {e}", fixture.display()))?;
        let dir = tempfile::tempdir().map_err(|e| format!("no temporary directory: {e}"))?;
        let store = DurableStore::create(&dir.path().join("http.db"), StoreConfig::fixed_clock(now))
            .map_err(|e| e.to_string())?;
        store.import_mg(&bytes).map_err(|e| format!("the fixture does not import: {e}"))?;
        let key = ServerKey::generate().map_err(|e| e.to_string())?;
        let token = Claims {
            namespace: shape.namespace.clone(),
            user_id: shape.user,
            tier: shape.tier,
            ops: None,
            grain_types: vec![GrainType::Belief, GrainType::Observation, GrainType::Goal],
            quota: 100,
            ttl_ms: 3_600_000,
            max_uses: 1_000,
        }
        .issue(&key, now)
        .map_err(|e| e.to_string())?
        .to_json();
        let service = Service::new(Arc::new(store), key, ServiceConfig::default());
        let state = AppState::new(Arc::new(service), ServerConfig { fixed_now: Some(now), ..ServerConfig::default() });
        let listener = self
            .runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .map_err(|e| format!("cannot listen on 127.0.0.1: {e}"))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = self.runtime.spawn(cal_server::serve(listener, state, async move {
            let _ = stopped.await;
        }));
        let out = f(addr, &token, &shape.namespace);
        let _ = stop.send(());
        let _ = self.runtime.block_on(server);
        out
    }
}

/// One exchange: the query, its parameters and token, and the endpoint to ask.
struct Call<'a> {
    query: &'a str,
    params: &'a Value,
    capability: Option<&'a str>,
    http: &'a HttpExchange,
}

impl Call<'_> {
    fn token_shape(&self) -> TokenShape {
        let token: Value = self.capability.and_then(|c| serde_json::from_str(c).ok()).unwrap_or(Value::Null);
        let text = |k: &str| token.get(k).and_then(Value::as_str).map(str::to_string);
        let namespace = text("namespace")
            .or_else(|| self.capability.filter(|c| !c.starts_with('{')).map(str::to_string))
            .unwrap_or_else(|| "conf:main".into());
        let tier = if token.get("tier").and_then(Value::as_u64) == Some(1) { 1 } else { 0 };
        TokenShape { namespace, user: text("user_id").unwrap_or_else(|| "conformance".into()), tier }
    }

    /// Asks the endpoint; the body it answered (JSON, or the text of a stream as `{"body"}`).
    fn run(&self, addr: SocketAddr, token: &str, memory: &str) -> Result<Value, String> {
        let base = format!("/memories/{memory}/cal");
        let accept = self.http.accept.as_deref().unwrap_or("application/json");
        let body = json!({ "query": self.query, "params": self.params }).to_string();
        let stream_path = |id: Option<&String>| format!("{base}/stream/{}", id.map_or("asm_none", String::as_str));
        let (method, path, body, extra) = match self.http.endpoint.as_str() {
            "run" => ("POST", base.clone(), Some(body), None),
            "prepare" => ("POST", format!("{base}/prepare"), Some(body), None),
            "execute" => {
                // §18.2: prepare as a client would (a JSON answer), then execute its token.
                let prepared =
                    send(addr, "POST", &format!("{base}/prepare"), "application/json", token, Some(&body), None)?;
                let Some(t) = prepared.get("token").and_then(Value::as_str) else {
                    return Ok(prepared);
                };
                ("POST", format!("{base}/execute"), Some(json!({ "token": t }).to_string()), None)
            }
            "resume" => ("GET", stream_path(self.http.assembly_id.as_ref()), None, self.http.last_event_id),
            "cancel" => ("DELETE", stream_path(self.http.assembly_id.as_ref()), None, None),
            other => return Err(format!("unknown endpoint {other:?}")),
        };
        send(addr, method, &path, accept, token, body.as_deref(), extra)
    }
}

/// One HTTP/1.1 request with `Connection: close`; the body of the answer as JSON (or, when it is
/// not JSON, as `{"body": TEXT}`).
fn send(
    addr: SocketAddr,
    method: &str,
    path: &str,
    accept: &str,
    token: &str,
    body: Option<&str>,
    last_event_id: Option<u64>,
) -> Result<Value, String> {
    let mut conn = TcpStream::connect(addr).map_err(|e| format!("cannot connect to {addr}: {e}"))?;
    conn.set_read_timeout(Some(Duration::from_secs(8))).map_err(|e| e.to_string())?;
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAccept: {accept}\r\nAuthorization: Bearer {token}\r\n"
    );
    if let Some(id) = last_event_id {
        head.push_str(&format!("Last-Event-ID: {id}\r\n"));
    }
    let body = body.unwrap_or("");
    if method == "POST" {
        head.push_str(&format!("Content-Type: application/json\r\nContent-Length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    conn.write_all(head.as_bytes()).and_then(|_| conn.write_all(body.as_bytes())).map_err(|e| e.to_string())?;
    let mut raw = Vec::new();
    conn.read_to_end(&mut raw).map_err(|e| format!("reading the answer: {e}"))?;
    let text = String::from_utf8_lossy(&raw);
    let (headers, payload) = text.split_once("\r\n\r\n").ok_or("the answer has no header end")?;
    let chunked = headers.to_ascii_lowercase().contains("transfer-encoding: chunked");
    let payload = if chunked { dechunk(payload) } else { payload.to_string() };
    Ok(serde_json::from_str(&payload).unwrap_or_else(|_| json!({ "body": payload })))
}

/// The body of a chunked transfer (RFC 9112 §7.1), trailers dropped.
fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.split(';').next().unwrap_or("").trim(), 16).unwrap_or(0);
        if n == 0 || after.len() < n {
            break;
        }
        out.push_str(&after[..n]);
        rest = after[n..].strip_prefix("\r\n").unwrap_or(&after[n..]);
    }
    out
}
