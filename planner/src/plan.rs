//! The plan: what a statement will do, bounded before it runs (§1.2 "Bounded
//! execution", §13, §17.3). Built by [`crate::plan_query`], printed by EXPLAIN
//! ([`Plan::to_json`], [`Plan::to_text`]) and followed by the interpreter.

use cal_parser::ast::{
    BudgetUnit, DescribeTarget, Extractor, FieldRef, GrainType, Recall, SetOperator, StageKind, Target,
};

use crate::desugar::Desugared;

/// Minimum and maximum number of store-protocol operations (OMS §28.4) a step
/// performs, counted as §13 counts them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct OpBounds {
    /// At least this many operations.
    pub min: u64,
    /// At most this many operations.
    pub max: u64,
    /// Of `max`, how many are `query`/`search` operations, each of which may
    /// examine every grain of the store; the others (`get`, `exists`, chain
    /// steps) examine one grain each. Used for the work bound.
    pub scans: u64,
}

impl OpBounds {
    /// Exactly `n` point operations (get, exists, put, …).
    pub const fn points(n: u64) -> Self {
        OpBounds { min: n, max: n, scans: 0 }
    }

    /// Zero operations (compile-time only).
    pub const ZERO: OpBounds = OpBounds { min: 0, max: 0, scans: 0 };

    /// One `query` or `search`.
    pub const SCAN: OpBounds = OpBounds { min: 1, max: 1, scans: 1 };

    /// Both, one after the other.
    pub fn then(self, other: OpBounds) -> OpBounds {
        OpBounds {
            min: self.min.saturating_add(other.min),
            max: self.max.saturating_add(other.max),
            scans: self.scans.saturating_add(other.scans),
        }
    }

    /// `other` may or may not run after `self` (a fallback, a later COALESCE branch).
    pub fn maybe(self, other: OpBounds) -> OpBounds {
        OpBounds {
            min: self.min,
            max: self.max.saturating_add(other.max),
            scans: self.scans.saturating_add(other.scans),
        }
    }
}

/// The compile-time upper bound on work (§1.2): operations, grains returned,
/// and grains examined for a store of `N` grains.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkBound {
    /// Store operations, at most.
    pub store_ops_max: u64,
    /// Of those, `query`/`search` operations (each examines at most `N` grains).
    pub scan_ops_max: u64,
    /// Grains (or values, groups, counts) in the response, at most.
    pub rows_max: u64,
    /// Grains examined at most: `scan_ops_max × N + point operations`, when `N` is known.
    pub grains_examined_max: Option<u64>,
}

/// Which store operation a RECALL maps to (§13).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// Structured `query` (filters, sort, limit).
    Query,
    /// `search`: BM25 text relevance combined with the filters.
    Search,
}

impl Operation {
    /// The OMS §28.4 operation name.
    pub fn name(self) -> &'static str {
        match self {
            Operation::Query => "query",
            Operation::Search => "search",
        }
    }
}

/// Which versions a RECALL sees (OMS §15.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewPlan {
    /// Current grains only: neither superseded nor contradicted (the default).
    Current,
    /// Current and contradicted grains, not superseded ones: a condition
    /// `contradicted = true` (or CONTRADICTIONS) asks for contradicted grains,
    /// which have left the current view (docs/spec-decisions-interp.md, V1).
    NotSuperseded,
    /// Every version (`WITH superseded`).
    All,
}

impl ViewPlan {
    /// The name EXPLAIN prints.
    pub fn name(self) -> &'static str {
        match self {
            ViewPlan::Current => "current",
            ViewPlan::NotSuperseded => "current_and_contradicted",
            ViewPlan::All => "all_versions",
        }
    }
}

/// Where the applied limit comes from (§17.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitSource {
    /// A `| LIMIT n` stage.
    Explicit,
    /// `RECENT n`.
    Recent,
    /// `| FIRST`.
    First,
    /// None written: the default of 20 (§17.3).
    Default,
    /// `| COUNT` counts every match; no grain is returned.
    Count,
    /// A limit written after an extractor or GROUP BY applies to values or groups.
    AfterReshape,
}

impl LimitSource {
    /// The name EXPLAIN prints.
    pub fn name(self) -> &'static str {
        match self {
            LimitSource::Explicit => "explicit",
            LimitSource::Recent => "recent",
            LimitSource::First => "first",
            LimitSource::Default => "default",
            LimitSource::Count => "count",
            LimitSource::AfterReshape => "after_reshape",
        }
    }
}

