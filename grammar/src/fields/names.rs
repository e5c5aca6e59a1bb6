//! The field names the toolchain refers to in code: a shortcut's expansion
//! (`ABOUT` is a `subject` condition), a rule about one field (`score` is a
//! post-retrieval filter), a lookup by name. Code outside this crate names a
//! field through these constants, never a string literal, so a field's
//! spelling lives in the tables of this crate alone (a test checks each
//! constant names a field of [`super::COMMON_FIELDS`] or a type's table).

/// Free-text query: triggers semantic search.
pub const QUERY: &str = "query";
/// Triple subject.
pub const SUBJECT: &str = "subject";
/// Triple relation.
pub const RELATION: &str = "relation";
/// Triple object.
pub const OBJECT: &str = "object";
/// The user a grain belongs to.
pub const USER_ID: &str = "user_id";
/// The namespace a grain lives in.
pub const NAMESPACE: &str = "namespace";
/// Relevance score of a retrieval.
pub const SCORE: &str = "score";
/// Tag set.
pub const TAGS: &str = "tags";
/// Grain type.
pub const TYPE: &str = "type";
/// When the grain was created.
pub const TIME: &str = "time";
/// Content address.
pub const HASH: &str = "hash";
/// Whether another grain contradicts this one.
pub const CONTRADICTED: &str = "contradicted";
/// Verification status.
pub const VERIFICATION_STATUS: &str = "verification_status";
/// What kind of source produced the grain.
pub const SOURCE_TYPE: &str = "source_type";
/// An event's conversation session.
pub const SESSION_ID: &str = "session_id";
/// A goal's prerequisite goals (content addresses).
pub const DEPENDS_ON: &str = "depends_on";
/// A goal's state (CAL words, stored as OMS states).
pub const GOAL_STATE: &str = "goal_state";
/// A goal's deadline (an instant).
pub const DEADLINE: &str = "deadline";
/// A consent's scope (also the SCOPE keyword of `IN SCOPE "…"`).
pub const SCOPE: &str = "scope";

/// Fields whose `=` is a text search rather than an equality (§5.2 `query`,
/// §6.3 "semantic search on …"): the RECALL becomes a `search` (§13, F9).
pub const SEMANTIC: &[&str] = &[QUERY, "content", "plan", "steps", "conclusion"];

/// Every constant above, for the test that keeps them honest.
pub const ALL: &[&str] = &[
    QUERY,
    SUBJECT,
    RELATION,
    OBJECT,
    USER_ID,
    NAMESPACE,
    SCORE,
    TAGS,
    TYPE,
    TIME,
    HASH,
    CONTRADICTED,
    VERIFICATION_STATUS,
    SOURCE_TYPE,
    SESSION_ID,
    DEPENDS_ON,
    GOAL_STATE,
    DEADLINE,
    SCOPE,
];
