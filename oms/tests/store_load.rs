//! Bulk loading (issue 20): strings interned on the loading threads and mapped to the
//! store's symbols once per part, batches verified while the previous one is inserted,
//! grains kept in the file's own bytes (`Store::load_owned`). A store loaded each way
//! answers every query and search exactly as a store built grain by grain with `put`,
//! saves to the same bytes, and a file with one bad grain in its last batch loads nothing.

use oms::mg::{PackOptions, pack};
use oms::store::{CmpOp, Filter, Query, SaveOptions, SortKey, Store, StoreConfig};
use oms::synthetic::mixed_grain;
use oms::{ContentAddress, Grain, GrainType, Value};
use sha2::{Digest, Sha256};

const NOW: i64 = 1_772_798_400_000;

/// More than one loading batch (16,384 grains), so the pipeline runs.
const GRAINS: usize = 20_000;

fn config() -> StoreConfig {
    StoreConfig { track_access: false, ..StoreConfig::fixed_clock(NOW) }
}

fn blobs() -> Vec<Vec<u8>> {
    (0..GRAINS)
        .map(|i| Grain::from_json(&mixed_grain(i, NOW)).expect("valid").encode().expect("encodes").bytes)
        .collect()
}

fn file(blobs: &[Vec<u8>], compress: bool) -> Vec<u8> {
    pack(blobs.iter().map(Vec::as_slice), None, &PackOptions { compress, ..PackOptions::default() }).expect("packs")
}

fn eq(field: &str, v: &str) -> Filter {
    Filter::Cmp { field: field.into(), op: CmpOp::Eq, value: Value::Str(v.into()) }
}

/// Queries over every interned access path (subject, relation, object, namespace, user,
/// session, tag), the pairs, the type and time indexes, and numeric order.
fn queries() -> Vec<Query> {
    let q = |filters: Vec<Filter>, sort: Vec<SortKey>, limit: Option<usize>| Query {
        filters,
        sort,
        limit,
        ..Query::default()
    };
    let recent = || vec![SortKey { field: "created_at".into(), descending: true }];
    let mut out = vec![
        q(vec![Filter::Type(GrainType::Belief)], recent(), Some(10)),
        q(vec![eq("namespace", "bench"), Filter::TagsInclude(vec!["hot".into()])], recent(), Some(25)),
        q(vec![Filter::TagsInclude(vec!["cold".into()])], vec![], Some(30)),
        q(
            vec![Filter::Cmp { field: "confidence".into(), op: CmpOp::Ge, value: Value::Float(0.97) }],
            vec![SortKey { field: "confidence".into(), descending: true }],
            Some(20),
        ),
    ];
    // The time trees per (type, namespace) and per type, and the value tree ascending.
    out.push(q(vec![Filter::Type(GrainType::Belief), eq("namespace", "bench-3")], recent(), Some(10)));
    out.push(q(vec![Filter::Type(GrainType::Event), eq("namespace", "bench-5")], recent(), Some(15)));
    out.push(q(vec![Filter::Type(GrainType::Observation)], recent(), Some(5)));
    out.push(q(vec![eq("namespace", "bench-7")], recent(), Some(12)));
    out.push(q(
        vec![
            Filter::Type(GrainType::Belief),
            Filter::CreatedBetween { from: Some(NOW - 40 * 86_400_000), to: Some(NOW - 30 * 86_400_000) },
        ],
        vec![],
        None,
    ));
    out.push(q(vec![], vec![SortKey { field: "confidence".into(), descending: false }], Some(7)));
    for k in [0, 7, 333, 1_999] {
        out.push(q(vec![eq("subject", &format!("entity-{k}"))], vec![], None));
        out.push(q(vec![eq("user_id", &format!("user-{k}")), eq("relation", "mg:prefers")], recent(), Some(20)));
        out.push(q(vec![eq("session_id", &format!("sess-{k}"))], vec![], None));
        out.push(q(vec![eq("subject", &format!("entity-{k}")), eq("relation", "status")], vec![], None));
    }
    out
}

fn addresses(store: &Store, q: &Query) -> (Vec<ContentAddress>, usize) {
    let env = store.query(q).expect("answers");
    (env.results.iter().map(|h| h.address).collect(), env.total)
}

fn searched(store: &Store, text: &str) -> Vec<(ContentAddress, String)> {
    let env = store.search(text, &Query { limit: Some(50), ..Query::default() }).expect("searches");
    env.results.iter().map(|h| (h.address, format!("{:.12}", h.score))).collect()
}

