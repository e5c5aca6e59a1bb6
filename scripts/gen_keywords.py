#!/usr/bin/env python3
"""Regenerates lexer/src/keywords.rs from the Keyword and ExcludedWord tables in grammar/src/vocab.rs."""
import re, pathlib
root = pathlib.Path(__file__).resolve().parent.parent
s = (root / "grammar/src/vocab.rs").read_text()
def grab(name):
    m = re.search(r'pub enum ' + name + r' \{(.*?)\n    \}', s, re.S)
    return re.findall(r'(\w+) = "([A-Z_a-z]+)"', m.group(1))
buckets = {}
for v, t in grab('Keyword'):
    buckets.setdefault((len(t), t[0].lower()), []).append((t.lower(), f"Token::Kw(Keyword::{v})"))
for v, t in grab('ExcludedWord'):
    buckets.setdefault((len(t), t[0].lower()), []).append((t.lower(), f"Token::Excluded(ExcludedWord::{v})"))
out = ['''//! Keyword classification of identifier-shaped words.
//!
//! GENERATED from the `Keyword` and `ExcludedWord` tables of cal-grammar
//! (grammar/src/vocab.rs) by scripts/gen_keywords.py; `tests::classify_agrees_with_the_grammar_tables`
//! fails when this file is stale. Words are matched ASCII-case-insensitively
//! (§3.1, §16.6). A match on (length, first letter) narrows each lookup to one
//! or two candidates, each compared byte by byte against a constant, which is what keeps lexing linear and cheap.

use crate::Token;
use cal_grammar::{ExcludedWord, Keyword};

/// Whether `word` is `lower` in any ASCII case. Both are identifier bytes, and
/// for those ORing 0x20 folds case and nothing else: a letter meets only its
/// other case, `_` (0x5F) only itself (0x7F is not an identifier byte), and
/// digits are unchanged. `lower` is a constant, so this unrolls into a few
/// byte comparisons.
#[inline(always)]
fn is(word: &[u8], lower: &[u8]) -> bool {
    word.len() == lower.len() && word.iter().zip(lower).all(|(w, l)| w | 0x20 == l | 0x20)
}

/// The keyword or excluded word spelled `word` (any ASCII case), if any.
#[cfg(test)]
pub(crate) fn classify(word: &str) -> Option<Token<'static>> {
    classify_bytes(word.as_bytes())
}

/// [`classify`] on the bytes of a word: the scanner makes a `&str` only for
/// the words that are names, sparing keywords the slice's character-boundary checks.
#[inline]
#[rustfmt::skip]
pub(crate) fn classify_bytes(b: &[u8]) -> Option<Token<'static>> {
    let first = *b.first()? | 0x20;
    match (b.len(), first) {''']
for (l, c) in sorted(buckets):
    conds = " else ".join(f'if is(b, b"{w}") {{ Some({tok}) }}' for w, tok in buckets[(l, c)])
    out.append(f"        ({l}, b'{c}') => {conds} else {{ None }},")
out.append('''        _ => None,
    }
}
''')
(root / "lexer/src/keywords.rs").write_text("\n".join(out))