/// The limit a RECALL actually applies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimitPlan {
    /// The number of grains kept at most, when known at plan time.
    pub applied: Option<u64>,
    /// Why.
    pub source: LimitSource,
    /// The parameter that gives it, for `LIMIT $n` without a binding.
    pub param: Option<String>,
}

/// What a RECALL returns, decided by its last reshaping stage.
#[derive(Debug, Clone, PartialEq)]
pub enum Output {
    /// Grains in the OMS §28.1 envelope.
    Grains,
    /// `| SELECT f, …`: the chosen fields of each grain.
    Fields(Vec<String>),
    /// `| COUNT`: one number.
    Count,
    /// `| SUBJECTS` / `| OBJECTS` / `| HASHES`: distinct values.
    Values(Extractor),
    /// `| GROUP BY f`: grains grouped by a field.
    Groups(String),
}

/// One stage of the pipeline the interpreter runs.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanStage {
    /// The stage.
    pub kind: StageKind,
    /// True for the default `LIMIT 20` the planner inserted (§17.3).
    pub implicit: bool,
}

/// The plan of one RECALL.
#[derive(Debug, Clone, PartialEq)]
pub struct RecallPlan {
    /// The statement as written, in canonical text.
    pub written: String,
    /// The shortcut-free form and its fallback.
    pub desugared: Desugared,
    /// The canonical text of the desugared form.
    pub desugared_text: String,
    /// The store operation of the (primary) retrieval.
    pub operation: Operation,
    /// The versions it sees.
    pub view: ViewPlan,
    /// The pipeline the interpreter runs, default LIMIT inserted.
    pub stages: Vec<PlanStage>,
    /// The limit applied.
    pub limit: LimitPlan,
    /// What comes out.
    pub output: Output,
    /// Plans of `IN (RECALL … | EXTRACTOR)` subqueries, by field, in order; each runs once, first.
    pub subqueries: Vec<(FieldRef, RecallPlan)>,
    /// Store operations, subqueries and fallback included.
    pub ops: OpBounds,
    /// Grains (or values) returned at most.
    pub rows_max: u64,
}

impl RecallPlan {
    /// The shortcut-free statement the interpreter runs.
    pub fn recall(&self) -> &Recall {
        &self.desugared.recall
    }
}

/// A LET binding (§8.12): evaluated once, in declaration order.
#[derive(Debug, Clone, PartialEq)]
pub struct LetPlan {
    /// The name, without `$`.
    pub name: String,
    /// The bound query.
    pub recall: RecallPlan,
}

/// A hash or parameter target, as EXPLAIN shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TargetPlan {
    /// The target as written.
    pub target: Target,
    /// `sha256:…` or `$name`.
    pub text: String,
}

/// HISTORY (§8.4).
#[derive(Debug, Clone, PartialEq)]
pub enum HistoryPlan {
    /// `HISTORY sha256:… [DIFF sha256:…]`: get, then walk the chain (≤ 100 versions).
    Chain {
        /// The version whose ancestry is listed.
        target: TargetPlan,
        /// The version to compare with.
        diff: Option<TargetPlan>,
    },
    /// `HISTORY WHERE subject = … AND relation = … [AS OF …]`: one query with superseded versions.
    Triple {
        /// Subject, as written.
        subject: String,
        /// Relation, as written.
        relation: String,
        /// The AS OF expression.
        as_of: Option<String>,
        /// `IN "ns"`.
        namespace: Option<String>,
    },
}

/// What an ASSEMBLE source draws from.
#[derive(Debug, Clone, PartialEq)]
pub enum SourcePlan {
    /// `(RECALL …)`.
    Recall(Box<RecallPlan>),
    /// `$name`: a LET binding, already evaluated.
    Let(String),
}

/// ASSEMBLE (§8.2). Until the ASSEMBLE issue, sources are resolved and returned as they are.
#[derive(Debug, Clone, PartialEq)]
pub struct AssemblePlan {
    /// Context name.
    pub name: Option<String>,
    /// FOR intent.
    pub intent: Option<String>,
    /// Sources, labelled (an unlabelled source gets `source_<i>`), in FROM order.
    pub sources: Vec<(String, SourcePlan)>,
    /// BUDGET, or the §8.2 default (4000 tokens).
    pub budget: (u64, BudgetUnit),
    /// Labels in priority order (PRIORITY, else FROM order).
    pub priority: Vec<String>,
    /// The priority weights of §8.2 for that many sources.
    pub weights: Vec<f64>,
    /// `WITH dedup(field)`.
    pub dedup: Option<String>,
}

