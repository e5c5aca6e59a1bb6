//! Literals, names, fields and values shared by every statement.

use super::cursor::{Bail, Cursor, PResult};
use super::expected::Expect;
use crate::ast::*;
use cal_grammar::{Code, Diagnostic, Keyword, Span, suggest};
use cal_lexer::{Token, string_value};

/// A list started with its first item. `vec![first]` would allocate room for one item
/// and reallocate on the second push; most lists of a query hold two to four.
#[inline]
pub(crate) fn list<T>(first: T) -> Vec<T> {
    let mut v = Vec::with_capacity(LIST_ROOM);
    v.push(first);
    v
}

/// Room for the items of a typical list, taken at once.
const LIST_ROOM: usize = 4;

/// Pushes `item`, making room for a typical list at the first one: a vector
/// grown from nothing by `push` goes through the reallocation path, which
/// costs more than the allocation itself.
#[inline]
pub(crate) fn push_listed<T>(v: &mut Vec<T>, item: T) {
    if v.capacity() == 0 {
        *v = Vec::with_capacity(LIST_ROOM);
    }
    v.push(item);
}

/// The value of a string literal from its raw text: escapes resolved and
/// NFC-normalized, unless the lexer found the whole text plain.
#[inline]
fn string_text(p: &Cursor<'_, '_>, raw: &str) -> Text {
    if p.plain { Text::from(raw) } else { string_value(raw).into() }
}

/// A string literal, escapes resolved and NFC-normalized.
#[inline(always)]
pub(crate) fn string_lit(p: &mut Cursor<'_, '_>) -> PResult<StringLit> {
    match p.peek() {
        Some(Token::Str(raw)) => {
            let span = p.bump();
            Ok(StringLit { value: string_text(p, raw), span })
        }
        // Already reported by the lexer (an unterminated or single-quoted string).
        Some(Token::Error) => Ok(StringLit { value: Text::default(), span: p.bump() }),
        _ => Err(p.error_expecting(Expect::String)),
    }
}

fn number_error(text: &str, span: Span, what: &str, fix: &str) -> Diagnostic {
    Diagnostic::new(Code::E006, span, format!("Invalid number `{text}`: {what}.")).with_suggestion(fix)
}

/// A non-negative integer (`positive_integer`).
#[inline(always)]
pub(crate) fn int_lit(p: &mut Cursor<'_, '_>) -> PResult<IntLit> {
    let text = match p.peek() {
        Some(Token::Number(text)) => text,
        // A malformed number, already reported by the lexer.
        Some(Token::Error) => "0",
        _ => return Err(p.error_expecting(Expect::Integer)),
    };
    let span = p.bump();
    let value = match super::numbers::unsigned(text) {
        Some(v) => v,
        None if text.contains('.') || text.starts_with('-') => {
            p.report(number_error(
                text,
                span,
                "a whole number of zero or more is required here",
                "Write the number as digits only, without a sign or a decimal point, e.g. `20`.",
            ));
            0
        }
        None => {
            p.report(number_error(
                text,
                span,
                "it is too large",
                "Use a smaller number; the limits of §17.3 are far below this.",
            ));
            0
        }
    };
    Ok(IntLit { value, span })
}

/// A number, integer or decimal; CAL-E006 when out of range.
#[inline(always)]
pub(crate) fn number(p: &mut Cursor<'_, '_>) -> PResult<(Number, Span)> {
    let Some(Token::Number(text)) = p.peek() else {
        return Err(p.error_expecting(Expect::Number));
    };
    let span = p.bump();
    if let Some(n) = super::numbers::short_number(text) {
        return Ok((n, span));
    }
    let n = if text.contains('.') {
        match super::numbers::decimal(text) {
            Some(f) if f.is_finite() => Number::Float(f),
            _ => {
                p.report(number_error(text, span, "it is out of range", "Use a number of ordinary size."));
                Number::Float(0.0)
            }
        }
    } else {
        text.parse::<i64>().map(Number::Int).unwrap_or_else(|_| {
            p.report(number_error(
                text,
                span,
                "it is out of range for a 64-bit integer",
                "Use a number between -9223372036854775808 and 9223372036854775807.",
            ));
            Number::Int(0)
        })
    };
    Ok((n, span))
}

