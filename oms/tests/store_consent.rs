//! Consent withdrawal (§8.10, §23.2): the grains on a withdrawn basis leave
//! every query view at once, the withdrawal and the erasure deadline live in
//! the index layer of each covered grain and survive save, load and import,
//! and a withdrawal marker read from a file is honoured only when a stored
//! withdrawal really covers the grain.

use ed25519_dalek::SigningKey;
use oms::mg::{self, IndexState, Manifest, MgFile, PackOptions};
use oms::store::{Query, SaveOptions, Store, StoreConfig, View};
use oms::{ContentAddress, Grain, Value, did};

const NOW: i64 = 1_800_000_000_000;
const SLA: i64 = 30 * 24 * 3600 * 1000;

fn did_of(n: u8) -> String {
    did::encode_ed25519(&SigningKey::from_bytes(&[n; 32]).verifying_key())
}

fn grain(json: &str) -> Grain {
    Grain::from_json_str(json).unwrap()
}

fn blob(g: &Grain) -> Vec<u8> {
    g.encode().unwrap().bytes
}

fn consent(created: i64) -> Grain {
    grain(&format!(
        r#"{{"type":"consent","subject_did":"{}","grantee_did":"{}","scope":["store"],"is_withdrawal":false,"created_at":{created}}}"#,
        did_of(1),
        did_of(2)
    ))
}

fn withdrawal(of: &ContentAddress, created: i64) -> Grain {
    grain(&format!(
        r#"{{"type":"consent","subject_did":"{}","grantee_did":"{}","scope":["store"],"is_withdrawal":true,"prior_consent":"{of}","created_at":{created}}}"#,
        did_of(1),
        did_of(2)
    ))
}

