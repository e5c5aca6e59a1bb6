//! The standard `mg:` relation vocabulary (§7.1), the relation category
//! shortcuts `relation IS CATEGORY` (§7.2), and `humanize()` (§10.3.3).
//!
//! The checker uses [`lookup_relation`] for warning CAL-W001 and
//! [`category_members`] to desugar `relation IS …`; the formatter uses
//! [`humanize`]; the language server shows [`MgRelation::description`] on hover.

use std::borrow::Cow;

use crate::suggest::did_you_mean;
use crate::vocab::RelationCategory;
use crate::word_enum;

/// The namespace prefix of the standard vocabulary.
pub const MG_PREFIX: &str = "mg:";

word_enum! {
    /// The categories of §7.1's table. There are nine; only seven have a
    /// `relation IS …` shortcut keyword ([`RelationCategory`]): `Consensus`
    /// (`mg:agrees_with`) and `Workflow` (`mg:requires_steps`) have none.
    pub enum MgCategory {
        Observation = "Observation", Knowledge = "Knowledge", Interaction = "Interaction",
        Consensus = "Consensus", Workflow = "Workflow", Lifecycle = "Lifecycle",
        Permission = "Permission", Preference = "Preference", Agency = "Agency",
    }
}

impl MgCategory {
    /// The shortcut keyword that selects this category, if it has one.
    pub const fn shortcut(self) -> Option<RelationCategory> {
        match self {
            MgCategory::Observation => Some(RelationCategory::Observation),
            MgCategory::Knowledge => Some(RelationCategory::Knowledge),
            MgCategory::Interaction => Some(RelationCategory::Interaction),
            MgCategory::Lifecycle => Some(RelationCategory::Lifecycle),
            MgCategory::Permission => Some(RelationCategory::Permission),
            MgCategory::Preference => Some(RelationCategory::Preference),
            MgCategory::Agency => Some(RelationCategory::Agency),
            MgCategory::Consensus | MgCategory::Workflow => None,
        }
    }
}

/// One row of §7.1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MgRelation {
    /// The relation as stored and queried, with its prefix (`mg:prefers`).
    pub name: &'static str,
    /// Its §7.1 category.
    pub category: MgCategory,
    /// What the subject usually is.
    pub typical_subject: &'static str,
    /// What the object usually is.
    pub typical_object: &'static str,
    /// One line, for hovers and `DESCRIBE`.
    pub description: &'static str,
}

const fn rel(
    name: &'static str,
    category: MgCategory,
    typical_subject: &'static str,
    typical_object: &'static str,
    description: &'static str,
) -> MgRelation {
    MgRelation { name, category, typical_subject, typical_object, description }
}

/// The 21 standard relations, in the order of §7.1.
pub static MG_RELATIONS: &[MgRelation] = &[
    rel("mg:perceives", MgCategory::Observation, "Agent/Observer", "Phenomenon", "Sensory/cognitive input"),
    rel("mg:knows", MgCategory::Knowledge, "Entity", "Fact", "Knowledge assertion"),
    rel("mg:said", MgCategory::Interaction, "Entity", "Statement", "Recorded utterance"),
    rel("mg:did", MgCategory::Interaction, "Entity", "Action description", "Recorded action"),
    rel("mg:infers", MgCategory::Knowledge, "Agent", "Conclusion", "Inference result"),
    rel("mg:agrees_with", MgCategory::Consensus, "Agent", "Proposition", "Agreement record"),
    rel("mg:state_at", MgCategory::Observation, "Agent", "State snapshot", "Point-in-time state"),
    rel("mg:requires_steps", MgCategory::Workflow, "Process", "Step sequence", "Workflow definition"),
    rel("mg:intends", MgCategory::Lifecycle, "Entity", "Objective", "Goal declaration"),
    rel("mg:permits", MgCategory::Permission, "Grantor DID", "Action/scope", "Permission grant"),
    rel("mg:revokes", MgCategory::Permission, "Grantor DID", "Action/scope", "Permission withdrawal"),
    rel("mg:prohibits", MgCategory::Permission, "Authority", "Action/scope", "Prohibition"),
    rel("mg:requires", MgCategory::Preference, "Entity", "Requirement", "Requirement assertion"),
    rel("mg:prefers", MgCategory::Preference, "Entity", "Preference", "Preference assertion"),
    rel("mg:avoids", MgCategory::Preference, "Entity", "Aversion", "Avoidance assertion"),
    rel("mg:delegates_to", MgCategory::Agency, "Entity", "Agent DID", "Delegation"),
    rel("mg:owned_by", MgCategory::Knowledge, "Resource", "Entity", "Ownership"),
    rel("mg:has_capability", MgCategory::Agency, "Agent DID", "Capability", "Agent capability"),
    rel("mg:handed_off_to", MgCategory::Interaction, "Agent DID", "Agent DID", "Agent handoff"),
    rel("mg:depends_on", MgCategory::Lifecycle, "Goal", "Goal", "Goal dependency"),
    rel("mg:assigned_to", MgCategory::Agency, "Task", "Agent DID", "Task assignment"),
];

