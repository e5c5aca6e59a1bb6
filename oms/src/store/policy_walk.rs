//! Which protected grains an invalidation must satisfy (§23.6, §23.7):
//! the target itself, predecessors in its supersession chain whose scope is
//! `lineage`, `derived_from` ancestors whose scope is `subtree`, and — to
//! close chain injection (bypass 3) — the `derived_from` ancestors of the
//! proposed superseding grain protected with `subtree` or `lineage` scope.
//! Every walk stops after [`MAX_HOPS`](super::MAX_HOPS).

use std::collections::{HashSet, VecDeque};

use super::indexes::Id;
use super::policy::{is_protective, scope};
use super::record::{Record, derived_from};
use super::{Inner, MAX_HOPS};
use crate::grain::Grain;

/// How a guard relates to the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Relation {
    /// The grain being invalidated.
    Target,
    /// An earlier version of the target (lineage scope).
    Predecessor,
    /// A `derived_from` ancestor of the target (subtree scope).
    Ancestor,
    /// A `derived_from` ancestor of the superseding grain (bypass 3).
    NewGrainAncestor,
}

/// A protected grain whose policy must be satisfied.
pub(crate) struct Guard<'a> {
    pub(crate) record: &'a Record,
    pub(crate) relation: Relation,
}

fn ancestors(inner: &Inner, start: &[Id], mut visit: impl FnMut(Id, &Record)) {
    let mut seen: HashSet<Id> = start.iter().copied().collect();
    let mut queue: VecDeque<(Id, usize)> = start.iter().map(|id| (*id, 0)).collect();
    while let Some((id, hops)) = queue.pop_front() {
        if hops >= MAX_HOPS {
            continue;
        }
        let Some(r) = inner.record(id) else { continue };
        for a in derived_from(r.body.grain()) {
            if let Some(pid) = inner.id_of(&a)
                && seen.insert(pid)
            {
                if let Some(pr) = inner.record(pid) {
                    visit(pid, pr);
                }
                queue.push_back((pid, hops + 1));
            }
        }
    }
}

/// The guards for invalidating `target` (optionally by `new_grain`).
pub(crate) fn guards<'a>(inner: &'a Inner, target: Id, new_grain: Option<&Grain>) -> Vec<Guard<'a>> {
    let mut out: Vec<Guard<'a>> = Vec::new();
    let mut taken: HashSet<Id> = HashSet::new();
    let Some(t) = inner.record(target) else { return out };
    if is_protective(t.effective_policy()) {
        out.push(Guard { record: t, relation: Relation::Target });
    }
    taken.insert(target);
    // Lineage: walk the supersession chain backwards.
    let mut cur = target;
    for _ in 0..MAX_HOPS {
        let Some(prev) = inner.supersedes.get(&cur).copied() else { break };
        if !taken.insert(prev) {
            break;
        }
        if let Some(r) = inner.record(prev)
            && r.effective_policy().is_some_and(|p| is_protective(Some(p)) && scope(p) == "lineage")
        {
            out.push(Guard { record: r, relation: Relation::Predecessor });
        }
        cur = prev;
    }
    // Subtree: derived_from ancestors of the target.
    let mut found = Vec::new();
    ancestors(inner, &[target], |id, r| {
        if r.effective_policy().is_some_and(|p| is_protective(Some(p)) && scope(p) == "subtree") {
            found.push(id);
        }
    });
    // Chain injection: ancestors of the proposed grain.
    let mut injected = Vec::new();
    if let Some(g) = new_grain {
        let roots: Vec<Id> = derived_from(g).iter().filter_map(|a| inner.id_of(a)).collect();
        for id in &roots {
            consider_injected(inner, *id, &mut injected);
        }
        ancestors(inner, &roots, |id, _| consider_injected(inner, id, &mut injected));
    }
    for id in found {
        if taken.insert(id)
            && let Some(r) = inner.record(id)
        {
            out.push(Guard { record: r, relation: Relation::Ancestor });
        }
    }
    for id in injected {
        if taken.insert(id)
            && let Some(r) = inner.record(id)
        {
            out.push(Guard { record: r, relation: Relation::NewGrainAncestor });
        }
    }
    out
}

fn consider_injected(inner: &Inner, id: Id, out: &mut Vec<Id>) {
    if let Some(r) = inner.record(id)
        && r.effective_policy().is_some_and(|p| is_protective(Some(p)) && matches!(scope(p), "subtree" | "lineage"))
    {
        out.push(id);
    }
}
