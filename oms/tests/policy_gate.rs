//! Four holes once open in the invalidation gate, each pinned on both stores
//! (the in-memory `Store` and the SQLite `DurableStore`, which judges every
//! write with the in-memory code on a scratch store):
//!
//! 1. quorum approvals bind the content of the superseding grain, not only
//!    the address it replaces (docs/spec-decisions-oms.md S3);
//! 2. key separation takes the acting agent from the verified signer, not
//!    from the self-declared `author_did` (S2);
//! 3. a goal is not written `active` while a goal it `depends_on` is not
//!    `satisfied` (§8.7, S26);
//! 4. a Consent grain without a policy is `soft_locked` (§8.10 rule 4, S27).

use ed25519_dalek::SigningKey;
use oms::cose::{sign_grain, sign_payload};
use oms::durable::DurableStore;
use oms::mg::{self, IndexState, Manifest, PackOptions};
use oms::store::policy::{supersede_auth_digest, supersede_auth_payload};
use oms::store::{Store, StoreConfig};
use oms::{ContentAddress, Grain, Value, did};

const NOW: i64 = 1_800_000_000_000;

fn key(n: u8) -> SigningKey {
    SigningKey::from_bytes(&[n; 32])
}

fn did_of(n: u8) -> String {
    did::encode_ed25519(&key(n).verifying_key())
}

fn grain(json: &str) -> Grain {
    Grain::from_json_str(json).unwrap()
}

fn bytes(g: &Grain) -> Vec<u8> {
    g.encode().unwrap().bytes
}

fn addr(g: &Grain) -> ContentAddress {
    ContentAddress::of(&bytes(g))
}

/// The two stores, seen through the operations these tests need.
trait Gate {
    fn put(&self, entry: &[u8]) -> oms::Result<ContentAddress>;
    fn supersede(&self, old: &ContentAddress, entry: &[u8], why: Option<&str>) -> oms::Result<ContentAddress>;
    fn review(&self, a: &ContentAddress) -> bool;
}

impl Gate for Store {
    fn put(&self, entry: &[u8]) -> oms::Result<ContentAddress> {
        Store::put(self, entry)
    }
    fn supersede(&self, old: &ContentAddress, entry: &[u8], why: Option<&str>) -> oms::Result<ContentAddress> {
        Store::supersede(self, old, entry, why)
    }
    fn review(&self, a: &ContentAddress) -> bool {
        self.get(a).unwrap().index.extra.get("review") == Some(&Value::Bool(true))
    }
}

impl Gate for DurableStore {
    fn put(&self, entry: &[u8]) -> oms::Result<ContentAddress> {
        DurableStore::put(self, entry)
    }
    fn supersede(&self, old: &ContentAddress, entry: &[u8], why: Option<&str>) -> oms::Result<ContentAddress> {
        DurableStore::supersede(self, old, entry, why)
    }
    fn review(&self, a: &ContentAddress) -> bool {
        self.get(a).unwrap().unwrap().index.extra.get("review") == Some(&Value::Bool(true))
    }
}

/// Runs `case` on a fresh in-memory store and on a fresh database, with the
/// default configuration (key separation on) and a fixed clock.
fn on_both(case: impl Fn(&dyn Gate, &str)) {
    case(&Store::new(StoreConfig::fixed_clock(NOW)), "memory");
    let dir = tempfile::tempdir().unwrap();
    let db = DurableStore::create(&dir.path().join("gate.db"), StoreConfig::fixed_clock(NOW)).unwrap();
    case(&db, "durable");
}

fn code(r: oms::Result<ContentAddress>) -> &'static str {
    r.map(|_| ()).unwrap_err().code()
}

fn belief(subject: &str, object: &str, created: i64, extra: &str) -> Grain {
    grain(&format!(
        r#"{{"type":"belief","subject":"{subject}","relation":"limit","object":"{object}","confidence":1.0,"created_at":{created}{extra}}}"#
    ))
}