#[test]
fn loaded_stores_answer_as_a_store_built_grain_by_grain() {
    let blobs = blobs();
    let reference = Store::new(config());
    for b in &blobs {
        reference.put(b).expect("put");
    }
    // A belief of the store, to query its object, alone and with its relation and subject.
    let first = (0..GRAINS)
        .filter_map(|i| reference.peek(&ContentAddress::of(&blobs[i])))
        .find(|s| s.grain().grain_type() == GrainType::Belief)
        .expect("a belief");
    let field = |name: &str| first.grain().get_str(name).expect("a belief's field").to_string();
    let mut queries = queries();
    queries.push(Query { filters: vec![eq("object", &field("object"))], ..Query::default() });
    queries.push(Query {
        filters: vec![eq("relation", &field("relation")), eq("object", &field("object"))],
        ..Query::default()
    });
    queries.push(Query {
        filters: vec![eq("subject", &field("subject")), eq("object", &field("object"))],
        ..Query::default()
    });
    let plain = file(&blobs, false);
    let loaded = [
        ("load", Store::load(&plain, config()).expect("loads")),
        ("load_owned", Store::load_owned(plain.clone(), config()).expect("loads")),
        ("load_owned, compressed", Store::load_owned(file(&blobs, true), config()).expect("loads")),
        ("import_owned", {
            let s = Store::new(config());
            assert_eq!(s.import_owned(plain.clone()).expect("imports"), GRAINS);
            s
        }),
    ];
    let saved = reference.save(&SaveOptions::default()).expect("saves");
    for (how, store) in &loaded {
        assert_eq!(store.len(), GRAINS, "{how}");
        for q in &queries {
            assert_eq!(addresses(store, q), addresses(&reference, q), "{how}: {q:?}");
        }
        for text in ["kalomi", "entity 7", "sapa rika", "prefers"] {
            assert_eq!(searched(store, text), searched(&reference, text), "{how}: {text}");
        }
        let got = store.peek(&first.address).expect("present");
        assert_eq!(got.blob(), first.blob(), "{how}");
        assert_eq!(got.grain(), first.grain(), "{how}");
        assert_eq!(store.save(&SaveOptions::default()).expect("saves"), saved, "{how}");
    }
}

/// An import into a store that already holds grains merges the file's ordered entries into
/// its trees (built again from the union, or one insert each when they are few), and a
/// refused import leaves every index as it was.
#[test]
fn imports_into_a_filled_store_answer_as_a_store_built_grain_by_grain() {
    let blobs = blobs();
    let reference = Store::new(config());
    for b in &blobs {
        reference.put(b).expect("put");
    }
    for held in [GRAINS / 2, GRAINS - 100] {
        let store = Store::new(config());
        for b in &blobs[..held] {
            store.put(b).expect("put");
        }
        // The whole file: the grains already held are skipped.
        assert_eq!(store.import_owned(file(&blobs, false)).expect("imports"), GRAINS - held);
        for q in &queries() {
            assert_eq!(addresses(&store, q), addresses(&reference, q), "{held} held: {q:?}");
        }
        for text in ["kalomi", "entity 7"] {
            assert_eq!(searched(&store, text), searched(&reference, text), "{held} held: {text}");
        }
    }
    // A refused import (one bad grain at the end) into a filled store changes no answer.
    let some = Store::new(config());
    let before = Store::new(config());
    for b in &blobs[..GRAINS / 2] {
        some.put(b).expect("put");
        before.put(b).expect("put");
    }
    let mut f = file(&blobs, false);
    let footer = f.len() - 32;
    let last = footer - blobs[GRAINS - 1].len();
    f[last + 3] ^= 0x40;
    let sum = Sha256::digest(&f[..footer]);
    f[footer..].copy_from_slice(&sum);
    assert!(some.import_owned(f).is_err());
    for q in &queries() {
        assert_eq!(addresses(&some, q), addresses(&before, q), "after a refused import: {q:?}");
    }
}

#[test]
fn one_bad_grain_in_the_last_batch_loads_nothing() {
    let blobs = blobs();
    // The last grain's namespace hash byte changed (ERR_CORRUPT: the header disagrees with
    // the payload), and the footer made to match, so that only the grain is wrong.
    let mut f = file(&blobs, false);
    let footer = f.len() - 32;
    let last = footer - blobs[GRAINS - 1].len();
    assert_eq!(&f[last..footer], &blobs[GRAINS - 1][..]);
    f[last + 3] ^= 0x40;
    let sum = Sha256::digest(&f[..footer]);
    f[footer..].copy_from_slice(&sum);
    let whole = Store::new(config()).import(&f).expect_err("refused");
    let batched = Store::load(&f, config()).expect_err("refused");
    let owned = Store::load_owned(f.clone(), config()).expect_err("refused");
    assert_eq!(batched, whole);
    assert_eq!(owned, whole);
    assert_eq!(whole.code(), "ERR_CORRUPT", "{whole}");
    let into = Store::new(config());
    into.put(&blobs[0]).expect("put");
    assert!(into.import_owned(f).is_err());
    assert_eq!(into.len(), 1, "a refused import leaves the store as it was");
}
