//! RECALL and its clauses: conditions, WITH options, pipeline stages, formats.

use super::*;

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
        name: Text,
        /// The arguments, when parentheses were written.
        args: Option<Vec<Value>>,
    },
}

impl WithKind {
    /// The option's name in the grammar's table, `None` for an `x_` extension. The text
    /// syntax, the printer and the JSON codec spell options through it, so an option's
    /// spelling lives only in `cal_grammar`.
    pub fn name(&self) -> Option<cal_grammar::WithOptionName> {
        use cal_grammar::WithOptionName as N;
        Some(match self {
            WithKind::Superseded => N::Superseded,
            WithKind::ScoreBreakdown => N::ScoreBreakdown,
            WithKind::Explanation => N::Explanation,
            WithKind::Provenance => N::Provenance,
            WithKind::ContradictionDetection => N::ContradictionDetection,
            WithKind::Summarize => N::Summarize,
            WithKind::IsoTimestamps => N::IsoTimestamps,
            WithKind::ProgressiveDisclosure(_) => N::ProgressiveDisclosure,
            WithKind::Diversity(_) => N::Diversity,
            WithKind::Consistency(_) => N::Consistency,
            WithKind::Dedup(_) => N::Dedup,
            WithKind::Locale(_) => N::Locale,
            WithKind::Cache(_) => N::Cache,
            WithKind::Extension { .. } => return None,
        })
    }

    /// The flag an option name stands for alone, `None` for an option that takes an argument.
    pub fn flag(name: cal_grammar::WithOptionName) -> Option<WithKind> {
        use cal_grammar::WithOptionName as N;
        Some(match name {
            N::Superseded => WithKind::Superseded,
            N::ScoreBreakdown => WithKind::ScoreBreakdown,
            N::Explanation => WithKind::Explanation,
            N::Provenance => WithKind::Provenance,
            N::ContradictionDetection => WithKind::ContradictionDetection,
            N::Summarize => WithKind::Summarize,
            N::IsoTimestamps => WithKind::IsoTimestamps,
            N::ProgressiveDisclosure | N::Diversity | N::Consistency | N::Dedup | N::Locale | N::Cache => return None,
        })
    }
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

#[cfg(test)]
mod tests {
    use super::WithKind;
    use cal_grammar::WithOptionName;
    use cal_grammar::with::WithArgument;

    /// `WithKind::flag` and the grammar's argument table say the same thing.
    #[test]
    fn flags_are_the_options_without_an_argument() {
        for &name in WithOptionName::ALL {
            let flag = WithKind::flag(name);
            assert_eq!(flag.is_some(), name.argument() == WithArgument::None, "{name}");
            if let Some(f) = flag {
                assert_eq!(f.name(), Some(name));
            }
        }
    }
}
