//! Retrieved grains as the content layer receives them, and where each CAL
//! field lives among their OMS fields.
//!
//! The renderer is pure: the interpreter hands it grains already retrieved,
//! as JSON objects with full OMS field names (`oms::Grain::to_json`), with
//! each grain's relevance score and content address. The address and score
//! are kept for templates (`{{grain.hash}}`, `{{grain.score}}`) and never
//! reach a preset format (§14.2).

use cal_grammar::GrainType;
use serde_json::{Map, Value};

/// One retrieved grain.
#[derive(Debug, Clone, PartialEq)]
pub struct GrainInput {
    /// The grain's fields under their full OMS names, `type` included.
    pub fields: Map<String, Value>,
    /// The relevance score the retrieval gave it (1.0 when there was no ranking).
    pub score: f64,
    /// The content address, `sha256:…` (machine envelope only).
    pub hash: String,
}

impl GrainInput {
    /// A grain from its JSON object; non-objects give an empty grain of unknown type.
    pub fn new(fields: Value, score: f64, hash: impl Into<String>) -> Self {
        let fields = match fields {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        GrainInput { fields, score, hash: hash.into() }
    }

    /// The CAL grain type, from the `type` field (singular OMS name).
    pub fn grain_type(&self) -> Option<GrainType> {
        self.fields.get("type").and_then(Value::as_str).and_then(GrainType::from_singular)
    }

    /// The `type` field as written (for types outside the ten, e.g. `fact`).
    pub fn type_name(&self) -> &str {
        self.fields.get("type").and_then(Value::as_str).unwrap_or("grain")
    }

    fn raw(&self, name: &str) -> Option<&Value> {
        self.fields.get(name).filter(|v| !v.is_null())
    }

    /// The value of the CAL field `field` (§5.2, §6.3), or `None` when the grain lacks it.
    ///
    /// A field present under its CAL name wins; otherwise the OMS field it maps to is read,
    /// with the same mapping the interpreter uses (docs/spec-decisions-interp.md F1–F9):
    /// `time` is `created_at`, `tags` is `structural_tags`, `reasoning_type` is
    /// `inference_method`, `grantor_did` is `subject_did`, a state's `context` is its context
    /// map's `id`, OMS goal states become CAL words, and `consent_action` is read from
    /// `is_withdrawal` as the past-tense words §10.6 shows (`granted` / `withdrawn`).
    /// Domain fields (`hc:patient_id`) are top-level fields, else keys of the `context` map.
    pub fn field(&self, field: &str) -> Option<Value> {
        // `goal_state` is stored in OMS words (`satisfied`) and shown in CAL's (`completed`), so
        // it always goes through the mapping below.
        if field != "context"
            && field != "goal_state"
            && let Some(v) = self.raw(field)
        {
            return Some(v.clone());
        }
        let mapped = match field {
            "time" => "created_at",
            "tags" => "structural_tags",
            "reasoning_type" => "inference_method",
            "grantor_did" => "subject_did",
            "expires_at" => "valid_to",
            "goal_state" => {
                let s = self.raw("goal_state")?.as_str()?;
                let cal = match s {
                    "satisfied" => "completed",
                    "failed" => "abandoned",
                    "suspended" => "blocked",
                    other => other,
                };
                return Some(Value::String(cal.to_string()));
            }
            "consent_action" => {
                return match self.raw("is_withdrawal")? {
                    Value::Bool(true) => Some("withdrawn".into()),
                    Value::Bool(false) => Some("granted".into()),
                    _ => None,
                };
            }
            "context" => {
                return match self.raw("context")? {
                    Value::Object(m) => m.get("id").filter(|v| !v.is_null()).cloned(),
                    other => Some(other.clone()),
                };
            }
            "type" => return Some(Value::String(self.type_name().to_string())),
            "hash" => return Some(Value::String(self.hash.clone())),
            "score" => return serde_json::Number::from_f64(self.score).map(Value::Number),
            f if f.contains(':') => {
                let ctx = self.raw("context")?.as_object()?;
                let bare = f.split_once(':').map_or(f, |(_, n)| n);
                return ctx.get(f).or_else(|| ctx.get(bare)).filter(|v| !v.is_null()).cloned();
            }
            _ => return None,
        };
        self.raw(mapped).cloned()
    }
}

/// True for CAL fields whose value is an instant (epoch milliseconds in the grain).
pub fn is_temporal(field: &str) -> bool {
    matches!(field, "time" | "created_at" | "deadline" | "expires_at" | "valid_to" | "valid_from")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn maps_cal_fields_onto_oms_fields() {
        let g = GrainInput::new(
            json!({"type": "consent", "subject_did": "did:a", "is_withdrawal": false, "created_at": 5,
                   "context": {"id": "ctx", "hc:patient_id": "P-1"}}),
            0.5,
            "sha256:00",
        );
        assert_eq!(g.grain_type(), Some(GrainType::Consent));
        assert_eq!(g.field("grantor_did"), Some(json!("did:a")));
        assert_eq!(g.field("consent_action"), Some(json!("granted")));
        assert_eq!(g.field("time"), Some(json!(5)));
        assert_eq!(g.field("context"), Some(json!("ctx")));
        assert_eq!(g.field("hc:patient_id"), Some(json!("P-1")));
        assert_eq!(g.field("nope"), None);
    }
}
