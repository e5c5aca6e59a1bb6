//! The one reader of `cal.ebnf` ([`crate::EBNF`]).
//!
//! The grammar file is data: this crate's tests hold it to the vocabularies and field
//! tables, and the language server takes keyword documentation, signature help and
//! completion sets (what may start a statement, which words are pipeline stages) from it
//! instead of a second copy. Both read it through this module, so the notation (ISO EBNF:
//! `(* comments *)`, `"terminals"` or `'terminals'`, `? special sequences ?`, `name = … ;`)
//! is tokenized in one place.

use std::collections::BTreeSet;
use std::sync::OnceLock;

/// One token of the EBNF notation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tok {
    /// A production name (`recall_stmt`).
    Name(String),
    /// A terminal, without its quotes (`RECALL`).
    Term(String),
    /// A `? special sequence ?` (prose standing for a set of characters or words).
    Special,
    /// Any other character of the notation: `=`, `;`, `|`, `,`, `-`, brackets, …
    Punct(char),
}

/// One production of the grammar file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// The production name (`recall_stmt`).
    pub name: String,
    /// `name = … ;` as written, comments removed and whitespace collapsed (for hovers).
    pub text: String,
    /// The right-hand side, without the `=` and the `;`.
    pub body: Vec<Tok>,
}

/// Every production of [`crate::EBNF`], in file order (read once). Empty only if the file
/// were malformed, which `tests::the_grammar_file_reads_cleanly` rules out.
pub fn rules() -> &'static [Rule] {
    static RULES: OnceLock<Vec<Rule>> = OnceLock::new();
    RULES.get_or_init(|| read(crate::EBNF).unwrap_or_default())
}

/// The production called `name`.
pub fn rule(name: &str) -> Option<&'static Rule> {
    rules().iter().find(|r| r.name == name)
}

/// The productions that use the terminal `term` (`"RECALL"`), for keyword hovers.
pub fn rules_using(term: &str) -> Vec<&'static Rule> {
    rules().iter().filter(|r| r.body.iter().any(|t| matches!(t, Tok::Term(s) if s == term))).collect()
}

/// The terminals written directly in production `name`'s right-hand side (none for an
/// unknown name).
pub fn terminals(name: &str) -> BTreeSet<String> {
    rule(name)
        .into_iter()
        .flat_map(|r| &r.body)
        .filter_map(|t| match t {
            Tok::Term(s) => Some(s.clone()),
            _ => None,
        })
        .collect()
}