/// What `relation IS cat` expands to, exactly as §7.2 lists it (order included: the
/// expansion is printed by EXPLAIN and must be deterministic).
///
/// Note that §7.2 is narrower than §7.1's categories: `mg:owned_by` is in the
/// Knowledge category of §7.1 but not in the KNOWLEDGE expansion, which we follow
/// (docs/spec-decisions-grammar.md, "KNOWLEDGE expansion").
pub const fn category_members(cat: RelationCategory) -> &'static [&'static str] {
    match cat {
        RelationCategory::Preference => &["mg:prefers", "mg:avoids", "mg:requires"],
        RelationCategory::Knowledge => &["mg:knows", "mg:infers"],
        RelationCategory::Permission => &["mg:permits", "mg:revokes", "mg:prohibits"],
        RelationCategory::Interaction => &["mg:said", "mg:did", "mg:handed_off_to"],
        RelationCategory::Agency => &["mg:delegates_to", "mg:has_capability", "mg:assigned_to"],
        RelationCategory::Lifecycle => &["mg:intends", "mg:depends_on"],
        RelationCategory::Observation => &["mg:perceives", "mg:state_at"],
    }
}

/// The standard relation spelled exactly `s` (`"mg:prefers"`), if any. Relations are
/// case-sensitive strings; `"prefers"` without the prefix is a custom relation, not this one.
pub fn lookup_relation(s: &str) -> Option<&'static MgRelation> {
    MG_RELATIONS.iter().find(|r| r.name == s)
}

/// True for an `mg:`-prefixed string, the only relations CAL-W001 applies to (§7.3).
#[inline]
pub fn is_mg(s: &str) -> bool {
    s.starts_with(MG_PREFIX)
}

/// True when `s` is one of the 21 standard relations.
pub fn is_known_mg(s: &str) -> bool {
    lookup_relation(s).is_some()
}

/// For an unknown `mg:` relation, the standard one it was probably meant to be
/// (`"mg:prefer"` → `"mg:prefers"`), for the suggestion of CAL-W001.
pub fn suggest_mg(s: &str) -> Option<&'static str> {
    did_you_mean(s, MG_RELATIONS.iter().map(|r| r.name))
}

