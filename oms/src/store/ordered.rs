//! Ordered indexes (issue 20): the ids of each grain type, and of each (grain type,
//! namespace), in `created_at` order, and the ids of every grain by the value of each
//! numeric field that WHERE and ORDER BY use (`confidence`, `importance`, `priority`).
//! They let RECENT n, ORDER BY, SINCE / BETWEEN and numeric ranges read only the part of
//! the store their answer lies in (`walk.rs`, `plan.rs`), instead of filtering every grain
//! of a type and sorting the survivors.
//!
//! The keys are exact for what they are asked: a time key is the record's cached
//! `created_at` (the value `Filter::CreatedBetween` and recency order read), and a
//! numeric key is the field's value as an `f64`, mapped to an integer whose order is the
//! numeric order. Integer fields map through `as f64`, which is monotonic, so a range of
//! keys always holds every grain of the matching range of values. A comparison with a
//! float is made in `f64`, the keys' own order, so its range is exactly its matches; any
//! other comparison is checked again on each grain the range returns (`plan.rs`).

use std::collections::BTreeSet;
use std::ops::Bound;

use super::indexes::{Id, IntMap};
use super::record::Record;
use crate::value::Value;

/// The numeric fields with an ordered index.
pub(crate) const NUMERIC: [&str; 3] = ["confidence", "importance", "priority"];

/// An `f64` as an integer of the same order (`-0.0` taken as `0.0`, as `compare` does).
pub(crate) fn ord_key(f: f64) -> u64 {
    let b = (f + 0.0).to_bits();
    if b >> 63 == 1 { !b } else { b | (1 << 63) }
}

/// A range of (key, id) pairs of an ordered set.
pub(crate) type IdRange<K> = (Bound<(K, Id)>, Bound<(K, Id)>);

/// The (key, id) bounds of an ordered set that hold exactly the ids whose key lies
/// between `lo` and `hi`, or `None` when no key can (`BTreeSet::range` panics on some
/// empty ranges, such as a reversed BETWEEN).
pub(crate) fn id_bounds<K: Ord + Copy>(lo: Bound<K>, hi: Bound<K>) -> Option<IdRange<K>> {
    let lo = match lo {
        Bound::Included(k) => Bound::Included((k, 0)),
        Bound::Excluded(k) => Bound::Excluded((k, Id::MAX)),
        Bound::Unbounded => Bound::Unbounded,
    };
    let hi = match hi {
        Bound::Included(k) => Bound::Included((k, Id::MAX)),
        Bound::Excluded(k) => Bound::Excluded((k, 0)),
        Bound::Unbounded => Bound::Unbounded,
    };
    let empty = match (&lo, &hi) {
        (Bound::Included(a), Bound::Included(b)) => a > b,
        (Bound::Included(a) | Bound::Excluded(a), Bound::Included(b) | Bound::Excluded(b)) => a >= b,
        _ => false,
    };
    (!empty).then_some((lo, hi))
}

/// Time- and value-ordered ids.
#[derive(Default)]
pub(crate) struct Ordered {
    /// Per grain type byte: (`created_at`, id) of the grains that have one.
    by_type_time: IntMap<u8, BTreeSet<(i64, Id)>>,
    /// Per (grain type byte, namespace symbol), as `type_ns_key` packs them: the same
    /// pairs, so that RECENT inside one namespace of many reads only that namespace.
    by_type_ns_time: IntMap<u64, BTreeSet<(i64, Id)>>,
    /// Records without `created_at`: while there are any, recency walks are not used
    /// (recency order puts them last, whichever the direction).
    pub(crate) undated: usize,
    /// Per numeric field: (value key, id) of the grains where it is a number.
    numeric: [BTreeSet<(u64, Id)>; 3],
    /// Per numeric field: the grains where it holds something other than a number (or
    /// null), or an integer beyond 2^53. The first sorts among the numbers by its kind,
    /// which the value index cannot say; the second may share its key with a different
    /// integer. ORDER BY that field walks the index only while there are none, so that
    /// equal keys are equal values.
    pub(crate) odd: [usize; 3],
}

/// The map key of a (grain type byte, namespace symbol) pair.
fn type_ns_key(ty: u8, ns: u32) -> u64 {
    (u64::from(ty) << 32) | u64::from(ns)
}

/// The largest integer magnitude whose neighbours all have their own `f64`: beyond it two
/// integers can share a key while comparing unequal.
const EXACT_INT: u128 = 1 << 53;

/// The numeric fields of a grain whose value the key does not order exactly — something
/// other than a number or null, or an integer too large for an `f64` — as a bit per
/// position in `NUMERIC` (see `Ordered::odd`).
pub(crate) fn odd_numeric(g: &crate::grain::Grain) -> u8 {
    NUMERIC.iter().enumerate().fold(0, |bits, (i, f)| match g.get(f) {
        None | Some(Value::Null | Value::Float(_)) => bits,
        Some(Value::Int(n)) if n.unsigned_abs() <= EXACT_INT => bits,
        Some(_) => bits | 1 << i,
    })
}

