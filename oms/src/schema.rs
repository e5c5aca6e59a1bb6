//! Required fields and value ranges per grain type (OMS §8, §27.1, §19.3).
//!
//! Runs on the full-name field map, before encoding and after decoding, so a
//! blob that passes decoding would also pass encoding. A field listed in
//! `_elided` counts as present (a disclosed view, §10, still names it).

use crate::error::{OmsError, Result};
use crate::types::GrainType;
use crate::value::{Map, Value};

/// Index-layer fields (§5.6, §28.3) that writers must not put in a blob.
pub const INDEX_LAYER_FIELDS: &[&str] =
    &["superseded_by", "system_valid_to", "verification_status", "access_count", "last_accessed_at"];

/// Fields whose value is epoch milliseconds (§4.8) or another timestamp.
pub const DATETIME_FIELDS: &[&str] = &["created_at", "valid_from", "valid_to", "system_valid_from", "system_valid_to"];

/// Integer fields that must not be negative (§19.3 "negative count field").
const COUNT_FIELDS: &[&str] = &[
    "success_count",
    "failure_count",
    "consolidation_level",
    "threshold",
    "agreement_count",
    "dissent_count",
    "evidence_required",
    "delegation_depth",
    "duration_ms",
];

/// Top-level fields the field tables type `float64` (§6.1 `confidence`,
/// `importance`; §6.6 `compression_ratio`; §6.7 `progress`).
pub const FLOAT_FIELDS: &[&str] = &["confidence", "importance", "compression_ratio", "progress"];

/// Float-typed keys inside the map elements of an array field: `related_to`
/// entries (§14.2 table, `weight` float64) and `provenance_chain` entries
/// (§14.1, `weight` 0.0–1.0, written `1.0` in the spec's example).
pub const ELEMENT_FLOAT_FIELDS: &[(&str, &str)] = &[("related_to", "weight"), ("provenance_chain", "weight")];

/// Float-typed keys of the `statistical_context` map (§8.8: `p_value`,
/// `effect_size` float; `confidence_interval` an array of floats).
pub const STATISTICAL_FLOAT_FIELDS: &[&str] = &["p_value", "effect_size", "confidence_interval"];

/// One value at a float-typed position. With `fix`, an integer becomes the
/// float of the same value; without, its path is returned.
fn float_slot(v: &mut Value, fix: bool, path: impl FnOnce() -> String) -> Option<String> {
    match v {
        Value::Int(i) if fix => {
            *v = Value::Float(*i as f64);
            None
        }
        Value::Int(_) => Some(path()),
        _ => None,
    }
}

/// Walks every position the spec types as a float ([`FLOAT_FIELDS`],
/// [`ELEMENT_FLOAT_FIELDS`], [`STATISTICAL_FLOAT_FIELDS`]) in a full-name
/// field map. With `fix`, integers there are turned into floats (type-directed
/// encoding: `1` and `1.0` in `confidence` are the same grain); without, the
/// path of the first integer found is returned. Values of other kinds are
/// left to validation.
fn float_positions(map: &mut Map, fix: bool) -> Option<String> {
    for name in FLOAT_FIELDS {
        if let Some(v) = map.get_mut(*name)
            && let Some(p) = float_slot(v, fix, || (*name).to_string())
        {
            return Some(p);
        }
    }
    for (array, key) in ELEMENT_FLOAT_FIELDS {
        let Some(Value::Array(items)) = map.get_mut(*array) else { continue };
        for (i, item) in items.iter_mut().enumerate() {
            let Value::Map(entry) = item else { continue };
            if let Some(v) = entry.get_mut(*key)
                && let Some(p) = float_slot(v, fix, || format!("{array}[{i}].{key}"))
            {
                return Some(p);
            }
        }
    }
    if let Some(Value::Map(stats)) = map.get_mut("statistical_context") {
        for key in STATISTICAL_FLOAT_FIELDS {
            match stats.get_mut(*key) {
                Some(Value::Array(items)) => {
                    for (i, v) in items.iter_mut().enumerate() {
                        if let Some(p) = float_slot(v, fix, || format!("statistical_context.{key}[{i}]")) {
                            return Some(p);
                        }
                    }
                }
                Some(v) => {
                    if let Some(p) = float_slot(v, fix, || format!("statistical_context.{key}")) {
                        return Some(p);
                    }
                }
                None => {}
            }
        }
    }
    None
}

