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
use std::sync::atomic::{AtomicU64, Ordering};

use super::indexes::Key;
use crate::grain::Grain;
use crate::value::Value;

/// Distinct strings with dense symbols, in the order they were first seen.
#[derive(Default)]
pub(crate) struct Strings {
    table: HashTable<u32>,
    strings: Vec<Box<str>>,
    state: foldhash::fast::RandomState,
}

impl Strings {
    /// The symbol of `s`, added if new.
    pub(crate) fn intern(&mut self, s: &str) -> u32 {
        let Strings { table, strings, state } = self;
        let hash = state.hash_one(s);
        if let Some(id) = table.find(hash, |id| &*strings[*id as usize] == s) {
            return *id;
        }
        let id = strings.len() as u32;
        strings.push(s.into());
        table.insert_unique(hash, id, |id| state.hash_one(&*strings[*id as usize]));
        id
    }

    /// The string of a symbol (empty once taken).
    pub(crate) fn get(&self, sym: u32) -> &str {
        &self.strings[sym as usize]
    }

    /// The string of a symbol, moved out (the table must not be searched afterwards).
    fn take(&mut self, sym: u32) -> Box<str> {
        std::mem::take(&mut self.strings[sym as usize])
    }

    /// Number of distinct strings.
    pub(crate) fn len(&self) -> usize {
        self.strings.len()
    }
}

/// What one loading thread interned for one part of a file: field values, search terms and
/// namespaces (for the search statistics) apart, so that the inserting thread can move each
/// string into the store's tables instead of copying it.
#[derive(Default)]
pub(crate) struct Names {
    /// Field values (the single-field access paths).
    pub(crate) fields: Strings,
    /// Search terms.
    pub(crate) terms: Strings,
    /// Namespaces, for the search statistics per namespace.
    pub(crate) spaces: Strings,
}

/// The keys of every grain of one part, end to end (a grain's [`LocalKeys`] says where its
/// own lie): two vectors per part rather than two per grain.
#[derive(Default)]
pub(crate) struct KeyBuf {
    /// (access path, field symbol).
    pub(crate) fields: Vec<(Key, u32)>,
    /// (term symbol, its frequency in the grain), one entry per distinct term of a grain.
    pub(crate) terms: Vec<(u32, u32)>,
}

/// The state of one loading thread for one part of a file.
pub(crate) struct LocalSymbols {
    /// The strings interned.
    pub(crate) names: Names,
    /// The keys of the part's grains.
    pub(crate) keys: KeyBuf,
    /// The term symbols of the grain being read (reused).
    tokens: Vec<u32>,
    /// The term symbols of the subject and of the relation, by field symbol, as (start,
    /// length) in `memo_tokens`: a subject or relation recurs across many grains, and its
    /// terms are a function of its string.
    memo: [Vec<(u32, u32)>; 2],
    memo_tokens: Vec<u32>,
    /// Tells this part's symbols apart in the per-thread word cache.
    epoch: u64,
}

impl Default for LocalSymbols {
    fn default() -> Self {
        static EPOCH: AtomicU64 = AtomicU64::new(0);
        LocalSymbols {
            names: Names::default(),
            keys: KeyBuf::default(),
            tokens: Vec::new(),
            memo: [Vec::new(), Vec::new()],
            memo_tokens: Vec::new(),
            epoch: EPOCH.fetch_add(1, Ordering::Relaxed) + 1,
        }
    }
}

/// Words remembered per thread by [`LocalSymbols::add_terms`], at most.
const WORD_CACHE: usize = 1 << 16;

/// A word's term, and its symbol in the part of epoch `epoch`.
struct CachedWord {
    term: Box<str>,
    epoch: u64,
    sym: u32,
}

impl LocalSymbols {
    /// Pushes the term symbol of each word of `text` onto `self.tokens`, one hash lookup a
    /// word once the word was seen in this part: the per-thread cache remembers each
    /// word's term (`search::term_of_word`, a pure function of the word) and its symbol in
    /// the latest part that used it.
    fn add_terms(&mut self, text: &str) {
        thread_local! {
            static WORDS: std::cell::RefCell<std::collections::HashMap<Box<str>, CachedWord, foldhash::fast::RandomState>> =
                std::cell::RefCell::default();
        }
        let LocalSymbols { names, tokens, epoch, .. } = self;
        WORDS.with(|words| {
            let mut words = words.borrow_mut();
            super::search::for_each_word(text, |w| {
                if let Some(c) = words.get_mut(w) {
                    if c.epoch != *epoch {
                        c.sym = names.terms.intern(&c.term);
                        c.epoch = *epoch;
                    }
                    tokens.push(c.sym);
                    return;
                }
                let term = super::search::term_of_word(w);
                let sym = names.terms.intern(&term);
                tokens.push(sym);
                if words.len() >= WORD_CACHE {
                    words.clear();
                }
                words.insert(w.into(), CachedWord { term: term.into(), epoch: *epoch, sym });
            });
        });
    }
}

