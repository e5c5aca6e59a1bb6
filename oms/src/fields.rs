//! Field compaction (OMS §6, §7.1–7.2, §14.2, Appendix C): the normative,
//! bijective mapping between full field names and the short keys stored in
//! blobs.
//!
//! One global table covers every grain type, because Appendix C presents the
//! mapping as a single name space. The one name that maps differently per
//! type is `content`: Event keeps `content` (§6.2) while Action stores it as
//! `cnt` (§6.5). Keys that are not in the table pass through unchanged in both
//! directions (§6.12).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

/// Common fields (§6.1) and the Consent / Reasoning entries Appendix C lists
/// with them.
pub const CORE_FIELDS: &[(&str, &str)] = &[
    ("type", "t"),
    ("subject", "s"),
    ("relation", "r"),
    ("object", "o"),
    ("confidence", "c"),
    ("source_type", "st"),
    ("created_at", "ca"),
    ("temporal_type", "tt"),
    ("valid_from", "vf"),
    ("valid_to", "vt"),
    ("system_valid_from", "svf"),
    ("system_valid_to", "svt"),
    ("context", "ctx"),
    ("superseded_by", "sb"),
    ("contradicted", "ct"),
    ("importance", "im"),
    ("author_did", "adid"),
    ("namespace", "ns"),
    ("user_id", "user"),
    ("structural_tags", "tags"),
    ("derived_from", "df"),
    ("consolidation_level", "cl"),
    ("success_count", "sc"),
    ("failure_count", "fc"),
    ("provenance_chain", "pc"),
    ("origin_did", "odid"),
    ("origin_namespace", "ons"),
    ("content_refs", "cr"),
    ("embedding_refs", "er"),
    ("related_to", "rt"),
    ("_elided", "_e"),
    ("_disclosure_of", "_do"),
    ("invalidation_policy", "ip"),
    ("supersession_justification", "sj"),
    ("supersession_auth", "sa"),
    ("owner", "own"),
    ("category", "cat"),
    ("run_id", "rid"),
    ("role", "role"),
    ("access_count", "ac"),
    ("last_accessed_at", "laa"),
    ("timestamp_ms", "tms"),
    ("observer_did", "obsdid"),
    ("subject_did", "sdid"),
    ("session_id", "sid2"),
    ("entity_id", "eid"),
    ("epistemic_status", "epstat"),
    ("verification_status", "vstatus"),
    ("requires_human_review", "rhr"),
    ("processing_basis", "pbasis"),
    ("identity_state", "idst"),
    ("license", "lic"),
    ("trusted_timestamp", "tts"),
    ("invalidation_type", "itype"),
    ("invalidation_reason", "ireason"),
    ("invalidation_initiator", "iinit"),
    ("retention_policy", "rpol"),
    ("recall_priority", "rpri"),
];

/// Event fields (§6.2), except `content`, which is type-dependent.
pub const EVENT_FIELDS: &[(&str, &str)] = &[
    ("consolidated", "consolidated"),
    ("content_blocks", "cblocks"),
    ("model_id", "mdl"),
    ("stop_reason", "stopr"),
    ("token_usage", "toku"),
    ("parent_message_id", "pmid"),
];

/// State (§6.3) and Workflow (§6.4) fields: identity mappings, listed so the
/// table is complete.
pub const STATE_WORKFLOW_FIELDS: &[(&str, &str)] =
    &[("plan", "plan"), ("history", "history"), ("steps", "steps"), ("trigger", "trigger")];

/// Action fields (§6.5), except `content` (→ `cnt`, Action only).
pub const ACTION_FIELDS: &[(&str, &str)] = &[
    ("action_phase", "aphase"),
    ("tool_name", "tn"),
    ("input", "inp"),
    ("is_error", "iserr"),
    ("tool_call_id", "tcid"),
    ("call_batch_id", "cbid"),
    ("tool_type", "ttype"),
    ("tool_version", "tver"),
    ("execution_mode", "emode"),
    ("code", "code"),
    ("stdout", "out"),
    ("stderr", "err2"),
    ("exit_code", "xc"),
    ("interpreter_id", "iid"),
    ("error", "err"),
    ("error_type", "etype"),
    ("duration_ms", "dur"),
    ("parent_task_id", "ptid"),
    ("tool_description", "tdesc"),
    ("input_schema", "isch"),
    ("output_schema", "osch"),
    ("strict", "strict"),
];

