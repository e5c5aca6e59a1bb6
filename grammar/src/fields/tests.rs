//! The field tables pinned against the spec.

use super::*;
use std::collections::HashSet;

#[test]
fn field_counts_match_section_6_5() {
    // §6.5: grain type, type-specific count, total queryable.
    let expect = [
        (G::Belief, 0, 18),
        (G::Event, 5, 23),
        (G::State, 2, 20),
        (G::Workflow, 2, 20),
        (G::Action, 4, 22),
        (G::Observation, 2, 20),
        (G::Goal, 4, 22),
        (G::Reasoning, 3, 21),
        (G::Consensus, 3, 21),
        (G::Consent, 6, 24),
    ];
    assert_eq!(COMMON_FIELDS.len(), 18);
    assert_eq!(expect.len(), GrainType::ALL.len());
    for (g, specific, total) in expect {
        assert_eq!(type_fields(g).len(), specific, "{g}");
        assert_eq!(fields_for(Some(g)).count(), total, "{g}");
    }
    assert_eq!(fields_for(None).count(), 18, "(no type)");
}

#[test]
fn common_fields_match_appendix_e() {
    type Row = (&'static str, ValueType, &'static [FieldOp], bool, bool, bool);
    let expect: &[Row] = &[
        ("query", V::String, &[Op::Eq], false, false, false),
        ("subject", V::String, &[Op::Eq, Op::Ne, Op::In], true, true, true),
        ("relation", V::String, &[Op::Eq, Op::Ne, Op::In, Op::Is], true, true, true),
        ("object", V::String, &[Op::Eq, Op::Ne, Op::In], true, true, true),
        ("user_id", V::String, &[Op::Eq, Op::Ne], false, true, true),
        ("namespace", V::String, &[Op::Eq], false, false, false),
        ("confidence", V::Number, &[Op::Eq, Op::Ne, Op::Ge, Op::Le, Op::Gt, Op::Lt], true, true, false),
        ("importance", V::Number, &[Op::Eq, Op::Ne, Op::Ge, Op::Le, Op::Gt, Op::Lt], true, true, false),
        ("score", V::Number, &[Op::Ge, Op::Gt], true, true, false),
        ("tags", V::Array, &[Op::Include, Op::Exclude], false, true, false),
        ("type", V::GrainType, &[Op::Eq], false, true, true),
        ("time", V::Temporal, &[Op::Eq, Op::Between], true, true, false),
        ("hash", V::Hash, &[Op::Eq], false, true, false),
        ("contradicted", V::Boolean, &[Op::Eq], false, true, false),
        ("verification_status", V::String, &[Op::Eq], true, true, true),
        ("source_type", V::String, &[Op::Eq], true, true, true),
        ("recall_priority", V::String, &[Op::Eq], false, false, false),
        ("epistemic_status", V::String, &[Op::Eq], false, false, false),
    ];
    assert_eq!(expect.len(), COMMON_FIELDS.len());
    for ((name, vt, ops, s, p, g), f) in expect.iter().zip(COMMON_FIELDS) {
        assert_eq!(f.name, *name);
        assert_eq!((f.value_type, f.ops, f.sortable, f.projectable, f.groupable), (*vt, *ops, *s, *p, *g), "{name}");
        assert_eq!(f.grain_type, None);
        assert_eq!(f.section, "5.2");
    }
    let meta: Vec<_> = COMMON_FIELDS.iter().filter(|f| f.meta).map(|f| f.name).collect();
    assert_eq!(meta, ["verification_status", "source_type", "recall_priority", "epistemic_status"]);
}