impl LocalSymbols {
    /// [`LocalSymbols::add_terms`] of the text of field string `sym` (memo `which`: 0 the
    /// subject, 1 the relation), remembered for the next grain with the same string.
    fn add_terms_of_field(&mut self, which: usize, sym: u32, text: &str) {
        let memo = &mut self.memo[which];
        if memo.len() <= sym as usize {
            memo.resize(self.names.fields.len().max(sym as usize + 1), (u32::MAX, 0));
        }
        let (at, len) = memo[sym as usize];
        if at != u32::MAX {
            self.tokens.extend_from_slice(&self.memo_tokens[at as usize..(at + len) as usize]);
            return;
        }
        let before = self.tokens.len();
        self.add_terms(text);
        let at = self.memo_tokens.len() as u32;
        self.memo_tokens.extend_from_slice(&self.tokens[before..]);
        self.memo[which][sym as usize] = (at, (self.tokens.len() - before) as u32);
    }
}

/// Where the keys of one grain of a bulk load lie in its part's [`KeyBuf`].
pub(crate) struct LocalKeys {
    fields: (u32, u32),
    terms: (u32, u32),
    /// The local symbol of its namespace among `Names::spaces`.
    pub(crate) space: Option<u32>,
    /// Whether it has a `processing_basis`.
    pub(crate) has_basis: bool,
}

/// The single-field access paths of the top-level string fields, by name.
fn key_of_field(name: &str) -> Option<Key> {
    Some(match name {
        "subject" => Key::Subject,
        "relation" => Key::Relation,
        "object" => Key::Object,
        "namespace" => Key::Namespace,
        "user_id" => Key::UserId,
        "session_id" => Key::SessionId,
        "processing_basis" => Key::Basis,
        "prior_consent" => Key::PriorConsent,
        _ => return None,
    })
}

impl LocalKeys {
    /// The keys of `g` — what `indexes::grain_fields` and `search::terms_of` give, in the
    /// same order — interned in `local`, read in one pass over its fields.
    pub(crate) fn of(g: &Grain, local: &mut LocalSymbols) -> LocalKeys {
        // The string fields in `grain_fields`' order (the order of `Key`), then the tags.
        let mut slots: [Option<&str>; 9] = [None; 9];
        let mut tags: Option<&[Value]> = None;
        for (name, v) in g.fields() {
            match (key_of_field(name), v) {
                (Some(k), Value::Str(s)) => slots[k as usize] = Some(s),
                (None, Value::Array(a)) if name == "structural_tags" => tags = Some(a),
                _ => {}
            }
        }
        let start = local.keys.fields.len() as u32;
        for (i, s) in slots.iter().enumerate() {
            if let (Some(s), Some(k)) = (s, KEYS_IN_ORDER.get(i)) {
                let sym = local.names.fields.intern(s);
                local.keys.fields.push((*k, sym));
            }
        }
        for t in tags.unwrap_or_default().iter().filter_map(Value::as_str) {
            let sym = local.names.fields.intern(t);
            local.keys.fields.push((Key::Tag, sym));
        }
        let fields = (start, local.keys.fields.len() as u32 - start);
        local.tokens.clear();
        let sym_of = |k: Key| local.keys.fields[start as usize..].iter().find(|(key, _)| *key == k).map(|&(_, s)| s);
        let memo_syms = [sym_of(Key::Subject), sym_of(Key::Relation)];
        super::search::for_each_projected(g, |field, text, plain| {
            let which = match field {
                "subject" => 0,
                "relation" => 1,
                _ => 2,
            };
            match memo_syms.get(which).copied().flatten().filter(|_| plain) {
                Some(sym) => local.add_terms_of_field(which, sym, text),
                None => local.add_terms(text),
            }
        });
        let mut tokens = std::mem::take(&mut local.tokens);
        tokens.sort_unstable();
        let start = local.keys.terms.len() as u32;
        for &t in &tokens {
            let mine = local.keys.terms.len() as u32 > start;
            match local.keys.terms.last_mut() {
                Some((last, n)) if mine && *last == t => *n += 1,
                _ => local.keys.terms.push((t, 1)),
            }
        }
        local.tokens = tokens;
        let terms = (start, local.keys.terms.len() as u32 - start);
        let space = slots[Key::Namespace as usize].map(|ns| local.names.spaces.intern(ns));
        LocalKeys { fields, terms, space, has_basis: slots[Key::Basis as usize].is_some() }
    }

    /// The (access path, field symbol) pairs of this grain.
    pub(crate) fn fields<'b>(&self, keys: &'b KeyBuf) -> &'b [(Key, u32)] {
        &keys.fields[self.fields.0 as usize..(self.fields.0 + self.fields.1) as usize]
    }

    /// The (term symbol, frequency) pairs of this grain.
    pub(crate) fn terms<'b>(&self, keys: &'b KeyBuf) -> &'b [(u32, u32)] {
        &keys.terms[self.terms.0 as usize..(self.terms.0 + self.terms.1) as usize]
    }
}

/// The access paths of the top-level string fields, by their discriminant (`Key as usize`).
const KEYS_IN_ORDER: [Key; 9] = [
    Key::Subject,
    Key::Relation,
    Key::Object,
    Key::Namespace,
    Key::UserId,
    Key::SessionId,
    Key::Tag,
    Key::Basis,
    Key::PriorConsent,
];