/// Observation fields (§6.6).
pub const OBSERVATION_FIELDS: &[(&str, &str)] = &[
    ("observer_id", "oid"),
    ("observer_type", "otype"),
    ("frame_id", "fid"),
    ("sync_group", "sg"),
    ("observation_mode", "omode"),
    ("observation_scope", "oscope"),
    ("observer_model", "omdl"),
    ("compression_ratio", "ocmp"),
];

/// Goal fields (§6.7).
pub const GOAL_FIELDS: &[(&str, &str)] = &[
    ("description", "desc"),
    ("goal_state", "gs"),
    ("criteria", "crit"),
    ("criteria_structured", "crs"),
    ("priority", "pri"),
    ("parent_goals", "pgs"),
    ("state_reason", "sr"),
    ("satisfaction_evidence", "se"),
    ("progress", "prog"),
    ("delegate_to", "dto"),
    ("delegate_from", "dfo"),
    ("expiry_policy", "ep"),
    ("recurrence", "rec"),
    ("evidence_required", "evreq"),
    ("rollback_on_failure", "rof"),
    ("allowed_transitions", "atr"),
    ("depends_on", "depg"),
    ("assigned_agent", "asgn"),
    ("expected_output", "expout"),
    ("output_grain", "outg"),
    ("deadline", "dline"),
];

/// Consent fields (§6.8).
pub const CONSENT_FIELDS: &[(&str, &str)] = &[
    ("grantee_did", "gdid"),
    ("scope", "scope"),
    ("is_withdrawal", "isw"),
    ("basis", "basis"),
    ("jurisdiction", "jur"),
    ("prior_consent", "pcon"),
    ("witness_dids", "wdids"),
];

/// Reasoning fields (§6.9).
pub const REASONING_FIELDS: &[(&str, &str)] = &[
    ("premises", "prem"),
    ("conclusion", "conc"),
    ("inference_method", "imethod"),
    ("alternatives_considered", "altc"),
    ("thinking_content", "think"),
    ("thinking_redacted", "tredact"),
    ("statistical_context", "statctx"),
    ("software_environment", "swenv"),
    ("parameter_set", "params"),
    ("random_seed", "rseed"),
];

/// Consensus fields (§6.10).
pub const CONSENSUS_FIELDS: &[(&str, &str)] = &[
    ("participating_observers", "pobs"),
    ("threshold", "thold"),
    ("agreement_count", "agcnt"),
    ("dissent_count", "discnt"),
    ("dissent_grains", "disgrn"),
    ("agreed_content", "agcon"),
];

/// Delegation scope fields (§6.11).
pub const DELEGATION_FIELDS: &[(&str, &str)] = &[
    ("authorized_namespaces", "ans"),
    ("authorized_types", "atypes"),
    ("authorized_tools", "atools"),
    ("delegation_depth", "ddepth"),
    ("delegation_expiry", "dexp"),
    ("context_grains", "cgrains"),
    ("return_to", "retdid"),
];

/// Every top-level table, in spec order.
pub const TOP_LEVEL_TABLES: &[&[(&str, &str)]] = &[
    CORE_FIELDS,
    EVENT_FIELDS,
    STATE_WORKFLOW_FIELDS,
    ACTION_FIELDS,
    OBSERVATION_FIELDS,
    GOAL_FIELDS,
    CONSENT_FIELDS,
    REASONING_FIELDS,
    CONSENSUS_FIELDS,
    DELEGATION_FIELDS,
];

/// Short key of `content` in Action grains (§6.5).
pub const ACTION_CONTENT_KEY: &str = "cnt";

/// Entries of `content_refs` (§7.1).
pub const CONTENT_REF_FIELDS: &[(&str, &str)] = &[
    ("uri", "u"),
    ("modality", "m"),
    ("mime_type", "mt"),
    ("size_bytes", "sz"),
    ("checksum", "ck"),
    ("metadata", "md"),
];

/// Entries of `embedding_refs` (§7.2, including the chunk fields).
pub const EMBEDDING_REF_FIELDS: &[(&str, &str)] = &[
    ("vector_id", "vi"),
    ("model", "mo"),
    ("dimensions", "dm"),
    ("modality_source", "ms"),
    ("distance_metric", "di"),
    ("chunk_index", "ci"),
    ("chunk_text", "ct"),
    ("chunk_strategy", "cs"),
    ("chunk_overlap", "co"),
];

/// Entries of `related_to` (§14.2).
pub const RELATED_TO_FIELDS: &[(&str, &str)] = &[("hash", "h"), ("relation_type", "rl"), ("weight", "w")];

