//! The case model: one conformance case as the runner sees it, after the
//! case file has passed the JSON Schema (`schema/case-file.schema.json`).
//!
//! The model mirrors the shared case format documented in
//! `docs/conformance.md`; fields the schema makes optional are `Option`s or
//! empty collections here.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

/// A conformance level of CAL §24. Levels are cumulative, so the order matters:
/// `Core < Extended < Evolve < Full`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Level 1 (MUST): RECALL, EXISTS, parameters, hashes, E001–E031, text/cal.
    Core,
    /// Level 2 (SHOULD): pipelines, set operators, ASSEMBLE, JSON wire format, …
    Extended,
    /// Level 3 (MAY): ADD, SUPERSEDE, REVERT, E040–E052.
    Evolve,
    /// Level 4 (MAY): streaming, templates, PROJECT, DESCRIBE grammar.
    Full,
}

impl Level {
    /// Every level, lowest first.
    pub const ALL: [Level; 4] = [Level::Core, Level::Extended, Level::Evolve, Level::Full];

    /// The spelling used in case files, reports and the protocol.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Core => "core",
            Level::Extended => "extended",
            Level::Evolve => "evolve",
            Level::Full => "full",
        }
    }

    /// Parses the spelling used in case files and on the command line.
    pub fn parse(text: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.as_str().eq_ignore_ascii_case(text))
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The four kinds of case, one per request family of the protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Static front end: lex, parse, check (CAL §22 phases up to check).
    Parse,
    /// The dual wire format (CAL §15): text ↔ application/json+cal.
    Wire,
    /// A query run against a fixture store (CAL §8, §17.4).
    Execute,
    /// OMS grain encoding and decoding (OMS §17, §21).
    Mg,
}

impl Kind {
    /// Every kind, in report order.
    pub const ALL: [Kind; 4] = [Kind::Parse, Kind::Wire, Kind::Execute, Kind::Mg];

    /// The spelling used in case files and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Parse => "parse",
            Kind::Wire => "wire",
            Kind::Execute => "execute",
            Kind::Mg => "mg",
        }
    }
}

/// Case flags: how a case is scored or where it came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Flag {
    /// Results may legitimately vary; compared without order or not at all.
    Nondeterministic,
    /// The answer depends on the injected clock.
    NeedsClock,
    /// SHOULD-level behaviour: scored separately, never gates certification.
    Should,
    /// Derived by `generate.rs`, not hand-written.
    Generated,
}

/// One conformance case.
#[derive(Debug, Clone)]
pub struct Case {
    /// Stable, corpus-unique id (`parse.recall.where.eq.001`).
    pub id: String,
    /// The lowest level at which the behaviour is required.
    pub level: Level,
    /// Feature tags (`recall`, `where`, `E060`, `limit-boundary`, …).
    pub tags: Vec<String>,
    /// Spec sections the case pins (`8.2`, `OMS 4.9`).
    pub sections: Vec<String>,
    /// Scoring and provenance flags.
    pub flags: Vec<Flag>,
    /// One sentence saying what the case shows.
    pub description: Option<String>,
    /// The assertions whose expected value comes from a project ruling rather than the spec
    /// (assertion name → ruling, `"code"` → `"spec-decisions-grammar.md B1"`). They are scored
    /// like SHOULD and never gate a level, so an engine is not failed for our house style
    /// (docs/spec-decisions-conformance.md C13).
    pub rulings: Rulings,
    /// Where the case came from, for error messages and reports.
    pub origin: Origin,
    /// The kind-specific part.
    pub body: Body,
}

impl Case {
    /// The case's kind.
    pub fn kind(&self) -> Kind {
        match self.body {
            Body::Parse(_) => Kind::Parse,
            Body::Wire(_) => Kind::Wire,
            Body::Execute(_) => Kind::Execute,
            Body::Mg(_) => Kind::Mg,
        }
    }

    /// True when the case carries `flag`.
    pub fn has_flag(&self, flag: Flag) -> bool {
        self.flags.contains(&flag)
    }

    /// True for SHOULD-level cases, which are scored but never gate a level.
    pub fn is_should(&self) -> bool {
        self.has_flag(Flag::Should)
    }
}

/// Assertion name → the project ruling its expected value comes from (see [`Case::rulings`]).
pub type Rulings = BTreeMap<String, String>;

