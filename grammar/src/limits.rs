//! Resource limits and defaults of CAL/1 as named constants (§17.3, §8.2,
//! §8.4, §8.7, §8.12, §8.13, §10.8, §11.2, §11.6, §3.4, §14.3), plus the
//! [`LIMITS`] table that the conformance suite walks to generate boundary cases
//! ("at the limit passes, one over fails with its code", ARCHITECTURE.md §6).
//!
//! Where the spec names no code for a limit we chose one by a fixed rule,
//! recorded per row in [`LimitInfo::code_from_spec`] and explained in
//! docs/spec-decisions-grammar.md ("Codes for limits without one"):
//!
//! * too many operands of a multi-query construct (BATCH entries, COALESCE
//!   branches, ASSEMBLE sources, and too few COALESCE branches) → CAL-E013;
//! * too many `$` bindings (LET bindings, parameters) → CAL-E009;
//! * nesting of LET chains → CAL-E007, the nesting-depth code;
//! * too many SET clauses → CAL-E017, the SET-clause code;
//! * a text item too long (context name, FOR text, template name) → CAL-E016,
//!   the only "text exceeds maximum length" code (besides E001/E092, which are
//!   specific to the whole query and the template body);
//! * BUDGET over its maximum → CAL-E030;
//! * streaming resources → the streaming codes E079/E081/E082.
//!
//! Lengths in "chars" count Unicode scalar values of the NFC-normalized text
//! (`str::chars().count()`), not bytes; only the query length is in bytes.

use crate::codes::Code;

// ---------------------------------------------------------------- §17.3 ----

/// Maximum query length in bytes, checked before lexing (§17.3, CAL-E001). Not configurable.
pub const MAX_QUERY_BYTES: usize = 8192;
/// Maximum value of `LIMIT n` (§17.3, CAL-E010; implementation-configurable). `RECENT n`
/// desugars to `ORDER BY time DESC | LIMIT n` (§9.2), so it is bound by this too.
pub const MAX_LIMIT: usize = 1000;
/// The LIMIT applied when a RECALL has none (§17.3, §27 "LIMIT is always enforced").
pub const DEFAULT_LIMIT: usize = 20;
/// Maximum nesting of subqueries (`IN (RECALL … | SUBJECTS)`), in levels (§17.3, CAL-E007).
pub const MAX_SUBQUERY_DEPTH: usize = 3;
/// Maximum number of pipeline stages in one RECALL (§17.3, CAL-E012).
pub const MAX_PIPELINE_STAGES: usize = 5;
/// Maximum number of literals in `field IN (…)` (§17.3, CAL-E011; implementation-configurable).
pub const MAX_IN_SET: usize = 100;
/// Maximum number of operands of a chain of set operations (§17.3, CAL-E013).
pub const MAX_SET_OPERANDS: usize = 5;
/// Maximum number of distinct `$parameters` in one query (§17.3). The spec names no code:
/// we report CAL-E009 (parameter binding).
pub const MAX_PARAMETERS: usize = 20;
/// Timeout of a query other than ASSEMBLE, in milliseconds (§17.3, §2.3, CAL-E031; configurable).
pub const QUERY_TIMEOUT_MS: u64 = 5000;
/// Timeout of an ASSEMBLE, in milliseconds (§17.3, §8.2, CAL-E075; configurable).
pub const ASSEMBLE_TIMEOUT_MS: u64 = 10_000;
/// Parse time budget for queries up to [`PARSE_TIME_BUDGET_MAX_BYTES`], in microseconds
/// (§17.3 "<1ms"). A performance requirement checked by benchmarks, never reported to users.
pub const PARSE_TIME_BUDGET_MICROS: u64 = 1000;
/// The query size up to which [`PARSE_TIME_BUDGET_MICROS`] applies (§17.3 "queries <=4KB").
pub const PARSE_TIME_BUDGET_MAX_BYTES: usize = 4096;
/// ADD operations per minute per token holder (§17.3, §2.3, CAL-E052; configurable).
pub const MAX_ADD_PER_MINUTE: u32 = 20;
/// SUPERSEDE operations per minute (§17.3, §2.3, CAL-E043; configurable).
pub const MAX_SUPERSEDE_PER_MINUTE: u32 = 10;
/// REVERT operations per minute (§17.3, §2.3, CAL-E043; configurable).
pub const MAX_REVERT_PER_MINUTE: u32 = 5;
/// Maximum SET clauses in an ADD: the 6 base fields of §5.3 ("3 required + 3 optional
/// base", §17.3). The type-specific ADD fields of §6.4 come on top: see [`max_set_per_add`].
/// The spec names no code: we report CAL-E017.
pub const MAX_SET_PER_ADD: usize = 6;
/// Maximum SET clauses in a SUPERSEDE, one per SUPERSEDE field (§17.3, §5.3). We report CAL-E017.
pub const MAX_SET_PER_SUPERSEDE: usize = 4;
/// Maximum length of REASON text in characters (§17.3, CAL-E016).
pub const MAX_REASON_CHARS: usize = 500;
/// Maximum entries in a BATCH (§17.3, §8.7). We report CAL-E013.
pub const MAX_BATCH: usize = 10;
/// Maximum branches of a COALESCE (§17.3, §8.13). We report CAL-E013.
pub const MAX_COALESCE: usize = 5;
/// Minimum branches of a COALESCE: the spec's EBNF requires two (§4 `coalesce_stmt`).
/// We report CAL-E013 (operand count), not CAL-E002.
pub const MIN_COALESCE: usize = 2;
/// Maximum LET bindings per request, and per ASSEMBLE (§17.3, §8.2, §8.12). We report CAL-E009.
pub const MAX_LET: usize = 5;
/// Maximum sources in an ASSEMBLE FROM clause (§17.3, §8.2). We report CAL-E013.
pub const MAX_SOURCES: usize = 8;
/// Maximum `BUDGET n tokens` (§17.3, §8.2). We report CAL-E030.
pub const MAX_BUDGET_TOKENS: usize = 16_000;
/// Maximum `BUDGET n grains` (§17.3, §8.2). We report CAL-E030.
pub const MAX_BUDGET_GRAINS: usize = 200;

