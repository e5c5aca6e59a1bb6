//! TOON (§10.9; TOON specification v3): a general JSON → TOON encoder (also
//! checked against the official conformance fixtures, see render/README.md),
//! and the grain layouts on top of it: keyed tabular arrays for RECALL
//! (§10.9.3, rows indented under the header as TOON v3 decodes them) and a
//! root object with a metadata header and same-type grouped arrays for
//! ASSEMBLE (§10.9.4).

use cal_grammar::GrainType;
use cal_grammar::fields::CONTENT_COLUMN;
use serde_json::{Map, Value};

use super::{Assembly, Doc};
use crate::project::{Disclosure, Element, Project, canonical_number};

const INDENT: &str = "  ";

// ------------------------------------------------------------ primitives ----

fn looks_numeric(s: &str) -> bool {
    let b = s.strip_prefix('-').unwrap_or(s);
    let (mant, exp) = match b.find(['e', 'E']) {
        Some(i) => (&b[..i], Some(&b[i + 1..])),
        None => (b, None),
    };
    let (int, frac) = mant.split_once('.').map_or((mant, None), |(i, f)| (i, Some(f)));
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit());
    let exp_ok = exp.is_none_or(|e| digits(e.strip_prefix(['+', '-']).unwrap_or(e)));
    digits(int) && frac.is_none_or(digits) && exp_ok
}

/// True when a string value must be quoted (§10.9.3, TOON §7.2): empty, padded, a reserved
/// literal, numeric-looking (leading zeros included), starting with `-`, or containing the
/// delimiter, `:`, `"`, `\`, a bracket or brace, or a control character.
pub fn needs_quotes(s: &str, delimiter: char) -> bool {
    s.is_empty()
        || s.trim() != s
        || matches!(s, "true" | "false" | "null")
        || looks_numeric(s)
        || s.starts_with('-')
        || s.chars().any(|c| c == delimiter || matches!(c, ':' | '"' | '\\' | '[' | ']' | '{' | '}') || c.is_control())
}

/// A string as a TOON value: bare when safe, else quoted (see [`quote`]).
pub fn string(s: &str, delimiter: char) -> String {
    if needs_quotes(s, delimiter) { quote(s) } else { s.to_string() }
}

/// `s` double-quoted with the five escapes `\\ \" \n \r \t` (no `\u`: every other
/// character is literal UTF-8).
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            // Other control characters have no short escape; the TOON v3 fixtures write them as
            // `\uXXXX` (docs/spec-decisions-render.md).
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A key: bare when it is an identifier (`[A-Za-z_][A-Za-z0-9_.]*`), else quoted.
pub fn key(k: &str) -> String {
    let mut b = k.bytes();
    let ident = b.next().is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
        && b.all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.');
    if ident { k.to_string() } else { quote(k) }
}

/// A primitive JSON value as TOON (numbers canonical, NaN/±Infinity are already null in JSON).
pub fn primitive(v: &Value, delimiter: char) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => {
            if n.is_i64() || n.is_u64() {
                n.to_string()
            } else {
                canonical_number(n.as_f64().unwrap_or(f64::NAN))
            }
        }
        Value::String(s) => string(s, delimiter),
        other => string(&other.to_string(), delimiter),
    }
}

fn is_primitive(v: &Value) -> bool {
    !matches!(v, Value::Array(_) | Value::Object(_))
}

// ------------------------------------------------------- general encoder ----

fn tabular_fields(arr: &[Value]) -> Option<Vec<String>> {
    let first = arr.first()?.as_object()?;
    if first.is_empty() {
        return None;
    }
    let fields: Vec<String> = first.keys().cloned().collect();
    for v in arr {
        let o = v.as_object()?;
        if o.len() != fields.len() || !fields.iter().all(|f| o.get(f).is_some_and(is_primitive)) {
            return None;
        }
    }
    Some(fields)
}

fn header(k: Option<&str>, n: usize, fields: Option<&[String]>) -> String {
    let mut s = k.map(key).unwrap_or_default();
    s.push_str(&format!("[{n}]"));
    if let Some(f) = fields {
        s.push('{');
        s.push_str(&f.iter().map(|x| key(x)).collect::<Vec<_>>().join(","));
        s.push('}');
    }
    s.push(':');
    s
}

