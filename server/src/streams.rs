//! Streamed ASSEMBLEs (§11) between the interpreter, which produces events on a blocking
//! thread, and the transports (SSE, NDJSON, WebSocket), which read them asynchronously.
//!
//! Each stream keeps its events in order. The producer (the interpreter's sink) appends
//! one and, before going on, waits while the reader is behind by more than the event
//! buffer (§11.6: 64 KB unsent), while the reader is away, or while a WebSocket client
//! has paused chunk emission. Waiting too long ends the assembly with a cancellation, its
//! partial result valid (§11.5):
//! - a reader that takes nothing for the stall timeout (30 s) is cut ("stall timeout");
//! - a reader that went away and did not come back within the reconnection window (10 s)
//!   cancels it ("the client closed the connection");
//! - `DELETE …/stream/{assembly_id}`, a WebSocket `cancel` and shutdown cancel it at once.
//!
//! A reader that reconnects within the window (`GET …/stream/{assembly_id}` with
//! `Last-Event-ID`) gets the events after the last one it saw and follows the rest; a
//! stream that ended more than the window ago answers CAL-E081 (docs/spec-decisions-server.md
//! V3). At most three streams run per client at once (§11.6).

use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use cal_interp::stream::{CancelToken, Control, Event, EventBody};
use tokio::sync::Notify;

use crate::app::ServerConfig;

/// One event as it travels: its sequence number, SSE form and NDJSON form.
#[derive(Debug, Clone)]
pub struct Sent {
    /// The event's `seq`.
    pub seq: u64,
    /// `id:`/`event:`/`data:` lines and the blank line.
    pub sse: String,
    /// One JSON line, without the newline.
    pub json: String,
}

#[derive(Debug, Default)]
struct Log {
    events: Vec<Sent>,
    /// Events the reader has taken.
    taken: usize,
    /// Bytes appended, and bytes taken.
    bytes: usize,
    taken_bytes: usize,
    /// Whether a reader is attached, and since when none is.
    attached: bool,
    away_since: Option<Instant>,
    /// When the reader last took an event (or attached).
    last_read: Option<Instant>,
    /// WebSocket `pause`: chunk events wait.
    paused: bool,
    /// The assembly ended (completed, failed or cancelled), and when.
    ended_at: Option<Instant>,
}

/// One stream.
#[derive(Debug)]
pub struct Stream {
    /// The client it counts against.
    client: String,
    /// The memory it belongs to.
    memory: String,
    /// Cancels the assembly.
    pub cancel: CancelToken,
    log: Mutex<Log>,
    /// Wakes the producer (the reader took something, attached, or resumed).
    producer: Condvar,
    /// Wakes the reader (an event arrived, or the stream ended).
    reader: Notify,
    config: ServerConfig,
}

impl Stream {
    fn log(&self) -> MutexGuard<'_, Log> {
        self.log.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The producer's side: appends `event` and waits as the module docs say.
    pub fn push(&self, event: &Event) -> Control {
        let sent = Sent { seq: event.seq, sse: event.to_sse(), json: event.to_ndjson() };
        let is_chunk = matches!(event.body, EventBody::Chunk { .. });
        let mut log = self.log();
        log.bytes += sent.json.len();
        log.events.push(sent);
        self.reader.notify_one();
        loop {
            if self.cancel.is_cancelled() {
                return Control::Continue; // the interpreter sees the token at its next checkpoint
            }
            let now = Instant::now();
            let (wait, deadline, reason) = if !log.attached {
                let since = log.away_since.unwrap_or(now);
                (true, since + self.config.reconnect_window, "the client closed the connection")
            } else if log.bytes - log.taken_bytes > self.config.event_buffer_bytes {
                let since = log.last_read.unwrap_or(now);
                (true, since + self.config.stall_timeout, "stall timeout: the client read nothing for 30 s")
            } else if log.paused && is_chunk {
                let since = log.last_read.unwrap_or(now);
                (true, since + self.config.stall_timeout, "stall timeout: paused for 30 s")
            } else {
                (false, now, "")
            };
            if !wait {
                return Control::Continue;
            }
            if now >= deadline {
                return Control::Cancel(reason.to_string());
            }
            let (guard, _) = self.producer.wait_timeout(log, deadline - now).unwrap_or_else(PoisonError::into_inner);
            log = guard;
        }
    }

    /// The assembly ended: readers drain what is left, then end.
    pub fn end(&self) {
        self.log().ended_at = Some(Instant::now());
        self.reader.notify_waiters();
        self.reader.notify_one();
    }

    /// Attaches a reader that has seen every event up to `after` (`None`: none).
    pub fn attach(&self, after: Option<u64>) {
        let mut log = self.log();
        let from = after.map_or(0, |seq| log.events.iter().position(|e| e.seq > seq).unwrap_or(log.events.len()));
        log.taken = from;
        log.taken_bytes = log.events[..from].iter().map(|e| e.json.len()).sum();
        log.attached = true;
        log.away_since = None;
        log.last_read = Some(Instant::now());
        self.producer.notify_all();
    }