// ----------------------------------------------------------------- §8.x ----

/// The token budget of an ASSEMBLE without a BUDGET clause (§8.2 "Budget Units", Default column).
pub const DEFAULT_BUDGET_TOKENS: usize = 4000;
/// The Default column of §8.2's `grains` row. BUDGET always states its amount, so we read it
/// as the grain cap of an ASSEMBLE without a BUDGET clause (docs/spec-decisions-grammar.md,
/// "Budget defaults").
pub const DEFAULT_BUDGET_GRAINS: usize = 50;
/// Maximum length of an ASSEMBLE context name in characters (§8.2). We report CAL-E016.
pub const MAX_CONTEXT_NAME_CHARS: usize = 64;
/// Maximum length of the FOR text in characters (§8.2). We report CAL-E016.
pub const MAX_FOR_CHARS: usize = 256;
/// Maximum depth of a chain of LET bindings referencing earlier ones, only allowed within
/// ASSEMBLE (§8.12 "linear chaining only, max depth 3"). We report CAL-E007.
pub const MAX_LET_CHAIN_DEPTH: usize = 3;
/// HISTORY returns at most this many versions; longer chains are truncated, not an error (§8.4).
pub const MAX_HISTORY_VERSIONS: usize = 100;

/// The default PRIORITY weights of §8.2 for `n` sources, highest priority first: 1 source
/// takes everything; 2–4 sources use the spec's table. For 5 or more the spec says only
/// "exponential decay", so this returns `None` and the planner defines the curve.
pub const fn default_priority_weights(n: usize) -> Option<&'static [f64]> {
    match n {
        1 => Some(&[1.0]),
        2 => Some(&[0.65, 0.35]),
        3 => Some(&[0.50, 0.30, 0.20]),
        4 => Some(&[0.40, 0.28, 0.20, 0.12]),
        _ => None,
    }
}

/// The maximum number of SET clauses of an `ADD grain_type`: the six base fields
/// ([`MAX_SET_PER_ADD`]) plus that type's extension fields of §6.4 (goal: 4, observation: 2).
/// §6.4's own goal example has seven SETs, so the §17.3 figure cannot cover extension fields
/// (docs/spec-decisions-grammar.md, "SET clauses per ADD").
pub fn max_set_per_add(grain_type: crate::vocab::GrainType) -> usize {
    MAX_SET_PER_ADD + crate::fields::add_extension_fields(grain_type).len()
}

