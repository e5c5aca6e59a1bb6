//! The CAL↔OMS binding: where each CAL field (§5.2, §6.3) lives in an OMS
//! grain (OMS §6, §8), and how its stored value becomes the CAL value.
//!
//! This is the one table the toolchain reads a grain through. The interpreter
//! evaluates WHERE, ORDER BY, GROUP BY, SELECT and dedup with it, and builds
//! the typed grain the content layer renders from it, so a condition and the
//! formatted output can never disagree about a field (they used to: output
//! showed the consensus `threshold` as a count while WHERE used a ratio).
//! The rulings behind the non-obvious rows are F1–F9 in
//! docs/spec-decisions-interp.md.

use crate::enums::{ActionPhase, ConsentAction, GoalState};
use crate::fields::{self, ValueType};
use crate::vocab::GrainType;

/// How a CAL field's value is read from a stored grain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Read {
    /// The OMS field of this name, a scalar stored as is (`time` is `created_at`, F2).
    Field(&'static str),
    /// The OMS field of this name, free text a `=` condition searches (F9).
    Text(&'static str),
    /// The OMS field of this name, a list (`tags` is `structural_tags`, F1).
    List(&'static str),
    /// OMS goal states mapped onto CAL's words ([`GOAL_STATES`], F4).
    GoalState,
    /// `is_withdrawal` read as [`ConsentAction`] (F3).
    ConsentAction,
    /// The agreement ratio `threshold / |participating_observers|` (F6).
    ThresholdRatio,
    /// The context map's `id` entry (F7).
    ContextId,
    /// The stored phase, or [`ActionPhase::Complete`] on an Action without one (F5).
    ActionPhase,
    /// The grain type's singular name.
    GrainType,
    /// The content address.
    Address,
    /// The retrieval's relevance score.
    Score,
    /// The store's contradiction flag (index layer, not the blob).
    Contradicted,
    /// The store's verification status (index layer), `unverified` when unset.
    VerificationStatus,
}

/// One row of the binding: a CAL field name and how to read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Binding {
    /// The CAL field name (`reasoning_type`).
    pub cal: &'static str,
    /// How its value is read (`Field("inference_method")`).
    pub read: Read,
}

const fn same(name: &'static str) -> Binding {
    Binding { cal: name, read: Read::Field(name) }
}

const fn bind(cal: &'static str, read: Read) -> Binding {
    Binding { cal, read }
}

/// Every CAL field with a stored value, common fields first, then by grain type
/// (`query` is a search trigger, not a value, and has no row).
pub static BINDINGS: &[Binding] = &[
    same("subject"),
    same("relation"),
    same("object"),
    same("user_id"),
    same("namespace"),
    same("confidence"),
    same("importance"),
    bind("score", Read::Score),
    bind("tags", Read::List("structural_tags")),
    bind("type", Read::GrainType),
    bind("time", Read::Field("created_at")),
    bind("hash", Read::Address),
    bind("contradicted", Read::Contradicted),
    bind("verification_status", Read::VerificationStatus),
    same("source_type"),
    same("recall_priority"),
    same("epistemic_status"),
    // Event
    same("role"),
    same("session_id"),
    same("parent_message_id"),
    same("model_id"),
    bind("content", Read::Text("content")),
    // State
    bind("context", Read::ContextId),
    bind("plan", Read::Text("plan")),
    // Workflow
    same("trigger"),
    bind("steps", Read::Text("steps")),
    // Action
    same("tool_name"),
    bind("action_phase", Read::ActionPhase),
    same("is_error"),
    same("tool_call_id"),
    // Observation
    same("observer_id"),
    same("observer_type"),
    // Goal
    bind("goal_state", Read::GoalState),
    same("assigned_agent"),
    same("deadline"),
    bind("depends_on", Read::List("depends_on")),
    // Reasoning
    bind("reasoning_type", Read::Field("inference_method")),
    bind("premises", Read::List("premises")),
    bind("conclusion", Read::Text("conclusion")),
    // Consensus
    bind("threshold", Read::ThresholdRatio),
    same("agreement_count"),
    bind("participating_observers", Read::List("participating_observers")),
    // Consent
    bind("consent_action", Read::ConsentAction),
    same("purpose"),
    bind("grantor_did", Read::Field("subject_did")),
    same("grantee_did"),
    bind("scope", Read::List("scope")),
    bind("expires_at", Read::Field("valid_to")),
];

/// The binding of a CAL field, `None` for `query`, domain fields and unknown names.
pub fn binding(cal: &str) -> Option<&'static Binding> {
    BINDINGS.iter().find(|b| b.cal == cal)
}

/// The OMS field a CAL field reads as stored, when it reads one unchanged,
/// whatever its shape (scalar, text or list).
pub fn stored_field(cal: &str) -> Option<&'static str> {
    match binding(cal)?.read {
        Read::Field(name) | Read::Text(name) | Read::List(name) => Some(name),
        _ => None,
    }
}

