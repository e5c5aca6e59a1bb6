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
    pub name: String,
    /// Where.
    pub span: Span,
}

/// The twelve statements of CAL/1 (§2.1). Exhaustive matches over this enum are
/// the proof that no code path leads to a destructive operation.
#[derive(Debug, Clone, PartialEq)]
pub enum Statement {
    /// RECALL (§8.1).
    Recall(Recall),
    /// ASSEMBLE (§8.2).
    Assemble(Assemble),
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

/// A string literal, NFC-normalized, escapes resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StringLit {
    /// The value.
    pub value: String,
    /// Where, including the quotes.
    pub span: Span,
}

/// A non-negative integer literal (`positive_integer` in the EBNF).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IntLit {
    /// The value.
    pub value: u64,
    /// Where.
    pub span: Span,
}

/// A number literal; integers and decimals stay distinct so both wire forms round-trip.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number {
    /// Written without a decimal point.
    Int(i64),
    /// Written with a decimal point.
    Float(f64),
}

impl Number {
    /// The numeric value.
    pub fn as_f64(self) -> f64 {
        match self {
            Number::Int(i) => i as f64,
            Number::Float(f) => f,
        }
    }
}

/// A literal or parameter in a condition, SET clause or extension argument.
#[derive(Debug, Clone, PartialEq)]
pub struct Value {
    /// What kind of value.
    pub kind: ValueKind,
    /// Where.
    pub span: Span,
}

/// The value forms of §3.4.
#[derive(Debug, Clone, PartialEq)]
pub enum ValueKind {
    /// `"…"`.
    String(String),
    /// `42`, `-0.5`.
    Number(Number),
    /// `true` / `false`.
    Bool(bool),
    /// `$name` — a bound parameter or a LET binding.
    Param(String),
    /// `[v, …]`.
    Array(Vec<Value>),
    /// `sha256:…`, stored as written after `sha256:`, lower-cased.
    Hash(String),
}

/// A grain type written in the query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GrainTypeRef {
    /// Which type.
    pub grain_type: GrainType,
    /// Where.
    pub span: Span,
}

/// A reference to a field by name (`subject`, `tool_name`, `hc:patient_id`).
/// Names are not resolved here: the checker does that against the grammar tables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldRef {
    /// The name as written.
    pub name: String,
    /// Where.
    pub span: Span,
}

/// A `sha256:` literal or a `$parameter` standing for one (EXISTS, HISTORY, SUPERSEDE, REVERT).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// Which form.
    pub kind: TargetKind,
    /// Where.
    pub span: Span,
}

/// The two forms of a [`Target`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TargetKind {
    /// Hex digits after `sha256:`, lower-cased.
    Hash(String),
    /// Parameter name without `$`.
    Param(String),
}

/// An integer or a `$parameter` (LIMIT, OFFSET).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IntOrParam {
    /// A literal.
    Int(IntLit),
    /// A parameter name without `$`, and its span.
    Param(String, Span),
}

/// RECALL (§8.1). Clauses are stored by kind; the printer emits them in the EBNF order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Recall {
    /// `MY`, when written.
    pub my: Option<Span>,
    /// `beliefs`, `events`, …
    pub grain_type: Option<GrainTypeRef>,
    /// `IN "ns"` / `IN SCOPE "s"`.
    pub scope: Option<InScope>,
    /// `ABOUT "…"`.
    pub about: Option<StringLit>,
    /// `LIKE "…"`.
    pub like: Option<StringLit>,
    /// `SINCE "…"`.
    pub since: Option<StringLit>,
    /// `BETWEEN a AND b`.
    pub between: Option<BetweenClause>,
    /// `THREAD "…"` / `THREAD FROM sha256:…`.
    pub thread: Option<Thread>,
    /// `WHERE c AND c …`.
    pub where_clause: Option<WhereClause>,
    /// `WITH option, …`.
    pub with: Option<WithClause>,
    /// `| STAGE …` in order (bare stages are normalized into here).
    pub pipeline: Vec<Stage>,
    /// `RECENT n`.
    pub recent: Option<IntLit>,
    /// `CONTRADICTIONS`.
    pub contradictions: Option<Span>,
    /// `AS format`.
    pub as_format: Option<FormatRef>,
    /// The whole statement.
    pub span: Span,
}

/// `IN "namespace"` or `IN SCOPE "scope"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InScope {
    /// True for `IN SCOPE "…"`.
    pub is_scope: bool,
    /// The namespace or scope.
    pub value: StringLit,
    /// Where.
    pub span: Span,
}

