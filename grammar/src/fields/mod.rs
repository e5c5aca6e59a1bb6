//! The queryable field tables (§3.3, §5.2, §6.3, §12.2, Appendix E), the
//! Tier 1 evolve field sets (§5.3, §6.4), and the per-grain-type content
//! projection attributes (§10.3.2), as static data with the lookups the
//! checker, planner, `DESCRIBE fields` and the language server share.
//!
//! Field resolution follows §6.2: the 18 common fields are always available;
//! a grain type's specific fields are available only when the statement
//! declares that type. [`resolve`] returns the whole verdict in one value so
//! that every consumer reports the same code (CAL-E004, E060, E061, W003).
//!
//! Appendix E gives sortable/projectable/groupable flags only for the common
//! fields. For the type-specific fields we derive them from what a field
//! holds ([`Shape`]), by analogy with the common ones; the rule is recorded in
//! docs/spec-decisions-grammar.md ("Flags of type-specific fields").

use crate::enums;
use crate::suggest::did_you_mean;
use crate::vocab::GrainType;
use crate::word_enum;

// Short names for the table rows below.
use FieldOp as Op;
use GrainType as G;
use Shape as S;
use ValueType as V;

word_enum! {
    /// The value types of §5.2 / Appendix E, spelled as the spec's tables spell them.
    pub enum ValueType {
        String = "String", Number = "Number", Boolean = "Boolean", Array = "Array",
        GrainType = "GrainType", Temporal = "Temporal", Hash = "Hash",
    }
}

word_enum! {
    /// An operator a condition can apply to a field (§4 `condition`, §5.2 "Operators").
    pub enum FieldOp {
        Eq = "=", Ne = "!=", Ge = ">=", Le = "<=", Gt = ">", Lt = "<",
        In = "IN", Is = "IS", Include = "INCLUDE", Exclude = "EXCLUDE", Between = "BETWEEN",
    }
}

impl FieldOp {
    /// The operator of a `field <comparator> value` condition.
    pub const fn from_comparator(c: crate::vocab::Comparator) -> FieldOp {
        use crate::vocab::Comparator as C;
        match c {
            C::Eq => FieldOp::Eq,
            C::Ne => FieldOp::Ne,
            C::Ge => FieldOp::Ge,
            C::Le => FieldOp::Le,
            C::Gt => FieldOp::Gt,
            C::Lt => FieldOp::Lt,
        }
    }
}

/// One queryable field: its type, what it allows, and where the spec defines it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FieldInfo {
    /// The name as written in a query (`tool_name`, or `hc:patient_id` for a domain field).
    pub name: &'static str,
    /// The type of its values.
    pub value_type: ValueType,
    /// The operators a condition may use on it; anything else is CAL-E020.
    pub ops: &'static [FieldOp],
    /// May appear in `ORDER BY`.
    pub sortable: bool,
    /// May appear in `SELECT` and `PROJECT`.
    pub projectable: bool,
    /// May appear in `GROUP BY` and `dedup(…)`.
    pub groupable: bool,
    /// The grain type that owns it, or `None` for a common (or domain) field.
    pub grain_type: Option<GrainType>,
    /// The closed value set, when there is one ([`crate::enums`]).
    pub enum_values: Option<&'static [&'static str]>,
    /// The closed numeric range of its values, when there is one (inclusive).
    pub range: Option<(f64, f64)>,
    /// One of the four meta fields (§4 `meta_field_name`).
    pub meta: bool,
    /// The spec section that defines it.
    pub section: &'static str,
    /// One line for hovers, completion and `DESCRIBE fields`.
    pub doc: &'static str,
}

impl FieldInfo {
    /// True when a condition may apply `op` to this field.
    pub fn allows(&self, op: FieldOp) -> bool {
        self.ops.contains(&op)
    }
}

const UNIT: Option<(f64, f64)> = Some((0.0, 1.0));
const ALL_COMPARATORS: &[FieldOp] = &[Op::Eq, Op::Ne, Op::Ge, Op::Le, Op::Gt, Op::Lt];