/// True when the field holds an instant (its value type is Temporal): `time`,
/// `deadline`, `expires_at`. Grains store instants as epoch milliseconds.
pub fn is_temporal(cal: &str) -> bool {
    fields::common_field(cal)
        .or_else(|| GrainType::ALL.iter().find_map(|g| fields::type_field(*g, cal)))
        .is_some_and(|f| f.value_type == ValueType::Temporal)
}

/// CAL `goal_state` words and the OMS §8.7 states they stand for (F4).
pub const GOAL_STATES: &[(GoalState, &str)] = &[
    (GoalState::Active, "active"),
    (GoalState::Completed, "satisfied"),
    (GoalState::Abandoned, "failed"),
    (GoalState::Blocked, "suspended"),
];

/// The CAL word for an OMS goal state; values outside OMS §8.7 pass through.
pub fn goal_state_to_cal(oms: &str) -> &str {
    GOAL_STATES.iter().find(|(_, o)| *o == oms).map_or(oms, |(c, _)| c.as_str())
}

/// The OMS goal state a CAL word stands for; unknown words pass through.
pub fn goal_state_to_oms(cal: &str) -> &str {
    GOAL_STATES.iter().find(|(c, _)| c.as_str() == cal).map_or(cal, |(_, o)| o)
}

/// The consent action an `is_withdrawal` flag records (F3).
pub const fn consent_action(is_withdrawal: bool) -> ConsentAction {
    if is_withdrawal { ConsentAction::Withdraw } else { ConsentAction::Grant }
}

/// The CAL field holding when a grain was created (OMS `created_at`).
pub use crate::fields::names::TIME;

/// The phase of an Action that does not state one: the synchronous `complete` (OMS §27.1, F5).
pub const DEFAULT_ACTION_PHASE: ActionPhase = ActionPhase::Complete;

/// The keys a domain field (`hc:patient_id`) is looked up under, in order: the
/// prefixed name, then the bare name (F8: a top-level grain field, else a key of
/// the `context` map, with or without the prefix).
pub fn domain_keys(field: &str) -> [&str; 2] {
    [field, field.split_once(':').map_or(field, |(_, bare)| bare)]
}

/// The OMS field a grain type requires for its text when the §10.3.2 content
/// field is absent: a goal's `description`, an action's `content`, a
/// consensus's `agreed_content`; every other type falls back to `object`.
pub const fn content_fallback(grain: GrainType) -> &'static str {
    match grain {
        GrainType::Goal => "description",
        GrainType::Action => "content",
        GrainType::Consensus => "agreed_content",
        _ => "object",
    }
}

/// How the content layer shows a field's value in text (§10.3.3, §10.3.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presentation {
    /// As stored.
    Plain,
    /// A relation, humanized (`mg:prefers` → `prefers`, §10.3.3).
    Relation,
    /// The grain's own time, shown as an age (`3h ago`, §10.3.4).
    Age,
    /// An instant to meet (a deadline, an expiry), shown as a date.
    Date,
    /// A list whose order matters, numbered (`1. … 2. …`).
    Numbered,
}

/// How the field `cal` is shown in text.
pub fn presentation(cal: &str) -> Presentation {
    match cal {
        "relation" => Presentation::Relation,
        TIME => Presentation::Age,
        "steps" | "plan" => Presentation::Numbered,
        f if is_temporal(f) => Presentation::Date,
        _ => Presentation::Plain,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_queryable_field_but_query_has_one_binding() {
        let mut names: Vec<&str> = fields::COMMON_FIELDS.iter().map(|f| f.name).collect();
        for g in GrainType::ALL {
            names.extend(fields::type_fields(*g).iter().map(|f| f.name));
        }
        for n in &names {
            let rows = BINDINGS.iter().filter(|b| b.cal == *n).count();
            assert_eq!(rows, usize::from(*n != "query"), "{n}");
        }
        assert!(BINDINGS.iter().all(|b| names.contains(&b.cal)), "a binding row without a field");
    }

    #[test]
    fn temporal_fields_come_from_the_field_types() {
        let temporal: Vec<&str> = BINDINGS.iter().map(|b| b.cal).filter(|c| is_temporal(c)).collect();
        assert_eq!(temporal, ["time", "deadline", "expires_at"]);
    }

    #[test]
    fn goal_states_map_both_ways() {
        for (cal, oms) in GOAL_STATES {
            assert_eq!(goal_state_to_cal(oms), cal.as_str());
            assert_eq!(goal_state_to_oms(cal.as_str()), *oms);
        }
        assert_eq!(goal_state_to_cal("weird"), "weird");
    }

    #[test]
    fn presentations() {
        assert_eq!(presentation("relation"), Presentation::Relation);
        assert_eq!(presentation("time"), Presentation::Age);
        assert_eq!(presentation("deadline"), Presentation::Date);
        assert_eq!(presentation("expires_at"), Presentation::Date);
        assert_eq!(presentation("steps"), Presentation::Numbered);
        assert_eq!(presentation("object"), Presentation::Plain);
    }

    #[test]
    fn domain_keys_try_the_prefix_first() {
        assert_eq!(domain_keys("hc:patient_id"), ["hc:patient_id", "patient_id"]);
        assert_eq!(domain_keys("plain"), ["plain", "plain"]);
    }
}