// ---------------------------------------------------------- §10.2, §10.8 ----

/// Maximum template body size in bytes (§10.8, CAL-E092).
pub const MAX_TEMPLATE_BYTES: usize = 4096;
/// Maximum templates per namespace (§10.8, CAL-E089).
pub const MAX_TEMPLATES: usize = 50;
/// Maximum nesting of `{{#…}}`/`{{^…}}` sections in a template (§10.8, CAL-E093).
pub const MAX_TEMPLATE_NESTING: usize = 5;
/// `{{#each}}` renders at most this many iterations; the rest are dropped (§10.2, §10.8).
pub const MAX_EACH_ITERATIONS: usize = 200;
/// Maximum template name length in characters (§10.8). We report CAL-E016.
pub const MAX_TEMPLATE_NAME_CHARS: usize = 64;
/// Templates extend presets only, never other templates (§10.7, §10.8, CAL-E087).
pub const MAX_TEMPLATE_INHERITANCE_DEPTH: usize = 1;
/// Rendered template output is truncated at `budget × this` characters (§10.8).
pub const TEMPLATE_OUTPUT_BUDGET_FACTOR: usize = 2;

// -------------------------------------------------------- §11.2, §11.6 ----

/// Smallest `chunk_size` of a STREAM clause, in tokens (§11.2, §11.6, CAL-E078).
pub const MIN_CHUNK_SIZE: usize = 20;
/// Largest `chunk_size`, in tokens (§11.2, §11.6, CAL-E078).
pub const MAX_CHUNK_SIZE: usize = 1000;
/// `chunk_size` when the STREAM clause does not set one (§11.2, §11.6).
pub const DEFAULT_CHUNK_SIZE: usize = 100;
/// Concurrent streams per client (§11.6, §20.1). We report CAL-E079 for one more.
pub const MAX_CONCURRENT_STREAMS: usize = 3;
/// Unsent events buffered per stream before backpressure applies, in bytes (§11.6).
pub const MAX_STREAM_BUFFER_BYTES: usize = 64 * 1024;
/// How long after a disconnect a client may reconnect, in milliseconds (§11.6, CAL-E081).
pub const STREAM_RECONNECT_WINDOW_MS: u64 = 10_000;
/// A stream stalled by backpressure this long is cancelled, in milliseconds (§11.6).
/// We report CAL-E082.
pub const STREAM_STALL_TIMEOUT_MS: u64 = 30_000;

// ------------------------------------------------------- §3.4, §14.3, §10.9.5 ----

/// Fewest hex digits after `sha256:` (§3.4, CAL-E015).
pub const MIN_HASH_HEX: usize = 8;
/// Most hex digits after `sha256:` (§3.4, CAL-E015).
pub const MAX_HASH_HEX: usize = 64;
/// Below this token budget, progressive disclosure picks `summary` (§14.3 "<1000 tokens").
pub const DISCLOSURE_SUMMARY_BELOW_TOKENS: usize = 1000;
/// At or below this LIMIT, progressive disclosure picks `full` (§14.3 "LIMIT <= 5").
pub const DISCLOSURE_FULL_MAX_LIMIT: usize = 5;
/// Estimated budget utilization above which auto-TOON may switch the format (§10.9.5, CAL-W005).
pub const AUTO_TOON_UTILIZATION: f64 = 0.85;

// Defaults lie within their bounds; checked when the crate compiles.
const _: () = {
    assert!(DEFAULT_LIMIT <= MAX_LIMIT);
    assert!(DEFAULT_BUDGET_TOKENS <= MAX_BUDGET_TOKENS);
    assert!(DEFAULT_BUDGET_GRAINS <= MAX_BUDGET_GRAINS);
    assert!(MIN_CHUNK_SIZE <= DEFAULT_CHUNK_SIZE && DEFAULT_CHUNK_SIZE <= MAX_CHUNK_SIZE);
    assert!(MIN_COALESCE <= MAX_COALESCE && MIN_HASH_HEX <= MAX_HASH_HEX);
    assert!(DISCLOSURE_FULL_MAX_LIMIT <= DEFAULT_LIMIT);
};

// ------------------------------------------------------------- the table ----