/// The `BETWEEN a AND b` shortcut (§9.7).
#[derive(Debug, Clone, PartialEq)]
pub struct BetweenClause {
    /// Lower bound.
    pub low: Value,
    /// Upper bound.
    pub high: Value,
    /// Where.
    pub span: Span,
}

/// `THREAD` shorthand (§8.1.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thread {
    /// Which form.
    pub kind: ThreadKind,
    /// Where.
    pub span: Span,
}

/// The two THREAD forms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ThreadKind {
    /// `THREAD "session-id"`.
    Session(StringLit),
    /// `THREAD FROM sha256:…`.
    From(Target),
}

/// `WHERE c AND c …`.
#[derive(Debug, Clone, PartialEq)]
pub struct WhereClause {
    /// The conditions, all of which must hold.
    pub conditions: Vec<Condition>,
    /// Where, from `WHERE` to the last condition.
    pub span: Span,
}

/// One condition of a WHERE clause: a field and a test.
#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    /// The field tested.
    pub field: FieldRef,
    /// The test.
    pub test: Test,
    /// The whole condition.
    pub span: Span,
}

/// The tests a condition can apply (§4 `condition`), independent of the field;
/// which field allows which test is the checker's business (§5.2, Appendix E).
#[derive(Debug, Clone, PartialEq)]
pub enum Test {
    /// `field op value`.
    Compare {
        /// The operator.
        op: Comparator,
        /// Where the operator is.
        op_span: Span,
        /// The right-hand side.
        value: Value,
    },
    /// `field IN (v, …)`.
    InList(Vec<Value>),
    /// `field IN (RECALL … | EXTRACTOR)`.
    InSubquery(Box<Recall>),
    /// `field BETWEEN a AND b`.
    Between {
        /// Lower bound.
        low: Value,
        /// Upper bound.
        high: Value,
    },
    /// `tags INCLUDE [..]`.
    Include(Value),
    /// `tags EXCLUDE [..]`.
    Exclude(Value),
    /// `relation IS CATEGORY`.
    IsCategory(RelationCategory, Span),
}

/// `WITH option, …`.
#[derive(Debug, Clone, PartialEq)]
pub struct WithClause {
    /// The options in order.
    pub options: Vec<WithOption>,
    /// Where.
    pub span: Span,
}

/// One WITH option.
#[derive(Debug, Clone, PartialEq)]
pub struct WithOption {
    /// Which option, with its arguments.
    pub kind: WithKind,
    /// Where.
    pub span: Span,
}

/// The WITH options of §4 `with_option`, plus `iso_timestamps` (§10.3.4) and `x_` extensions (§25.2).
#[derive(Debug, Clone, PartialEq)]
pub enum WithKind {
    /// Include superseded versions.
    Superseded,
    /// Per-component scores.
    ScoreBreakdown,
    /// Why each result matched.
    Explanation,
    /// Provenance chains.
    Provenance,
    /// Flag contradicting grains.
    ContradictionDetection,
    /// Summarize results.
    Summarize,
    /// Absolute timestamps instead of "3h ago" (§10.3.4).
    IsoTimestamps,
    /// `progressive_disclosure` or `progressive_disclosure(level)`.
    ProgressiveDisclosure(Option<(DisclosureLevel, Span)>),
    /// `diversity(…)`.
    Diversity(Diversity),
    /// `consistency(…)`.
    Consistency(Consistency),
    /// `dedup(field)`.
    Dedup(FieldRef),
    /// `locale("de")`.
    Locale(StringLit),
    /// `cache(ttl = n)`.
    Cache(IntLit),
    /// `x_name` or `x_name(v, …)`.
    Extension {
        /// The full name including `x_`.
        name: String,
        /// The arguments, when parentheses were written.
        args: Option<Vec<Value>>,
    },
}

/// `diversity(mmr[, lambda = x])` or `diversity(threshold, x)`.
#[derive(Debug, Clone, PartialEq)]
pub enum Diversity {
    /// Maximal marginal relevance with an optional lambda.
    Mmr(Option<(Number, Span)>),
    /// Similarity threshold.
    Threshold(Number, Span),
}

/// `consistency(eventual | bounded(x) | linearizable)`.
#[derive(Debug, Clone, PartialEq)]
pub enum Consistency {
    /// Eventual.
    Eventual,
    /// Bounded staleness.
    Bounded(Number, Span),
    /// Linearizable.
    Linearizable,
}

