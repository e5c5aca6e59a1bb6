//! Literals, parameters, hashes and targets: the leaves every printer shares.

use crate::ast::{IntOrParam, Number, Target, TargetKind, Value, ValueKind};

/// A string literal that reads back as `value` (only `"` and `\` are escaped).
pub(crate) fn quoted(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    cal_lexer::quote(value, &mut out);
    out
}

/// A number as CAL writes it: integers as digits, decimals always with a decimal point.
///
/// Rust's `{}` for `f64` prints the shortest text that reads back as the same
/// value and never uses an exponent, which is exactly what the CAL number
/// syntax needs; only a whole value (`5.0` prints as `5`) gets `.0` appended so
/// that it stays a decimal. Non-finite values cannot come from either parser;
/// they print as Rust spells them, which no CAL parser accepts.
pub(crate) fn number_text(n: Number) -> String {
    match n {
        Number::Int(i) => i.to_string(),
        Number::Float(f) => {
            let s = f.to_string();
            if s.contains('.') || !f.is_finite() { s } else { s + ".0" }
        }
    }
}

/// `sha256:<hex>`.
pub(crate) fn hash(hex: &str) -> String {
    format!("sha256:{hex}")
}

/// `$name`.
pub(crate) fn param(name: &str) -> String {
    format!("${name}")
}

/// A hash literal or a parameter.
pub(crate) fn target(t: &Target) -> String {
    match &t.kind {
        TargetKind::Hash(h) => hash(h),
        TargetKind::Param(p) => param(p),
    }
}

/// An integer or a parameter (LIMIT, OFFSET).
pub(crate) fn int_or_param(v: &IntOrParam) -> String {
    match v {
        IntOrParam::Int(i) => i.value.to_string(),
        IntOrParam::Param(p, _) => param(p),
    }
}

/// Any value of §3.4.
pub(crate) fn value(v: &Value) -> String {
    match &v.kind {
        ValueKind::String(s) => quoted(s),
        ValueKind::Number(n) => number_text(*n),
        ValueKind::Bool(b) => b.to_string(),
        ValueKind::Param(p) => param(p),
        ValueKind::Array(items) => format!("[{}]", values(items)),
        ValueKind::Hash(h) => hash(h),
    }
}

/// Values separated by `, `.
pub(crate) fn values(items: &[Value]) -> String {
    items.iter().map(value).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_keep_their_point() {
        assert_eq!(number_text(Number::Float(5.0)), "5.0");
        assert_eq!(number_text(Number::Float(0.8)), "0.8");
        assert_eq!(number_text(Number::Float(-0.5)), "-0.5");
        assert_eq!(number_text(Number::Float(1e20)), "100000000000000000000.0");
        assert_eq!(number_text(Number::Float(1e-7)), "0.0000001");
        assert_eq!(number_text(Number::Int(-3)), "-3");
    }

    #[test]
    fn strings_escape_quote_and_backslash() {
        assert_eq!(quoted("say \"hi\" \\o/"), r#""say \"hi\" \\o/""#);
    }
}
