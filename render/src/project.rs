//! The Content Projection Model (§10.3, §14.4): what of a grain becomes the
//! text content of its output element, which attributes it carries at each
//! disclosure level (§14.3), and the PROJECT override (§10.3.5).
//!
//! Every format renders [`Element`]s, never raw grains, so hashes, namespaces
//! and storage metadata cannot leak into the content layer (§14.2): only what
//! a projection names gets through.

use cal_grammar::binding::{Presentation, Read, binding, content_fallback, presentation};
use cal_grammar::enums::ConsentAction;
use cal_grammar::fields::{FULL_EXTRAS, TRIPLE, projection, projection_alias};
use cal_grammar::relations::humanize;
use cal_grammar::{DisclosureLevel, GrainType};
use serde_json::Value;

use crate::grain::{CalValue, GrainInput};
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

/// A value as text: relations humanized, instants as ages or dates (or RFC 3339 under
/// `WITH iso_timestamps`), ordered lists numbered, other lists joined with commas.
fn value_text(field: &str, v: &CalValue, opts: &ProjectionOptions) -> String {
    let how = presentation(field);
    match v {
        CalValue::Str(s) if how == Presentation::Relation => humanize(s).into_owned(),
        CalValue::Str(s) => s.clone(),
        CalValue::Time(ms) if opts.iso_timestamps => time::iso(*ms),
        CalValue::Time(ms) if how == Presentation::Age => time::relative(*ms, opts.now_ms),
        CalValue::Time(ms) => time::date_or_iso(*ms),
        CalValue::Int(i) => i.to_string(),
        CalValue::Float(f) => canonical_number(*f),
        CalValue::Bool(b) => b.to_string(),
        CalValue::List(items) if how == Presentation::Numbered => items
            .iter()
            .enumerate()
            .map(|(i, x)| format!("{}. {}", i + 1, value_text("", x, opts)))
            .collect::<Vec<_>>()
            .join(" "),
        CalValue::List(items) => items.iter().map(|x| value_text("", x, opts)).collect::<Vec<_>>().join(", "),
        CalValue::Map(_) => v.to_json().to_string(),
    }
}

fn scalar(field: &str, v: &CalValue, opts: &ProjectionOptions) -> Scalar {
    match v {
        CalValue::Int(i) => Scalar::Num(*i as f64),
        CalValue::Float(f) => Scalar::Num(*f),
        CalValue::Bool(b) => Scalar::Bool(*b),
        other => Scalar::Str(value_text(field, other, opts)),
    }
}

fn text(g: &GrainInput, field: &str, opts: &ProjectionOptions) -> Option<String> {
    let v = g.field(field)?;
    let s = value_text(field, &v, opts).trim().to_string();
    (!s.is_empty()).then_some(s)
}

/// The default text content of a grain (§10.3.2). When the CAL rule's field is absent, the
/// field OMS requires for that type stands in (`cal_grammar::binding::content_fallback`: a
/// goal's `description`, an action's `content`, a consensus's `agreed_content`). This is the
/// one implementation: the JSON `content` and the token estimates call it too.
pub fn default_content(g: &GrainInput, opts: &ProjectionOptions) -> String {
    let [_, _, object] = TRIPLE;
    let Some(t) = g.grain_type else { return text(g, object, opts).unwrap_or_default() };
    let parts: Vec<String> = projection(t).content.iter().filter_map(|f| text(g, f, opts)).collect();
    if !(parts.is_empty() || t == GrainType::Belief && parts.len() < 2) {
        return parts.join(" ");
    }
    match text(g, content_fallback(t), opts) {
        Some(f) if parts.is_empty() => f,
        Some(f) if t == GrainType::Belief => format!("{} {f}", parts.join(" ")),
        _ => parts.join(" "),
    }
}

/// Projects one grain into an [`Element`].
pub fn project(g: &GrainInput, opts: &ProjectionOptions) -> Element {
    let t = g.grain_type;
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
                    attrs.push(Attr { name: a.attr.to_string(), value: attr_scalar(a.field, &v, opts) });
                }
            }
        }
        if opts.disclosure == Disclosure::Full {
            for a in FULL_EXTRAS {
                if let Some(v) = g.field(a.field) {
                    attrs.push(Attr { name: a.attr.to_string(), value: scalar(a.field, &v, opts) });
                }
            }
        }
    }
    let [subject, relation, object] = TRIPLE;
    let subject = text(g, subject, opts).or_else(|| attrs.first().map(|a| a.value.text())).unwrap_or_default();
    let relation = text(g, relation, opts).unwrap_or_else(|| tag.clone());
    let object = if t == Some(GrainType::Belief) { text(g, object, opts).unwrap_or_default() } else { content.clone() };
    Element { grain_type: t, tag, group, content, attrs, triple: (subject, relation, object) }
}

/// A default attribute's value: a consent's action in the past tense §10.3.2's example
/// shows (`action="granted"`), every other value as [`scalar`] gives it.
fn attr_scalar(field: &str, v: &CalValue, opts: &ProjectionOptions) -> Scalar {
    match v.as_str().and_then(ConsentAction::from_word) {
        Some(a) if binding(field).is_some_and(|b| b.read == Read::ConsentAction) => {
            Scalar::Str(a.past_tense().to_string())
        }
        _ => scalar(field, v, opts),
    }
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

    use crate::grain::{CalValue as V, test_grain};

    fn s(x: &str) -> V {
        V::Str(x.into())
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
        let b = test_grain(
            GrainType::Belief,
            "sha256:ab",
            &[
                ("subject", s("alice")),
                ("relation", s("mg:prefers")),
                ("object", s("dark mode")),
                ("confidence", V::Float(0.95)),
                ("namespace", s("secret")),
                ("source_type", s("user_explicit")),
            ],
        );
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
        let mut o = test_grain(
            GrainType::Observation,
            "sha256:ab",
            &[("object", s("elevated heart rate detected")), ("observer_id", s("dr-smith"))],
        );
        o.set_domain("hc:patient_id", s("P-1234"));
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
