//! The published JSON Schema of `application/json+cal` and validation against it.
//!
//! Violations are reported as CAL-E002, the code of every other syntax error:
//! a JSON request that does not match the schema is the JSON form's syntax
//! error, just as an unexpected token is the text form's. Each message starts
//! with the JSON pointer (RFC 6901) of the offending value; diagnostics of the
//! JSON form carry an empty span at offset 0, since the pointer is the position.

use cal_grammar::{Code, Diagnostic, Span, suggest};
use jsonschema::error::ValidationErrorKind;
use jsonschema::{ValidationError, Validator};
use serde_json::Value;
use std::sync::LazyLock;

/// The request schema (draft 2020-12), as published in `parser/schema/cal-request.schema.json`.
pub const SCHEMA: &str = include_str!("../../schema/cal-request.schema.json");

/// The schema's `$id` (§15.5).
pub const SCHEMA_ID: &str = "https://cal-spec.org/schema/v1/cal-request.schema.json";

/// Deeper JSON than this is rejected before validation, so that no recursive
/// walk (validator, decoder, printer) can exhaust the stack. serde_json's own
/// text parser stops at the same depth.
const MAX_DEPTH: usize = 128;

static PARSED: LazyLock<Value> = LazyLock::new(|| serde_json::from_str(SCHEMA).unwrap_or(Value::Null));

static VALIDATOR: LazyLock<Result<Validator, String>> =
    LazyLock::new(|| jsonschema::draft202012::new(&PARSED).map_err(|e| e.to_string()));

/// The schema as a JSON value.
pub fn schema() -> &'static Value {
    &PARSED
}

/// Validates a request against the schema; every violation becomes a CAL-E002
/// diagnostic naming its JSON pointer. Empty when the request is valid.
pub fn validate(json: &Value) -> Vec<Diagnostic> {
    finish_pairs(validate_pairs(json, None))
}

/// Violations with the pointers they are sorted by.
pub(crate) type Pairs = Vec<(String, Diagnostic)>;

/// The violations of `json`, unsorted. With `Some(i)`, `json` is element `i` of a document
/// validated inside a one-element array: the pointers say `/i` where the array says `/0`.
pub(crate) fn validate_pairs(json: &Value, element: Option<usize>) -> Pairs {
    if depth(json) > MAX_DEPTH {
        return vec![(String::new(), at("", format!("the request is nested more than {MAX_DEPTH} levels deep.")))];
    }
    let validator = match VALIDATOR.as_ref() {
        Ok(v) => v,
        Err(e) => {
            return vec![(
                String::new(),
                Diagnostic::new(
                    Code::E002,
                    Span::default(),
                    format!(
                        "The embedded JSON Schema does not compile ({e}); this is a bug in the toolchain, please report it."
                    ),
                ),
            )];
        }
    };
    let mut out = Vec::new();
    for error in validator.iter_errors(json) {
        let path = error.instance_path().as_str();
        let pointer = match (element, path.strip_prefix("/0")) {
            (Some(i), Some(rest)) if rest.is_empty() || rest.starts_with('/') => format!("/{i}{rest}"),
            _ => path.to_string(),
        };
        out.extend(describe(&error, pointer));
    }
    out
}

/// Sorted by pointer, then message; a message repeated next to itself once.
pub(crate) fn finish_pairs(mut out: Pairs) -> Vec<Diagnostic> {
    out.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.message.cmp(&b.1.message)));
    out.dedup_by(|a, b| a.1.message == b.1.message);
    out.into_iter().map(|(_, d)| d).collect()
}

