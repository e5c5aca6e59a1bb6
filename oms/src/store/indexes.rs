//! Secondary indexes: posting lists of internal ids, sorted ascending, one
//! per access path. Indexed strings are interned once into symbols, so a
//! posting key is a small integer and each distinct string is stored once.
//!
//! The triple indexes follow a hexastore-like layout (S, P, O, SP, PO, SO),
//! so every triple pattern with at least one bound position is answered from
//! a posting list rather than a scan; the others cover the common filters of
//! CAL (type, namespace, user, session, tag, consent basis) and the consent
//! withdrawals of a consent (`prior_consent`), and a B-tree
//! over `created_at` serves time ranges and recency order.

use std::collections::{BTreeSet, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

use super::ordered::{Ordered, Pending};
use super::postings::PostingTable;
use super::record::{Record, str_field};
use crate::value::Value;

/// Internal id of a grain: its position in the store's record table.
pub(crate) type Id = u32;

/// A multiplicative hash for integer keys (symbols, ids): they are small and
/// trusted, so SipHash would only cost time.
///
/// A product's low bits depend only on the low bits of what was multiplied, and the hash
/// table picks a bucket by the low bits: `finish` folds the high half in. Without it, the
/// (subject, relation) pairs, whose keys differ in their high half and share one of eight
/// relations in the low half, fell into eight runs of buckets, and inserting them was a
/// quarter of the time of loading a million grains (issue 20).
#[derive(Default)]
pub(crate) struct IntHasher(u64);

impl Hasher for IntHasher {
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 32)
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(*b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0 ^ i).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
}

/// A hash map keyed by integers.
pub(crate) type IntMap<K, V> = HashMap<K, V, BuildHasherDefault<IntHasher>>;

/// An interning table: each distinct string gets a dense `u32` symbol. Hashed with
/// foldhash (seeded per table, so still not predictable from outside): SipHash and its
/// string compares were a tenth of the time of loading a large store (issue 20).
#[derive(Default)]
pub(crate) struct Symbols {
    ids: HashMap<Box<str>, u32, foldhash::fast::RandomState>,
}

impl Symbols {
    pub(crate) fn intern(&mut self, s: &str) -> u32 {
        if let Some(id) = self.ids.get(s) {
            return *id;
        }
        let id = self.ids.len() as u32;
        self.ids.insert(s.into(), id);
        id
    }

    /// [`Symbols::intern`] of a string the caller gives away (no copy when it is new).
    pub(crate) fn intern_owned(&mut self, s: Box<str>) -> u32 {
        if let Some(id) = self.ids.get(&*s) {
            return *id;
        }
        let id = self.ids.len() as u32;
        self.ids.insert(s, id);
        id
    }

    pub(crate) fn get(&self, s: &str) -> Option<u32> {
        self.ids.get(s).copied()
    }
}

/// Single-field access paths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Key {
    Subject = 0,
    Relation = 1,
    Object = 2,
    Namespace = 3,
    UserId = 4,
    SessionId = 5,
    Tag = 6,
    Basis = 7,
    /// `prior_consent` of Consent grains: the withdrawals of a consent.
    PriorConsent = 8,
}

/// The fields whose equality with a string a posting list answers, in the
/// order a query considers them (every store selects candidates from these).
pub(crate) const EQUALITY_INDEXED: [(&str, Key); 7] = [
    ("subject", Key::Subject),
    ("relation", Key::Relation),
    ("object", Key::Object),
    ("namespace", Key::Namespace),
    ("user_id", Key::UserId),
    ("session_id", Key::SessionId),
    ("processing_basis", Key::Basis),
];

/// Two-field access paths of the hexastore layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pair {
    SubjectRelation = 0,
    RelationObject = 1,
    SubjectObject = 2,
}

#[derive(Default)]
pub(crate) struct Indexes {
    symbols: Symbols,
    single: PostingTable<u64>,
    pairs: [PostingTable<u64>; 3],
    grain_type: PostingTable<u8>,
    pub(crate) created: BTreeSet<(i64, Id)>,
    /// Time order per type and value order of the numeric fields (`ordered.rs`).
    pub(crate) ordered: Ordered,
}