/// Type-directed numbers: every integer at a float-typed position becomes a
/// float, so a grain's content address does not depend on whether its JSON
/// wrote `1` or `1.0` there. Applied when a grain is built (from JSON or a map).
pub fn coerce_float_fields(map: &mut Map) {
    let _ = float_positions(map, true);
}

/// The path of the first integer at a float-typed position, if any. A
/// canonical writer never produces one, so a decoder refuses such a blob.
pub(crate) fn integer_in_float_field(map: &mut Map) -> Option<String> {
    float_positions(map, false)
}

/// `goal_state` values (§8.7).
pub const GOAL_STATES: &[&str] = &["active", "satisfied", "failed", "suspended"];

/// The closed `observation_mode` vocabulary (§25).
pub const OBSERVATION_MODES: &[&str] = &["passive", "active", "reflective", "real_time"];

/// The closed `observation_scope` vocabulary (§26).
pub const OBSERVATION_SCOPES: &[&str] = &["point", "interval", "session", "longitudinal"];

/// The closed `related_to` relation vocabulary (§14.3).
pub const RELATION_TYPES: &[&str] = &[
    "similar",
    "contradicts",
    "elaborates",
    "generalizes",
    "temporal_next",
    "temporal_prev",
    "causal",
    "supports",
    "refutes",
    "replaces",
    "depends_on",
];

/// Largest `created_at` (ms) whose seconds fit the u32 header field.
pub const MAX_CREATED_AT_MS: i128 = (u32::MAX as i128) * 1000 + 999;

struct Fields<'a> {
    map: &'a Map,
    elided: Option<&'a Map>,
}

impl<'a> Fields<'a> {
    fn get(&self, name: &str) -> Option<&'a Value> {
        self.map.get(name).filter(|v| !matches!(v, Value::Null))
    }

    fn is_elided(&self, name: &str) -> bool {
        self.elided.is_some_and(|e| e.contains_key(name))
    }

    /// A required field: present (or elided).
    fn require(&self, name: &str) -> Result<Option<&'a Value>> {
        match self.get(name) {
            Some(v) => Ok(Some(v)),
            None if self.is_elided(name) => Ok(None),
            None => Err(OmsError::schema(name, "missing required field")),
        }
    }

    fn require_str(&self, name: &str) -> Result<()> {
        if let Some(v) = self.require(name)? {
            non_empty_str(name, v)?;
        }
        Ok(())
    }

    fn require_int(&self, name: &str) -> Result<()> {
        if let Some(v) = self.require(name)?
            && !matches!(v, Value::Int(_))
        {
            return Err(OmsError::schema(name, format!("must be an integer, got {}", v.kind())));
        }
        Ok(())
    }

    fn require_str_array(&self, name: &str, non_empty: bool) -> Result<()> {
        if let Some(v) = self.require(name)? {
            str_array(name, v)?;
            if non_empty && v.as_array().is_some_and(<[Value]>::is_empty) {
                return Err(OmsError::Empty { field: name.to_string() });
            }
        }
        Ok(())
    }

    fn forbid(&self, names: &[&str], why: &str) -> Result<()> {
        for n in names {
            if self.get(n).is_some() {
                return Err(OmsError::schema(n, format!("must not be present {why}")));
            }
        }
        Ok(())
    }
}

fn non_empty_str(name: &str, v: &Value) -> Result<()> {
    match v {
        Value::Str(s) if s.is_empty() => Err(OmsError::Empty { field: name.to_string() }),
        Value::Str(_) => Ok(()),
        other => Err(OmsError::schema(name, format!("must be a string, got {}", other.kind()))),
    }
}

fn str_array(name: &str, v: &Value) -> Result<()> {
    match v {
        Value::Array(items) if items.iter().all(|i| matches!(i, Value::Str(_))) => Ok(()),
        other => Err(OmsError::schema(name, format!("must be an array of strings, got {}", other.kind()))),
    }
}

/// Observer types for which §24.2 recommends an `observer_model` and §17.2
/// asks a Level 2 implementation to warn when it is absent.
pub const MODEL_RECOMMENDED_OBSERVERS: &[&str] = &["llm", "reflector", "classifier", "detector"];

/// A finding about a valid grain that the spec asks implementations to
/// report without rejecting it (a SHOULD, not a MUST). Returned as data by
/// [`warnings`] and `Grain::warnings`; printing is the caller's business.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// A stable identifier, `WARN_*`, so callers never match on message text.
    pub code: &'static str,
    /// Full name of the field concerned.
    pub field: String,
    /// What the spec recommends, with its section.
    pub message: String,
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}: {}", self.code, self.field, self.message)
    }
}

