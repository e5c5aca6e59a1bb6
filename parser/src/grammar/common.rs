//! Literals, names, fields and values shared by every statement.

use super::{Extra, sp};
use crate::ast::*;
use crate::error::{Expect, ParseError};
use cal_grammar::{Code, Diagnostic, Keyword, suggest};
use cal_lexer::{Token, string_value};
use chumsky::{input::ValueInput, prelude::*};

/// A keyword; yields its span.
pub(crate) fn kw<'t, 's: 't, I>(k: Keyword) -> impl Parser<'t, I, SimpleSpan, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    just(Token::Kw(k)).to_span()
}

/// A punctuation token; yields its span.
pub(crate) fn punct<'t, 's: 't, I>(t: Token<'static>) -> impl Parser<'t, I, SimpleSpan, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    just(t).to_span()
}

/// A specific lower-case word that is not a keyword (`tokens`, `content`, `mmr`, …).
pub(crate) fn word<'t, 's: 't, I>(w: &'static str) -> impl Parser<'t, I, SimpleSpan, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    just(Token::Ident(w)).to_span()
}

/// Any identifier-like word, with its span.
pub(crate) fn ident<'t, 's: 't, I>() -> impl Parser<'t, I, (&'s str, SimpleSpan), Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    select! { Token::Ident(s) = e => (s, e.span()) }.labelled(Expect::Name)
}

/// A string literal, escapes resolved and NFC-normalized.
pub(crate) fn string_lit<'t, 's: 't, I>() -> impl Parser<'t, I, StringLit, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    select! {
        Token::Str(raw) = e => StringLit { value: string_value(raw).into_owned(), span: sp(e.span()) },
        // Already reported by the lexer (an unterminated or single-quoted string).
        Token::Error = e => StringLit { value: String::new(), span: sp(e.span()) },
    }
    .labelled(Expect::String)
}

fn number_error(text: &str, span: SimpleSpan, what: &str, fix: &str) -> ParseError {
    ParseError::custom(
        Diagnostic::new(Code::E006, sp(span), format!("Invalid number `{text}`: {what}.")).with_suggestion(fix),
    )
}

/// A non-negative integer (`positive_integer`).
pub(crate) fn int_lit<'t, 's: 't, I>() -> impl Parser<'t, I, IntLit, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    select! {
        Token::Number(n) = e => (n, e.span()),
        // A malformed number, already reported by the lexer.
        Token::Error = e => ("0", e.span()),
    }
    .labelled(Expect::Integer)
    .validate(|(text, span), _, emitter| {
        let value = if text.contains('.') || text.starts_with('-') {
            emitter.emit(number_error(
                text,
                span,
                "a whole number of zero or more is required here",
                "Write the number as digits only, without a sign or a decimal point, e.g. `20`.",
            ));
            0
        } else {
            text.parse::<u64>().unwrap_or_else(|_| {
                emitter.emit(number_error(
                    text,
                    span,
                    "it is too large",
                    "Use a smaller number; the limits of §17.3 are far below this.",
                ));
                0
            })
        };
        IntLit { value, span: sp(span) }
    })
}

/// Converts a number token to a [`Number`], reporting CAL-E006 when out of range.
pub(crate) fn number<'t, 's: 't, I>() -> impl Parser<'t, I, (Number, SimpleSpan), Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    select! { Token::Number(n) = e => (n, e.span()) }.labelled(Expect::Number).validate(|(text, span), _, emitter| {
        let n = if text.contains('.') {
            match text.parse::<f64>() {
                Ok(f) if f.is_finite() => Number::Float(f),
                _ => {
                    emitter.emit(number_error(text, span, "it is out of range", "Use a number of ordinary size."));
                    Number::Float(0.0)
                }
            }
        } else {
            text.parse::<i64>().map(Number::Int).unwrap_or_else(|_| {
                emitter.emit(number_error(
                    text,
                    span,
                    "it is out of range for a 64-bit integer",
                    "Use a number between -9223372036854775808 and 9223372036854775807.",
                ));
                Number::Int(0)
            })
        };
        (n, span)
    })
}

