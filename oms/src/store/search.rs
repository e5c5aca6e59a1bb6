//! Text search for `query =`, `ABOUT` and `LIKE`: deterministic BM25 over
//! each grain's projected text.
//!
//! Projection follows the per-type content rule of CAL §10.3.2, plus the
//! subject (so `ABOUT "alice"` finds grains about Alice). Tokens are Unicode
//! words (UAX #29) of the NFC text, lowercased and Snowball-stemmed (English).
//! Scores are BM25 (k1 = 1.2, b = 0.75) divided by the best score of the
//! query, so they lie in [0, 1]; ties break by content address ascending.

use std::sync::OnceLock;

use rust_stemmers::{Algorithm, Stemmer};
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};
use unicode_segmentation::UnicodeSegmentation;

use super::indexes::{Id, IntMap, Symbols};
use crate::grain::Grain;
use crate::types::GrainType;
use crate::value::Value;

const K1: f64 = 1.2;
const B: f64 = 0.75;

fn stemmer() -> &'static Stemmer {
    static S: OnceLock<Stemmer> = OnceLock::new();
    S.get_or_init(|| Stemmer::create(Algorithm::English))
}

/// Splits text into search terms: NFC, Unicode word boundaries, lowercase,
/// English stemming.
pub fn tokenize(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_term(text, |t| out.push(t.to_string()));
    out
}

/// Words remembered per thread by [`for_each_term`], at most: a store's text repeats a
/// vocabulary of some thousands of words, and a word's term is a pure function of it.
const TERM_CACHE: usize = 1 << 16;

/// Calls `f` with each search term of `text` in order, as [`tokenize`] returns them, without
/// allocating a string per term. Terms are remembered per thread, word by word (stemming
/// was a tenth of the time of loading a large store, issue 20). `f` must not tokenize.
pub(crate) fn for_each_term(text: &str, mut f: impl FnMut(&str)) {
    thread_local! {
        static TERMS: std::cell::RefCell<std::collections::HashMap<Box<str>, Box<str>, foldhash::fast::RandomState>> =
            std::cell::RefCell::default();
    }
    TERMS.with(|terms| {
        let mut terms = terms.borrow_mut();
        for_each_word(text, |w| {
            if let Some(t) = terms.get(w) {
                f(t);
                return;
            }
            let t = term_of_word(w);
            f(&t);
            if terms.len() >= TERM_CACHE {
                terms.clear();
            }
            terms.insert(w.into(), t.into());
        });
    });
}

/// Calls `f` with each word of `text` (its Unicode words, UAX #29, of its NFC form), in
/// order: the words [`for_each_term`] makes terms of.
pub(crate) fn for_each_word(text: &str, f: impl FnMut(&str)) {
    let nfc: std::borrow::Cow<'_, str> = if text.is_ascii() || is_nfc_quick(text.chars()) == IsNormalized::Yes {
        std::borrow::Cow::Borrowed(text)
    } else {
        std::borrow::Cow::Owned(text.nfc().collect())
    };
    nfc.unicode_words().for_each(f);
}

/// The search term of one word of [`for_each_word`]: folded and stemmed.
pub(crate) fn term_of_word(w: &str) -> String {
    let lower = fold(w);
    match stemmer().stem(&lower) {
        std::borrow::Cow::Borrowed(b) if b.len() == lower.len() => lower,
        stem => stem.into_owned(),
    }
}

/// Case folding: lowercase, plus the two common full-folding cases that
/// lowercase misses (ß → ss, final sigma ς → σ).
fn fold(w: &str) -> String {
    let lower = w.to_lowercase();
    if lower.is_ascii() { lower } else { lower.replace('ß', "ss").replace('ς', "σ") }
}

/// `humanize()` of CAL §10.3.3: strip a namespace prefix, underscores to spaces.
pub fn humanize(relation: &str) -> String {
    let bare = relation.rsplit_once(':').map_or(relation, |(_, r)| r);
    bare.replace('_', " ")
}

fn flatten(v: &Value, out: &mut String) {
    match v {
        Value::Str(s) => {
            out.push_str(s);
            out.push(' ');
        }
        Value::Int(i) => out.push_str(&format!("{i} ")),
        Value::Float(f) => out.push_str(&format!("{f} ")),
        Value::Bool(b) => out.push_str(&format!("{b} ")),
        Value::Array(a) => a.iter().for_each(|x| flatten(x, out)),
        Value::Map(m) => m.values().for_each(|x| flatten(x, out)),
        Value::Null | Value::Bin(_) => {}
    }
}

