//! The running state of one stream: where events go, which are wanted, how far it got, and
//! whether it was cancelled. Held by the execution context while a streamed ASSEMBLE runs.

use cal_grammar::Diagnostic;

use super::events::{Event, EventBody};
use super::{CancelToken, Control, EventSink, StreamOptions};
use crate::audit::StreamAudit;
use crate::errors::diagnostic_json;

/// One stream's state.
pub(crate) struct Emitter<'a> {
    sink: &'a mut dyn EventSink,
    token: &'a CancelToken,
    /// The STREAM options in effect (all events until the ASSEMBLE sets its own).
    pub options: StreamOptions,
    /// `asm_` and eight hex digits, the same for every event of the stream.
    pub assembly_id: String,
    /// Events delivered so far (the next event's `seq`).
    seq: u64,
    /// The phase the assembly is in (§11.1's Phase column, snake_case).
    pub phase: &'static str,
    /// Set once cancellation is seen: the reason.
    pub cancelled: Option<String>,
    /// Whether an `error` event was delivered.
    pub error_sent: bool,
    /// Chunks of the text, delivered or not (for the summary).
    pub chunks_total: usize,
    /// Chunks delivered.
    pub chunks_delivered: usize,
    /// Tokens of the delivered chunks.
    pub tokens_delivered: usize,
    /// Sources that failed.
    pub sources_failed: usize,
    /// The disclosure level decided.
    pub disclosure: String,
}

impl<'a> Emitter<'a> {
    /// A stream delivering to `sink`, cancellable through `token`.
    pub fn new(sink: &'a mut dyn EventSink, token: &'a CancelToken, assembly_id: String) -> Self {
        Emitter {
            sink,
            token,
            options: StreamOptions::default(),
            assembly_id,
            seq: 0,
            phase: "init",
            cancelled: None,
            error_sent: false,
            chunks_total: 0,
            chunks_delivered: 0,
            tokens_delivered: 0,
            sources_failed: 0,
            disclosure: String::new(),
        }
    }

    /// Delivers `body` if the options want it; a sink's [`Control::Cancel`] is remembered and
    /// acted on at the next checkpoint ([`Emitter::stop`]).
    pub fn emit(&mut self, body: EventBody) {
        if !self.options.wants(&body) {
            return;
        }
        let event = Event { assembly_id: self.assembly_id.clone(), seq: self.seq, body };
        self.seq += 1;
        if let Control::Cancel(reason) = self.sink.event(&event)
            && self.cancelled.is_none()
        {
            self.cancelled = Some(reason);
        }
    }

    /// A checkpoint: true when the sink or the token asked to cancel.
    pub fn stop(&mut self) -> bool {
        if self.cancelled.is_none() && self.token.is_cancelled() {
            self.cancelled = Some(self.token.reason().unwrap_or_else(|| "cancelled".to_string()));
        }
        self.cancelled.is_some()
    }

    /// Delivers the `error` event of a failed request, once.
    pub fn error(&mut self, d: &Diagnostic) {
        if self.error_sent {
            return;
        }
        self.error_sent = true;
        let phase = self.phase.to_string();
        self.emit(EventBody::Error { phase, error: diagnostic_json(d) });
    }

    /// The §21 streaming audit fields of this stream.
    pub fn audit(&self) -> StreamAudit {
        StreamAudit {
            stream_options: self.options.groups(),
            events_emitted: self.seq,
            cancelled: self.cancelled.is_some(),
            cancel_reason: self.cancelled.clone(),
            sources_failed: self.sources_failed,
        }
    }
}
