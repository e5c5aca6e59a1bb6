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

/// A domain profile of §12 with its field prefix (§12.2, Appendix E).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DomainProfile {
    /// The domain as §12.2 names it (`Healthcare`).
    pub domain: &'static str,
    /// The field prefix without its colon (`hc`).
    pub prefix: &'static str,
    /// The profile name (`healthcare`).
    pub profile: &'static str,
    /// The tag that marks grains of this profile (`profile:healthcare`, §12.1); a query using
    /// a domain field without `tags INCLUDE [that tag]` gets CAL-W002.
    pub tag: &'static str,
    /// The fields §12.2 lists, with qualified names (`hc:patient_id`).
    pub fields: &'static [FieldInfo],
}

impl DomainProfile {
    /// The listed field `name` (without prefix) of this profile.
    pub fn field(&self, name: &str) -> Option<&'static FieldInfo> {
        self.fields.iter().find(|f| f.name.split_once(':').is_some_and(|(_, n)| n == name))
    }
}

/// Domain fields are open-ended values of an external profile, so they are typed String with
/// every comparator and IN (§12.2's example uses IN), and usable in every pipeline position.
const fn domain(name: &'static str, doc: &'static str) -> FieldInfo {
    FieldInfo {
        name,
        value_type: ValueType::String,
        ops: &[Op::Eq, Op::Ne, Op::Ge, Op::Le, Op::Gt, Op::Lt, Op::In],
        sortable: true,
        projectable: true,
        groupable: true,
        grain_type: None,
        enum_values: None,
        range: None,
        meta: false,
        section: "12.2",
        doc,
    }
}

/// The seven domain profiles of §12.2, in its order.
pub static DOMAIN_PROFILES: &[DomainProfile] = &[
    DomainProfile {
        domain: "Healthcare",
        prefix: "hc",
        profile: "healthcare",
        tag: "profile:healthcare",
        fields: &[
            domain("hc:patient_id", "Healthcare: patient identifier."),
            domain("hc:encounter_id", "Healthcare: encounter identifier."),
            domain("hc:provider_id", "Healthcare: provider identifier."),
            domain("hc:condition_code", "Healthcare: condition code (e.g. ICD-10 \"J06.9\")."),
            domain("hc:phi_category", "Healthcare: protected health information category."),
        ],
    },
    DomainProfile {
        domain: "Legal",
        prefix: "legal",
        profile: "legal",
        tag: "profile:legal",
        fields: &[
            domain("legal:case_id", "Legal: case identifier."),
            domain("legal:jurisdiction", "Legal: jurisdiction."),
            domain("legal:privilege_status", "Legal: privilege status."),
            domain("legal:retention_category", "Legal: retention category."),
        ],
    },
    DomainProfile {
        domain: "Finance",
        prefix: "fin",
        profile: "finance",
        tag: "profile:finance",
        fields: &[
            domain("fin:account_id", "Finance: account identifier."),
            domain("fin:transaction_id", "Finance: transaction identifier."),
            domain("fin:risk_category", "Finance: risk category."),
            domain("fin:compliance_flag", "Finance: compliance flag."),
        ],
    },
    DomainProfile {
        domain: "Robotics",
        prefix: "rob",
        profile: "robotics",
        tag: "profile:robotics",
        fields: &[
            domain("rob:device_id", "Robotics: device identifier."),
            domain("rob:coordinate_frame", "Robotics: coordinate frame."),
            domain("rob:safety_zone", "Robotics: safety zone."),
        ],
    },
    DomainProfile {
        domain: "Science",
        prefix: "sci",
        profile: "science",
        tag: "profile:science",
        fields: &[
            domain("sci:experiment_id", "Science: experiment identifier."),
            domain("sci:dataset_id", "Science: dataset identifier."),
            domain("sci:methodology", "Science: methodology."),
            domain("sci:reproducibility_status", "Science: reproducibility status."),
        ],
    },
    DomainProfile {
        domain: "Consumer",
        prefix: "con",
        profile: "consumer",
        tag: "profile:consumer",
        fields: &[
            domain("con:session_context", "Consumer: session context."),
            domain("con:interaction_channel", "Consumer: interaction channel."),
        ],
    },
    DomainProfile {
        domain: "Integration",
        prefix: "int",
        profile: "integration",
        tag: "profile:integration",
        fields: &[
            domain("int:source_system", "Integration: source system."),
            domain("int:correlation_id", "Integration: correlation identifier."),
            domain("int:sync_status", "Integration: synchronization status."),
        ],
    },
];

