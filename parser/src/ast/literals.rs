//! Literals, values, names and references: the leaves of the tree.

use super::*;

/// A string literal, NFC-normalized, escapes resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StringLit {
    /// The value.
    pub value: Text,
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
    String(Text),
    /// `42`, `-0.5`.
    Number(Number),
    /// `true` / `false`.
    Bool(bool),
    /// `$name` — a bound parameter or a LET binding.
    Param(Text),
    /// `[v, …]`.
    Array(Vec<Value>),
    /// `sha256:…`: the hex digits after `sha256:` as written (lower-case unless the lexer
    /// reported CAL-E015, `cal_grammar::hash`).
    Hash(Text),
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
    pub name: Text,
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
    /// Hex digits after `sha256:` as written (lower-case unless the lexer reported CAL-E015).
    Hash(Text),
    /// Parameter name without `$`.
    Param(Text),
}

/// An integer or a `$parameter` (LIMIT, OFFSET).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IntOrParam {
    /// A literal.
    Int(IntLit),
    /// A parameter name without `$`, and its span.
    Param(Text, Span),
}