fn text_of(g: &Grain, field: &str) -> Option<String> {
    let v = g.get(field)?;
    let mut s = String::new();
    flatten(v, &mut s);
    (!s.trim().is_empty()).then_some(s)
}

/// The fields whose text is searchable, in order: the subject, then the CAL §10.3.2
/// content rule of the grain's type.
fn projected_fields(ty: GrainType) -> &'static [&'static str] {
    match ty {
        GrainType::Belief => &["subject", "relation", "object"],
        GrainType::Event => &["subject", "content"],
        GrainType::Goal => &["subject", "description", "object"],
        GrainType::Action => &["subject", "tool_name", "object", "content"],
        GrainType::Observation => &["subject", "object"],
        GrainType::Reasoning => &["subject", "conclusion"],
        GrainType::State => &["subject", "plan"],
        GrainType::Workflow => &["subject", "steps", "trigger"],
        GrainType::Consensus => &["subject", "object", "agreed_content"],
        GrainType::Consent => &["subject", "purpose", "scope"],
        GrainType::Other(_) => &["subject", "object"],
    }
}

/// The searchable parts of a grain, as (field, text): the subject, then the
/// CAL §10.3.2 content rule of its type.
pub fn projection(g: &Grain) -> Vec<(&'static str, String)> {
    let mut parts: Vec<(&'static str, String)> = Vec::new();
    for &field in projected_fields(g.grain_type()) {
        if let Some(t) = text_of(g, field) {
            parts.push((field, if field == "relation" { humanize(&t) } else { t }));
        }
    }
    parts
}

/// Calls `f` with text whose words are exactly those of the texts of [`projection`], in
/// order, without copying a field that is a string: a string field `s` is projected as
/// `s + " "`, and a space after a text ends its last word without changing any other
/// (UAX #29 has no rule joining a word to a following space, nor one whose look-ahead a
/// space satisfies, and a space composes with nothing under NFC), so its words are those
/// of `s`. A relation goes through `humanize` as in the projection. `f` is told the field
/// and whether the text is a function of that field's string alone (`true`), rather than
/// of a flattened array or map.
pub(crate) fn for_each_projected(g: &Grain, mut f: impl FnMut(&'static str, &str, bool)) {
    for &field in projected_fields(g.grain_type()) {
        match g.get(field) {
            None => {}
            Some(Value::Str(s)) if field == "relation" && s.contains([':', '_']) => f(field, &humanize(s), true),
            Some(Value::Str(s)) => f(field, s, true),
            Some(_) => {
                if let Some(t) = text_of(g, field) {
                    f(field, &if field == "relation" { humanize(&t) } else { t }, false);
                }
            }
        }
    }
}

/// An inverted index with BM25 statistics. Terms are interned; document
/// lengths are indexed by id (ids are dense).
#[derive(Default)]
pub(crate) struct TextIndex {
    terms: Symbols,
    postings: IntMap<u32, Vec<(Id, u32)>>,
    doc_len: Vec<u32>,
    docs: u64,
    total_len: u64,
    /// Namespaces, and each document's (its symbol, by id).
    spaces: Symbols,
    space_of: Vec<u32>,
    /// Documents and terms per namespace: the statistics of a search confined to some.
    space_stats: IntMap<u32, (u64, u64)>,
}

/// The namespaces a query is confined to by its filters (`namespace = …`, `namespace IN
/// (…)`, the confinement a capability token adds, CAL §18.3), or `None` for the whole store.
/// A search's BM25 statistics are computed over these only, so that a grain's score never
/// depends on what another namespace holds (issue 19: a cross-namespace side channel).
pub fn visible_namespaces(q: &super::Query) -> Option<Vec<String>> {
    use super::{CmpOp, Filter};
    let mut out: Option<Vec<String>> = None;
    for f in &q.filters {
        let these: Vec<String> = match f {
            Filter::Cmp { field, op: CmpOp::Eq, value: Value::Str(ns) } if field == "namespace" => vec![ns.clone()],
            Filter::In { field, values } if field == "namespace" => {
                values.iter().filter_map(Value::as_str).map(str::to_string).collect()
            }
            _ => continue,
        };
        out = Some(match out {
            None => these,
            Some(prev) => prev.into_iter().filter(|n| these.contains(n)).collect(),
        });
    }
    out.map(|mut v| {
        v.sort();
        v.dedup();
        v
    })
}

/// Term frequencies of a grain's projection, as (term, count), sorted by term.
pub(crate) fn terms_of(g: &Grain) -> Vec<(String, u32)> {
    let mut tokens: Vec<String> = projection(g).iter().flat_map(|(_, text)| tokenize(text)).collect();
    tokens.sort_unstable();
    let mut out: Vec<(String, u32)> = Vec::new();
    for t in tokens {
        match out.last_mut() {
            Some((last, n)) if *last == t => *n += 1,
            _ => out.push((t, 1)),
        }
    }
    out
}

impl TextIndex {
    /// The symbol of a search term, added if new.
    pub(crate) fn intern_term(&mut self, term: &str) -> u32 {
        self.terms.intern(term)
    }

    /// [`TextIndex::intern_term`] of a term the caller gives away.
    pub(crate) fn intern_term_owned(&mut self, term: Box<str>) -> u32 {
        self.terms.intern_owned(term)
    }

    /// The symbol of a namespace (`None`: the grains without one) in the statistics.
    pub(crate) fn space(&mut self, namespace: Option<&str>) -> u32 {
        self.spaces.intern(namespace.unwrap_or(""))
    }

    /// Indexes a document by its terms (`terms_of`), interned ([`TextIndex::intern_term`]),
    /// one entry per distinct term, and its namespace's symbol ([`TextIndex::space`]).
    pub(crate) fn insert(&mut self, id: Id, tf: &[(u32, u32)], space: u32) {
        let len: u32 = tf.iter().map(|(_, n)| n).sum();
        for &(sym, n) in tf {
            let list = self.postings.entry(sym).or_default();
            match list.last() {
                Some((last, _)) if *last >= id => {
                    if let Err(pos) = list.binary_search_by_key(&id, |(i, _)| *i) {
                        list.insert(pos, (id, n));
                    }
                }
                _ => list.push((id, n)),
            }
        }
        let slot = id as usize;
        if self.doc_len.len() <= slot {
            self.doc_len.resize(slot + 1, 0);
        }
        self.doc_len[slot] = len;
        self.docs += 1;
        self.total_len += u64::from(len);
        if self.space_of.len() <= slot {
            self.space_of.resize(slot + 1, u32::MAX);
        }
        self.space_of[slot] = space;
        let st = self.space_stats.entry(space).or_default();
        st.0 += 1;
        st.1 += u64::from(len);
    }

    pub(crate) fn remove(&mut self, id: Id, g: &Grain) {
        for (term, _) in terms_of(g) {
            let Some(sym) = self.terms.get(&term) else { continue };
            if let Some(list) = self.postings.get_mut(&sym) {
                if let Ok(pos) = list.binary_search_by_key(&id, |(i, _)| *i) {
                    list.remove(pos);
                }
                if list.is_empty() {
                    self.postings.remove(&sym);
                }
            }
        }
        if let Some(len) = self.doc_len.get_mut(id as usize) {
            self.total_len -= u64::from(*len);
            if let Some(st) = self.space_of.get(id as usize).and_then(|s| self.space_stats.get_mut(s)) {
                st.0 = st.0.saturating_sub(1);
                st.1 = st.1.saturating_sub(u64::from(*len));
            }
            *len = 0;
            self.docs -= 1;
        }
    }

    /// Raw BM25 scores of every document containing at least one query term,
    /// accumulated in a fixed order (query terms as given, postings by id) so
    /// floating-point sums are reproducible.
    ///
    /// With `visible` (see [`visible_namespaces`]) the collection is those namespaces only:
    /// their documents, lengths and document frequencies.
    ///
    /// A posting list grows with the store, so the caller's deadline is looked at as they
    /// are walked ([`crate::interrupt`]): `Err(Interrupted)` once it has passed.
    pub(crate) fn score(&self, query: &str, visible: Option<&[String]>) -> crate::error::Result<IntMap<Id, f64>> {
        let mut ticker = crate::interrupt::Ticker::default();
        let mut scores: IntMap<Id, f64> = IntMap::default();
        let spaces: Option<Vec<u32>> = visible.map(|v| v.iter().filter_map(|n| self.spaces.get(n)).collect());
        let (docs, total_len) = match &spaces {
            None => (self.docs, self.total_len),
            Some(sp) => sp.iter().filter_map(|s| self.space_stats.get(s)).fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1)),
        };
        let Some(stats) = Bm25::new(docs, total_len) else { return Ok(scores) };
        let seen =
            |id: &Id| spaces.as_ref().is_none_or(|sp| self.space_of.get(*id as usize).is_some_and(|s| sp.contains(s)));
        for term in &query_terms(query) {
            let Some(list) = self.terms.get(term).and_then(|s| self.postings.get(&s)) else { continue };
            let df = if spaces.is_some() {
                let mut df = 0;
                for (id, _) in list {
                    ticker.tick()?;
                    df += usize::from(seen(id));
                }
                df
            } else {
                list.len()
            };
            if df == 0 {
                continue;
            }
            let idf = stats.idf(df);
            for (id, tf) in list.iter().filter(|(id, _)| seen(id)) {
                ticker.tick()?;
                let dl = self.doc_len.get(*id as usize).copied().unwrap_or(0);
                *scores.entry(*id).or_default() += stats.term_score(idf, *tf, dl);
            }
        }
        Ok(scores)
    }
}

