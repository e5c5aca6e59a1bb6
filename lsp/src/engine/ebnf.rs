//! A small reader for `cal_grammar::EBNF`, so that keyword documentation and
//! keyword sets for completion (what may start a statement, which words are
//! pipeline stages) come from the grammar file instead of a second copy.

use std::collections::BTreeSet;
use std::sync::OnceLock;

/// One production of the grammar file, with its text as written (comments removed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// The production name (`recall_stmt`).
    pub name: String,
    /// `name = … ;` with whitespace collapsed.
    pub text: String,
    body: Vec<Tok>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Name(String),
    Term(String),
    Special,
    Punct(char),
}

/// Every production, in file order (parsed once).
pub fn rules() -> &'static [Rule] {
    static RULES: OnceLock<Vec<Rule>> = OnceLock::new();
    RULES.get_or_init(|| parse(cal_grammar::EBNF))
}

/// The production called `name`.
pub fn rule(name: &str) -> Option<&'static Rule> {
    rules().iter().find(|r| r.name == name)
}

/// The productions that use the terminal `term` (`"RECALL"`), for keyword hovers.
pub fn rules_using(term: &str) -> Vec<&'static Rule> {
    rules().iter().filter(|r| r.body.iter().any(|t| matches!(t, Tok::Term(s) if s == term))).collect()
}

/// The terminals that can begin `name` (its FIRST set, ignoring nullable productions' followers
/// only where the grammar makes that irrelevant for keywords).
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
            let n = n.clone();
            let nullable = first_of_rule(&n, out, seen);
            seen.remove(&n);
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

fn strip_comments(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut rest = src;
    while let Some(i) = rest.find("(*") {
        out.push_str(&rest[..i]);
        rest = rest[i..].find("*)").map_or("", |j| &rest[i + j + 2..]);
    }
    out.push_str(rest);
    out
}

fn parse(src: &str) -> Vec<Rule> {
    let src = strip_comments(src);
    let mut rules = Vec::new();
    let mut rest = src.as_str();
    while let Some(eq) = rest.find('=') {
        let name = rest[..eq].trim().to_string();
        let (body, text_end) = tokens_until_semicolon(&rest[eq + 1..]);
        let raw = &rest[..eq + 1 + text_end];
        let text = raw.split_whitespace().collect::<Vec<_>>().join(" ");
        if !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            rules.push(Rule { name, text, body });
        }
        rest = rest.get(eq + 1 + text_end..).unwrap_or("");
    }
    rules
}

/// Tokens up to the terminating `;`, and the byte length consumed including it.
fn tokens_until_semicolon(s: &str) -> (Vec<Tok>, usize) {
    let b = s.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b';' => return (toks, i + 1),
            b'"' | b'\'' => {
                let end = s[i + 1..].find(c as char).map_or(s.len(), |j| i + 1 + j);
                toks.push(Tok::Term(s[i + 1..end].to_string()));
                i = end + 1;
            }
            b'?' => {
                let end = s[i + 1..].find('?').map_or(s.len(), |j| i + 1 + j);
                toks.push(Tok::Special);
                i = end + 1;
            }
            c if c.is_ascii_alphanumeric() || c == b'_' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                toks.push(Tok::Name(s[start..i].to_string()));
            }
            c if c.is_ascii_whitespace() => i += 1,
            c => {
                toks.push(Tok::Punct(c as char));
                i += 1;
            }
        }
    }
    (toks, s.len())
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