/// The lower-case word terminals reachable from `name`, not descending into `stop`.
pub fn words_deep(name: &str, stop: &[&str]) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut out = BTreeSet::new();
    let mut todo = vec![name.to_string()];
    while let Some(n) = todo.pop() {
        if !seen.insert(n.clone()) || stop.contains(&n.as_str()) {
            continue;
        }
        for t in rule(&n).into_iter().flat_map(|r| &r.body) {
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

/// The terminals that can begin `name` (its FIRST set; a nullable item lets the next one
/// contribute too).
pub fn first_terminals(name: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut seen = BTreeSet::new();
    first_of_rule(name, &mut out, &mut seen);
    out
}

fn first_of_rule(name: &str, out: &mut BTreeSet<String>, seen: &mut BTreeSet<String>) -> bool {
    if !seen.insert(name.to_string()) {
        return false;
    }
    match rule(name) {
        Some(r) => first_of_seq(&r.body, out, seen),
        None => false,
    }
}

/// Adds FIRST of an alternative list to `out`; returns true when it can be empty.
fn first_of_seq(toks: &[Tok], out: &mut BTreeSet<String>, seen: &mut BTreeSet<String>) -> bool {
    let mut nullable_any = false;
    for alt in split_top(toks, '|') {
        let mut nullable = true;
        for item in split_top(alt, ',') {
            if !first_of_item(item, out, seen) {
                nullable = false;
                break;
            }
        }
        nullable_any |= nullable;
    }
    nullable_any
}

/// FIRST of one sequence item; true when the item can be empty.
fn first_of_item(item: &[Tok], out: &mut BTreeSet<String>, seen: &mut BTreeSet<String>) -> bool {
    match item.first() {
        Some(Tok::Term(t)) => {
            out.insert(t.clone());
            false
        }
        Some(Tok::Name(n)) => {
            let nullable = first_of_rule(n, out, seen);
            seen.remove(n);
            nullable
        }
        Some(Tok::Punct(open @ ('(' | '[' | '{'))) => {
            let inner = item.get(1..item.len().saturating_sub(1)).unwrap_or(&[]);
            let nullable = first_of_seq(inner, out, seen);
            *open != '(' || nullable
        }
        _ => true,
    }
}

/// Splits at `sep` outside brackets.
fn split_top(toks: &[Tok], sep: char) -> Vec<&[Tok]> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, t) in toks.iter().enumerate() {
        match t {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') => depth -= 1,
            Tok::Punct(c) if *c == sep && depth == 0 => {
                parts.push(&toks[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&toks[start..]);
    parts
}

/// The tokens of `src` with the byte offset each starts at, or what is unclosed.
fn tokens(src: &str) -> Result<Vec<(Tok, usize, usize)>, String> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let closing = |from: usize, what: &str, close: &str| {
        src[from..].find(close).map(|n| from + n).ok_or_else(|| format!("unclosed {what} at byte {from}"))
    };
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if src[i..].starts_with("(*") {
            i = closing(i + 2, "comment", "*)")? + 2;
        } else if c == b'?' {
            let end = closing(i + 1, "special sequence", "?")?;
            out.push((Tok::Special, i, end + 1));
            i = end + 1;
        } else if c == b'"' || c == b'\'' {
            let end = closing(i + 1, "terminal", if c == b'"' { "\"" } else { "'" })?;
            out.push((Tok::Term(src[i + 1..end].to_string()), i, end + 1));
            i = end + 1;
        } else if c.is_ascii_alphanumeric() || c == b'_' {
            let end = src[i..].find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_')).map_or(b.len(), |n| i + n);
            out.push((Tok::Name(src[i..end].to_string()), i, end));
            i = end;
        } else {
            let ch = src[i..].chars().next().unwrap_or('\0');
            out.push((Tok::Punct(ch), i, i + ch.len_utf8()));
            i += ch.len_utf8();
        }
    }
    Ok(out)
}

/// Reads a grammar: every `name = … ;` in order. An error names the first thing that is
/// not a production, an unclosed comment, terminal or special sequence, or a name defined
/// twice.
pub fn read(src: &str) -> Result<Vec<Rule>, String> {
    let toks = tokens(src)?;
    let mut rules: Vec<Rule> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let (Tok::Name(name), start, _) = &toks[i] else {
            return Err(format!("expected a production name at byte {}: {:?}", toks[i].1, toks[i].0));
        };
        if toks.get(i + 1).map(|t| &t.0) != Some(&Tok::Punct('=')) {
            return Err(format!("`{name}` is not followed by `=`"));
        }
        let semi = toks[i + 2..]
            .iter()
            .position(|t| t.0 == Tok::Punct(';'))
            .map(|n| i + 2 + n)
            .ok_or_else(|| format!("`{name}` does not end with `;`"))?;
        if rules.iter().any(|r| r.name == *name) {
            return Err(format!("`{name}` is defined twice"));
        }
        let text = without_comments(&src[*start..toks[semi].2]).split_whitespace().collect::<Vec<_>>().join(" ");
        rules.push(Rule { name: name.clone(), text, body: toks[i + 2..semi].iter().map(|t| t.0.clone()).collect() });
        i = semi + 1;
    }
    Ok(rules)
}

fn without_comments(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut rest = src;
    while let Some(i) = rest.find("(*") {
        out.push_str(&rest[..i]);
        rest = rest[i..].find("*)").map_or("", |j| &rest[i + j + 2..]);
    }
    out.push_str(rest);
    out
}

/// The grammar file agrees with the tables of this crate and is well formed.
#[cfg(test)]
mod agreement;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grammar_file_reads_cleanly() {
        let read_now = read(crate::EBNF).expect("cal.ebnf is well formed");
        assert_eq!(read_now.len(), rules().len());
        assert!(read_now.len() > 100);
    }

    #[test]
    fn reads_the_grammar() {
        assert!(rule("recall_stmt").is_some_and(|r| r.text.starts_with("recall_stmt = \"RECALL\"")));
        let starts = first_terminals("statement");
        for k in ["RECALL", "ASSEMBLE", "EXPLAIN", "ADD", "COALESCE", "("] {
            assert!(starts.contains(k), "{k} in {starts:?}");
        }
        let stages = first_terminals("pipe_stage");
        assert!(stages.contains("ORDER") && stages.contains("PROJECT") && !stages.contains("|"), "{stages:?}");
        assert!(rules_using("RECALL").iter().any(|r| r.name == "recall_stmt"));
    }

    #[test]
    fn malformed_grammars_are_named() {
        assert!(read("a = \"x\" ;").is_ok());
        assert!(read("a = \"x\"").unwrap_err().contains("does not end"));
        assert!(read("a = \"x ;").unwrap_err().contains("unclosed terminal"));
        assert!(read("a = x ; a = y ;").unwrap_err().contains("twice"));
        assert!(read("(* open").unwrap_err().contains("unclosed comment"));
        assert!(read("= x ;").unwrap_err().contains("production name"));
        // Comments and special sequences may hold the notation's own characters.
        let r = read("a = ? one; two = three ? , \"b\" (* c = d ; *) ;").expect("reads");
        assert_eq!(r[0].text, "a = ? one; two = three ? , \"b\" ;");
        assert_eq!(r[0].body, [Tok::Special, Tok::Punct(','), Tok::Term("b".into())]);
    }
}
