//! Closed vocabularies of the syntax: keywords, reserved and excluded words,
//! grain types, and the small word sets that appear in fixed grammar positions.

/// Defines an enum over a closed set of source words with `ALL`, `as_str`, `from_word`.
///
/// Used for every vocabulary so that the spelling of a word exists exactly once.
#[macro_export]
macro_rules! word_enum {
    ($(#[$m:meta])* $vis:vis enum $name:ident { $( $(#[$vm:meta])* $var:ident = $text:literal ),+ $(,)? }) => {
        $(#[$m])*
        #[derive(
            ::core::fmt::Debug, ::core::clone::Clone, ::core::marker::Copy, ::core::cmp::PartialEq,
            ::core::cmp::Eq, ::core::hash::Hash, ::core::cmp::PartialOrd, ::core::cmp::Ord,
        )]
        $vis enum $name { $( $(#[$vm])* #[doc = concat!("`", $text, "`")] $var ),+ }

        impl $name {
            /// Every member, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$var),+];

            /// The word as written in CAL source.
            pub const fn as_str(self) -> &'static str {
                match self { $( $name::$var => $text ),+ }
            }

            /// The member spelled exactly `word`, if any.
            pub fn from_word(word: &str) -> Option<Self> {
                match word { $( $text => Some($name::$var), )+ _ => None }
            }

            /// All spellings, for "valid values" lists and completion.
            pub fn words() -> impl Iterator<Item = &'static str> {
                Self::ALL.iter().map(|v| v.as_str())
            }
        }

        impl ::core::fmt::Display for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

word_enum! {
    /// Active keywords (§3.2 and Appendix D "Active Keywords"). Matched case-insensitively;
    /// the spelling here is the canonical upper case one the printer emits.
    pub enum Keyword {
        Recall = "RECALL", Assemble = "ASSEMBLE", Where = "WHERE", And = "AND", Or = "OR",
        Not = "NOT", In = "IN", Between = "BETWEEN", Limit = "LIMIT", Offset = "OFFSET",
        Order = "ORDER", By = "BY", Asc = "ASC", Desc = "DESC", With = "WITH",
        Explain = "EXPLAIN", Scope = "SCOPE", Union = "UNION", Intersect = "INTERSECT",
        Except = "EXCEPT", Select = "SELECT", Count = "COUNT", First = "FIRST", Group = "GROUP",
        Subjects = "SUBJECTS", Objects = "OBJECTS", Hashes = "HASHES", Project = "PROJECT",
        Include = "INCLUDE", Exclude = "EXCLUDE", Is = "IS", Null = "NULL", True = "TRUE",
        False = "FALSE", Exists = "EXISTS", History = "HISTORY", Describe = "DESCRIBE",
        Batch = "BATCH", Coalesce = "COALESCE", About = "ABOUT", Recent = "RECENT",
        Since = "SINCE", Like = "LIKE", My = "MY", Contradictions = "CONTRADICTIONS", As = "AS",
        For = "FOR", From = "FROM", Budget = "BUDGET", Priority = "PRIORITY", Format = "FORMAT",
        Let = "LET", Thread = "THREAD", Diff = "DIFF", Add = "ADD", Supersede = "SUPERSEDE",
        Revert = "REVERT", Set = "SET", Reason = "REASON", Stream = "STREAM",
        Template = "TEMPLATE", Define = "DEFINE", Undefine = "UNDEFINE", Extends = "EXTENDS",
        Header = "HEADER", Element = "ELEMENT", ElementSummary = "ELEMENT_SUMMARY",
        ElementOmit = "ELEMENT_OMIT", SourceBreak = "SOURCE_BREAK", Footer = "FOOTER",
        Preference = "PREFERENCE", Knowledge = "KNOWLEDGE", Permission = "PERMISSION",
        Interaction = "INTERACTION", Agency = "AGENCY", Lifecycle = "LIFECYCLE",
        Observation = "OBSERVATION", Cal = "CAL", Of = "OF",
    }
}

impl Keyword {
    /// Looks a word up case-insensitively (keywords are ASCII, §16.6).
    pub fn lookup(word: &str) -> Option<Keyword> {
        if word.len() > 16 || !word.is_ascii() {
            return None;
        }
        let mut buf = [0u8; 16];
        let upper = &mut buf[..word.len()];
        upper.copy_from_slice(word.as_bytes());
        upper.make_ascii_uppercase();
        std::str::from_utf8(upper).ok().and_then(Keyword::from_word)
    }

    /// Tier 1 (Evolve) keywords: always parsed, executed only with Tier 1 enabled (§2.4).
    pub fn is_tier1(self) -> bool {
        matches!(self, Keyword::Add | Keyword::Supersede | Keyword::Revert | Keyword::Set | Keyword::Reason)
    }
}

word_enum! {
    /// Words that do not exist in CAL (§2.4). They are rejected wherever they appear,
    /// because CAL cannot destroy data, administer keys, or change policy or schema.
    pub enum ExcludedWord {
        Delete = "DELETE", Drop = "DROP", Forget = "FORGET", Erase = "ERASE", Destroy = "DESTROY",
        Purge = "PURGE", Truncate = "TRUNCATE", Insert = "INSERT", Create = "CREATE",
        Write = "WRITE", Store = "STORE", Key = "KEY", Encrypt = "ENCRYPT", Decrypt = "DECRYPT",
        Rotate = "ROTATE", Master = "MASTER", Dek = "DEK", Secret = "SECRET", Policy = "POLICY",
        Seal = "SEAL", Unseal = "UNSEAL", Grant = "GRANT", Revoke = "REVOKE", Consent = "CONSENT",
        Restrict = "RESTRICT", Schema = "SCHEMA", Partition = "PARTITION", Index = "INDEX",
        Migration = "MIGRATION",
    }
}

impl ExcludedWord {
    /// Looks a word up case-insensitively.
    pub fn lookup(word: &str) -> Option<ExcludedWord> {
        if word.len() > 9 || !word.is_ascii() {
            return None;
        }
        ExcludedWord::from_word(&word.to_ascii_uppercase())
    }

    /// Why the word is not part of CAL, for the error message.
    pub fn category(self) -> &'static str {
        use ExcludedWord::*;
        match self {
            Delete | Drop | Forget | Erase | Destroy | Purge | Truncate => "destroys data",
            Insert | Create | Write | Store => "creates data without the append-only evolve rules",
            Key | Encrypt | Decrypt | Rotate | Master | Dek | Secret => "manages encryption keys",
            Policy | Seal | Unseal | Grant | Revoke | Consent | Restrict => "administers policy or authorization",
            Schema | Partition | Index | Migration => "changes the storage schema",
        }
    }
}

word_enum! {
    /// Future-reserved words (Appendix D): not keywords yet, but never usable as
    /// user-chosen names (context names, template names). Labels may be any word (docs/spec-decisions.md).
    pub enum FutureReserved {
        Find = "FIND", Relate = "RELATE", Timeline = "TIMELINE", Trace = "TRACE", Graph = "GRAPH",
        Annotate = "ANNOTATE", Matching = "MATCHING", Similar = "SIMILAR", Near = "NEAR",
        Tagged = "TAGGED", User = "USER", Via = "VIA", Depth = "DEPTH", Top = "TOP",
        Until = "UNTIL", Last = "LAST", Having = "HAVING", Diversity = "DIVERSITY", Mmr = "MMR",
        Threshold = "THRESHOLD", Rerank = "RERANK", Provenance = "PROVENANCE",
        Superseded = "SUPERSEDED", Explanation = "EXPLANATION", ScoreBreakdown = "SCORE_BREAKDOWN",
        Consistency = "CONSISTENCY", Eventual = "EVENTUAL", Bounded = "BOUNDED",
        Linearizable = "LINEARIZABLE", Cache = "CACHE", Pin = "PIN", Unpin = "UNPIN",
        Merge = "MERGE", Lang = "LANG", Chunk = "CHUNK", Pause = "PAUSE", Resume = "RESUME",
        Cancel = "CANCEL",
    }
}

impl FutureReserved {
    /// Looks a word up case-insensitively.
    pub fn lookup(word: &str) -> Option<FutureReserved> {
        if word.len() > 15 || !word.is_ascii() {
            return None;
        }
        FutureReserved::from_word(&word.to_ascii_uppercase())
    }
}

/// True when `word` may not be used as a user-chosen name (Appendix D).
pub fn is_reserved(word: &str) -> bool {
    Keyword::lookup(word).is_some() || FutureReserved::lookup(word).is_some() || ExcludedWord::lookup(word).is_some()
}

word_enum! {
    /// The ten OMS grain types, CAL's closed set (§5.1). The canonical word is the singular.
    pub enum GrainType {
        Belief = "belief", Event = "event", State = "state", Workflow = "workflow",
        Action = "action", Observation = "observation", Goal = "goal", Reasoning = "reasoning",
        Consensus = "consensus", Consent = "consent",
    }
}

impl GrainType {
    /// The plural used after RECALL (`beliefs`).
    pub const fn plural(self) -> &'static str {
        match self {
            GrainType::Belief => "beliefs",
            GrainType::Event => "events",
            GrainType::State => "states",
            GrainType::Workflow => "workflows",
            GrainType::Action => "actions",
            GrainType::Observation => "observations",
            GrainType::Goal => "goals",
            GrainType::Reasoning => "reasonings",
            GrainType::Consensus => "consensuses",
            GrainType::Consent => "consents",
        }
    }

    /// The singular used in ADD, DESCRIBE and `type = "…"` (`belief`).
    pub const fn singular(self) -> &'static str {
        self.as_str()
    }

    /// The OMS type byte of the blob header (§5.1).
    pub const fn oms_code(self) -> u8 {
        match self {
            GrainType::Belief => 0x01,
            GrainType::Event => 0x02,
            GrainType::State => 0x03,
            GrainType::Workflow => 0x04,
            GrainType::Action => 0x05,
            GrainType::Observation => 0x06,
            GrainType::Goal => 0x07,
            GrainType::Reasoning => 0x08,
            GrainType::Consensus => 0x09,
            GrainType::Consent => 0x0A,
        }
    }

    /// The type spelled as a plural.
    pub fn from_plural(word: &str) -> Option<GrainType> {
        GrainType::ALL.iter().copied().find(|g| g.plural() == word)
    }

    /// The type spelled as a singular.
    pub fn from_singular(word: &str) -> Option<GrainType> {
        GrainType::from_word(word)
    }

    /// Every plural, for suggestions.
    pub fn plurals() -> impl Iterator<Item = &'static str> {
        GrainType::ALL.iter().map(|g| g.plural())
    }

    /// Only these can be created by ADD (§8.8).
    pub fn is_addable(self) -> bool {
        matches!(self, GrainType::Belief | GrainType::Observation | GrainType::Goal)
    }
}

