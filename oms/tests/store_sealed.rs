//! Encrypted grains (OMS §3.1.1 flag bit 1, §20.2) in `.mg` files and the
//! in-memory store: held as bytes, reachable by address only, written back by
//! `save`, verified by address and clear header (ruling C27).

use oms::durable::{DurableStore, OpenOptions};
use oms::header::{FLAG_ENCRYPTED, FLAG_SIGNED, Header, namespace_hash};
use oms::mg::{self, IndexState, Manifest, PackOptions};
use oms::store::{Query, SaveOptions, Store, StoreConfig};
use oms::{ContentAddress, Grain, GrainType, OmsError};

const NOW: i64 = 1_800_000_000_000;

fn belief(subject: &str, created: i64) -> Vec<u8> {
    let g = Grain::from_json_str(&format!(
        r#"{{"type":"belief","subject":"{subject}","relation":"prefers","object":"tea","confidence":0.7,"created_at":{created}}}"#
    ))
    .unwrap();
    g.encode().unwrap().bytes
}

/// A blob whose payload is ciphertext: a clear header with flag bit 1, then bytes no
/// MessagePack reader could take for a grain.
fn encrypted(type_byte: u8, created_sec: u32, flags: u8) -> Vec<u8> {
    let header = Header {
        flags: FLAG_ENCRYPTED | flags,
        type_byte,
        ns_hash: namespace_hash(Some("vault")),
        created_at_sec: created_sec,
    };
    let mut blob = header.to_bytes().to_vec();
    blob.extend((0u8..48).map(|i| i.wrapping_mul(37) ^ 0xc1));
    blob
}

fn file(entries: &[&[u8]]) -> Vec<u8> {
    mg::pack(entries.iter().copied(), None, &PackOptions::default()).unwrap()
}

#[test]
fn an_encrypted_grain_is_held_by_address_and_nothing_else() {
    let sealed = encrypted(0x01, 1_700_000_000, 0);
    let address = ContentAddress::of(&sealed);
    let (a, b) = (belief("alice", 1_000), belief("bob", 2_000));
    let store = Store::load(&file(&[&a, &sealed, &b]), StoreConfig::fixed_clock(NOW)).unwrap();

    assert_eq!(store.len(), 2, "readable grains only");
    assert_eq!(store.sealed_len(), 1);
    assert!(store.exists(&address));
    assert!(store.peek(&address).is_none(), "no decoded grain to hand out");
    let g = store.sealed(&address).unwrap();
    assert_eq!(
        (g.grain_type, g.created_at_sec, g.ns_hash),
        (GrainType::Belief, 1_700_000_000, namespace_hash(Some("vault")))
    );
    assert_eq!(g.blob(), &sealed[..]);
    let all = store.query(&Query::default()).unwrap();
    assert_eq!(all.total, 2, "no selection but its address reaches it");
    assert!(all.results.iter().all(|h| h.address != address));
}

#[test]
fn save_writes_encrypted_grains_back_and_the_file_verifies() {
    let sealed = encrypted(0x05, 1_700_000_000, 0);
    let a = belief("alice", 1_000);
    let store = Store::load(&file(&[&a, &sealed]), StoreConfig::fixed_clock(NOW)).unwrap();
    let address = ContentAddress::of(&a);
    store.set_verification_status(&address, "verified", &[]).unwrap();
    let saved = store.save(&SaveOptions::default()).unwrap();
    let report = mg::verify(&saved);
    assert!(report.is_ok(), "{:?}", report.problems());
    let again = Store::load(&saved, StoreConfig::fixed_clock(NOW)).unwrap();
    assert_eq!((again.len(), again.sealed_len()), (1, 1));
    assert_eq!(again.sealed(&ContentAddress::of(&sealed)).unwrap().blob(), &sealed[..]);
    assert_eq!(again.peek(&address).unwrap().index.verification_status.as_deref(), Some("verified"));
}

#[test]
fn a_bad_encrypted_grain_loads_nothing() {
    let a = belief("alice", 1_000);
    let sealed = encrypted(0x01, 1, 0);
    // Type byte 0x00 is no type (Appendix B).
    let bad = file_unchecked(&[&a, &sealed], &[(&sealed, 0x00)]);
    let err = Store::load(&bad, StoreConfig::fixed_clock(NOW)).unwrap_err();
    assert_eq!(err.code(), "ERR_UNKNOWN_TYPE", "{err}");
    assert!(!mg::verify(&bad).is_ok());
}

#[test]
fn a_signed_flag_on_an_encrypted_payload_is_still_refused() {
    let sealed = encrypted(0x01, 1, 0);
    let mut bad = file(&[&belief("a", 1), &sealed]);
    let at = bad.windows(sealed.len()).position(|w| w == &sealed[..]).unwrap();
    bad[at + 1] = FLAG_ENCRYPTED | FLAG_SIGNED;
    refooter(&mut bad);
    let err = Store::load(&bad, StoreConfig::fixed_clock(NOW)).unwrap_err();
    assert!(matches!(err, OmsError::SignedMismatch { .. } | OmsError::Unsupported { .. }), "{err:?}");
}

