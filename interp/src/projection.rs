//! The Content Projection Model (§10.3) as far as JSON output needs it: the
//! default text content of a grain (§10.3.2, from `cal_grammar::fields`), the
//! `PROJECT content(…), attr(…)` stage (§10.3.5), and a token estimate of
//! what a grain costs in a context window (§8.2 "approximate by design").
//!
//! Rendering the content layer in markdown, SML, TOON … belongs to the output
//! formats and is not done here.

use cal_grammar::fields::{projection, projection_alias};
use cal_grammar::relations::humanize;
use cal_parser::ast::ProjectSpec;
use oms::Value;
use oms::store::Hit;
use serde_json::{Map, Value as Json};

use crate::fields;
use crate::recall::eval::text_of;

/// The CAL grain type of a hit, when it is one of the ten.
pub fn cal_type(hit: &Hit) -> Option<cal_grammar::GrainType> {
    let byte = hit.grain().grain_type().byte();
    cal_grammar::GrainType::ALL.iter().copied().find(|g| g.oms_code() == byte)
}

fn text(hit: &Hit, field: &str) -> Option<String> {
    let v = fields::value(hit, field)?;
    let mut s = String::new();
    match (field, &v) {
        ("relation", Value::Str(r)) => s.push_str(&humanize(r)),
        ("steps" | "plan", Value::Array(items)) => {
            let parts: Vec<String> =
                items.iter().enumerate().filter_map(|(i, x)| x.as_str().map(|t| format!("{}. {t}", i + 1))).collect();
            s.push_str(&parts.join(" "));
        }
        (f, v) if fields::is_temporal(f) => {
            if let Json::String(t) = fields::to_output(f, v) {
                s.push_str(&t);
            }
        }
        (_, v) => {
            text_of(v, &mut s);
            if s.is_empty() {
                s = fields::to_text(v);
            }
        }
    }
    let s = s.trim().to_string();
    (!s.is_empty()).then_some(s)
}

/// The default text content of a grain (§10.3.2), with the OMS field a type
/// actually requires when the CAL rule's field is absent (a goal's
/// `description`, an action's `content`, a consensus's `agreed_content`).
pub fn content(hit: &Hit) -> String {
    let Some(t) = cal_type(hit) else { return text(hit, "object").unwrap_or_default() };
    let parts: Vec<String> = projection(t).content.iter().filter_map(|f| text(hit, f)).collect();
    if !(parts.is_empty() || t == cal_grammar::GrainType::Belief && parts.len() < 2) {
        return parts.join(" ");
    }
    let fallback = match t {
        cal_grammar::GrainType::Goal => "description",
        cal_grammar::GrainType::Action => "content",
        cal_grammar::GrainType::Consensus => "agreed_content",
        _ => "object",
    };
    text(hit, fallback)
        .map_or_else(|| parts.join(" "), |f| if parts.is_empty() { f } else { format!("{} {f}", parts.join(" ")) })
}

/// Approximate tokens of a grain's projected content: one per four bytes,
/// rounded up, at least one (§8.2: estimation is approximate by design).
pub fn tokens(hit: &Hit) -> u64 {
    (content(hit).len() as u64).div_ceil(4).max(1)
}

/// `PROJECT content(…), attr(…)` (§10.3.5) on one grain: the content text
/// composed from the listed fields (relations humanized) and the attributes.
pub fn project(hit: &Hit, specs: &[ProjectSpec]) -> Json {
    let mut content_parts = Vec::new();
    let mut attrs = Map::new();
    let t = cal_type(hit);
    for spec in specs {
        for f in &spec.fields {
            let name = f.name.as_str();
            let field = if fields::value(hit, name).is_none() {
                t.and_then(|g| projection_alias(g, name)).map_or(name, |a| a.field)
            } else {
                name
            };
            if spec.is_attr {
                if let Some(v) = fields::value(hit, field) {
                    attrs.insert(name.to_string(), fields::to_output(field, &v));
                }
            } else if let Some(s) = text(hit, field) {
                content_parts.push(s);
            }
        }
    }
    let mut out = Map::new();
    out.insert("content".into(), content_parts.join(" ").into());
    out.insert("attrs".into(), Json::Object(attrs));
    Json::Object(out)
}
