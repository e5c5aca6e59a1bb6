//! Ordered indexes (issue 20): the ids of each grain type in `created_at` order, and the
//! ids of every grain by the value of each numeric field that WHERE and ORDER BY use
//! (`confidence`, `importance`, `priority`). They let RECENT n, SINCE / BETWEEN and
//! numeric ranges read only the part of the store their answer lies in, instead of
//! filtering every grain of a type and sorting the survivors.
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

/// Time- and value-ordered ids.
#[derive(Default)]
pub(crate) struct Ordered {
    /// Per grain type byte: (`created_at`, id) of the grains that have one.
    by_type_time: IntMap<u8, BTreeSet<(i64, Id)>>,
    /// Records without `created_at`: while there are any, recency walks are not used
    /// (recency order puts them last, whichever the direction).
    pub(crate) undated: usize,
    /// Per numeric field: (value key, id) of the grains where it is a number.
    numeric: [BTreeSet<(u64, Id)>; 3],
}

/// The numeric fields of a grain that have an ordered index, as (position, value key).
pub(crate) fn numeric_values(g: &crate::grain::Grain) -> impl Iterator<Item = (usize, u64)> + '_ {
    NUMERIC.iter().enumerate().filter_map(|(i, f)| match g.get(f) {
        Some(v @ (Value::Int(_) | Value::Float(_))) => v.as_f64().map(|x| (i, ord_key(x))),
        _ => None,
    })
}

impl Ordered {
    pub(crate) fn insert(&mut self, id: Id, r: &Record, keys: &super::indexes::IndexKeys) {
        match r.created {
            Some(c) => {
                self.by_type_time.entry(keys.ty).or_default().insert((c, id));
            }
            None => self.undated += 1,
        }
        for &(i, k) in &keys.numeric {
            self.numeric[i].insert((k, id));
        }
    }

    pub(crate) fn remove(&mut self, id: Id, r: &Record) {
        match r.created {
            Some(c) => {
                if let Some(set) = self.by_type_time.get_mut(&r.ty.byte()) {
                    set.remove(&(c, id));
                }
            }
            None => self.undated = self.undated.saturating_sub(1),
        }
        for (i, k) in numeric_values(r.body.grain()) {
            self.numeric[i].remove(&(k, id));
        }
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
        let mut out = Vec::new();
        for (_, id) in self.numeric[i].range((lo, hi)) {
            if out.len() == cap {
                return None;
            }
            out.push(*id);
        }
        Some(out)
    }

    /// The ids of one grain type created in `[from, to)`, or `None` once more than `cap`.
    pub(crate) fn type_time_range(&self, byte: u8, from: Option<i64>, to: Option<i64>, cap: usize) -> Option<Vec<Id>> {
        let Some(set) = self.by_type_time.get(&byte) else { return Some(Vec::new()) };
        if let (Some(f), Some(t)) = (from, to)
            && f >= t
        {
            return Some(Vec::new());
        }
        let lo = Bound::Included((from.unwrap_or(i64::MIN), 0));
        let hi = match to {
            Some(t) => Bound::Excluded((t, 0)),
            None => Bound::Unbounded,
        };
        let mut out = Vec::new();
        for (_, id) in set.range((lo, hi)) {
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
