//! The typed events of a streamed ASSEMBLE (§11.1) and their JSON shapes.
//!
//! Every event is one JSON object: `type`, the `assembly_id` the stream was opened with, `seq`
//! (its position among the events this stream delivered, from 0), then the event's own members.
//! §11.3 shows `assembly_id`, `chunk_index`, `content`, `tokens` and `summary`, and §11.4 names
//! `budget_remaining`; those keep the spec's names. Events are delivered in causal order
//! (§11.1): assembly_started, then each source's source_started before its source_completed,
//! dedup_completed, budget_allocated, disclosure_decided, the chunks in order, and
//! assembly_completed — or `cancelled` / `error`, which end a stream.

use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value as Json};

/// A BUDGET as events report it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BudgetInfo {
    /// The amount.
    pub amount: u64,
    /// `tokens` or `grains`.
    pub unit: String,
}

/// What the STREAM clause asked for, echoed by `assembly_started`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamInfo {
    /// The event groups in effect (`progress`, `budget`, `chunks`).
    pub events: Vec<String>,
    /// Target tokens per chunk.
    pub chunk_size: usize,
}

/// One source's share, as `budget_allocated` reports it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SourceAllocation {
    /// The FROM label.
    pub source: String,
    /// 1-based rank in PRIORITY order.
    pub priority: usize,
    /// Its default weight (§8.2).
    pub weight: Option<f64>,
    /// Its share after surplus redistribution, in the budget's unit (0 for a failed source).
    pub allocated: usize,
    /// Grains it returned (after dedup).
    pub candidates: usize,
    /// Grains that will be formatted.
    pub grains: usize,
    /// Tokens of those grains' elements.
    pub tokens_used: usize,
    /// True when candidates were cut for the budget.
    pub truncated: bool,
    /// True when the source failed; its budget went to the others (§11.4).
    pub failed: bool,
}

/// Per-source dedup counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceDedup {
    /// The FROM label.
    pub source: String,
    /// Grains dropped because a higher-priority source had the same value.
    pub removed: usize,
    /// Grains kept.
    pub kept: usize,
}

/// One progressive disclosure tier (§8.2), as `disclosure_decided` reports it: its figures,
/// not its text (the chunks carry the tier shown first; the response carries all three).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TierInfo {
    /// `summary`, `headlines` or `full`.
    pub tier: String,
    /// The §14.3 level it is rendered at (`headlines` is `standard`).
    pub level: String,
    /// Exact o200k_base tokens of the tier's text.
    pub tokens: usize,
    /// Grains in it.
    pub grains: usize,
}

/// The final figures of `assembly_completed` (§11.4 "final utilization").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Exact o200k_base tokens of the formatted text (= `formatted_context.tokens`).
    pub tokens_used: usize,
    /// The budget.
    pub budget: BudgetInfo,
    /// Used / budget, in the budget's unit (tokens, or grains), rounded to four places.
    pub utilization: f64,
    /// Grains in the formatted text.
    pub grains: usize,
    /// Sources in FROM.
    pub sources: usize,
    /// Sources that failed.
    pub sources_failed: usize,
    /// Chunks of the formatted text (all delivered, whether or not `chunks` was streamed).
    pub chunks: usize,
    /// The format the text is in (`template` for templates).
    pub format: String,
    /// The disclosure level.
    pub disclosure: String,
}

