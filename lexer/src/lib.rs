//! # cal-lexer — from bytes to tokens
//!
//! The pre-lex checks of the spec (UTF-8 E070, bidi E071, length E001) and the
//! token stream with byte spans. The tokens are defined with `logos`
//! (`token.rs`); a byte scanner (`scan.rs`) produces them on the hot path and is
//! tested against the `logos` lexer (docs/architecture.md). Tokens borrow from the source text;
//! the only allocations are the token vector and diagnostics. The lexer knows
//! nothing of grammar productions, with one exception it cannot avoid: the
//! body of a template section (`ELEMENT { … }`) is raw text that does not
//! tokenize, so it is captured whole, brace-balanced, as one token. The
//! [`template`] module is also the lexer of that text's Mustache tags, which
//! the parser's template parser reads.

mod keywords;
mod prelex;
mod scan;
mod strings;
mod swar;
pub mod template;
mod token;

pub use prelex::{check_bidi, check_length, decode_utf8, is_bidi_control};
pub use strings::{nfc, quote, string_value};
pub use token::{Token, describe};

use cal_grammar::{Code, Diagnostic, ExcludedWord, Keyword, Span, hash};
use logos::Logos;
use token::Malformed;

/// The tokens of a text, with the problems found while making them.
#[derive(Debug, Clone, Default)]
pub struct Lexed<'src> {
    /// Tokens with their byte spans, in order. Invalid input appears as [`Token::Error`].
    pub tokens: Vec<(Token<'src>, Span)>,
    /// Lexical diagnostics, in source order.
    pub diagnostics: Vec<Diagnostic>,
    /// The text is ASCII and no string literal holds a backslash, so every
    /// [`Token::Str`]'s text is its value as written (no escape to resolve,
    /// and ASCII is NFC): the parser then need not call [`string_value`].
    /// False whenever the lexer is not sure, which costs only that call.
    pub plain: bool,
}

/// Tokenizes `src`. Never fails and never panics: problems become diagnostics
/// and [`Token::Error`] tokens, so the parser can still recover around them.
pub fn lex(src: &str) -> Lexed<'_> {
    lex_into(src, Vec::new())
}

