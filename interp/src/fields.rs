//! Where each CAL field lives in an OMS grain (§5.2, §6.3, §12.2 against OMS
//! §6, §8), and how its value is read for conditions, ORDER BY, GROUP BY,
//! SELECT, dedup and PROJECT.
//!
//! Most fields have the same name in both specs. The others are mapped here
//! and only here (docs/spec-decisions-interp.md, F1–F9): `time` is
//! `created_at`, `tags` is `structural_tags`, `reasoning_type` is
//! `inference_method`, `grantor_did` is the consent's `subject_did`,
//! `expires_at` is its `valid_to`, `consent_action` reads `is_withdrawal`,
//! `goal_state` maps OMS's states onto CAL's words, `action_phase` defaults to
//! `complete` (OMS §27.1), `threshold` is the agreement ratio, a state's
//! `context` is its context map's `id`, and domain fields (`hc:patient_id`)
//! are top-level grain fields, else keys of the `context` map.

use oms::Value;
use oms::store::Hit;

use crate::timeexpr::format_rfc3339;

/// CAL `goal_state` words for OMS §8.7 states, in both directions.
pub const GOAL_STATES: &[(&str, &str)] =
    &[("active", "active"), ("completed", "satisfied"), ("abandoned", "failed"), ("blocked", "suspended")];

/// The CAL word for an OMS goal state (unknown values pass through).
pub fn goal_state_to_cal(oms: &str) -> &str {
    GOAL_STATES.iter().find(|(_, o)| *o == oms).map_or(oms, |(c, _)| c)
}

/// Fields whose value is a time (epoch ms in the grain).
pub fn is_temporal(field: &str) -> bool {
    matches!(field, "time" | "deadline" | "expires_at")
}

/// The grain field a CAL field reads directly, when it does (scalar values the
/// store can filter and sort on).
pub fn direct(field: &str) -> Option<&'static str> {
    Some(match field {
        "subject" => "subject",
        "relation" => "relation",
        "object" => "object",
        "user_id" => "user_id",
        "namespace" => "namespace",
        "confidence" => "confidence",
        "importance" => "importance",
        "source_type" => "source_type",
        "recall_priority" => "recall_priority",
        "epistemic_status" => "epistemic_status",
        "verification_status" => "verification_status",
        "contradicted" => "contradicted",
        "time" => "created_at",
        "role" => "role",
        "session_id" => "session_id",
        "parent_message_id" => "parent_message_id",
        "model_id" => "model_id",
        "trigger" => "trigger",
        "tool_name" => "tool_name",
        "tool_call_id" => "tool_call_id",
        "is_error" => "is_error",
        "observer_id" => "observer_id",
        "observer_type" => "observer_type",
        "assigned_agent" => "assigned_agent",
        "deadline" => "deadline",
        "reasoning_type" => "inference_method",
        "agreement_count" => "agreement_count",
        "purpose" => "purpose",
        "grantor_did" => "subject_did",
        "grantee_did" => "grantee_did",
        "expires_at" => "valid_to",
        _ => return None,
    })
}

fn get<'a>(hit: &'a Hit, name: &str) -> Option<&'a Value> {
    hit.grain().get(name).filter(|v| !matches!(v, Value::Null))
}

fn contradicted(hit: &Hit) -> bool {
    // The store keeps the contradiction flag in the index layer's extras (OMS §28.3).
    matches!(hit.index.extra.get("ct"), Some(Value::Bool(true)))
}

/// The value of a CAL field on a retrieved grain, as the field's CAL type sees
/// it; `None` when the grain does not have it (§5.4: no match, never an error).
pub fn value(hit: &Hit, field: &str) -> Option<Value> {
    match field {
        "type" => hit.grain().grain_type().name().map(|n| Value::Str(n.into())),
        "hash" => Some(Value::Str(hit.address.to_hex())),
        "score" => Some(Value::Float(hit.score)),
        "tags" => get(hit, "structural_tags").cloned(),
        "verification_status" => {
            Some(Value::Str(hit.index.verification_status.clone().unwrap_or_else(|| "unverified".into())))
        }
        "contradicted" => Some(Value::Bool(contradicted(hit))),
        "goal_state" => get(hit, "goal_state").and_then(Value::as_str).map(|s| Value::Str(goal_state_to_cal(s).into())),
        "consent_action" => match get(hit, "is_withdrawal") {
            Some(Value::Bool(true)) => Some(Value::Str("withdraw".into())),
            Some(Value::Bool(false)) => Some(Value::Str("grant".into())),
            _ => None,
        },
        "action_phase" => match get(hit, "action_phase") {
            Some(v) => Some(v.clone()),
            None if hit.grain().grain_type() == oms::GrainType::Action => Some(Value::Str("complete".into())),
            None => None,
        },
        "threshold" => {
            let t = get(hit, "threshold")?.as_f64()?;
            let n = get(hit, "participating_observers")?.as_array()?.len();
            (n > 0).then(|| Value::Float(t / n as f64))
        }
        "context" => get(hit, "context")?.as_map()?.get("id").cloned(),
        "depends_on"
        | "scope"
        | "premises"
        | "participating_observers"
        | "plan"
        | "steps"
        | "content"
        | "conclusion" => get(hit, field).cloned(),
        _ => {
            if let Some(name) = direct(field) {
                return get(hit, name).cloned();
            }
            if field.contains(':') {
                return domain(hit, field);
            }
            None
        }
    }
}

/// A domain field (§12.2): a top-level grain field `prefix:name`, else the
/// `context` map's `prefix:name` or `name` (OMS Appendix A keeps integration
/// fields in the context map).
fn domain(hit: &Hit, field: &str) -> Option<Value> {
    if let Some(v) = get(hit, field) {
        return Some(v.clone());
    }
    let ctx = get(hit, "context")?.as_map()?;
    let bare = field.split_once(':').map_or(field, |(_, n)| n);
    ctx.get(field).or_else(|| ctx.get(bare)).filter(|v| !matches!(v, Value::Null)).cloned()
}

/// A value as JSON for output: times as RFC 3339 text, hashes as `sha256:…`.
pub fn to_output(field: &str, v: &Value) -> serde_json::Value {
    match (field, v) {
        (f, Value::Int(ms)) if is_temporal(f) => {
            i64::try_from(*ms).map_or(serde_json::Value::Null, |ms| format_rfc3339(ms).into())
        }
        ("hash", Value::Str(h)) => format!("sha256:{h}").into(),
        _ => oms::json::to_json(v),
    }
}

/// A value as text, for SUBJECTS/OBJECTS and group keys.
pub fn to_text(v: &Value) -> String {
    match v {
        Value::Str(s) => s.clone(),
        other => oms::json::to_json(other).to_string(),
    }
}