/// serde_json's 1-based line and column (in bytes) as a byte offset, clamped to a char boundary.
pub(crate) fn byte_offset(text: &str, line: usize, column: usize) -> usize {
    let line_start: usize = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum();
    let mut offset = (line_start + column.saturating_sub(1)).min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// The nesting depth of a JSON value, computed without recursion.
fn depth(json: &Value) -> usize {
    let mut max = 0;
    let mut stack = vec![(json, 1usize)];
    while let Some((v, d)) = stack.pop() {
        max = max.max(d);
        if d > MAX_DEPTH {
            break;
        }
        match v {
            Value::Array(items) => stack.extend(items.iter().map(|x| (x, d + 1))),
            Value::Object(map) => stack.extend(map.values().map(|x| (x, d + 1))),
            _ => {}
        }
    }
    max
}

/// A CAL-E002 diagnostic for the value at `pointer`.
pub(crate) fn at(pointer: &str, detail: impl std::fmt::Display) -> Diagnostic {
    at_code(Code::E002, pointer, detail)
}

/// A diagnostic with `code` for the value at `pointer`.
pub(crate) fn at_code(code: Code, pointer: &str, detail: impl std::fmt::Display) -> Diagnostic {
    let place = if pointer.is_empty() { "the top-level value".to_string() } else { format!("`{pointer}`") };
    Diagnostic::new(code, Span::default(), format!("Invalid application/json+cal at {place}: {detail}"))
}

/// Turns one validation error into diagnostics (one per unknown key), keyed by pointer for sorting.
fn describe(error: &ValidationError<'_>, pointer: String) -> Vec<(String, Diagnostic)> {
    let instance = error.instance();
    let one = |d: Diagnostic| vec![(pointer.clone(), d)];
    match error.kind() {
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            let allowed = allowed_keys(error.schema_path().as_str());
            unexpected
                .iter()
                .map(|key| {
                    let p = format!("{pointer}/{}", escape(key));
                    let mut d = at(&p, format!("unknown key `{key}`."));
                    if let Some(fix) = suggest::did_you_mean(key, allowed.iter().map(String::as_str)) {
                        d = d.with_suggestion(format!("Did you mean `{fix}`?")).with_replacement(fix);
                    } else if !allowed.is_empty() {
                        d = d.with_suggestion(format!("Allowed keys here: {}.", allowed.join(", ")));
                    }
                    (p, d.with_valid_values(allowed.iter().cloned()))
                })
                .collect()
        }
        ValidationErrorKind::FalseSchema => {
            let key = pointer.rsplit('/').next().unwrap_or("");
            one(at(&pointer, format!("the key `{key}` is not allowed here."))
                .with_suggestion(false_schema_hint(&pointer, key)))
        }
        ValidationErrorKind::Required { property } => {
            let key = property.as_str().unwrap_or("?");
            let mut d = at(&pointer, format!("the key `{key}` is required."));
            if key == "statement" {
                d = d
                    .with_suggestion("Every query object names its statement.")
                    .with_example(r#"{"statement": "recall", "grain_type": "beliefs", "about": "alice"}"#);
            }
            one(d)
        }
        ValidationErrorKind::Enum { options } => {
            let words: Vec<String> = options
                .as_array()
                .map(|a| a.iter().map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string)).collect())
                .unwrap_or_default();
            let mut d = at(&pointer, format!("{} is not one of {}.", instance, quoted_list(&words)));
            let typo = instance.as_str().filter(|s| s.chars().count() >= 3);
            if let Some(fix) = typo.and_then(|s| suggest::did_you_mean(s, words.iter().map(String::as_str))) {
                d = d.with_suggestion(format!("Did you mean \"{fix}\"?")).with_replacement(format!("\"{fix}\""));
            }
            one(d.with_valid_values(words))
        }
        ValidationErrorKind::Constant { expected_value } => {
            one(at(&pointer, format!("expected {expected_value}, found {instance}.")).with_suggestion(
                "Flags such as `my` and `contradictions` are `true` when the clause is written and absent otherwise.",
            ))
        }
        ValidationErrorKind::Type { .. } if instance.is_null() => {
            one(at(&pointer, "null is not a CAL value.").with_suggestion(
                "CAL has no NULL (§5.4): leave an absent clause out; a value is a string, number, boolean, array, \
                 {\"param\": name} or {\"hash\": \"sha256:…\"}.",
            ))
        }
        ValidationErrorKind::Type { .. } => one(at(&pointer, format!("{error}."))),
        ValidationErrorKind::Pattern { pattern } => {
            one(at(&pointer, format!("{instance} is not {}.", pattern_meaning(pattern))))
        }
        ValidationErrorKind::MinItems { .. } if pointer.is_empty() => {
            one(at(&pointer, "an empty array is not a document.").with_suggestion("Send at least one query object."))
        }
        ValidationErrorKind::MinItems { .. } => one(
            at(&pointer, "the list is empty.")
                .with_suggestion("Leave the key out when the clause is absent; a list that is present has items."),
        ),
        ValidationErrorKind::Minimum { .. } => one(at(&pointer, format!("{instance} is negative; a count is 0 or more."))),
        ValidationErrorKind::MinProperties { .. } | ValidationErrorKind::MaxProperties { .. } => one(
            at(&pointer, format!("{instance} must have exactly one key."))
                .with_suggestion(r#"Write {"param": "name"} or {"hash": "sha256:…"} (PROJECT specs: {"content": [...]} or {"attr": [...]})."#),
        ),
        ValidationErrorKind::Not { .. } if pointer.ends_with("/of/statement") => {
            one(at(&pointer, "EXPLAIN cannot explain an EXPLAIN.").with_suggestion("Remove the inner EXPLAIN."))
        }
        _ => one(at(&pointer, format!("{error}."))),
    }
}