/// `[ value, … ]`, from its `[`.
fn array_items(p: &mut Cursor<'_, '_>) -> PResult<Vec<Value>> {
    p.bump();
    let mut items = Vec::new();
    if !p.at(Token::RBracket) {
        loop {
            push_listed(&mut items, value_in_place(p)?);
            if p.eat(Token::Comma).is_none() {
                break;
            }
        }
    }
    p.expect(Token::RBracket)?;
    Ok(items)
}

/// `$name`.
pub(crate) fn param(p: &mut Cursor<'_, '_>) -> PResult<(Text, Span)> {
    match p.peek() {
        Some(Token::Param(name)) => {
            let span = p.bump();
            Ok((name.into(), span))
        }
        _ => Err(p.error_expecting(Expect::Parameter)),
    }
}

/// An integer or a parameter (LIMIT, OFFSET).
#[inline(always)]
pub(crate) fn int_or_param(p: &mut Cursor<'_, '_>) -> PResult<IntOrParam> {
    if let Some(Token::Param(_)) = p.peek() {
        let (name, span) = param(p)?;
        return Ok(IntOrParam::Param(name, span));
    }
    p.expect_label(Expect::Parameter);
    int_lit(p).map(IntOrParam::Int)
}

/// A hash literal or parameter (EXISTS, HISTORY, SUPERSEDE, REVERT, THREAD FROM).
pub(crate) fn target(p: &mut Cursor<'_, '_>) -> PResult<Target> {
    let kind = match p.peek() {
        Some(Token::Hash(h)) => TargetKind::Hash(h.into()),
        Some(Token::Param(name)) => TargetKind::Param(name.into()),
        _ => return Err(p.error_expecting(Expect::Hash)),
    };
    let span = p.bump();
    Ok(Target { kind, span })
}

/// A literal or parameter value (§4 `value`), arrays included.
pub(crate) fn value(p: &mut Cursor<'_, '_>) -> PResult<Value> {
    value_in_place(p)
}

/// [`value`], inlined where a value goes straight into the node that holds it
/// (a comparison, an array): the node is then built around it instead of the
/// value being copied into it from the callee's frame.
#[inline(always)]
pub(crate) fn value_in_place(p: &mut Cursor<'_, '_>) -> PResult<Value> {
    let start = p.start();
    let kind = match p.peek() {
        Some(Token::Str(raw)) => {
            p.bump();
            ValueKind::String(string_text(p, raw))
        }
        Some(Token::Number(_)) => ValueKind::Number(number(p)?.0),
        Some(Token::Kw(Keyword::True)) => {
            p.bump();
            ValueKind::Bool(true)
        }
        Some(Token::Kw(Keyword::False)) => {
            p.bump();
            ValueKind::Bool(false)
        }
        Some(Token::Param(name)) => {
            p.bump();
            ValueKind::Param(name.into())
        }
        Some(Token::Hash(h)) => {
            p.bump();
            ValueKind::Hash(h.into())
        }
        // The lexer has reported this (unterminated string, bad number, …); taking it as a
        // value keeps one lexical mistake from also producing syntax errors around it.
        Some(Token::Error) => {
            p.bump();
            ValueKind::String(Text::default())
        }
        Some(Token::LBracket) => {
            p.enter()?;
            // Left on every path, a broken array's too: a level kept would count
            // against every later query of the document (CAL-E007).
            let items = array_items(p);
            p.leave();
            ValueKind::Array(items?)
        }
        _ => return Err(p.error_expecting(Expect::Value)),
    };
    Ok(Value { kind, span: p.since(start) })
}

/// A field reference: a word (`subject`, `scope`) or a domain field (`hc:patient_id`).
/// Inlined: a field starts every condition and sort, and the call and the copy
/// of its result out of the callee cost more than the few tests it makes.
#[inline(always)]
pub(crate) fn field(p: &mut Cursor<'_, '_>) -> PResult<FieldRef> {
    let start = p.start();
    match p.peek() {
        Some(Token::Ident(prefix)) => {
            p.bump();
            if matches!(p.peek(), Some(Token::Colon))
                && let Some(name) = domain_name(p)
            {
                p.bump();
                p.bump();
                return Ok(FieldRef { name: compact_str::format_compact!("{prefix}:{name}"), span: p.since(start) });
            }
            Ok(FieldRef { name: Text::from(prefix), span: p.since(start) })
        }
        // `scope` is both the consent field and the SCOPE keyword of `IN SCOPE "…"`.
        Some(Token::Kw(Keyword::Scope)) => {
            let span = p.bump();
            Ok(FieldRef { name: cal_grammar::fields::names::SCOPE.into(), span })
        }
        _ => Err(p.error_expecting(Expect::Field)),
    }
}

