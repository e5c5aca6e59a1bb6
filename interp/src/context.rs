//! What a running statement works with: the [`Ctx`] every module receives
//! (facade, configuration, options, LET bindings, deadline, counters), the
//! retrieved [`Row`], the LET value [`Bound`] and the [`Deadline`].
//!
//! These types live apart from dispatch ([`crate::dispatch`]) and from the
//! [`crate::Interpreter`] so that every statement module depends on them and
//! nothing here depends back on a statement module.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use cal_grammar::{Code, Diagnostic, Span};
use oms::ContentAddress;
use oms::store::Hit;
use serde_json::{Map, Value as Json};

use crate::config::{ExecOptions, InterpConfig};
use crate::facade::ReadFacade;
use crate::stream::Emitter;

/// A retrieved grain and what WITH options added to it.
#[derive(Debug, Clone)]
pub struct Row {
    /// The store's hit: grain, address, score, matched fields, index state.
    pub hit: Hit,
    /// Annotations (`score_breakdown`, `explanation`, `provenance`, `contradictions`).
    pub notes: Map<String, Json>,
}

impl Row {
    /// A row without annotations.
    pub fn new(hit: Hit) -> Self {
        Row { hit, notes: Map::new() }
    }
}

/// The value of an evaluated LET binding (§8.12).
#[derive(Debug, Clone)]
pub enum Bound {
    /// Grains (no extractor).
    Rows(Vec<Row>),
    /// Values (`| SUBJECTS`, `| OBJECTS`, `| HASHES`).
    Values(Vec<String>),
}

/// What one ASSEMBLE source resolved to (also read by the stream's checkpoints).
pub enum Resolved {
    /// Grains, and the matches before LIMIT.
    Rows(Vec<Row>, usize),
    /// Values (`| SUBJECTS`, COUNT …).
    Values(Vec<String>),
    /// The source failed; its budget goes to the others.
    Failed(Diagnostic),
}

/// The query timeout, checked between steps (§17.3, CAL-E031). A single store
/// operation is not interrupted; the check runs before and after each.
#[derive(Debug, Clone)]
pub struct Deadline {
    start: Instant,
    limit: Duration,
    code: Code,
    cancel: Option<crate::stream::CancelToken>,
}

impl Deadline {
    /// A deadline `ms` from now, reported with `code` (E031, or E075 for ASSEMBLE).
    pub fn new(ms: u64, code: Code) -> Self {
        Deadline { start: Instant::now(), limit: Duration::from_millis(ms), code, cancel: None }
    }

    /// The same deadline, also ended early by `cancel` ([`crate::ExecOptions::cancel`]):
    /// every place that looks at the clock then stops the query.
    pub fn with_cancel(mut self, cancel: Option<crate::stream::CancelToken>) -> Self {
        self.cancel = cancel;
        self
    }

    /// CAL-E031 (or E075) once the time is up; CAL-E082 once cancelled.
    pub fn check(&self) -> Result<(), Diagnostic> {
        if let Some(c) = self.cancel.as_ref().filter(|c| c.is_cancelled()) {
            let why = c.reason().unwrap_or_else(|| "cancelled".into());
            return Err(Diagnostic::new(Code::E082, Span::default(), format!("The query was cancelled: {why}."))
                .with_suggestion("Run it again to get its answer; narrow it if it takes too long."));
        }
        if self.start.elapsed() >= self.limit {
            return Err(self.exceeded());
        }
        Ok(())
    }

    /// The time left before the deadline (zero once it has passed).
    pub fn remaining(&self) -> Duration {
        self.limit.saturating_sub(self.start.elapsed())
    }

    /// The CAL-E031 (or E075) of this deadline.
    pub fn exceeded(&self) -> Diagnostic {
        let what = if self.code == Code::E075 { "ASSEMBLE" } else { "The query" };
        Diagnostic::new(
            self.code,
            Span::default(),
            format!("{what} exceeded its time limit of {} ms.", self.limit.as_millis()),
        )
        .with_suggestion("Narrow the query: add a WHERE condition on subject, relation or type, or lower LIMIT.")
    }

    /// The instant the time is up, for the store's own loops ([`oms::interrupt`]).
    pub fn at(&self) -> Instant {
        self.start + self.limit
    }

    /// A store error as the query reports it: the deadline's code when the store stopped
    /// for it ([`oms::error::OmsError::Interrupted`]), otherwise an internal error.
    pub fn store_error(&self, span: Span, e: &oms::error::OmsError) -> Diagnostic {
        match e {
            oms::error::OmsError::Interrupted => self.exceeded(),
            _ => bug(span, &format!("store error: {e}")),
        }
    }

    /// Milliseconds since the start.
    pub fn elapsed_ms(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX)
    }
}

/// What an execution counted, for the envelope's `budget` (§14.1).
#[derive(Debug, Clone, Default)]
pub struct Stats {
    /// Store operations performed.
    pub store_ops: u64,
    /// Grains the store matched or read.
    pub scanned: u64,
    /// Grains in the response.
    pub returned: u64,
    /// Estimated tokens of the returned grains' projected content.
    pub tokens: u64,
    /// Warnings raised while running (CAL-W004 for an unsupported locale, …).
    pub warnings: Vec<Diagnostic>,
    /// Remarks (no-op options, overwritten namespaces, …).
    pub notes: Vec<String>,
}

impl Stats {
    /// Adds a remark once.
    pub fn note(&mut self, s: impl Into<String>) {
        let s = s.into();
        if !self.notes.contains(&s) {
            self.notes.push(s);
        }
    }

    /// Adds a warning once.
    pub fn warn(&mut self, d: Diagnostic) {
        if !self.warnings.iter().any(|w| w.code == d.code && w.span == d.span) {
            self.warnings.push(d);
        }
    }
}

/// Everything a running statement needs.
pub struct Ctx<'a> {
    /// The store, reads only.
    pub facade: &'a dyn ReadFacade,
    /// Deployment settings.
    pub config: &'a InterpConfig,
    /// This execution's inputs.
    pub opts: &'a ExecOptions,
    /// Evaluated LET bindings.
    pub lets: BTreeMap<String, Bound>,
    /// The timeout.
    pub deadline: Deadline,
    /// Counters for the envelope.
    pub stats: Stats,
    /// SHA-256 of the canonical query text, `sha256:…`.
    pub query_hash: String,
    /// The event stream of a streamed ASSEMBLE (§11), when the caller asked for one.
    pub(crate) stream: Option<Emitter<'a>>,
}

impl Ctx<'_> {
    /// Whether a grain may be seen: always, unless a token namespace confines
    /// the request (§18.3) and the grain lives elsewhere.
    pub fn visible(&self, namespace: Option<&str>) -> bool {
        self.config.namespace.as_deref().is_none_or(|ns| namespace == Some(ns))
    }

    /// Up to `max` visible grains whose address starts with `hex` (8–64 hex digits).
    pub fn resolve_visible(&self, hex: &str, max: usize) -> Vec<ContentAddress> {
        if self.config.namespace.is_none() {
            return self.facade.resolve_prefix(hex, max);
        }
        self.facade
            .resolve_prefix(hex, max.saturating_mul(32).max(64))
            .into_iter()
            .filter(|a| self.facade.get(a).is_some_and(|s| self.visible(s.grain().namespace())))
            .take(max)
            .collect()
    }
}

/// An internal invariant failed: reported, never a panic.
pub fn bug(span: Span, what: &str) -> Diagnostic {
    Diagnostic::new(
        Code::E021,
        span,
        format!("Internal error: {what}. This is a bug in the CAL toolchain, please report it."),
    )
}