/// Where a case is defined: its file and JSON pointer, or the case it was generated from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// The case file.
    pub file: PathBuf,
    /// JSON pointer of the case inside the file (`/cases/3`).
    pub pointer: String,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}#{}", self.file.display(), self.pointer)
    }
}

/// The kind-specific content of a case.
#[derive(Debug, Clone)]
pub enum Body {
    /// A parse case.
    Parse(ParseCase),
    /// A wire-format case.
    Wire(WireCase),
    /// An execute case.
    Execute(Box<ExecuteCase>),
    /// An OMS codec case.
    Mg(MgCase),
}

/// Input of a parse case: text, or raw bytes for encoding errors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QueryInput {
    /// The CAL text.
    Text(String),
    /// Raw bytes (from `query_hex`), e.g. invalid UTF-8.
    Bytes(Vec<u8>),
}

impl QueryInput {
    /// The bytes sent to the implementation.
    pub fn bytes(&self) -> &[u8] {
        match self {
            QueryInput::Text(t) => t.as_bytes(),
            QueryInput::Bytes(b) => b,
        }
    }
}

/// A parse case: the static front end accepts or rejects a query.
#[derive(Debug, Clone)]
pub struct ParseCase {
    /// The query.
    pub query: QueryInput,
    /// What must happen.
    pub expect: ParseExpect,
}

/// The expected outcome of a parse request.
#[derive(Debug, Clone)]
pub enum ParseExpect {
    /// The query is valid.
    Accept {
        /// The expected `application/json+cal` form, when pinned.
        json: Option<Value>,
        /// The expected canonical text, when pinned.
        canonical: Option<String>,
        /// Expected warning codes, when pinned (compared as a set).
        warnings: Option<Vec<String>>,
        /// With `round_trip` in the case file: the query's own text, which the engine's
        /// canonical text must read back as (the same tree, §15.3) — no layout is expected.
        reads_back_as: Option<String>,
    },
    /// The query is a sentence of CAL §4's grammar (a derivation of `grammar/cal.ebnf`'s
    /// productions, generated): no error of the lex or parse phase. The checker may still
    /// reject it, with errors of the check phase only; accepted, its canonical text reads back
    /// as `reads_back_as` when set.
    WellFormed {
        /// The text an accepted query's canonical text must read back as: its own
        /// (`round_trip`), or the sentence a metamorphic variant came from (`same_tree_as`).
        reads_back_as: Option<String>,
    },
    /// The query is rejected.
    Reject {
        /// The first error's code.
        code: String,
        /// The phase that reports it.
        phase: Phase,
        /// The error's position (SHOULD-scored, CAL §22.1).
        position: Option<Position>,
        /// A substring of the suggestion (SHOULD-scored).
        suggestion_contains: Option<String>,
        /// Whether an example correction is present (SHOULD-scored).
        has_example: Option<bool>,
    },
}

/// The front-end phase that reports an error (CAL §22).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Pre-lex checks and tokenizing.
    Lex,
    /// Syntax.
    Parse,
    /// Static semantics.
    Check,
}

impl Phase {
    /// The spelling used in case files and the protocol.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Lex => "lex",
            Phase::Parse => "parse",
            Phase::Check => "check",
        }
    }
}

/// An error position as in the CAL §22.1 error object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Position {
    /// Start byte offset (0-based).
    pub start: u64,
    /// End byte offset (exclusive).
    pub end: u64,
    /// 1-based line, when pinned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// 1-based column in characters, when pinned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub col: Option<u64>,
}

/// A wire-format case.
#[derive(Debug, Clone)]
pub enum WireCase {
    /// text → JSON; the runner also checks JSON → text gives the canonical form of `query`.
    TextToJson {
        /// The CAL text.
        query: String,
        /// The expected JSON form.
        json: Value,
    },
    /// JSON → canonical text.
    JsonToText {
        /// The JSON form.
        json: Value,
        /// The expected canonical text.
        text: String,
    },
    /// JSON the schema rejects.
    JsonRejected {
        /// The JSON form.
        json: Value,
        /// The expected code (CAL-E002 for schema violations).
        code: String,
        /// The JSON pointer of the violation, when pinned.
        pointer: Option<String>,
    },
}