/// The numeric fields of a grain that have an ordered index, as (position, value key).
pub(crate) fn numeric_values(g: &crate::grain::Grain) -> impl Iterator<Item = (usize, u64)> + '_ {
    NUMERIC.iter().enumerate().filter_map(|(i, f)| match g.get(f) {
        Some(v @ (Value::Int(_) | Value::Float(_))) => v.as_f64().map(|x| (i, ord_key(x))),
        _ => None,
    })
}

/// The entries of the ordered indexes of a bulk load, gathered while its grains are
/// inserted and laid into the B-trees in one go once they all are ([`Ordered::absorb`]):
/// a B-tree insert per grain and index, at a random place of a tree too large for the
/// cache, was a seventh of the time of loading a million grains (issue 20), and a tree
/// built from sorted runs is made leaf by leaf, its nodes full.
///
/// The time entries of all three time indexes are one vector, sorted once: each grain's
/// (`created_at` or 0, id, group), where the group names its (type, namespace) and says
/// whether it has a `created_at`, so that what is held meanwhile is 16 bytes a grain.
#[derive(Default)]
pub(crate) struct Pending {
    times: Vec<(i64, Id, u32)>,
    /// (type byte, namespace symbol) of each group, and the group of each pair.
    groups: Vec<(u8, Option<u32>)>,
    group_of: IntMap<u64, u32>,
    numeric: [Vec<(u64, Id)>; 3],
}

/// The group bit of a grain without `created_at` (in `Indexes::created` only).
const UNDATED: u32 = 1 << 31;

impl Pending {
    /// Room for `n` grains' time entries.
    pub(crate) fn with_capacity(n: usize) -> Self {
        Pending { times: Vec::with_capacity(n), ..Pending::default() }
    }

    fn push_time(&mut self, created: Option<i64>, id: Id, ty: u8, ns: Option<u32>) {
        let key = ns.map_or(u64::from(ty) << 32 | u64::from(u32::MAX), |ns| type_ns_key(ty, ns));
        let groups = &mut self.groups;
        let g = *self.group_of.entry(key).or_insert_with(|| {
            groups.push((ty, ns));
            (groups.len() - 1) as u32
        });
        let g = if created.is_some() { g } else { g | UNDATED };
        self.times.push((created.unwrap_or(0), id, g));
    }
}

/// Adds `new`, sorted, to `set`: one insert each when they are few beside it, else the set
/// is built again from the sorted union (`BTreeSet::from_iter` of a sorted vector builds
/// the tree in one pass, leaf by leaf).
fn merge_sorted<K: Ord + Copy>(set: &mut BTreeSet<(K, Id)>, new: impl ExactSizeIterator<Item = (K, Id)>) {
    if new.len() < set.len() / 8 {
        set.extend(new);
        return;
    }
    if set.is_empty() {
        *set = new.collect();
        return;
    }
    let mut all: Vec<(K, Id)> = new.collect();
    all.extend(std::mem::take(set));
    all.sort_unstable();
    *set = all.into_iter().collect();
}

impl Ordered {
    /// Indexes a record; `ns` is the symbol of its namespace, if it has one. With
    /// `pending`, the B-tree entries are gathered there instead, for [`Ordered::absorb`];
    /// the counters are updated at once either way.
    pub(crate) fn insert(
        &mut self,
        id: Id,
        r: &Record,
        keys: &super::indexes::IndexKeys,
        ns: Option<u32>,
        pending: Option<&mut Pending>,
    ) {
        match pending {
            Some(p) => {
                p.push_time(r.created, id, keys.ty, ns);
                for &(i, k) in keys.numeric() {
                    p.numeric[i].push((k, id));
                }
            }
            None => {
                if let Some(c) = r.created {
                    self.by_type_time.entry(keys.ty).or_default().insert((c, id));
                    if let Some(ns) = ns {
                        self.by_type_ns_time.entry(type_ns_key(keys.ty, ns)).or_default().insert((c, id));
                    }
                }
                for &(i, k) in keys.numeric() {
                    self.numeric[i].insert((k, id));
                }
            }
        }
        if r.created.is_none() {
            self.undated += 1;
        }
        for (i, n) in self.odd.iter_mut().enumerate() {
            *n += usize::from(keys.odd_numeric >> i & 1);
        }
    }