/// `(sortable, projectable, groupable)` as table shorthand.
type Flags = (bool, bool, bool);
const YYY: Flags = (true, true, true);
const NYY: Flags = (false, true, true);
const YYN: Flags = (true, true, false);
const NYN: Flags = (false, true, false);
const NNN: Flags = (false, false, false);

/// A table row of [`COMMON_FIELDS`]; the rare columns are set with the builders below.
const fn common(
    name: &'static str,
    value_type: ValueType,
    ops: &'static [FieldOp],
    flags: Flags,
    doc: &'static str,
) -> FieldInfo {
    let (sortable, projectable, groupable) = flags;
    FieldInfo {
        name,
        value_type,
        ops,
        sortable,
        projectable,
        groupable,
        grain_type: None,
        enum_values: None,
        range: None,
        meta: false,
        section: "5.2",
        doc,
    }
}

impl FieldInfo {
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

    /// Table builder: one of the four meta fields.
    const fn meta(mut self) -> Self {
        self.meta = true;
        self
    }
}

/// The 18 common fields, available on every grain type, in Appendix E's order with its flags.
#[rustfmt::skip] // one row per field reads as the spec's table does
pub static COMMON_FIELDS: &[FieldInfo] = &[
    common("query", V::String, &[Op::Eq], NNN, "Free-text query: triggers semantic (BM25/vector) search."),
    common("subject", V::String, &[Op::Eq, Op::Ne, Op::In], YYY, "Triple subject: the entity the grain is about."),
    common("relation", V::String, &[Op::Eq, Op::Ne, Op::In, Op::Is], YYY,
        "Triple relation (e.g. mg:prefers); IS takes a category shortcut such as PREFERENCE."),
    common("object", V::String, &[Op::Eq, Op::Ne, Op::In], YYY, "Triple object: the value of the fact."),
    common("user_id", V::String, &[Op::Eq, Op::Ne], NYY, "The user the grain belongs to (user isolation)."),
    common("namespace", V::String, &[Op::Eq], NNN,
        "Namespace; always replaced by the capability token's namespace (§18.3)."),
    common("confidence", V::Number, ALL_COMPARATORS, YYN, "How sure the source is, from 0.0 to 1.0.").unit_range(),
    common("importance", V::Number, ALL_COMPARATORS, YYN, "How much the grain matters, from 0.0 to 1.0.").unit_range(),
    common("score", V::Number, &[Op::Ge, Op::Gt], YYN, "Relevance score of this retrieval; a post-retrieval filter."),
    common("tags", V::Array, &[Op::Include, Op::Exclude], NYN, "Tag set; INCLUDE requires tags, EXCLUDE forbids them."),
    common("type", V::GrainType, &[Op::Eq], NYY, "Grain type, as a singular name (\"belief\").")
        .values(enums::GRAIN_TYPE_VALUES),
    common("time", V::Temporal, &[Op::Eq, Op::Between], YYN,
        "When the grain was recorded: natural language (\"last 7 days\") or epoch seconds."),
    common("hash", V::Hash, &[Op::Eq], NYN, "Content address (sha256:…) for exact lookup."),
    common("contradicted", V::Boolean, &[Op::Eq], NYN, "Whether another grain contradicts this one."),
    common("verification_status", V::String, &[Op::Eq], YYY,
        "Whether the grain was checked: unverified, verified, contested or retracted.")
        .values(enums::VERIFICATION_STATUS_VALUES).meta(),
    common("source_type", V::String, &[Op::Eq], YYY, "What kind of source produced the grain.").meta(),
    common("recall_priority", V::String, &[Op::Eq], NNN, "Storage tier hint: hot, warm or cold.")
        .values(enums::RECALL_PRIORITY_VALUES).meta(),
    common("epistemic_status", V::String, &[Op::Eq], NNN,
        "How the claim is known: certain, probable, uncertain, estimated or derived.")
        .values(enums::EPISTEMIC_STATUS_VALUES).meta(),
];