fn inline_prims(arr: &[Value]) -> String {
    arr.iter().map(|v| primitive(v, ',')).collect::<Vec<_>>().join(",")
}

fn array(k: Option<&str>, arr: &[Value], depth: usize, out: &mut Vec<String>) {
    let pad = INDENT.repeat(depth);
    if arr.is_empty() {
        out.push(match k {
            Some(k) => format!("{pad}{}: []", key(k)),
            None => format!("{pad}[]"),
        });
    } else if arr.iter().all(is_primitive) {
        out.push(format!("{pad}{} {}", header(k, arr.len(), None), inline_prims(arr)));
    } else if let Some(fields) = tabular_fields(arr) {
        out.push(format!("{pad}{}", header(k, arr.len(), Some(&fields))));
        let rpad = INDENT.repeat(depth + 1);
        for v in arr {
            let o = v.as_object();
            let row: Vec<String> =
                fields.iter().map(|f| o.and_then(|o| o.get(f)).map_or("null".into(), |x| primitive(x, ','))).collect();
            out.push(format!("{rpad}{}", row.join(",")));
        }
    } else {
        out.push(format!("{pad}{}", header(k, arr.len(), None)));
        for v in arr {
            list_item(v, depth + 1, out);
        }
    }
}

fn list_item(v: &Value, depth: usize, out: &mut Vec<String>) {
    let pad = INDENT.repeat(depth);
    match v {
        Value::Array(a) if a.iter().all(is_primitive) => {
            let h = header(None, a.len(), None);
            out.push(if a.is_empty() { format!("{pad}- {h}") } else { format!("{pad}- {h} {}", inline_prims(a)) });
        }
        Value::Array(a) => {
            let mut inner = Vec::new();
            array(None, a, depth, &mut inner);
            push_hyphenated(inner, &pad, out);
        }
        Value::Object(o) if o.is_empty() => out.push(format!("{pad}-")),
        Value::Object(o) => {
            let mut inner = Vec::new();
            let mut iter = o.iter();
            if let Some((k0, v0)) = iter.next() {
                // The first field sits on the hyphen line; its own children are one level deeper.
                field(k0, v0, depth + 1, &mut inner);
            }
            let first_len = inner.len();
            for (k, x) in iter {
                field(k, x, depth + 1, &mut inner);
            }
            let mut rest = inner.split_off(first_len.min(inner.len()));
            push_hyphenated(inner, &pad, out);
            out.append(&mut rest);
        }
        _ => out.push(format!("{pad}- {}", primitive(v, ','))),
    }
}

fn push_hyphenated(inner: Vec<String>, pad: &str, out: &mut Vec<String>) {
    for (i, line) in inner.into_iter().enumerate() {
        if i == 0 {
            out.push(format!("{pad}- {}", line.trim_start()));
        } else {
            out.push(line);
        }
    }
}

fn field(k: &str, v: &Value, depth: usize, out: &mut Vec<String>) {
    let pad = INDENT.repeat(depth);
    match v {
        Value::Array(a) => array(Some(k), a, depth, out),
        Value::Object(o) => {
            out.push(format!("{pad}{}:", key(k)));
            object(o, depth + 1, out);
        }
        _ => out.push(format!("{pad}{}: {}", key(k), primitive(v, ','))),
    }
}

fn object(o: &Map<String, Value>, depth: usize, out: &mut Vec<String>) {
    for (k, v) in o {
        field(k, v, depth, out);
    }
}

/// Encodes any JSON value as a TOON document (comma delimiter, two-space indent).
pub fn encode(v: &Value) -> String {
    let mut out = Vec::new();
    match v {
        Value::Object(o) => object(o, 0, &mut out),
        Value::Array(a) => array(None, a, 0, &mut out),
        other => out.push(primitive(other, ',')),
    }
    out.join("\n")
}

// ---------------------------------------------------------- grain layout ----

/// One column: its header name and where its value comes from (`content` or an attribute).
type Column = &'static str;

/// §10.9.3's column set of a grain type at standard disclosure (grammar's table).
pub fn columns(t: GrainType) -> &'static [Column] {
    cal_grammar::fields::toon_columns(t)
}

