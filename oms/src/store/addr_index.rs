//! The table from content address to record id. It holds ids only and finds a grain's
//! address in its record, so a slot is 4 bytes instead of the 36 of a map keyed by the
//! address itself (issue 20: at a million grains the map took 77 bytes a grain, a
//! tenth of the store). Content addresses are uniform hashes already: their first eight
//! bytes are the hash.

use hashbrown::HashTable;

use super::indexes::Id;
use super::record::Record;
use crate::address::ContentAddress;

fn hash(a: &ContentAddress) -> u64 {
    let b = a.as_bytes();
    u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
}

/// The address of a record the table holds: every id in the table names a live record
/// (`remove` takes an id out before its record goes).
fn address_of(records: &[Option<Record>], id: Id) -> Option<&ContentAddress> {
    records.get(id as usize).and_then(Option::as_ref).map(|r| &r.address)
}

fn hash_of(records: &[Option<Record>], id: Id) -> u64 {
    address_of(records, id).map_or(0, hash)
}

/// Ids of the live records, found by their content address.
#[derive(Default)]
pub(crate) struct AddrIndex {
    table: HashTable<Id>,
}

impl AddrIndex {
    /// The id of the record with address `a`.
    pub(crate) fn get(&self, records: &[Option<Record>], a: &ContentAddress) -> Option<Id> {
        self.table.find(hash(a), |id| address_of(records, *id) == Some(a)).copied()
    }

    /// Adds `id`, whose record (already in `records`) has address `a`, not yet in the table.
    pub(crate) fn insert(&mut self, records: &[Option<Record>], a: &ContentAddress, id: Id) {
        self.table.insert_unique(hash(a), id, |other| hash_of(records, *other));
    }

    /// Takes `id` (with address `a`) out of the table.
    pub(crate) fn remove(&mut self, a: &ContentAddress, id: Id) {
        if let Ok(entry) = self.table.find_entry(hash(a), |other| *other == id) {
            entry.remove();
        }
    }

    /// Room for `n` more ids without growing.
    pub(crate) fn reserve(&mut self, records: &[Option<Record>], n: usize) {
        self.table.reserve(n, |other| hash_of(records, *other));
    }
}