/// [`lex`], writing the tokens into `buffer` (emptied first), so that a caller
/// that lexes often can keep one allocation: see [`recycle`].
pub fn lex_into<'s>(src: &'s str, mut buffer: Vec<(Token<'s>, Span)>) -> Lexed<'s> {
    buffer.clear();
    if src.len() >= u32::MAX as usize {
        // Spans are u32; nothing this large is a query or an editable document.
        let span = Span::new(0, src.len());
        let d = Diagnostic::new(Code::E001, span, "The text is larger than 4 GiB and cannot be lexed.");
        buffer.push((Token::Error, span));
        return Lexed { tokens: buffer, diagnostics: vec![d], plain: false };
    }
    buffer.reserve(src.len() / 4 + 4);
    let mut out = Lexed { tokens: buffer, diagnostics: Vec::new(), plain: true };
    scan::scan(src, 0, usize::MAX, false, &mut out);
    // Every byte outside ASCII is in a string, a comment, a template body or
    // input the scanner rejected, and each of those clears `plain`: a plain
    // text holds no bidi control, and most queries are spared the search.
    if !out.plain {
        let bidi = check_bidi(src);
        if !bidi.is_empty() {
            out.diagnostics.splice(0..0, bidi);
        }
    }
    out
}

/// The tokens of `src` from byte `from` — the start of a token, such as the byte after a
/// `;` — up to and including the first `;` that makes `at_least` tokens or more, or to the
/// end; returns them with the byte where they stop. Spans are offsets into `src`, as
/// [`lex`] gives them: the tokens and diagnostics of consecutive windows are those of the
/// whole text (`windows_are_the_whole_text`). This is how a large document is read a
/// stretch at a time, so that its tokens need not all be held at once (issue 19).
pub fn lex_window<'s>(
    src: &'s str,
    from: usize,
    at_least: usize,
    buffer: Vec<(Token<'s>, Span)>,
) -> (Lexed<'s>, usize) {
    lex_some(src, from, at_least, false, buffer)
}

/// [`lex_window`], stopping after `count` tokens whatever the last one is: how a text is
/// looked through a few tokens at a time, holding no more of them.
pub fn lex_tokens<'s>(src: &'s str, from: usize, count: usize, buffer: Vec<(Token<'s>, Span)>) -> (Lexed<'s>, usize) {
    lex_some(src, from, count, true, buffer)
}

fn lex_some<'s>(
    src: &'s str,
    from: usize,
    at_least: usize,
    any: bool,
    buffer: Vec<(Token<'s>, Span)>,
) -> (Lexed<'s>, usize) {
    let mut buffer = buffer;
    buffer.clear();
    if src.len() >= u32::MAX as usize || from >= src.len() {
        return (
            if from == 0 { lex_into(src, buffer) } else { Lexed { tokens: buffer, ..Lexed::default() } },
            src.len(),
        );
    }
    let mut out = Lexed { tokens: buffer, diagnostics: Vec::new(), plain: true };
    let end = scan::scan(src, from, at_least.max(1), any, &mut out);
    if !out.plain {
        let mut bidi = check_bidi(&src[from..end]);
        if !bidi.is_empty() {
            for d in &mut bidi {
                d.span = Span { start: d.span.start + from as u32, end: d.span.end + from as u32 };
            }
            out.diagnostics.splice(0..0, bidi);
        }
    }
    (out, end)
}

/// The end offsets of the `;` tokens of `src`, at most `max` of them, without holding the
/// other tokens: how a document's queries are counted before it is read (issue 19).
pub fn semicolons(src: &str, max: usize) -> Vec<u32> {
    let mut ends = Vec::new();
    let mut from = 0;
    let mut buffer = Vec::new();
    while from < src.len() && ends.len() < max {
        let (lexed, end) = lex_tokens(src, from, 4096, buffer);
        ends.extend(lexed.tokens.iter().filter(|(t, _)| matches!(t, Token::Semicolon)).map(|(_, s)| s.end));
        buffer = recycle(lexed.tokens);
        from = end;
    }
    ends.truncate(max);
    ends
}

/// How many `;` tokens `src` holds and where the last one ends, holding no token: a
/// document's queries counted before it is read (issue 19).
pub fn count_semicolons(src: &str) -> (usize, u32) {
    let (mut count, mut last, mut from, mut buffer) = (0, 0, 0, Vec::new());
    while from < src.len() {
        let (lexed, end) = lex_tokens(src, from, 4096, buffer);
        for (_, span) in lexed.tokens.iter().filter(|(t, _)| matches!(t, Token::Semicolon)) {
            count += 1;
            last = span.end;
        }
        buffer = recycle(lexed.tokens);
        from = end;
    }
    (count, last)
}

/// The empty token list of one text, with its allocation, retyped for
/// another text: tokens borrow their text, so a buffer cannot outlive it, but
/// its memory can. An empty vector mapped to one of the same layout is
/// collected in place by the standard library, keeping the allocation
/// (`recycling_keeps_the_allocation` checks it); were that ever not so, this
/// would allocate, and nothing else would change.
#[inline]
pub fn recycle<'a, 'b>(mut tokens: Vec<(Token<'a>, Span)>) -> Vec<(Token<'b>, Span)> {
    tokens.clear();
    tokens.into_iter().map(|(_, span)| (Token::Error, span)).collect()
}

/// The same tokens as [`lex`], driven by the `logos` DFA of `token.rs`: the
/// declarative definition the byte scanner is tested against (`tests.rs`).
#[cfg(test)]
pub(crate) fn lex_with_logos(src: &str) -> Lexed<'_> {
    if src.len() >= u32::MAX as usize {
        // Spans are u32; nothing this large is a query or an editable document.
        let span = Span::new(0, src.len());
        let d = Diagnostic::new(Code::E001, span, "The text is larger than 4 GiB and cannot be lexed.");
        return Lexed { tokens: vec![(Token::Error, span)], diagnostics: vec![d], plain: false };
    }
    let mut out = Lexed { tokens: Vec::with_capacity(src.len() / 4 + 4), diagnostics: check_bidi(src), plain: false };
    let mut base = 0usize;
    'restart: loop {
        let mut lexer = Token::lexer(&src[base..]);
        while let Some(result) = lexer.next() {
            let r = lexer.span();
            let (start, end) = (base + r.start, base + r.end);
            // Offsets fit in u32: `lex` is only given texts under 4 GiB (checked on entry).
            let span = Span { start: start as u32, end: end as u32 };
            let tok = match result {
                // Identifier-shaped words are keywords, excluded words or names.
                Ok(Token::Ident(w)) => match keywords::classify(w) {
                    None if w == "sha256" && src.as_bytes().get(end) == Some(&b':') => {
                        base = hash_literal(src, start, &mut out);
                        continue 'restart;
                    }
                    None => {
                        out.tokens.push((Token::Ident(w), span));
                        continue;
                    }
                    Some(t) => t,
                },
                Ok(Token::Number(n)) => {
                    if continues_number(&src[end..]) {
                        base = malformed(src, start, &mut out);
                        continue 'restart;
                    }
                    out.tokens.push((Token::Number(n), span));
                    continue;
                }
                Ok(t) => t,
                Err(()) => {
                    base = malformed(src, start, &mut out);
                    continue 'restart;
                }
            };
            match tok {
                Token::Excluded(ExcludedWord::Consent) if &src[start..end] == "consent" => {
                    // The grain type `consent` (DESCRIBE fields consent, ADD consent) shares its
                    // spelling with the excluded word CONSENT; only the lower-case word is a name.
                    out.tokens.push((Token::Ident("consent"), span));
                }
                Token::Excluded(_) if names_a_domain_field(src.as_bytes(), start, end) => {
                    out.tokens.push((Token::Ident(&src[start..end]), span));
                }
                Token::Excluded(word) => {
                    out.diagnostics.push(excluded(word, &src[start..end], span));
                    out.tokens.push((Token::Excluded(word), span));
                }
                Token::Kw(k) if template::is_section(k) => {
                    out.tokens.push((tok, span));
                    if let Some(next) = template::section_body(src, end, k, &mut out) {
                        base = next;
                        continue 'restart;
                    }
                }
                _ => out.tokens.push((tok, span)),
            }
        }
        break;
    }
    out
}