/// After a domain prefix and `:`, the name of the domain field (`hc:patient_id`): a word,
/// or a lower-case keyword written flush against the colon (`hc:where`, ruling L10; the
/// lexer does the same for excluded words). Out of line: few fields have a prefix.
#[cold]
fn domain_name<'s>(p: &Cursor<'s, '_>) -> Option<&'s str> {
    match p.peek2()? {
        Token::Ident(name) => Some(name),
        _ => keyword_domain_name(p, p.pos.checked_sub(1)?),
    }
}

/// With the token at index `prefix` a word, then `:`, then a keyword, all flush and the
/// keyword in lower case: the keyword's text, which names a domain field (ruling L10).
/// Not a keyword that starts a statement: `b:recall …` in a BATCH is the next entry.
fn keyword_domain_name<'s>(p: &Cursor<'s, '_>, prefix: usize) -> Option<&'s str> {
    let (Some(Token::Colon), Some(Token::Kw(k))) = (p.token_at(prefix + 1), p.token_at(prefix + 2)) else {
        return None;
    };
    if starts_statement(k) {
        return None;
    }
    let (word, colon, name) = (p.span_of(prefix)?, p.span_of(prefix + 1)?, p.span_of(prefix + 2)?);
    let text = p.text(name);
    let flush = word.end == colon.start && colon.end == name.start;
    (flush && !text.bytes().any(|b| b.is_ascii_uppercase())).then_some(text)
}

/// A comma-separated list of fields (SELECT, PROJECT). Stops before `word :`,
/// which starts the next BATCH entry.
pub(crate) fn field_list(p: &mut Cursor<'_, '_>) -> PResult<Vec<FieldRef>> {
    let mut fields = list(field(p)?);
    while matches!(p.peek(), Some(Token::Comma)) {
        match p.peek2() {
            Some(Token::Ident(_) | Token::Kw(Keyword::Scope)) if !is_label_ahead(p, 1) => {
                p.bump();
                fields.push(field(p)?);
            }
            Some(Token::Ident(_) | Token::Kw(Keyword::Scope)) => break,
            // `SELECT subject, | LIMIT 5`: if nothing else takes the comma, a field is what is missing.
            _ => {
                p.expect_after(1, Expect::Field);
                break;
            }
        }
    }
    Ok(fields)
}

/// True when the tokens at `offset` and `offset + 1` are `word :` — a label.
pub(crate) fn is_label_ahead(p: &Cursor<'_, '_>, offset: usize) -> bool {
    // `hc:patient_id` is a domain field, not a label: a label is never followed by a name.
    // Nor is `hc:where` (ruling L10), unless the keyword starts a statement: `b:recall …`
    // in a BATCH is the next entry.
    matches!(p.peek_at(offset), Some(Token::Ident(_) | Token::Kw(_)))
        && matches!(p.peek_at(offset + 1), Some(Token::Colon))
        && !matches!(p.peek_at(offset + 2), Some(Token::Ident(_)))
        && !(matches!(p.peek_at(offset), Some(Token::Ident(_))) && keyword_domain_name(p, p.pos + offset).is_some())
}

/// A label: any word, keywords included (the spec's own examples use `history:` and `recent:`).
/// Keywords are case-insensitive, so a keyword used as a label is normalized to lower case.
pub(crate) fn label(p: &mut Cursor<'_, '_>) -> PResult<Ident> {
    let name = match p.peek() {
        Some(Token::Ident(s)) => Text::from(s),
        Some(Token::Kw(k)) => k.as_str().to_ascii_lowercase().into(),
        _ => return Err(p.error_expecting(Expect::Label)),
    };
    let span = p.bump();
    Ok(Ident { name, span })
}

