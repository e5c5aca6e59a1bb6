//! Posting lists keyed by integers, for the secondary indexes (`indexes.rs`). Most keys of
//! the object and pair indexes name a single grain, so a table slot is the key and one
//! `u32`: the id itself, or (top bit set) where a longer list lies in a side table. A slot
//! is 16 bytes instead of the 32 of a map to an inline enum of an id or a vector, which
//! at a million grains is 58 bytes a grain across the single-field and pair tables
//! (issue 20).

use std::hash::Hash;

use super::indexes::{Id, IntMap};

/// Marks a slot that holds the position of a list rather than an id.
const LIST: u32 = 1 << 31;

/// Ids sorted ascending, per key.
pub(crate) struct PostingTable<K> {
    slots: IntMap<K, u32>,
    lists: Vec<Vec<Id>>,
    /// Positions in `lists` emptied by removals, for reuse.
    free: Vec<u32>,
}

impl<K> Default for PostingTable<K> {
    fn default() -> Self {
        PostingTable { slots: IntMap::default(), lists: Vec::new(), free: Vec::new() }
    }
}

impl<K: Hash + Eq + Copy> PostingTable<K> {
    /// The ids of `key` (empty if none).
    pub(crate) fn get(&self, key: &K) -> &[Id] {
        match self.slots.get(key) {
            None => &[],
            Some(slot) if slot & LIST != 0 => &self.lists[(slot & !LIST) as usize],
            Some(id) => std::slice::from_ref(id),
        }
    }

    /// A new list of `ids`, and the slot that names it.
    fn new_list(&mut self, ids: Vec<Id>) -> u32 {
        match self.free.pop() {
            Some(at) => {
                self.lists[at as usize] = ids;
                at | LIST
            }
            None => {
                self.lists.push(ids);
                (self.lists.len() - 1) as u32 | LIST
            }
        }
    }

    /// Adds `id` under `key`.
    pub(crate) fn add(&mut self, key: K, id: Id) {
        match self.slots.get(&key).copied() {
            // Ids with the top bit set cannot be held inline.
            None if id & LIST == 0 => {
                self.slots.insert(key, id);
            }
            None => {
                let slot = self.new_list(vec![id]);
                self.slots.insert(key, slot);
            }
            Some(slot) if slot & LIST != 0 => {
                let list = &mut self.lists[(slot & !LIST) as usize];
                match list.last() {
                    Some(last) if *last >= id => {
                        if let Err(pos) = list.binary_search(&id) {
                            list.insert(pos, id);
                        }
                    }
                    _ => list.push(id),
                }
            }
            Some(one) if one == id => {}
            Some(one) => {
                let slot = self.new_list(if one < id { vec![one, id] } else { vec![id, one] });
                self.slots.insert(key, slot);
            }
        }
    }

    /// Takes `id` out from under `key`; a key left with no id goes.
    pub(crate) fn remove(&mut self, key: &K, id: Id) {
        let Some(slot) = self.slots.get(key).copied() else { return };
        if slot & LIST == 0 {
            if slot == id {
                self.slots.remove(key);
            }
            return;
        }
        let at = slot & !LIST;
        let list = &mut self.lists[at as usize];
        if let Ok(pos) = list.binary_search(&id) {
            list.remove(pos);
        }
        if list.is_empty() {
            self.lists[at as usize] = Vec::new();
            self.free.push(at);
            self.slots.remove(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_grow_from_one_id_and_shrink_back_to_none() {
        let mut t: PostingTable<u64> = PostingTable::default();
        t.add(7, 5);
        assert_eq!(t.get(&7), [5]);
        t.add(7, 5);
        t.add(7, 3);
        t.add(7, 9);
        t.add(7, 4);
        assert_eq!(t.get(&7), [3, 4, 5, 9]);
        t.add(8, LIST | 1);
        assert_eq!(t.get(&8), [LIST | 1], "an id with the top bit set is held in a list");
        for id in [4, 3, 9, 5, 5] {
            t.remove(&7, id);
        }
        assert_eq!(t.get(&7), [] as [Id; 0]);
        t.add(9, 1);
        t.add(9, 2);
        assert_eq!(t.get(&9), [1, 2]);
        assert_eq!(t.lists.len(), 2, "the emptied list's place is reused");
        t.remove(&8, LIST | 1);
        t.remove(&9, 2);
        assert_eq!(t.get(&9), [1]);
        assert_eq!(t.get(&8), [] as [Id; 0]);
    }
}
