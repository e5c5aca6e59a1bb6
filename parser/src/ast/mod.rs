//! The typed CAL/1 abstract syntax tree.
//!
//! Every node carries the byte [`Span`] of the source it came from. The tree
//! is the hub of the bijection between `text/cal` and `application/json+cal`:
//! the printer and the JSON encoder are total functions of it, and both
//! parsers produce it. Spans are the only thing the two forms do not share
//! (trees built from JSON have empty spans), so structural comparisons use
//! [`crate::json::to_value`] or the printed text.
//!
//! The [`Statement`] enum has exactly the spec's twelve variants (§2.1): no
//! node of this tree can express a destructive operation. `DEFINE TEMPLATE`
//! registers a rendering template rather than reading or evolving memory, so
//! it is a separate [`QueryBody`] alternative, not a thirteenth statement.

pub use cal_grammar::{
    BudgetUnit, Comparator, ConsistencyKind, DescribeTarget, DisclosureLevel, Extractor, FormatName, GrainType,
    RelationCategory, SetOperator, SortDirection, Span, StreamEvents, TemplateSectionKind,
};

/// Text held by the tree (names, literals, parameters, hashes). Inline up to
/// 24 bytes, so the short names and values of a typical query cost no heap
/// allocation; it dereferences to `str` like a `String` would.
pub type Text = compact_str::CompactString;

mod assemble;
mod literals;
mod recall;
mod statements;

pub use assemble::*;
pub use literals::*;
pub use recall::*;
pub use statements::*;

/// A `.cal` document: queries separated by `;` (docs/spec-decisions.md, "documents").
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    /// The queries in source order.
    pub queries: Vec<Query>,
}

/// One complete request: optional version prefix, LET bindings, and a body (§4 `query`).
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    /// `CAL/1`, when written.
    pub version: Option<Version>,
    /// `LET $name = RECALL …;` bindings, in declaration order.
    pub lets: Vec<LetBinding>,
    /// The statement (or template definition).
    pub body: QueryBody,
    /// The whole query.
    pub span: Span,
}

/// The `CAL/n` prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Version {
    /// The major version `n`; only 1 is supported (CAL-E100 otherwise).
    pub major: u32,
    /// Where it was written.
    pub span: Span,
}

/// What a query does: one of the twelve statements, or a template definition.
// A query holds one body, built once per parse: boxing the larger variant would
// only add an allocation to the hot path.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum QueryBody {
    /// A statement that reads or evolves memory.
    Statement(Statement),
    /// `DEFINE TEMPLATE …` (§10.6).
    DefineTemplate(DefineTemplate),
}

/// `LET $name = RECALL … [| EXTRACTOR];` (§8.12). A trailing extractor is the last pipeline stage.
#[derive(Debug, Clone, PartialEq)]
pub struct LetBinding {
    /// The bound name, without `$`.
    pub name: Ident,
    /// The query whose result is bound.
    pub recall: Recall,
    /// The whole binding including `;`.
    pub span: Span,
}

/// A user-chosen name: a label, context name, template name or LET name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ident {
    /// The name as written (without `$` for LET names).
    pub name: Text,
    /// Where.
    pub span: Span,
}

/// The twelve statements of CAL/1 (§2.1). Exhaustive matches over this enum are
/// the proof that no code path leads to a destructive operation.
#[derive(Debug, Clone, PartialEq)]
pub enum Statement {
    /// RECALL (§8.1).
    Recall(Box<Recall>),
    /// ASSEMBLE (§8.2).
    Assemble(Box<Assemble>),
    /// UNION / INTERSECT / EXCEPT (§8.11).
    SetOp(SetOp),
    /// EXISTS (§8.3).
    Exists(Exists),
    /// HISTORY (§8.4).
    History(History),
    /// EXPLAIN (§8.5).
    Explain(Explain),
    /// DESCRIBE (§8.6).
    Describe(Describe),
    /// BATCH (§8.7).
    Batch(Batch),
    /// ADD (§8.8, Tier 1).
    Add(Add),
    /// SUPERSEDE (§8.9, Tier 1).
    Supersede(Supersede),
    /// REVERT (§8.10, Tier 1).
    Revert(Revert),
    /// COALESCE (§8.13).
    Coalesce(Coalesce),
}

impl Statement {
    /// The source span of the statement.
    pub fn span(&self) -> Span {
        match self {
            Statement::Recall(s) => s.span,
            Statement::Assemble(s) => s.span,
            Statement::SetOp(s) => s.span,
            Statement::Exists(s) => s.span,
            Statement::History(s) => s.span,
            Statement::Explain(s) => s.span,
            Statement::Describe(s) => s.span,
            Statement::Batch(s) => s.span,
            Statement::Add(s) => s.span,
            Statement::Supersede(s) => s.span,
            Statement::Revert(s) => s.span,
            Statement::Coalesce(s) => s.span,
        }
    }

    /// The lower-case statement name used by the JSON form and the response envelope.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Statement::Recall(_) => "recall",
            Statement::Assemble(_) => "assemble",
            Statement::SetOp(_) => "set_op",
            Statement::Exists(_) => "exists",
            Statement::History(_) => "history",
            Statement::Explain(_) => "explain",
            Statement::Describe(_) => "describe",
            Statement::Batch(_) => "batch",
            Statement::Add(_) => "add",
            Statement::Supersede(_) => "supersede",
            Statement::Revert(_) => "revert",
            Statement::Coalesce(_) => "coalesce",
        }
    }

    /// Tier 1 statements evolve memory and need the Evolve capability (§2.2).
    pub fn is_tier1(&self) -> bool {
        matches!(self, Statement::Add(_) | Statement::Supersede(_) | Statement::Revert(_))
    }
}
