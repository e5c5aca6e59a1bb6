//! The error and warning code registry of CAL/1 (Appendix C, §22.2–22.3).
//!
//! Codes are stable across spec versions, so they are an enum with one
//! variant per code and a table row per variant; everything that reports a
//! problem names one of these.

use serde::{Serialize, Serializer};

/// Which stage of the pipeline is able to produce a code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Before tokens exist: length, encoding, bidi checks.
    Prelex,
    /// Tokenizing and parsing.
    Parse,
    /// Static semantics after parsing.
    Check,
    /// Only running the query against a store can produce it.
    Execute,
}

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The query is accepted; something deserves attention.
    Warning,
    /// The query is rejected.
    Error,
}

macro_rules! codes {
    (
        spec { $( $var:ident = $code:literal, $name:literal, $section:literal, $phase:ident, $title:literal; )+ }
        extensions { $( $xvar:ident = $xcode:literal, $xname:literal, $xsection:literal, $xphase:ident, $xtitle:literal; )+ }
    ) => {
        /// One code of the registry. `Code::E003.as_str()` is `"CAL-E003"`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code {
            $( #[doc = $title] $var, )+
            $( #[doc = $xtitle] $xvar, )+
        }

        impl Code {
            /// Every code of the spec's registry (Appendix C), in registry order.
            pub const ALL: &'static [Code] = &[$(Code::$var),+];

            /// This toolchain's extension codes, for refusals the spec names no code for
            /// (docs/spec-decisions-service.md). They are outside the spec's `CAL-E001`–`E100`
            /// range so that no future spec code can collide with one.
            pub const EXTENSIONS: &'static [Code] = &[$(Code::$xvar),+];

            /// The full registry row for this code.
            pub const fn info(self) -> CodeInfo {
                match self {
                    $( Code::$var => CodeInfo {
                        code: $code,
                        name: $name,
                        section: $section,
                        phase: Phase::$phase,
                        title: $title,
                    }, )+
                    $( Code::$xvar => CodeInfo {
                        code: $xcode,
                        name: $xname,
                        section: $xsection,
                        phase: Phase::$xphase,
                        title: $xtitle,
                    }, )+
                }
            }

            /// Whether the code is one of [`Code::EXTENSIONS`] rather than the spec's.
            pub const fn is_extension(self) -> bool {
                match self {
                    $( Code::$xvar => true, )+
                    _ => false,
                }
            }
        }
    };
}

/// One row of the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CodeInfo {
    /// The code as written in the spec, e.g. `CAL-E003`.
    pub code: &'static str,
    /// The spec's short name, e.g. `UnknownGrainType`.
    pub name: &'static str,
    /// The spec section that defines the rule.
    pub section: &'static str,
    /// The earliest stage that can report it.
    pub phase: Phase,
    /// One-line description from Appendix C.
    pub title: &'static str,
}