/// The declared keys next to the `additionalProperties` that rejected a key
/// (those the position allows: `false` subschemas are left out).
fn allowed_keys(schema_path: &str) -> Vec<String> {
    let Some(base) = schema_path.strip_suffix("/additionalProperties") else { return Vec::new() };
    let mut keys: Vec<String> = Vec::new();
    let mut collect = |props: Option<&Value>| {
        if let Some(map) = props.and_then(Value::as_object) {
            for (k, v) in map {
                if v != &Value::Bool(false) && !keys.contains(k) {
                    keys.push(k.clone());
                }
            }
        }
    };
    collect(PARSED.pointer(&format!("{base}/properties")));
    keys
}

fn false_schema_hint(pointer: &str, key: &str) -> String {
    match key {
        "cal_version" | "lets" => "`cal_version` and `lets` belong to the top-level query object only.".into(),
        "label" => "`label` belongs to BATCH entries and ASSEMBLE sources.".into(),
        "statement" => "A RECALL that stands where only a RECALL can (LET, subquery, source, COALESCE branch) has no `statement` key.".into(),
        _ if pointer.contains("/where/") => "This key does not go with the condition's `op`.".into(),
        _ => "This key does not go with the other keys of the object.".into(),
    }
}

fn pattern_meaning(pattern: &str) -> &'static str {
    if pattern.starts_with("^sha256:") {
        "a hash literal: `sha256:` followed by 8 to 64 lower-case hex digits"
    } else if pattern.contains("(:") {
        "a field name (`subject`, `tool_name`, `hc:patient_id`)"
    } else if pattern.starts_with("^x_") {
        "an extension option name (`x_` followed by letters, digits and `_`)"
    } else {
        "a name (ASCII letters, digits and `_`, not starting with a digit)"
    }
}

fn quoted_list(words: &[String]) -> String {
    let shown: Vec<String> = words.iter().map(|w| format!("\"{w}\"")).collect();
    shown.join(", ")
}

/// Escapes a key for a JSON pointer (RFC 6901).
pub(crate) fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_compiles_and_has_its_id() {
        assert!(VALIDATOR.is_ok(), "{:?}", VALIDATOR.as_ref().err());
        assert_eq!(PARSED["$id"], SCHEMA_ID);
    }

    #[test]
    fn offsets_follow_lines() {
        assert_eq!(byte_offset("ab\ncd", 2, 2), 4);
        assert_eq!(byte_offset("é", 1, 2), 0);
    }
}
