//! The Tier 1 evolve field sets: what ADD and SUPERSEDE may SET (§5.3, §6.4).

use super::*;

/// A field an evolve statement may SET (§5.3, §6.4).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EvolveField {
    /// The field name after `SET`.
    pub name: &'static str,
    /// The type of its value.
    pub value_type: ValueType,
    /// ADD must set it (CAL-E050 otherwise).
    pub required: bool,
    /// The closed value set, when there is one.
    pub enum_values: Option<&'static [&'static str]>,
    /// The closed numeric range, when there is one.
    pub range: Option<(f64, f64)>,
    /// The spec section.
    pub section: &'static str,
    /// One line for hovers and completion.
    pub doc: &'static str,
}

/// A table row of the evolve field lists.
const fn evolve(
    name: &'static str,
    value_type: ValueType,
    required: bool,
    section: &'static str,
    doc: &'static str,
) -> EvolveField {
    EvolveField { name, value_type, required, enum_values: None, range: None, section, doc }
}

impl EvolveField {
    /// Table builder: the closed value set.
    const fn values(mut self, values: &'static [&'static str]) -> Self {
        self.enum_values = Some(values);
        self
    }

    /// Table builder: the numeric range [0, 1].
    const fn unit_range(mut self) -> Self {
        self.range = UNIT;
        self
    }
}

/// The six ADD fields of every addable type (§5.3); the first three are required. `namespace`
/// and `user_id` come from the capability token and can never be SET.
#[rustfmt::skip] // one row per field, as in §5.3
pub static ADD_BASE_FIELDS: &[EvolveField] = &[
    evolve("subject", V::String, true, "5.3", "The entity."),
    evolve("relation", V::String, true, "5.3", "The predicate."),
    evolve("object", V::String, true, "5.3", "The value."),
    evolve("confidence", V::Number, false, "5.3", "0.0 to 1.0; default implementation-defined.").unit_range(),
    evolve("importance", V::Number, false, "5.3", "0.0 to 1.0; default implementation-defined.").unit_range(),
    evolve("tags", V::Array, false, "5.3", "Tag set; default empty."),
];

/// The extra ADD fields of `ADD goal` (§6.4), typed as in §6.3.
#[rustfmt::skip]
pub static GOAL_ADD_FIELDS: &[EvolveField] = &[
    evolve("goal_state", V::String, false, "6.4", "Goal state: active, completed, abandoned or blocked.")
        .values(enums::GOAL_STATE_VALUES),
    evolve("assigned_agent", V::String, false, "6.4", "DID of the responsible agent."),
    evolve("deadline", V::Temporal, false, "6.4", "Deadline, ISO 8601 or epoch."),
    evolve("depends_on", V::String, false, "6.4", "Content address of a prerequisite goal."),
];

/// The extra ADD fields of `ADD observation` (§6.4), typed as in §6.3.
#[rustfmt::skip]
pub static OBSERVATION_ADD_FIELDS: &[EvolveField] = &[
    evolve("observer_id", V::String, false, "6.4", "Identifier of the observing entity."),
    evolve("observer_type", V::String, false, "6.4", "Type classifier of the observer."),
];

/// The only fields SUPERSEDE may SET (§5.3), none required; at least one SET is (CAL-E019).
#[rustfmt::skip]
pub static SUPERSEDE_FIELDS: &[EvolveField] = &[
    evolve("object", V::String, false, "5.3", "The new value of the fact."),
    evolve("confidence", V::Number, false, "5.3", "0.0 to 1.0.").unit_range(),
    evolve("importance", V::Number, false, "5.3", "0.0 to 1.0.").unit_range(),
    evolve("tags", V::Array, false, "5.3", "Replaces the tag set."),
];

/// The type-specific ADD fields of `grain` (§6.4): goal and observation have some; belief
/// none; the other types are not addable at all (CAL-E051) and have none.
pub const fn add_extension_fields(grain: GrainType) -> &'static [EvolveField] {
    match grain {
        G::Goal => GOAL_ADD_FIELDS,
        G::Observation => OBSERVATION_ADD_FIELDS,
        _ => &[],
    }
}

/// Every field `ADD grain` may SET: the base fields, then the type's extension fields.
pub fn add_fields(grain: GrainType) -> impl Iterator<Item = &'static EvolveField> {
    ADD_BASE_FIELDS.iter().chain(add_extension_fields(grain))
}

/// The field `name` of `ADD grain`, or `None` (CAL-E017).
pub fn add_field(grain: GrainType, name: &str) -> Option<&'static EvolveField> {
    add_fields(grain).find(|f| f.name == name)
}

/// The SUPERSEDE field `name`, or `None` (CAL-E017).
pub fn supersede_field(name: &str) -> Option<&'static EvolveField> {
    SUPERSEDE_FIELDS.iter().find(|f| f.name == name)
}

/// The fields every ADD must set (CAL-E050): subject, relation, object.
pub fn required_add_fields() -> impl Iterator<Item = &'static EvolveField> {
    ADD_BASE_FIELDS.iter().filter(|f| f.required)
}

// -------------------------------------------------- content projection ----
