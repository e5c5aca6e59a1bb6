//! Running the `cal` binary in integration tests.

use std::io::Write;
use std::process::{Child, Command, Output, Stdio};

/// Starts `cal args` with its three standard streams piped to the test.
pub fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_cal"))
        .args(args)
        // Colour is decided by each test that cares, not by the environment the tests run in.
        .env_remove("FORCE_COLOR")
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cal starts")
}

/// Runs `cal args` with `stdin` as its whole standard input and waits for it.
#[allow(dead_code)] // not every test file that includes this module runs cal to the end
pub fn cal(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = spawn(args);
    child.stdin.take().expect("stdin").write_all(stdin).expect("cal reads its input");
    child.wait_with_output().expect("cal ends")
}

/// The python of a virtual environment at `venv` with `requirements` installed: made once,
/// and made again when the requirements changed (a copy of them is kept in the environment
/// as its stamp). Tests that drive real Python clients or engines share this.
#[allow(dead_code)] // not every test file that includes this module runs Python
pub fn python_venv(venv: &std::path::Path, requirements: &std::path::Path) -> std::path::PathBuf {
    let wanted = std::fs::read_to_string(requirements).expect("the requirements file");
    let python = venv.join("bin/python");
    let stamp = venv.join("cal-requirements.txt");
    if python.exists() && std::fs::read_to_string(&stamp).is_ok_and(|s| s == wanted) {
        return python;
    }
    let ok = |c: &mut Command| c.status().is_ok_and(|s| s.success());
    assert!(ok(Command::new("python3").args(["-m", "venv"]).arg(venv)), "python3 -m venv {} failed", venv.display());
    assert!(
        ok(Command::new(&python)
            .args(["-m", "pip", "install", "-q", "--disable-pip-version-check", "-r"])
            .arg(requirements)),
        "pip install -r {} failed",
        requirements.display()
    );
    std::fs::write(&stamp, wanted).expect("the venv stamp");
    python
}