/// The SHOULD-level findings for a full-name field map of the given type;
/// empty when there are none. Does not validate: run [`validate`] for that.
///
/// `WARN_OBSERVER_MODEL`: an Observation whose `observer_type` is `llm`,
/// `reflector`, `classifier` or `detector` has no `observer_model` (§17.2,
/// §24.2). An `observer_model` named in `_elided` counts as present.
pub fn warnings(ty: GrainType, map: &Map) -> Vec<Warning> {
    let f = Fields { map, elided: map.get("_elided").and_then(Value::as_map) };
    let mut out = Vec::new();
    if ty == GrainType::Observation
        && let Some(observer) = f.get("observer_type").and_then(Value::as_str)
        && MODEL_RECOMMENDED_OBSERVERS.contains(&observer)
        && f.get("observer_model").is_none()
        && !f.is_elided("observer_model")
    {
        out.push(Warning {
            code: "WARN_OBSERVER_MODEL",
            field: "observer_model".into(),
            message: format!("is recommended when observer_type is {observer:?} (§24.2, §17.2)"),
        });
    }
    out
}

/// Validates a full-name field map for the given type. Types outside the
/// ten standard ones are opaque (§19.4) and only get the common checks.
pub fn validate(ty: GrainType, map: &Map) -> Result<()> {
    let f = Fields { map, elided: map.get("_elided").and_then(Value::as_map) };
    common(&f)?;
    match ty {
        GrainType::Belief => {
            f.require_str("subject")?;
            f.require_str("relation")?;
            if let Some(o) = f.require("object")?
                && !matches!(o, Value::Str(_) | Value::Map(_))
            {
                return Err(OmsError::schema("object", format!("must be a string or map, got {}", o.kind())));
            }
            f.require("confidence")?;
            f.require("created_at")?;
        }
        GrainType::Event => {
            let described = ["subject", "relation", "object"].iter().all(|n| f.get(n).is_some() || f.is_elided(n));
            if f.get("content_blocks").is_some() || (described && f.get("content").is_none()) {
                if let Some(c) = f.get("content") {
                    non_empty_str("content", c)?;
                }
            } else {
                f.require_str("content")?;
            }
            f.require("created_at")?;
            content_blocks(&f)?;
        }
        GrainType::State => {
            if let Some(c) = f.require("context")?
                && !matches!(c, Value::Map(_))
            {
                return Err(OmsError::schema("context", "must be a map"));
            }
            f.require("created_at")?;
        }
        GrainType::Workflow => {
            f.require_str_array("steps", true)?;
            f.require_str("trigger")?;
            f.require("created_at")?;
        }
        GrainType::Action => {
            action(&f)?;
            f.require("created_at")?;
        }
        GrainType::Observation => {
            f.require_str("observer_id")?;
            f.require_str("observer_type")?;
            f.require("created_at")?;
            observation(&f)?;
        }
        GrainType::Goal => {
            f.require_str("description")?;
            if let Some(gs) = f.require("goal_state")? {
                match gs.as_str() {
                    Some(s) if GOAL_STATES.contains(&s) => {}
                    _ => {
                        return Err(OmsError::schema(
                            "goal_state",
                            format!("must be one of {}", GOAL_STATES.join(", ")),
                        ));
                    }
                }
            }
            f.require("created_at")?;
        }
        GrainType::Reasoning => {
            f.require("created_at")?;
        }
        GrainType::Consensus => {
            f.require_str_array("participating_observers", false)?;
            f.require_int("threshold")?;
            f.require_int("agreement_count")?;
            f.require_int("dissent_count")?;
            f.require("created_at")?;
        }
        GrainType::Consent => {
            f.require_str("subject_did")?;
            f.require_str("grantee_did")?;
            f.require_str_array("scope", false)?;
            if let Some(w) = f.require("is_withdrawal")? {
                match w {
                    Value::Bool(true) => {
                        f.require_str("prior_consent")?;
                    }
                    Value::Bool(false) => {}
                    other => {
                        return Err(OmsError::schema(
                            "is_withdrawal",
                            format!("must be a boolean, got {}", other.kind()),
                        ));
                    }
                }
            }
            f.require("created_at")?;
        }
        GrainType::Other(_) => {}
    }
    Ok(())
}

