//! Domain profiles and their prefixed fields (§12.2, Appendix E).

use super::*;

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