/// The columns of a same-type group: §10.9.3's set, minus `confidence`, `state`, `phase` and
/// `type` at summary, plus a goal's `deadline` when any goal of the group has one (§10.9.4's
/// example), plus `source` and `observed` at full. With PROJECT, `content` (when projected)
/// followed by the projected attributes (§10.9.6).
fn group_columns(els: &[&Element], disclosure: Disclosure, projected: Option<&[String]>) -> Vec<String> {
    if let Some(attrs) = projected {
        let mut cols = Vec::new();
        if els.iter().any(|e| !e.content.is_empty()) {
            cols.push(CONTENT_COLUMN.to_string());
        }
        cols.extend(attrs.iter().cloned());
        return cols;
    }
    let Some(t) = els.first().and_then(|e| e.grain_type) else {
        let mut cols = vec![CONTENT_COLUMN.to_string()];
        for e in els {
            for a in &e.attrs {
                if !cols.contains(&a.name) {
                    cols.push(a.name.clone());
                }
            }
        }
        return cols;
    };
    type_columns(t, disclosure, els.iter().any(|e| e.attr("deadline").is_some()))
}

/// The columns of a group of type `t` at `disclosure` (see [`group_columns`]); `deadline` says
/// whether a goal of the group has one.
fn type_columns(t: GrainType, disclosure: Disclosure, deadline: bool) -> Vec<String> {
    let mut cols: Vec<String> = columns(t)
        .iter()
        .filter(|c| disclosure != Disclosure::Summary || !cal_grammar::fields::TOON_SUMMARY_DROPS.contains(c))
        .map(|c| (*c).to_string())
        .collect();
    if t == GrainType::Goal && disclosure != Disclosure::Summary && deadline {
        cols.push("deadline".into());
    }
    if disclosure == Disclosure::Full {
        cols.extend(["source".to_string(), "observed".to_string()]);
    }
    cols
}