word_enum! {
    /// Output formats and presets usable after `AS` and `FORMAT` (§10.1).
    pub enum FormatName {
        Markdown = "markdown", Json = "json", Yaml = "yaml", Text = "text", Sml = "sml",
        Triples = "triples", Toon = "toon",
        Structured = "structured", Readable = "readable", Compact = "compact", Data = "data",
    }
}

impl FormatName {
    /// Presets name a format; this resolves them (`readable` → `markdown`).
    pub fn resolve(self) -> FormatName {
        match self {
            FormatName::Structured => FormatName::Sml,
            FormatName::Readable => FormatName::Markdown,
            FormatName::Compact => FormatName::Text,
            FormatName::Data => FormatName::Json,
            other => other,
        }
    }

    /// True for the four semantic presets (the only legal EXTENDS targets, §10.7).
    pub fn is_preset(self) -> bool {
        matches!(self, FormatName::Structured | FormatName::Readable | FormatName::Compact | FormatName::Data)
    }
}

word_enum! {
    /// What DESCRIBE can describe (§8.6).
    pub enum DescribeTarget {
        GrainTypes = "grain_types", Fields = "fields", Capabilities = "capabilities",
        Server = "server", Templates = "templates", Grammar = "grammar",
    }
}

word_enum! {
    /// Progressive disclosure levels. The EBNF says `summary | headlines | full`; §14.3 and
    /// §10.3.2 say `summary | standard | full`. Both middle spellings are accepted and mean
    /// the same level (docs/spec-decisions.md).
    pub enum DisclosureLevel {
        Summary = "summary", Headlines = "headlines", Standard = "standard", Full = "full",
    }
}