/// What a type-specific field holds, which decides its sortable/projectable/groupable
/// flags by analogy with the common fields of Appendix E.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A value from a small (closed or conventional) set, like `verification_status`:
    /// sortable, projectable, groupable.
    Category,
    /// An identifier (ID, DID, name), like `user_id`: projectable and groupable, not sortable.
    Identifier,
    /// Free text searched semantically (`content`, `plan`): projectable only.
    Text,
    /// A number or a time, like `confidence` and `time`: sortable and projectable.
    Measure,
    /// A boolean, like `contradicted`: projectable only.
    Flag,
    /// An array, like `tags`: projectable only.
    Set,
    /// Content addresses, like `hash`: projectable only.
    Reference,
}

impl Shape {
    /// `(sortable, projectable, groupable)` for this shape.
    pub const fn flags(self) -> (bool, bool, bool) {
        match self {
            Shape::Category => YYY,
            Shape::Identifier => NYY,
            Shape::Measure => YYN,
            Shape::Text | Shape::Flag | Shape::Set | Shape::Reference => NYN,
        }
    }
}

/// A table row of a type-specific field list; flags come from its [`Shape`].
const fn typed(
    grain: GrainType,
    name: &'static str,
    value_type: ValueType,
    ops: &'static [FieldOp],
    shape: Shape,
    doc: &'static str,
) -> FieldInfo {
    let (sortable, projectable, groupable) = shape.flags();
    FieldInfo {
        name,
        value_type,
        ops,
        sortable,
        projectable,
        groupable,
        grain_type: Some(grain),
        enum_values: None,
        range: None,
        meta: false,
        section: "6.3",
        doc,
    }
}

const CMP_NO_NE: &[FieldOp] = &[Op::Eq, Op::Ge, Op::Le, Op::Gt, Op::Lt];

#[rustfmt::skip] // one row per field, as in §6.3
static EVENT_FIELDS: &[FieldInfo] = &[
    typed(G::Event, "role", V::String, &[Op::Eq, Op::Ne], S::Category,
        "Who produced the message: user, assistant, system or tool.").values(enums::ROLE_VALUES),
    typed(G::Event, "session_id", V::String, &[Op::Eq], S::Identifier, "Conversation session identifier."),
    typed(G::Event, "parent_message_id", V::String, &[Op::Eq], S::Identifier, "Threading: the message this one replies to."),
    typed(G::Event, "model_id", V::String, &[Op::Eq, Op::Ne], S::Identifier, "LLM model identifier."),
    typed(G::Event, "content", V::String, &[Op::Eq], S::Text, "Message text; = searches it semantically."),
];

#[rustfmt::skip]
static STATE_FIELDS: &[FieldInfo] = &[
    typed(G::State, "context", V::String, &[Op::Eq, Op::Ne], S::Identifier, "State context identifier."),
    typed(G::State, "plan", V::String, &[Op::Eq], S::Text, "Plan text; = searches it semantically."),
];

#[rustfmt::skip]
static WORKFLOW_FIELDS: &[FieldInfo] = &[
    typed(G::Workflow, "trigger", V::String, &[Op::Eq, Op::Ne], S::Identifier, "Trigger condition (e.g. \"on:user_message\")."),
    typed(G::Workflow, "steps", V::String, &[Op::Eq], S::Text, "Workflow steps; = searches them semantically."),
];

#[rustfmt::skip]
static ACTION_FIELDS: &[FieldInfo] = &[
    typed(G::Action, "tool_name", V::String, &[Op::Eq, Op::Ne, Op::In], S::Identifier, "Tool identifier."),
    typed(G::Action, "action_phase", V::String, &[Op::Eq], S::Category,
        "Phase of the tool call: definition, call, result or complete.").values(enums::ACTION_PHASE_VALUES),
    typed(G::Action, "is_error", V::Boolean, &[Op::Eq], S::Flag, "Whether the action resulted in an error."),
    typed(G::Action, "tool_call_id", V::String, &[Op::Eq], S::Identifier, "Correlation ID across the phases of one tool call."),
];

#[rustfmt::skip]
static OBSERVATION_FIELDS: &[FieldInfo] = &[
    typed(G::Observation, "observer_id", V::String, &[Op::Eq, Op::Ne], S::Identifier, "Identifier of the observing entity."),
    typed(G::Observation, "observer_type", V::String, &[Op::Eq, Op::Ne], S::Category,
        "Type classifier of the observer (e.g. \"agent:monitor\")."),
];

