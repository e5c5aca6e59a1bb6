//! Any implementation behind the JSON-lines protocol (`PROTOCOL.md`): the
//! adapter command runs as a subprocess (through `sh -c`), one request per
//! line on its stdin, one answer per line on its stdout. Each request has a
//! timeout; an adapter that hangs is killed, one that exits is restarted on
//! the next request (with `hello` again and its fixtures reloaded), and a
//! message that is not valid JSON or breaks its schema is an `errored` answer.
//! A fixture that fails to reload after a restart is dropped: the requests that
//! need it are errored with the reason, every other request goes on.

use crate::implementation::Implementation;
use crate::protocol::{Answer, Hello, Request, hello_request};
use crate::protocol_schema::validate;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

/// The default timeout per request.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// The least time `hello` is given after a start, whatever the request timeout.
pub const STARTUP_TIMEOUT: Duration = Duration::from_secs(10);

/// A running adapter process.
struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Option<String>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        kill_group(self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The longest answer line accepted (64 MiB): an adapter that writes more without a newline
/// is treated as broken rather than allowed to exhaust the runner's memory.
pub const MAX_LINE_BYTES: u64 = 64 << 20;

/// Forwards the adapter's non-blank lines; `None` at the end of its output or on an
/// unreadable or oversized line (the runner then treats the adapter as gone).
fn read_lines(stdout: std::process::ChildStdout, tx: &std::sync::mpsc::Sender<Option<String>>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut line = Vec::new();
        match (&mut reader).take(MAX_LINE_BYTES + 1).read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) if line.len() as u64 > MAX_LINE_BYTES => break,
            Ok(_) => {}
        }
        let text = String::from_utf8_lossy(&line);
        if text.trim().is_empty() {
            continue;
        }
        if tx.send(Some(text.trim_end().to_string())).is_err() {
            return;
        }
    }
    let _ = tx.send(None);
}