/// The profile of a domain prefix, given with or without its colon (`"hc"`, `"hc:"`).
pub fn domain_profile(prefix: &str) -> Option<&'static DomainProfile> {
    let prefix = prefix.strip_suffix(':').unwrap_or(prefix);
    DOMAIN_PROFILES.iter().find(|p| p.prefix == prefix)
}

/// Splits a domain field reference into prefix and name: `"hc:patient_id"` → `("hc", "patient_id")`.
/// Both parts must be words (an ASCII letter, then letters, digits or `_`); the prefix need
/// not be a known one, so that the checker can warn about it (CAL-W003).
pub fn split_domain_field(s: &str) -> Option<(&str, &str)> {
    fn is_word(w: &str) -> bool {
        let mut bytes = w.bytes();
        bytes.next().is_some_and(|b| b.is_ascii_alphabetic()) && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
    }
    let (prefix, name) = s.split_once(':')?;
    (is_word(prefix) && is_word(name)).then_some((prefix, name))
}

// ------------------------------------------------------- evolve fields ----

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

/// One default attribute of a grain type's formatted element (§10.3.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProjectionAttr {
    /// The attribute name in formatted output (`tool`).
    pub attr: &'static str,
    /// The field it shows (`tool_name`).
    pub field: &'static str,
    /// Marked `?` in §10.3.2: shown at standard and full disclosure, omitted at summary.
    pub detail: bool,
}

/// The default content projection of one grain type (§10.3.2, §14.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Projection {
    /// The grain type.
    pub grain_type: GrainType,
    /// The fields joined with spaces into the text content (`relation` is humanized, §10.3.3).
    pub content: &'static [&'static str],
    /// The default attributes, in output order.
    pub attrs: &'static [ProjectionAttr],
}

const fn attr(attr: &'static str, field: &'static str, detail: bool) -> ProjectionAttr {
    ProjectionAttr { attr, field, detail }
}

/// The ten default projections, in `GrainType::ALL` order.
pub static PROJECTIONS: &[Projection] = &[
    Projection {
        grain_type: G::Belief,
        content: &["relation", "object"],
        attrs: &[attr("subject", "subject", false), attr("confidence", "confidence", true)],
    },
    Projection {
        grain_type: G::Event,
        content: &["content"],
        attrs: &[attr("role", "role", false), attr("time", "time", true)],
    },
    Projection { grain_type: G::State, content: &["plan"], attrs: &[attr("context", "context", true)] },
    Projection { grain_type: G::Workflow, content: &["steps"], attrs: &[attr("trigger", "trigger", true)] },
    Projection {
        grain_type: G::Action,
        content: &["object"],
        attrs: &[attr("tool", "tool_name", false), attr("phase", "action_phase", true)],
    },
    Projection { grain_type: G::Observation, content: &["object"], attrs: &[attr("observer", "observer_id", true)] },
    Projection {
        grain_type: G::Goal,
        content: &["object"],
        attrs: &[
            attr("subject", "subject", false),
            attr("state", "goal_state", true),
            attr("deadline", "deadline", true),
        ],
    },
    Projection { grain_type: G::Reasoning, content: &["conclusion"], attrs: &[attr("type", "reasoning_type", true)] },
    Projection {
        grain_type: G::Consensus,
        content: &["object"],
        attrs: &[attr("threshold", "threshold", true), attr("count", "agreement_count", true)],
    },
    Projection {
        grain_type: G::Consent,
        content: &["purpose"],
        attrs: &[
            attr("action", "consent_action", false),
            attr("grantor", "grantor_did", false),
            attr("grantee", "grantee_did", false),
        ],
    },
];

/// The default projection of `grain`.
pub fn projection(grain: GrainType) -> &'static Projection {
    PROJECTIONS.iter().find(|p| p.grain_type == grain).expect("one projection per grain type")
}

/// An attribute name of `grain`'s default projection used in `PROJECT attr(…)` (10.3.5's
/// example writes `attr(observer, …)`). Field names take precedence: resolve a PROJECT name
/// with [`resolve`] first and fall back to this (so `type` stays the grain type).
pub fn projection_alias(grain: GrainType, attr_name: &str) -> Option<&'static ProjectionAttr> {
    projection(grain).attrs.iter().find(|a| a.attr == attr_name)
}

// ------------------------------------------------------------------ tests ----

/// A minimal reader for `cal.ebnf`, so that tests can check the grammar file against the tables.
#[cfg(test)]
pub(crate) mod ebnf_support {
    use std::collections::{BTreeMap, BTreeSet};