/// A plain identifier.
pub(crate) fn ident<'s>(p: &mut Cursor<'s, '_>, what: Expect) -> PResult<(&'s str, Span)> {
    match p.peek() {
        Some(Token::Ident(s)) => {
            let span = p.bump();
            Ok((s, span))
        }
        _ => Err(p.error_expecting(what)),
    }
}

/// True for keywords that start a clause or pipeline stage of RECALL or ASSEMBLE: where one of
/// them follows a broken clause, parsing resumes. Never taken for a name or an option.
pub(crate) fn starts_clause(k: Keyword) -> bool {
    matches!(
        k,
        Keyword::Where
            | Keyword::With
            | Keyword::About
            | Keyword::Like
            | Keyword::Since
            | Keyword::Between
            | Keyword::Thread
            | Keyword::Recent
            | Keyword::Contradictions
            | Keyword::As
            | Keyword::Limit
            | Keyword::Offset
            | Keyword::Order
            | Keyword::Select
            | Keyword::Count
            | Keyword::First
            | Keyword::Group
            | Keyword::Project
            | Keyword::Subjects
            | Keyword::Objects
            | Keyword::Hashes
            | Keyword::From
            | Keyword::Budget
            | Keyword::Priority
            | Keyword::Format
            | Keyword::Stream
            | Keyword::For
    )
}

/// True for keywords that start a statement or a query (where a skipped stretch stops,
/// so that a missing `;` is reported once, at the statement).
pub(crate) fn starts_statement(k: Keyword) -> bool {
    matches!(
        k,
        Keyword::Recall
            | Keyword::Assemble
            | Keyword::Exists
            | Keyword::History
            | Keyword::Explain
            | Keyword::Describe
            | Keyword::Batch
            | Keyword::Coalesce
            | Keyword::Add
            | Keyword::Supersede
            | Keyword::Revert
            | Keyword::Define
            | Keyword::Let
            | Keyword::Cal
    )
}

/// A stretch of text that is not a clause, in a statement made of clauses (RECALL, ASSEMBLE):
/// reported once, at its first token ("Unexpected `WHER`; expected a clause", `what` naming
/// what was expected), and skipped up to the next keyword for which `resumes` holds, so that
/// the clauses after it are still parsed. A later word that looks like a misspelling of such
/// a keyword (`RECNET` in `ABUOT "a" RECNET 5`) ends the stretch too, so that it is reported
/// as the next mistake rather than swallowed. It never starts or runs over what may end the
/// statement: `)`, `,`, `;`, `}`, `|`, a statement keyword or a set operator. Returns whether
/// there was such a stretch.
pub(crate) fn junk(p: &mut Cursor<'_, '_>, resumes: fn(Keyword) -> bool, what: Expect) -> bool {
    let stop = |t: &Token<'_>| match t {
        Token::Kw(k) => {
            resumes(*k) || starts_statement(*k) || matches!(k, Keyword::Union | Keyword::Intersect | Keyword::Except)
        }
        Token::Pipe | Token::RParen | Token::Comma | Token::Semicolon | Token::RBrace => true,
        _ => false,
    };
    match p.peek() {
        Some(t) if !stop(&t) => {
            p.error_skipping(what);
            let first = std::cell::Cell::new(true);
            // A word after `:` is a domain field's name (`fin:amount`), not a misspelt clause.
            let misspelt =
                |t: &Token<'_>, before| !matches!(before, Some(Token::Colon)) && misspells_one_of(t, resumes);
            p.skip_stretch(|t, before| stop(t) || (!first.replace(false) && misspelt(t, before)));
            true
        }
        _ => false,
    }
}

/// True when `t` is a word within typing distance of a keyword for which `resumes` holds,
/// and not a word of the language itself (`subject` is a field, not a misspelt `SUBJECTS`).
#[cold]
fn misspells_one_of(t: &Token<'_>, resumes: fn(Keyword) -> bool) -> bool {
    let Token::Ident(word) = t else { return false };
    let known = cal_grammar::fields::common_field(word).is_some()
        || !cal_grammar::fields::owners_of(word).is_empty()
        || GrainType::from_plural(word).is_some()
        || GrainType::from_singular(word).is_some();
    let candidates = Keyword::ALL.iter().filter(|k| resumes(**k)).map(|k| k.as_str());
    !known && suggest::did_you_mean(&word.to_ascii_uppercase(), candidates).is_some()
}

