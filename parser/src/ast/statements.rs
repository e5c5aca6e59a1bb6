//! The other statements: set operations, EXISTS, HISTORY, EXPLAIN, DESCRIBE, BATCH,
//! COALESCE, the Tier 1 statements, and DEFINE TEMPLATE.

use super::*;

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
