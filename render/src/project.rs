//! The Content Projection Model (§10.3, §14.4): what of a grain becomes the
//! text content of its output element, which attributes it carries at each
//! disclosure level (§14.3), and the PROJECT override (§10.3.5).
//!
//! Every format renders [`Element`]s, never raw grains, so hashes, namespaces
//! and storage metadata cannot leak into the content layer (§14.2): only what
//! a projection names gets through.

use cal_grammar::fields::{projection, projection_alias};
use cal_grammar::relations::humanize;
use cal_grammar::{DisclosureLevel, GrainType};
use serde_json::Value;

use crate::grain::{GrainInput, is_temporal};
use crate::time;

/// Metadata density (§14.3). The element shape is the same at every level; only the number
/// of attributes changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Disclosure {
    /// Tag name, subject and content: attributes marked `?` in §10.3.2 are dropped.
    Summary,
    /// The default attributes of §10.3.2.
    #[default]
    Standard,
    /// Standard plus `source`, `observed`, `importance`, `tags` and `verification`.
    Full,
}

impl Disclosure {
    /// The level of a `WITH progressive_disclosure(level)` word (`headlines` is `standard`).
    pub fn from_level(level: DisclosureLevel) -> Self {
        match level {
            DisclosureLevel::Summary => Disclosure::Summary,
            DisclosureLevel::Headlines | DisclosureLevel::Standard => Disclosure::Standard,
            DisclosureLevel::Full => Disclosure::Full,
        }
    }

    /// §14.3's "When Used" column, for `WITH progressive_disclosure` without a level: summary
    /// under 1,000 tokens, full when the budget is generous (8,000 tokens or more — our reading
    /// of "generous", docs/spec-decisions-render.md) or the query's LIMIT is 5 or less,
    /// standard otherwise.
    pub fn for_budget(budget_tokens: usize, limit: Option<usize>) -> Self {
        if budget_tokens < 1000 {
            Disclosure::Summary
        } else if budget_tokens >= 8000 || limit.is_some_and(|l| l <= 5) {
            Disclosure::Full
        } else {
            Disclosure::Standard
        }
    }

    /// The level's name as §14.3 spells it (`{{disclosure.level}}`).
    pub fn as_str(self) -> &'static str {
        match self {
            Disclosure::Summary => "summary",
            Disclosure::Standard => "standard",
            Disclosure::Full => "full",
        }
    }
}

/// `PROJECT content(…), attr(…)` (§10.3.5), with field names as written.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Project {
    /// Fields joined with spaces into the text content (relations humanized).
    pub content: Vec<String>,
    /// Fields rendered as attributes, in order.
    pub attrs: Vec<String>,
}

/// A scalar attribute value, typed so that JSON and YAML keep numbers as numbers while the
/// text formats print them canonically.
#[derive(Debug, Clone, PartialEq)]
pub enum Scalar {
    /// Text (times are already humanized text).
    Str(String),
    /// A number.
    Num(f64),
    /// true / false.
    Bool(bool),
}

impl Scalar {
    /// The value as text: numbers in canonical decimal form (see [`canonical_number`]).
    pub fn text(&self) -> String {
        match self {
            Scalar::Str(s) => s.clone(),
            Scalar::Num(n) => canonical_number(*n),
            Scalar::Bool(b) => b.to_string(),
        }
    }