/// What kind of bound a [`LimitInfo`] is, which decides how to test it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LimitKind {
    /// Values up to and including the limit pass; one more fails with the code.
    Max,
    /// Values down to and including the limit pass; one fewer fails with the code.
    Min,
    /// The value used when the query says nothing; nothing fails.
    Default,
    /// Operations per minute; the next one in the same minute fails with the code.
    Rate,
    /// Wall-clock time after which execution stops with the code.
    Timeout,
    /// Output is silently truncated at the limit; nothing fails.
    Cap,
    /// A threshold that changes behaviour (e.g. disclosure level); nothing fails.
    Threshold,
    /// A performance requirement on the implementation, checked by benchmarks.
    Performance,
}

/// What a limit counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    /// UTF-8 bytes.
    Bytes,
    /// Unicode scalar values.
    Chars,
    /// Items (sources, entries, clauses, literals, …).
    Count,
    /// Nesting levels.
    Levels,
    /// Milliseconds.
    Millis,
    /// Microseconds.
    Micros,
    /// Operations per minute.
    PerMinute,
    /// Estimated LLM tokens.
    Tokens,
    /// Grains.
    Grains,
    /// Hexadecimal digits.
    HexDigits,
    /// A multiplier.
    Factor,
}

/// One limit, as data for the conformance suite, `DESCRIBE capabilities` and documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LimitInfo {
    /// The constant's name in this module (`MAX_LIMIT`).
    pub name: &'static str,
    /// Its value.
    pub value: u64,
    /// What it counts.
    pub unit: Unit,
    /// How it bounds.
    pub kind: LimitKind,
    /// The spec section(s) that state it.
    pub section: &'static str,
    /// The code reported when the limit is violated, if violating it is an error.
    pub code: Option<Code>,
    /// True when the spec ties [`Self::code`] to this limit; false when we chose it.
    pub code_from_spec: bool,
    /// True when the spec lets implementations change the value (§17.3 "Implementation-configurable").
    pub configurable: bool,
}

macro_rules! limit {
    ($name:ident, $unit:ident, $kind:ident, $section:literal, $code:expr, $from_spec:expr, $conf:expr) => {
        LimitInfo {
            name: stringify!($name),
            value: $name as u64,
            unit: Unit::$unit,
            kind: LimitKind::$kind,
            section: $section,
            code: $code,
            code_from_spec: $from_spec,
            configurable: $conf,
        }
    };
}

const SPEC: bool = true;
const OURS: bool = false;
const FIXED: bool = false;
const CONFIGURABLE: bool = true;