/// `$name`.
pub(crate) fn param<'t, 's: 't, I>() -> impl Parser<'t, I, (String, SimpleSpan), Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    select! { Token::Param(p) = e => (p.to_string(), e.span()) }.labelled(Expect::Parameter)
}

/// A hash literal or parameter (EXISTS, HISTORY, SUPERSEDE, REVERT, THREAD FROM).
pub(crate) fn target<'t, 's: 't, I>() -> impl Parser<'t, I, Target, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    select! {
        Token::Hash(h) = e => Target { kind: TargetKind::Hash(h.to_ascii_lowercase()), span: sp(e.span()) },
        Token::Param(p) = e => Target { kind: TargetKind::Param(p.to_string()), span: sp(e.span()) },
    }
    .labelled(Expect::Hash)
}

/// A literal or parameter value (§4 `value`), arrays included.
pub(crate) fn value<'t, 's: 't, I>() -> impl Parser<'t, I, Value, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    recursive(|value| {
        let scalar = select! {
            Token::Str(raw) => ValueKind::String(string_value(raw).into_owned()),
            Token::Kw(Keyword::True) => ValueKind::Bool(true),
            Token::Kw(Keyword::False) => ValueKind::Bool(false),
            Token::Param(p) => ValueKind::Param(p.to_string()),
            Token::Hash(h) => ValueKind::Hash(h.to_ascii_lowercase()),
            // The lexer has reported this (unterminated string, bad number, …); taking it as a
            // value keeps one lexical mistake from also producing syntax errors around it.
            Token::Error => ValueKind::String(String::new()),
        };
        let num = number().map(|(n, _)| ValueKind::Number(n));
        let array = value
            .separated_by(punct(Token::Comma))
            .collect::<Vec<Value>>()
            .delimited_by(punct(Token::LBracket), punct(Token::RBracket))
            .map(ValueKind::Array);
        choice((scalar, num, array)).map_with(|kind, e| Value { kind, span: sp(e.span()) }).labelled(Expect::Value)
    })
}

/// A field reference: a word (`subject`, `tool_name`, `scope`) or a domain field (`hc:patient_id`).
pub(crate) fn field<'t, 's: 't, I>() -> impl Parser<'t, I, FieldRef, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    let plain = select! {
        Token::Ident(s) => s.to_string(),
        // `scope` is both the consent field and the SCOPE keyword of `IN SCOPE "…"`.
        Token::Kw(Keyword::Scope) => "scope".to_string(),
    };
    let domain = select! { Token::Ident(p) => p }
        .then_ignore(punct(Token::Colon))
        .then(select! { Token::Ident(n) => n })
        .map(|(p, n)| format!("{p}:{n}"));
    choice((domain, plain)).map_with(|name, e| FieldRef { name, span: sp(e.span()) }).labelled(Expect::Field)
}

/// A comma-separated list item must not be followed by `:`, or it is the next `label:` of a BATCH.
pub(crate) fn not_label<'t, 's: 't, I>() -> impl Parser<'t, I, (), Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    punct(Token::Colon).not()
}

/// A label: any word, keywords included (the spec's own examples use `history:` and `recent:`).
/// Keywords are case-insensitive, so a keyword used as a label is normalized to lower case.
pub(crate) fn label<'t, 's: 't, I>() -> impl Parser<'t, I, Ident, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    select! {
        Token::Ident(s) = e => Ident { name: s.to_string(), span: sp(e.span()) },
        Token::Kw(k) = e => Ident { name: k.as_str().to_ascii_lowercase(), span: sp(e.span()) },
    }
    .labelled(Expect::Label)
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

/// A user-chosen name (`what` is "context" or "template"). Reserved words (Appendix D) are
/// reported but still taken as the name, keywords included, so that `ASSEMBLE history FROM …`
/// gets one precise error instead of a cascade. Keywords that start a clause or a template
/// part are never taken: `ASSEMBLE FROM …` has no name.
pub(crate) fn user_name<'t, 's: 't, I>(what: &'static str) -> impl Parser<'t, I, Ident, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    let keyword = select! {
        Token::Kw(k) = e if !starts_clause(k) && k != Keyword::Extends && !cal_lexer::is_template_section(k) =>
            (k.as_str().to_ascii_lowercase(), e.span()),
    };
    choice((ident().map(|(s, span)| (s.to_string(), span)), keyword)).labelled(Expect::Name).validate(
        move |(s, span), _, emitter| {
            if cal_grammar::is_reserved(&s) {
                emitter.emit(ParseError::custom(
                    Diagnostic::new(
                        Code::E002,
                        sp(span),
                        format!("`{s}` is a reserved word and cannot be used as a {what} name (Appendix D)."),
                    )
                    .with_suggestion(format!("Choose another name, e.g. `{s}_{what}`."))
                    .with_replacement(format!("{s}_{what}")),
                ));
            }
            Ident { name: s, span: sp(span) }
        },
    )
}

