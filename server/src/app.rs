//! The application: shared state, the router, and serving with graceful shutdown.

use std::future::IntoFuture;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{delete, get, post};
use cal_service::Service;
use tokio::net::TcpListener;

use crate::streams::Streams;
use crate::{mcp, rest, ws};

/// Limits and settings of one server (§11.6, §17.3).
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Largest request body read, in bytes; a larger one is refused with 413 before it is
    /// read whole.
    pub body_limit: usize,
    /// Concurrent streams per client (§11.6: 3).
    pub max_streams_per_client: usize,
    /// Unsent event bytes buffered per stream (§11.6: 64 KB).
    pub event_buffer_bytes: usize,
    /// How long a stream may wait for its reader before it is cut (§11.6: 30 s).
    pub stall_timeout: Duration,
    /// How long a finished or disconnected stream can be resumed (§11.6: 10 s).
    pub reconnect_window: Duration,
    /// A fixed clock for every request (epoch ms), for reproducible answers; the system clock
    /// when `None`.
    pub fixed_now: Option<i64>,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            body_limit: 64 * 1024,
            max_streams_per_client: 3,
            event_buffer_bytes: 64 * 1024,
            stall_timeout: Duration::from_secs(30),
            reconnect_window: Duration::from_secs(10),
            fixed_now: None,
        }
    }
}

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// The service every request goes through.
    pub service: Arc<Service>,
    /// Limits.
    pub config: Arc<ServerConfig>,
    /// Open and recently finished streams.
    pub streams: Arc<Streams>,
}

impl AppState {
    /// State over a service.
    pub fn new(service: Arc<Service>, config: ServerConfig) -> AppState {
        let streams = Arc::new(Streams::new(config.clone()));
        AppState { service, config: Arc::new(config), streams }
    }
}

impl AppState {
    /// The clock of every request: the fixed one, or the system's.
    pub fn now(&self) -> i64 {
        self.config.fixed_now.unwrap_or_else(now_ms)
    }
}

/// Epoch milliseconds now, by the system clock.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The router: §26 REST, streaming, WebSocket, MCP at `/mcp`, `/health`.
pub fn router(state: AppState) -> Router {
    let limit = state.config.body_limit;
    let mcp = mcp::http_service(state.clone());
    Router::new()
        .route("/health", get(rest::health))
        .route("/memories/{id}/cal", post(rest::run))
        .route("/memories/{id}/cal/prepare", post(rest::prepare))
        .route("/memories/{id}/cal/execute", post(rest::execute))
        .route("/memories/{id}/cal/stream/{assembly_id}", delete(rest::cancel_stream).get(rest::resume_stream))
        .route("/memories/{id}/cal/ws", get(ws::upgrade))
        .nest_service("/mcp", mcp)
        .layer(DefaultBodyLimit::max(limit))
        .layer(axum::middleware::from_fn(log_request))
        .with_state(state)
}

/// One structured log line per request on standard error: method, path, status, time.
async fn log_request(req: axum::extract::Request, next: axum::middleware::Next) -> axum::response::Response {
    let started = std::time::Instant::now();
    let method = req.method().to_string();
    let path = req.uri().path().to_string();
    let response = next.run(req).await;
    let line = serde_json::json!({
        "at_ms": now_ms(),
        "method": method,
        "path": path,
        "status": response.status().as_u16(),
        "duration_ms": u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
    });
    eprintln!("{line}");
    response
}

/// Serves `state` on `listener` until `shutdown` completes; then in-flight requests finish
/// and open streams are cancelled (their readers get a `cancelled` event). A connection that
/// still has not finished a stall timeout later (a reader that reads nothing) is dropped.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let streams = state.streams.clone();
    let grace = state.config.stall_timeout;
    let (stopping_tx, stopping_rx) = tokio::sync::oneshot::channel::<()>();
    let app = router(state).into_make_service_with_connect_info::<SocketAddr>();
    let server = axum::serve(listener, app).with_graceful_shutdown(async move {
        shutdown.await;
        streams.cancel_all("the server is shutting down");
        let _ = stopping_tx.send(());
    });
    tokio::select! {
        r = server.into_future() => r,
        () = async move {
            if stopping_rx.await.is_ok() {
                tokio::time::sleep(grace).await;
            } else {
                std::future::pending::<()>().await;
            }
        } => Ok(()),
    }
}

/// Completes on SIGTERM or Ctrl-C.
pub async fn signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}