#[test]
fn type_specific_fields_match_section_6_3() {
    type Row = (GrainType, &'static str, ValueType, &'static [FieldOp]);
    let expect: &[Row] = &[
        (G::Event, "role", V::String, &[Op::Eq, Op::Ne]),
        (G::Event, "session_id", V::String, &[Op::Eq]),
        (G::Event, "parent_message_id", V::String, &[Op::Eq]),
        (G::Event, "model_id", V::String, &[Op::Eq, Op::Ne]),
        (G::Event, "content", V::String, &[Op::Eq]),
        (G::State, "context", V::String, &[Op::Eq, Op::Ne]),
        (G::State, "plan", V::String, &[Op::Eq]),
        (G::Workflow, "trigger", V::String, &[Op::Eq, Op::Ne]),
        (G::Workflow, "steps", V::String, &[Op::Eq]),
        (G::Action, "tool_name", V::String, &[Op::Eq, Op::Ne, Op::In]),
        (G::Action, "action_phase", V::String, &[Op::Eq]),
        (G::Action, "is_error", V::Boolean, &[Op::Eq]),
        (G::Action, "tool_call_id", V::String, &[Op::Eq]),
        (G::Observation, "observer_id", V::String, &[Op::Eq, Op::Ne]),
        (G::Observation, "observer_type", V::String, &[Op::Eq, Op::Ne]),
        (G::Goal, "goal_state", V::String, &[Op::Eq, Op::Ne]),
        (G::Goal, "assigned_agent", V::String, &[Op::Eq, Op::Ne]),
        (G::Goal, "deadline", V::Temporal, &[Op::Eq, Op::Between]),
        (G::Goal, "depends_on", V::String, &[Op::Eq, Op::In]),
        (G::Reasoning, "reasoning_type", V::String, &[Op::Eq]),
        (G::Reasoning, "premises", V::String, &[Op::Eq]),
        (G::Reasoning, "conclusion", V::String, &[Op::Eq, Op::Ne]),
        (G::Consensus, "threshold", V::Number, &[Op::Eq, Op::Ge, Op::Le, Op::Gt, Op::Lt]),
        (G::Consensus, "agreement_count", V::Number, &[Op::Eq, Op::Ge, Op::Le, Op::Gt, Op::Lt]),
        (G::Consensus, "participating_observers", V::Array, &[Op::Include]),
        (G::Consent, "consent_action", V::String, &[Op::Eq]),
        (G::Consent, "purpose", V::String, &[Op::Eq, Op::Ne]),
        (G::Consent, "grantor_did", V::String, &[Op::Eq]),
        (G::Consent, "grantee_did", V::String, &[Op::Eq]),
        (G::Consent, "scope", V::String, &[Op::Eq]),
        (G::Consent, "expires_at", V::Temporal, &[Op::Eq, Op::Between]),
    ];
    let all: Vec<&FieldInfo> = GrainType::ALL.iter().flat_map(|g| type_fields(*g)).collect();
    assert_eq!(all.len(), expect.len());
    for ((g, name, vt, ops), f) in expect.iter().zip(all) {
        assert_eq!((f.grain_type, f.name, f.value_type, f.ops), (Some(*g), *name, *vt, *ops));
        assert_eq!(f.section, "6.3");
        assert!(!f.meta);
    }
}

#[test]
fn type_specific_flags_follow_the_recorded_rule() {
    // docs/spec-decisions-grammar.md, "Flags of type-specific fields".
    let flags = |g, n| {
        let f = type_field(g, n).unwrap();
        (f.sortable, f.projectable, f.groupable)
    };
    assert_eq!(flags(G::Goal, "deadline"), (true, true, false));
    assert_eq!(flags(G::Consent, "expires_at"), (true, true, false));
    assert_eq!(flags(G::Consensus, "threshold"), (true, true, false));
    assert_eq!(flags(G::Event, "session_id"), (false, true, true));
    assert_eq!(flags(G::Action, "tool_name"), (false, true, true));
    assert_eq!(flags(G::Goal, "goal_state"), (true, true, true));
    assert_eq!(flags(G::Event, "content"), (false, true, false));
    assert_eq!(flags(G::Action, "is_error"), (false, true, false));
    assert_eq!(flags(G::Goal, "depends_on"), (false, true, false));
    for g in GrainType::ALL {
        for f in type_fields(*g) {
            assert!(f.projectable, "{}: every stored field can be projected", f.name);
            if matches!(f.value_type, V::Number | V::Temporal) {
                assert!(f.sortable && !f.groupable, "{}", f.name);
            }
            if matches!(f.value_type, V::Boolean | V::Array) {
                assert!(!f.sortable && !f.groupable, "{}", f.name);
            }
        }
    }
}

