//! The claims of a `.mg` manifest (§11.7) are judged, not merely merged: a
//! forged `superseded_by` on a locked grain, one that names a grain that
//! exists nowhere, a lone `system_valid_to`, a forged contradiction or
//! inherited policy fail `mg::verify` and `Store::import` with their code and
//! load nothing; honest claims — including those that needed a signature, a
//! quorum or a justification — still load after a save.

use ed25519_dalek::SigningKey;
use oms::cose::{sign_grain, sign_payload};
use oms::mg::{self, IndexState, Manifest, PackOptions};
use oms::store::policy::{contradict_auth_payload, supersede_auth_payload};
use oms::store::{Query, SaveOptions, Store, StoreConfig};
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

fn belief(subject: &str, object: &str, created: i64, extra: &str) -> Grain {
    grain(&format!(
        r#"{{"type":"belief","subject":"{subject}","relation":"constraint","object":"{object}","confidence":1.0,"created_at":{created}{extra}}}"#
    ))
}

fn locked(subject: &str) -> Grain {
    belief(
        subject,
        "v1",
        1000,
        &format!(r#","invalidation_policy":{{"mode":"locked","authorized":["{}"]}}"#, did_of(1)),
    )
}

fn successor(old: &ContentAddress, subject: &str, extra: &str) -> Grain {
    belief(subject, "v2", 2000, &format!(r#","derived_from":["{old}"]{extra}"#))
}

fn blob(g: &Grain) -> Vec<u8> {
    g.encode().unwrap().bytes
}

fn store() -> Store {
    Store::new(StoreConfig::fixed_clock(NOW))
}

/// Packs entries with a manifest, as an editor of the file would (the footer recomputed).
fn forge(entries: &[Vec<u8>], manifest: &Manifest) -> Vec<u8> {
    mg::pack(entries.iter().map(Vec::as_slice), Some(manifest), &PackOptions::default()).unwrap()
}

fn superseded(by: ContentAddress) -> IndexState {
    IndexState { superseded_by: Some(by), system_valid_to: Some(NOW), ..IndexState::default() }
}

fn codes(file: &[u8]) -> Vec<&'static str> {
    mg::verify(file).errors.iter().map(oms::OmsError::code).collect()
}

fn current(s: &Store) -> Vec<ContentAddress> {
    let mut v: Vec<ContentAddress> = s.query(&Query::default()).unwrap().results.iter().map(|h| h.address).collect();
    v.sort();
    v
}

#[test]
fn a_forged_supersession_of_a_locked_grain_is_refused_everywhere() {
    let protected = blob(&locked("a"));
    let a = ContentAddress::of(&protected);
    let forged = blob(&successor(&a, "a", ""));
    let b = ContentAddress::of(&forged);
    let mut m = Manifest::new();
    m.insert(a, superseded(b));
    let file = forge(&[protected.clone(), forged.clone()], &m);
    // The footer is fine and every grain is valid: only the claim is wrong.
    let report = mg::verify(&file);
    assert!(report.checksum_ok && report.entries.iter().all(|e| e.error.is_none()));
    assert_eq!(codes(&file), ["ERR_INVALIDATION_DENIED"]);
    assert!(report.errors[0].to_string().contains("locked"), "{}", report.errors[0]);
    // Store::import loads nothing, into an empty store or one that already holds grains.
    let s = store();
    let other = s.put(&blob(&belief("z", "x", 1, ""))).unwrap();
    assert_eq!(s.import(&file).unwrap_err().code(), "ERR_INVALIDATION_DENIED");
    assert_eq!(s.len(), 1);
    assert_eq!(current(&s), vec![other]);
    assert_eq!(Store::load(&file, StoreConfig::fixed_clock(NOW)).unwrap_err().code(), "ERR_INVALIDATION_DENIED");
    // Even when the store already holds the locked grain, the claim cannot hide it.
    let t = store();
    t.put(&protected).unwrap();
    assert_eq!(t.import(&file).unwrap_err().code(), "ERR_INVALIDATION_DENIED");
    assert_eq!((t.len(), current(&t)), (1, vec![a]), "the import was undone");
    assert!(t.peek(&a).unwrap().index.superseded_by.is_none());
}

#[test]
fn a_claim_naming_a_grain_that_exists_nowhere_is_an_integrity_error() {
    let plain = blob(&belief("a", "v1", 1, ""));
    let a = ContentAddress::of(&plain);
    let ghost = ContentAddress::of(b"no such grain");
    let mut m = Manifest::new();
    m.insert(a, superseded(ghost));
    let file = forge(std::slice::from_ref(&plain), &m);
    assert_eq!(codes(&file), ["ERR_INTEGRITY"]);
    assert!(mg::verify(&file).errors[0].to_string().contains("neither the file nor the store"));
    let s = store();
    assert_eq!(s.import(&file).unwrap_err().code(), "ERR_INTEGRITY");
    assert!(s.is_empty());
    // For an import, a superseding grain already in the store is as good as one in the file.
    let next = blob(&successor(&a, "a", ""));
    let b = ContentAddress::of(&next);
    let mut m = Manifest::new();
    m.insert(a, superseded(b));
    let file = forge(std::slice::from_ref(&plain), &m);
    assert_eq!(codes(&file), ["ERR_INTEGRITY"], "verify sees only the file");
    let t = store();
    t.put(&next).unwrap();
    assert_eq!(t.import(&file).unwrap(), 1);
    assert_eq!(t.peek(&a).unwrap().index.superseded_by, Some(b));
    assert_eq!(current(&t), vec![b]);
}

#[test]
fn a_valid_claim_loads_and_hides_the_superseded_grain() {
    let old = blob(&belief("a", "v1", 1, ""));
    let a = ContentAddress::of(&old);
    let next = blob(&successor(&a, "a", ""));
    let b = ContentAddress::of(&next);
    let mut m = Manifest::new();
    m.insert(a, superseded(b));
    let file = forge(&[old, next], &m);
    assert!(mg::verify(&file).is_ok(), "{:?}", mg::verify(&file).errors);
    let s = Store::load(&file, StoreConfig::fixed_clock(NOW)).unwrap();
    assert_eq!(current(&s), vec![b]);
    assert_eq!(s.history(&b).unwrap().len(), 2, "the chain link is rebuilt");
}

#[test]
fn claims_that_needed_authority_survive_a_save_and_load() {
    let s = store();
    // locked: signed by an agent, approved by the authorized owner (key
    // separation: the owner's own signature would not count, §23.8).
    let l = s.put(&blob(&locked("l"))).unwrap();
    let approval = sign_payload(&supersede_auth_payload(&l, &successor(&l, "l", "")).unwrap(), &key(1)).unwrap();
    let approved = format!(r#","supersession_auth":[{{"$bin":"{}"}}]"#, oms::address::hex(&approval));
    let signed = sign_grain(&successor(&l, "l", &approved), &key(9), None).unwrap();
    s.supersede(&l, &signed.cose, None).unwrap();
    // quorum: two cosignatures carried in the grain.
    let q_policy = format!(
        r#","invalidation_policy":{{"mode":"quorum","threshold":2,"authorized":["{}","{}"]}}"#,
        did_of(1),
        did_of(2)
    );
    let q = s.put(&blob(&belief("q", "v1", 1000, &q_policy))).unwrap();
    let auth: Vec<String> = [1u8, 2]
        .iter()
        .map(|k| {
            format!(
                r#"{{"$bin":"{}"}}"#,
                oms::address::hex(
                    &sign_payload(&supersede_auth_payload(&q, &successor(&q, "q", "")).unwrap(), &key(*k)).unwrap()
                )
            )
        })
        .collect();
    s.supersede(&q, &blob(&successor(&q, "q", &format!(r#","supersession_auth":[{}]"#, auth.join(",")))), None)
        .unwrap();
    // soft_locked: the justification was given with the request, not in the grain.
    let soft = s.put(&blob(&belief("s", "v1", 1000, r#","invalidation_policy":{"mode":"soft_locked"}"#))).unwrap();
    s.supersede(&soft, &blob(&successor(&soft, "s", "")), Some("the user corrected it")).unwrap();
    // A contradiction of a locked grain, authorized by the owner's signature.
    let c = s.put(&blob(&locked("c"))).unwrap();
    s.contradict(&c, &[sign_payload(&contradict_auth_payload(&c), &key(1)).unwrap()], Some("wrong")).unwrap();
    // A retraction of a locked grain, likewise.
    let r = s.put(&blob(&locked("r"))).unwrap();
    s.set_verification_status(&r, "retracted", &[sign_payload(&contradict_auth_payload(&r), &key(1)).unwrap()])
        .unwrap();

    let file = s.save(&SaveOptions::default()).unwrap();
    assert!(mg::verify(&file).is_ok(), "{:?}", mg::verify(&file).errors);
    let t = Store::load(&file, StoreConfig::fixed_clock(NOW)).unwrap();
    assert_eq!(current(&t), current(&s));
    assert_eq!(t.save(&SaveOptions::default()).unwrap(), file, "save(load(f)) == f");
    for a in [l, q, soft, c, r] {
        assert_eq!(t.peek(&a).unwrap().index.portable_only(), s.peek(&a).unwrap().index.portable_only());
    }
    // Importing the same file again changes nothing.
    assert_eq!(t.import(&file).unwrap(), 0);
    assert_eq!(t.save(&SaveOptions::default()).unwrap(), file);
}

#[test]
fn a_removed_proof_makes_the_claim_fail() {
    let s = store();
    let soft = s.put(&blob(&belief("s", "v1", 1000, r#","invalidation_policy":{"mode":"soft_locked"}"#))).unwrap();
    let b = s.supersede(&soft, &blob(&successor(&soft, "s", "")), Some("the user corrected it")).unwrap();
    let c = s.put(&blob(&locked("c"))).unwrap();
    s.contradict(&c, &[sign_payload(&contradict_auth_payload(&c), &key(1)).unwrap()], None).unwrap();
    let entries: Vec<Vec<u8>> = s.addresses().iter().map(|a| s.peek(a).unwrap().entry().to_vec()).collect();
    let full = oms::mg::MgFile::open(&s.save(&SaveOptions::default()).unwrap()).unwrap().manifest().unwrap().clone();
    // Without the justification, the soft_locked supersession has no basis.
    let mut m = full.clone();
    m.get_mut(&b).unwrap().extra.remove("sj");
    assert_eq!(codes(&forge(&entries, &m)), ["ERR_INVALIDATION_DENIED"]);
    // Without the owner's signature, the contradiction of the locked grain has none.
    let mut m = full.clone();
    m.get_mut(&c).unwrap().extra.remove("ia");
    let file = forge(&entries, &m);
    assert_eq!(codes(&file), ["ERR_INVALIDATION_DENIED"]);
    assert_eq!(store().import(&file).unwrap_err().code(), "ERR_INVALIDATION_DENIED");
    // A signature by someone else is no better.
    let mut m = full;
    let stranger = sign_payload(&contradict_auth_payload(&c), &key(7)).unwrap();
    m.get_mut(&c).unwrap().extra.insert("ia".into(), Value::Array(vec![Value::Bin(stranger)]));
    assert_eq!(codes(&forge(&entries, &m)), ["ERR_INVALIDATION_DENIED"]);
}

#[test]
fn bypass_rules_apply_to_claims() {
    // hold: nothing supersedes it, whatever it carries.
    let held = blob(&belief("h", "v1", 1000, r#","invalidation_policy":{"mode":"hold"}"#));
    let h = ContentAddress::of(&held);
    let next = sign_grain(&successor(&h, "h", ""), &key(1), None).unwrap();
    let mut m = Manifest::new();
    m.insert(h, superseded(next.address));
    assert_eq!(codes(&forge(&[held, next.cose], &m)), ["ERR_INVALIDATION_DENIED"]);
    // quorum without approvals.
    let q_policy =
        format!(r#","invalidation_policy":{{"mode":"quorum","threshold":1,"authorized":["{}"]}}"#, did_of(1));
    let quorum = blob(&belief("q", "v1", 1000, &q_policy));
    let q = ContentAddress::of(&quorum);
    let bare = blob(&successor(&q, "q", ""));
    let mut m = Manifest::new();
    m.insert(q, superseded(ContentAddress::of(&bare)));
    assert_eq!(codes(&forge(&[quorum, bare], &m)), ["ERR_INVALIDATION_DENIED"]);
    // subtree: a grain derived from a protected root cannot be superseded without its authority.
    let root = blob(&belief("root", "v1", 1000, r#","invalidation_policy":{"mode":"locked","scope":"subtree"}"#));
    let r = ContentAddress::of(&root);
    let child = blob(&belief("child", "v1", 1100, &format!(r#","derived_from":["{r}"]"#)));
    let c = ContentAddress::of(&child);
    let child2 = blob(&successor(&c, "child", ""));
    let mut m = Manifest::new();
    m.insert(c, superseded(ContentAddress::of(&child2)));
    assert_eq!(codes(&forge(&[root.clone(), child.clone(), child2], &m)), ["ERR_INVALIDATION_DENIED"]);
    // lineage: the second link of a chain that starts at a lineage-protected grain, even
    // when the first link is claimed too (chain order: the first is judged, and refused).
    let first = blob(&belief("lin", "v1", 1000, r#","invalidation_policy":{"mode":"locked","scope":"lineage"}"#));
    let f = ContentAddress::of(&first);
    let second = blob(&successor(&f, "lin", ""));
    let s2 = ContentAddress::of(&second);
    let third = blob(&belief("lin", "v3", 3000, &format!(r#","derived_from":["{s2}"]"#)));
    let mut m = Manifest::new();
    m.insert(f, superseded(s2));
    m.insert(s2, superseded(ContentAddress::of(&third)));
    let problems = codes(&forge(&[first, second, third], &m));
    assert!(!problems.is_empty() && problems.iter().all(|c| *c == "ERR_INVALIDATION_DENIED"), "{problems:?}");
    // Type and derived_from rules: a claim by a grain that does not derive from its target.
    let x = blob(&belief("x", "v1", 1, ""));
    let unrelated = blob(&belief("y", "v1", 2, ""));
    let mut m = Manifest::new();
    m.insert(ContentAddress::of(&x), superseded(ContentAddress::of(&unrelated)));
    assert_eq!(codes(&forge(&[x, unrelated], &m)), ["ERR_SCHEMA"]);
}

#[test]
fn other_hiding_claims_are_judged_too() {
    let protected = blob(&locked("a"));
    let a = ContentAddress::of(&protected);
    let open = blob(&belief("o", "v1", 1, ""));
    let o = ContentAddress::of(&open);
    for (label, st) in [
        (
            "contradicted",
            IndexState {
                extra: [("ct".to_string(), Value::Bool(true))].into_iter().collect(),
                ..IndexState::default()
            },
        ),
        ("lone system_valid_to", IndexState { system_valid_to: Some(5), ..IndexState::default() }),
        ("retracted", IndexState { verification_status: Some("retracted".into()), ..IndexState::default() }),
        ("contested", IndexState { verification_status: Some("contested".into()), ..IndexState::default() }),
    ] {
        let mut m = Manifest::new();
        m.insert(a, st.clone());
        assert_eq!(codes(&forge(&[protected.clone(), open.clone()], &m)), ["ERR_INVALIDATION_DENIED"], "{label}");
        // The same claim on an open grain is what anyone may do: accepted.
        let mut m = Manifest::new();
        m.insert(o, st);
        let file = forge(&[protected.clone(), open.clone()], &m);
        assert!(mg::verify(&file).is_ok(), "{label}: {:?}", mg::verify(&file).errors);
        Store::load(&file, StoreConfig::fixed_clock(NOW)).unwrap();
    }
    // "verified" takes nothing out of the current view and needs no authority.
    let mut m = Manifest::new();
    m.insert(a, IndexState { verification_status: Some("verified".into()), ..IndexState::default() });
    assert!(mg::verify(&forge(&[protected.clone(), open.clone()], &m)).is_ok());
    // An inherited policy no goal transition gave is a forged claim (it could weaken a grain's policy).
    let mut m = Manifest::new();
    let mut open_policy = oms::Map::new();
    open_policy.insert("mode".into(), Value::Str("open".into()));
    m.insert(
        a,
        IndexState {
            extra: [("ipi".to_string(), Value::Map(open_policy))].into_iter().collect(),
            ..IndexState::default()
        },
    );
    assert_eq!(codes(&forge(&[protected, open], &m)), ["ERR_INVALIDATION_DENIED"]);
}

#[test]
fn conflicting_claims_are_refused() {
    let s = store();
    let a = s.put(&blob(&belief("a", "v1", 1, ""))).unwrap();
    let b = s.supersede(&a, &blob(&successor(&a, "a", "")), None).unwrap();
    // A file that says a was superseded by something else.
    let other = blob(&belief("a", "v9", 3000, &format!(r#","derived_from":["{a}"]"#)));
    let mut m = Manifest::new();
    m.insert(a, superseded(ContentAddress::of(&other)));
    let file = forge(&[s.peek(&a).unwrap().entry().to_vec(), other], &m);
    assert!(mg::verify(&file).is_ok(), "on its own the file is consistent");
    assert_eq!(s.import(&file).unwrap_err().code(), "ERR_CONFLICT");
    assert_eq!(s.len(), 2);
    assert_eq!(s.peek(&a).unwrap().index.superseded_by, Some(b));
    // A file whose manifest says nothing about a keeps the store's supersession (no un-hiding).
    let plain = mg::pack([s.peek(&a).unwrap().entry()], None, &PackOptions::default()).unwrap();
    s.import(&plain).unwrap();
    assert_eq!(current(&s), vec![b]);
}

mod random_manifests {
    use super::*;
    use proptest::prelude::*;

    /// A small memory with every kind of protection and a consent withdrawal.
    fn grains() -> Vec<Vec<u8>> {
        let root = blob(&locked("a"));
        let a = ContentAddress::of(&root);
        let a2 = blob(&successor(&a, "a", ""));
        let open = blob(&belief("o", "v1", 1, ""));
        let o = ContentAddress::of(&open);
        let o2 = blob(&successor(&o, "o", ""));
        let lin = blob(&belief("l", "v1", 1, r#","invalidation_policy":{"mode":"locked","scope":"lineage"}"#));
        let l = ContentAddress::of(&lin);
        let l2 = blob(&successor(&l, "l", ""));
        let grant = blob(&grain(&format!(
            r#"{{"type":"consent","subject_did":"{}","grantee_did":"{}","scope":["store"],"is_withdrawal":false,"created_at":1}}"#,
            did_of(1),
            did_of(2)
        )));
        let g = ContentAddress::of(&grant);
        let data = blob(&belief(
            "d",
            "v1",
            2,
            &format!(r#","processing_basis":"{g}","invalidation_policy":{{"mode":"consent_cascade"}}"#),
        ));
        let w = blob(&grain(&format!(
            r#"{{"type":"consent","subject_did":"{}","grantee_did":"{}","scope":["store"],"is_withdrawal":true,"prior_consent":"{g}","created_at":3}}"#,
            did_of(1),
            did_of(2)
        )));
        vec![root, a2, open, o2, lin, l2, grant, data, w]
    }

    #[derive(Debug, Clone)]
    struct Entry {
        sb: Option<usize>,
        svt: bool,
        ct: bool,
        status: Option<usize>,
        cw: Option<(usize, bool)>,
    }

    fn entry() -> impl Strategy<Value = Entry> {
        (
            prop::option::of(0usize..10),
            any::<bool>(),
            any::<bool>(),
            prop::option::of(0usize..4),
            prop::option::of((0usize..10, any::<bool>())),
        )
            .prop_map(|(sb, svt, ct, status, cw)| Entry { sb, svt, ct, status, cw })
    }

    fn address(all: &[ContentAddress], i: usize) -> ContentAddress {
        all.get(i).copied().unwrap_or_else(|| ContentAddress::of(b"ghost"))
    }

    fn manifest(all: &[ContentAddress], entries: &[(usize, Entry)]) -> Manifest {
        let mut m = Manifest::new();
        for (i, e) in entries {
            let mut st = IndexState {
                superseded_by: e.sb.map(|j| address(all, j)),
                system_valid_to: e.svt.then_some(NOW),
                verification_status: e.status.map(|s| oms::mg::VERIFICATION_STATUSES[s].to_string()),
                ..IndexState::default()
            };
            if e.ct {
                st.extra.insert("ct".into(), Value::Bool(true));
            }
            if let Some((k, due)) = e.cw {
                let mut c = oms::Map::new();
                c.insert("by".into(), Value::Str(address(all, k).to_hex()));
                c.insert("at".into(), Value::from(NOW));
                if due {
                    c.insert("due".into(), Value::from(NOW + 1));
                }
                st.extra.insert("cw".into(), Value::Map(c));
            }
            m.insert(all[*i % all.len()], st);
        }
        m
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// Whatever a manifest claims: nothing panics, verify and load agree,
        /// and a refused import leaves the store exactly as it was.
        #[test]
        fn verify_and_import_agree_and_refusals_change_nothing(
            entries in prop::collection::vec((0usize..9, entry()), 0..6)
        ) {
            let g = grains();
            let all: Vec<ContentAddress> = g.iter().map(|b| ContentAddress::of(b)).collect();
            let file = forge(&g, &manifest(&all, &entries));
            let verified = mg::verify(&file).is_ok();
            let loaded = Store::load(&file, StoreConfig::fixed_clock(NOW));
            prop_assert_eq!(verified, loaded.is_ok(), "{:?}", loaded.err());
            let s = store();
            s.put(&g[0]).unwrap();
            s.put(&g[7]).unwrap();
            let before = s.save(&SaveOptions { include_local: true, compress: false }).unwrap();
            if s.import(&file).is_err() {
                prop_assert_eq!(s.save(&SaveOptions { include_local: true, compress: false }).unwrap(), before);
                prop_assert_eq!(s.len(), 2);
            }
        }
    }
}