/// Every integer limit of this module, for boundary tests and `DESCRIBE capabilities`.
/// ([`AUTO_TOON_UTILIZATION`] is a ratio and [`default_priority_weights`] a table, so they are not rows.)
pub static LIMITS: &[LimitInfo] = &[
    limit!(MAX_QUERY_BYTES, Bytes, Max, "17.3", Some(Code::E001), SPEC, FIXED),
    limit!(MAX_LIMIT, Count, Max, "17.3", Some(Code::E010), SPEC, CONFIGURABLE),
    limit!(DEFAULT_LIMIT, Count, Default, "17.3", None, SPEC, FIXED),
    limit!(MAX_SUBQUERY_DEPTH, Levels, Max, "17.3", Some(Code::E007), SPEC, FIXED),
    limit!(MAX_PIPELINE_STAGES, Count, Max, "17.3", Some(Code::E012), SPEC, FIXED),
    limit!(MAX_IN_SET, Count, Max, "17.3", Some(Code::E011), SPEC, CONFIGURABLE),
    limit!(MAX_SET_OPERANDS, Count, Max, "17.3", Some(Code::E013), SPEC, FIXED),
    limit!(MAX_PARAMETERS, Count, Max, "17.3", Some(Code::E009), OURS, FIXED),
    limit!(QUERY_TIMEOUT_MS, Millis, Timeout, "17.3", Some(Code::E031), SPEC, CONFIGURABLE),
    limit!(ASSEMBLE_TIMEOUT_MS, Millis, Timeout, "17.3, 8.2", Some(Code::E075), SPEC, CONFIGURABLE),
    limit!(PARSE_TIME_BUDGET_MICROS, Micros, Performance, "17.3", None, SPEC, FIXED),
    limit!(PARSE_TIME_BUDGET_MAX_BYTES, Bytes, Performance, "17.3", None, SPEC, FIXED),
    limit!(MAX_ADD_PER_MINUTE, PerMinute, Rate, "17.3, 2.3", Some(Code::E052), SPEC, CONFIGURABLE),
    limit!(MAX_SUPERSEDE_PER_MINUTE, PerMinute, Rate, "17.3, 2.3", Some(Code::E043), SPEC, CONFIGURABLE),
    limit!(MAX_REVERT_PER_MINUTE, PerMinute, Rate, "17.3, 2.3", Some(Code::E043), SPEC, CONFIGURABLE),
    limit!(MAX_SET_PER_ADD, Count, Max, "17.3, 5.3", Some(Code::E017), OURS, FIXED),
    limit!(MAX_SET_PER_SUPERSEDE, Count, Max, "17.3, 5.3", Some(Code::E017), OURS, FIXED),
    limit!(MAX_REASON_CHARS, Chars, Max, "17.3", Some(Code::E016), SPEC, FIXED),
    limit!(MAX_BATCH, Count, Max, "17.3, 8.7", Some(Code::E013), OURS, FIXED),
    limit!(MAX_COALESCE, Count, Max, "17.3, 8.13", Some(Code::E013), OURS, FIXED),
    limit!(MIN_COALESCE, Count, Min, "4, 8.13", Some(Code::E013), OURS, FIXED),
    limit!(MAX_LET, Count, Max, "17.3, 8.2, 8.12", Some(Code::E009), OURS, FIXED),
    limit!(MAX_SOURCES, Count, Max, "17.3, 8.2", Some(Code::E013), OURS, FIXED),
    limit!(MAX_BUDGET_TOKENS, Tokens, Max, "17.3, 8.2", Some(Code::E030), OURS, FIXED),
    limit!(MAX_BUDGET_GRAINS, Grains, Max, "17.3, 8.2", Some(Code::E030), OURS, FIXED),
    limit!(DEFAULT_BUDGET_TOKENS, Tokens, Default, "8.2", None, SPEC, FIXED),
    limit!(DEFAULT_BUDGET_GRAINS, Grains, Default, "8.2", None, SPEC, FIXED),
    limit!(MAX_CONTEXT_NAME_CHARS, Chars, Max, "8.2", Some(Code::E016), OURS, FIXED),
    limit!(MAX_FOR_CHARS, Chars, Max, "8.2", Some(Code::E016), OURS, FIXED),
    limit!(MAX_LET_CHAIN_DEPTH, Levels, Max, "8.12", Some(Code::E007), OURS, FIXED),
    limit!(MAX_HISTORY_VERSIONS, Count, Cap, "8.4, 13", None, SPEC, FIXED),
    limit!(MAX_TEMPLATE_BYTES, Bytes, Max, "10.8", Some(Code::E092), SPEC, FIXED),
    limit!(MAX_TEMPLATES, Count, Max, "10.8", Some(Code::E089), SPEC, FIXED),
    limit!(MAX_TEMPLATE_NESTING, Levels, Max, "10.8", Some(Code::E093), SPEC, FIXED),
    limit!(MAX_EACH_ITERATIONS, Count, Cap, "10.2, 10.8", None, SPEC, FIXED),
    limit!(MAX_TEMPLATE_NAME_CHARS, Chars, Max, "10.8", Some(Code::E016), OURS, FIXED),
    limit!(MAX_TEMPLATE_INHERITANCE_DEPTH, Levels, Max, "10.7, 10.8", Some(Code::E087), SPEC, FIXED),
    limit!(TEMPLATE_OUTPUT_BUDGET_FACTOR, Factor, Cap, "10.8", None, SPEC, FIXED),
    limit!(MIN_CHUNK_SIZE, Tokens, Min, "11.2, 11.6", Some(Code::E078), SPEC, FIXED),
    limit!(MAX_CHUNK_SIZE, Tokens, Max, "11.2, 11.6", Some(Code::E078), SPEC, FIXED),
    limit!(DEFAULT_CHUNK_SIZE, Tokens, Default, "11.2, 11.6", None, SPEC, FIXED),
    limit!(MAX_CONCURRENT_STREAMS, Count, Max, "11.6, 20.1", Some(Code::E079), OURS, FIXED),
    limit!(MAX_STREAM_BUFFER_BYTES, Bytes, Cap, "11.6", None, SPEC, FIXED),
    limit!(STREAM_RECONNECT_WINDOW_MS, Millis, Timeout, "11.6", Some(Code::E081), SPEC, FIXED),
    limit!(STREAM_STALL_TIMEOUT_MS, Millis, Timeout, "11.6", Some(Code::E082), OURS, FIXED),
    limit!(MIN_HASH_HEX, HexDigits, Min, "3.4", Some(Code::E015), SPEC, FIXED),
    limit!(MAX_HASH_HEX, HexDigits, Max, "3.4", Some(Code::E015), SPEC, FIXED),
    limit!(DISCLOSURE_SUMMARY_BELOW_TOKENS, Tokens, Threshold, "14.3", None, SPEC, FIXED),
    limit!(DISCLOSURE_FULL_MAX_LIMIT, Count, Threshold, "14.3", None, SPEC, FIXED),
];