/// Skips one token or more up to `stop` (not consumed), taking bracketed groups whole so that a
/// `,` or `)` inside them does not end the skip. Recovery uses it to resume at the next item.
pub(crate) fn skip_balanced_until<'t, 's: 't, I>(
    stop: impl Parser<'t, I, (), Extra> + Clone + 't,
) -> impl Parser<'t, I, (), Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    let group = recursive(|group| {
        let item = choice((
            group,
            none_of([Token::LParen, Token::RParen, Token::LBracket, Token::RBracket, Token::LBrace, Token::RBrace])
                .ignored(),
        ))
        .repeated();
        choice((
            item.clone().delimited_by(punct(Token::LParen), punct(Token::RParen)),
            item.clone().delimited_by(punct(Token::LBracket), punct(Token::RBracket)),
            item.delimited_by(punct(Token::LBrace), punct(Token::RBrace)),
        ))
        .boxed()
    });
    choice((group, any().and_is(stop.clone().not()).ignored())).and_is(stop.not()).repeated().at_least(1)
}

/// True for keywords that start a statement or a query (where a skip must stop, so that a
/// missing `;` is reported once, at the statement).
fn starts_statement(k: Keyword) -> bool {
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
/// the clauses after it are still parsed. It never starts or runs over what may end the
/// statement: `)`, `,`, `;`, `}`, `|` (for RECALL, a pipeline stage), a statement keyword or a
/// set operator.
pub(crate) fn junk<'t, 's: 't, I>(resumes: fn(Keyword) -> bool, what: Expect) -> impl Parser<'t, I, Span, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    let stop = select! {
        Token::Kw(k) if resumes(k) || starts_statement(k)
            || matches!(k, Keyword::Union | Keyword::Intersect | Keyword::Except) => (),
        Token::Pipe => (),
        Token::RParen => (),
        Token::Comma => (),
        Token::Semicolon => (),
        Token::RBrace => (),
    }
    .or(end());
    any()
        .map_with(|t, e| (t, e.span()))
        .rewind()
        .then_ignore(skip_balanced_until(stop))
        .validate(move |(t, span), e, emitter| {
            emitter.emit(ParseError::unexpected(span, &t, what));
            sp(e.span())
        })
        // Where no junk starts, what was expected there is `what`, not the brackets it skips.
        .labelled(what)
}

/// `( inner )`. A broken inside is skipped to the matching `)` and replaced by `fallback`; a
/// missing `)` keeps the inside. Either way the error is reported once and parsing goes on
/// after the group, so one bad source or operand does not hide the rest of the statement.
pub(crate) fn parenthesized<'t, 's: 't, I, O: 't>(
    inner: impl Parser<'t, I, O, Extra> + Clone + 't,
    fallback: impl Fn(SimpleSpan) -> O + Clone + 't,
) -> impl Parser<'t, I, O, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    inner
        .clone()
        .delimited_by(punct(Token::LParen), punct(Token::RParen))
        .recover_with(via_parser(nested_delimiters(
            Token::LParen,
            Token::RParen,
            [(Token::LBracket, Token::RBracket), (Token::LBrace, Token::RBrace)],
            fallback,
        )))
        .recover_with(via_parser(punct(Token::LParen).ignore_then(inner)))
}