/// True when the text after a number would make it malformed (`1.`, `12abc`, `1.2.3`).
#[cfg(test)]
fn continues_number(rest: &str) -> bool {
    rest.bytes().next().is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
}

/// Lexes `sha256:…` starting at `start`; returns where lexing resumes.
fn hash_literal<'s>(src: &'s str, start: usize, out: &mut Lexed<'s>) -> usize {
    let body_start = start + "sha256:".len();
    let body_len = src[body_start..].bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
    let body_end = body_start + body_len;
    let body = &src[body_start..body_end];
    // `sha256:a1b2c3d4...` is how examples abbreviate a hash: one E015 for the
    // whole literal rather than an unexpected `.` for each dot.
    let elided = ellipsis_len(&src[body_end..]);
    let end = body_end + elided;
    let span = Span::new(start, end);
    let problem = hash::check_hex(body).err();
    if problem.is_none() && elided == 0 {
        out.tokens.push((Token::Hash(body), span));
    } else {
        let why = match problem {
            Some(p) if elided == 0 => p.describe(body),
            _ => format!("`{}` is abbreviated", &src[start..end]),
        };
        out.diagnostics.push(match problem {
            // The address itself, spelt in the wrong case: lower-casing it is the whole fix.
            Some(hash::HexProblem::UpperCase) if elided == 0 => {
                let fixed = format!("{}{}", hash::HASH_PREFIX, body.to_ascii_lowercase());
                Diagnostic::new(Code::E015, span, format!("Invalid hash literal: {why}."))
                    .with_suggestion(format!("Write `{fixed}`."))
                    .with_replacement(fixed)
            }
            _ => Diagnostic::new(
                Code::E015,
                span,
                format!("Invalid hash literal: {why}; a hash is `sha256:` followed by 8 to 64 hex characters."),
            )
            .with_suggestion("Write the content address as `sha256:` plus its hex digits, or pass it as a parameter.")
            .with_example("EXISTS sha256:a1b2c3d4e5f6a7b8"),
        });
        // Keep a hash token so the statement around it still parses.
        out.tokens.push((Token::Hash(body), span));
    }
    end
}

/// Byte length of a `...` / `…` run at the start of `rest` (two dots or more).
fn ellipsis_len(rest: &str) -> usize {
    let len = rest.chars().take_while(|c| matches!(c, '.' | '\u{2026}')).map(char::len_utf8).sum();
    if len == 1 { 0 } else { len }
}

/// True when the word at `start..end` is the name of a domain field, written right after
/// its prefix and colon (`hc:key`): a field of a domain profile, which may be spelt like an
/// excluded word without being one. Only a lower-case word qualifies, so `x:DELETE` is
/// still the excluded word.
fn names_a_domain_field(bytes: &[u8], start: usize, end: usize) -> bool {
    start >= 2
        && bytes[start - 1] == b':'
        && swar::is_ident(bytes[start - 2])
        && !bytes[start..end].iter().any(u8::is_ascii_uppercase)
}