/// The events of §11.1, with their members. Serialized with `type` first (see [`Event`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventBody {
    /// The stream is open; the total budget is known (§11.4).
    AssemblyStarted {
        /// The context name.
        name: Option<String>,
        /// The FOR text.
        intent: Option<String>,
        /// The BUDGET (or its default).
        budget: BudgetInfo,
        /// Source labels, highest priority first.
        sources: Vec<String>,
        /// The FORMAT asked for (`markdown` when absent, `template` for a template).
        format: String,
        /// The stream options in effect.
        stream: StreamInfo,
    },
    /// A source's RECALL has begun.
    SourceStarted {
        /// The FROM label.
        source: String,
        /// 1-based rank in PRIORITY order.
        priority: usize,
    },
    /// A source's RECALL has finished (§11.4: per-source estimates).
    SourceCompleted {
        /// The FROM label.
        source: String,
        /// 1-based rank in PRIORITY order.
        priority: usize,
        /// `ok` or `failed`.
        status: String,
        /// Grains (or values) it returned.
        grains: usize,
        /// Matches before LIMIT.
        total: usize,
        /// Estimated tokens of those grains' content (bytes / 4; the exact figures follow in
        /// `budget_allocated` and the chunks).
        tokens_estimate: u64,
        /// The §22.1 error of a failed source.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<Json>,
    },
    /// Cross-source dedup finished (a no-op without `WITH dedup(field)`).
    DedupCompleted {
        /// The field compared, or null.
        field: Option<String>,
        /// Grains dropped in all.
        removed: usize,
        /// Per source, in priority order.
        sources: Vec<SourceDedup>,
    },
    /// The budget is distributed (final allocation, §11.4).
    BudgetAllocated {
        /// The budget.
        budget: BudgetInfo,
        /// Each source's share, in priority order.
        sources: Vec<SourceAllocation>,
    },
    /// The disclosure level is assigned (§14.3).
    DisclosureDecided {
        /// `summary`, `standard` or `full`.
        level: String,
        /// `with` (a level was written), `budget` (bare `progressive_disclosure`) or `default`.
        chosen_by: String,
        /// With bare `progressive_disclosure`, the three tiers of §8.2 in order (summary,
        /// headlines, full); `level` is the one the chunks deliver. Absent otherwise.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tiers: Vec<TierInfo>,
    },
    /// A piece of the formatted text: whole elements only.
    Chunk {
        /// 0-based, in text order.
        chunk_index: usize,
        /// The text; all chunks concatenated are `formatted_context.text`.
        content: String,
        /// Tokens of the chunk (those of the whole text's encoding that start in it).
        tokens: usize,
        /// Tokens delivered so far, this chunk included.
        tokens_emitted: usize,
        /// The running countdown (§11.4): the budget minus what was delivered, in the budget's
        /// unit (tokens, or grains).
        budget_remaining: u64,
        /// Elements (grains) in the chunk.
        elements: usize,
        /// Labels of the sources those elements come from, in order of appearance.
        sources: Vec<String>,
        /// True for the last chunk of the text.
        last: bool,
    },
    /// All phases complete.
    AssemblyCompleted {
        /// Final figures.
        summary: Summary,
    },
    /// The assembly failed; the stream ends. Always delivered.
    Error {
        /// The phase it failed in.
        phase: String,
        /// The §22.1 error object.
        error: Json,
    },
    /// The assembly was cancelled; what was delivered is a valid partial result. Always delivered.
    Cancelled {
        /// `CAL-E082` (AssemblyCancelled).
        code: String,
        /// Why, as the canceller said.
        reason: String,
        /// The phase it stopped in.
        phase: String,
        /// Chunks delivered before it stopped.
        chunks_delivered: usize,
        /// Their tokens.
        tokens_delivered: usize,
    },
}

impl EventBody {
    /// The `type` string.
    pub fn kind(&self) -> &'static str {
        match self {
            EventBody::AssemblyStarted { .. } => "assembly_started",
            EventBody::SourceStarted { .. } => "source_started",
            EventBody::SourceCompleted { .. } => "source_completed",
            EventBody::DedupCompleted { .. } => "dedup_completed",
            EventBody::BudgetAllocated { .. } => "budget_allocated",
            EventBody::DisclosureDecided { .. } => "disclosure_decided",
            EventBody::Chunk { .. } => "chunk",
            EventBody::AssemblyCompleted { .. } => "assembly_completed",
            EventBody::Error { .. } => "error",
            EventBody::Cancelled { .. } => "cancelled",
        }
    }
}

/// One delivered event: its body with the stream's id and its sequence number.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Event {
    /// The stream's id, `asm_` and eight hex digits.
    pub assembly_id: String,
    /// 0-based position among the events this stream delivered.
    pub seq: u64,
    /// The event.
    #[serde(flatten)]
    pub body: EventBody,
}

impl Event {
    /// The event as a JSON object: `type`, `assembly_id`, `seq`, then the members.
    pub fn to_json(&self) -> Json {
        let mut m = Map::new();
        m.insert("type".into(), self.body.kind().into());
        m.insert("assembly_id".into(), self.assembly_id.clone().into());
        m.insert("seq".into(), self.seq.into());
        if let Ok(Json::Object(body)) = serde_json::to_value(&self.body) {
            m.extend(body.into_iter().filter(|(k, _)| k != "type"));
        }
        Json::Object(m)
    }

    /// One line of NDJSON (no newline): §11.3's fallback binding.
    pub fn to_ndjson(&self) -> String {
        self.to_json().to_string()
    }

    /// One Server-Sent Events message (§11.3, the recommended binding): `id` (the sequence
    /// number, for `Last-Event-ID`), `event` (the type) and `data` (the JSON object), ended by
    /// the blank line that delimits SSE messages. The JSON is on one line, so one `data:` field.
    pub fn to_sse(&self) -> String {
        format!("id: {}\nevent: {}\ndata: {}\n\n", self.seq, self.body.kind(), self.to_ndjson())
    }
}

impl Serialize for Event {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}
