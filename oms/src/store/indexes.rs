//! Secondary indexes: posting lists of internal ids, sorted ascending, one
//! map per access path. The triple indexes follow a hexastore-like layout
//! (S, P, O, SP, PO, SO), so every triple pattern with at least one bound
//! position is answered from a posting list rather than a scan; the others
//! cover the common filters of CAL (type, namespace, user, session, tag,
//! consent basis) and a B-tree over `created_at` serves time ranges and
//! recency order. See docs/architecture.md.

use std::collections::{BTreeSet, HashMap};

use super::record::{str_field, Record};
use crate::value::Value;

/// Internal id of a grain: its position in the store's record table.
pub(crate) type Id = u32;

#[derive(Default)]
pub(crate) struct Indexes {
    pub(crate) subject: HashMap<String, Vec<Id>>,
    pub(crate) relation: HashMap<String, Vec<Id>>,
    pub(crate) object: HashMap<String, Vec<Id>>,
    pub(crate) subject_relation: HashMap<(String, String), Vec<Id>>,
    pub(crate) relation_object: HashMap<(String, String), Vec<Id>>,
    pub(crate) subject_object: HashMap<(String, String), Vec<Id>>,
    pub(crate) grain_type: HashMap<u8, Vec<Id>>,
    pub(crate) namespace: HashMap<String, Vec<Id>>,
    pub(crate) user_id: HashMap<String, Vec<Id>>,
    pub(crate) session_id: HashMap<String, Vec<Id>>,
    pub(crate) tag: HashMap<String, Vec<Id>>,
    pub(crate) processing_basis: HashMap<String, Vec<Id>>,
    pub(crate) created: BTreeSet<(i64, Id)>,
}

fn add<K: std::hash::Hash + Eq>(map: &mut HashMap<K, Vec<Id>>, key: K, id: Id) {
    let list = map.entry(key).or_default();
    match list.last() {
        Some(last) if *last >= id => {
            if let Err(pos) = list.binary_search(&id) {
                list.insert(pos, id);
            }
        }
        _ => list.push(id),
    }
}

fn remove<K: std::hash::Hash + Eq>(map: &mut HashMap<K, Vec<Id>>, key: &K, id: Id) {
    if let Some(list) = map.get_mut(key) {
        if let Ok(pos) = list.binary_search(&id) {
            list.remove(pos);
        }
        if list.is_empty() {
            map.remove(key);
        }
    }
}

/// The index keys a record contributes, computed once for add and remove.
struct Keys {
    s: Option<String>,
    p: Option<String>,
    o: Option<String>,
    ty: u8,
    ns: Option<String>,
    user: Option<String>,
    session: Option<String>,
    tags: Vec<String>,
    basis: Option<String>,
    created: i64,
}

fn keys(r: &Record) -> Keys {
    let g = &r.grain;
    let owned = |n: &str| str_field(g, n).map(str::to_string);
    Keys {
        s: owned("subject"),
        p: owned("relation"),
        o: owned("object"),
        ty: g.grain_type().byte(),
        ns: owned("namespace"),
        user: owned("user_id"),
        session: owned("session_id"),
        tags: g
            .get("structural_tags")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
            .unwrap_or_default(),
        basis: owned("processing_basis"),
        created: r.created_at(),
    }
}

impl Indexes {
    pub(crate) fn insert(&mut self, id: Id, r: &Record) {
        let k = keys(r);
        if let Some(s) = &k.s {
            add(&mut self.subject, s.clone(), id);
        }
        if let Some(p) = &k.p {
            add(&mut self.relation, p.clone(), id);
        }
        if let Some(o) = &k.o {
            add(&mut self.object, o.clone(), id);
        }
        if let (Some(s), Some(p)) = (&k.s, &k.p) {
            add(&mut self.subject_relation, (s.clone(), p.clone()), id);
        }
        if let (Some(p), Some(o)) = (&k.p, &k.o) {
            add(&mut self.relation_object, (p.clone(), o.clone()), id);
        }
        if let (Some(s), Some(o)) = (&k.s, &k.o) {
            add(&mut self.subject_object, (s.clone(), o.clone()), id);
        }
        add(&mut self.grain_type, k.ty, id);
        for (map, key) in [
            (&mut self.namespace, k.ns),
            (&mut self.user_id, k.user),
            (&mut self.session_id, k.session),
            (&mut self.processing_basis, k.basis),
        ] {
            if let Some(key) = key {
                add(map, key, id);
            }
        }
        for t in k.tags {
            add(&mut self.tag, t, id);
        }
        self.created.insert((k.created, id));
    }

    pub(crate) fn remove(&mut self, id: Id, r: &Record) {
        let k = keys(r);
        if let Some(s) = &k.s {
            remove(&mut self.subject, s, id);
        }
        if let Some(p) = &k.p {
            remove(&mut self.relation, p, id);
        }
        if let Some(o) = &k.o {
            remove(&mut self.object, o, id);
        }
        if let (Some(s), Some(p)) = (&k.s, &k.p) {
            remove(&mut self.subject_relation, &(s.clone(), p.clone()), id);
        }
        if let (Some(p), Some(o)) = (&k.p, &k.o) {
            remove(&mut self.relation_object, &(p.clone(), o.clone()), id);
        }
        if let (Some(s), Some(o)) = (&k.s, &k.o) {
            remove(&mut self.subject_object, &(s.clone(), o.clone()), id);
        }
        remove(&mut self.grain_type, &k.ty, id);
        for (map, key) in [
            (&mut self.namespace, k.ns),
            (&mut self.user_id, k.user),
            (&mut self.session_id, k.session),
            (&mut self.processing_basis, k.basis),
        ] {
            if let Some(key) = key {
                remove(map, &key, id);
            }
        }
        for t in &k.tags {
            remove(&mut self.tag, t, id);
        }
        self.created.remove(&(k.created, id));
    }
}