    /// The value as JSON (non-finite numbers become null).
    pub fn to_json(&self) -> Value {
        match self {
            Scalar::Str(s) => Value::String(s.clone()),
            Scalar::Num(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => Value::from(*n as i64),
            Scalar::Num(n) => serde_json::Number::from_f64(*n).map_or(Value::Null, Value::Number),
            Scalar::Bool(b) => Value::Bool(*b),
        }
    }
}

/// §10.9.3 canonical decimal form: no exponent, no leading zeros but `0`, no trailing
/// fractional zeros (`0.90` → `0.9`), `-0` → `0`; NaN and ±Infinity → `null`.
/// Rust's `Display` for `f64` prints the shortest round-tripping digits without an exponent.
pub fn canonical_number(n: f64) -> String {
    if !n.is_finite() {
        return "null".to_string();
    }
    if n == 0.0 {
        return "0".to_string();
    }
    format!("{n}")
}

/// One attribute of an element.
#[derive(Debug, Clone, PartialEq)]
pub struct Attr {
    /// Its name in output (`tool`, `confidence`, `hc:patient_id`).
    pub name: String,
    /// Its value.
    pub value: Scalar,
}

/// A grain as the content layer sees it: element name, text content and attributes.
#[derive(Debug, Clone, PartialEq)]
pub struct Element {
    /// The grain type, when it is one of the ten.
    pub grain_type: Option<GrainType>,
    /// The element name: the singular type (`belief`).
    pub tag: String,
    /// The group name: the plural type (`beliefs`).
    pub group: String,
    /// The projected text content (§10.3.2).
    pub content: String,
    /// The attributes at the requested disclosure level, in output order.
    pub attrs: Vec<Attr>,
    /// Triple parts for the `triples` format: subject, humanized relation, object text.
    pub triple: (String, String, String),
}

impl Element {
    /// The attribute called `name`.
    pub fn attr(&self, name: &str) -> Option<&Scalar> {
        self.attrs.iter().find(|a| a.name == name).map(|a| &a.value)
    }
}

/// How to project: disclosure level, clock, the ISO opt-out and an optional PROJECT.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ProjectionOptions {
    /// Metadata density.
    pub disclosure: Disclosure,
    /// The clock relative times are measured against (epoch ms), injected for determinism.
    pub now_ms: i64,
    /// `WITH iso_timestamps`: RFC 3339 instead of relative time.
    pub iso_timestamps: bool,
    /// `PROJECT content(…), attr(…)`, overriding the defaults.
    pub project: Option<Project>,
}

/// The full-disclosure extras (§14.3 "+ source_type, importance, tags, verification_status"),
/// as (attribute name, CAL field). `observed` is the grain's time; TOON appends only
/// `source` and `observed` (§10.9.3).
pub const FULL_EXTRAS: &[(&str, &str)] = &[
    ("source", "source_type"),
    ("observed", "time"),
    ("importance", "importance"),
    ("tags", "tags"),
    ("verification", "verification_status"),
];

fn value_text(field: &str, v: &Value, opts: &ProjectionOptions) -> String {
    match v {
        Value::String(s) if field == "relation" => humanize(s).into_owned(),
        Value::String(s) => s.clone(),
        Value::Number(n) if is_temporal(field) => match n.as_i64() {
            Some(ms) if opts.iso_timestamps => time::iso(ms),
            Some(ms) if field == "deadline" || field == "expires_at" || field == "valid_to" => time::date_or_iso(ms),
            Some(ms) => time::relative(ms, opts.now_ms),
            None => n.to_string(),
        },
        Value::Number(n) => canonical_number(n.as_f64().unwrap_or(f64::NAN)),
        Value::Bool(b) => b.to_string(),
        Value::Array(items) if matches!(field, "steps" | "plan") => items
            .iter()
            .enumerate()
            .map(|(i, x)| format!("{}. {}", i + 1, value_text("", x, opts)))
            .collect::<Vec<_>>()
            .join(" "),
        Value::Array(items) => items.iter().map(|x| value_text("", x, opts)).collect::<Vec<_>>().join(", "),
        Value::Object(_) => v.to_string(),
        Value::Null => String::new(),
    }
}

fn scalar(field: &str, v: &Value, opts: &ProjectionOptions) -> Scalar {
    match v {
        Value::Number(n) if !is_temporal(field) => Scalar::Num(n.as_f64().unwrap_or(f64::NAN)),
        Value::Bool(b) => Scalar::Bool(*b),
        other => Scalar::Str(value_text(field, other, opts)),
    }
}

fn text(g: &GrainInput, field: &str, opts: &ProjectionOptions) -> Option<String> {
    let v = g.field(field)?;
    let s = value_text(field, &v, opts).trim().to_string();
    (!s.is_empty()).then_some(s)
}

/// The default text content of a grain (§10.3.2). When the CAL rule's field is absent, the
/// field OMS requires for that type stands in (a goal's `description`, an action's
/// `content`, a consensus's `agreed_content`), as the interpreter's JSON view does.
pub fn default_content(g: &GrainInput, opts: &ProjectionOptions) -> String {
    let Some(t) = g.grain_type() else { return text(g, "object", opts).unwrap_or_default() };
    let parts: Vec<String> = projection(t).content.iter().filter_map(|f| text(g, f, opts)).collect();
    if !(parts.is_empty() || t == GrainType::Belief && parts.len() < 2) {
        return parts.join(" ");
    }
    let fallback = match t {
        GrainType::Goal => "description",
        GrainType::Action => "content",
        GrainType::Consensus => "agreed_content",
        _ => "object",
    };
    match text(g, fallback, opts) {
        Some(f) if parts.is_empty() => f,
        Some(f) if t == GrainType::Belief => format!("{} {f}", parts.join(" ")),
        _ => parts.join(" "),
    }
}

