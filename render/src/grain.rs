//! Retrieved grains as the content layer receives them: typed CAL values under
//! CAL field names.
//!
//! The renderer never sees an OMS grain. The interpreter reads each grain
//! through grammar's CAL↔OMS binding (`cal_grammar::binding`) and hands over
//! the result, so renamed fields, converted values (the consensus `threshold`
//! ratio, CAL goal-state words) and defaults (an action's `complete` phase)
//! are the ones WHERE and JSON output use. Instants arrive as
//! [`CalValue::Time`], so no field name decides what is a time. The address
//! and score are kept for templates (`{{grain.hash}}`, `{{grain.score}}`) and
//! never reach a preset format (§14.2).

use cal_grammar::GrainType;
use cal_grammar::binding::domain_keys;
use serde_json::Value as Json;

/// A CAL value of a grain field.
#[derive(Debug, Clone, PartialEq)]
pub enum CalValue {
    /// Text.
    Str(String),
    /// A whole number.
    Int(i64),
    /// A number with a fraction.
    Float(f64),
    /// true / false.
    Bool(bool),
    /// An instant, in epoch milliseconds (fields of type Temporal).
    Time(i64),
    /// A list (tags, steps, depends_on …).
    List(Vec<CalValue>),
    /// A map, entries in stored order (a context map a projection names as a whole).
    Map(Vec<(String, CalValue)>),
}

impl CalValue {
    /// The text, when the value is text.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            CalValue::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The value as JSON; instants as epoch milliseconds, non-finite numbers as null.
    pub fn to_json(&self) -> Json {
        match self {
            CalValue::Str(s) => Json::String(s.clone()),
            CalValue::Int(i) | CalValue::Time(i) => Json::from(*i),
            CalValue::Float(f) => serde_json::Number::from_f64(*f).map_or(Json::Null, Json::Number),
            CalValue::Bool(b) => Json::Bool(*b),
            CalValue::List(items) => Json::Array(items.iter().map(CalValue::to_json).collect()),
            CalValue::Map(entries) => Json::Object(entries.iter().map(|(k, v)| (k.clone(), v.to_json())).collect()),
        }
    }
}

/// One retrieved grain, as CAL sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct GrainInput {
    /// The grain type, when it is one of the ten.
    pub grain_type: Option<GrainType>,
    /// The type's singular name as stored (for types outside the ten).
    pub type_name: String,
    /// The relevance score the retrieval gave it (1.0 when there was no ranking).
    pub score: f64,
    /// The content address, `sha256:…` (machine envelope and templates only).
    pub hash: String,
    fields: Vec<(String, CalValue)>,
    domain: Vec<(String, CalValue)>,
}

impl GrainInput {
    /// An empty grain of a type, with its score and address; add fields with [`Self::set`].
    pub fn new(
        grain_type: Option<GrainType>,
        type_name: impl Into<String>,
        score: f64,
        hash: impl Into<String>,
    ) -> Self {
        GrainInput {
            grain_type,
            type_name: type_name.into(),
            score,
            hash: hash.into(),
            fields: Vec::new(),
            domain: Vec::new(),
        }
    }

    /// Sets the CAL field `name` (or, for the type's content fallback, the OMS field
    /// `cal_grammar::binding::content_fallback` names).
    pub fn set(&mut self, name: impl Into<String>, value: CalValue) {
        let name = name.into();
        match self.fields.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = value,
            None => self.fields.push((name, value)),
        }
    }

    /// Adds a domain entry (a top-level prefixed grain field, or a key of its context map),
    /// looked up by [`Self::field`] for names with a `:` (§12.2).
    pub fn set_domain(&mut self, key: impl Into<String>, value: CalValue) {
        self.domain.push((key.into(), value));
    }

    /// The `type` as written (the singular name).
    pub fn type_name(&self) -> &str {
        &self.type_name
    }

    /// The value of the CAL field `field` (§5.2, §6.3, §12.2), or `None` when the grain lacks it.
    /// `type`, `hash` and `score` are always there.
    pub fn field(&self, field: &str) -> Option<CalValue> {
        if let Some((_, v)) = self.fields.iter().find(|(n, _)| n == field) {
            return Some(v.clone());
        }
        match cal_grammar::binding::binding(field).map(|b| b.read) {
            Some(cal_grammar::binding::Read::GrainType) => return Some(CalValue::Str(self.type_name.clone())),
            Some(cal_grammar::binding::Read::Address) => return Some(CalValue::Str(self.hash.clone())),
            Some(cal_grammar::binding::Read::Score) => return Some(CalValue::Float(self.score)),
            _ => {}
        }
        if field.contains(':') {
            return domain_keys(field)
                .iter()
                .find_map(|k| self.domain.iter().find(|(n, _)| n == k))
                .map(|(_, v)| v.clone());
        }
        None
    }

    /// The fields set on the grain, in the order they were set.
    pub fn fields(&self) -> impl Iterator<Item = (&str, &CalValue)> {
        self.fields.iter().map(|(n, v)| (n.as_str(), v))
    }
}

/// A grain of a standard type with the given CAL fields, for unit tests.
#[cfg(test)]
pub(crate) fn test_grain(t: GrainType, hash: &str, fields: &[(&str, CalValue)]) -> GrainInput {
    let mut g = GrainInput::new(Some(t), t.singular(), 1.0, hash);
    for (n, v) in fields {
        g.set(*n, v.clone());
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_fields_meta_and_domain_entries() {
        let mut g = GrainInput::new(Some(GrainType::Consent), "consent", 0.5, "sha256:00");
        g.set("grantor_did", CalValue::Str("did:a".into()));
        g.set("time", CalValue::Time(5));
        g.set_domain("patient_id", CalValue::Str("P-1".into()));
        assert_eq!(g.field("grantor_did"), Some(CalValue::Str("did:a".into())));
        assert_eq!(g.field("time"), Some(CalValue::Time(5)));
        assert_eq!(g.field("type"), Some(CalValue::Str("consent".into())));
        assert_eq!(g.field("hash"), Some(CalValue::Str("sha256:00".into())));
        assert_eq!(g.field("score"), Some(CalValue::Float(0.5)));
        assert_eq!(g.field("hc:patient_id"), Some(CalValue::Str("P-1".into())));
        assert_eq!(g.field("nope"), None);
    }
}