#[test]
fn a_manifest_cannot_claim_index_state_for_an_encrypted_grain() {
    let sealed = encrypted(0x01, 1, 0);
    let a = belief("alice", 1_000);
    let manifest = verified(&sealed);
    // Sealed first: the manifest is found from the last grain's length.
    let bytes = mg::pack([&sealed[..], &a[..]], Some(&manifest), &PackOptions::default()).unwrap();
    let err = Store::load(&bytes, StoreConfig::fixed_clock(NOW)).unwrap_err();
    assert!(err.to_string().contains("encrypted grain"), "{err}");
}

#[test]
fn an_encrypted_grain_cannot_end_a_file_that_has_a_manifest() {
    let sealed = encrypted(0x01, 2_000_000_000, 0);
    let a = belief("alice", 1_000);
    let manifest = verified(&a);
    let sorted = PackOptions { sort: true, ..PackOptions::default() };
    let err = mg::pack([&a[..], &sealed[..]], Some(&manifest), &sorted).unwrap_err();
    assert!(err.to_string().contains("last grain before a manifest"), "{err}");
    assert!(mg::pack([&sealed[..], &a[..]], Some(&manifest), &PackOptions::default()).is_ok());
}

/// A file holding `entries` as a foreign writer might have made it: packed, then each
/// `(blob, type byte)` patched in place and the footer recomputed (the packer itself
/// refuses an unknown type byte).
fn file_unchecked(entries: &[&[u8]], patches: &[(&[u8], u8)]) -> Vec<u8> {
    let mut f = file(entries);
    for (blob, type_byte) in patches {
        let at = f.windows(blob.len()).position(|w| w == *blob).expect("the blob is in the file");
        f[at + 2] = *type_byte;
    }
    refooter(&mut f);
    f
}

/// Recomputes a file's footer checksum after its bytes were patched.
fn refooter(f: &mut Vec<u8>) {
    let n = f.len() - 32;
    f.truncate(n);
    let digest = ContentAddress::of(f);
    f.extend_from_slice(digest.as_bytes());
}

/// A manifest that says the grain `blob` was verified.
fn verified(blob: &[u8]) -> Manifest {
    let state = IndexState { verification_status: Some("verified".into()), ..IndexState::default() };
    Manifest::from([(ContentAddress::of(blob), state)])
}

#[test]
fn the_database_store_holds_encrypted_grains_as_the_memory_store_does() {
    let sealed = encrypted(0x07, 1_700_000_000, 0);
    let address = ContentAddress::of(&sealed);
    let a = belief("alice", 1_000);
    let bytes = file(&[&a, &sealed]);
    let dir = tempfile::tempdir().unwrap();
    let db = DurableStore::create(&dir.path().join("s.db"), StoreConfig::fixed_clock(NOW)).unwrap();
    let report = db.import_mg(&bytes).unwrap();
    assert_eq!((report.in_file, report.added), (2, 2));
    assert_eq!(db.import_mg(&bytes).unwrap().added, 0, "importing again adds nothing");
    assert_eq!((db.len().unwrap(), db.sealed_len().unwrap()), (1, 1));
    assert!(db.exists(&address).unwrap());
    assert!(db.get(&address).unwrap().is_none());
    let g = db.sealed(&address).unwrap().unwrap();
    assert_eq!((g.grain_type, g.blob()), (GrainType::Goal, &sealed[..]));
    db.verify().unwrap();
    // The export is the file the memory store saves.
    let memory = Store::load(&bytes, StoreConfig::fixed_clock(NOW)).unwrap();
    assert_eq!(db.export_mg(&SaveOptions::default()).unwrap(), memory.save(&SaveOptions::default()).unwrap());
}

#[test]
fn a_damaged_encrypted_row_fails_verification() {
    let sealed = encrypted(0x01, 1, 0);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.db");
    let db = DurableStore::create(&path, StoreConfig::fixed_clock(NOW)).unwrap();
    db.import_mg(&file(&[&belief("a", 1), &sealed])).unwrap();
    drop(db);
    let mut damaged = sealed.clone();
    *damaged.last_mut().unwrap() ^= 1;
    rusqlite::Connection::open(&path).unwrap().execute("UPDATE sealed SET blob = ?1", [&damaged]).unwrap();
    let db = DurableStore::open(&path, StoreConfig::fixed_clock(NOW), OpenOptions::read_only()).unwrap();
    assert!(db.verify().is_err());
    assert!(db.sealed(&ContentAddress::of(&sealed)).is_err());
}