codes! {
    spec {
    E001 = "CAL-E001", "QueryTooLong", "17.3", Prelex, "Query exceeds maximum length (8192 bytes)";
    E002 = "CAL-E002", "UnexpectedToken", "4", Parse, "Unexpected token (includes expected list)";
    E003 = "CAL-E003", "UnknownGrainType", "5.1", Parse, "Unknown grain type (includes \"did you mean?\")";
    E004 = "CAL-E004", "UnknownField", "6.2", Check, "Unknown field name (includes suggestions)";
    E005 = "CAL-E005", "UnterminatedString", "3.4", Parse, "Unterminated string literal";
    E006 = "CAL-E006", "InvalidNumber", "3.4", Parse, "Invalid number";
    E007 = "CAL-E007", "SubqueryTooDeep", "17.3", Check, "Subquery nesting exceeds depth 3";
    E008 = "CAL-E008", "UnboundParameter", "3.4", Check, "Unbound parameter";
    E009 = "CAL-E009", "DuplicateParameter", "3.4", Check, "Duplicate parameter binding";
    E010 = "CAL-E010", "LimitTooLarge", "17.3", Check, "LIMIT exceeds maximum";
    E011 = "CAL-E011", "InSetTooLarge", "17.3", Check, "IN set too large";
    E012 = "CAL-E012", "TooManyStages", "17.3", Check, "Too many pipeline stages";
    E013 = "CAL-E013", "TooManySetOperands", "17.3", Check, "Too many set operands";
    E014 = "CAL-E014", "EmptyQuery", "4", Parse, "Empty query";
    E015 = "CAL-E015", "InvalidHash", "3.4", Parse, "Invalid hash literal (must be sha256: + hex)";
    E016 = "CAL-E016", "ReasonTooLong", "17.3", Check, "REASON text exceeds maximum length";
    E017 = "CAL-E017", "UnknownEvolveField", "5.3", Check, "Unknown evolve field in SET clause";
    E018 = "CAL-E018", "MissingReason", "8.8", Check, "Missing REASON clause";
    E019 = "CAL-E019", "MissingSet", "8.9", Check, "Missing SET clause (SUPERSEDE requires at least one)";
    E020 = "CAL-E020", "IncompatibleTypes", "5.2", Check, "Incompatible types in comparison";
    E021 = "CAL-E021", "StageTypeMismatch", "17.3", Check, "Pipeline stage type mismatch";
    E022 = "CAL-E022", "ExtractorNeedsBeliefs", "4", Check, "SUBJECTS/OBJECTS requires belief-type input";
    E030 = "CAL-E030", "GrainBudgetExceeded", "8.2", Check, "Grain budget exceeded";
    E031 = "CAL-E031", "QueryTimeout", "17.3", Execute, "Query timeout";
    E040 = "CAL-E040", "SupersessionConflict", "8.9", Execute, "SupersessionConflict -- target grain already superseded";
    E041 = "CAL-E041", "NoPreviousVersion", "8.10", Execute, "NoPreviousVersion -- REVERT target is the original grain";
    E042 = "CAL-E042", "GrainTypeNotEvolvable", "8.9", Execute, "GrainTypeNotEvolvable -- only Belief grains can be superseded";
    E043 = "CAL-E043", "WriteQuotaExceeded", "17.3", Execute, "WriteQuotaExceeded -- too many evolve operations";
    E044 = "CAL-E044", "Tier1NotEnabled", "2.4", Execute, "Tier1NotEnabled -- requires Tier 1 capability";
    E045 = "CAL-E045", "NamespaceMismatch", "18.3", Execute, "NamespaceMismatch -- target grain in different namespace";
    E046 = "CAL-E046", "TargetNotFound", "8.9", Execute, "TargetNotFound -- target hash does not exist";
    E050 = "CAL-E050", "MissingRequiredField", "8.8", Check, "MissingRequiredField -- ADD requires subject, relation, object";
    E051 = "CAL-E051", "GrainTypeNotAddable", "8.8", Check, "GrainTypeNotAddable -- only Belief, Observation, Goal can be created";
    E052 = "CAL-E052", "AddQuotaExceeded", "17.3", Execute, "AddQuotaExceeded -- too many ADD operations";
    E060 = "CAL-E060", "AmbiguousShortcut", "9.8", Check, "AmbiguousShortcut / FieldNotOnGrainType";
    E061 = "CAL-E061", "FieldNeedsGrainType", "6.2", Check, "Grain-type-specific field used without declaring grain type";
    E062 = "CAL-E062", "InvalidActionPhase", "6.3", Check, "Invalid action_phase value";
    E063 = "CAL-E063", "InvalidGoalState", "6.3", Check, "Invalid goal_state value";
    E064 = "CAL-E064", "InvalidConsentAction", "6.3", Check, "Invalid consent_action value";
    E065 = "CAL-E065", "InvalidRecallPriority", "5.2", Check, "Invalid recall_priority value";
    E066 = "CAL-E066", "InvalidEpistemicStatus", "5.2", Check, "Invalid epistemic_status value";
    E070 = "CAL-E070", "InvalidUTF8", "16.1", Prelex, "InvalidUTF8 -- query contains invalid UTF-8 sequences";
    E071 = "CAL-E071", "BidiOverrideRejected", "16.3", Prelex, "BidiOverrideRejected -- bidi override characters not allowed";
    E075 = "CAL-E075", "AssembleTimeout", "8.2", Execute, "ASSEMBLE timeout exceeded (10s)";
    E076 = "CAL-E076", "AllSourcesFailed", "8.2", Execute, "All ASSEMBLE sources failed";
    E077 = "CAL-E077", "InvalidStreamOption", "11.2", Parse, "InvalidStreamOption -- unknown option in STREAM clause";
    E078 = "CAL-E078", "ChunkSizeOutOfRange", "11.2", Check, "ChunkSizeOutOfRange -- chunk_size must be 20-1000";
    E079 = "CAL-E079", "StreamNotSupported", "11", Execute, "StreamNotSupported -- server does not support streaming";
    E080 = "CAL-E080", "GrainFormatError", "11", Execute, "GrainFormatError -- individual grain could not be formatted";
    E081 = "CAL-E081", "StreamReconnectExpired", "11", Execute, "StreamReconnectExpired -- assembly completed before reconnect";
    E082 = "CAL-E082", "AssemblyCancelled", "11.5", Execute, "AssemblyCancelled -- assembly was cancelled";
    E085 = "CAL-E085", "TemplateNotFound", "10.6", Execute, "TemplateNotFound -- named template does not exist";
    E086 = "CAL-E086", "CannotExtendData", "10.7", Check, "CannotExtendData -- templates cannot extend 'data' preset";
    E087 = "CAL-E087", "CannotExtendCustom", "10.7", Check, "CannotExtendCustom -- templates can only extend presets";
    E088 = "CAL-E088", "DuplicateTemplateName", "10.8", Execute, "DuplicateTemplateName -- template already exists";
    E089 = "CAL-E089", "TooManyTemplates", "10.8", Execute, "TooManyTemplates -- namespace at 50-template limit";
    E090 = "CAL-E090", "UnknownTemplateVariable", "10.5", Check, "UnknownTemplateVariable -- variable not in known set";
    E091 = "CAL-E091", "UnbalancedTemplateSection", "10.8", Check, "UnbalancedTemplateSection -- opening tag without closing";
    E092 = "CAL-E092", "TemplateTooLarge", "10.8", Check, "TemplateTooLarge -- exceeds 4096 bytes";
    E093 = "CAL-E093", "TemplateNestingTooDeep", "10.8", Check, "TemplateNestingTooDeep -- conditional nesting exceeds 5";
    E094 = "CAL-E094", "InvalidTemplateSyntax", "10.2", Check, "InvalidTemplateSyntax -- unrecognized Mustache syntax";
    E095 = "CAL-E095", "DuplicateSection", "10.6", Check, "DuplicateSection -- same section defined twice";
    E096 = "CAL-E096", "ConflictingElementSections", "10.6", Check, "ConflictingElementSections -- ELEMENT vs ELEMENT_SUMMARY conflict";
    E100 = "CAL-E100", "UnsupportedVersion", "25.1", Parse, "Unsupported CAL version";
    W001 = "CAL-W001", "UnknownRelation", "7.3", Check, "Unknown mg: relation (not in standard vocabulary)";
    W002 = "CAL-W002", "DomainFieldWithoutProfile", "12.2", Check, "Domain field used without matching profile tag";
    W003 = "CAL-W003", "UnknownDomainPrefix", "12.2", Check, "Unknown domain prefix";
    W004 = "CAL-W004", "UnknownExtension", "25.2", Check, "Unknown extension option (ignored)";
    W005 = "CAL-W005", "AutoToon", "10.9.5", Execute, "FORMAT auto-selected as toon due to budget pressure (>85% utilization estimate). Specify FORMAT explicitly to suppress.";
    }
    extensions {
    E901 = "CAL-E901", "CapabilityRefused", "18.1", Execute, "CapabilityRefused -- the capability token is invalid, expired, spent or not signed by this server (one text for all, §20.1)";
    E902 = "CAL-E902", "OperationNotAllowed", "18.1", Execute, "OperationNotAllowed -- the capability token does not allow this operation or grain type";
    E903 = "CAL-E903", "ServiceDisabled", "20.3", Execute, "ServiceDisabled -- the master kill switch of this store is on: every CAL operation is refused";
    E904 = "CAL-E904", "PolicyDenied", "19.1", Execute, "PolicyDenied -- the store's invalidation policy (OMS §23) refused the write";
    E905 = "CAL-E905", "TooManyStreams", "11.6", Execute, "TooManyStreams -- a client may run at most 3 streams at once";
    W901 = "CAL-W901", "SemanticSearchUnavailable", "16.4", Execute, "SemanticSearchUnavailable -- the embedder failed (down, slow or wrong dimensions): the search ranked by keywords (BM25) alone";
    }
}