word_enum! {
    /// Comparison operators (§4 `comparator`).
    pub enum Comparator {
        Eq = "=", Ne = "!=", Ge = ">=", Le = "<=", Gt = ">", Lt = "<",
    }
}

word_enum! {
    /// Set operators (§8.11).
    pub enum SetOperator { Union = "UNION", Intersect = "INTERSECT", Except = "EXCEPT" }
}

word_enum! {
    /// Units of an ASSEMBLE budget (§8.2).
    pub enum BudgetUnit { Tokens = "tokens", Grains = "grains" }
}

word_enum! {
    /// Sort direction of ORDER BY.
    pub enum SortDirection { Asc = "ASC", Desc = "DESC" }
}

word_enum! {
    /// Event groups a STREAM clause can ask for (§11.2); `chunk_size = N` is separate.
    pub enum StreamEvents { Progress = "progress", Budget = "budget", Chunks = "chunks", All = "all" }
}

word_enum! {
    /// Sections of a template body (§10.6).
    pub enum TemplateSectionKind {
        Header = "HEADER", Element = "ELEMENT", ElementSummary = "ELEMENT_SUMMARY",
        ElementOmit = "ELEMENT_OMIT", SourceBreak = "SOURCE_BREAK", Footer = "FOOTER",
    }
}

