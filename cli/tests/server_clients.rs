//! The reference server driven by real clients from the ecosystem (issue 18): Python `httpx`
//! for REST, SSE and NDJSON, `websockets` for WebSocket, and the official `mcp` client for
//! MCP over stdio and Streamable HTTP (`cli/tests/clients/`, run with pytest).
//!
//! The clients live in a virtual environment, `target/py-clients`, which `.ci/run` creates;
//! on a machine where it does not exist yet this test creates it (Python 3 and PyPI are
//! needed, as for `.ci/run`). Every server binds 127.0.0.1 on a free port and is stopped by
//! the test that started it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The clients and their versions (ENVIRONMENT.md: known to work here), shared with `.ci/run`.
const REQUIREMENTS: &str = include_str!("clients/requirements.txt");

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace").to_path_buf()
}

/// The virtual environment's python, made (once) if missing or made for other requirements.
fn python() -> PathBuf {
    let venv = std::env::var_os("CAL_PY_CLIENTS").map_or_else(|| root().join("target/py-clients"), PathBuf::from);
    let python = venv.join("bin/python");
    let stamp = venv.join("cal-requirements.txt");
    if python.exists() && std::fs::read_to_string(&stamp).is_ok_and(|s| s == REQUIREMENTS) {
        return python;
    }
    let ok = |c: &mut Command| c.status().is_ok_and(|s| s.success());
    assert!(ok(Command::new("python3").args(["-m", "venv"]).arg(&venv)), "python3 -m venv {} failed", venv.display());
    assert!(
        ok(Command::new(&python)
            .args(["-m", "pip", "install", "-q", "--disable-pip-version-check", "-r"])
            .arg(root().join("cli/tests/clients/requirements.txt"))),
        "pip install of the test clients failed"
    );
    std::fs::write(&stamp, REQUIREMENTS).expect("the venv stamp");
    python
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