#[rustfmt::skip]
static GOAL_FIELDS: &[FieldInfo] = &[
    typed(G::Goal, "goal_state", V::String, &[Op::Eq, Op::Ne], S::Category,
        "Goal state: active, completed, abandoned or blocked.").values(enums::GOAL_STATE_VALUES),
    typed(G::Goal, "assigned_agent", V::String, &[Op::Eq, Op::Ne], S::Identifier, "DID of the responsible agent."),
    typed(G::Goal, "deadline", V::Temporal, &[Op::Eq, Op::Between], S::Measure, "Deadline, ISO 8601 or epoch."),
    typed(G::Goal, "depends_on", V::String, &[Op::Eq, Op::In], S::Reference, "Content address(es) of prerequisite goals."),
];

#[rustfmt::skip]
static REASONING_FIELDS: &[FieldInfo] = &[
    typed(G::Reasoning, "reasoning_type", V::String, &[Op::Eq], S::Category,
        "Inference form: deductive, inductive, abductive or analogical.").values(enums::REASONING_TYPE_VALUES),
    typed(G::Reasoning, "premises", V::String, &[Op::Eq], S::Text, "Premises; = searches them semantically."),
    typed(G::Reasoning, "conclusion", V::String, &[Op::Eq, Op::Ne], S::Text, "Conclusion; semantic or exact match."),
];

#[rustfmt::skip]
static CONSENSUS_FIELDS: &[FieldInfo] = &[
    typed(G::Consensus, "threshold", V::Number, CMP_NO_NE, S::Measure, "Agreement threshold, from 0.0 to 1.0.").unit_range(),
    typed(G::Consensus, "agreement_count", V::Number, CMP_NO_NE, S::Measure, "Number of agreeing observers."),
    typed(G::Consensus, "participating_observers", V::Array, &[Op::Include], S::Set,
        "IDs of the participating observers; INCLUDE filters by them."),
];

#[rustfmt::skip]
static CONSENT_FIELDS: &[FieldInfo] = &[
    typed(G::Consent, "consent_action", V::String, &[Op::Eq], S::Category,
        "What the consent records: grant or withdraw.").values(enums::CONSENT_ACTION_VALUES),
    typed(G::Consent, "purpose", V::String, &[Op::Eq, Op::Ne], S::Category, "Purpose binding (e.g. \"personalization\")."),
    typed(G::Consent, "grantor_did", V::String, &[Op::Eq], S::Identifier, "DID of the consent grantor."),
    typed(G::Consent, "grantee_did", V::String, &[Op::Eq], S::Identifier, "DID of the consent recipient."),
    typed(G::Consent, "scope", V::String, &[Op::Eq], S::Identifier, "Consent scope identifier."),
    typed(G::Consent, "expires_at", V::Temporal, &[Op::Eq, Op::Between], S::Measure, "When the consent expires."),
];

/// The type-specific fields of `grain` (§6.3); empty for Belief, whose fields are all common.
pub const fn type_fields(grain: GrainType) -> &'static [FieldInfo] {
    match grain {
        G::Belief => &[],
        G::Event => EVENT_FIELDS,
        G::State => STATE_FIELDS,
        G::Workflow => WORKFLOW_FIELDS,
        G::Action => ACTION_FIELDS,
        G::Observation => OBSERVATION_FIELDS,
        G::Goal => GOAL_FIELDS,
        G::Reasoning => REASONING_FIELDS,
        G::Consensus => CONSENSUS_FIELDS,
        G::Consent => CONSENT_FIELDS,
    }
}

/// The common field called `name`.
#[inline]
pub fn common_field(name: &str) -> Option<&'static FieldInfo> {
    COMMON_FIELDS.iter().find(|f| f.name == name)
}

/// The type-specific field `name` of `grain` (not a common field).
pub fn type_field(grain: GrainType, name: &str) -> Option<&'static FieldInfo> {
    type_fields(grain).iter().find(|f| f.name == name)
}