/// Local symbols of one part of a file mapped to the store's field, term and namespace
/// symbols, each looked up the first time the part uses it; field values and terms are
/// moved into the store's tables, not copied.
pub(crate) struct Remap<'a> {
    names: &'a mut Names,
    fields: Vec<u32>,
    terms: Vec<u32>,
    spaces: Vec<u32>,
}

/// Buffers the inserting thread of a bulk load reuses from grain to grain: the store's
/// symbols of one grain's field values and of its terms.
#[derive(Default)]
pub(crate) struct LoadScratch {
    /// (access path, store symbol) of the grain's field values.
    pub(crate) syms: Vec<(Key, u32)>,
    /// (store term symbol, frequency) of the grain's terms.
    pub(crate) terms: Vec<(u32, u32)>,
}

/// Not mapped yet.
const UNMAPPED: u32 = u32::MAX;

impl<'a> Remap<'a> {
    /// A remap of a part's strings, none mapped yet.
    pub(crate) fn new(names: &'a mut Names) -> Self {
        Remap {
            fields: vec![UNMAPPED; names.fields.len()],
            terms: vec![UNMAPPED; names.terms.len()],
            spaces: vec![UNMAPPED; names.spaces.len()],
            names,
        }
    }

    /// The store's field symbol for a local symbol (`intern` adds the string to the store's
    /// table).
    pub(crate) fn field(&mut self, sym: u32, intern: impl FnOnce(Box<str>) -> u32) -> u32 {
        let slot = &mut self.fields[sym as usize];
        if *slot == UNMAPPED {
            *slot = intern(self.names.fields.take(sym));
        }
        *slot
    }

    /// The store's term symbol for a local symbol (`intern` adds it to the term table).
    pub(crate) fn term(&mut self, sym: u32, intern: impl FnOnce(Box<str>) -> u32) -> u32 {
        let slot = &mut self.terms[sym as usize];
        if *slot == UNMAPPED {
            *slot = intern(self.names.terms.take(sym));
        }
        *slot
    }

    /// The search index's namespace symbol for a local one (`intern` reads its name).
    pub(crate) fn space(&mut self, sym: u32, intern: impl FnOnce(&str) -> u32) -> u32 {
        let slot = &mut self.spaces[sym as usize];
        if *slot == UNMAPPED {
            *slot = intern(self.names.spaces.get(sym));
        }
        *slot
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_symbols_are_dense_and_stable() {
        let mut local = Strings::default();
        let words = ["b", "a", "b", "c", "a", "é"];
        let syms: Vec<u32> = words.iter().map(|w| local.intern(w)).collect();
        assert_eq!(syms, [0, 1, 0, 2, 1, 3]);
        assert_eq!(local.len(), 4);
        assert_eq!(local.get(3), "é");
    }

    #[test]
    fn a_remap_asks_the_store_once_per_symbol_and_moves_the_string() {
        let mut names = Names::default();
        let (x, y) = (names.fields.intern("x"), names.fields.intern("y"));
        let t = names.terms.intern("x");
        let ns = names.spaces.intern("n");
        let mut remap = Remap::new(&mut names);
        let mut asked = Vec::new();
        for s in [x, y, x, x, y] {
            remap.field(s, |t| {
                asked.push(t.to_string());
                100 + asked.len() as u32
            });
        }
        assert_eq!(asked, ["x", "y"]);
        assert_eq!(remap.field(x, |_| unreachable!()), 101);
        assert_eq!(remap.term(t, |s| if &*s == "x" { 7 } else { 0 }), 7, "terms map apart from fields");
        assert_eq!(remap.space(ns, |s| if s == "n" { 3 } else { 0 }), 3);
        assert_eq!(remap.space(ns, |_| unreachable!()), 3);
        assert_eq!(names.fields.get(x), "", "the string was moved into the store");
    }

    /// The keys a bulk load takes in one pass are those the store takes from a grain
    /// (`grain_fields`, `terms_of`), in the same order, for consecutive grains of a part.
    #[test]
    fn local_keys_agree_with_the_grain_s_fields_and_terms() {
        let mut local = LocalSymbols::default();
        for i in 0..40 {
            let g = Grain::from_json(&crate::synthetic::mixed_grain(i, 1_772_798_400_000)).unwrap();
            let keys = LocalKeys::of(&g, &mut local);
            let fields: Vec<(Key, &str)> =
                keys.fields(&local.keys).iter().map(|&(k, s)| (k, local.names.fields.get(s))).collect();
            assert_eq!(fields, super::super::indexes::grain_fields(&g), "grain {i}");
            let terms: Vec<(String, u32)> =
                keys.terms(&local.keys).iter().map(|&(t, n)| (local.names.terms.get(t).to_string(), n)).collect();
            let mut want = super::super::search::terms_of(&g);
            let mut got = terms;
            // Sorted by local symbol here, by term there.
            got.sort();
            want.sort();
            assert_eq!(got, want, "grain {i}");
            assert_eq!(keys.space.map(|s| local.names.spaces.get(s)), g.namespace());
        }
    }
}