/// The adapter runs in its own process group (`sh -c` may fork the real adapter
/// instead of exec-ing it), so a hung adapter is killed with everything it started.
#[cfg(unix)]
fn kill_group(pid: u32) {
    let _ = Command::new("kill")
        .args(["-s", "KILL", "--"])
        .arg(format!("-{pid}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

#[cfg(not(unix))]
fn kill_group(_pid: u32) {}

/// An implementation reached through the protocol.
pub struct Subprocess {
    command: String,
    timeout: Duration,
    running: Option<Running>,
    /// Requests that timed out so far.
    timeouts: u64,
    next_id: u64,
    /// `load_fixture` requests that succeeded, replayed after a restart.
    fixtures: Vec<Request>,
    /// Fixtures that failed to reload after a restart (name → why): dropped from the replay
    /// set; a request naming one is errored without being sent.
    lost: std::collections::BTreeMap<String, String>,
    /// How many times the adapter was (re)started.
    starts: usize,
    /// Failed starts since the last successful one.
    failed_starts: usize,
}

/// How many failed starts in a row make the runner stop restarting the adapter.
pub const MAX_FAILED_STARTS: usize = 3;

impl Subprocess {
    /// An adapter started with `sh -c command` when first needed.
    pub fn new(command: &str, timeout: Duration) -> Self {
        Subprocess {
            command: command.to_string(),
            timeout,
            running: None,
            timeouts: 0,
            next_id: 1,
            fixtures: Vec::new(),
            lost: std::collections::BTreeMap::new(),
            starts: 0,
            failed_starts: 0,
        }
    }

    /// How many times the adapter process was started (1 + restarts).
    pub fn starts(&self) -> usize {
        self.starts
    }

    fn spawn(&mut self) -> Result<(), String> {
        let mut command = Command::new("sh");
        command.arg("-c").arg(&self.command).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().map_err(|e| format!("cannot start the adapter `{}`: {e}", self.command))?;
        let stdin = child.stdin.take().ok_or("the adapter has no stdin")?;
        let stdout = child.stdout.take().ok_or("the adapter has no stdout")?;
        let (tx, rx) = channel();
        std::thread::spawn(move || read_lines(stdout, &tx));
        self.running = Some(Running { child, stdin, lines: rx });
        self.starts += 1;
        Ok(())
    }

    /// Sends one line and waits for one line back; on a timeout or exit the process is dropped.
    fn exchange(&mut self, message: &Value) -> Result<Value, String> {
        self.exchange_within(message, self.timeout)
    }

    /// [`Subprocess::exchange`] with its own timeout.
    fn exchange_within(&mut self, message: &Value, timeout: Duration) -> Result<Value, String> {
        let Some(run) = self.running.as_mut() else { return Err("the adapter is not running".into()) };
        let sent = writeln!(run.stdin, "{message}").and_then(|()| run.stdin.flush());
        if sent.is_err() {
            self.running = None;
            return Err("the adapter closed its input (crashed?)".into());
        }
        match run.lines.recv_timeout(timeout) {
            Ok(Some(line)) => {
                serde_json::from_str(&line).map_err(|e| format!("the adapter wrote a line that is not JSON ({e})"))
            }
            Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                self.running = None;
                Err("the adapter exited before answering (crash); it will be restarted".into())
            }
            Err(RecvTimeoutError::Timeout) => {
                self.running = None;
                self.timeouts += 1;
                Err(format!("no answer within {} ms (timeout); the adapter was killed", timeout.as_millis()))
            }
        }
    }

    /// Starts the adapter if needed, giving up after [`MAX_FAILED_STARTS`] failed starts in a row
    /// (so an adapter that cannot start costs a few timeouts, not one per case).
    fn ensure_started(&mut self) -> Result<Option<Hello>, String> {
        if self.running.is_some() {
            return Ok(None);
        }
        if self.failed_starts >= MAX_FAILED_STARTS {
            return Err(format!("the adapter failed to start {MAX_FAILED_STARTS} times in a row; not retried"));
        }
        match self.start() {
            Ok(hello) => {
                self.failed_starts = 0;
                Ok(Some(hello))
            }
            Err(e) => {
                self.failed_starts += 1;
                self.running = None;
                Err(e)
            }
        }
    }

    /// Spawn, `hello`, and replay of the fixtures loaded before. A fixture that fails to
    /// reload is dropped from the replay set (its requests are errored with the reason,
    /// [`Subprocess::lost`]) and the start goes on; when the adapter dies while reloading
    /// one, it is started again with the rest (each round drops a fixture, so this ends).
    fn start(&mut self) -> Result<Hello, String> {
        loop {
            self.spawn()?;
            // Starting a process (an interpreter, a JIT, a store) may take longer than answering
            // a request: `hello` gets at least STARTUP_TIMEOUT.
            let answer = self.exchange_within(&hello_request(), self.timeout.max(STARTUP_TIMEOUT))?;
            validate("hello-response", &answer)?;
            let hello = Hello::from_message(&answer).ok_or("the hello answer is incomplete")?;
            let mut died = false;
            for request in self.fixtures.clone() {
                let Request::LoadFixture { name, .. } = &request else { continue };
                let why = match self.send(&request) {
                    Answer::Ok(_) => continue,
                    Answer::Skipped(m) => format!("skipped ({m})"),
                    Answer::Errored(m) => m,
                };
                self.fixtures.retain(|r| !matches!(r, Request::LoadFixture { name: n, .. } if n == name));
                self.lost.insert(name.clone(), why);
                if self.running.is_none() {
                    died = true;
                    break;
                }
            }
            if !died {
                return Ok(hello);
            }
        }
    }

    /// Why a request cannot be sent: it names a fixture that failed to reload after a restart.
    fn lost_fixture(&self, request: &Request) -> Option<String> {
        let Request::Execute { fixture, .. } = request else { return None };
        let why = self.lost.get(fixture)?;
        Some(format!("fixture {fixture:?} failed to reload after the adapter restarted: {why}"))
    }

    /// One request on a running adapter, validated against its response schema.
    fn send(&mut self, request: &Request) -> Answer {
        let id = self.next_id;
        self.next_id += 1;
        let answer = match self.exchange(&request.to_message(id)) {
            Ok(a) => a,
            Err(e) => return Answer::Errored(e),
        };
        if let Err(e) = validate(&format!("{}-response", request.type_name()), &answer) {
            return Answer::Errored(e);
        }
        if answer.get("id").and_then(Value::as_u64) != Some(id) {
            self.running = None;
            return Answer::Errored(format!("the answer's id is not {id}; the adapter was restarted"));
        }
        let text = |k: &str| answer.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
        match answer.get("status").and_then(Value::as_str) {
            Some("ok") => Answer::Ok(answer.get("result").cloned().unwrap_or(Value::Null)),
            Some("skipped") => Answer::Skipped(text("reason")),
            _ => Answer::Errored(text("message")),
        }
    }
}

impl Implementation for Subprocess {
    fn timeouts(&self) -> u64 {
        self.timeouts
    }

    fn hello(&mut self) -> Result<Hello, String> {
        self.running = None;
        self.failed_starts = 0;
        self.ensure_started()?.ok_or_else(|| "the adapter did not say hello".to_string())
    }

    fn request(&mut self, request: &Request) -> Answer {
        if let Some(why) = self.lost_fixture(request) {
            return Answer::Errored(why);
        }
        if let Err(e) = self.ensure_started() {
            self.running = None;
            return Answer::Errored(e);
        }
        // A restart just now may have failed to reload the fixture this request needs.
        if let Some(why) = self.lost_fixture(request) {
            return Answer::Errored(why);
        }
        let answer = self.send(request);
        if let (Request::LoadFixture { name, .. }, Answer::Ok(_)) = (request, &answer) {
            self.fixtures.retain(|r| !matches!(r, Request::LoadFixture { name: n, .. } if n == name));
            self.fixtures.push(request.clone());
            self.lost.remove(name);
        }
        answer
    }
}
