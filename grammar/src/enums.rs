//! Closed value sets of string-typed fields (§5.2, §6.3), each with the error
//! code to report when a query compares the field against a value outside it.
//!
//! The typed enums ([`ActionPhase`], [`GoalState`], …) are the one spelling of
//! each value; the [`CLOSED_ENUMS`] table is derived from them at compile time,
//! so the checker, the field tables ([`crate::fields`]), `DESCRIBE fields`, the
//! language server's completion and the conformance suite all read the same
//! words.
//!
//! Values are compared exactly (case-sensitive, after the NFC normalization
//! every string literal gets, §16.2): the stored values are lower case and
//! `"Active"` would match nothing (§5.4), so it is reported — with the
//! case-folded suggestion `"active"` — rather than silently returning no rows.

use crate::codes::Code;
use crate::suggest::did_you_mean;
use crate::vocab::GrainType;
use crate::word_enum;

word_enum! {
    /// The phase of an Action grain (`action_phase`, §6.3).
    pub enum ActionPhase { Definition = "definition", Call = "call", Result = "result", Complete = "complete" }
}

word_enum! {
    /// The state of a Goal grain (`goal_state`, §6.3).
    pub enum GoalState { Active = "active", Completed = "completed", Abandoned = "abandoned", Blocked = "blocked" }
}

word_enum! {
    /// What a Consent grain records (`consent_action`, §6.3).
    pub enum ConsentAction { Grant = "grant", Withdraw = "withdraw" }
}

impl ConsentAction {
    /// The past-tense word formatted output shows (§10.3.2's example: `action="granted"`).
    pub const fn past_tense(self) -> &'static str {
        match self {
            ConsentAction::Grant => "granted",
            ConsentAction::Withdraw => "withdrawn",
        }
    }
}

word_enum! {
    /// Storage tier hint (`recall_priority`, §5.2 meta field).
    pub enum RecallPriority { Hot = "hot", Warm = "warm", Cold = "cold" }
}

word_enum! {
    /// How sure the source is (`epistemic_status`, §5.2 meta field).
    pub enum EpistemicStatus {
        Certain = "certain", Probable = "probable", Uncertain = "uncertain",
        Estimated = "estimated", Derived = "derived",
    }
}

word_enum! {
    /// Whether a grain has been checked (`verification_status`, §5.2).
    pub enum VerificationStatus {
        Unverified = "unverified", Verified = "verified", Contested = "contested", Retracted = "retracted",
    }
}

word_enum! {
    /// Who produced an Event grain (`role`, §6.3).
    pub enum Role { User = "user", Assistant = "assistant", System = "system", Tool = "tool" }
}

word_enum! {
    /// The inference form of a Reasoning grain (`reasoning_type`, §6.3).
    pub enum ReasoningType {
        Deductive = "deductive", Inductive = "inductive", Abductive = "abductive", Analogical = "analogical",
    }
}

/// Builds a `&'static [&'static str]` of a `word_enum!` type's spellings at compile time,
/// so the value lists below cannot drift from the typed enums.
macro_rules! words_of {
    ($t:ty) => {{
        const N: usize = <$t>::ALL.len();
        const WORDS: [&str; N] = {
            let mut out = [""; N];
            let mut i = 0;
            while i < N {
                out[i] = <$t>::ALL[i].as_str();
                i += 1;
            }
            out
        };
        &WORDS
    }};
}