/// A user-chosen name (`what` is "context" or "template"). Reserved words (Appendix D) are
/// reported but still taken as the name, keywords included, so that `ASSEMBLE history FROM …`
/// gets one precise error instead of a cascade. Keywords that start a clause or a template
/// part are never taken: `ASSEMBLE FROM …` has no name.
pub(crate) fn user_name(p: &mut Cursor<'_, '_>, what: &str) -> PResult<Ident> {
    let name: std::borrow::Cow<'_, str> = match p.peek() {
        Some(Token::Ident(s)) => s.into(),
        Some(Token::Kw(k)) if can_be_name(k) => k.as_str().to_ascii_lowercase().into(),
        _ => return Err(p.error_expecting(Expect::Name)),
    };
    let span = p.bump();
    if cal_grammar::is_reserved(&name) {
        p.report(
            Diagnostic::new(
                Code::E002,
                span,
                format!("`{name}` is a reserved word and cannot be used as a {what} name (Appendix D)."),
            )
            .with_suggestion(format!("Choose another name, e.g. `{name}_{what}`."))
            .with_replacement(format!("{name}_{what}")),
        );
    }
    Ok(Ident { name: name.into(), span })
}

/// A keyword that [`user_name`] takes for a name.
pub(crate) fn can_be_name(k: Keyword) -> bool {
    !starts_clause(k) && k != Keyword::Extends && !cal_lexer::is_template_section(k)
}

/// The word in a grain-type position, if the next token can be one.
fn grain_word<'s>(p: &Cursor<'s, '_>) -> Option<&'s str> {
    match p.peek() {
        Some(Token::Ident(s)) => Some(s),
        Some(Token::Kw(Keyword::Observation)) => Some("observation"),
        _ => None,
    }
}

/// A grain type written as a plural (after RECALL). `Ok(None)` when the word is not a type (CAL-E003 reported).
#[inline(always)]
pub(crate) fn grain_type_plural(p: &mut Cursor<'_, '_>) -> Option<GrainTypeRef> {
    let word = grain_word(p)?;
    let span = p.bump();
    match GrainType::from_plural(word) {
        Some(g) => Some(GrainTypeRef { grain_type: g, span }),
        None => {
            p.report(unknown_grain_type(word, span, true));
            None
        }
    }
}

/// A grain type written as a singular (ADD, DESCRIBE fields).
pub(crate) fn grain_type_singular(p: &mut Cursor<'_, '_>) -> PResult<Option<GrainTypeRef>> {
    let Some(word) = grain_word(p) else {
        return Err(p.error_expecting(Expect::GrainType));
    };
    let span = p.bump();
    Ok(match GrainType::from_singular(word) {
        Some(g) => Some(GrainTypeRef { grain_type: g, span }),
        None => {
            p.report(unknown_grain_type(word, span, false));
            None
        }
    })
}

/// True when the next token could be a singular grain type (for optional positions).
pub(crate) fn at_grain_word(p: &Cursor<'_, '_>) -> bool {
    grain_word(p).is_some()
}