impl Code {
    /// The code as the spec writes it, e.g. `"CAL-E003"`.
    pub const fn as_str(self) -> &'static str {
        self.info().code
    }

    /// Warnings are the `CAL-W` codes; everything else rejects the query.
    pub const fn severity(self) -> Severity {
        if self.info().code.as_bytes()[4] == b'W' { Severity::Warning } else { Severity::Error }
    }

    /// Looks a code up by its spelling (`"CAL-E003"`), as read from JSON or a case file.
    pub fn parse(s: &str) -> Option<Code> {
        Code::ALL.iter().chain(Code::EXTENSIONS).copied().find(|c| c.as_str() == s)
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Code {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_well_formed() {
        let mut seen = std::collections::HashSet::new();
        for c in Code::ALL {
            let s = c.as_str();
            assert!(seen.insert(s), "duplicate {s}");
            assert!(s.starts_with("CAL-E") || s.starts_with("CAL-W"), "{s}");
            assert_eq!(s.len(), 8, "{s}");
            assert_eq!(Code::parse(s), Some(*c));
        }
        // Appendix C: 64 errors and 5 warnings... the summary table in §22.2
        // counts 19+3+2+10+7+2+8+12+1 = 64 error codes.
        let errors = Code::ALL.iter().filter(|c| c.severity() == Severity::Error).count();
        assert_eq!(errors, 64);
        assert_eq!(Code::ALL.len() - errors, 5);
        for c in Code::EXTENSIONS {
            assert!(c.is_extension() && !Code::ALL.contains(c), "{c}");
            assert!(
                c.as_str()["CAL-E".len()..].parse::<u32>().is_ok_and(|n| n >= 900),
                "{c} sits outside the spec's range"
            );
            assert_eq!(Code::parse(c.as_str()), Some(*c));
        }
    }
}