/// One pipeline stage.
#[derive(Debug, Clone, PartialEq)]
pub struct Stage {
    /// Which stage.
    pub kind: StageKind,
    /// Where, excluding the `|`.
    pub span: Span,
}

/// The pipeline stages of §4 `pipe_stage`.
#[derive(Debug, Clone, PartialEq)]
pub enum StageKind {
    /// `SELECT f, …`.
    Select(Vec<FieldRef>),
    /// `ORDER BY f [ASC|DESC]`.
    OrderBy {
        /// The sort key.
        field: FieldRef,
        /// The direction, when written.
        direction: Option<SortDirection>,
    },
    /// `LIMIT n`.
    Limit(IntOrParam),
    /// `OFFSET n`.
    Offset(IntOrParam),
    /// `COUNT`.
    Count,
    /// `FIRST`.
    First,
    /// `SUBJECTS` / `OBJECTS` / `HASHES`.
    Extract(Extractor),
    /// `GROUP BY f`.
    GroupBy(FieldRef),
    /// `PROJECT content(…), attr(…)`.
    Project(Vec<ProjectSpec>),
}

/// `content(f, …)` or `attr(f, …)` inside PROJECT (§10.3.5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectSpec {
    /// True for `attr(…)`, false for `content(…)`.
    pub is_attr: bool,
    /// The fields.
    pub fields: Vec<FieldRef>,
    /// Where.
    pub span: Span,
}

/// A format written after `AS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FormatRef {
    /// Which format or preset.
    pub format: FormatName,
    /// Where.
    pub span: Span,
}

/// ASSEMBLE (§8.2).
#[derive(Debug, Clone, PartialEq)]
pub struct Assemble {
    /// The context name.
    pub name: Option<Ident>,
    /// `FOR "intent"`.
    pub intent: Option<StringLit>,
    /// `FROM source, …`.
    pub sources: Vec<Source>,
    /// `BUDGET n unit`.
    pub budget: Option<Budget>,
    /// `PRIORITY a > b > …`.
    pub priority: Option<Priority>,
    /// `FORMAT …`.
    pub format: Option<FormatSpec>,
    /// `STREAM [{ … }]`.
    pub stream: Option<Stream>,
    /// `WITH …`.
    pub with: Option<WithClause>,
    /// The whole statement.
    pub span: Span,
}

/// One ASSEMBLE source.
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    /// `label:`, when written.
    pub label: Option<Ident>,
    /// The query or LET reference.
    pub body: SourceBody,
    /// Where.
    pub span: Span,
}

/// What a source draws from.
// Sources are few (at most 8) and built once; see `QueryBody`.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum SourceBody {
    /// `(RECALL …)`.
    Recall(Recall),
    /// `$name` (also accepted as `($name)`).
    LetRef(Ident),
}

/// `BUDGET n tokens|grains`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// The amount.
    pub amount: IntLit,
    /// The unit.
    pub unit: BudgetUnit,
    /// Where.
    pub span: Span,
}

/// `PRIORITY a > b > …`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Priority {
    /// Labels, highest priority first.
    pub labels: Vec<Ident>,
    /// Where.
    pub span: Span,
}

/// `FORMAT …` (§4 `format_spec`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatSpec {
    /// Which form.
    pub kind: FormatKind,
    /// Where.
    pub span: Span,
}

/// The forms of a format spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormatKind {
    /// A format type or preset.
    Named(FormatName),
    /// `TEMPLATE name`.
    Template(Ident),
    /// `TEMPLATE { sections }`.
    Inline(TemplateBody),
}

/// `STREAM` with its options (empty = bare `STREAM`, all events).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stream {
    /// The options in order.
    pub options: Vec<StreamOption>,
    /// Where.
    pub span: Span,
}

/// One stream option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamOption {
    /// Which option.
    pub kind: StreamOptionKind,
    /// Where.
    pub span: Span,
}

/// The stream options of §11.2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamOptionKind {
    /// An event group.
    Events(StreamEvents),
    /// `chunk_size = n`.
    ChunkSize(IntLit),
}

/// The sections of a template (§10.6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateBody {
    /// Sections in source order (duplicates are kept for the checker to report).
    pub sections: Vec<TemplateSection>,
    /// Where.
    pub span: Span,
}

/// `HEADER { … }` and friends. The text between the braces is kept verbatim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateSection {
    /// Which section.
    pub kind: TemplateSectionKind,
    /// The raw template text between the braces.
    pub text: String,
    /// Where the text is (inside the braces).
    pub text_span: Span,
    /// The whole section.
    pub span: Span,
}