#[test]
fn enum_values_and_ranges_come_from_their_modules() {
    for f in fields_for(Some(G::Goal)).chain(GrainType::ALL.iter().flat_map(|g| type_fields(*g))) {
        match (crate::enums::closed_enum(f.name), f.enum_values) {
            (Some(e), Some(v)) => assert_eq!(e.values, v, "{}", f.name),
            (None, None) => {}
            (e, v) => panic!("{}: closed_enum {:?} vs enum_values {:?}", f.name, e.map(|e| e.field), v),
        }
    }
    let ranged: Vec<_> = fields_for(Some(G::Consensus)).filter(|f| f.range.is_some()).map(|f| f.name).collect();
    assert_eq!(ranged, ["confidence", "importance", "threshold"]);
}

#[test]
fn names_are_unique_and_type_specific_names_have_one_owner() {
    let mut seen = HashSet::new();
    for f in COMMON_FIELDS.iter().chain(GrainType::ALL.iter().flat_map(|g| type_fields(*g))) {
        assert!(seen.insert(f.name), "{} defined twice", f.name);
        assert!(f.name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'), "{}", f.name);
        assert!(!f.doc.is_empty() && !f.doc.contains('\n'), "{}", f.name);
    }
    assert_eq!(owners_of("tool_name"), [G::Action]);
    assert_eq!(owners_of("scope"), [G::Consent]);
    assert!(owners_of("subject").is_empty());
    assert!(owners_of("nonsense").is_empty());
}

#[test]
fn resolution_follows_section_6_2() {
    let info = |r: FieldResolution| r.info().map(|f| f.name);
    assert!(matches!(resolve(None, "subject"), FieldResolution::Common(f) if f.name == "subject"));
    assert!(matches!(resolve(Some(G::Action), "confidence"), FieldResolution::Common(_)));
    assert!(matches!(resolve(Some(G::Action), "tool_name"), FieldResolution::TypeSpecific(f) if f.name == "tool_name"));
    match resolve(Some(G::Belief), "tool_name") {
        FieldResolution::NotOnGrainType { field, owners } => {
            assert_eq!(field.name, "tool_name");
            assert_eq!(owners, [G::Action]);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(resolve(None, "goal_state"), FieldResolution::NeedsGrainType { owners: vec![G::Goal] });
    assert_eq!(resolve(Some(G::Goal), "subjct"), FieldResolution::Unknown);
    assert_eq!(info(resolve(None, "hc:patient_id")), Some("hc:patient_id"));
    match resolve(None, "hc:unlisted") {
        FieldResolution::Domain { profile: Some(p), field: None } => assert_eq!(p.profile, "healthcare"),
        other => panic!("{other:?}"),
    }
    assert_eq!(resolve(None, "zz:thing"), FieldResolution::Domain { profile: None, field: None });
    assert!(resolve(None, "zz:thing").is_usable());
    assert!(!resolve(None, "goal_state").is_usable());
    assert_eq!(suggest_field(Some(G::Action), "tool_nme"), Some("tool_name"));
    assert_eq!(suggest_field(None, "subjct"), Some("subject"));
}

#[test]
fn domain_profiles_match_section_12_2() {
    let expect: &[(&str, &str, &[&str])] = &[
        ("hc", "healthcare", &["patient_id", "encounter_id", "provider_id", "condition_code", "phi_category"]),
        ("legal", "legal", &["case_id", "jurisdiction", "privilege_status", "retention_category"]),
        ("fin", "finance", &["account_id", "transaction_id", "risk_category", "compliance_flag"]),
        ("rob", "robotics", &["device_id", "coordinate_frame", "safety_zone"]),
        ("sci", "science", &["experiment_id", "dataset_id", "methodology", "reproducibility_status"]),
        ("con", "consumer", &["session_context", "interaction_channel"]),
        ("int", "integration", &["source_system", "correlation_id", "sync_status"]),
    ];
    assert_eq!(DOMAIN_PROFILES.len(), expect.len());
    for ((prefix, profile, names), p) in expect.iter().zip(DOMAIN_PROFILES) {
        assert_eq!((p.prefix, p.profile), (*prefix, *profile));
        assert_eq!(p.tag, format!("profile:{profile}"));
        let got: Vec<_> = p.fields.iter().map(|f| split_domain_field(f.name).unwrap()).collect();
        let want: Vec<_> = names.iter().map(|n| (*prefix, *n)).collect();
        assert_eq!(got, want);
        assert!(p.fields.iter().all(|f| f.section == "12.2" && f.grain_type.is_none()));
    }
    assert_eq!(domain_profile("hc:").unwrap().domain, "Healthcare");
    assert!(domain_profile("xx").is_none());
    assert_eq!(split_domain_field("hc:patient_id"), Some(("hc", "patient_id")));
    assert_eq!(split_domain_field("patient_id"), None);
    assert_eq!(split_domain_field("hc:"), None);
    assert_eq!(split_domain_field(":x"), None);
    assert_eq!(split_domain_field("hc:a:b"), None);
    assert_eq!(split_domain_field("did:key"), Some(("did", "key")));
    assert!(domain_profile("hc").unwrap().field("condition_code").unwrap().allows(Op::In));
}

#[test]
fn evolve_fields_match_sections_5_3_and_6_4() {
    let names = |fs: &[EvolveField]| fs.iter().map(|f| f.name).collect::<Vec<_>>();
    assert_eq!(names(ADD_BASE_FIELDS), ["subject", "relation", "object", "confidence", "importance", "tags"]);
    assert_eq!(required_add_fields().map(|f| f.name).collect::<Vec<_>>(), ["subject", "relation", "object"]);
    assert_eq!(names(GOAL_ADD_FIELDS), ["goal_state", "assigned_agent", "deadline", "depends_on"]);
    assert_eq!(names(OBSERVATION_ADD_FIELDS), ["observer_id", "observer_type"]);
    assert_eq!(names(SUPERSEDE_FIELDS), ["object", "confidence", "importance", "tags"]);
    assert!(SUPERSEDE_FIELDS.iter().all(|f| !f.required));
    // Types agree with the query-side tables.
    for g in [G::Goal, G::Observation] {
        for f in add_extension_fields(g) {
            let q = type_field(g, f.name).unwrap();
            assert_eq!((f.value_type, f.enum_values), (q.value_type, q.enum_values), "{}", f.name);
        }
    }
    for f in ADD_BASE_FIELDS {
        let q = common_field(f.name).unwrap();
        assert_eq!((f.value_type, f.range), (q.value_type, q.range), "{}", f.name);
    }
    assert!(add_field(G::Goal, "deadline").is_some());
    assert!(add_field(G::Belief, "deadline").is_none());
    assert!(add_field(G::Observation, "observer_id").is_some());
    assert!(add_field(G::Belief, "namespace").is_none());
    assert!(supersede_field("subject").is_none());
    assert_eq!(supersede_field("tags").unwrap().value_type, V::Array);
}

#[test]
fn projections_name_real_fields() {
    assert_eq!(PROJECTIONS.len(), 10);
    for (p, g) in PROJECTIONS.iter().zip(GrainType::ALL) {
        assert_eq!(p.grain_type, *g);
        for f in p.content.iter().copied().chain(p.attrs.iter().map(|a| a.field)) {
            assert!(resolve(Some(*g), f).info().is_some(), "{g}: {f}");
        }
    }
    assert_eq!(projection_alias(G::Observation, "observer").unwrap().field, "observer_id");
    assert_eq!(projection_alias(G::Action, "phase").unwrap().field, "action_phase");
    assert!(projection_alias(G::Belief, "observer").is_none());
    // §10.3.2: Consent's three attributes are always shown; Belief's confidence is a detail.
    assert!(projection(G::Consent).attrs.iter().all(|a| !a.detail));
    assert!(projection(G::Belief).attrs[1].detail);
}

#[test]
fn comparators_map_to_ops() {
    for c in crate::vocab::Comparator::ALL {
        assert_eq!(FieldOp::from_comparator(*c).as_str(), c.as_str());
    }
}

#[test]
fn every_field_name_constant_names_a_field() {
    for name in names::ALL {
        let known = common_field(name).is_some() || G::ALL.iter().any(|g| type_field(*g, name).is_some());
        assert!(known, "names::{name} is not a field");
    }
}