word_enum! {
    /// Consistency levels of `WITH consistency(…)` (§4).
    pub enum ConsistencyKind { Eventual = "eventual", Bounded = "bounded", Linearizable = "linearizable" }
}

word_enum! {
    /// The closed set of WITH option names (§4 `with_option`), plus `iso_timestamps`
    /// (§10.3.4 MAY) which we accept as an extension beyond the EBNF. `x_…` options are
    /// extensions and not listed here.
    pub enum WithOptionName {
        Superseded = "superseded", ScoreBreakdown = "score_breakdown", Explanation = "explanation",
        Provenance = "provenance", ContradictionDetection = "contradiction_detection",
        ProgressiveDisclosure = "progressive_disclosure", Summarize = "summarize",
        Diversity = "diversity", Consistency = "consistency", Dedup = "dedup", Locale = "locale",
        Cache = "cache", IsoTimestamps = "iso_timestamps",
    }
}

word_enum! {
    /// Relation category shortcuts (§7.2), used after `relation IS`.
    pub enum RelationCategory {
        Preference = "PREFERENCE", Knowledge = "KNOWLEDGE", Permission = "PERMISSION",
        Interaction = "INTERACTION", Agency = "AGENCY", Lifecycle = "LIFECYCLE",
        Observation = "OBSERVATION",
    }
}

word_enum! {
    /// Pipeline stages that extract one column (§4 `extractor`).
    pub enum Extractor { Subjects = "SUBJECTS", Objects = "OBJECTS", Hashes = "HASHES" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyword_lookup_is_case_insensitive() {
        assert_eq!(Keyword::lookup("recall"), Some(Keyword::Recall));
        assert_eq!(Keyword::lookup("ReCaLl"), Some(Keyword::Recall));
        assert_eq!(Keyword::lookup("element_summary"), Some(Keyword::ElementSummary));
        assert_eq!(Keyword::lookup("beliefs"), None);
        assert_eq!(Keyword::lookup("récall"), None);
    }

    #[test]
    fn vocabularies_do_not_overlap() {
        for k in Keyword::ALL {
            assert!(ExcludedWord::lookup(k.as_str()).is_none(), "{k}");
            assert!(FutureReserved::lookup(k.as_str()).is_none(), "{k}");
        }
        for e in ExcludedWord::ALL {
            assert!(FutureReserved::lookup(e.as_str()).is_none(), "{e}");
        }
        assert_eq!(ExcludedWord::ALL.len(), 29);
    }

    #[test]
    fn grain_types_round_trip() {
        for g in GrainType::ALL {
            assert_eq!(GrainType::from_plural(g.plural()), Some(*g));
            assert_eq!(GrainType::from_singular(g.singular()), Some(*g));
        }
        assert_eq!(GrainType::Consent.oms_code(), 0x0A);
    }
}
