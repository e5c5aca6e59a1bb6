//! A minimal reader for `cal.ebnf`, so that tests can check the grammar file against the tables.

use std::collections::{BTreeMap, BTreeSet};

/// One token of the EBNF notation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tok {
    Name(String),
    Term(String),
    Special,
    Punct(char),
}

fn tokens(src: &str) -> Vec<Tok> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        if c.is_whitespace() {
            i += 1;
        } else if src[i..].starts_with("(*") {
            i += src[i..].find("*)").expect("closed comment") + 2;
        } else if c == '?' {
            i += 1 + src[i + 1..].find('?').expect("closed special sequence") + 1;
            out.push(Tok::Special);
        } else if c == '"' || c == '\'' {
            let end = i + 1 + src[i + 1..].find(c).expect("closed terminal");
            out.push(Tok::Term(src[i + 1..end].to_string()));
            i = end + 1;
        } else if c.is_ascii_alphabetic() || c == '_' {
            let end = src[i..].find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_')).map_or(b.len(), |n| i + n);
            out.push(Tok::Name(src[i..end].to_string()));
            i = end;
        } else {
            out.push(Tok::Punct(c));
            i += 1;
        }
    }
    out
}

/// Production name → right-hand side tokens. Panics on a duplicate definition.
pub fn productions() -> BTreeMap<String, Vec<Tok>> {
    let toks = tokens(crate::EBNF);
    let mut map = BTreeMap::new();
    let mut i = 0;
    while i < toks.len() {
        let Tok::Name(name) = &toks[i] else { panic!("expected a production name at token {i}: {:?}", toks[i]) };
        assert_eq!(toks[i + 1], Tok::Punct('='), "{name}");
        let end = i + 2 + toks[i + 2..].iter().position(|t| *t == Tok::Punct(';')).expect("production ends with ;");
        assert!(map.insert(name.clone(), toks[i + 2..end].to_vec()).is_none(), "duplicate production {name}");
        i = end + 1;
    }
    map
}

/// The terminals written directly in production `name`'s right-hand side.
pub fn terminals(name: &str) -> BTreeSet<String> {
    let prods = productions();
    let rhs = prods.get(name).unwrap_or_else(|| panic!("no production {name}"));
    rhs.iter()
        .filter_map(|t| match t {
            Tok::Term(s) => Some(s.clone()),
            _ => None,
        })
        .collect()
}

/// The lower-case word terminals reachable from `name`, not descending into `stop`.
pub fn words_deep(name: &str, stop: &[&str]) -> BTreeSet<String> {
    let prods = productions();
    let mut seen = BTreeSet::new();
    let mut out = BTreeSet::new();
    let mut todo = vec![name.to_string()];
    while let Some(n) = todo.pop() {
        if !seen.insert(n.clone()) || stop.contains(&n.as_str()) {
            continue;
        }
        for t in &prods[&n] {
            match t {
                Tok::Term(s) if s.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') => {
                    out.insert(s.clone());
                }
                Tok::Name(r) => todo.push(r.clone()),
                _ => {}
            }
        }
    }
    out
}

/// A set of owned strings from string slices.
pub fn set<'a>(items: impl IntoIterator<Item = &'a str>) -> BTreeSet<String> {
    items.into_iter().map(str::to_string).collect()
}
