//! The grammar file agrees with the tables of this crate and is well formed.

use super::{Tok, rules, terminals, words_deep};
use crate::fields::*;
use crate::vocab::*;
use GrainType as G;
use std::collections::{BTreeMap, BTreeSet};

/// Production name → right-hand side.
fn productions() -> BTreeMap<&'static str, &'static [Tok]> {
    rules().iter().map(|r| (r.name.as_str(), r.body.as_slice())).collect()
}

/// A set of owned strings from string slices.
fn set<'a>(items: impl IntoIterator<Item = &'a str>) -> BTreeSet<String> {
    items.into_iter().map(str::to_string).collect()
}

/// Every production name of the spec's §4 grammar.
const SPEC_PRODUCTIONS: &str = concat!(
    "query version_prefix major_version let_block let_binding extractor statement explain_stmt set_stmt ",
    "set_op recall_stmt assemble_stmt exists_stmt history_stmt describe_stmt describe_target batch_stmt ",
    "batch_entry coalesce_stmt define_template_stmt context_name label for_clause from_clause source ",
    "let_ref budget_clause priority_clause format_clause format_spec format_type preset_name ",
    "stream_clause stream_option about_clause recent_clause since_clause like_clause between_clause ",
    "contradictions_clause as_clause thread_clause thread_target diff_clause as_of_clause in_clause ",
    "where_clause condition field_condition grain_field_condition meta_condition query_condition ",
    "time_condition type_condition tag_condition in_condition hash_condition relation_shortcut ",
    "domain_field_condition domain_field domain_prefix relation_category subquery_extract meta_field_name ",
    "grain_field_name event_field state_field workflow_field action_field observation_field goal_field ",
    "reasoning_field consensus_field consent_field comparator field_name subject_clause relation_clause ",
    "with_clause with_option diversity_spec consistency_level disclosure_level extension_option pipeline ",
    "pipe_stage select_stage order_stage limit_stage offset_stage count_stage first_stage subjects_stage ",
    "objects_stage hashes_stage group_stage project_stage project_spec project_field add_stmt ",
    "supersede_stmt revert_stmt add_clause add_field grain_add_field goal_add_field observation_add_field ",
    "set_clause evolve_field reason_clause template_name extends_clause template_body section ",
    "header_section element_section element_summary_section element_omit_section source_break_section ",
    "footer_section value value_list string_literal number boolean parameter array_literal hash_literal ",
    "identifier positive_integer grain_type_plural grain_type_singular ",
);

/// Spec productions subsumed by the generalized conditions (cal.ebnf, "Conditions").
const SUBSUMED: &str = concat!(
    "grain_field_condition meta_condition query_condition time_condition type_condition hash_condition ",
    "domain_field_condition ",
);

/// Productions nothing refers to: the start symbol and the documentation of the field sets.
const ROOTS: &str = "document known_field";

#[test]
fn every_reference_is_defined_and_every_production_used() {
    let prods = productions();
    let mut used = BTreeSet::new();
    for (name, rhs) in &prods {
        for t in rhs.iter() {
            if let Tok::Name(r) = t {
                assert!(prods.contains_key(r.as_str()), "{name} refers to undefined {r}");
                used.insert(r.as_str());
            }
        }
    }
    let unused: Vec<_> = prods.keys().filter(|p| !used.contains(*p)).map(|p| p.to_string()).collect();
    assert_eq!(unused, set(ROOTS.split_whitespace()).into_iter().collect::<Vec<_>>());
}

#[test]
fn spec_production_names_are_kept() {
    let prods = productions();
    let subsumed: Vec<_> = SUBSUMED.split_whitespace().collect();
    for p in SPEC_PRODUCTIONS.split_whitespace() {
        assert_eq!(prods.contains_key(p), !subsumed.contains(&p), "{p}");
    }
}

#[test]
fn extensions_point_to_the_decision_records() {
    let header: String = crate::EBNF.lines().take(12).collect();
    assert!(header.contains("docs/spec-decisions.md"));
    assert!(header.contains("docs/spec-decisions-grammar.md"));
    assert!(crate::EBNF.matches("EXTENSION:").count() >= 15);
}