/// The BM25 statistics of a collection and the per-posting formula, shared by
/// every store that scores text so that each gives the same scores.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bm25 {
    docs: f64,
    avgdl: f64,
}

impl Bm25 {
    /// Statistics for `docs` documents of `total_len` terms in all; `None`
    /// for an empty collection (nothing scores).
    pub(crate) fn new(docs: u64, total_len: u64) -> Option<Bm25> {
        let n = docs as f64;
        (n > 0.0).then(|| Bm25 { docs: n, avgdl: (total_len as f64 / n).max(1.0) })
    }

    /// The inverse document frequency of a term found in `df` documents.
    pub(crate) fn idf(&self, df: usize) -> f64 {
        let df = df as f64;
        (1.0 + (self.docs - df + 0.5) / (df + 0.5)).ln()
    }

    /// One posting's contribution: term frequency `tf` in a document of `dl` terms.
    pub(crate) fn term_score(&self, idf: f64, tf: u32, dl: u32) -> f64 {
        let tf = f64::from(tf);
        let dl = f64::from(dl);
        idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * dl / self.avgdl))
    }
}

/// The distinct terms of a query, in the order they first occur.
pub(crate) fn query_terms(query: &str) -> Vec<String> {
    let mut terms = tokenize(query);
    let mut seen = std::collections::HashSet::new();
    terms.retain(|t| seen.insert(t.clone()));
    terms
}

