//! Small pieces of CAL text for messages and machine-applicable replacements.
//!
//! The checker sees only the tree, so when a fix needs text (`"42"` for `42`,
//! `INCLUDE ["x"]` for `= "x"`) it prints it here, in the canonical spelling.

use cal_parser::ast::{Number, Value, ValueKind};

/// A CAL string literal for `s`: double quotes, with `"` and `\` escaped.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// [`quote`], cut to about 40 characters for messages.
pub(crate) fn quote_short(s: &str) -> String {
    quote(&shorten(s, 40))
}

/// `s` cut to `max` characters with an ellipsis.
pub(crate) fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max { s.to_string() } else { format!("{}…", s.chars().take(max).collect::<String>()) }
}

/// A decimal number as CAL writes it: `0.8`, `1.0`, never an exponent.
pub(crate) fn float(f: f64) -> String {
    if !f.is_finite() {
        return "0".into();
    }
    let s = format!("{f}");
    if s.contains('.') { s } else { format!("{s}.0") }
}

/// The canonical text of a value.
pub(crate) fn value(v: &Value) -> String {
    match &v.kind {
        ValueKind::String(s) => quote(s),
        ValueKind::Number(Number::Int(i)) => i.to_string(),
        ValueKind::Number(Number::Float(f)) => float(*f),
        ValueKind::Bool(b) => b.to_string(),
        ValueKind::Param(p) => format!("${p}"),
        ValueKind::Hash(h) => format!("sha256:{h}"),
        ValueKind::Array(items) => format!("[{}]", items.iter().map(value).collect::<Vec<_>>().join(", ")),
    }
}

/// `a, b or c` for messages.
pub(crate) fn or_list<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [init @ .., last] => {
            format!("{} or {}", init.iter().map(|s| s.as_ref()).collect::<Vec<_>>().join(", "), last.as_ref())
        }
    }
}

/// `` `a`, `b` and `c` `` for messages.
pub(crate) fn code_list<S: AsRef<str>>(items: &[S]) -> String {
    let ticked: Vec<String> = items.iter().map(|s| format!("`{}`", s.as_ref())).collect();
    match ticked.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_and_numbers() {
        assert_eq!(quote(r#"a "b" \c"#), r#""a \"b\" \\c""#);
        assert_eq!(float(0.8), "0.8");
        assert_eq!(float(1.0), "1.0");
        assert_eq!(float(f64::NAN), "0");
        assert_eq!(shorten("abcdef", 3), "abc…");
        assert_eq!(or_list(&["a", "b", "c"]), "a, b or c");
        assert_eq!(code_list(&["a", "b"]), "`a` and `b`");
    }
}