/// An execute case.
#[derive(Debug, Clone)]
pub struct ExecuteCase {
    /// Fixture store name: `conformance/fixtures/<name>.mg`.
    pub fixture: String,
    /// The query.
    pub query: String,
    /// The injected "now" (RFC 3339 UTC).
    pub clock: String,
    /// Parameter bindings.
    pub params: Map<String, Value>,
    /// The capability token, when the case needs one.
    pub capability: Option<String>,
    /// What else the request asks of the session it runs in: queries run first, deployment
    /// settings, a streamed delivery (PROTOCOL.md "execute").
    pub session: Session,
    /// What the response must show.
    pub expect: ExecuteExpect,
}

/// The session an execute request runs in, beyond the fixture, clock, parameters and token:
/// what DEFINE TEMPLATE (session state, §10.6), the implementation-configurable timeouts
/// (§17.3) and a streamed ASSEMBLE (§11) need. Empty for most cases.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Session {
    /// Queries run first, in order, in the same session (their answers are not judged):
    /// templates they define are there for the case's query.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub setup: Vec<String>,
    /// Deployment settings for this request: `query_timeout_ms`, `assemble_timeout_ms`
    /// (§17.3; 0 means the time is up when the query starts) and `auto_toon` (§10.9.5).
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub settings: Map<String, Value>,
    /// Deliver the ASSEMBLE's events through a streaming transport (§11) and cancel the
    /// assembly once this many events have arrived (§11.5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stream: Option<StreamRequest>,
    /// Queries run after the query, in order, in the same session; their responses come back
    /// in the answer's `then`. How a write made by the query itself is read back before the
    /// request's copy of the fixture is dropped (PROTOCOL.md "execute", ruling C23).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub then: Vec<String>,
    /// Send the query through the engine's HTTP binding (§11.3, §26) in the way described,
    /// instead of running it: what the streaming transport codes (CAL-E079, E081) need.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub http: Option<Box<HttpExchange>>,
}

impl Session {
    /// True when the request needs nothing beyond a plain execute.
    pub fn is_empty(&self) -> bool {
        self.setup.is_empty()
            && self.settings.is_empty()
            && self.stream.is_none()
            && self.then.is_empty()
            && self.http.is_none()
    }
}

/// An exchange with the engine's HTTP binding (the execute request's `http`): which endpoint
/// of §26 / §11.3–§11.5 is asked, and how. The answer's `response` is the body the endpoint
/// answered (the §14.1 envelope, or one with an `error`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HttpExchange {
    /// `run` (POST …/cal), `prepare`, `execute` (§18.2: the query is prepared first, then its
    /// token is executed this way), `resume` (GET …/cal/stream/{assembly_id}) or `cancel`
    /// (DELETE …/cal/stream/{assembly_id}).
    pub endpoint: String,
    /// The `Accept` header (`text/event-stream`, `application/x-ndjson`, `application/json`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accept: Option<String>,
    /// For `resume` and `cancel`: the assembly id named in the path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assembly_id: Option<String>,
    /// For `resume`: the `Last-Event-ID` header (§11.3, the last event the client saw).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_event_id: Option<u64>,
}

/// The store change a write made by the query itself must show (`expect.store_change`),
/// checked by reading the store back in the same session (ruling C23).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StoreChange {
    /// One entry per grain the query adds: field → value, each matched against the new grain
    /// at `results[].grain.<field>` of the read-back. Exactly this many grains are new.
    pub added: Vec<Map<String, Value>>,
    /// Content addresses (`sha256:<hex>`) the write supersedes: in the fixture before, gone
    /// from the current view after.
    pub superseded: Vec<String>,
}

/// A streamed delivery of an ASSEMBLE's events (the execute request's `stream`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamRequest {
    /// Cancel once this many events were delivered (at least 1).
    pub cancel_after: u64,
}

/// How a streamed delivery must end (`expect.stream_end`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamEnd {
    /// The type of the last event delivered (`cancelled`, `error`, `assembly_completed`).
    pub event: String,
    /// The code reported for it, in that event or the response (`CAL-E082`).
    pub code: Option<String>,
    /// The codes of the `error` events the stream carries before its end, as a set: an error
    /// about one grain (CAL-E080) does not end a stream (ruling C27).
    pub errors: Vec<String>,
}