/// Projects one grain into an [`Element`].
pub fn project(g: &GrainInput, opts: &ProjectionOptions) -> Element {
    let t = g.grain_type();
    let tag = t.map_or_else(|| g.type_name().to_string(), |t| t.singular().to_string());
    let group = t.map_or_else(|| format!("{tag}s"), |t| t.plural().to_string());
    let mut attrs = Vec::new();
    let content;
    if let Some(p) = &opts.project {
        content = p.content.iter().filter_map(|f| text(g, resolve(g, t, f), opts)).collect::<Vec<_>>().join(" ");
        for name in &p.attrs {
            let field = resolve(g, t, name);
            if let Some(v) = g.field(field) {
                attrs.push(Attr { name: name.clone(), value: scalar(field, &v, opts) });
            }
        }
    } else {
        content = default_content(g, opts);
        if let Some(t) = t {
            for a in projection(t).attrs {
                if a.detail && opts.disclosure == Disclosure::Summary {
                    continue;
                }
                if let Some(v) = g.field(a.field) {
                    attrs.push(Attr { name: a.attr.to_string(), value: scalar(a.field, &v, opts) });
                }
            }
        }
        if opts.disclosure == Disclosure::Full {
            for (name, field) in FULL_EXTRAS {
                if let Some(v) = g.field(field) {
                    attrs.push(Attr { name: (*name).to_string(), value: scalar(field, &v, opts) });
                }
            }
        }
    }
    let subject = text(g, "subject", opts).or_else(|| attrs.first().map(|a| a.value.text())).unwrap_or_default();
    let relation = text(g, "relation", opts).unwrap_or_else(|| tag.clone());
    let object =
        if t == Some(GrainType::Belief) { text(g, "object", opts).unwrap_or_default() } else { content.clone() };
    Element { grain_type: t, tag, group, content, attrs, triple: (subject, relation, object) }
}

/// A PROJECT name to the field it reads: the name itself when the grain has it, else the
/// field behind a default attribute name (`observer` → `observer_id`, §10.3.5's example).
fn resolve<'a>(g: &GrainInput, t: Option<GrainType>, name: &'a str) -> &'a str {
    if g.field(name).is_some() {
        return name;
    }
    t.and_then(|t| projection_alias(t, name)).map_or(name, |a| a.field)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn g(v: Value) -> GrainInput {
        GrainInput::new(v, 1.0, "sha256:ab")
    }

    #[test]
    fn canonical_numbers() {
        assert_eq!(canonical_number(0.90), "0.9");
        assert_eq!(canonical_number(1.5), "1.5");
        assert_eq!(canonical_number(3.0), "3");
        assert_eq!(canonical_number(-0.0), "0");
        assert_eq!(canonical_number(1e-7), "0.0000001");
        assert_eq!(canonical_number(1e21), "1000000000000000000000");
        assert_eq!(canonical_number(f64::NAN), "null");
        assert_eq!(canonical_number(f64::NEG_INFINITY), "null");
    }

    #[test]
    fn belief_projection_by_level() {
        let b = g(json!({"type": "belief", "subject": "alice", "relation": "mg:prefers", "object": "dark mode",
                         "confidence": 0.95, "namespace": "secret", "source_type": "user_explicit"}));
        let mut o = ProjectionOptions::default();
        let e = project(&b, &o);
        assert_eq!(e.content, "prefers dark mode");
        assert_eq!(e.attrs.len(), 2);
        o.disclosure = Disclosure::Summary;
        assert_eq!(project(&b, &o).attrs.len(), 1);
        o.disclosure = Disclosure::Full;
        let full = project(&b, &o);
        assert_eq!(full.attr("source"), Some(&Scalar::Str("user_explicit".into())));
        assert!(full.attrs.iter().all(|a| a.name != "namespace"));
    }

    #[test]
    fn project_clause_overrides_defaults() {
        let o = g(json!({"type": "observation", "object": "elevated heart rate detected", "observer_id": "dr-smith",
                         "context": {"hc:patient_id": "P-1234"}}));
        let opts = ProjectionOptions {
            project: Some(Project {
                content: vec!["object".into()],
                attrs: vec!["observer".into(), "hc:patient_id".into()],
            }),
            ..Default::default()
        };
        let e = project(&o, &opts);
        assert_eq!(e.content, "elevated heart rate detected");
        let names: Vec<_> = e.attrs.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["observer", "hc:patient_id"]);
    }
}
