//! YAML: the same structure as the JSON format, written as block YAML.
//! Strings are plain scalars when YAML would read them back as the same
//! string, and double-quoted (JSON escaping, a subset of YAML's) otherwise.

use serde_json::Value;

use super::{Doc, json};

fn plain_ok(s: &str) -> bool {
    let reserved = ["true", "false", "null", "yes", "no", "on", "off", "~", "y", "n"];
    !s.is_empty()
        && s.trim() == s
        && !reserved.contains(&s.to_ascii_lowercase().as_str())
        && s.parse::<f64>().is_err()
        && !s.starts_with(|c: char| "-?:,[]{}#&*!|>'\"%@`".contains(c))
        && !s.contains(": ")
        && !s.contains(" #")
        && !s.ends_with(':')
        && !s.chars().any(char::is_control)
}

fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) if plain_ok(s) => s.clone(),
        Value::String(s) => Value::String(s.clone()).to_string(),
        Value::Number(n) => crate::project::canonical_number(n.as_f64().unwrap_or(f64::NAN)),
        other => other.to_string(),
    }
}

fn write(v: &Value, indent: usize, out: &mut Vec<String>) {
    let pad = " ".repeat(indent);
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match x {
                    Value::Object(o) if !o.is_empty() => {
                        out.push(format!("{pad}{}:", scalar(&Value::String(k.clone()))));
                        write(x, indent + 2, out);
                    }
                    Value::Array(a) if !a.is_empty() => {
                        out.push(format!("{pad}{}:", scalar(&Value::String(k.clone()))));
                        write(x, indent + 2, out);
                    }
                    Value::Array(_) => out.push(format!("{pad}{}: []", scalar(&Value::String(k.clone())))),
                    _ => out.push(format!("{pad}{}: {}", scalar(&Value::String(k.clone())), scalar(x))),
                }
            }
        }
        Value::Array(a) => {
            for x in a {
                match x {
                    Value::Object(_) | Value::Array(_) => {
                        let mut inner = Vec::new();
                        write(x, indent + 2, &mut inner);
                        for (i, line) in inner.into_iter().enumerate() {
                            if i == 0 {
                                out.push(format!("{pad}- {}", line.trim_start()));
                            } else {
                                out.push(line);
                            }
                        }
                    }
                    _ => out.push(format!("{pad}- {}", scalar(x))),
                }
            }
        }
        other => out.push(format!("{pad}{}", scalar(other))),
    }
}

/// Renders a document.
pub fn render(doc: Doc<'_>) -> String {
    let mut out = Vec::new();
    write(&json::value(doc), 0, &mut out);
    out.join("\n")
}

#[cfg(test)]
mod tests {
    #[test]
    fn quoting() {
        assert!(super::plain_ok("prefers dark mode"));
        for s in ["", "true", "0.9", "- x", "a: b", " x", "No", "#x"] {
            assert!(!super::plain_ok(s), "{s}");
        }
    }
}
