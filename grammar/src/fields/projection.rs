//! Per-grain-type content projection attributes (§10.3.2).

use super::*;

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

/// The attributes full disclosure adds to every element (§14.3 "+ source_type, importance,
/// tags, verification_status"); `observed` is the grain's time. TOON appends only the first
/// two (§10.9.3).
pub static FULL_EXTRAS: &[ProjectionAttr] = &[
    attr("source", "source_type", false),
    attr("observed", "time", false),
    attr("importance", "importance", false),
    attr("tags", "tags", false),
    attr("verification", "verification_status", false),
];

/// The fields of a grain's triple (subject, relation, object), which the `triples` format
/// and the template variables `grain.subject`/`grain.object` read.
pub const TRIPLE: [&str; 3] = ["subject", "relation", "object"];

/// The text column of a TOON row and the content of every element (§10.3.2, §10.9.3).
pub const CONTENT_COLUMN: &str = "content";

/// §10.9.3's TOON column set of a grain type at standard disclosure: attribute names of its
/// projection, and [`CONTENT_COLUMN`].
pub const fn toon_columns(grain: GrainType) -> &'static [&'static str] {
    match grain {
        G::Belief => &["subject", CONTENT_COLUMN, "confidence"],
        G::Event => &["role", "time", CONTENT_COLUMN],
        G::Goal => &["subject", CONTENT_COLUMN, "state"],
        G::Action => &["tool", "phase", CONTENT_COLUMN],
        G::Observation => &["observer", CONTENT_COLUMN],
        G::Reasoning => &["type", CONTENT_COLUMN],
        G::State => &["context", CONTENT_COLUMN],
        G::Workflow => &["trigger", CONTENT_COLUMN],
        G::Consensus => &["threshold", "count", CONTENT_COLUMN],
        G::Consent => &["grantor", "grantee", "action", CONTENT_COLUMN],
    }
}

/// The TOON columns summary disclosure drops (§10.9.3): the measures and states a headline
/// can do without.
pub const TOON_SUMMARY_DROPS: &[&str] = &["confidence", "state", "phase", "type"];

/// Attributes the prose formats write as a bare value (`(active)` rather than `(state: active)`).
pub const BARE_ATTRS: &[&str] = &["state", "phase", "type", "role", "time", "action"];

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
