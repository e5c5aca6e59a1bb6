//! Running the `cal` binary in integration tests.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `cal args` with `stdin` as its whole standard input and waits for it.
pub fn cal(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cal"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cal starts");
    child.stdin.take().expect("stdin").write_all(stdin).expect("cal reads its input");
    child.wait_with_output().expect("cal ends")
}