/// Every field available on `grain` (the common ones first), or only the common ones for `None`:
/// the candidates for completion, "valid fields" lists and `DESCRIBE fields`.
pub fn fields_for(grain: Option<GrainType>) -> impl Iterator<Item = &'static FieldInfo> {
    COMMON_FIELDS.iter().chain(grain.map_or(&[][..], type_fields).iter())
}

/// The grain types that have a type-specific field called `name` (in `GrainType::ALL` order;
/// empty for common and unknown names).
pub fn owners_of(name: &str) -> Vec<GrainType> {
    GrainType::ALL.iter().copied().filter(|g| type_field(*g, name).is_some()).collect()
}

/// The verdict on a field name used in a statement of a given grain type (§6.2).
#[derive(Debug, Clone, PartialEq)]
pub enum FieldResolution {
    /// A common field, valid everywhere.
    Common(&'static FieldInfo),
    /// A field of the declared grain type.
    TypeSpecific(&'static FieldInfo),
    /// A type-specific field of other grain types than the declared one: CAL-E060
    /// ("FieldNotOnGrainType"), listing the owners and the declared type's valid fields.
    NotOnGrainType {
        /// The field as defined on its (first) owner.
        field: &'static FieldInfo,
        /// Every grain type that has it.
        owners: Vec<GrainType>,
    },
    /// A type-specific field used where no grain type is declared: CAL-E061.
    NeedsGrainType {
        /// The grain types that have it, for "use RECALL actions …".
        owners: Vec<GrainType>,
    },
    /// A `prefix:name` domain field (§12.2).
    Domain {
        /// The profile of a known prefix, or `None` for an unknown prefix (CAL-W003).
        profile: Option<&'static DomainProfile>,
        /// The field, when the prefix is known and the name is one §12.2 lists. Names outside
        /// the list are accepted without a diagnostic: §12.2 calls them "Example Fields".
        field: Option<&'static FieldInfo>,
    },
    /// Not a field at all: CAL-E004, with [`suggest_field`].
    Unknown,
}

impl FieldResolution {
    /// The field's table row, when the name resolved to one usable here.
    pub fn info(&self) -> Option<&'static FieldInfo> {
        match self {
            FieldResolution::Common(f) | FieldResolution::TypeSpecific(f) => Some(f),
            FieldResolution::Domain { field, .. } => *field,
            _ => None,
        }
    }

    /// True when the name may be used here (possibly with a warning, for domain fields).
    pub fn is_usable(&self) -> bool {
        matches!(self, FieldResolution::Common(_) | FieldResolution::TypeSpecific(_) | FieldResolution::Domain { .. })
    }
}

/// Resolves `name` for a statement that declares `grain` (or none), following §6.2.
pub fn resolve(grain: Option<GrainType>, name: &str) -> FieldResolution {
    if let Some(f) = common_field(name) {
        return FieldResolution::Common(f);
    }
    if let Some((prefix, field_name)) = split_domain_field(name) {
        let profile = domain_profile(prefix);
        let field = profile.and_then(|p| p.field(field_name));
        return FieldResolution::Domain { profile, field };
    }
    if let Some(f) = grain.and_then(|g| type_field(g, name)) {
        return FieldResolution::TypeSpecific(f);
    }
    let owners = owners_of(name);
    match (owners.first(), grain) {
        (None, _) => FieldResolution::Unknown,
        (Some(first), Some(_)) => {
            let field = type_field(*first, name).expect("an owner has the field");
            FieldResolution::NotOnGrainType { field, owners }
        }
        (Some(_), None) => FieldResolution::NeedsGrainType { owners },
    }
}

/// The field of `grain` (or common) closest to a misspelt `name`, for CAL-E004/E060 suggestions.
pub fn suggest_field(grain: Option<GrainType>, name: &str) -> Option<&'static str> {
    did_you_mean(name, fields_for(grain).map(|f| f.name))
}

// ---------------------------------------------------------- domain fields ----

mod domain;
mod evolve;
pub mod names;
mod projection;

pub use domain::*;
pub use evolve::*;
pub use projection::*;

#[cfg(test)]
mod tests;