#[test]
fn upper_case_terminals_are_keywords_and_keywords_are_used() {
    let prods = productions();
    let mut upper = BTreeSet::new();
    let mut all = BTreeSet::new();
    for rhs in prods.values() {
        for t in rhs.iter() {
            if let Tok::Term(s) = t {
                all.insert(s.to_ascii_uppercase());
                // Single letters are hex digits, not keywords.
                if s.len() > 1 && s.bytes().all(|b| b.is_ascii_uppercase() || b == b'_') {
                    upper.insert(s.clone());
                }
            }
        }
    }
    for u in &upper {
        assert!(Keyword::lookup(u).is_some(), "{u} is not a keyword");
    }
    let unused: Vec<_> = Keyword::words().filter(|k| !all.contains(*k)).collect();
    // Reserved by §3.2 but without a production in §4.
    assert_eq!(unused, ["OR", "NOT", "NULL", "UNDEFINE"]);
}

#[test]
fn word_sets_agree_with_vocab() {
    assert_eq!(terminals("grain_type_plural"), set(GrainType::plurals()));
    assert_eq!(terminals("grain_type_singular"), set(GrainType::words()));
    let formats: BTreeSet<_> = terminals("format_type").union(&terminals("preset_name")).cloned().collect();
    assert_eq!(formats, set(FormatName::words()));
    assert_eq!(terminals("preset_name"), set(FormatName::ALL.iter().filter(|f| f.is_preset()).map(|f| f.as_str())));
    assert_eq!(terminals("describe_target"), set(DescribeTarget::words()));
    assert_eq!(terminals("disclosure_level"), set(DisclosureLevel::words()));
    assert_eq!(terminals("comparator"), set(Comparator::words()));
    assert_eq!(terminals("set_op"), set(SetOperator::words()));
    assert_eq!(terminals("extractor"), set(Extractor::words()));
    let mut consistency = terminals("consistency_level");
    consistency.retain(|t| t != "(" && t != ")");
    assert_eq!(consistency, set(ConsistencyKind::words()));
    let mut stream = terminals("stream_option");
    assert!(stream.remove("chunk_size") && stream.remove("="));
    assert_eq!(stream, set(StreamEvents::words()));
    let mut units = terminals("budget_clause");
    units.remove("BUDGET");
    assert_eq!(units, set(BudgetUnit::words()));
    let stops = [
        "diversity_spec",
        "consistency_level",
        "disclosure_level",
        "field_ref",
        "extension_option",
        "string_literal",
        "positive_integer",
    ];
    let mut with = words_deep("with_option", &stops);
    assert!(with.remove(crate::with::CACHE_TTL));
    assert_eq!(with, set(WithOptionName::words()));
    let modes = words_deep("diversity_spec", &["number"]);
    for m in crate::with::DiversityMode::words().chain([crate::with::DIVERSITY_LAMBDA]) {
        assert!(modes.contains(m), "{m} in diversity_spec: {modes:?}");
    }
    let sections: BTreeSet<_> = productions()
        .keys()
        .filter(|p| p.ends_with("_section"))
        .flat_map(|p| terminals(p))
        .filter(|t| t.len() > 1 && t.bytes().all(|b| b.is_ascii_uppercase() || b == b'_'))
        .collect();
    assert_eq!(sections, set(TemplateSectionKind::words()));
}

#[test]
fn field_sets_agree_with_the_tables() {
    let names = |fs: &[FieldInfo]| set(fs.iter().map(|f| f.name));
    let per_type = [
        ("event_field", G::Event),
        ("state_field", G::State),
        ("workflow_field", G::Workflow),
        ("action_field", G::Action),
        ("observation_field", G::Observation),
        ("goal_field", G::Goal),
        ("reasoning_field", G::Reasoning),
        ("consensus_field", G::Consensus),
        ("consent_field", G::Consent),
    ];
    for (production, g) in per_type {
        assert_eq!(terminals(production), names(type_fields(g)), "{production}");
    }
    assert_eq!(terminals("meta_field_name"), set(COMMON_FIELDS.iter().filter(|f| f.meta).map(|f| f.name)));
    let mut every = names(COMMON_FIELDS);
    for g in GrainType::ALL {
        every.extend(names(type_fields(*g)));
    }
    assert_eq!(words_deep("known_field", &["domain_prefix", "identifier"]), every);
    assert_eq!(terminals("domain_prefix"), set(DOMAIN_PROFILES.iter().map(|p| p.prefix)));
    let evolve = |fs: &[EvolveField]| set(fs.iter().map(|f| f.name));
    assert_eq!(terminals("add_field"), evolve(ADD_BASE_FIELDS));
    assert_eq!(terminals("goal_add_field"), evolve(GOAL_ADD_FIELDS));
    assert_eq!(terminals("observation_add_field"), evolve(OBSERVATION_ADD_FIELDS));
    assert_eq!(terminals("evolve_field"), evolve(SUPERSEDE_FIELDS));
}
