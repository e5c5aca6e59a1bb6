//! The STREAM clause's options (§11.2): which event groups are delivered, and the chunk size.

use cal_grammar::limits::{DEFAULT_CHUNK_SIZE, MAX_CHUNK_SIZE, MIN_CHUNK_SIZE};
use cal_grammar::{Code, Diagnostic, StreamEvents};
use cal_parser::ast::{Stream, StreamOptionKind};

use super::events::EventBody;

/// Which events a stream delivers, and how large its chunks are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamOptions {
    /// `progress`: assembly_started, source_started, source_completed, assembly_completed.
    pub progress: bool,
    /// `budget`: dedup_completed, budget_allocated, disclosure_decided.
    pub budget: bool,
    /// `chunks`: chunk.
    pub chunks: bool,
    /// Target tokens per chunk (20–1000, default 100).
    pub chunk_size: usize,
}

impl Default for StreamOptions {
    /// Bare `STREAM`: every event, chunks of 100 tokens.
    fn default() -> Self {
        StreamOptions { progress: true, budget: true, chunks: true, chunk_size: DEFAULT_CHUNK_SIZE }
    }
}

impl StreamOptions {
    /// The options of a STREAM clause; no clause (a stream requested by the transport alone) and
    /// a clause naming no event group (`STREAM`, `STREAM { chunk_size = 200 }`) mean all events.
    /// A chunk_size outside 20–1000 is CAL-E078 here too, for queries that were not checked.
    pub fn from_clause(stream: Option<&Stream>) -> Result<Self, Diagnostic> {
        let Some(s) = stream else { return Ok(StreamOptions::default()) };
        let mut o = StreamOptions { progress: false, budget: false, chunks: false, chunk_size: DEFAULT_CHUNK_SIZE };
        let mut named = false;
        for opt in &s.options {
            match &opt.kind {
                StreamOptionKind::Events(e) => {
                    named = true;
                    match e {
                        StreamEvents::Progress => o.progress = true,
                        StreamEvents::Budget => o.budget = true,
                        StreamEvents::Chunks => o.chunks = true,
                        StreamEvents::All => (o.progress, o.budget, o.chunks) = (true, true, true),
                    }
                }
                StreamOptionKind::ChunkSize(n) => {
                    let (lo, hi) = (MIN_CHUNK_SIZE as u64, MAX_CHUNK_SIZE as u64);
                    if !(lo..=hi).contains(&n.value) {
                        return Err(Diagnostic::new(
                            Code::E078,
                            n.span,
                            format!(
                                "chunk_size = {} is out of range: a chunk is {lo} to {hi} tokens (§11.2).",
                                n.value
                            ),
                        )
                        .with_suggestion(format!(
                            "Use a chunk_size from {lo} to {hi}; the default is {DEFAULT_CHUNK_SIZE}."
                        )));
                    }
                    o.chunk_size = usize::try_from(n.value).unwrap_or(DEFAULT_CHUNK_SIZE);
                }
            }
        }
        if !named {
            (o.progress, o.budget, o.chunks) = (true, true, true);
        }
        Ok(o)
    }

    /// Whether `event` is delivered: by its group, and `error` / `cancelled` always.
    pub fn wants(&self, event: &EventBody) -> bool {
        match event {
            EventBody::AssemblyStarted { .. }
            | EventBody::SourceStarted { .. }
            | EventBody::SourceCompleted { .. }
            | EventBody::AssemblyCompleted { .. } => self.progress,
            EventBody::DedupCompleted { .. }
            | EventBody::BudgetAllocated { .. }
            | EventBody::DisclosureDecided { .. } => self.budget,
            EventBody::Chunk { .. } => self.chunks,
            EventBody::Error { .. } | EventBody::Cancelled { .. } => true,
        }
    }

    /// The groups in effect, for `assembly_started` and the audit entry.
    pub fn groups(&self) -> Vec<String> {
        [(self.progress, "progress"), (self.budget, "budget"), (self.chunks, "chunks")]
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, n)| (*n).to_string())
            .collect()
    }
}
