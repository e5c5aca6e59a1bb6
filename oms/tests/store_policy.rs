//! Invalidation policy (OMS §23): every mode, every scope, the three bypass
//! paths, fail-closed behaviour, goal transitions and key separation.

use ed25519_dalek::SigningKey;
use oms::cose::{sign_grain, sign_payload};
use oms::store::policy::{contradict_auth_payload, supersede_auth_payload};
use oms::store::{Query, Store, StoreConfig};
use oms::{ContentAddress, Grain, Map, Value, did};

const NOW: i64 = 1_800_000_000_000;

fn key(n: u8) -> SigningKey {
    SigningKey::from_bytes(&[n; 32])
}

fn did_of(n: u8) -> String {
    did::encode_ed25519(&key(n).verifying_key())
}

fn store_at(now: i64) -> Store {
    Store::new(StoreConfig::fixed_clock(now))
}

fn grain(json: &str) -> Grain {
    Grain::from_json_str(json).unwrap()
}

fn protected(subject: &str, policy: &str) -> Grain {
    grain(&format!(
        r#"{{"type":"belief","subject":"{subject}","relation":"constraint","object":"v1","confidence":1.0,
        "created_at":1000,"invalidation_policy":{policy}}}"#
    ))
}

fn successor(old: &ContentAddress, subject: &str, extra: &str) -> Grain {
    grain(&format!(
        r#"{{"type":"belief","subject":"{subject}","relation":"constraint","object":"v2","confidence":1.0,
        "created_at":2000,"derived_from":["{old}"]{extra}}}"#
    ))
}

fn put(s: &Store, g: &Grain) -> ContentAddress {
    s.put(&g.encode().unwrap().bytes).unwrap()
}

fn code(r: oms::Result<ContentAddress>) -> &'static str {
    r.map(|_| ()).unwrap_err().code()
}