/// Integration-profile keys of Appendix C. Published as data only: §4.7 and
/// §4.9 step 3 restrict nested compaction to three fields, so keys inside
/// `context` are *not* compacted (see docs/spec-decisions-oms.md).
pub const INTEGRATION_CONTEXT_FIELDS: &[(&str, &str)] = &[
    ("int:base_url", "ib"),
    ("int:http_method", "ihm"),
    ("int:http_path", "ihp"),
    ("int:path_params", "ipp"),
    ("int:query_params", "iqp"),
    ("int:body_params", "ibp"),
    ("int:response_mapping", "irm"),
    ("int:auth_type", "iat"),
    ("int:auth_scopes", "ias"),
    ("int:read_only", "iro"),
    ("int:connector", "ic"),
    ("int:docs_url", "idu"),
    ("int:rate_limit", "irl"),
    ("int:category", "icat"),
    ("int:sunset_date", "isd"),
    ("int:content_type", "ict"),
    ("int:poll_interval_secs", "ipis"),
    ("int:cursor_field", "icf"),
    ("int:cursor_type", "icft"),
    ("int:webhook_path", "iwp"),
    ("int:webhook_secret_header", "iwsh"),
    ("int:cron_expression", "icron"),
    ("int:timezone", "itz"),
    ("int:config_schema", "icfg"),
    ("int:event_schema", "ievt"),
];

/// Which nested table applies to the elements of a top-level field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nested {
    /// `content_refs`.
    ContentRef,
    /// `embedding_refs`.
    EmbeddingRef,
    /// `related_to`.
    RelatedTo,
}

impl Nested {
    /// The nested table for a full top-level field name, if any (§4.7).
    pub fn for_field(full: &str) -> Option<Nested> {
        match full {
            "content_refs" => Some(Nested::ContentRef),
            "embedding_refs" => Some(Nested::EmbeddingRef),
            "related_to" => Some(Nested::RelatedTo),
            _ => None,
        }
    }

    fn table(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Nested::ContentRef => CONTENT_REF_FIELDS,
            Nested::EmbeddingRef => EMBEDDING_REF_FIELDS,
            Nested::RelatedTo => RELATED_TO_FIELDS,
        }
    }

    /// Short key for a full key inside one element; unknown keys pass through.
    pub fn compact(self, full: &str) -> &str {
        self.table().iter().find(|(f, _)| *f == full).map_or(full, |(_, s)| s)
    }

    /// Full key for a short key inside one element; unknown keys pass through.
    pub fn expand(self, short: &str) -> &str {
        self.table().iter().find(|(_, s)| *s == short).map_or(short, |(f, _)| f)
    }

    /// Whether `key` is a full name of this table that compacts to something else.
    pub(crate) fn is_noncanonical_full(self, key: &str) -> bool {
        self.table().iter().any(|(f, s)| *f == key && f != s)
    }
}

/// FNV-1a: field names are short, trusted table keys, so a fast
/// non-cryptographic hash is right here (SipHash costs more than the lookup).
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 { 0xcbf2_9ce4_8422_2325 } else { self.0 };
        for b in bytes {
            h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

type FnvMap = HashMap<&'static str, &'static str, BuildHasherDefault<Fnv>>;

struct Tables {
    to_short: FnvMap,
    to_full: FnvMap,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut to_short = FnvMap::default();
        let mut to_full = FnvMap::default();
        for table in TOP_LEVEL_TABLES {
            for (full, short) in table.iter() {
                to_short.insert(*full, *short);
                to_full.insert(*short, *full);
            }
        }
        Tables { to_short, to_full }
    })
}

/// Short key for a top-level full field name in a grain of the given type.
/// `is_action` selects the Action-only mapping of `content`.
pub fn compact_key(full: &str, is_action: bool) -> &str {
    if full == "content" {
        return if is_action { ACTION_CONTENT_KEY } else { "content" };
    }
    tables().to_short.get(full).copied().unwrap_or(full)
}

/// Full field name for a top-level short key in a grain of the given type.
pub fn expand_key(short: &str, is_action: bool) -> &str {
    if short == ACTION_CONTENT_KEY && is_action {
        return "content";
    }
    tables().to_full.get(short).copied().unwrap_or(short)
}

/// Whether a key found in a blob is a full name that a canonical encoder
/// would have compacted: such a blob cannot round-trip, so decoders reject it.
pub(crate) fn is_noncanonical_full_key(key: &str, is_action: bool) -> bool {
    if key == "content" {
        return is_action;
    }
    matches!(tables().to_short.get(key), Some(short) if *short != key)
}
