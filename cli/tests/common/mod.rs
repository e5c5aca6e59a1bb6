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
