//! Store persistence through `.mg` files, the chain property on generated
//! operation sequences, and concurrent readers during supersession.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use ed25519_dalek::SigningKey;
use oms::cose::sign_grain;
use oms::mg::{self, MgFile, PackOptions};
use oms::store::{CmpOp, Filter, Query, SaveOptions, Store, StoreConfig, View};
use oms::{ContentAddress, Grain, Value};
use proptest::prelude::*;

const NOW: i64 = 1_800_000_000_000;

fn belief(subject: &str, object: &str, created: i64, derived: Option<&ContentAddress>) -> Grain {
    let df = derived.map(|d| format!(r#","derived_from":["{d}"]"#)).unwrap_or_default();
    Grain::from_json_str(&format!(
        r#"{{"type":"belief","subject":"{subject}","relation":"prefers","object":"{object}","confidence":0.7,"created_at":{created}{df}}}"#
    ))
    .unwrap()
}

fn bytes(g: &Grain) -> Vec<u8> {
    g.encode().unwrap().bytes
}

fn populated() -> (Store, Vec<ContentAddress>) {
    let s = Store::new(StoreConfig::fixed_clock(NOW));
    let a = s.put(&bytes(&belief("alice", "tea", 1, None))).unwrap();
    let b = s.supersede(&a, &bytes(&belief("alice", "coffee", 2, Some(&a))), None).unwrap();
    let c = s.supersede(&b, &bytes(&belief("alice", "juice", 3, Some(&b))), None).unwrap();
    let d = s.put(&bytes(&belief("bob", "tea", 4, None))).unwrap();
    s.set_verification_status(&d, "verified", &[]).unwrap();
    let e = s.put(&bytes(&belief("carol", "tea", 5, None))).unwrap();
    s.contradict(&e, &[], None).unwrap();
    let signed = sign_grain(&belief("dave", "tea", 6, None), &SigningKey::from_bytes(&[3; 32]), Some(7)).unwrap();
    let f = s.put(&signed.cose).unwrap();
    s.get(&d).unwrap();
    (s, vec![a, b, c, d, e, f])
}

#[test]
fn save_load_round_trip_preserves_grains_and_index_state() {
    let (s, addrs) = populated();
    for include_local in [false, true] {
        for compress in [false, true] {
            let opts = SaveOptions { include_local, compress };
            let file = s.save(&opts).unwrap();
            assert!(mg::verify(&file).is_ok());
            let t = Store::load(&file, StoreConfig::fixed_clock(NOW)).unwrap();
            assert_eq!(t.len(), s.len());
            for a in &addrs {
                let (x, y) = (s.peek(a).unwrap(), t.peek(a).unwrap());
                assert_eq!(x.blob(), y.blob());
                assert_eq!(x.entry(), y.entry());
                assert_eq!(x.signer(), y.signer());
                assert_eq!(x.index.portable_only(), y.index.portable_only());
                if include_local {
                    assert_eq!(x.index, y.index);
                }
            }
            assert_eq!(t.save(&opts).unwrap(), file, "save(load(f)) == f");
            // Chains work after loading.
            let h: Vec<ContentAddress> = t.history(&addrs[0]).unwrap().iter().map(|x| x.address).collect();
            assert_eq!(h, addrs[..3]);
            assert_eq!(t.query(&Query::default()).unwrap().total, 3, "juice, bob, dave are current");
        }
    }
}

#[test]
fn manifest_carries_portable_fields() {
    let (s, addrs) = populated();
    let file = s.save(&SaveOptions::default()).unwrap();
    let f = MgFile::open(&file).unwrap();
    let m = f.manifest().unwrap();
    assert_eq!(m[&addrs[0]].superseded_by, Some(addrs[1]));
    assert_eq!(m[&addrs[1]].system_valid_to, Some(NOW));
    assert_eq!(m[&addrs[3]].verification_status.as_deref(), Some("verified"));
    assert_eq!(m[&addrs[4]].extra.get("ct"), Some(&Value::Bool(true)));
    assert!(m.values().all(|st| st.access_count.is_none()), "local fields omitted unless asked");
}

#[test]
fn corrupt_files_load_nothing() {
    let (s, _) = populated();
    let file = s.save(&SaveOptions::default()).unwrap();
    let target = Store::new(StoreConfig::fixed_clock(NOW));
    let existing = target.put(&bytes(&belief("zed", "x", 1, None))).unwrap();
    for i in [5, 40, file.len() / 2, file.len() - 40, file.len() - 1] {
        let mut bad = file.clone();
        bad[i] ^= 0x01;
        assert!(target.import(&bad).is_err(), "byte {i}");
        assert_eq!(target.len(), 1, "nothing partially loaded");
        assert!(Store::load(&bad, StoreConfig::fixed_clock(NOW)).is_err());
    }
    // A file whose footer is valid but one grain is damaged also loads nothing.
    let good: Vec<Vec<u8>> = (0..3).map(|i| bytes(&belief(&format!("p{i}"), "x", i, None))).collect();
    let mut packed = mg::pack(good.iter().map(Vec::as_slice), None, &PackOptions::default()).unwrap();
    let off = u32::from_be_bytes(packed[20..24].try_into().unwrap()) as usize;
    packed[off + 3] ^= 0x01; // grain 1's namespace hash no longer matches its payload
    let n = packed.len() - 32;
    packed.truncate(n);
    let sum = ContentAddress::of(&packed);
    packed.extend_from_slice(sum.as_bytes());
    let e = target.import(&packed).unwrap_err();
    assert_eq!(e.code(), "ERR_CORRUPT");
    assert_eq!(target.len(), 1);
    assert!(target.exists(&existing));
}

#[derive(Debug, Clone)]
enum Op {
    Put(u8),
    Supersede(u8),
}

fn ops() -> impl Strategy<Value = Vec<Op>> {
    prop::collection::vec(prop_oneof![(0u8..6).prop_map(Op::Put), (0u8..6).prop_map(Op::Supersede)], 1..40)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Any sequence of puts and supersedes leaves every old blob readable
    /// and byte-identical, and the current view equals the chain heads.
    #[test]
    fn chains_keep_every_blob_and_current_is_the_heads(ops in ops()) {
        let s = Store::new(StoreConfig::fixed_clock(NOW));
        let mut written: Vec<(ContentAddress, Vec<u8>)> = Vec::new();
        let mut heads: std::collections::BTreeMap<u8, ContentAddress> = Default::default();
        for (step, op) in ops.iter().enumerate() {
            let t = step as i64 + 1;
            match op {
                Op::Put(k) => {
                    if heads.contains_key(k) { continue; }
                    let b = bytes(&belief(&format!("s{k}"), &format!("o{step}"), t, None));
                    let a = s.put(&b).unwrap();
                    heads.insert(*k, a);
                    written.push((a, b));
                }
                Op::Supersede(k) => {
                    let Some(head) = heads.get(k).copied() else { continue };
                    let b = bytes(&belief(&format!("s{k}"), &format!("o{step}"), t, Some(&head)));
                    let a = s.supersede(&head, &b, None).unwrap();
                    heads.insert(*k, a);
                    written.push((a, b));
                }
            }
        }
        for (a, b) in &written {
            let got = s.peek(a).unwrap();
            prop_assert_eq!(got.blob(), &b[..]);
        }
        let mut current: Vec<ContentAddress> = s.query(&Query::default()).unwrap().results.iter().map(|h| h.address).collect();
        current.sort();
        let mut expected: Vec<ContentAddress> = heads.values().copied().collect();
        expected.sort();
        prop_assert_eq!(current, expected);
        prop_assert_eq!(s.query(&Query { view: View::All, ..Query::default() }).unwrap().total, written.len());
        // And the same holds after a save/load round trip.
        let t = Store::load(&s.save(&SaveOptions::default()).unwrap(), StoreConfig::fixed_clock(NOW)).unwrap();
        prop_assert_eq!(t.query(&Query::default()).unwrap().total, heads.len());
    }
}

#[test]
fn readers_see_exactly_one_current_version_while_a_writer_supersedes() {
    let s = Arc::new(Store::new(StoreConfig::fixed_clock(NOW)));
    let first = bytes(&belief("alice", "v0", 0, None));
    let root = s.put(&first).unwrap();
    let done = Arc::new(AtomicBool::new(false));
    let q = Query {
        filters: vec![Filter::Cmp { field: "subject".into(), op: CmpOp::Eq, value: "alice".into() }],
        ..Query::default()
    };
    let readers: Vec<_> = (0..3)
        .map(|_| {
            let (s, done, q, first) = (s.clone(), done.clone(), q.clone(), first.clone());
            std::thread::spawn(move || {
                let mut reads = 0u64;
                while !done.load(Ordering::Acquire) {
                    let r = s.query(&q).unwrap();
                    assert_eq!(r.total, 1, "exactly one current version at every instant");
                    assert_eq!(s.get(&root).unwrap().blob(), &first[..]);
                    reads += 1;
                }
                reads
            })
        })
        .collect();
    let mut head = root;
    for i in 1..=200 {
        head = s.supersede(&head, &bytes(&belief("alice", &format!("v{i}"), i, Some(&head))), None).unwrap();
    }
    done.store(true, Ordering::Release);
    let total: u64 = readers.into_iter().map(|h| h.join().unwrap()).sum();
    assert!(total > 0);
    assert_eq!(s.history(&root).unwrap().len(), 201);
    assert_eq!(s.query(&q).unwrap().results[0].address, head);
}

#[test]
fn concurrent_supersessions_of_one_head_admit_exactly_one() {
    let s = Arc::new(Store::new(StoreConfig::fixed_clock(NOW)));
    let root = s.put(&bytes(&belief("bob", "v0", 0, None))).unwrap();
    let handles: Vec<_> = (0..8)
        .map(|i| {
            let s = s.clone();
            std::thread::spawn(move || {
                s.supersede(&root, &bytes(&belief("bob", &format!("w{i}"), 1, Some(&root))), None)
            })
        })
        .collect();
    let results: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 1);
    assert!(results.iter().filter_map(|r| r.as_ref().err()).all(|e| e.code() == "ERR_CONFLICT"));
}