fn data(object: &str, basis: Option<&ContentAddress>, cascade: bool, created: i64) -> Grain {
    let basis = basis.map(|b| format!(r#","processing_basis":"{b}""#)).unwrap_or_default();
    let policy = if cascade { r#","invalidation_policy":{"mode":"consent_cascade"}"# } else { "" };
    grain(&format!(
        r#"{{"type":"belief","subject":"alice","relation":"likes","object":"{object}","confidence":0.5,"created_at":{created}{basis}{policy}}}"#
    ))
}

fn visible(s: &Store, view: View) -> Vec<ContentAddress> {
    let mut v: Vec<ContentAddress> =
        s.query(&Query { view, ..Query::default() }).unwrap().results.iter().map(|h| h.address).collect();
    v.sort();
    v
}

fn sorted(mut v: Vec<ContentAddress>) -> Vec<ContentAddress> {
    v.sort();
    v
}

struct Setup {
    store: Store,
    grant: ContentAddress,
    cascade: ContentAddress,
    plain: ContentAddress,
    unrelated: ContentAddress,
}

fn setup() -> Setup {
    let store = Store::new(StoreConfig::fixed_clock(NOW));
    let grant = store.put(&blob(&consent(1))).unwrap();
    let cascade = store.put(&blob(&data("x", Some(&grant), true, 2))).unwrap();
    let plain = store.put(&blob(&data("y", Some(&grant), false, 3))).unwrap();
    let unrelated = store.put(&blob(&data("z", None, true, 4))).unwrap();
    Setup { store, grant, cascade, plain, unrelated }
}

#[test]
fn a_withdrawal_hides_every_grain_on_its_basis_at_once() {
    let Setup { store: s, grant, cascade, plain, unrelated } = setup();
    assert_eq!(visible(&s, View::Current).len(), 4);
    let w = s.put(&blob(&withdrawal(&grant, 5))).unwrap();
    // Current and as-of views leave both covered grains out, cascade or not; the consent
    // grant and the withdrawal stay (§8.10 rule 3), and so does an unrelated grain.
    assert_eq!(visible(&s, View::Current), sorted(vec![grant, unrelated, w]));
    assert_eq!(visible(&s, View::AsOf(NOW)), sorted(vec![grant, unrelated, w]));
    assert_eq!(visible(&s, View::AsOf(2)), vec![grant], "not even a question about the past sees them");
    assert_eq!(visible(&s, View::All).len(), 5, "the audit view keeps everything until erasure");
    assert_eq!(s.consent_withdrawn(&cascade), Some(true));
    assert_eq!(s.consent_withdrawn(&unrelated), Some(false));
    assert!(s.peek(&plain).unwrap().consent_withdrawn());
    // Search is a current query too.
    assert!(s.search("alice", &Query::default()).unwrap().results.iter().all(|h| h.address == unrelated));
    // Only the consent_cascade grain is due for erasure.
    assert_eq!(s.scheduled_erasures(), vec![(cascade, NOW + SLA)]);
    let marker = s.peek(&plain).unwrap().index.extra["cw"].clone();
    let Value::Map(m) = marker else { panic!("marker is a map") };
    assert_eq!(m.get("by"), Some(&Value::Str(w.to_hex())));
    assert!(!m.contains_key("due"));
}

#[test]
fn a_grain_put_after_the_withdrawal_on_the_withdrawn_basis_is_covered() {
    let Setup { store: s, grant, .. } = setup();
    s.put(&blob(&withdrawal(&grant, 5))).unwrap();
    let late = s.put(&blob(&data("late", Some(&grant), true, 6))).unwrap();
    assert!(!visible(&s, View::Current).contains(&late));
    assert!(s.scheduled_erasures().contains(&(late, NOW + SLA)));
    // A successor written by supersede on the withdrawn basis is covered as well.
    let other = s.put(&blob(&data("free", None, false, 7))).unwrap();
    let next = grain(&format!(
        r#"{{"type":"belief","subject":"alice","relation":"likes","object":"free2","confidence":0.5,"created_at":8,"derived_from":["{other}"],"processing_basis":"{grant}"}}"#
    ));
    let n = s.supersede(&other, &blob(&next), None).unwrap();
    assert_eq!(s.consent_withdrawn(&n), Some(true));
}

#[test]
fn the_withdrawal_and_its_deadline_survive_save_load_and_import() {
    let Setup { store: s, grant, cascade, plain, unrelated } = setup();
    let w = s.put(&blob(&withdrawal(&grant, 5))).unwrap();
    let file = s.save(&SaveOptions::default()).unwrap();
    assert!(mg::verify(&file).is_ok(), "{:?}", mg::verify(&file).errors);
    // Loaded a day later: still hidden, and the deadline is the original one, not a new one.
    let later = NOW + 24 * 3600 * 1000;
    let t = Store::load(&file, StoreConfig::fixed_clock(later)).unwrap();
    assert_eq!(visible(&t, View::Current), sorted(vec![grant, unrelated, w]));
    assert_eq!(t.scheduled_erasures(), vec![(cascade, NOW + SLA)]);
    assert_eq!(t.save(&SaveOptions::default()).unwrap(), file, "save(load(f)) == f");
    // Imported into a store that already holds the covered grains (uncovered there).
    let u = Store::new(StoreConfig::fixed_clock(later));
    u.put(s.peek(&plain).unwrap().entry()).unwrap();
    assert_eq!(visible(&u, View::Current), vec![plain]);
    u.import(&file).unwrap();
    assert!(!visible(&u, View::Current).contains(&plain));
    assert_eq!(u.scheduled_erasures(), vec![(cascade, NOW + SLA)]);
}

#[test]
fn a_file_without_the_markers_is_still_honoured() {
    let Setup { store: s, grant, cascade, plain, .. } = setup();
    s.put(&blob(&withdrawal(&grant, 5))).unwrap();
    // Grains only, no manifest: the withdrawal in the file covers the grains as they are loaded.
    let entries: Vec<Vec<u8>> = s.addresses().iter().map(|a| s.peek(a).unwrap().entry().to_vec()).collect();
    let bare = mg::pack(entries.iter().map(Vec::as_slice), None, &PackOptions::default()).unwrap();
    let later = NOW + 1000;
    let t = Store::load(&bare, StoreConfig::fixed_clock(later)).unwrap();
    assert_eq!(t.consent_withdrawn(&plain), Some(true));
    assert_eq!(t.scheduled_erasures(), vec![(cascade, later + SLA)]);
    // And a withdrawal imported on its own covers the grains already in the store.
    let u = Store::new(StoreConfig::fixed_clock(later));
    u.put(s.peek(&plain).unwrap().entry()).unwrap();
    let w_only = mg::pack([blob(&withdrawal(&grant, 5)).as_slice()], None, &PackOptions::default()).unwrap();
    u.import(&w_only).unwrap();
    assert_eq!(u.consent_withdrawn(&plain), Some(true));
}

fn marker(by: &ContentAddress, due: Option<i64>) -> IndexState {
    let mut m = oms::Map::new();
    m.insert("by".into(), Value::Str(by.to_hex()));
    m.insert("at".into(), Value::from(NOW));
    if let Some(d) = due {
        m.insert("due".into(), Value::from(d));
    }
    IndexState { extra: [("cw".to_string(), Value::Map(m))].into_iter().collect(), ..IndexState::default() }
}

#[test]
fn a_forged_withdrawal_marker_is_refused() {
    let grant = blob(&consent(1));
    let g = ContentAddress::of(&grant);
    let other_grant = blob(&consent(9));
    let og = ContentAddress::of(&other_grant);
    let covered = blob(&data("x", Some(&g), true, 2));
    let c = ContentAddress::of(&covered);
    let basisless = blob(&data("y", None, false, 3));
    let b = ContentAddress::of(&basisless);
    let w_other = blob(&withdrawal(&og, 5));
    let real = blob(&withdrawal(&g, 6));
    let entries = [grant.clone(), other_grant, covered.clone(), basisless.clone(), w_other.clone(), real.clone()];
    let check = |target: ContentAddress, st: IndexState, code: &str| {
        let mut m = Manifest::new();
        m.insert(target, st);
        let file = mg::pack(entries.iter().map(Vec::as_slice), Some(&m), &PackOptions::default()).unwrap();
        let got: Vec<&str> = mg::verify(&file).errors.iter().map(oms::OmsError::code).collect();
        assert_eq!(got, [code]);
        let s = Store::new(StoreConfig::fixed_clock(NOW));
        assert_eq!(s.import(&file).unwrap_err().code(), code);
        assert!(s.is_empty());
    };
    // A withdrawal that exists nowhere.
    check(b, marker(&ContentAddress::of(b"nothing"), None), "ERR_INTEGRITY");
    // A grain with no basis cannot be covered by any withdrawal.
    check(b, marker(&ContentAddress::of(&real), None), "ERR_INVALIDATION_DENIED");
    // A withdrawal of another consent.
    check(c, marker(&ContentAddress::of(&w_other), Some(NOW + SLA)), "ERR_INVALIDATION_DENIED");
    // Something that is not a withdrawal at all.
    check(c, marker(&g, Some(NOW + SLA)), "ERR_INVALIDATION_DENIED");
    // An erasure deadline on a grain whose policy is not consent_cascade.
    let plain = blob(&data("p", Some(&g), false, 4));
    let mut m = Manifest::new();
    m.insert(ContentAddress::of(&plain), marker(&ContentAddress::of(&real), Some(NOW)));
    let file =
        mg::pack([grant.as_slice(), plain.as_slice(), real.as_slice()], Some(&m), &PackOptions::default()).unwrap();
    assert_eq!(
        mg::verify(&file).errors.iter().map(oms::OmsError::code).collect::<Vec<_>>(),
        ["ERR_INVALIDATION_DENIED"]
    );
    // Malformed.
    let mut bad = IndexState::default();
    bad.extra.insert("cw".into(), Value::Str("yes".into()));
    check(c, bad, "ERR_SCHEMA");
    // The honest marker passes.
    let mut m = Manifest::new();
    m.insert(c, marker(&ContentAddress::of(&real), Some(NOW + SLA)));
    let file = mg::pack(entries.iter().map(Vec::as_slice), Some(&m), &PackOptions::default()).unwrap();
    assert!(mg::verify(&file).is_ok());
    let s = Store::load(&file, StoreConfig::fixed_clock(NOW)).unwrap();
    assert_eq!(s.scheduled_erasures(), vec![(c, NOW + SLA)]);
    let _ = MgFile::open(&file).unwrap();
}

#[test]
fn a_withdrawal_that_covers_grains_is_retained() {
    let Setup { store: s, grant, cascade, .. } = setup();
    let w = s.put(&blob(&withdrawal(&grant, 5))).unwrap();
    assert_eq!(s.delete(&w).unwrap_err().code(), "ERR_INVALIDATION_DENIED");
    // Erasing the covered grains is what the schedule is for.
    s.delete(&cascade).unwrap();
    assert!(s.scheduled_erasures().is_empty());
    s.save(&SaveOptions::default()).map(|f| assert!(mg::verify(&f).is_ok())).unwrap();
}