/// `{ inner }`, recovering as [`parenthesized`] does.
pub(crate) fn braced<'t, 's: 't, I, O: 't>(
    inner: impl Parser<'t, I, O, Extra> + Clone + 't,
    fallback: impl Fn(SimpleSpan) -> O + Clone + 't,
) -> impl Parser<'t, I, O, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    inner
        .clone()
        .delimited_by(punct(Token::LBrace), punct(Token::RBrace))
        .recover_with(via_parser(nested_delimiters(
            Token::LBrace,
            Token::RBrace,
            [(Token::LParen, Token::RParen), (Token::LBracket, Token::RBracket)],
            fallback,
        )))
        .recover_with(via_parser(punct(Token::LBrace).ignore_then(inner)))
}

/// A grain type written as a plural (after RECALL). Unknown words report CAL-E003 and yield `None`.
pub(crate) fn grain_type_plural<'t, 's: 't, I>() -> impl Parser<'t, I, Option<GrainTypeRef>, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    select! {
        Token::Ident(s) = e => (s, e.span()),
        Token::Kw(Keyword::Observation) = e => ("observation", e.span()),
    }
    .labelled(Expect::GrainType)
    .validate(|(word, span), _, emitter| match GrainType::from_plural(word) {
        Some(g) => Some(GrainTypeRef { grain_type: g, span: sp(span) }),
        None => {
            emitter.emit(ParseError::custom(unknown_grain_type(word, sp(span), true)));
            None
        }
    })
}

/// A grain type written as a singular (ADD, DESCRIBE fields).
pub(crate) fn grain_type_singular<'t, 's: 't, I>() -> impl Parser<'t, I, Option<GrainTypeRef>, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    select! {
        Token::Ident(s) = e => (s, e.span()),
        Token::Kw(Keyword::Observation) = e => ("observation", e.span()),
    }
    .labelled(Expect::GrainType)
    .validate(|(word, span), _, emitter| match GrainType::from_singular(word) {
        Some(g) => Some(GrainTypeRef { grain_type: g, span: sp(span) }),
        None => {
            emitter.emit(ParseError::custom(unknown_grain_type(word, sp(span), false)));
            None
        }
    })
}

/// CAL-E003 with the closest type, the §22.1 rename hint for `fact`, and the valid values.
pub(crate) fn unknown_grain_type(word: &str, span: Span, plural: bool) -> Diagnostic {
    let lower = word.to_ascii_lowercase();
    let d = Diagnostic::new(Code::E003, span, format!("Unknown grain type \"{word}\"."))
        .with_valid_values(GrainType::words());
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
            let why = if other_form.is_some() && plural {
                " RECALL takes the plural form."
            } else if other_form.is_some() {
                " Here the singular form is used."
            } else {
                ""
            };
            d.with_suggestion(format!("Did you mean \"{f}\"?{why}")).with_replacement(f)
        }
        None => d.with_suggestion(format!("Use one of the ten OMS grain types: {}.", candidates.join(", "))),
    }
}

/// A format or preset name (after AS or FORMAT).
pub(crate) fn format_name<'t, 's: 't, I>() -> impl Parser<'t, I, FormatRef, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    ident().labelled(Expect::Format).validate(|(word, span), _, emitter| {
        let format = FormatName::from_word(word).unwrap_or_else(|| {
            let mut d = Diagnostic::new(Code::E002, sp(span), format!("Unknown format `{word}`."))
                .with_valid_values(FormatName::words());
            if let Some(f) = suggest::did_you_mean(word, FormatName::words()) {
                d = d.with_suggestion(format!("Did you mean `{f}`?")).with_replacement(f);
            }
            emitter.emit(ParseError::custom(d));
            FormatName::Json
        });
        FormatRef { format, span: sp(span) }
    })
}

/// Reports an unknown word in a closed-vocabulary position with "did you mean" and valid values;
/// `otherwise` is the advice when no valid word is close.
pub(crate) fn unknown_word(
    what: &str,
    word: &str,
    span: SimpleSpan,
    valid: &[&'static str],
    otherwise: Option<&str>,
) -> ParseError {
    let mut d = Diagnostic::new(Code::E002, sp(span), format!("Unknown {what} `{word}`."))
        .with_valid_values(valid.iter().copied());
    if let Some(f) = suggest::did_you_mean(word, valid.iter().copied()) {
        d = d.with_suggestion(format!("Did you mean `{f}`?")).with_replacement(f);
    } else if let Some(advice) = otherwise {
        d = d.with_suggestion(advice);
    }
    ParseError::custom(d)
}
