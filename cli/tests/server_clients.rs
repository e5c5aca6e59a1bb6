//! The reference server driven by real clients from the ecosystem (issue 18): Python `httpx`
//! for REST, SSE and NDJSON, `websockets` for WebSocket, and the official `mcp` client for
//! MCP over stdio and Streamable HTTP (`cli/tests/clients/`, run with pytest).
//!
//! The clients live in a virtual environment, `target/py-clients`, which `.ci/run` creates;
//! on a machine where it does not exist yet this test creates it (Python 3 and PyPI are
//! needed, as for `.ci/run`). Every server binds 127.0.0.1 on a free port and is stopped by
//! the test that started it.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace").to_path_buf()
}

/// The virtual environment's python with the clients (ENVIRONMENT.md: known to work here).
fn python() -> PathBuf {
    common::python_venv(
        &std::env::var_os("CAL_PY_CLIENTS").map_or_else(|| root().join("target/py-clients"), PathBuf::from),
        &root().join("cli/tests/clients/requirements.txt"),
    )
}

#[test]
fn real_http_websocket_and_mcp_clients() {
    let python = python();
    let mut child = Command::new(python)
        .args(["-m", "pytest", "-q", "-x", "-p", "no:cacheprovider"])
        .arg(root().join("cli/tests/clients"))
        .env("CAL_BIN", env!("CARGO_BIN_EXE_cal"))
        .current_dir(root().join("cli/tests/clients"))
        .spawn()
        .expect("pytest starts");
    let deadline = Instant::now() + Duration::from_secs(600);
    loop {
        if let Some(status) = child.try_wait().expect("pytest runs") {
            assert!(status.success(), "the client tests failed (see their output above)");
            return;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the client tests did not finish in 10 minutes");
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}