fn single_key(k: Key, sym: u32) -> u64 {
    ((k as u64) << 32) | u64::from(sym)
}

fn pair_key(a: u32, b: u32) -> u64 {
    (u64::from(a) << 32) | u64::from(b)
}

/// The strings a record is indexed under, per access path.
pub(crate) fn fields(r: &Record) -> Vec<(Key, &str)> {
    grain_fields(r.body.grain())
}

/// The strings a grain is indexed under, per access path.
pub(crate) fn grain_fields(g: &crate::grain::Grain) -> Vec<(Key, &str)> {
    let mut out = Vec::with_capacity(9);
    for (k, name) in [
        (Key::Subject, "subject"),
        (Key::Relation, "relation"),
        (Key::Object, "object"),
        (Key::Namespace, "namespace"),
        (Key::UserId, "user_id"),
        (Key::SessionId, "session_id"),
        (Key::Basis, "processing_basis"),
        (Key::PriorConsent, "prior_consent"),
    ] {
        if let Some(s) = str_field(g, name) {
            out.push((k, s));
        }
    }
    if let Some(tags) = g.get("structural_tags").and_then(Value::as_array) {
        out.extend(tags.iter().filter_map(Value::as_str).map(|t| (Key::Tag, t)));
    }
    out
}

/// What a record is indexed under, taken from its decoded grain once: on the loading
/// threads for a bulk load, so that the serial part of the load only interns and appends,
/// and the decoded grain need not be kept.
pub(crate) struct IndexKeys {
    /// The strings of the single-field access paths.
    pub(crate) fields: Vec<(Key, Box<str>)>,
    /// The grain type byte.
    pub(crate) ty: u8,
    /// (numeric field position in `ordered::NUMERIC`, value key), the first
    /// `numeric_len` of them (inline: no allocation per grain).
    numeric: [(usize, u64); 3],
    numeric_len: u8,
    /// The numeric fields holding something else, a bit per position (`ordered::odd_numeric`).
    pub(crate) odd_numeric: u8,
    /// Search terms and their frequencies (`search::terms_of`).
    pub(crate) terms: Vec<(String, u32)>,
    /// The namespace (for the search statistics per namespace); a bulk load takes it from
    /// its interned field values instead.
    pub(crate) namespace: Option<Box<str>>,
}

/// The numeric keys of a grain, inline.
fn numeric_of(g: &crate::grain::Grain) -> ([(usize, u64); 3], u8) {
    let mut out = [(0, 0); 3];
    let mut n = 0;
    for kv in super::ordered::numeric_values(g) {
        out[n] = kv;
        n += 1;
    }
    (out, n as u8)
}

impl IndexKeys {
    /// Every key of `g`.
    pub(crate) fn of(g: &crate::grain::Grain) -> Self {
        let (numeric, numeric_len) = numeric_of(g);
        IndexKeys {
            fields: grain_fields(g).into_iter().map(|(k, s)| (k, s.into())).collect(),
            ty: g.grain_type().byte(),
            numeric,
            numeric_len,
            odd_numeric: super::ordered::odd_numeric(g),
            terms: super::search::terms_of(g),
            namespace: g.namespace().map(Into::into),
        }
    }

    /// The keys of `g` but its field values and search terms, which a bulk load interns on
    /// the loading thread instead (`load_keys.rs`).
    pub(crate) fn without_strings(g: &crate::grain::Grain) -> Self {
        let (numeric, numeric_len) = numeric_of(g);
        IndexKeys {
            fields: Vec::new(),
            ty: g.grain_type().byte(),
            numeric,
            numeric_len,
            odd_numeric: super::ordered::odd_numeric(g),
            terms: Vec::new(),
            namespace: None,
        }
    }

    /// (numeric field position in `ordered::NUMERIC`, value key) of each numeric field
    /// with a number.
    pub(crate) fn numeric(&self) -> &[(usize, u64)] {
        &self.numeric[..usize::from(self.numeric_len)]
    }
}