    /// The reader went away.
    pub fn detach(&self) {
        let mut log = self.log();
        log.attached = false;
        log.away_since = Some(Instant::now());
        self.producer.notify_all();
    }

    /// WebSocket `pause` / `resume`.
    pub fn set_paused(&self, paused: bool) {
        self.log().paused = paused;
        self.producer.notify_all();
    }

    /// The next event for the reader, waiting for it; `None` once the stream has ended and
    /// everything was taken.
    pub async fn next(&self) -> Option<Sent> {
        loop {
            let notified = self.reader.notified();
            {
                let mut log = self.log();
                if log.taken < log.events.len() {
                    let e = log.events[log.taken].clone();
                    log.taken += 1;
                    log.taken_bytes += e.json.len();
                    log.last_read = Some(Instant::now());
                    self.producer.notify_all();
                    return Some(e);
                }
                if log.ended_at.is_some() {
                    return None;
                }
            }
            notified.await;
        }
    }

    /// Whether the stream ended more than the reconnection window ago.
    fn expired(&self, now: Instant) -> bool {
        self.log().ended_at.is_some_and(|t| now.duration_since(t) > self.config.reconnect_window)
    }

    fn running(&self) -> bool {
        self.log().ended_at.is_none()
    }

    /// Cancels the assembly now (DELETE, WebSocket `cancel`, shutdown), waking its producer.
    pub fn stop(&self, reason: &str) {
        self.cancel.cancel(reason);
        self.producer.notify_all();
    }

    /// The memory the stream belongs to.
    pub fn memory(&self) -> &str {
        &self.memory
    }
}

/// Why a stream could not be opened or found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamRefusal {
    /// The client has the maximum open already.
    TooMany(usize),
    /// No stream of that id, or it ended more than the window ago (CAL-E081).
    Expired,
}

/// Every stream of the server, by assembly id, with a reservation per client.
#[derive(Debug)]
pub struct Streams {
    config: ServerConfig,
    by_id: Mutex<HashMap<String, Arc<Stream>>>,
    /// Streams started (with or without an id yet) and not ended, per client.
    open: Mutex<HashMap<String, usize>>,
}

impl Streams {
    /// An empty registry.
    pub fn new(config: ServerConfig) -> Streams {
        Streams { config, by_id: Mutex::new(HashMap::new()), open: Mutex::new(HashMap::new()) }
    }

    fn by_id(&self) -> MutexGuard<'_, HashMap<String, Arc<Stream>>> {
        self.by_id.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Reserves a stream for `client` in `memory`, or refuses a fourth one.
    pub fn open(&self, client: &str, memory: &str) -> Result<Arc<Stream>, StreamRefusal> {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let n = open.entry(client.to_string()).or_insert(0);
        if *n >= self.config.max_streams_per_client {
            return Err(StreamRefusal::TooMany(self.config.max_streams_per_client));
        }
        *n += 1;
        Ok(Arc::new(Stream {
            client: client.to_string(),
            memory: memory.to_string(),
            cancel: CancelToken::new(),
            log: Mutex::new(Log { attached: true, last_read: Some(Instant::now()), ..Log::default() }),
            producer: Condvar::new(),
            reader: Notify::new(),
            config: self.config.clone(),
        }))
    }

    /// Names a stream by its assembly id once its first event told it.
    pub fn name(&self, id: &str, stream: &Arc<Stream>) {
        let now = Instant::now();
        let mut map = self.by_id();
        map.retain(|_, s| !s.expired(now));
        map.insert(id.to_string(), stream.clone());
    }

    /// The stream ended: its reservation is released; it stays findable for the window.
    pub fn close(&self, stream: &Stream) {
        stream.end();
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(n) = open.get_mut(&stream.client) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                open.remove(&stream.client);
            }
        }
    }

    /// The stream `id`, unless unknown or expired.
    pub fn find(&self, id: &str) -> Result<Arc<Stream>, StreamRefusal> {
        let now = Instant::now();
        match self.by_id().get(id) {
            Some(s) if !s.expired(now) => Ok(s.clone()),
            _ => Err(StreamRefusal::Expired),
        }
    }

    /// Cancels every running stream (shutdown).
    pub fn cancel_all(&self, reason: &str) {
        for s in self.by_id().values().filter(|s| s.running()) {
            s.stop(reason);
        }
    }

    /// Streams running now.
    pub fn running(&self) -> usize {
        self.open.lock().unwrap_or_else(PoisonError::into_inner).values().sum()
    }

    /// How long a reader waits at most (the stall timeout), for transports that poll.
    pub fn stall_timeout(&self) -> Duration {
        self.config.stall_timeout
    }
}

/// A reader attached to a stream: detaches it when dropped (the client went away).
#[derive(Debug)]
pub struct Reader {
    /// The stream read.
    pub stream: Arc<Stream>,
}

impl Drop for Reader {
    fn drop(&mut self) {
        self.stream.detach();
    }
}