/// A field whose value must be one string of a closed vocabulary.
fn closed_enum(f: &Fields<'_>, name: &str, allowed: &[&str], section: &str) -> Result<()> {
    match f.get(name) {
        None => Ok(()),
        Some(Value::Str(s)) if allowed.contains(&s.as_str()) => Ok(()),
        Some(Value::Str(s)) => Err(OmsError::schema(
            name,
            format!("{s:?} is not in the closed vocabulary ({section}): {}", allowed.join(", ")),
        )),
        Some(other) => Err(OmsError::schema(name, format!("must be a string, got {}", other.kind()))),
    }
}

/// Observation rules beyond the required fields: the closed mode and scope
/// vocabularies (§25, §26) and the `human` observer, which must not carry an
/// `observer_model` (§24.2). An `observer_model` named in `_elided` was
/// present in the original, so it counts.
fn observation(f: &Fields<'_>) -> Result<()> {
    closed_enum(f, "observation_mode", OBSERVATION_MODES, "§25")?;
    closed_enum(f, "observation_scope", OBSERVATION_SCOPES, "§26")?;
    if f.get("observer_type").and_then(Value::as_str) == Some("human")
        && (f.get("observer_model").is_some() || f.is_elided("observer_model"))
    {
        return Err(OmsError::schema("observer_model", "must be absent when observer_type is \"human\" (§24.2)"));
    }
    Ok(())
}

/// `content_blocks` (§6.2): an array of maps, each with a non-empty string
/// `type` ("Each block in the array MUST contain a type field"). Block types
/// are open (implementations may define more), so the value is not checked
/// against the standard five.
fn content_blocks(f: &Fields<'_>) -> Result<()> {
    const NAME: &str = "content_blocks";
    let blocks = match f.get(NAME) {
        None => return Ok(()),
        Some(Value::Array(items)) => items,
        Some(other) => return Err(OmsError::schema(NAME, format!("must be an array of maps, got {}", other.kind()))),
    };
    for (i, block) in blocks.iter().enumerate() {
        let Value::Map(block) = block else {
            return Err(OmsError::schema(NAME, format!("entry {i} must be a map, got {}", block.kind())));
        };
        match block.get("type") {
            None | Some(Value::Null) => {
                return Err(OmsError::schema(NAME, format!("entry {i} is missing type (§6.2)")));
            }
            Some(Value::Str(t)) if t.is_empty() => {
                return Err(OmsError::Empty { field: format!("{NAME}[{i}].type") });
            }
            Some(Value::Str(_)) => {}
            Some(other) => {
                return Err(OmsError::schema(NAME, format!("entry {i}: type must be a string, got {}", other.kind())));
            }
        }
    }
    Ok(())
}

/// Checks shared by every grain, standard or not: one pass over the fields.
fn common(f: &Fields<'_>) -> Result<()> {
    match f.get("type") {
        None => return Err(OmsError::NoType),
        Some(Value::Str(_)) => {}
        Some(other) => return Err(OmsError::schema("type", format!("must be a string, got {}", other.kind()))),
    }
    let mut has_refs = false;
    for (name, v) in f.map {
        if matches!(v, Value::Null) {
            continue;
        }
        let name = name.as_str();
        match name {
            "superseded_by" | "system_valid_to" | "verification_status" | "access_count" | "last_accessed_at" => {
                return Err(OmsError::schema(name, "must not be present in a blob: it is an index-layer field (§5.6)"));
            }
            "created_at" => match v {
                Value::Int(ms) if (0..=MAX_CREATED_AT_MS).contains(ms) => {}
                Value::Int(ms) => {
                    return Err(OmsError::range(name, format!("{ms} ms is outside 1970..2106 (u32 seconds)")));
                }
                other => {
                    return Err(OmsError::schema(name, format!("must be epoch milliseconds, got {}", other.kind())));
                }
            },
            "valid_from" | "valid_to" | "system_valid_from" if !matches!(v, Value::Int(_)) => {
                return Err(OmsError::schema(name, format!("must be epoch milliseconds, got {}", v.kind())));
            }
            "confidence" | "importance" => {
                let x =
                    v.as_f64().ok_or_else(|| OmsError::schema(name, format!("must be a number, got {}", v.kind())))?;
                if !(0.0..=1.0).contains(&x) {
                    return Err(OmsError::range(name, format!("{x} is outside [0.0, 1.0]")));
                }
            }
            n if COUNT_FIELDS.contains(&n) => match v {
                Value::Int(i) if *i >= 0 => {}
                Value::Int(i) => return Err(OmsError::range(name, format!("{i} is negative"))),
                other => return Err(OmsError::schema(name, format!("must be an integer, got {}", other.kind()))),
            },
            "namespace" | "author_did" | "user_id" | "source_type" if !matches!(v, Value::Str(_)) => {
                return Err(OmsError::schema(name, format!("must be a string, got {}", v.kind())));
            }
            "structural_tags" => str_array(name, v)?,
            "invalidation_policy" if !matches!(v, Value::Map(_)) => {
                return Err(OmsError::schema(name, "must be a map"));
            }
            "content_refs" | "embedding_refs" | "related_to" => has_refs = true,
            _ => {}
        }
    }
    if has_refs {
        refs(f)?;
    }
    Ok(())
}