fn find(syms: &[(Key, u32)], k: Key) -> Option<u32> {
    syms.iter().find(|(key, _)| *key == k).map(|(_, s)| *s)
}

fn pair_syms(syms: &[(Key, u32)]) -> [(Pair, Option<u64>); 3] {
    let (s, p, o) = (find(syms, Key::Subject), find(syms, Key::Relation), find(syms, Key::Object));
    let both = |a: Option<u32>, b: Option<u32>| a.zip(b).map(|(a, b)| pair_key(a, b));
    [(Pair::SubjectRelation, both(s, p)), (Pair::RelationObject, both(p, o)), (Pair::SubjectObject, both(s, o))]
}

impl Indexes {
    /// The symbol of an indexed string, added if new.
    pub(crate) fn intern(&mut self, s: &str) -> u32 {
        self.symbols.intern(s)
    }

    /// [`Indexes::intern`] of a string the caller gives away.
    pub(crate) fn intern_owned(&mut self, s: Box<str>) -> u32 {
        self.symbols.intern_owned(s)
    }

    /// Indexes a record under its field values, interned ([`Indexes::intern`]), and the
    /// rest of the keys taken from its grain (whose strings are not read here). With
    /// `pending` (a bulk load), the ordered indexes' entries are gathered there, for
    /// [`Indexes::absorb`].
    pub(crate) fn insert(
        &mut self,
        id: Id,
        r: &Record,
        syms: &[(Key, u32)],
        keys: &IndexKeys,
        pending: Option<&mut Pending>,
    ) {
        for (k, sym) in syms {
            self.single.add(single_key(*k, *sym), id);
        }
        for (p, key) in pair_syms(syms) {
            if let Some(key) = key {
                self.pairs[p as usize].add(key, id);
            }
        }
        self.grain_type.add(keys.ty, id);
        match pending {
            Some(p) => self.ordered.insert(id, r, keys, find(syms, Key::Namespace), Some(p)),
            None => {
                self.created.insert((r.created_at(), id));
                self.ordered.insert(id, r, keys, find(syms, Key::Namespace), None);
            }
        }
    }

    /// Lays the ordered entries a bulk load gathered into their B-trees: every query
    /// reads them, so this runs before anything else sees the store.
    pub(crate) fn absorb(&mut self, pending: Pending) {
        self.ordered.absorb(&mut self.created, pending);
    }

    pub(crate) fn remove(&mut self, id: Id, r: &Record) {
        let syms: Vec<(Key, u32)> =
            fields(r).into_iter().filter_map(|(k, s)| self.symbols.get(s).map(|sym| (k, sym))).collect();
        for (k, sym) in &syms {
            self.single.remove(&single_key(*k, *sym), id);
        }
        for (p, key) in pair_syms(&syms) {
            if let Some(key) = key {
                self.pairs[p as usize].remove(&key, id);
            }
        }
        self.grain_type.remove(&r.ty.byte(), id);
        self.created.remove(&(r.created_at(), id));
        self.ordered.remove(id, r, find(&syms, Key::Namespace));
    }

    /// The symbol of an indexed string, if any grain holds it.
    pub(crate) fn symbol(&self, s: &str) -> Option<u32> {
        self.symbols.get(s)
    }

    /// Ids whose `key` field equals `value` (empty if none).
    pub(crate) fn postings(&self, key: Key, value: &str) -> &[Id] {
        self.symbols.get(value).map_or(&[], |sym| self.single.get(&single_key(key, sym)))
    }

    /// Ids whose pair of fields equals (`a`, `b`).
    pub(crate) fn pair(&self, pair: Pair, a: &str, b: &str) -> &[Id] {
        match (self.symbols.get(a), self.symbols.get(b)) {
            (Some(x), Some(y)) => self.pairs[pair as usize].get(&pair_key(x, y)),
            _ => &[],
        }
    }

    /// Ids of one grain type.
    pub(crate) fn of_type(&self, byte: u8) -> &[Id] {
        self.grain_type.get(&byte)
    }
}