    /// One token of the EBNF notation.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub enum Tok {
        Name(String),
        Term(String),
        Special,
        Punct(char),
    }

    fn tokens(src: &str) -> Vec<Tok> {
        let b = src.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < b.len() {
            let c = b[i] as char;
            if c.is_whitespace() {
                i += 1;
            } else if src[i..].starts_with("(*") {
                i += src[i..].find("*)").expect("closed comment") + 2;
            } else if c == '?' {
                i += 1 + src[i + 1..].find('?').expect("closed special sequence") + 1;
                out.push(Tok::Special);
            } else if c == '"' || c == '\'' {
                let end = i + 1 + src[i + 1..].find(c).expect("closed terminal");
                out.push(Tok::Term(src[i + 1..end].to_string()));
                i = end + 1;
            } else if c.is_ascii_alphabetic() || c == '_' {
                let end =
                    src[i..].find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_')).map_or(b.len(), |n| i + n);
                out.push(Tok::Name(src[i..end].to_string()));
                i = end;
            } else {
                out.push(Tok::Punct(c));
                i += 1;
            }
        }
        out
    }

    /// Production name → right-hand side tokens. Panics on a duplicate definition.
    pub fn productions() -> BTreeMap<String, Vec<Tok>> {
        let toks = tokens(crate::EBNF);
        let mut map = BTreeMap::new();
        let mut i = 0;
        while i < toks.len() {
            let Tok::Name(name) = &toks[i] else { panic!("expected a production name at token {i}: {:?}", toks[i]) };
            assert_eq!(toks[i + 1], Tok::Punct('='), "{name}");
            let end = i + 2 + toks[i + 2..].iter().position(|t| *t == Tok::Punct(';')).expect("production ends with ;");
            assert!(map.insert(name.clone(), toks[i + 2..end].to_vec()).is_none(), "duplicate production {name}");
            i = end + 1;
        }
        map
    }

    /// The terminals written directly in production `name`'s right-hand side.
    pub fn terminals(name: &str) -> BTreeSet<String> {
        let prods = productions();
        let rhs = prods.get(name).unwrap_or_else(|| panic!("no production {name}"));
        rhs.iter()
            .filter_map(|t| match t {
                Tok::Term(s) => Some(s.clone()),
                _ => None,
            })
            .collect()
    }

    /// The lower-case word terminals reachable from `name`, not descending into `stop`.
    pub fn words_deep(name: &str, stop: &[&str]) -> BTreeSet<String> {
        let prods = productions();
        let mut seen = BTreeSet::new();
        let mut out = BTreeSet::new();
        let mut todo = vec![name.to_string()];
        while let Some(n) = todo.pop() {
            if !seen.insert(n.clone()) || stop.contains(&n.as_str()) {
                continue;
            }
            for t in &prods[&n] {
                match t {
                    Tok::Term(s) if s.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') => {
                        out.insert(s.clone());
                    }
                    Tok::Name(r) => todo.push(r.clone()),
                    _ => {}
                }
            }
        }
        out
    }

    /// A set of owned strings from string slices.
    pub fn set<'a>(items: impl IntoIterator<Item = &'a str>) -> BTreeSet<String> {
        items.into_iter().map(str::to_string).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn field_counts_match_section_6_5() {
        // §6.5: grain type, type-specific count, total queryable.
        let expect = [
            (G::Belief, 0, 18),
            (G::Event, 5, 23),
            (G::State, 2, 20),
            (G::Workflow, 2, 20),
            (G::Action, 4, 22),
            (G::Observation, 2, 20),
            (G::Goal, 4, 22),
            (G::Reasoning, 3, 21),
            (G::Consensus, 3, 21),
            (G::Consent, 6, 24),
        ];
        assert_eq!(COMMON_FIELDS.len(), 18);
        assert_eq!(expect.len(), GrainType::ALL.len());
        for (g, specific, total) in expect {
            assert_eq!(type_fields(g).len(), specific, "{g}");
            assert_eq!(fields_for(Some(g)).count(), total, "{g}");
        }
        assert_eq!(fields_for(None).count(), 18, "(no type)");
    }

    #[test]
    fn common_fields_match_appendix_e() {
        type Row = (&'static str, ValueType, &'static [FieldOp], bool, bool, bool);
        let expect: &[Row] = &[
            ("query", V::String, &[Op::Eq], false, false, false),
            ("subject", V::String, &[Op::Eq, Op::Ne, Op::In], true, true, true),
            ("relation", V::String, &[Op::Eq, Op::Ne, Op::In, Op::Is], true, true, true),
            ("object", V::String, &[Op::Eq, Op::Ne, Op::In], true, true, true),
            ("user_id", V::String, &[Op::Eq, Op::Ne], false, true, true),
            ("namespace", V::String, &[Op::Eq], false, false, false),
            ("confidence", V::Number, &[Op::Eq, Op::Ne, Op::Ge, Op::Le, Op::Gt, Op::Lt], true, true, false),
            ("importance", V::Number, &[Op::Eq, Op::Ne, Op::Ge, Op::Le, Op::Gt, Op::Lt], true, true, false),
            ("score", V::Number, &[Op::Ge, Op::Gt], true, true, false),
            ("tags", V::Array, &[Op::Include, Op::Exclude], false, true, false),
            ("type", V::GrainType, &[Op::Eq], false, true, true),
            ("time", V::Temporal, &[Op::Eq, Op::Between], true, true, false),
            ("hash", V::Hash, &[Op::Eq], false, true, false),
            ("contradicted", V::Boolean, &[Op::Eq], false, true, false),
            ("verification_status", V::String, &[Op::Eq], true, true, true),
            ("source_type", V::String, &[Op::Eq], true, true, true),
            ("recall_priority", V::String, &[Op::Eq], false, false, false),
            ("epistemic_status", V::String, &[Op::Eq], false, false, false),
        ];
        assert_eq!(expect.len(), COMMON_FIELDS.len());
        for ((name, vt, ops, s, p, g), f) in expect.iter().zip(COMMON_FIELDS) {
            assert_eq!(f.name, *name);
            assert_eq!(
                (f.value_type, f.ops, f.sortable, f.projectable, f.groupable),
                (*vt, *ops, *s, *p, *g),
                "{name}"
            );
            assert_eq!(f.grain_type, None);
            assert_eq!(f.section, "5.2");
        }
        let meta: Vec<_> = COMMON_FIELDS.iter().filter(|f| f.meta).map(|f| f.name).collect();
        assert_eq!(meta, ["verification_status", "source_type", "recall_priority", "epistemic_status"]);
    }

    #[test]
    fn type_specific_fields_match_section_6_3() {
        type Row = (GrainType, &'static str, ValueType, &'static [FieldOp]);
        let expect: &[Row] = &[
            (G::Event, "role", V::String, &[Op::Eq, Op::Ne]),
            (G::Event, "session_id", V::String, &[Op::Eq]),
            (G::Event, "parent_message_id", V::String, &[Op::Eq]),
            (G::Event, "model_id", V::String, &[Op::Eq, Op::Ne]),
            (G::Event, "content", V::String, &[Op::Eq]),
            (G::State, "context", V::String, &[Op::Eq, Op::Ne]),
            (G::State, "plan", V::String, &[Op::Eq]),
            (G::Workflow, "trigger", V::String, &[Op::Eq, Op::Ne]),
            (G::Workflow, "steps", V::String, &[Op::Eq]),
            (G::Action, "tool_name", V::String, &[Op::Eq, Op::Ne, Op::In]),
            (G::Action, "action_phase", V::String, &[Op::Eq]),
            (G::Action, "is_error", V::Boolean, &[Op::Eq]),
            (G::Action, "tool_call_id", V::String, &[Op::Eq]),
            (G::Observation, "observer_id", V::String, &[Op::Eq, Op::Ne]),
            (G::Observation, "observer_type", V::String, &[Op::Eq, Op::Ne]),
            (G::Goal, "goal_state", V::String, &[Op::Eq, Op::Ne]),
            (G::Goal, "assigned_agent", V::String, &[Op::Eq, Op::Ne]),
            (G::Goal, "deadline", V::Temporal, &[Op::Eq, Op::Between]),
            (G::Goal, "depends_on", V::String, &[Op::Eq, Op::In]),
            (G::Reasoning, "reasoning_type", V::String, &[Op::Eq]),
            (G::Reasoning, "premises", V::String, &[Op::Eq]),
            (G::Reasoning, "conclusion", V::String, &[Op::Eq, Op::Ne]),
            (G::Consensus, "threshold", V::Number, &[Op::Eq, Op::Ge, Op::Le, Op::Gt, Op::Lt]),
            (G::Consensus, "agreement_count", V::Number, &[Op::Eq, Op::Ge, Op::Le, Op::Gt, Op::Lt]),
            (G::Consensus, "participating_observers", V::Array, &[Op::Include]),
            (G::Consent, "consent_action", V::String, &[Op::Eq]),
            (G::Consent, "purpose", V::String, &[Op::Eq, Op::Ne]),
            (G::Consent, "grantor_did", V::String, &[Op::Eq]),
            (G::Consent, "grantee_did", V::String, &[Op::Eq]),
            (G::Consent, "scope", V::String, &[Op::Eq]),
            (G::Consent, "expires_at", V::Temporal, &[Op::Eq, Op::Between]),
        ];
        let all: Vec<&FieldInfo> = GrainType::ALL.iter().flat_map(|g| type_fields(*g)).collect();
        assert_eq!(all.len(), expect.len());
        for ((g, name, vt, ops), f) in expect.iter().zip(all) {
            assert_eq!((f.grain_type, f.name, f.value_type, f.ops), (Some(*g), *name, *vt, *ops));
            assert_eq!(f.section, "6.3");
            assert!(!f.meta);
        }
    }

    #[test]
    fn type_specific_flags_follow_the_recorded_rule() {
        // docs/spec-decisions-grammar.md, "Flags of type-specific fields".
        let flags = |g, n| {
            let f = type_field(g, n).unwrap();
            (f.sortable, f.projectable, f.groupable)
        };
        assert_eq!(flags(G::Goal, "deadline"), (true, true, false));
        assert_eq!(flags(G::Consent, "expires_at"), (true, true, false));
        assert_eq!(flags(G::Consensus, "threshold"), (true, true, false));
        assert_eq!(flags(G::Event, "session_id"), (false, true, true));
        assert_eq!(flags(G::Action, "tool_name"), (false, true, true));
        assert_eq!(flags(G::Goal, "goal_state"), (true, true, true));
        assert_eq!(flags(G::Event, "content"), (false, true, false));
        assert_eq!(flags(G::Action, "is_error"), (false, true, false));
        assert_eq!(flags(G::Goal, "depends_on"), (false, true, false));
        for g in GrainType::ALL {
            for f in type_fields(*g) {
                assert!(f.projectable, "{}: every stored field can be projected", f.name);
                if matches!(f.value_type, V::Number | V::Temporal) {
                    assert!(f.sortable && !f.groupable, "{}", f.name);
                }
                if matches!(f.value_type, V::Boolean | V::Array) {
                    assert!(!f.sortable && !f.groupable, "{}", f.name);
                }
            }
        }
    }

    #[test]
    fn enum_values_and_ranges_come_from_their_modules() {
        for f in fields_for(Some(G::Goal)).chain(GrainType::ALL.iter().flat_map(|g| type_fields(*g))) {
            match (crate::enums::closed_enum(f.name), f.enum_values) {
                (Some(e), Some(v)) => assert_eq!(e.values, v, "{}", f.name),
                (None, None) => {}
                (e, v) => panic!("{}: closed_enum {:?} vs enum_values {:?}", f.name, e.map(|e| e.field), v),
            }
        }
        let ranged: Vec<_> = fields_for(Some(G::Consensus)).filter(|f| f.range.is_some()).map(|f| f.name).collect();
        assert_eq!(ranged, ["confidence", "importance", "threshold"]);
    }

    #[test]
    fn names_are_unique_and_type_specific_names_have_one_owner() {
        let mut seen = HashSet::new();
        for f in COMMON_FIELDS.iter().chain(GrainType::ALL.iter().flat_map(|g| type_fields(*g))) {
            assert!(seen.insert(f.name), "{} defined twice", f.name);
            assert!(f.name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'), "{}", f.name);
            assert!(!f.doc.is_empty() && !f.doc.contains('\n'), "{}", f.name);
        }
        assert_eq!(owners_of("tool_name"), [G::Action]);
        assert_eq!(owners_of("scope"), [G::Consent]);
        assert!(owners_of("subject").is_empty());
        assert!(owners_of("nonsense").is_empty());
    }

    #[test]
    fn resolution_follows_section_6_2() {
        let info = |r: FieldResolution| r.info().map(|f| f.name);
        assert!(matches!(resolve(None, "subject"), FieldResolution::Common(f) if f.name == "subject"));
        assert!(matches!(resolve(Some(G::Action), "confidence"), FieldResolution::Common(_)));
        assert!(
            matches!(resolve(Some(G::Action), "tool_name"), FieldResolution::TypeSpecific(f) if f.name == "tool_name")
        );
        match resolve(Some(G::Belief), "tool_name") {
            FieldResolution::NotOnGrainType { field, owners } => {
                assert_eq!(field.name, "tool_name");
                assert_eq!(owners, [G::Action]);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(resolve(None, "goal_state"), FieldResolution::NeedsGrainType { owners: vec![G::Goal] });
        assert_eq!(resolve(Some(G::Goal), "subjct"), FieldResolution::Unknown);
        assert_eq!(info(resolve(None, "hc:patient_id")), Some("hc:patient_id"));
        match resolve(None, "hc:unlisted") {
            FieldResolution::Domain { profile: Some(p), field: None } => assert_eq!(p.profile, "healthcare"),
            other => panic!("{other:?}"),
        }
        assert_eq!(resolve(None, "zz:thing"), FieldResolution::Domain { profile: None, field: None });
        assert!(resolve(None, "zz:thing").is_usable());
        assert!(!resolve(None, "goal_state").is_usable());
        assert_eq!(suggest_field(Some(G::Action), "tool_nme"), Some("tool_name"));
        assert_eq!(suggest_field(None, "subjct"), Some("subject"));
    }

    #[test]
    fn domain_profiles_match_section_12_2() {
        let expect: &[(&str, &str, &[&str])] = &[
            ("hc", "healthcare", &["patient_id", "encounter_id", "provider_id", "condition_code", "phi_category"]),
            ("legal", "legal", &["case_id", "jurisdiction", "privilege_status", "retention_category"]),
            ("fin", "finance", &["account_id", "transaction_id", "risk_category", "compliance_flag"]),
            ("rob", "robotics", &["device_id", "coordinate_frame", "safety_zone"]),
            ("sci", "science", &["experiment_id", "dataset_id", "methodology", "reproducibility_status"]),
            ("con", "consumer", &["session_context", "interaction_channel"]),
            ("int", "integration", &["source_system", "correlation_id", "sync_status"]),
        ];
        assert_eq!(DOMAIN_PROFILES.len(), expect.len());
        for ((prefix, profile, names), p) in expect.iter().zip(DOMAIN_PROFILES) {
            assert_eq!((p.prefix, p.profile), (*prefix, *profile));
            assert_eq!(p.tag, format!("profile:{profile}"));
            let got: Vec<_> = p.fields.iter().map(|f| split_domain_field(f.name).unwrap()).collect();
            let want: Vec<_> = names.iter().map(|n| (*prefix, *n)).collect();
            assert_eq!(got, want);
            assert!(p.fields.iter().all(|f| f.section == "12.2" && f.grain_type.is_none()));
        }
        assert_eq!(domain_profile("hc:").unwrap().domain, "Healthcare");
        assert!(domain_profile("xx").is_none());
        assert_eq!(split_domain_field("hc:patient_id"), Some(("hc", "patient_id")));
        assert_eq!(split_domain_field("patient_id"), None);
        assert_eq!(split_domain_field("hc:"), None);
        assert_eq!(split_domain_field(":x"), None);
        assert_eq!(split_domain_field("hc:a:b"), None);
        assert_eq!(split_domain_field("did:key"), Some(("did", "key")));
        assert!(domain_profile("hc").unwrap().field("condition_code").unwrap().allows(Op::In));
    }

    #[test]
    fn evolve_fields_match_sections_5_3_and_6_4() {
        let names = |fs: &[EvolveField]| fs.iter().map(|f| f.name).collect::<Vec<_>>();
        assert_eq!(names(ADD_BASE_FIELDS), ["subject", "relation", "object", "confidence", "importance", "tags"]);
        assert_eq!(required_add_fields().map(|f| f.name).collect::<Vec<_>>(), ["subject", "relation", "object"]);
        assert_eq!(names(GOAL_ADD_FIELDS), ["goal_state", "assigned_agent", "deadline", "depends_on"]);
        assert_eq!(names(OBSERVATION_ADD_FIELDS), ["observer_id", "observer_type"]);
        assert_eq!(names(SUPERSEDE_FIELDS), ["object", "confidence", "importance", "tags"]);
        assert!(SUPERSEDE_FIELDS.iter().all(|f| !f.required));
        // Types agree with the query-side tables.
        for g in [G::Goal, G::Observation] {
            for f in add_extension_fields(g) {
                let q = type_field(g, f.name).unwrap();
                assert_eq!((f.value_type, f.enum_values), (q.value_type, q.enum_values), "{}", f.name);
            }
        }
        for f in ADD_BASE_FIELDS {
            let q = common_field(f.name).unwrap();
            assert_eq!((f.value_type, f.range), (q.value_type, q.range), "{}", f.name);
        }
        assert!(add_field(G::Goal, "deadline").is_some());
        assert!(add_field(G::Belief, "deadline").is_none());
        assert!(add_field(G::Observation, "observer_id").is_some());
        assert!(add_field(G::Belief, "namespace").is_none());
        assert!(supersede_field("subject").is_none());
        assert_eq!(supersede_field("tags").unwrap().value_type, V::Array);
    }

    #[test]
    fn projections_name_real_fields() {
        assert_eq!(PROJECTIONS.len(), 10);
        for (p, g) in PROJECTIONS.iter().zip(GrainType::ALL) {
            assert_eq!(p.grain_type, *g);
            for f in p.content.iter().copied().chain(p.attrs.iter().map(|a| a.field)) {
                assert!(resolve(Some(*g), f).info().is_some(), "{g}: {f}");
            }
        }
        assert_eq!(projection_alias(G::Observation, "observer").unwrap().field, "observer_id");
        assert_eq!(projection_alias(G::Action, "phase").unwrap().field, "action_phase");
        assert!(projection_alias(G::Belief, "observer").is_none());
        // §10.3.2: Consent's three attributes are always shown; Belief's confidence is a detail.
        assert!(projection(G::Consent).attrs.iter().all(|a| !a.detail));
        assert!(projection(G::Belief).attrs[1].detail);
    }

    #[test]
    fn comparators_map_to_ops() {
        for c in crate::vocab::Comparator::ALL {
            assert_eq!(FieldOp::from_comparator(*c).as_str(), c.as_str());
        }
    }
}

/// The grammar file agrees with the tables of this crate and is well formed.
#[cfg(test)]
mod ebnf_tests {
    use super::ebnf_support::{Tok, productions, set, terminals, words_deep};
    use super::*;
    use crate::vocab::*;
    use std::collections::BTreeSet;

    /// Every production name of the spec's §4 grammar.
    const SPEC_PRODUCTIONS: &str = concat!(
        "query version_prefix major_version let_block let_binding extractor statement explain_stmt set_stmt ",
        "set_op recall_stmt assemble_stmt exists_stmt history_stmt describe_stmt describe_target batch_stmt ",
        "batch_entry coalesce_stmt define_template_stmt context_name label for_clause from_clause source ",
        "let_ref budget_clause priority_clause format_clause format_spec format_type preset_name ",
        "stream_clause stream_option about_clause recent_clause since_clause like_clause between_clause ",
        "contradictions_clause as_clause thread_clause thread_target diff_clause as_of_clause in_clause ",
        "where_clause condition field_condition grain_field_condition meta_condition query_condition ",
        "time_condition type_condition tag_condition in_condition hash_condition relation_shortcut ",
        "domain_field_condition domain_field domain_prefix relation_category subquery_extract meta_field_name ",
        "grain_field_name event_field state_field workflow_field action_field observation_field goal_field ",
        "reasoning_field consensus_field consent_field comparator field_name subject_clause relation_clause ",
        "with_clause with_option diversity_spec consistency_level disclosure_level extension_option pipeline ",
        "pipe_stage select_stage order_stage limit_stage offset_stage count_stage first_stage subjects_stage ",
        "objects_stage hashes_stage group_stage project_stage project_spec project_field add_stmt ",
        "supersede_stmt revert_stmt add_clause add_field grain_add_field goal_add_field observation_add_field ",
        "set_clause evolve_field reason_clause template_name extends_clause template_body section ",
        "header_section element_section element_summary_section element_omit_section source_break_section ",
        "footer_section value value_list string_literal number boolean parameter array_literal hash_literal ",
        "identifier positive_integer grain_type_plural grain_type_singular ",
    );

    /// Spec productions subsumed by the generalized conditions (cal.ebnf, "Conditions").
    const SUBSUMED: &str = concat!(
        "grain_field_condition meta_condition query_condition time_condition type_condition hash_condition ",
        "domain_field_condition ",
    );

    /// Productions nothing refers to: the start symbol and the documentation of the field sets.
    const ROOTS: &str = "document known_field";

    #[test]
    fn every_reference_is_defined_and_every_production_used() {
        let prods = productions();
        let mut used = BTreeSet::new();
        for (name, rhs) in &prods {
            for t in rhs {
                if let Tok::Name(r) = t {
                    assert!(prods.contains_key(r), "{name} refers to undefined {r}");
                    used.insert(r.clone());
                }
            }
        }
        let unused: Vec<_> = prods.keys().filter(|p| !used.contains(*p)).cloned().collect();
        assert_eq!(unused, set(ROOTS.split_whitespace()).into_iter().collect::<Vec<_>>());
    }

    #[test]
    fn spec_production_names_are_kept() {
        let prods = productions();
        let subsumed: Vec<_> = SUBSUMED.split_whitespace().collect();
        for p in SPEC_PRODUCTIONS.split_whitespace() {
            assert_eq!(prods.contains_key(p), !subsumed.contains(&p), "{p}");
        }
    }

    #[test]
    fn extensions_point_to_the_decision_records() {
        let header: String = crate::EBNF.lines().take(12).collect();
        assert!(header.contains("docs/spec-decisions.md"));
        assert!(header.contains("docs/spec-decisions-grammar.md"));
        assert!(crate::EBNF.matches("EXTENSION:").count() >= 15);
    }

    #[test]
    fn upper_case_terminals_are_keywords_and_keywords_are_used() {
        let prods = productions();
        let mut upper = BTreeSet::new();
        let mut all = BTreeSet::new();
        for rhs in prods.values() {
            for t in rhs {
                if let Tok::Term(s) = t {
                    all.insert(s.to_ascii_uppercase());
                    // Single letters are hex digits, not keywords.
                    if s.len() > 1 && s.bytes().all(|b| b.is_ascii_uppercase() || b == b'_') {
                        upper.insert(s.clone());
                    }
                }
            }
        }
        for u in &upper {
            assert!(Keyword::lookup(u).is_some(), "{u} is not a keyword");
        }
        let unused: Vec<_> = Keyword::words().filter(|k| !all.contains(*k)).collect();
        // Reserved by §3.2 but without a production in §4.
        assert_eq!(unused, ["OR", "NOT", "NULL", "UNDEFINE"]);
    }

    #[test]
    fn word_sets_agree_with_vocab() {
        assert_eq!(terminals("grain_type_plural"), set(GrainType::plurals()));
        assert_eq!(terminals("grain_type_singular"), set(GrainType::words()));
        let formats: BTreeSet<_> = terminals("format_type").union(&terminals("preset_name")).cloned().collect();
        assert_eq!(formats, set(FormatName::words()));
        assert_eq!(terminals("preset_name"), set(FormatName::ALL.iter().filter(|f| f.is_preset()).map(|f| f.as_str())));
        assert_eq!(terminals("describe_target"), set(DescribeTarget::words()));
        assert_eq!(terminals("disclosure_level"), set(DisclosureLevel::words()));
        assert_eq!(terminals("comparator"), set(Comparator::words()));
        assert_eq!(terminals("set_op"), set(SetOperator::words()));
        assert_eq!(terminals("extractor"), set(Extractor::words()));
        let mut consistency = terminals("consistency_level");
        consistency.retain(|t| t != "(" && t != ")");
        assert_eq!(consistency, set(ConsistencyKind::words()));
        let mut stream = terminals("stream_option");
        assert!(stream.remove("chunk_size") && stream.remove("="));
        assert_eq!(stream, set(StreamEvents::words()));
        let mut units = terminals("budget_clause");
        units.remove("BUDGET");
        assert_eq!(units, set(BudgetUnit::words()));
        let stops = [
            "diversity_spec",
            "consistency_level",
            "disclosure_level",
            "field_ref",
            "extension_option",
            "string_literal",
            "positive_integer",
        ];
        let mut with = words_deep("with_option", &stops);
        assert!(with.remove("ttl"));
        assert_eq!(with, set(WithOptionName::words()));
        let sections: BTreeSet<_> = productions()
            .keys()
            .filter(|p| p.ends_with("_section"))
            .flat_map(|p| terminals(p))
            .filter(|t| t.len() > 1 && t.bytes().all(|b| b.is_ascii_uppercase() || b == b'_'))
            .collect();
        assert_eq!(sections, set(TemplateSectionKind::words()));
    }

    #[test]
    fn field_sets_agree_with_the_tables() {
        let names = |fs: &[FieldInfo]| set(fs.iter().map(|f| f.name));
        let per_type = [
            ("event_field", G::Event),
            ("state_field", G::State),
            ("workflow_field", G::Workflow),
            ("action_field", G::Action),
            ("observation_field", G::Observation),
            ("goal_field", G::Goal),
            ("reasoning_field", G::Reasoning),
            ("consensus_field", G::Consensus),
            ("consent_field", G::Consent),
        ];
        for (production, g) in per_type {
            assert_eq!(terminals(production), names(type_fields(g)), "{production}");
        }
        assert_eq!(terminals("meta_field_name"), set(COMMON_FIELDS.iter().filter(|f| f.meta).map(|f| f.name)));
        let mut every = names(COMMON_FIELDS);
        for g in GrainType::ALL {
            every.extend(names(type_fields(*g)));
        }
        assert_eq!(words_deep("known_field", &["domain_prefix", "identifier"]), every);
        assert_eq!(terminals("domain_prefix"), set(DOMAIN_PROFILES.iter().map(|p| p.prefix)));
        let evolve = |fs: &[EvolveField]| set(fs.iter().map(|f| f.name));
        assert_eq!(terminals("add_field"), evolve(ADD_BASE_FIELDS));
        assert_eq!(terminals("goal_add_field"), evolve(GOAL_ADD_FIELDS));
        assert_eq!(terminals("observation_add_field"), evolve(OBSERVATION_ADD_FIELDS));
        assert_eq!(terminals("evolve_field"), evolve(SUPERSEDE_FIELDS));
    }
}