/// Which evolve statement (§8.8–§8.10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvolveKind {
    /// ADD.
    Add,
    /// SUPERSEDE.
    Supersede,
    /// REVERT.
    Revert,
}

/// A Tier 1 statement as a dry run: what it would do, never done by the planner.
#[derive(Debug, Clone, PartialEq)]
pub struct EvolvePlan {
    /// Which statement.
    pub kind: EvolveKind,
    /// The grain type created (ADD).
    pub grain_type: Option<GrainType>,
    /// The target (SUPERSEDE, REVERT).
    pub target: Option<TargetPlan>,
    /// `SET field = value`, as written.
    pub sets: Vec<(String, String)>,
    /// REASON.
    pub reason: Option<String>,
    /// The side effects, in order, in words.
    pub side_effects: Vec<String>,
}

/// One node of a plan.
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// RECALL.
    Recall(Box<RecallPlan>),
    /// UNION / INTERSECT / EXCEPT over two operands (§8.11).
    SetOp {
        /// The operator.
        op: SetOperator,
        /// Left operand.
        left: Box<Node>,
        /// Right operand.
        right: Box<Node>,
    },
    /// EXISTS (§8.3).
    Exists(TargetPlan),
    /// HISTORY (§8.4).
    History(HistoryPlan),
    /// EXPLAIN (§8.5): the plan of the explained statement; nothing runs.
    Explain(Box<Plan>),
    /// DESCRIBE (§8.6).
    Describe {
        /// What is described.
        target: DescribeTarget,
        /// `DESCRIBE fields <type>`.
        grain_type: Option<GrainType>,
    },
    /// BATCH (§8.7): one slot per entry.
    Batch(Vec<(String, Node)>),
    /// COALESCE (§8.13): branches tried left to right.
    Coalesce(Vec<RecallPlan>),
    /// ASSEMBLE (§8.2).
    Assemble(Box<AssemblePlan>),
    /// ADD / SUPERSEDE / REVERT (§8.8–§8.10).
    Evolve(Box<EvolvePlan>),
    /// `DEFINE TEMPLATE` (§10.6): a registration, not a statement.
    DefineTemplate(String),
}

/// The plan of one query.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// `recall`, `set_op`, `explain`, … (the envelope's `statement_type`).
    pub statement_type: &'static str,
    /// 0 for reads (EXPLAIN included), 1 for ADD/SUPERSEDE/REVERT.
    pub tier: u8,
    /// LET bindings, in evaluation order.
    pub lets: Vec<LetPlan>,
    /// The statement.
    pub root: Node,
    /// Store operations of the whole query (LETs included).
    pub ops: OpBounds,
    /// The work bound.
    pub work: WorkBound,
    /// Remarks: unresolved parameters, features not implemented yet, …
    pub notes: Vec<String>,
}

/// Grains one step returns at most (used for the work bound).
pub(crate) fn rows_of(node: &Node) -> u64 {
    match node {
        Node::Recall(r) => r.rows_max,
        Node::SetOp { op, left, right } => match op {
            SetOperator::Union => rows_of(left).saturating_add(rows_of(right)),
            SetOperator::Intersect => rows_of(left).min(rows_of(right)),
            SetOperator::Except => rows_of(left),
        },
        Node::Exists(_) => 1,
        Node::History(_) => cal_grammar::limits::MAX_HISTORY_VERSIONS as u64,
        Node::Explain(_) | Node::Describe { .. } | Node::DefineTemplate(_) => 0,
        Node::Batch(entries) => entries.iter().map(|(_, n)| rows_of(n)).fold(0u64, u64::saturating_add),
        Node::Coalesce(branches) => branches.iter().map(|b| b.rows_max).max().unwrap_or(0),
        Node::Assemble(a) => a
            .sources
            .iter()
            .map(|(_, s)| match s {
                SourcePlan::Recall(r) => r.rows_max,
                SourcePlan::Let(_) => cal_grammar::limits::MAX_LIMIT as u64,
            })
            .fold(0u64, u64::saturating_add),
        Node::Evolve(_) => 1,
    }
}