/// Shapes of `content_refs`, `embedding_refs` and `related_to` entries.
fn refs(f: &Fields<'_>) -> Result<()> {
    let entries = |name: &str| -> Result<Vec<&Map>> {
        match f.get(name) {
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .map(|i| i.as_map().ok_or_else(|| OmsError::schema(name, "every entry must be a map")))
                .collect(),
            Some(other) => Err(OmsError::schema(name, format!("must be an array of maps, got {}", other.kind()))),
        }
    };
    for e in entries("content_refs")? {
        // §27.5: an external citation stands in place of a content reference.
        let required: &[&str] =
            if e.contains_key("citation_type") { &["citation_type", "identifier"] } else { &["uri", "modality"] };
        for r in required {
            if !e.contains_key(*r) {
                return Err(OmsError::schema("content_refs", format!("entry is missing {r}")));
            }
        }
    }
    for e in entries("embedding_refs")? {
        for r in ["vector_id", "model", "dimensions"] {
            if !e.contains_key(r) {
                return Err(OmsError::schema("embedding_refs", format!("entry is missing {r}")));
            }
        }
    }
    for e in entries("related_to")? {
        match e.get("relation_type").and_then(Value::as_str) {
            Some(rt) if RELATION_TYPES.contains(&rt) => {}
            Some(rt) => {
                return Err(OmsError::schema(
                    "related_to",
                    format!("relation_type {rt:?} is not in the closed vocabulary (§14.3)"),
                ));
            }
            None => return Err(OmsError::schema("related_to", "entry is missing relation_type")),
        }
        if !e.contains_key("hash") {
            return Err(OmsError::schema("related_to", "entry is missing hash"));
        }
    }
    Ok(())
}

/// Action phase rules (§27.1).
fn action(f: &Fields<'_>) -> Result<()> {
    let phase = match f.get("action_phase") {
        None => None,
        Some(Value::Str(s)) => Some(s.as_str()),
        Some(other) => return Err(OmsError::schema("action_phase", format!("must be a string, got {}", other.kind()))),
    };
    let results = ["content", "is_error", "stdout", "stderr", "exit_code", "duration_ms"];
    match phase {
        Some("definition") => {
            f.require_str("tool_name")?;
            f.require_str("tool_description")?;
            f.require("input_schema")?;
            f.forbid(
                &["input", "content", "is_error", "stdout", "stderr", "exit_code", "duration_ms"],
                "in a definition-phase action",
            )?;
        }
        Some("call") => {
            f.require_str("tool_name")?;
            f.require("input")?;
            f.forbid(&results, "in a call-phase action")?;
        }
        Some("result") => {
            f.require_str("tool_call_id")?;
            f.require("content")?;
            f.require("is_error")?;
            f.require("derived_from")?;
        }
        None => {
            // A CodeAct execution (§27.1 Example 2) records code and its
            // output instead of tool_name/input/content.
            let code_exec = f.get("execution_mode").and_then(Value::as_str) == Some("code_exec");
            if code_exec {
                f.require_str("code")?;
            } else {
                f.require_str("tool_name")?;
                f.require("input")?;
                f.require("content")?;
            }
            f.require("is_error")?;
        }
        Some(other) => {
            return Err(OmsError::schema(
                "action_phase",
                format!("{other:?} is not one of definition, call, result (or absent)"),
            ));
        }
    }
    if let Some(v) = f.get("is_error")
        && !matches!(v, Value::Bool(_))
    {
        return Err(OmsError::schema("is_error", "must be a boolean"));
    }
    Ok(())
}
