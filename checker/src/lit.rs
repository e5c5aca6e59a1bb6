//! One view of a value, whether it was written in the query or bound to a
//! parameter as JSON, so that a literal and a bound value are judged by the
//! same code (and say the same things).

use cal_grammar::Span;
use cal_parser::ast::{Number, Value, ValueKind};

/// A value to check: a literal of the query, or the JSON bound to a parameter.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Lit<'a> {
    /// A string.
    Str(&'a str),
    /// A number written (or bound) without a fractional part.
    Int(i64),
    /// A number with a fractional part.
    Float(f64),
    /// `true` / `false`.
    Bool(bool),
    /// A `sha256:` literal: the hex digits.
    Hash(&'a str),
    /// An array, each element with its span (bound arrays share the parameter's span).
    Array(Vec<(Lit<'a>, Span)>),
    /// A `$name` written in the query (never produced from JSON).
    Param(&'a str),
    /// JSON `null`.
    Null,
    /// A JSON object, which no CAL position takes.
    Object,
}

impl<'a> Lit<'a> {
    /// The literal of an AST value.
    pub(crate) fn of(value: &'a Value) -> Lit<'a> {
        match &value.kind {
            ValueKind::String(s) => Lit::Str(s),
            ValueKind::Number(Number::Int(i)) => Lit::Int(*i),
            ValueKind::Number(Number::Float(f)) => Lit::Float(*f),
            ValueKind::Bool(b) => Lit::Bool(*b),
            ValueKind::Param(p) => Lit::Param(p),
            ValueKind::Hash(h) => Lit::Hash(h),
            ValueKind::Array(items) => Lit::Array(items.iter().map(|v| (Lit::of(v), v.span)).collect()),
        }
    }

    /// The literal of a bound JSON value; every part gets `span` (the parameter's use).
    pub(crate) fn of_json(value: &'a serde_json::Value, span: Span) -> Lit<'a> {
        use serde_json::Value as J;
        match value {
            J::Null => Lit::Null,
            J::Bool(b) => Lit::Bool(*b),
            J::Number(n) => match n.as_i64() {
                Some(i) => Lit::Int(i),
                None => Lit::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            J::String(s) => Lit::Str(s),
            J::Array(items) => Lit::Array(items.iter().map(|v| (Lit::of_json(v, span), span)).collect()),
            J::Object(_) => Lit::Object,
        }
    }

    /// The number, for numeric literals.
    pub(crate) fn as_f64(&self) -> Option<f64> {
        match self {
            Lit::Int(i) => Some(*i as f64),
            Lit::Float(f) => Some(*f),
            _ => None,
        }
    }

    /// How the value reads in a message: `the string "high"`, `the number 5`.
    pub(crate) fn describe(&self) -> String {
        match self {
            Lit::Str(s) => format!("the string {}", crate::render::quote_short(s)),
            Lit::Int(i) => format!("the number {i}"),
            Lit::Float(f) => format!("the number {}", crate::render::float(*f)),
            Lit::Bool(b) => format!("`{b}`"),
            Lit::Hash(h) => format!("the content address `sha256:{}`", crate::render::shorten(h, 16)),
            Lit::Array(items) => {
                format!("an array of {} value{}", items.len(), if items.len() == 1 { "" } else { "s" })
            }
            Lit::Param(p) => format!("the parameter `${p}`"),
            Lit::Null => "`null`".into(),
            Lit::Object => "a JSON object".into(),
        }
    }
}

/// A set of JSON value kinds: what a position accepts, used to decide whether
/// two uses of one unbound parameter can both be satisfied by one value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Kinds(pub(crate) u8);

impl Kinds {
    pub(crate) const STR: Kinds = Kinds(1);
    pub(crate) const INT: Kinds = Kinds(2);
    pub(crate) const FLOAT: Kinds = Kinds(4);
    pub(crate) const BOOL: Kinds = Kinds(8);
    pub(crate) const ARRAY: Kinds = Kinds(16);
    pub(crate) const NUMBER: Kinds = Kinds(2 | 4);
    pub(crate) const ANY: Kinds = Kinds(31);

    /// Both sets together.
    pub(crate) const fn or(self, other: Kinds) -> Kinds {
        Kinds(self.0 | other.0)
    }

    /// What both sets accept.
    pub(crate) const fn and(self, other: Kinds) -> Kinds {
        Kinds(self.0 & other.0)
    }

    /// True when nothing is accepted.
    pub(crate) const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// "a string or a number".
    pub(crate) fn describe(self) -> String {
        let mut parts = Vec::new();
        if self.0 & Kinds::STR.0 != 0 {
            parts.push("a string");
        }
        match (self.0 & Kinds::INT.0 != 0, self.0 & Kinds::FLOAT.0 != 0) {
            (true, true) => parts.push("a number"),
            (true, false) => parts.push("a whole number"),
            (false, true) => parts.push("a decimal number"),
            (false, false) => {}
        }
        if self.0 & Kinds::BOOL.0 != 0 {
            parts.push("true or false");
        }
        if self.0 & Kinds::ARRAY.0 != 0 {
            parts.push("an array");
        }
        match parts.as_slice() {
            [] => "nothing".into(),
            [one] => (*one).into(),
            [init @ .., last] => format!("{} or {last}", init.join(", ")),
        }
    }
}