/// The expected outcome of an execute request.
#[derive(Debug, Clone, Default)]
pub struct ExecuteExpect {
    /// Content addresses (`sha256:<hex>`) of the results.
    pub results: Option<Vec<String>>,
    /// Whether `results` is compared in order.
    pub ordered: bool,
    /// The expected total.
    pub total: Option<u64>,
    /// Expected warning codes (compared as a set).
    pub warnings: Option<Vec<String>>,
    /// The expected error code instead of results.
    pub error: Option<String>,
    /// Response fields not compared (informational in our comparison).
    pub ignore: Vec<String>,
    /// JSON pointer into the response → expected value.
    pub fields: Map<String, Value>,
    /// Checks of rendered output by invariant (what the spec fixes without fixing the bytes:
    /// a formatted text contains each grain's projected content and no content address).
    pub invariants: Vec<Invariant>,
    /// How the stream of a `stream` request ends.
    pub stream_end: Option<StreamEnd>,
    /// What each of the session's `then` queries must answer, in order.
    pub then: Vec<ExecuteExpect>,
    /// The store change the query itself makes (a Tier 1 write), checked by reading back.
    pub store_change: Option<StoreChange>,
}

/// One invariant an execute response must satisfy: a rule applied to the value at a JSON
/// pointer. Rendered output (formats, PROJECT, EXPLAIN, DESCRIBE) is checked this way where the
/// spec fixes what it says but not how it is laid out, so a correct independent engine can pass
/// (docs/spec-decisions-conformance.md C18).
#[derive(Debug, Clone, PartialEq)]
pub struct Invariant {
    /// JSON pointer into the response; `""` is the whole response without `_cal`.
    pub pointer: String,
    /// What must hold of the value there.
    pub rule: Rule,
    /// The spec section the invariant comes from, when not the case's own.
    pub section: Option<String>,
    /// The project ruling it comes from instead, which makes it a ruling check (never gating).
    pub ruling: Option<String>,
}

/// The rule of an [`Invariant`].
#[derive(Debug, Clone, PartialEq)]
pub enum Rule {
    /// The string contains each of these.
    Contains(Vec<String>),
    /// The string contains none of these (a missing value contains nothing).
    Excludes(Vec<String>),
    /// Each is an object key or a string value somewhere in the value.
    Mentions(Vec<String>),
    /// The string is a JSON document.
    ParsesAsJson,
    /// The value has this shape.
    Is(Shape),
    /// The value shows these changes between two versions (HISTORY … DIFF, §8.4): some part of
    /// it — outside a whole response's `results` — names every changed field and holds both
    /// its values, and names none of the fields listed as unchanged ([`Changes`]).
    Changes(Changes),
}

/// The changes a DIFF must show ([`Rule::Changes`]; ruling C33).
#[derive(Debug, Clone, PartialEq)]
pub struct Changes {
    /// Field name → its two values (in either order: which version is "from" is not judged).
    pub changed: Vec<(String, Value, Value)>,
    /// Fields equal in both versions, which the part showing the changes must not name.
    pub unchanged: Vec<String>,
}

impl Rule {
    /// The rule's name in case files and reports.
    pub fn name(&self) -> &'static str {
        match self {
            Rule::Contains(_) => "contains",
            Rule::Excludes(_) => "excludes",
            Rule::Mentions(_) => "mentions",
            Rule::ParsesAsJson => "parses_as",
            Rule::Is(_) => "is",
            Rule::Changes(_) => "changes",
        }
    }
}

/// A shape an [`Invariant`] can require.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A JSON object.
    Object,
    /// A JSON array.
    Array,
    /// A JSON string.
    String,
    /// Absent, null, or an empty array, object or string.
    Empty,
}

impl Shape {
    /// The shape's name in case files (`is`) and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Shape::Object => "object",
            Shape::Array => "array",
            Shape::String => "string",
            Shape::Empty => "empty",
        }
    }
}

/// An OMS codec case.
#[derive(Debug, Clone)]
pub enum MgCase {
    /// Grain → its one canonical blob and address.
    Encode {
        /// The grain in OMS JSON form.
        grain: Value,
        /// The canonical blob, lowercase hex.
        hex: String,
        /// The content address (64 hex).
        address: String,
    },
    /// Blob → the grain it holds.
    Decode {
        /// The blob, hex.
        hex: String,
        /// The expected grain value.
        grain: Value,
        /// The expected address, when pinned.
        address: Option<String>,
    },
    /// Blob → rejected with an `ERR_*` code.
    Reject {
        /// The blob, hex.
        hex: String,
        /// The expected `ERR_*` code.
        error: String,
    },
}