/// The projected fields of a grain that share a term with the query.
pub(crate) fn matched_fields(g: &Grain, query: &str) -> Vec<String> {
    let q: std::collections::HashSet<String> = tokenize(query).into_iter().collect();
    projection(g)
        .into_iter()
        .filter(|(_, text)| tokenize(text).iter().any(|t| q.contains(t)))
        .map(|(f, _)| f.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_nfc_lowercased_and_stemmed() {
        assert_eq!(tokenize("Running RUNS run"), ["run", "run", "run"]);
        assert_eq!(tokenize("Cafe\u{301} café"), ["café", "café"]);
        assert_eq!(tokenize("dark-mode, please!"), ["dark", "mode", "pleas"]);
        assert_eq!(tokenize("STRASSE Straße"), tokenize("strasse strasse"));
        assert_eq!(tokenize("ΟΔΟΣ οδος"), tokenize("οδοσ οδοσ"));
    }

    /// `for_each_projected` tokenises a string field as it is, the projection as the string
    /// and a space: the same words, whatever the string ends with.
    #[test]
    fn a_trailing_space_changes_no_word() {
        let tricky = [
            "a\u{301}",
            "e\u{200d}",
            "👍\u{200d}",
            "can'",
            "1,",
            "3.",
            "a:",
            "\u{5d0}\"",
            "x_",
            "\u{1f1e6}",
            "\u{1f1e6}\u{1f1e6}\u{1f1e6}",
            "日本",
            "ok\u{ad}",
            "r\u{feff}",
            " ",
            "",
            "a\u{2060}",
            "1'",
        ];
        for s in tricky {
            assert_eq!(tokenize(s), tokenize(&format!("{s} ")), "{s:?}");
        }
        proptest::proptest!(|(s in "\\PC{0,12}")| {
            proptest::prop_assert_eq!(tokenize(&s), tokenize(&format!("{s} ")));
        });
    }

    #[test]
    fn humanize_strips_prefix_and_underscores() {
        assert_eq!(humanize("mg:prefers"), "prefers");
        assert_eq!(humanize("works_at"), "works at");
        assert_eq!(humanize("acme:similar_to"), "similar to");
    }
}
