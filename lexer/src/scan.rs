//! The hot path of the lexer: a byte scanner over the query text.
//!
//! Well-formed input never leaves this loop; anything malformed is handed to
//! the cold-path classifier (`malformed`, built on the `logos` patterns in
//! `token.rs`), which reports it and says where scanning resumes. Words are
//! classified by the generated table in `keywords.rs`.

use crate::swar::{ident_end, is_ident, is_word_start, quote_backslash_or_high, quote_or_backslash};
use crate::{Lexed, Token, excluded, hash_literal, keywords, malformed, names_a_domain_field, template};
use cal_grammar::{ExcludedWord, Span};

/// Scans `src` from byte `from` (the start of a token) into `out`, and stops after the
/// first `;` that brings `out.tokens` to `stop_after` tokens or more; returns where it
/// stopped (`src.len()` at the end); with `any`, it stops after whatever token does.
/// Offsets fit in u32 (checked by the caller).
pub(crate) fn scan<'s>(src: &'s str, from: usize, stop_after: usize, any: bool, out: &mut Lexed<'s>) -> usize {
    let bytes = src.as_bytes();
    let n = bytes.len();
    let mut i = from;
    while i < n {
        if any && out.tokens.len() >= stop_after {
            return i;
        }
        let b = bytes[i];
        let start = i;
        // Pushes a token ending at `$end` and steps over one space after it: most
        // tokens are followed by one (a longer run goes through the dispatch).
        // Each arm pushes its own token while its parts are still in registers;
        // one push after the match spilled and reloaded them (~300 instructions
        // more per simple RECALL).
        macro_rules! emit {
            ($tok:expr, $end:expr) => {{
                let end: usize = $end;
                out.tokens.push(($tok, Span { start: start as u32, end: end as u32 }));
                i = end + usize::from(bytes.get(end) == Some(&b' '));
                continue;
            }};
        }
        // Words first: they are most tokens, and one range test beats the byte
        // dispatch below, which reached them only through its default arm and a
        // second test (300 instructions fewer per simple RECALL).
        if is_word_start(b) {
            let j = ident_end(bytes, i + 1);
            let word = &bytes[start..j];
            match keywords::classify_bytes(word) {
                None if word == b"sha256" && bytes.get(j) == Some(&b':') => {
                    i = hash_literal(src, start, out);
                    // An abbreviated hash may end in `…`.
                    out.plain &= bytes[start..i].is_ascii();
                    continue;
                }
                None => emit!(Token::Ident(&src[start..j]), j),
                Some(Token::Excluded(ExcludedWord::Consent)) if word == b"consent" => {
                    // The grain type `consent` (DESCRIBE fields consent, ADD consent) shares its
                    // spelling with the excluded word CONSENT; only the lower-case word is a name.
                    emit!(Token::Ident("consent"), j)
                }
                Some(Token::Excluded(_)) if names_a_domain_field(bytes, start, j) => {
                    emit!(Token::Ident(&src[start..j]), j)
                }
                Some(Token::Excluded(w)) => {
                    let span = Span { start: start as u32, end: j as u32 };
                    out.diagnostics.push(excluded(w, &src[start..j], span));
                    emit!(Token::Excluded(w), j)
                }
                Some(tok @ Token::Kw(k)) if template::is_section(k) => {
                    out.tokens.push((tok, Span { start: start as u32, end: j as u32 }));
                    // A template body is raw text, whatever its characters.
                    out.plain = false;
                    i = template::section_body(src, j, k, out).unwrap_or(j);
                    continue;
                }
                Some(tok) => emit!(tok, j),
            }
        } else {
            match b {
                b' ' | b'\t' | b'\r' | b'\n' | 0x0C => {
                    i += 1;
                    while i < n && matches!(bytes[i], b' ' | b'\t' | b'\r' | b'\n' | 0x0C) {
                        i += 1;
                    }
                    continue;
                }
                b'-' if bytes.get(i + 1) == Some(&b'-') => {
                    // A comment ends at a line end: `\n`, `\r\n` or a lone `\r`, as an editor shows it.
                    let end = bytes[i..].iter().position(|&c| c == b'\n' || c == b'\r').map_or(n, |p| i + p);
                    out.plain &= bytes[i..end].is_ascii();
                    i = end;
                    continue;
                }
                b'-' | b'0'..=b'9' => {
                    let mut j = i + usize::from(b == b'-');
                    let digits = j;
                    while j < n && bytes[j].is_ascii_digit() {
                        j += 1;
                    }
                    if j == digits {
                        i = unscanned(src, start, out);
                        continue;
                    }
                    if j + 1 < n && bytes[j] == b'.' && bytes[j + 1].is_ascii_digit() {
                        j += 1;
                        while j < n && bytes[j].is_ascii_digit() {
                            j += 1;
                        }
                    }
                    if j < n && (is_ident(bytes[j]) || bytes[j] == b'.') {
                        i = unscanned(src, start, out);
                        continue;
                    }
                    emit!(Token::Number(&src[start..j]), j)
                }
                b'"' => {
                    let mut j = quote_backslash_or_high(bytes, i + 1);
                    if j < n && bytes[j] != b'"' {
                        // An escape or a non-ASCII character: the value is not the text as is.
                        out.plain = false;
                        j = quote_or_backslash(bytes, j);
                        // A backslash takes the byte after it, whatever it is (`\"` does not close).
                        while j < n && bytes[j] == b'\\' {
                            j = quote_or_backslash(bytes, j + 2);
                        }
                    }
                    if j >= n {
                        i = unscanned(src, start, out);
                        continue;
                    }
                    emit!(Token::Str(&src[start + 1..j]), j + 1)
                }
                b'$' => {
                    let mut j = i + 1;
                    if j < n && (bytes[j].is_ascii_alphabetic() || bytes[j] == b'_') {
                        while j < n && is_ident(bytes[j]) {
                            j += 1;
                        }
                        emit!(Token::Param(&src[start + 1..j]), j)
                    } else {
                        i = unscanned(src, start, out);
                        continue;
                    }
                }
                b'(' => emit!(Token::LParen, i + 1),
                b')' => emit!(Token::RParen, i + 1),
                b'[' => emit!(Token::LBracket, i + 1),
                b']' => emit!(Token::RBracket, i + 1),
                b'{' => emit!(Token::LBrace, i + 1),
                b'}' => emit!(Token::RBrace, i + 1),
                b',' => emit!(Token::Comma, i + 1),
                b';' => {
                    out.tokens.push((Token::Semicolon, Span { start: start as u32, end: start as u32 + 1 }));
                    i += 1;
                    if out.tokens.len() >= stop_after {
                        return i;
                    }
                }
                b':' => emit!(Token::Colon, i + 1),
                b'|' => emit!(Token::Pipe, i + 1),
                b'/' => emit!(Token::Slash, i + 1),
                b'=' => emit!(Token::Eq, i + 1),
                b'!' if bytes.get(i + 1) == Some(&b'=') => emit!(Token::Ne, i + 2),
                b'>' if bytes.get(i + 1) == Some(&b'=') => emit!(Token::Ge, i + 2),
                b'<' if bytes.get(i + 1) == Some(&b'=') => emit!(Token::Le, i + 2),
                b'>' => emit!(Token::Gt, i + 1),
                b'<' => emit!(Token::Lt, i + 1),
                _ => {
                    i = unscanned(src, start, out);
                    continue;
                }
            }
        }
    }
    n
}

/// Input the scanner does not take (`malformed` classifies and reports it),
/// which may hold any character: the text is no longer known to be plain.
#[cold]
fn unscanned<'s>(src: &'s str, start: usize, out: &mut Lexed<'s>) -> usize {
    out.plain = false;
    malformed(src, start, out)
}