/// CAL-E003 with the closest type, the §22.1 rename hint for `fact`, and the valid values.
pub(crate) fn unknown_grain_type(word: &str, span: Span, plural: bool) -> Diagnostic {
    let lower = word.to_ascii_lowercase();
    // The valid values are in the form this position asks for: plurals after RECALL.
    let d = Diagnostic::new(Code::E003, span, format!("Unknown grain type \"{word}\"."));
    let d = if plural { d.with_valid_values(GrainType::plurals()) } else { d.with_valid_values(GrainType::words()) };
    if lower == "fact" || lower == "facts" {
        // The exact wording of the spec's own example (§22.1).
        let fix = if plural { "beliefs" } else { "belief" };
        return d
            .with_suggestion("Did you mean \"belief\"? (OMS renamed Fact -> Belief in v1.2)")
            .with_replacement(fix);
    }
    let same_form = if plural { GrainType::from_plural(&lower) } else { GrainType::from_singular(&lower) };
    if let Some(g) = same_form {
        let fix = if plural { g.plural() } else { g.singular() };
        return d
            .with_suggestion(format!("Did you mean \"{fix}\"? Grain types are written in lower case."))
            .with_replacement(fix);
    }
    let (other_form, candidates): (Option<GrainType>, Vec<&str>) = if plural {
        (GrainType::from_singular(&lower), GrainType::plurals().collect())
    } else {
        (GrainType::from_plural(&lower), GrainType::words().collect())
    };
    let fix = match other_form {
        Some(g) if plural => Some(g.plural()),
        Some(g) => Some(g.singular()),
        None => suggest::did_you_mean(word, candidates.iter().copied()),
    };
    match fix {
        Some(f) => {
            let why = match (other_form.is_some(), plural) {
                (true, true) => " RECALL takes the plural form.",
                (true, false) => " Here the singular form is used.",
                _ => "",
            };
            d.with_suggestion(format!("Did you mean \"{f}\"?{why}")).with_replacement(f)
        }
        None => d.with_suggestion(format!("Use one of the ten OMS grain types: {}.", candidates.join(", "))),
    }
}

/// Reports an unknown word in a closed-vocabulary position with "did you mean" and valid values;
/// `otherwise` is the advice when no valid word is close.
pub(crate) fn unknown_word(
    what: &str,
    word: &str,
    span: Span,
    valid: &[&'static str],
    otherwise: Option<&str>,
) -> Diagnostic {
    let mut d =
        Diagnostic::new(Code::E002, span, format!("Unknown {what} `{word}`.")).with_valid_values(valid.iter().copied());
    if let Some(f) = suggest::did_you_mean(word, valid.iter().copied()) {
        d = d.with_suggestion(format!("Did you mean `{f}`?")).with_replacement(f);
    } else if let Some(advice) = otherwise {
        d = d.with_suggestion(advice);
    }
    d
}

/// A format or preset name (after AS or FORMAT).
#[inline(always)]
pub(crate) fn format_name(p: &mut Cursor<'_, '_>) -> PResult<FormatRef> {
    let (word, span) = ident(p, Expect::Format)?;
    let format = FormatName::from_word(word).unwrap_or_else(|| {
        p.report(unknown_word("format", word, span, &FormatName::words().collect::<Vec<_>>(), None));
        FormatName::Json
    });
    Ok(FormatRef { format, span })
}

/// `( inner )`, or another pair of brackets. A broken inside is skipped to the matching
/// close and replaced by `fallback` (given the span of the whole group); a missing close
/// keeps the inside. Either way the error is reported once and parsing goes on after the
/// group, so one bad source or operand does not hide the rest of the statement.
pub(crate) fn parenthesized<'s, T>(
    p: &mut Cursor<'s, '_>,
    inner: impl FnOnce(&mut Cursor<'s, '_>) -> PResult<T>,
    fallback: impl FnOnce(Span) -> T,
) -> PResult<T> {
    delimited(p, Token::LParen, Token::RParen, inner, fallback)
}

/// [`parenthesized`] for any pair of brackets.
pub(crate) fn delimited<'s, T>(
    p: &mut Cursor<'s, '_>,
    open: Token<'static>,
    close: Token<'static>,
    inner: impl FnOnce(&mut Cursor<'s, '_>) -> PResult<T>,
    fallback: impl FnOnce(Span) -> T,
) -> PResult<T> {
    let open_at = p.pos;
    let start = p.start();
    p.expect(open)?;
    let result = match inner(p) {
        Ok(v) if p.eat(close).is_some() => return Ok(v),
        Ok(v) => {
            let _ = p.error();
            Ok(v)
        }
        Err(Bail) => Err(Bail),
    };
    match p.matching_close(open_at) {
        Some(end) => {
            p.skip_to(end);
            Ok(fallback(p.since(start)))
        }
        None => result,
    }
}

/// True when `t` can start a [`value`].
pub(crate) fn starts_value(t: Option<Token<'_>>) -> bool {
    matches!(
        t,
        Some(
            Token::Str(_)
                | Token::Number(_)
                | Token::Kw(Keyword::True | Keyword::False)
                | Token::Param(_)
                | Token::Hash(_)
                | Token::Error
                | Token::LBracket
        )
    )
}