/// `(a) OP (b)` (§8.11). Chains nest to the left: `(a) UNION (b) EXCEPT (c)` is `((a) UNION (b)) EXCEPT (c)`.
#[derive(Debug, Clone, PartialEq)]
pub struct SetOp {
    /// Left operand.
    pub left: Box<Statement>,
    /// The operator.
    pub op: SetOperator,
    /// Where the operator is.
    pub op_span: Span,
    /// Right operand.
    pub right: Box<Statement>,
    /// The whole expression.
    pub span: Span,
}

/// EXISTS (§8.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exists {
    /// The grain asked about.
    pub target: Target,
    /// Where.
    pub span: Span,
}

/// HISTORY (§8.4).
#[derive(Debug, Clone, PartialEq)]
pub struct History {
    /// Which form.
    pub kind: HistoryKind,
    /// Where.
    pub span: Span,
}

/// The two HISTORY forms.
#[derive(Debug, Clone, PartialEq)]
pub enum HistoryKind {
    /// `HISTORY sha256:… [DIFF sha256:…]`.
    Hash {
        /// The grain whose chain is walked.
        target: Target,
        /// The other version to diff against.
        diff: Option<Target>,
    },
    /// `HISTORY [IN …] WHERE subject = v AND relation = v [AS OF "…"]`.
    Triple {
        /// Namespace or scope restriction.
        scope: Option<InScope>,
        /// The subject.
        subject: Value,
        /// The relation.
        relation: Value,
        /// `AS OF "date"`.
        as_of: Option<StringLit>,
    },
}

/// EXPLAIN (§8.5).
#[derive(Debug, Clone, PartialEq)]
pub struct Explain {
    /// The statement to plan.
    pub statement: Box<Statement>,
    /// Where.
    pub span: Span,
}

/// DESCRIBE (§8.6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Describe {
    /// What to describe.
    pub target: DescribeTarget,
    /// Where the target word is.
    pub target_span: Span,
    /// `DESCRIBE fields belief`.
    pub grain_type: Option<GrainTypeRef>,
    /// Where.
    pub span: Span,
}

/// BATCH (§8.7).
#[derive(Debug, Clone, PartialEq)]
pub struct Batch {
    /// The entries in order.
    pub entries: Vec<BatchEntry>,
    /// Where.
    pub span: Span,
}

/// `label: statement` inside BATCH.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchEntry {
    /// The result slot's name.
    pub label: Ident,
    /// The statement (the checker restricts which kinds).
    pub statement: Statement,
    /// Where.
    pub span: Span,
}

/// COALESCE (§8.13).
#[derive(Debug, Clone, PartialEq)]
pub struct Coalesce {
    /// The branches, tried left to right.
    pub branches: Vec<Recall>,
    /// Where.
    pub span: Span,
}

/// `SET field = value`.
#[derive(Debug, Clone, PartialEq)]
pub struct SetClause {
    /// The field.
    pub field: FieldRef,
    /// The new value.
    pub value: Value,
    /// Where.
    pub span: Span,
}

/// ADD (§8.8).
#[derive(Debug, Clone, PartialEq)]
pub struct Add {
    /// The type of grain to create.
    pub grain_type: GrainTypeRef,
    /// The SET clauses.
    pub sets: Vec<SetClause>,
    /// `REASON "…"` (mandatory; the checker reports CAL-E018 when absent).
    pub reason: Option<StringLit>,
    /// Where.
    pub span: Span,
}

/// SUPERSEDE (§8.9).
#[derive(Debug, Clone, PartialEq)]
pub struct Supersede {
    /// The grain to supersede.
    pub target: Target,
    /// The SET clauses.
    pub sets: Vec<SetClause>,
    /// `REASON "…"`.
    pub reason: Option<StringLit>,
    /// Where.
    pub span: Span,
}

/// REVERT (§8.10).
#[derive(Debug, Clone, PartialEq)]
pub struct Revert {
    /// The grain to revert.
    pub target: Target,
    /// `REASON "…"`.
    pub reason: Option<StringLit>,
    /// Where.
    pub span: Span,
}

/// DEFINE TEMPLATE (§10.6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DefineTemplate {
    /// The template's name.
    pub name: Ident,
    /// `EXTENDS preset` (or a template name, which the checker rejects with CAL-E087).
    pub extends: Option<Ident>,
    /// The sections.
    pub body: TemplateBody,
    /// Where.
    pub span: Span,
}