/// Classifies input the token lexer rejected and reports it; returns where lexing resumes.
fn malformed<'s>(src: &'s str, start: usize, out: &mut Lexed<'s>) -> usize {
    let rest = &src[start..];
    let mut m = Malformed::lexer(rest);
    let (diag, len) = match m.next() {
        Some(Ok(Malformed::UnterminatedString)) if m.span().start == 0 => (
            Diagnostic::new(Code::E005, Span::new(start, src.len()), "Unterminated string literal: no closing `\"`.")
                .with_suggestion("Close the string with `\"`; write a quote inside a string as `\\\"`.")
                .with_example("RECALL ABOUT \"alice\""),
            rest.len(),
        ),
        Some(Ok(Malformed::BadNumber)) if m.span().start == 0 => {
            let text = m.slice();
            let mut d =
                Diagnostic::new(Code::E006, Span::new(start, start + text.len()), format!("Invalid number `{text}`."))
                    .with_suggestion(
                        "Numbers are an optional `-`, digits, and an optional `.` followed by digits (no exponents).",
                    );
            // The two slips with an obvious fix: a missing 0 before or after the point.
            let (sign, digits) = text.split_at(usize::from(text.starts_with('-')));
            if digits.starts_with('.') {
                d = d.with_replacement(format!("{sign}0{digits}"));
            } else if digits.ends_with('.') && digits.matches('.').count() == 1 {
                d = d.with_replacement(format!("{text}0"));
            } else {
                d = d.with_example("RECALL beliefs WHERE confidence >= 0.8");
            }
            (d, text.len())
        }
        Some(Ok(Malformed::SingleQuoted)) if m.span().start == 0 => {
            let text = m.slice();
            let inner = &text[1..text.len() - 1];
            let mut fixed = String::new();
            strings::quote(inner, &mut fixed);
            (
                Diagnostic::new(
                    Code::E002,
                    Span::new(start, start + text.len()),
                    format!("Unexpected `{text}`: strings are written in double quotes."),
                )
                .with_suggestion(format!("Write {fixed}."))
                .with_replacement(fixed),
                text.len(),
            )
        }
        Some(Ok(Malformed::Ellipsis)) if m.span().start == 0 => {
            let text = m.slice();
            (
                Diagnostic::new(
                    Code::E002,
                    Span::new(start, start + text.len()),
                    format!("Unexpected `{text}`: CAL has no ellipsis; this looks like an elided part of an example."),
                )
                .with_suggestion("Write out the value or clause that the ellipsis stands for."),
                text.len(),
            )
        }
        _ => {
            let c = rest.chars().next().unwrap_or(' ');
            let len = c.len_utf8();
            let span = Span::new(start, start + len);
            if is_bidi_control(c) {
                // Already reported as CAL-E071 by the pre-lex check.
                out.tokens.push((Token::Error, span));
                return start + len;
            }
            let mut d = Diagnostic::new(Code::E002, span, format!("Unexpected character `{}`.", c.escape_debug()));
            d = match c {
                '$' => d
                    .with_suggestion("Parameters are written `$name`.")
                    .with_example("RECALL beliefs WHERE user_id = $user"),
                '!' => d.with_suggestion("The not-equal operator is `!=`."),
                '&' => d.with_suggestion("Combine conditions with AND."),
                '\'' => d.with_suggestion("Strings use double quotes: \"…\"."),
                '-' => d.with_suggestion("Comments start with `--`; negative numbers are written `-1`."),
                c if !c.is_ascii() => {
                    d.with_suggestion("Keywords and field names are ASCII (§16.6); put other text inside a string.")
                }
                _ => d,
            };
            (d, len)
        }
    };
    out.tokens.push((Token::Error, Span::new(start, start + len)));
    out.diagnostics.push(diag);
    start + len
}

fn excluded(word: ExcludedWord, written: &str, span: Span) -> Diagnostic {
    let d = Diagnostic::new(
        Code::E002,
        span,
        format!(
            "`{written}` is not part of CAL: it {}. CAL cannot destroy or administer data (§2.4).",
            word.category()
        ),
    )
    .with_suggestion(match word {
        ExcludedWord::Delete
        | ExcludedWord::Drop
        | ExcludedWord::Forget
        | ExcludedWord::Erase
        | ExcludedWord::Destroy
        | ExcludedWord::Purge
        | ExcludedWord::Truncate => {
            "To correct a memory, SUPERSEDE it with a REASON; to undo a change, REVERT it. Erasure is only available outside CAL."
        }
        ExcludedWord::Insert | ExcludedWord::Create | ExcludedWord::Write | ExcludedWord::Store => {
            "To record a new memory, use ADD with SET clauses and a REASON."
        }
        _ => "Keys, policies, consent records and schema are managed outside CAL, through the store's own API.",
    });
    match word.category() {
        "destroys data" => d.with_example(
            "SUPERSEDE sha256:a1b2c3d4e5f6a7b8 SET object = \"light mode\" REASON \"user changed preference\"",
        ),
        c if c.starts_with("creates") => d.with_example(
            "ADD belief SET subject = \"alice\" SET relation = \"prefers\" SET object = \"tea\" REASON \"user said so\"",
        ),
        _ => d,
    }
}

/// True when `k` starts a template section whose body is raw text.
pub fn is_template_section(k: Keyword) -> bool {
    template::is_section(k)
}

#[cfg(test)]
mod tests;