/// The row for the constant called `name` (`"MAX_LIMIT"`).
pub fn limit_info(name: &str) -> Option<&'static LimitInfo> {
    LIMITS.iter().find(|l| l.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::GrainType;

    #[test]
    fn values_match_section_17_3() {
        let expect: &[(&str, u64, bool)] = &[
            ("MAX_QUERY_BYTES", 8192, false),
            ("MAX_LIMIT", 1000, true),
            ("DEFAULT_LIMIT", 20, false),
            ("MAX_SUBQUERY_DEPTH", 3, false),
            ("MAX_PIPELINE_STAGES", 5, false),
            ("MAX_IN_SET", 100, true),
            ("MAX_SET_OPERANDS", 5, false),
            ("MAX_PARAMETERS", 20, false),
            ("QUERY_TIMEOUT_MS", 5000, true),
            ("ASSEMBLE_TIMEOUT_MS", 10_000, true),
            ("PARSE_TIME_BUDGET_MICROS", 1000, false),
            ("MAX_ADD_PER_MINUTE", 20, true),
            ("MAX_SUPERSEDE_PER_MINUTE", 10, true),
            ("MAX_REVERT_PER_MINUTE", 5, true),
            ("MAX_SET_PER_ADD", 6, false),
            ("MAX_SET_PER_SUPERSEDE", 4, false),
            ("MAX_REASON_CHARS", 500, false),
            ("MAX_BATCH", 10, false),
            ("MAX_COALESCE", 5, false),
            ("MAX_LET", 5, false),
            ("MAX_SOURCES", 8, false),
            ("MAX_BUDGET_TOKENS", 16_000, false),
            ("MAX_BUDGET_GRAINS", 200, false),
        ];
        for (name, value, configurable) in expect {
            let l = limit_info(name).unwrap_or_else(|| panic!("{name} missing"));
            assert_eq!(l.value, *value, "{name}");
            assert_eq!(l.configurable, *configurable, "{name}");
        }
    }

    #[test]
    fn values_match_sections_8_10_11() {
        let expect: &[(&str, u64)] = &[
            ("DEFAULT_BUDGET_TOKENS", 4000),
            ("DEFAULT_BUDGET_GRAINS", 50),
            ("MAX_CONTEXT_NAME_CHARS", 64),
            ("MAX_FOR_CHARS", 256),
            ("MAX_LET_CHAIN_DEPTH", 3),
            ("MAX_HISTORY_VERSIONS", 100),
            ("MIN_COALESCE", 2),
            ("MAX_TEMPLATE_BYTES", 4096),
            ("MAX_TEMPLATES", 50),
            ("MAX_TEMPLATE_NESTING", 5),
            ("MAX_EACH_ITERATIONS", 200),
            ("MAX_TEMPLATE_NAME_CHARS", 64),
            ("MAX_TEMPLATE_INHERITANCE_DEPTH", 1),
            ("MIN_CHUNK_SIZE", 20),
            ("MAX_CHUNK_SIZE", 1000),
            ("DEFAULT_CHUNK_SIZE", 100),
            ("MAX_CONCURRENT_STREAMS", 3),
            ("MAX_STREAM_BUFFER_BYTES", 65_536),
            ("STREAM_RECONNECT_WINDOW_MS", 10_000),
            ("STREAM_STALL_TIMEOUT_MS", 30_000),
            ("MIN_HASH_HEX", 8),
            ("MAX_HASH_HEX", 64),
        ];
        for (name, value) in expect {
            assert_eq!(limit_info(name).unwrap_or_else(|| panic!("{name} missing")).value, *value, "{name}");
        }
    }

    #[test]
    fn codes_of_limits() {
        let code = |n: &str| limit_info(n).unwrap().code;
        // Named by the spec.
        assert_eq!(code("MAX_QUERY_BYTES"), Some(Code::E001));
        assert_eq!(code("MAX_SUBQUERY_DEPTH"), Some(Code::E007));
        assert_eq!(code("MAX_LIMIT"), Some(Code::E010));
        assert_eq!(code("MAX_IN_SET"), Some(Code::E011));
        assert_eq!(code("MAX_PIPELINE_STAGES"), Some(Code::E012));
        assert_eq!(code("MAX_SET_OPERANDS"), Some(Code::E013));
        assert_eq!(code("MAX_REASON_CHARS"), Some(Code::E016));
        assert_eq!(code("MAX_CHUNK_SIZE"), Some(Code::E078));
        assert_eq!(code("MAX_TEMPLATE_BYTES"), Some(Code::E092));
        // Our rulings (docs/spec-decisions-grammar.md, "Codes for limits without one").
        assert_eq!(code("MAX_BATCH"), Some(Code::E013));
        assert_eq!(code("MAX_COALESCE"), Some(Code::E013));
        assert_eq!(code("MIN_COALESCE"), Some(Code::E013));
        assert_eq!(code("MAX_SOURCES"), Some(Code::E013));
        assert_eq!(code("MAX_LET"), Some(Code::E009));
        assert_eq!(code("MAX_PARAMETERS"), Some(Code::E009));
        assert_eq!(code("MAX_LET_CHAIN_DEPTH"), Some(Code::E007));
        assert_eq!(code("MAX_SET_PER_ADD"), Some(Code::E017));
        assert_eq!(code("MAX_SET_PER_SUPERSEDE"), Some(Code::E017));
        assert_eq!(code("MAX_BUDGET_TOKENS"), Some(Code::E030));
        assert_eq!(code("MAX_BUDGET_GRAINS"), Some(Code::E030));
        assert_eq!(code("MAX_CONTEXT_NAME_CHARS"), Some(Code::E016));
        assert_eq!(code("MAX_FOR_CHARS"), Some(Code::E016));
        assert_eq!(code("MAX_TEMPLATE_NAME_CHARS"), Some(Code::E016));
        assert!(LIMITS.iter().all(|l| l.code != Some(Code::E002)), "no limit is a syntax error");
    }

    #[test]
    fn table_is_well_formed() {
        let mut names = std::collections::HashSet::new();
        for l in LIMITS {
            assert!(names.insert(l.name), "duplicate {}", l.name);
            match l.kind {
                // Every bound that rejects something says with which code.
                LimitKind::Max | LimitKind::Min | LimitKind::Rate | LimitKind::Timeout => {
                    assert!(l.code.is_some(), "{}", l.name)
                }
                LimitKind::Default | LimitKind::Cap | LimitKind::Threshold | LimitKind::Performance => {
                    assert!(l.code.is_none(), "{}", l.name)
                }
            }
            if l.code.is_none() {
                assert!(l.code_from_spec, "{}: no code means nothing was chosen", l.name);
            }
            assert!(l.value > 0, "{}", l.name);
        }
    }

    #[test]
    fn priority_weights_sum_to_one() {
        for n in 1..=4 {
            let w = default_priority_weights(n).unwrap();
            assert_eq!(w.len(), n);
            assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{n}");
            assert!(w.windows(2).all(|p| p[0] >= p[1]), "{n}: non-increasing");
        }
        assert_eq!(default_priority_weights(5), None);
        assert_eq!(default_priority_weights(0), None);
    }

    #[test]
    fn set_clauses_per_add_include_type_extensions() {
        assert_eq!(max_set_per_add(GrainType::Belief), 6);
        assert_eq!(max_set_per_add(GrainType::Goal), 10);
        assert_eq!(max_set_per_add(GrainType::Observation), 8);
        // §6.4's goal example has 7 SET clauses and must be accepted.
        assert!(7 <= max_set_per_add(GrainType::Goal));
        assert_eq!(MAX_SET_PER_SUPERSEDE, crate::fields::SUPERSEDE_FIELDS.len());
        assert_eq!(MAX_SET_PER_ADD, crate::fields::ADD_BASE_FIELDS.len());
    }
}