fn row(e: &Element, cols: &[String]) -> String {
    cols.iter()
        .map(|c| {
            if c == CONTENT_COLUMN {
                string(&e.content, ',')
            } else {
                e.attr(c).map_or_else(|| "null".to_string(), |v| primitive(&v.to_json(), ','))
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// One same-type group: its keyed header, then its rows indented two spaces under it — for a
/// RECALL as for an ASSEMBLE (§10.9.4). §10.9.3 prints a RECALL's rows at depth 0, but TOON v3
/// reads a keyed header as a field of a root object whose rows are one level deeper, and its
/// decoders reject depth-0 rows (docs/spec-decisions-render.md, "TOON rows").
fn group(name: &str, els: &[&Element], disclosure: Disclosure, projected: Option<&[String]>) -> String {
    let cols = group_columns(els, disclosure, projected);
    let mut lines = vec![header(Some(name), els.len(), Some(&cols))];
    lines.extend(els.iter().map(|e| format!("{INDENT}{}", row(e, &cols))));
    lines.join("\n")
}

/// Same-type groups of a list of elements, in order of first appearance.
fn split_by_type(els: &[Element]) -> Vec<(String, Vec<&Element>)> {
    let mut groups: Vec<(String, Vec<&Element>)> = Vec::new();
    for e in els {
        match groups.iter_mut().find(|(g, _)| *g == e.group) {
            Some((_, v)) => v.push(e),
            None => groups.push((e.group.clone(), vec![e])),
        }
    }
    groups
}

/// A RECALL result: one tabular array per type (§10.9.3), rows indented under the header. A
/// RECALL returning several types (a multi-type RECALL) gives one array per type, separated by
/// a blank line. No element: the root array header `[0]:` (see [`empty_recall`] for the typed
/// header).
pub fn recall(els: &[Element], disclosure: Disclosure, projected: Option<&[String]>) -> String {
    if els.is_empty() {
        return header(None, 0, None);
    }
    split_by_type(els).iter().map(|(g, v)| group(g, v, disclosure, projected)).collect::<Vec<_>>().join("\n\n")
}

/// A RECALL that returned no grain: the header of the non-empty case with `[0]` and no row —
/// `beliefs[0]{subject,content,confidence}:` (the columns at `disclosure`; with PROJECT,
/// `content` when it projects content, then the projected attributes), which TOON v3 decodes
/// to `{"beliefs": []}`. Without a queried type, the root array header `[0]:` (decodes to `[]`).
pub fn empty_recall(t: Option<GrainType>, disclosure: Disclosure, project: Option<&Project>) -> String {
    let Some(t) = t else { return header(None, 0, None) };
    let cols = match project {
        Some(p) => {
            (!p.content.is_empty()).then(|| CONTENT_COLUMN.to_string()).into_iter().chain(p.attrs.clone()).collect()
        }
        None => type_columns(t, disclosure, false),
    };
    header(Some(t.plural()), 0, Some(&cols))
}

/// The metadata header of an ASSEMBLE (§10.9.4).
pub fn assembly_header(a: &Assembly) -> String {
    let mut lines = vec![format!("context: {}", string(&a.name, ','))];
    if let Some(i) = &a.intent {
        lines.push(format!("intent: {}", string(i, ',')));
    }
    lines.push(format!("tokens: {}/{}", a.tokens_used, a.tokens_total));
    lines.join("\n")
}

/// An ASSEMBLE result (§10.9.4): the metadata header, then each source split into same-type
/// groups, in priority order, rows indented two spaces, one blank line between groups. A type
/// that already names a group takes the source label instead (then `label_type`, then a
/// numeric suffix), so the root object never repeats a key and decodes without loss.
pub fn assemble(a: &Assembly, disclosure: Disclosure, projected: Option<&[String]>) -> String {
    let mut used: Vec<String> = vec!["context".into(), "intent".into(), "tokens".into()];
    let mut blocks = Vec::new();
    for s in &a.sources {
        for (ty, els) in split_by_type(&s.elements) {
            let mut name = ty.clone();
            if used.contains(&name) {
                name = s.label.clone();
            }
            if used.contains(&name) {
                name = format!("{}_{ty}", s.label);
            }
            let base = name.clone();
            let mut n = 2;
            while used.contains(&name) {
                name = format!("{base}_{n}");
                n += 1;
            }
            used.push(name.clone());
            blocks.push(group(&name, &els, disclosure, projected));
        }
    }
    let mut out = assembly_header(a);
    if !blocks.is_empty() {
        out.push('\n');
        out.push_str(&blocks.join("\n\n"));
    }
    out
}

/// Renders a document at standard disclosure without PROJECT.
pub fn render(doc: Doc<'_>) -> String {
    render_with(doc, Disclosure::Standard, None)
}

/// Renders a document at `disclosure`, with the PROJECT attribute list if any.
pub fn render_with(doc: Doc<'_>, disclosure: Disclosure, projected: Option<&[String]>) -> String {
    match doc {
        Doc::Recall(els) => recall(els, disclosure, projected),
        Doc::Assemble(a) => assemble(a, disclosure, projected),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn quoting_rules() {
        for s in ["", " a", "true", "null", "42", "-3.5", "1e5", "05", "-x", "a,b", "a:b", "q\"", "[x]", "{", "a\nb"] {
            assert!(needs_quotes(s, ','), "{s:?}");
        }
        for s in ["alice", "prefers dark mode", "10m ago", "Sure — ok.", "1847/2000", "v1.2.3"] {
            assert!(!needs_quotes(s, ','), "{s:?}");
        }
        assert_eq!(string("a\"b\\c\nd\re\tf", ','), r#""a\"b\\c\nd\re\tf""#);
        assert_eq!(key("hc:patient_id"), "\"hc:patient_id\"");
        assert_eq!(key("a.b_c"), "a.b_c");
    }

    #[test]
    fn general_encoder_shapes() {
        let v = json!({"id": 1, "tags": ["a", "b"], "users": [{"n": "x", "a": 1}, {"n": "y", "a": 2}],
                       "nested": {"k": null}, "empty": [], "f": 0.5});
        assert_eq!(
            encode(&v),
            "id: 1\ntags[2]: a,b\nusers[2]{n,a}:\n  x,1\n  y,2\nnested:\n  k: null\nempty: []\nf: 0.5"
        );
        assert_eq!(encode(&json!([1, "x"])), "[2]: 1,x");
        assert_eq!(encode(&json!({"items": [{"a": 1}, [1, 2], 3]})), "items[3]:\n  - a: 1\n  - [2]: 1,2\n  - 3");
    }
}
