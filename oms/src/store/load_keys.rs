//! Interning on the loading threads (issue 20). A bulk load verifies a file's grains on
//! every core, a part of the file per thread; each thread interns the strings its grains
//! are indexed under (field values and search terms) into a table of its own, and each
//! grain carries small local symbols instead of strings. The one thread that inserts then
//! maps a local symbol to the store's symbol once per part ([`Remap`]), not once per
//! occurrence: a subject, user, namespace, tag or word that recurs is hashed and compared
//! on the inserting thread once per part instead of every time, and no string is
//! allocated or freed per grain.

use hashbrown::HashTable;
use std::hash::BuildHasher;

use super::indexes::{Key, grain_fields};
use crate::grain::Grain;

/// The strings one loading thread has interned, each with a dense local symbol.
#[derive(Default)]
pub(crate) struct LocalSymbols {
    table: HashTable<u32>,
    strings: Vec<Box<str>>,
    state: foldhash::fast::RandomState,
}

impl LocalSymbols {
    /// The local symbol of `s`, added if new.
    pub(crate) fn intern(&mut self, s: &str) -> u32 {
        let LocalSymbols { table, strings, state } = self;
        let hash = state.hash_one(s);
        if let Some(id) = table.find(hash, |id| &*strings[*id as usize] == s) {
            return *id;
        }
        let id = strings.len() as u32;
        strings.push(s.into());
        table.insert_unique(hash, id, |id| state.hash_one(&*strings[*id as usize]));
        id
    }

    /// The string of a local symbol.
    pub(crate) fn get(&self, sym: u32) -> &str {
        &self.strings[sym as usize]
    }

    /// Number of distinct strings.
    pub(crate) fn len(&self) -> usize {
        self.strings.len()
    }
}

/// What a grain of a bulk load is indexed under, in the local symbols of the thread that
/// verified it.
pub(crate) struct LocalKeys {
    /// (access path, local symbol of the field's value).
    pub(crate) fields: Vec<(Key, u32)>,
    /// (local symbol of a search term, its frequency), one entry per distinct term.
    pub(crate) terms: Vec<(u32, u32)>,
}

impl LocalKeys {
    /// The keys of `g`, interned in `local`.
    pub(crate) fn of(g: &Grain, local: &mut LocalSymbols) -> LocalKeys {
        let fields = grain_fields(g).into_iter().map(|(k, s)| (k, local.intern(s))).collect();
        let mut tokens: Vec<u32> = Vec::new();
        for (_, text) in super::search::projection(g) {
            super::search::for_each_term(&text, |t| tokens.push(local.intern(t)));
        }
        tokens.sort_unstable();
        let mut terms: Vec<(u32, u32)> = Vec::with_capacity(tokens.len());
        for t in tokens {
            match terms.last_mut() {
                Some((last, n)) if *last == t => *n += 1,
                _ => terms.push((t, 1)),
            }
        }
        LocalKeys { fields, terms }
    }

    /// Whether the grain has a string under this access path.
    pub(crate) fn has(&self, k: Key) -> bool {
        self.fields.iter().any(|(key, _)| *key == k)
    }
}

/// Local symbols of one part of a file mapped to the store's field and term symbols, each
/// looked up the first time the part uses it.
pub(crate) struct Remap<'a> {
    local: &'a LocalSymbols,
    fields: Vec<u32>,
    terms: Vec<u32>,
}

/// Buffers the inserting thread of a bulk load reuses from grain to grain: the store's
/// symbols of one grain's field values and of its terms.
#[derive(Default)]
pub(crate) struct LoadScratch {
    pub(crate) syms: Vec<(Key, u32)>,
    pub(crate) terms: Vec<(u32, u32)>,
}

/// Not mapped yet.
const UNMAPPED: u32 = u32::MAX;

impl<'a> Remap<'a> {
    pub(crate) fn new(local: &'a LocalSymbols) -> Self {
        Remap { local, fields: vec![UNMAPPED; local.len()], terms: vec![UNMAPPED; local.len()] }
    }

    /// The store's field symbol for a local symbol (`intern` adds it to the store's table).
    pub(crate) fn field(&mut self, sym: u32, intern: impl FnOnce(&str) -> u32) -> u32 {
        let slot = &mut self.fields[sym as usize];
        if *slot == UNMAPPED {
            *slot = intern(self.local.get(sym));
        }
        *slot
    }

    /// The string of a local symbol.
    pub(crate) fn local(&self, sym: u32) -> &'a str {
        self.local.get(sym)
    }

    /// The store's term symbol for a local symbol (`intern` adds it to the term table).
    pub(crate) fn term(&mut self, sym: u32, intern: impl FnOnce(&str) -> u32) -> u32 {
        let slot = &mut self.terms[sym as usize];
        if *slot == UNMAPPED {
            *slot = intern(self.local.get(sym));
        }
        *slot
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_symbols_are_dense_and_stable() {
        let mut local = LocalSymbols::default();
        let words = ["b", "a", "b", "c", "a", "é"];
        let syms: Vec<u32> = words.iter().map(|w| local.intern(w)).collect();
        assert_eq!(syms, [0, 1, 0, 2, 1, 3]);
        assert_eq!(local.len(), 4);
        assert_eq!(local.get(3), "é");
    }

    #[test]
    fn a_remap_asks_the_store_once_per_symbol() {
        let mut local = LocalSymbols::default();
        let (x, y) = (local.intern("x"), local.intern("y"));
        let mut remap = Remap::new(&local);
        let mut asked = Vec::new();
        for s in [x, y, x, x, y] {
            remap.field(s, |t| {
                asked.push(t.to_string());
                100 + asked.len() as u32
            });
        }
        assert_eq!(asked, ["x", "y"]);
        assert_eq!(remap.field(x, |_| unreachable!()), 101);
        assert_eq!(remap.term(x, |_| 7), 7, "terms map apart from fields");
    }
}