/// Spellings of [`ActionPhase`].
pub const ACTION_PHASE_VALUES: &[&str] = words_of!(ActionPhase);
/// Spellings of [`GoalState`].
pub const GOAL_STATE_VALUES: &[&str] = words_of!(GoalState);
/// Spellings of [`ConsentAction`].
pub const CONSENT_ACTION_VALUES: &[&str] = words_of!(ConsentAction);
/// Spellings of [`RecallPriority`].
pub const RECALL_PRIORITY_VALUES: &[&str] = words_of!(RecallPriority);
/// Spellings of [`EpistemicStatus`].
pub const EPISTEMIC_STATUS_VALUES: &[&str] = words_of!(EpistemicStatus);
/// Spellings of [`VerificationStatus`].
pub const VERIFICATION_STATUS_VALUES: &[&str] = words_of!(VerificationStatus);
/// Spellings of [`Role`].
pub const ROLE_VALUES: &[&str] = words_of!(Role);
/// Spellings of [`ReasoningType`].
pub const REASONING_TYPE_VALUES: &[&str] = words_of!(ReasoningType);
/// The singular grain type names, the values of the common field `type` (§5.1: "Singular (in ADD/WHERE)").
pub const GRAIN_TYPE_VALUES: &[&str] = words_of!(GrainType);

/// A string field whose values form a closed set, and how to report a value outside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClosedEnum {
    /// The field name as written in a query (`action_phase`).
    pub field: &'static str,
    /// Every valid value, in the spec's order (also the `valid_values` of the diagnostic).
    pub values: &'static [&'static str],
    /// The code to report for a value outside [`Self::values`].
    pub code: Code,
    /// True when the spec names [`Self::code`] for this field; false when the choice is ours
    /// (docs/spec-decisions-grammar.md, "Codes for bad enum values").
    pub code_from_spec: bool,
    /// The spec section that lists the values.
    pub section: &'static str,
}

impl ClosedEnum {
    /// True when `value` is one of the valid values (exact, case-sensitive).
    pub fn contains(&self, value: &str) -> bool {
        self.values.contains(&value)
    }

    /// The valid value `value` was probably meant to be (`"actve"` → `"active"`, `"Active"` → `"active"`).
    pub fn suggest(&self, value: &str) -> Option<&'static str> {
        did_you_mean(value, self.values.iter().copied())
    }
}

/// Every closed value set, one row per field. Checked for `=`, `!=` and each element of an
/// `IN (…)` list whose value is a string literal; parameters are checked when bound.
pub static CLOSED_ENUMS: &[ClosedEnum] = CLOSED_ENUM_ROWS;

/// Bit n is set when some closed-set field's name is n bytes long: most fields have no
/// closed set, and [`closed_enum`] answers them from their length alone, without a scan
/// (the checker asks for every string value it sees; docs/performance-checker.md).
const CLOSED_NAME_LENGTHS: u64 = {
    let mut mask = 0u64;
    let mut i = 0;
    while i < CLOSED_ENUM_ROWS.len() {
        assert!(CLOSED_ENUM_ROWS[i].field.len() < 64, "field names are short");
        mask |= 1 << CLOSED_ENUM_ROWS[i].field.len();
        i += 1;
    }
    mask
};

const CLOSED_ENUM_ROWS: &[ClosedEnum] = &[
    ClosedEnum {
        field: "action_phase",
        values: ACTION_PHASE_VALUES,
        code: Code::E062,
        code_from_spec: true,
        section: "6.3",
    },
    ClosedEnum {
        field: "goal_state",
        values: GOAL_STATE_VALUES,
        code: Code::E063,
        code_from_spec: true,
        section: "6.3",
    },
    ClosedEnum {
        field: "consent_action",
        values: CONSENT_ACTION_VALUES,
        code: Code::E064,
        code_from_spec: true,
        section: "6.3",
    },
    ClosedEnum {
        field: "recall_priority",
        values: RECALL_PRIORITY_VALUES,
        code: Code::E065,
        code_from_spec: true,
        section: "5.2",
    },
    ClosedEnum {
        field: "epistemic_status",
        values: EPISTEMIC_STATUS_VALUES,
        code: Code::E066,
        code_from_spec: true,
        section: "5.2",
    },
    ClosedEnum {
        field: "verification_status",
        values: VERIFICATION_STATUS_VALUES,
        code: Code::E020,
        code_from_spec: false,
        section: "5.2",
    },
    ClosedEnum { field: "role", values: ROLE_VALUES, code: Code::E020, code_from_spec: false, section: "6.3" },
    ClosedEnum {
        field: "reasoning_type",
        values: REASONING_TYPE_VALUES,
        code: Code::E020,
        code_from_spec: false,
        section: "6.3",
    },
    ClosedEnum { field: "type", values: GRAIN_TYPE_VALUES, code: Code::E003, code_from_spec: false, section: "5.1" },
];