    /// Lays the entries a bulk load gathered into the B-trees (`created` is
    /// `Indexes::created`): the time entries sorted once, then each time tree built from
    /// its share of them, in order; the value trees meanwhile on a second thread.
    pub(crate) fn absorb(&mut self, created: &mut BTreeSet<(i64, Id)>, p: Pending) {
        let Pending { mut times, groups, numeric, .. } = p;
        let numeric_sets = &mut self.numeric;
        // The value trees on a second thread while this one sorts the time entries.
        std::thread::scope(|scope| {
            scope.spawn(move || {
                for (set, mut v) in numeric_sets.iter_mut().zip(numeric) {
                    v.sort_unstable();
                    merge_sorted(set, v.into_iter());
                }
            });
            times.sort_unstable_by_key(|&(c, id, _)| (c, id));
        });
        let dated = |&&(_, _, g): &&(i64, Id, u32)| g & UNDATED == 0;
        let mut per_type: Vec<u8> = groups.iter().map(|(ty, _)| *ty).collect();
        per_type.sort_unstable();
        per_type.dedup();
        for ty in per_type {
            let of_type: Vec<(i64, Id)> = times
                .iter()
                .filter(dated)
                .filter(|(_, _, g)| groups[(g & !UNDATED) as usize].0 == ty)
                .map(|&(c, id, _)| (c, id))
                .collect();
            merge_sorted(self.by_type_time.entry(ty).or_default(), of_type.into_iter());
        }
        for (at, &(ty, ns)) in groups.iter().enumerate() {
            let Some(ns) = ns else { continue };
            let of_group: Vec<(i64, Id)> =
                times.iter().filter(dated).filter(|(_, _, g)| *g == at as u32).map(|&(c, id, _)| (c, id)).collect();
            if !of_group.is_empty() {
                merge_sorted(self.by_type_ns_time.entry(type_ns_key(ty, ns)).or_default(), of_group.into_iter());
            }
        }
        merge_sorted(created, times.into_iter().map(|(c, id, _)| (c, id)));
    }

    /// Takes a record out; `ns` is the symbol of its namespace, if it has one.
    pub(crate) fn remove(&mut self, id: Id, r: &Record, ns: Option<u32>) {
        match r.created {
            Some(c) => {
                if let Some(set) = self.by_type_time.get_mut(&r.ty.byte()) {
                    set.remove(&(c, id));
                }
                if let Some(k) = ns.map(|ns| type_ns_key(r.ty.byte(), ns))
                    && let Some(set) = self.by_type_ns_time.get_mut(&k)
                {
                    set.remove(&(c, id));
                    if set.is_empty() {
                        self.by_type_ns_time.remove(&k);
                    }
                }
            }
            None => self.undated = self.undated.saturating_sub(1),
        }
        let g = r.body.grain();
        for (i, k) in numeric_values(g) {
            self.numeric[i].remove(&(k, id));
        }
        let odd = odd_numeric(g);
        for (i, n) in self.odd.iter_mut().enumerate() {
            *n = n.saturating_sub(usize::from(odd >> i & 1));
        }
    }

    /// The (`created_at`, id) of one grain type in one namespace (by symbol), in time order.
    pub(crate) fn of_type_ns_by_time(&self, byte: u8, ns: u32) -> Option<&BTreeSet<(i64, Id)>> {
        self.by_type_ns_time.get(&type_ns_key(byte, ns))
    }

    /// The (value key, id) of the numeric field at `NUMERIC[i]`, in value order.
    pub(crate) fn by_value(&self, i: usize) -> &BTreeSet<(u64, Id)> {
        &self.numeric[i]
    }

    /// The (`created_at`, id) of one grain type, in time order.
    pub(crate) fn of_type_by_time(&self, byte: u8) -> Option<&BTreeSet<(i64, Id)>> {
        self.by_type_time.get(&byte)
    }

    /// The ids whose numeric field `field` lies in the key range, or `None` when the field
    /// has no ordered index. Stops (returning `None`) once more than `cap` ids are found:
    /// the caller has a cheaper list then.
    pub(crate) fn numeric_range(&self, field: &str, lo: Bound<u64>, hi: Bound<u64>, cap: usize) -> Option<Vec<Id>> {
        let i = NUMERIC.iter().position(|f| *f == field)?;
        let Some(range) = id_bounds(lo, hi) else { return Some(Vec::new()) };
        let mut out = Vec::new();
        for (_, id) in self.numeric[i].range(range) {
            if out.len() == cap {
                return None;
            }
            out.push(*id);
        }
        Some(out)
    }

    /// The ids of one grain type (in one namespace, by symbol, when `ns` is given) created
    /// in `[from, to)`, or `None` once more than `cap`.
    pub(crate) fn type_time_range(
        &self,
        byte: u8,
        ns: Option<u32>,
        from: Option<i64>,
        to: Option<i64>,
        cap: usize,
    ) -> Option<Vec<Id>> {
        let set = match ns {
            Some(ns) => self.of_type_ns_by_time(byte, ns),
            None => self.by_type_time.get(&byte),
        };
        let Some(set) = set else { return Some(Vec::new()) };
        let lo = from.map_or(Bound::Unbounded, Bound::Included);
        let Some(range) = id_bounds(lo, to.map_or(Bound::Unbounded, Bound::Excluded)) else { return Some(Vec::new()) };
        let mut out = Vec::new();
        for (_, id) in set.range(range) {
            if out.len() == cap {
                return None;
            }
            out.push(*id);
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_order_like_numbers() {
        let xs = [f64::NEG_INFINITY, -1e300, -2.5, -0.0, 0.0, 1e-300, 0.99, 1.0, 3.0, f64::INFINITY];
        for w in xs.windows(2) {
            assert!(ord_key(w[0]) <= ord_key(w[1]), "{} {}", w[0], w[1]);
        }
        assert_eq!(ord_key(-0.0), ord_key(0.0));
        assert!(ord_key(0.98) < ord_key(0.99));
    }
}
