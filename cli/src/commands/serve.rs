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

fn state(store: &PathBuf, key: &std::path::Path) -> Result<AppState, ExitCode> {
    let service =
        open_service(key, std::slice::from_ref(store), None, InterpConfig::default()).map_err(|e| e.exit())?;
    Ok(AppState::new(Arc::new(service), ServerConfig::default()))
}

/// Runs `cal serve` until SIGTERM or Ctrl-C; in-flight requests finish, streams are cancelled.
pub fn serve(args: &ServeArgs) -> ExitCode {
    let (rt, state) = match runtime().and_then(|rt| Ok((rt, state(&args.store, &args.key)?))) {
        Ok(x) => x,
        Err(code) => return code,
    };
    rt.block_on(async {
        let listener = match tokio::net::TcpListener::bind(args.addr).await {
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
    let (rt, state) = match runtime().and_then(|rt| Ok((rt, state(&args.store, &args.key)?))) {
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