#[test]
fn open_and_absent_policies_allow() {
    let s = store_at(NOW);
    let a = put(&s, &protected("a", r#"{"mode":"open"}"#));
    s.supersede(&a, &successor(&a, "a", "").encode().unwrap().bytes, None).unwrap();
    let plain = put(
        &s,
        &grain(
            r#"{"type":"belief","subject":"p","relation":"constraint","object":"v1","confidence":1.0,"created_at":1}"#,
        ),
    );
    s.supersede(&plain, &successor(&plain, "p", "").encode().unwrap().bytes, None).unwrap();
}

#[test]
fn soft_locked_needs_justification_and_flags_review() {
    let s = store_at(NOW);
    let a = put(&s, &protected("a", r#"{"mode":"soft_locked"}"#));
    let next = successor(&a, "a", "").encode().unwrap().bytes;
    assert_eq!(code(s.supersede(&a, &next, None)), "ERR_INVALIDATION_DENIED");
    assert_eq!(code(s.supersede(&a, &next, Some("  "))), "ERR_INVALIDATION_DENIED");
    let b = s.supersede(&a, &next, Some("user changed their mind")).unwrap();
    assert_eq!(s.get(&b).unwrap().index.extra.get("review"), Some(&Value::Bool(true)));
    // The justification may also travel in the grain.
    let c = put(&s, &protected("c", r#"{"mode":"soft_locked"}"#));
    let with_field = successor(&c, "c", r#","supersession_justification":"typo fix""#);
    s.supersede(&c, &with_field.encode().unwrap().bytes, None).unwrap();
}

#[test]
fn locked_yields_only_to_an_authorized_signature_with_key_separation() {
    let owner = did_of(1);
    let s = store_at(NOW);
    let a = put(&s, &protected("a", &format!(r#"{{"mode":"locked","authorized":["{owner}"]}}"#)));
    let next = successor(&a, "a", "");
    assert_eq!(code(s.supersede(&a, &next.encode().unwrap().bytes, Some("please"))), "ERR_INVALIDATION_DENIED");
    let by_stranger = sign_grain(&next, &key(2), None).unwrap();
    assert_eq!(code(s.supersede(&a, &by_stranger.cose, None)), "ERR_INVALIDATION_DENIED");
    // Key separation: the acting agent cannot be its own authorization.
    let self_authorized = successor(&a, "a", &format!(r#","author_did":"{owner}""#));
    let signed = sign_grain(&self_authorized, &key(1), None).unwrap();
    assert_eq!(code(s.supersede(&a, &signed.cose, None)), "ERR_INVALIDATION_DENIED");
    let lenient = Store::new(StoreConfig { key_separation: false, ..StoreConfig::fixed_clock(NOW) });
    let a2 = put(&lenient, &protected("a", &format!(r#"{{"mode":"locked","authorized":["{owner}"]}}"#)));
    lenient.supersede(&a2, &signed.cose, None).unwrap();
    // The acting agent is the verified signer, whatever author_did says: a
    // grain the owner signs while naming another author is refused...
    let agent_grain = successor(&a, "a", &format!(r#","author_did":"{}""#, did_of(9)));
    let relabelled = sign_grain(&agent_grain, &key(1), None).unwrap();
    assert_eq!(code(s.supersede(&a, &relabelled.cose, None)), "ERR_INVALIDATION_DENIED");
    // ...and a grain an agent signs, carrying the owner's approval, passes.
    let ok = sign_grain(&successor(&a, "a", &auth_list(&a, "a", &[1])), &key(9), None).unwrap();
    s.supersede(&a, &ok.cose, None).unwrap();
    // A locked grain without `authorized` yields to nobody.
    let sealed = put(&s, &protected("sealed", r#"{"mode":"locked"}"#));
    let any = sign_grain(&successor(&sealed, "sealed", ""), &key(1), None).unwrap();
    assert_eq!(code(s.supersede(&sealed, &any.cose, None)), "ERR_INVALIDATION_DENIED");
}

/// The `supersession_auth` field with each key's approval of replacing
/// `target` by `successor(target, subject, "")`.
fn auth_list(target: &ContentAddress, subject: &str, keys: &[u8]) -> String {
    let payload = supersede_auth_payload(target, &successor(target, subject, "")).unwrap();
    let items: Vec<String> = keys
        .iter()
        .map(|k| format!(r#"{{"$bin":"{}"}}"#, oms::address::hex(&sign_payload(&payload, &key(*k)).unwrap())))
        .collect();
    format!(r#","supersession_auth":[{}]"#, items.join(","))
}

#[test]
fn quorum_counts_distinct_valid_authorized_signatures() {
    let s = store_at(NOW);
    let policy =
        format!(r#"{{"mode":"quorum","threshold":2,"authorized":["{}","{}","{}"]}}"#, did_of(1), did_of(2), did_of(3));
    let a = put(&s, &protected("a", &policy));
    let try_with = |keys: &[u8]| {
        let g = successor(&a, "a", &auth_list(&a, "a", keys));
        s.supersede(&a, &g.encode().unwrap().bytes, None)
    };
    assert_eq!(code(try_with(&[1])), "ERR_INVALIDATION_DENIED");
    assert_eq!(code(try_with(&[1, 1])), "ERR_INVALIDATION_DENIED", "one signer counts once");
    assert_eq!(code(try_with(&[1, 7])), "ERR_INVALIDATION_DENIED", "unauthorized signers do not count");
    // A signature for a different target does not count.
    let other = ContentAddress::of(b"other");
    let proposal = successor(&a, "a", "");
    let wrong = format!(
        r#","supersession_auth":[{{"$bin":"{}"}},{{"$bin":"{}"}}]"#,
        oms::address::hex(&sign_payload(&supersede_auth_payload(&a, &proposal).unwrap(), &key(1)).unwrap()),
        oms::address::hex(&sign_payload(&supersede_auth_payload(&other, &proposal).unwrap(), &key(2)).unwrap())
    );
    let g = successor(&a, "a", &wrong);
    assert_eq!(code(s.supersede(&a, &g.encode().unwrap().bytes, None)), "ERR_INVALIDATION_DENIED");
    try_with(&[1, 3]).unwrap();
    // A quorum policy without a usable threshold fails closed.
    let b = put(&s, &protected("b", &format!(r#"{{"mode":"quorum","authorized":["{}"]}}"#, did_of(1))));
    let g = successor(&b, "b", &auth_list(&b, "b", &[1]));
    assert_eq!(code(s.supersede(&b, &g.encode().unwrap().bytes, None)), "ERR_INVALIDATION_DENIED");
}

#[test]
fn delegated_requires_an_authorized_cose_signature() {
    let s = store_at(NOW);
    let a = put(&s, &protected("a", &format!(r#"{{"mode":"delegated","authorized":["{}"]}}"#, did_of(4))));
    let next = successor(&a, "a", "");
    assert_eq!(code(s.supersede(&a, &next.encode().unwrap().bytes, None)), "ERR_INVALIDATION_DENIED");
    assert_eq!(code(s.supersede(&a, &sign_grain(&next, &key(5), None).unwrap().cose, None)), "ERR_INVALIDATION_DENIED");
    let b = s.supersede(&a, &sign_grain(&next, &key(4), None).unwrap().cose, None).unwrap();
    assert_eq!(s.get(&b).unwrap().signer(), Some(did_of(4).as_str()));
}

#[test]
fn timed_locks_until_then_falls_back() {
    let policy = r#"{"mode":"timed","locked_until":1700000000,"fallback_mode":"open"}"#;
    let early = store_at(1_600_000_000_000);
    let a = put(&early, &protected("a", policy));
    let next = successor(&a, "a", "").encode().unwrap().bytes;
    assert_eq!(code(early.supersede(&a, &next, None)), "ERR_INVALIDATION_DENIED");
    let late = store_at(1_700_000_000_000);
    let a = put(&late, &protected("a", policy));
    late.supersede(&a, &next, None).unwrap();
    // Fallback to a protective mode keeps protecting.
    let strict = store_at(1_700_000_000_000);
    let a = put(&strict, &protected("a", r#"{"mode":"timed","locked_until":1,"fallback_mode":"soft_locked"}"#));
    let next = successor(&a, "a", "").encode().unwrap().bytes;
    assert_eq!(code(strict.supersede(&a, &next, None)), "ERR_INVALIDATION_DENIED");
    strict.supersede(&a, &next, Some("after the embargo")).unwrap();
    // Without locked_until it fails closed.
    let a = put(&strict, &protected("z", r#"{"mode":"timed"}"#));
    assert_eq!(
        code(strict.supersede(&a, &successor(&a, "z", "").encode().unwrap().bytes, Some("x"))),
        "ERR_INVALIDATION_DENIED"
    );
}

#[test]
fn hold_blocks_invalidation_and_erasure() {
    let s = store_at(NOW);
    let a = put(&s, &protected("a", &format!(r#"{{"mode":"hold","authorized":["{}"]}}"#, did_of(1))));
    let next = sign_grain(&successor(&a, "a", ""), &key(1), None).unwrap();
    assert_eq!(code(s.supersede(&a, &next.cose, Some("x"))), "ERR_INVALIDATION_DENIED");
    assert_eq!(s.delete(&a).unwrap_err().code(), "ERR_INVALIDATION_DENIED");
    let sig = sign_payload(&contradict_auth_payload(&a), &key(1)).unwrap();
    assert_eq!(s.contradict(&a, &[sig], Some("x")).unwrap_err().code(), "ERR_INVALIDATION_DENIED");
    assert!(s.exists(&a));
    // A hold with subtree scope also protects derived grains from erasure.
    let root = put(&s, &protected("root", r#"{"mode":"hold","scope":"subtree"}"#));
    let child = put(
        &s,
        &grain(&format!(
            r#"{{"type":"belief","subject":"child","relation":"r","object":"o","confidence":0.5,"created_at":1,"derived_from":["{root}"]}}"#
        )),
    );
    assert_eq!(s.delete(&child).unwrap_err().code(), "ERR_INVALIDATION_DENIED");
    // Other modes do not block compliance erasure.
    let locked = put(&s, &protected("l", r#"{"mode":"locked"}"#));
    s.delete(&locked).unwrap();
}

#[test]
fn consent_cascade_schedules_erasure_on_withdrawal() {
    let s = store_at(NOW);
    let consent = grain(&format!(
        r#"{{"type":"consent","subject_did":"{}","grantee_did":"{}","scope":["store"],"is_withdrawal":false,"created_at":1}}"#,
        did_of(1),
        did_of(2)
    ));
    let c = put(&s, &consent);
    let data = grain(&format!(
        r#"{{"type":"belief","subject":"alice","relation":"likes","object":"x","confidence":0.5,"created_at":2,
        "processing_basis":"{c}","invalidation_policy":{{"mode":"consent_cascade"}}}}"#
    ));
    let d = put(&s, &data);
    let unrelated = put(
        &s,
        &grain(&format!(
            r#"{{"type":"belief","subject":"alice","relation":"likes","object":"y","confidence":0.5,"created_at":3,"processing_basis":"{c}"}}"#
        )),
    );
    // Supersession is unrestricted by consent_cascade.
    assert!(s.scheduled_erasures().is_empty());
    let withdrawal = grain(&format!(
        r#"{{"type":"consent","subject_did":"{}","grantee_did":"{}","scope":["store"],"is_withdrawal":true,"prior_consent":"{c}","created_at":4}}"#,
        did_of(1),
        did_of(2)
    ));
    put(&s, &withdrawal);
    let due = s.scheduled_erasures();
    assert_eq!(due, vec![(d, NOW + 30 * 24 * 3600 * 1000)]);
    assert!(!due.iter().any(|(a, _)| *a == unrelated));
    s.delete(&d).unwrap();
    assert!(s.scheduled_erasures().is_empty());
    assert!(s.exists(&c), "both grant and withdrawal are retained");
}

#[test]
fn unknown_or_missing_mode_fails_closed() {
    let s = store_at(NOW);
    for (i, policy) in [r#"{"mode":"super_open"}"#, r#"{"authorized":[]}"#, r#"{"mode":7}"#].iter().enumerate() {
        let subject = format!("s{i}");
        let a = put(&s, &protected(&subject, policy));
        let next = successor(&a, &subject, "").encode().unwrap().bytes;
        let e = s.supersede(&a, &next, Some("x")).unwrap_err();
        assert_eq!(e.code(), "ERR_INVALIDATION_DENIED");
        assert!(e.to_string().contains("fail closed"), "{e}");
    }
    // An unknown mode with an authorized signer behaves exactly like locked.
    let a = put(&s, &protected("u", &format!(r#"{{"mode":"future_mode","authorized":["{}"]}}"#, did_of(1))));
    let next = sign_grain(&successor(&a, "u", &auth_list(&a, "u", &[1])), &key(9), None).unwrap();
    s.supersede(&a, &next.cose, None).unwrap();
}

#[test]
fn subtree_scope_protects_derived_grains() {
    let s = store_at(NOW);
    let root = put(&s, &protected("root", r#"{"mode":"locked","scope":"subtree"}"#));
    let child = put(
        &s,
        &grain(&format!(
            r#"{{"type":"belief","subject":"child","relation":"constraint","object":"v1","confidence":1.0,"created_at":1,"derived_from":["{root}"]}}"#
        )),
    );
    let next = grain(&format!(
        r#"{{"type":"belief","subject":"child","relation":"constraint","object":"v2","confidence":1.0,"created_at":2,"derived_from":["{child}"]}}"#
    ));
    assert_eq!(code(s.supersede(&child, &next.encode().unwrap().bytes, Some("x"))), "ERR_INVALIDATION_DENIED");
    // With grain scope the derived grain is free.
    let s2 = store_at(NOW);
    let root = put(&s2, &protected("root", r#"{"mode":"locked","scope":"grain"}"#));
    let child = put(
        &s2,
        &grain(&format!(
            r#"{{"type":"belief","subject":"child","relation":"constraint","object":"v1","confidence":1.0,"created_at":1,"derived_from":["{root}"]}}"#
        )),
    );
    let next = grain(&format!(
        r#"{{"type":"belief","subject":"child","relation":"constraint","object":"v2","confidence":1.0,"created_at":2,"derived_from":["{child}"]}}"#
    ));
    s2.supersede(&child, &next.encode().unwrap().bytes, None).unwrap();
}

#[test]
fn subtree_walk_stops_after_sixteen_hops() {
    let s = store_at(NOW);
    let root = put(&s, &protected("root", r#"{"mode":"locked","scope":"subtree"}"#));
    let mut prev = root;
    let mut chain = Vec::new();
    for i in 0..17 {
        prev = put(
            &s,
            &grain(&format!(
                r#"{{"type":"belief","subject":"n{i}","relation":"r","object":"o","confidence":1.0,"created_at":1,"derived_from":["{prev}"]}}"#
            )),
        );
        chain.push(prev);
    }
    let attempt = |target: &ContentAddress, i: usize| {
        let g = grain(&format!(
            r#"{{"type":"belief","subject":"n{i}","relation":"r","object":"o2","confidence":1.0,"created_at":2,"derived_from":["{target}"]}}"#
        ));
        s.supersede(target, &g.encode().unwrap().bytes, None)
    };
    // 16 hops from chain[15] reach the root; chain[16] is 17 hops away.
    assert_eq!(code(attempt(&chain[15], 15)), "ERR_INVALIDATION_DENIED");
    attempt(&chain[16], 16).unwrap();
}

#[test]
fn lineage_scope_closes_chain_injection() {
    let owner = did_of(1);
    let s = store_at(NOW);
    let a = put(&s, &protected("a", &format!(r#"{{"mode":"delegated","authorized":["{owner}"],"scope":"lineage"}}"#)));
    // A' supersedes A with the owner's signature. A' itself carries no policy.
    let a1 = s.supersede(&a, &sign_grain(&successor(&a, "a", ""), &key(1), None).unwrap().cose, None).unwrap();
    // Bypass 3: superseding A' unsigned is still governed by A's lineage policy.
    let a2 = grain(&format!(
        r#"{{"type":"belief","subject":"a","relation":"constraint","object":"v3","confidence":1.0,"created_at":3000,"derived_from":["{a1}"]}}"#
    ));
    let e = s.supersede(&a1, &a2.encode().unwrap().bytes, Some("x")).unwrap_err();
    assert_eq!(e.code(), "ERR_INVALIDATION_DENIED");
    assert!(e.to_string().contains(&a.to_hex()), "the reason names the protecting grain: {e}");
    s.supersede(&a1, &sign_grain(&a2, &key(1), None).unwrap().cose, None).unwrap();
}

#[test]
fn chain_injection_through_the_new_grains_ancestry() {
    let s = store_at(NOW);
    let x = put(
        &s,
        &grain(r#"{"type":"belief","subject":"x","relation":"r","object":"1","confidence":1.0,"created_at":1}"#),
    );
    let guarded = put(&s, &protected("g", r#"{"mode":"locked","scope":"subtree"}"#));
    let sneaky = grain(&format!(
        r#"{{"type":"belief","subject":"x","relation":"r","object":"2","confidence":1.0,"created_at":2,"derived_from":["{x}","{guarded}"]}}"#
    ));
    assert_eq!(code(s.supersede(&x, &sneaky.encode().unwrap().bytes, None)), "ERR_INVALIDATION_DENIED");
    let honest = grain(&format!(
        r#"{{"type":"belief","subject":"x","relation":"r","object":"2","confidence":1.0,"created_at":2,"derived_from":["{x}"]}}"#
    ));
    s.supersede(&x, &honest.encode().unwrap().bytes, None).unwrap();
}

#[test]
fn contradiction_is_subject_to_policy() {
    let s = store_at(NOW);
    let open = put(
        &s,
        &grain(r#"{"type":"belief","subject":"o","relation":"r","object":"1","confidence":1.0,"created_at":1}"#),
    );
    s.contradict(&open, &[], None).unwrap();
    let st = s.get(&open).unwrap().index;
    assert_eq!(st.extra.get("ct"), Some(&Value::Bool(true)));
    assert_eq!(st.system_valid_to, Some(NOW));
    assert_eq!(st.verification_status.as_deref(), Some("contested"));
    assert_eq!(s.query(&Query::default()).unwrap().total, 0, "a contradicted grain leaves the current view");
    let owner = did_of(1);
    let locked = put(&s, &protected("l", &format!(r#"{{"mode":"locked","authorized":["{owner}"]}}"#)));
    assert_eq!(s.contradict(&locked, &[], Some("x")).unwrap_err().code(), "ERR_INVALIDATION_DENIED");
    let wrong_target = sign_payload(&contradict_auth_payload(&open), &key(1)).unwrap();
    assert_eq!(s.contradict(&locked, &[wrong_target], None).unwrap_err().code(), "ERR_INVALIDATION_DENIED");
    assert_eq!(s.set_verification_status(&locked, "retracted", &[]).unwrap_err().code(), "ERR_INVALIDATION_DENIED");
    s.set_verification_status(&locked, "verified", &[]).unwrap();
    let sig = sign_payload(&contradict_auth_payload(&locked), &key(1)).unwrap();
    s.contradict(&locked, &[sig], None).unwrap();
}

#[test]
fn replaces_links_never_touch_the_target() {
    let s = store_at(NOW);
    let a = put(&s, &protected("a", r#"{"mode":"locked"}"#));
    let claim = grain(&format!(
        r#"{{"type":"belief","subject":"a","relation":"constraint","object":"v9","confidence":1.0,"created_at":5,
        "related_to":[{{"hash":"{a}","relation_type":"replaces","weight":1.0}}]}}"#
    ));
    let c = put(&s, &claim);
    let st = s.get(&a).unwrap().index;
    assert!(st.superseded_by.is_none() && st.system_valid_to.is_none() && st.extra.is_empty());
    let current: Vec<ContentAddress> = s.query(&Query::default()).unwrap().results.iter().map(|h| h.address).collect();
    assert!(current.contains(&a) && current.contains(&c));
}

fn goal(state: &str, extra: &str) -> Grain {
    grain(&format!(
        r#"{{"type":"goal","description":"ship v1","goal_state":"{state}","created_at":1000,
        "invalidation_policy":{{"mode":"locked","authorized":["{}"]}},"allowed_transitions":["satisfied"]{extra}}}"#,
        did_of(1)
    ))
}

fn goal_successor(old: &ContentAddress, state: &str, extra: &str) -> Grain {
    grain(&format!(
        r#"{{"type":"goal","description":"ship v1","goal_state":"{state}","created_at":2000,"derived_from":["{old}"],
        "allowed_transitions":["satisfied"]{extra}}}"#
    ))
}

#[test]
fn goal_transitions_and_laundering() {
    let s = store_at(NOW);
    let g = put(&s, &goal("active", ""));
    // Not an allowed transition: full policy applies.
    let failed = goal_successor(&g, "failed", r#","satisfaction_evidence":["x"]"#);
    assert_eq!(code(s.supersede(&g, &failed.encode().unwrap().bytes, None)), "ERR_INVALIDATION_DENIED");
    // Allowed transition without evidence.
    let bare = goal_successor(&g, "satisfied", "");
    assert_eq!(code(s.supersede(&g, &bare.encode().unwrap().bytes, None)), "ERR_EVIDENCE_REQUIRED");
    // Allowed transition that also rewrites the goal is not autonomous.
    let rewritten = grain(&format!(
        r#"{{"type":"goal","description":"ship something","goal_state":"satisfied","created_at":2000,"derived_from":["{g}"],
        "allowed_transitions":["satisfied"],"satisfaction_evidence":["e1"]}}"#
    ));
    assert_eq!(code(s.supersede(&g, &rewritten.encode().unwrap().bytes, None)), "ERR_INVALIDATION_DENIED");
    // With evidence it passes, and the new goal inherits the policy (§23.5).
    let done = goal_successor(&g, "satisfied", r#","satisfaction_evidence":["e1"]"#);
    let d = s.supersede(&g, &done.encode().unwrap().bytes, None).unwrap();
    let inherited = s.get(&d).unwrap().index.extra.get("ipi").cloned();
    assert!(matches!(inherited, Some(Value::Map(ref m)) if m.get("mode") == Some(&Value::from("locked"))));
    // Laundering attempt: replace the satisfied goal with an unprotected one.
    let relaunder = grain(&format!(
        r#"{{"type":"goal","description":"do anything","goal_state":"active","created_at":3000,"derived_from":["{d}"]}}"#
    ));
    assert_eq!(code(s.supersede(&d, &relaunder.encode().unwrap().bytes, Some("x"))), "ERR_INVALIDATION_DENIED");
}

#[test]
fn evidence_required_counts() {
    let s = store_at(NOW);
    let g = put(&s, &goal("active", r#","evidence_required":2"#));
    let one = goal_successor(&g, "satisfied", r#","evidence_required":2,"satisfaction_evidence":["e1"]"#);
    assert_eq!(code(s.supersede(&g, &one.encode().unwrap().bytes, None)), "ERR_EVIDENCE_REQUIRED");
    let two = goal_successor(&g, "satisfied", r#","evidence_required":2,"satisfaction_evidence":["e1","e2"]"#);
    s.supersede(&g, &two.encode().unwrap().bytes, None).unwrap();
    // With the SHOULD turned off and no evidence_required, no evidence is needed.
    let lax = Store::new(StoreConfig { require_transition_evidence: false, ..StoreConfig::fixed_clock(NOW) });
    let g = put(&lax, &goal("active", ""));
    lax.supersede(&g, &goal_successor(&g, "satisfied", "").encode().unwrap().bytes, None).unwrap();
}

#[test]
fn unprotected_goals_transition_freely() {
    let s = store_at(NOW);
    let g = put(&s, &grain(r#"{"type":"goal","description":"d","goal_state":"active","created_at":1}"#));
    let next = grain(&format!(
        r#"{{"type":"goal","description":"d2","goal_state":"failed","created_at":2,"derived_from":["{g}"]}}"#
    ));
    s.supersede(&g, &next.encode().unwrap().bytes, None).unwrap();
    let _unused: Map = Map::new();
}
