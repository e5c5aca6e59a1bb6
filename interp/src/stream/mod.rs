//! Streaming ASSEMBLE (§11): the typed event stream, the STREAM options that filter it, the
//! chunking of the formatted text, and cancellation.
//!
//! ```text
//! Interpreter::execute_stream(query, opts, sink, cancel)
//!   assembly_started ─► source_started/completed × n ─► dedup_completed ─► budget_allocated
//!   ─► disclosure_decided ─► chunk × k ─► assembly_completed          (or cancelled / error)
//! ```
//!
//! * [`EventSink`] receives each event as it happens and may answer [`Control::Cancel`];
//!   a [`CancelToken`] does the same from elsewhere (another thread, a closed connection).
//!   Cancellation is checked between sources, between phases and between chunks; the response
//!   is then a valid partial result (`cancelled` member, §11.5) and the last event `cancelled`.
//! * [`StreamOptions`] (§11.2) say which events are delivered; `error` and `cancelled` always are.
//! * The events themselves are produced by the ASSEMBLE that emits them
//!   (`crate::assembly_stream`); this module is the machinery, with no knowledge of a statement.
//! * The chunks concatenate to the non-streamed `formatted_context.text` exactly, in every format
//!   (`cal_render::chunk`); the rules are in docs/streaming.md.

mod cancel;
mod emitter;
pub mod events;
mod options;

pub use cancel::CancelToken;
pub(crate) use emitter::Emitter;
pub use events::{Event, EventBody};
pub use options::StreamOptions;

/// What a sink answers to an event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Control {
    /// Go on.
    Continue,
    /// Stop the assembly at the next checkpoint, for this reason.
    Cancel(String),
}

/// Where a streamed ASSEMBLE's events go, as they happen (an SSE connection, NDJSON on
/// standard output, a test's vector).
pub trait EventSink {
    /// Receives one event; answering [`Control::Cancel`] cancels the assembly.
    fn event(&mut self, event: &Event) -> Control;
}

impl EventSink for Vec<Event> {
    fn event(&mut self, event: &Event) -> Control {
        self.push(event.clone());
        Control::Continue
    }
}

impl<F: FnMut(&Event) -> Control> EventSink for F {
    fn event(&mut self, event: &Event) -> Control {
        self(event)
    }
}