fn successor(old: &ContentAddress, subject: &str, object: &str, extra: &str) -> Grain {
    belief(subject, object, 2000, &format!(r#","derived_from":["{old}"]{extra}"#))
}

/// `grain` with `supersession_auth` holding each key's approval of replacing
/// `old` by `approved` (which may differ from `grain`: reused approvals).
fn with_approvals(
    grain_json_extra: impl Fn(&str) -> Grain,
    old: &ContentAddress,
    approved: &Grain,
    keys: &[u8],
) -> Grain {
    let payload = supersede_auth_payload(old, approved).unwrap();
    let items: Vec<String> = keys
        .iter()
        .map(|k| format!(r#"{{"$bin":"{}"}}"#, oms::address::hex(&sign_payload(&payload, &key(*k)).unwrap())))
        .collect();
    grain_json_extra(&format!(r#","supersession_auth":[{}]"#, items.join(",")))
}

fn quorum_policy(threshold: u8, keys: &[u8]) -> String {
    let dids: Vec<String> = keys.iter().map(|k| format!("\"{}\"", did_of(*k))).collect();
    format!(r#","invalidation_policy":{{"mode":"quorum","threshold":{threshold},"authorized":[{}]}}"#, dids.join(","))
}

// ---- 1. Approvals bind the new grain's content ----

#[test]
fn the_approval_payload_names_the_target_and_the_content_without_its_approvals() {
    let old = ContentAddress::of(b"old");
    let proposal = successor(&old, "a", "v2", "");
    let digest = supersede_auth_digest(&proposal).unwrap();
    assert_eq!(digest, addr(&proposal).to_hex(), "without approvals the digest is the proposal's address");
    assert_eq!(supersede_auth_payload(&old, &proposal).unwrap(), format!("oms-supersede:{old}:{digest}").into_bytes());
    // Embedding approvals, or signing the grain, does not change what was approved.
    let carried = with_approvals(|x| successor(&old, "a", "v2", x), &old, &proposal, &[1, 2]);
    assert_eq!(supersede_auth_digest(&carried).unwrap(), digest);
    let mut signed = carried.clone();
    signed.options.signed = true;
    assert_eq!(supersede_auth_digest(&signed).unwrap(), digest);
    // Other content is another digest.
    assert_ne!(supersede_auth_digest(&successor(&old, "a", "v3", "")).unwrap(), digest);
}

#[test]
fn quorum_approvals_cannot_be_reused_on_other_content() {
    on_both(|s, store| {
        let a = s.put(&bytes(&belief("acct", "100", 1000, &quorum_policy(2, &[1, 2, 3])))).unwrap();
        let honest = successor(&a, "acct", "200", "");
        let attack = with_approvals(|x| successor(&a, "acct", "999999", x), &a, &honest, &[1, 2]);
        assert_eq!(code(s.supersede(&a, &bytes(&attack), None)), "ERR_INVALIDATION_DENIED", "{store}");
        // Approvals over the old payload (the target alone) no longer count either.
        let bare: Vec<String> = [1u8, 2]
            .iter()
            .map(|k| {
                let sig = sign_payload(format!("oms-supersede:{a}").as_bytes(), &key(*k)).unwrap();
                format!(r#"{{"$bin":"{}"}}"#, oms::address::hex(&sig))
            })
            .collect();
        let old_style = successor(&a, "acct", "200", &format!(r#","supersession_auth":[{}]"#, bare.join(",")));
        assert_eq!(code(s.supersede(&a, &bytes(&old_style), None)), "ERR_INVALIDATION_DENIED", "{store}");
        // The same approvals on the content they signed pass, signed by a third party too.
        let carried = with_approvals(|x| successor(&a, "acct", "200", x), &a, &honest, &[1, 2]);
        let envelope = sign_grain(&carried, &key(8), None).unwrap().cose;
        s.supersede(&a, &envelope, None).unwrap_or_else(|e| panic!("{store}: {e}"));
    });
}

/// A `.mg` file that claims a supersession passed on reused approvals is
/// refused on import and by `mg::verify`, like the write it records.
#[test]
fn a_manifest_claim_resting_on_reused_approvals_is_refused() {
    let old = belief("acct", "100", 1000, &quorum_policy(2, &[1, 2]));
    let a = addr(&old);
    let honest = successor(&a, "acct", "200", "");
    for (content, ok) in [("999999", false), ("200", true)] {
        let new = with_approvals(|x| successor(&a, "acct", content, x), &a, &honest, &[1, 2]);
        let mut m = Manifest::new();
        m.insert(
            a,
            IndexState { superseded_by: Some(addr(&new)), system_valid_to: Some(NOW), ..IndexState::default() },
        );
        let file =
            mg::pack([bytes(&old), bytes(&new)].iter().map(Vec::as_slice), Some(&m), &PackOptions::default()).unwrap();
        assert_eq!(mg::verify(&file).is_ok(), ok, "{content}");
        let memory = Store::new(StoreConfig::fixed_clock(NOW));
        assert_eq!(memory.import(&file).is_ok(), ok, "{content}");
        let dir = tempfile::tempdir().unwrap();
        let db = DurableStore::create(&dir.path().join("m.db"), StoreConfig::fixed_clock(NOW)).unwrap();
        let got = db.import_mg(&file).map(|_| ()).map_err(|e| e.code());
        assert_eq!(got.is_ok(), ok, "{content}: {got:?}");
        if !ok {
            assert_eq!(got, Err("ERR_INVALIDATION_DENIED"));
        }
    }
}

// ---- 2. Key separation uses the verified signer ----

#[test]
fn a_signer_cannot_approve_its_own_supersession_by_leaving_out_author_did() {
    on_both(|s, store| {
        // locked: X signs the new grain and adds its own approval; no author_did.
        let locked = format!(r#","invalidation_policy":{{"mode":"locked","authorized":["{}"]}}"#, did_of(1));
        let a = s.put(&bytes(&belief("l", "v1", 1000, &locked))).unwrap();
        let proposal = successor(&a, "l", "v2", "");
        let own = with_approvals(|x| successor(&a, "l", "v2", x), &a, &proposal, &[1]);
        let env = sign_grain(&own, &key(1), None).unwrap().cose;
        assert_eq!(code(s.supersede(&a, &env, None)), "ERR_INVALIDATION_DENIED", "{store}: locked");
        // Declaring another author does not help: the signer is the agent.
        let author = format!(r#","author_did":"{}""#, did_of(9));
        let lie_proposal = successor(&a, "l", "v2", &author);
        let lie = with_approvals(|x| successor(&a, "l", "v2", &format!("{author}{x}")), &a, &lie_proposal, &[1]);
        let env = sign_grain(&lie, &key(1), None).unwrap().cose;
        assert_eq!(code(s.supersede(&a, &env, None)), "ERR_INVALIDATION_DENIED", "{store}: locked, author_did lie");
        // The owner's approval on a grain another key signed passes.
        let env = sign_grain(&own, &key(9), None).unwrap().cose;
        s.supersede(&a, &env, None).unwrap_or_else(|e| panic!("{store}: {e}"));

        // quorum: X signs and approves, Y approves; X's approval does not count.
        let q = s.put(&bytes(&belief("q", "v1", 1000, &quorum_policy(2, &[1, 2, 3])))).unwrap();
        let proposal = successor(&q, "q", "v2", "");
        let two = with_approvals(|x| successor(&q, "q", "v2", x), &q, &proposal, &[1, 2]);
        let env = sign_grain(&two, &key(1), None).unwrap().cose;
        assert_eq!(code(s.supersede(&q, &env, None)), "ERR_INVALIDATION_DENIED", "{store}: quorum");
        let three = with_approvals(|x| successor(&q, "q", "v2", x), &q, &proposal, &[1, 2, 3]);
        let env = sign_grain(&three, &key(1), None).unwrap().cose;
        s.supersede(&q, &env, None).unwrap_or_else(|e| panic!("{store}: {e}"));
    });
}

// ---- 3. depends_on gates the active state ----

fn goal(description: &str, state: &str, created: i64, extra: &str) -> Grain {
    grain(&format!(
        r#"{{"type":"goal","description":"{description}","goal_state":"{state}","created_at":{created}{extra}}}"#
    ))
}

fn depends_on(addresses: &[ContentAddress]) -> String {
    let list: Vec<String> = addresses.iter().map(|a| format!("\"{a}\"")).collect();
    format!(r#","depends_on":[{}]"#, list.join(","))
}

#[test]
fn an_active_goal_waits_for_the_goals_it_depends_on() {
    on_both(|s, store| {
        let done = s.put(&bytes(&goal("write the spec", "satisfied", 1000, ""))).unwrap();
        let open = s.put(&bytes(&goal("review the spec", "active", 1001, ""))).unwrap();
        let note = s.put(&bytes(&belief("n", "v1", 1002, ""))).unwrap();
        let ghost = ContentAddress::of(b"ghost");
        let cases = [
            ("a dependency still active", vec![done, open], "ERR_CONFLICT"),
            ("a dependency not stored", vec![ghost], "ERR_CONFLICT"),
            ("a dependency that is not a goal", vec![note], "ERR_SCHEMA"),
        ];
        for (what, deps, want) in &cases {
            let g = goal("ship it", "active", 2000, &depends_on(deps));
            assert_eq!(code(s.put(&bytes(&g))), *want, "{store}: {what}");
        }
        // Waiting (not active) is fine, and so is active once all are satisfied.
        s.put(&bytes(&goal("ship it", "suspended", 2000, &depends_on(&[done, open])))).unwrap();
        s.put(&bytes(&goal("ship it", "active", 2001, &depends_on(&[done])))).unwrap();
    });
}

/// The dependency is judged by the head of its version chain: a goal made
/// `satisfied` by supersession satisfies the goals that name its first version.
fn dependency_head_case(s: &dyn Gate, store: &str) {
    let first = s.put(&bytes(&goal("review the spec", "active", 1000, ""))).unwrap();
    let waiting = s.put(&bytes(&goal("ship it", "suspended", 1001, &depends_on(&[first])))).unwrap();
    let start = |created: i64| {
        goal("ship it", "active", created, &format!(r#"{},"derived_from":["{waiting}"]"#, depends_on(&[first])))
    };
    assert_eq!(code(s.supersede(&waiting, &bytes(&start(1500)), None)), "ERR_CONFLICT", "{store}");
    let done = goal(
        "review the spec",
        "satisfied",
        1200,
        &format!(r#","derived_from":["{first}"],"satisfaction_evidence":["reviewed"]"#),
    );
    s.supersede(&first, &bytes(&done), None).unwrap();
    s.supersede(&waiting, &bytes(&start(1600)), None).unwrap_or_else(|e| panic!("{store}: {e}"));
}

#[test]
fn a_dependency_is_judged_by_the_head_of_its_chain_and_supersede_is_gated_too() {
    dependency_head_case(&Store::new(StoreConfig::fixed_clock(NOW)), "memory");
}

/// The durable store loads a write's `depends_on` targets (`Seeds::for_new`)
/// but not yet their successors (its working set follows supersession links
/// backwards only), so the head of a dependency's chain is not in the scratch
/// store and the check fails closed. Un-ignore once the working set follows
/// `superseded_by` forward from the `depends_on` seeds.
#[test]
fn a_dependency_is_judged_by_the_head_of_its_chain_on_the_durable_store() {
    let dir = tempfile::tempdir().unwrap();
    let db = DurableStore::create(&dir.path().join("heads.db"), StoreConfig::fixed_clock(NOW)).unwrap();
    dependency_head_case(&db, "durable");
}

// ---- 4. Consent grains are soft_locked by default ----

fn consent(created: i64, scope: &str, extra: &str) -> Grain {
    grain(&format!(
        r#"{{"type":"consent","subject_did":"{}","grantee_did":"{}","scope":[{scope}],"is_withdrawal":false,"created_at":{created}{extra}}}"#,
        did_of(1),
        did_of(2)
    ))
}

#[test]
fn a_consent_without_a_policy_is_soft_locked() {
    on_both(|s, store| {
        let c = s.put(&bytes(&consent(1000, r#""store""#, ""))).unwrap();
        let next = consent(2000, r#""store","share""#, &format!(r#","derived_from":["{c}"]"#));
        assert_eq!(code(s.supersede(&c, &bytes(&next), None)), "ERR_INVALIDATION_DENIED", "{store}");
        assert_eq!(code(s.supersede(&c, &bytes(&next), Some("  "))), "ERR_INVALIDATION_DENIED", "{store}");
        let n = s.supersede(&c, &bytes(&next), Some("the user widened the scope")).unwrap();
        assert!(s.review(&n), "{store}: accepted under soft_locked is flagged for review");
        // The justification may travel in the grain.
        let then = consent(
            3000,
            r#""store","share""#,
            &format!(r#","derived_from":["{n}"],"supersession_justification":"renewed""#),
        );
        let m = s.supersede(&n, &bytes(&then), None).unwrap();
        assert!(s.review(&m), "{store}");
        // An explicit policy still wins over the default.
        let o = s.put(&bytes(&consent(4000, r#""store""#, r#","invalidation_policy":{"mode":"open"}"#))).unwrap();
        let free =
            consent(5000, r#""share""#, &format!(r#","derived_from":["{o}"],"invalidation_policy":{{"mode":"open"}}"#));
        let f = s.supersede(&o, &bytes(&free), None).unwrap();
        assert!(!s.review(&f), "{store}");
    });
}