/// §10.3.3: a relation as readable text. Strips one leading `prefix:` (a non-empty run of
/// ASCII letters, digits, `_` or `-`), then replaces underscores with spaces:
/// `"mg:prefers"` → `"prefers"`, `"works_at"` → `"works at"`, `"acme:similar_to"` → `"similar to"`.
///
/// A colon that is not preceded by such a prefix, or that ends the string, is kept
/// (`"mg:"` stays `"mg:"`), so humanize never turns a relation into nothing.
pub fn humanize(relation: &str) -> Cow<'_, str> {
    let rest = match relation.split_once(':') {
        Some((prefix, rest))
            if !prefix.is_empty()
                && !rest.is_empty()
                && prefix.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-') =>
        {
            rest
        }
        _ => relation,
    };
    if rest.contains('_') { Cow::Owned(rest.replace('_', " ")) } else { Cow::Borrowed(rest) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_one_relations_with_unique_names() {
        assert_eq!(MG_RELATIONS.len(), 21);
        let mut names: Vec<_> = MG_RELATIONS.iter().map(|r| r.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 21);
        assert!(MG_RELATIONS.iter().all(|r| r.name.starts_with(MG_PREFIX)));
    }

    #[test]
    fn category_expansions_match_section_7_2() {
        use RelationCategory::*;
        let expect: &[(RelationCategory, &[&str])] = &[
            (Preference, &["mg:prefers", "mg:avoids", "mg:requires"]),
            (Knowledge, &["mg:knows", "mg:infers"]),
            (Permission, &["mg:permits", "mg:revokes", "mg:prohibits"]),
            (Interaction, &["mg:said", "mg:did", "mg:handed_off_to"]),
            (Agency, &["mg:delegates_to", "mg:has_capability", "mg:assigned_to"]),
            (Lifecycle, &["mg:intends", "mg:depends_on"]),
            (Observation, &["mg:perceives", "mg:state_at"]),
        ];
        assert_eq!(expect.len(), RelationCategory::ALL.len());
        for (cat, members) in expect {
            assert_eq!(category_members(*cat), *members, "{cat}");
        }
    }

    #[test]
    fn expansions_agree_with_the_relation_table() {
        // Every expansion member is a known relation of the matching category …
        for cat in RelationCategory::ALL {
            for m in category_members(*cat) {
                let r = lookup_relation(m).unwrap();
                assert_eq!(r.category.shortcut(), Some(*cat), "{m}");
            }
        }
        // … and every relation with a shortcut category is in its expansion, except
        // mg:owned_by, which §7.2 leaves out of KNOWLEDGE.
        for r in MG_RELATIONS {
            match r.category.shortcut() {
                Some(cat) if r.name != "mg:owned_by" => assert!(category_members(cat).contains(&r.name), "{}", r.name),
                Some(_) => assert!(!category_members(RelationCategory::Knowledge).contains(&r.name)),
                None => assert!(matches!(r.category, MgCategory::Consensus | MgCategory::Workflow), "{}", r.name),
            }
        }
    }

    #[test]
    fn ebnf_relation_categories_are_the_shortcut_keywords() {
        let words: std::collections::BTreeSet<String> = RelationCategory::words().map(str::to_string).collect();
        assert_eq!(crate::ebnf::terminals("relation_category"), words);
    }

    #[test]
    fn nine_categories_seven_shortcuts() {
        assert_eq!(MgCategory::ALL.len(), 9);
        assert_eq!(MgCategory::ALL.iter().filter(|c| c.shortcut().is_some()).count(), 7);
        assert_eq!(lookup_relation("mg:agrees_with").unwrap().category, MgCategory::Consensus);
        assert_eq!(lookup_relation("mg:requires_steps").unwrap().category, MgCategory::Workflow);
    }

    #[test]
    fn lookups() {
        assert!(is_known_mg("mg:prefers"));
        assert!(!is_known_mg("prefers"));
        assert!(!is_known_mg("MG:prefers"));
        assert!(is_mg("mg:likes"));
        assert!(!is_mg("acme:likes"));
        assert_eq!(suggest_mg("mg:prefer"), Some("mg:prefers"));
        assert_eq!(suggest_mg("mg:knowz"), Some("mg:knows"));
        assert_eq!(lookup_relation("mg:handed_off_to").unwrap().typical_object, "Agent DID");
    }

    #[test]
    fn humanize_examples_of_section_10_3_3() {
        assert_eq!(humanize("mg:prefers"), "prefers");
        assert_eq!(humanize("works_at"), "works at");
        assert_eq!(humanize("acme:similar_to"), "similar to");
        // Our edge-case rulings (docs/spec-decisions-grammar.md, "humanize edge cases").
        assert_eq!(humanize("mg:handed_off_to"), "handed off to");
        assert_eq!(humanize("prefers"), "prefers");
        assert_eq!(humanize("mg:"), "mg:");
        assert_eq!(humanize(":x"), ":x");
        assert_eq!(humanize("a b:c"), "a b:c");
        assert_eq!(humanize("x-y:z_w"), "z w");
        assert_eq!(humanize("a:b:c"), "b:c");
        assert!(matches!(humanize("mg:prefers"), Cow::Borrowed(_)));
    }
}