/// The closed value set of `field_name`, if that field has one.
#[inline]
pub fn closed_enum(field_name: &str) -> Option<&'static ClosedEnum> {
    let len = field_name.len();
    if len >= 64 || CLOSED_NAME_LENGTHS & (1 << len) == 0 {
        return None;
    }
    CLOSED_ENUMS.iter().find(|e| e.field == field_name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_sets_match_the_spec() {
        // §6.3 and §5.2, in the spec's order.
        let expect: &[(&str, &[&str])] = &[
            ("action_phase", &["definition", "call", "result", "complete"]),
            ("goal_state", &["active", "completed", "abandoned", "blocked"]),
            ("consent_action", &["grant", "withdraw"]),
            ("recall_priority", &["hot", "warm", "cold"]),
            ("epistemic_status", &["certain", "probable", "uncertain", "estimated", "derived"]),
            ("verification_status", &["unverified", "verified", "contested", "retracted"]),
            ("role", &["user", "assistant", "system", "tool"]),
            ("reasoning_type", &["deductive", "inductive", "abductive", "analogical"]),
            (
                "type",
                &[
                    "belief",
                    "event",
                    "state",
                    "workflow",
                    "action",
                    "observation",
                    "goal",
                    "reasoning",
                    "consensus",
                    "consent",
                ],
            ),
        ];
        assert_eq!(CLOSED_ENUMS.len(), expect.len());
        for (field, values) in expect {
            let e = closed_enum(field).unwrap_or_else(|| panic!("{field} missing"));
            assert_eq!(e.values, *values, "{field}");
        }
    }

    #[test]
    fn codes_follow_appendix_c_and_our_rulings() {
        let code = |f: &str| closed_enum(f).unwrap().code;
        assert_eq!(code("action_phase"), Code::E062);
        assert_eq!(code("goal_state"), Code::E063);
        assert_eq!(code("consent_action"), Code::E064);
        assert_eq!(code("recall_priority"), Code::E065);
        assert_eq!(code("epistemic_status"), Code::E066);
        // Our rulings (docs/spec-decisions-grammar.md, "Codes for bad enum values").
        assert_eq!(code("verification_status"), Code::E020);
        assert_eq!(code("role"), Code::E020);
        assert_eq!(code("reasoning_type"), Code::E020);
        assert_eq!(code("type"), Code::E003);
        for e in CLOSED_ENUMS {
            // The spec's own codes are exactly E062–E066.
            let spec = matches!(e.code, Code::E062 | Code::E063 | Code::E064 | Code::E065 | Code::E066);
            assert_eq!(e.code_from_spec, spec, "{}", e.field);
        }
    }

    #[test]
    fn lookups_and_suggestions() {
        let goal = closed_enum("goal_state").unwrap();
        assert!(goal.contains("active"));
        assert!(!goal.contains("Active"), "values are case-sensitive");
        assert_eq!(goal.suggest("Active"), Some("active"));
        assert_eq!(goal.suggest("actve"), Some("active"));
        assert_eq!(goal.suggest("zzzzzz"), None);
        assert_eq!(closed_enum("subject"), None);
        assert_eq!(closed_enum("type").unwrap().suggest("beleif"), Some("belief"));
    }

    #[test]
    fn typed_enums_round_trip() {
        assert_eq!(ActionPhase::from_word("call"), Some(ActionPhase::Call));
        assert_eq!(ConsentAction::ALL.len(), 2);
        assert_eq!(Role::Tool.as_str(), "tool");
    }
}
