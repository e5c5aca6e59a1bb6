//! `cal serve` (the §26 REST, streaming and MCP server) and `cal mcp` (MCP on stdio), both
//! over one store database through the service layer (`cal-server`).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use cal_interp::InterpConfig;
use cal_server::{AppState, ServerConfig};

use super::gate::{open_service, token_text};

/// `cal serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The store database (`cal store init`); requests name its namespaces as memories.
    #[arg(long, value_name = "DB")]
    pub store: PathBuf,
    /// The server key that signs capability tokens (`cal key new`).
    #[arg(long, value_name = "FILE")]
    pub key: PathBuf,
    /// Where to listen; port 0 picks a free one (the address is printed on standard output).
    #[arg(long, default_value = "127.0.0.1:7420")]
    pub addr: SocketAddr,
    /// Largest request body read; a larger one is refused with 413.
    #[arg(long, value_name = "BYTES", default_value_t = ServerConfig::default().body_limit)]
    pub body_limit: usize,
    /// Concurrent streams per client (§11.6: 3).
    #[arg(long, value_name = "N", default_value_t = ServerConfig::default().max_streams_per_client)]
    pub max_streams: usize,
    /// Unsent event bytes buffered per stream before the assembly waits (§11.6: 64 KB).
    #[arg(long, value_name = "BYTES", default_value_t = ServerConfig::default().event_buffer_bytes)]
    pub event_buffer: usize,
    /// How long a stream waits for a reader that takes nothing before it is cut (§11.6: 30 s).
    #[arg(long, value_name = "MS", default_value_t = 30_000)]
    pub stall_timeout_ms: u64,
    /// How long a disconnected stream waits for its reader to come back, and how long a
    /// finished one can be resumed (§11.6: 10 s).
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub reconnect_window_ms: u64,
    /// The kernel's send buffer per connection (SO_SNDBUF), so that what a slow reader has
    /// not taken stays in the server's event buffer, where §11.6's limit and stall timeout
    /// apply; the system default when absent.
    #[arg(long, value_name = "BYTES")]
    pub send_buffer: Option<u32>,
    /// Answer every request as of this instant (RFC 3339), as `cal run --now` does: for
    /// reproducible answers; the system clock when absent.
    #[arg(long, value_name = "RFC3339")]
    pub now: Option<String>,
}

/// Binds the listening socket, with the send buffer accepted connections inherit.
fn listen(addr: SocketAddr, send_buffer: Option<u32>) -> std::io::Result<tokio::net::TcpListener> {
    let socket = if addr.is_ipv4() { tokio::net::TcpSocket::new_v4()? } else { tokio::net::TcpSocket::new_v6()? };
    socket.set_reuseaddr(true)?;
    if let Some(n) = send_buffer {
        socket.set_send_buffer_size(n)?;
    }
    socket.bind(addr)?;
    socket.listen(1024)
}

impl ServeArgs {
    fn config(&self) -> Result<ServerConfig, ExitCode> {
        let fixed_now = match &self.now {
            None => None,
            Some(t) => Some(
                oms::time::parse_rfc3339_ms(t)
                    .ok_or_else(|| super::usage_error(&format!("--now {t:?} is not an RFC 3339 date-time")))?,
            ),
        };
        Ok(ServerConfig {
            body_limit: self.body_limit,
            max_streams_per_client: self.max_streams,
            event_buffer_bytes: self.event_buffer,
            stall_timeout: std::time::Duration::from_millis(self.stall_timeout_ms),
            reconnect_window: std::time::Duration::from_millis(self.reconnect_window_ms),
            fixed_now,
        })
    }
}

/// `cal mcp`.
#[derive(clap::Args, Debug)]
pub struct McpArgs {
    /// The store database.
    #[arg(long, value_name = "DB")]
    pub store: PathBuf,
    /// The server key.
    #[arg(long, value_name = "FILE")]
    pub key: PathBuf,
    /// The capability token every tool call of this session runs under (its JSON, or `@FILE`).
    #[arg(long, value_name = "TOKEN")]
    pub token: String,
}

fn runtime() -> Result<tokio::runtime::Runtime, ExitCode> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| super::usage_error(&format!("cannot start the async runtime: {e}")))
}

fn state(store: &PathBuf, key: &std::path::Path, config: ServerConfig) -> Result<AppState, ExitCode> {
    let service = open_service(key, std::slice::from_ref(store), config.fixed_now, InterpConfig::default())
        .map_err(|e| e.exit())?;
    Ok(AppState::new(Arc::new(service), config))
}

/// Runs `cal serve` until SIGTERM or Ctrl-C; in-flight requests finish, streams are cancelled.
pub fn serve(args: &ServeArgs) -> ExitCode {
    let (rt, state) = match runtime().and_then(|rt| {
        Ok((rt, {
            let config = args.config()?;
            state(&args.store, &args.key, config)?
        }))
    }) {
        Ok(x) => x,
        Err(code) => return code,
    };
    rt.block_on(async {
        let listener = match listen(args.addr, args.send_buffer) {
            Ok(l) => l,
            Err(e) => return super::usage_error(&format!("cannot listen on {}: {e}", args.addr)),
        };
        let addr = listener.local_addr().map_or_else(|_| args.addr.to_string(), |a| a.to_string());
        outln!("cal serve: listening on http://{addr} (REST /memories/{{id}}/cal, MCP /mcp)");
        match cal_server::serve(listener, state, cal_server::signal()).await {
            Ok(()) => super::OK,
            Err(e) => {
                errln!("cal serve: {e}");
                super::invalid()
            }
        }
    })
}

/// Runs `cal mcp` on standard input/output.
pub fn mcp(args: &McpArgs) -> ExitCode {
    let token = match token_text(&args.token) {
        Ok(t) => t,
        Err(e) => return e.exit(),
    };
    let (rt, state) = match runtime().and_then(|rt| Ok((rt, state(&args.store, &args.key, ServerConfig::default())?))) {
        Ok(x) => x,
        Err(code) => return code,
    };
    match rt.block_on(cal_server::mcp::serve_stdio(state, token)) {
        Ok(()) => super::OK,
        Err(e) => {
            errln!("cal mcp: {e}");
            super::invalid()
        }
    }
}
