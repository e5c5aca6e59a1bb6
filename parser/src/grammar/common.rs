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
pub(crate) fn punct<'t, 's: 't, I>(
    t: Token<'static>,
) -> impl Parser<'t, I, SimpleSpan, Extra> + Clone
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
    select! { Token::Str(raw) = e => StringLit { value: string_value(raw).into_owned(), span: sp(e.span()) } }
        .labelled(Expect::String)
}

fn number_error(text: &str, span: SimpleSpan, what: &str) -> ParseError {
    ParseError::custom(
        Diagnostic::new(
            Code::E006,
            sp(span),
            format!("Invalid number `{text}`: {what}."),
        )
        .with_suggestion(
            "Use a number within range, written as digits with an optional decimal part.",
        ),
    )
}

/// A non-negative integer (`positive_integer`).
pub(crate) fn int_lit<'t, 's: 't, I>() -> impl Parser<'t, I, IntLit, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    select! { Token::Number(n) = e => (n, e.span()) }
        .labelled(Expect::Integer)
        .validate(|(text, span), _, emitter| {
            let value = if text.contains('.') || text.starts_with('-') {
                emitter.emit(number_error(
                    text,
                    span,
                    "a non-negative integer is required here",
                ));
                0
            } else {
                text.parse::<u64>().unwrap_or_else(|_| {
                    emitter.emit(number_error(text, span, "it is too large"));
                    0
                })
            };
            IntLit {
                value,
                span: sp(span),
            }
        })
}

/// Converts a number token to a [`Number`], reporting CAL-E006 when out of range.
pub(crate) fn number<'t, 's: 't, I>() -> impl Parser<'t, I, (Number, SimpleSpan), Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    select! { Token::Number(n) = e => (n, e.span()) }
        .labelled(Expect::Number)
        .validate(|(text, span), _, emitter| {
            let n = if text.contains('.') {
                match text.parse::<f64>() {
                    Ok(f) if f.is_finite() => Number::Float(f),
                    _ => {
                        emitter.emit(number_error(text, span, "it is out of range"));
                        Number::Float(0.0)
                    }
                }
            } else {
                text.parse::<i64>().map(Number::Int).unwrap_or_else(|_| {
                    emitter.emit(number_error(
                        text,
                        span,
                        "it is out of range for a 64-bit integer",
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
        };
        let num = number().map(|(n, _)| ValueKind::Number(n));
        let array = value
            .separated_by(punct(Token::Comma))
            .collect::<Vec<Value>>()
            .delimited_by(punct(Token::LBracket), punct(Token::RBracket))
            .map(ValueKind::Array);
        choice((scalar, num, array))
            .map_with(|kind, e| Value {
                kind,
                span: sp(e.span()),
            })
            .labelled(Expect::Value)
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
    choice((domain, plain))
        .map_with(|name, e| FieldRef {
            name,
            span: sp(e.span()),
        })
        .labelled(Expect::Field)
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

/// A user-chosen name that may not be a reserved word (context and template names).
pub(crate) fn user_name<'t, 's: 't, I>() -> impl Parser<'t, I, Ident, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    ident().validate(|(s, span), _, emitter| {
        if cal_grammar::is_reserved(s) {
            emitter.emit(ParseError::custom(
                Diagnostic::new(
                    Code::E002,
                    sp(span),
                    format!("`{s}` is a reserved word and cannot be used as a name (Appendix D)."),
                )
                .with_suggestion(format!("Choose another name, e.g. `{s}_context`."))
                .with_replacement(format!("{s}_context")),
            ));
        }
        Ident {
            name: s.to_string(),
            span: sp(span),
        }
    })
}

/// A grain type written as a plural (after RECALL). Unknown words report CAL-E003 and yield `None`.
pub(crate) fn grain_type_plural<'t, 's: 't, I>()
-> impl Parser<'t, I, Option<GrainTypeRef>, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    select! {
        Token::Ident(s) = e => (s, e.span()),
        Token::Kw(Keyword::Observation) = e => ("observation", e.span()),
    }
    .labelled(Expect::GrainType)
    .validate(
        |(word, span), _, emitter| match GrainType::from_plural(word) {
            Some(g) => Some(GrainTypeRef {
                grain_type: g,
                span: sp(span),
            }),
            None => {
                emitter.emit(ParseError::custom(unknown_grain_type(word, sp(span), true)));
                None
            }
        },
    )
}

/// A grain type written as a singular (ADD, DESCRIBE fields).
pub(crate) fn grain_type_singular<'t, 's: 't, I>()
-> impl Parser<'t, I, Option<GrainTypeRef>, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    select! {
        Token::Ident(s) = e => (s, e.span()),
        Token::Kw(Keyword::Observation) = e => ("observation", e.span()),
    }
    .labelled(Expect::GrainType)
    .validate(
        |(word, span), _, emitter| match GrainType::from_singular(word) {
            Some(g) => Some(GrainTypeRef {
                grain_type: g,
                span: sp(span),
            }),
            None => {
                emitter.emit(ParseError::custom(unknown_grain_type(
                    word,
                    sp(span),
                    false,
                )));
                None
            }
        },
    )
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
    let (other_form, candidates): (Option<GrainType>, Vec<&str>) = if plural {
        (
            GrainType::from_singular(&lower),
            GrainType::plurals().collect(),
        )
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
            d.with_suggestion(format!("Did you mean \"{f}\"?{why}"))
                .with_replacement(f)
        }
        None => d.with_suggestion(format!(
            "Use one of the ten OMS grain types: {}.",
            candidates.join(", ")
        )),
    }
}

/// A format or preset name (after AS or FORMAT).
pub(crate) fn format_name<'t, 's: 't, I>() -> impl Parser<'t, I, FormatRef, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    ident()
        .labelled(Expect::Format)
        .validate(|(word, span), _, emitter| {
            let format = FormatName::from_word(word).unwrap_or_else(|| {
                let mut d =
                    Diagnostic::new(Code::E002, sp(span), format!("Unknown format `{word}`."))
                        .with_valid_values(FormatName::words());
                if let Some(f) = suggest::did_you_mean(word, FormatName::words()) {
                    d = d
                        .with_suggestion(format!("Did you mean `{f}`?"))
                        .with_replacement(f);
                }
                emitter.emit(ParseError::custom(d));
                FormatName::Json
            });
            FormatRef {
                format,
                span: sp(span),
            }
        })
}

/// Reports an unknown word in a closed-vocabulary position with "did you mean" and valid values.
pub(crate) fn unknown_word(
    what: &str,
    word: &str,
    span: SimpleSpan,
    valid: &[&'static str],
) -> ParseError {
    let mut d = Diagnostic::new(Code::E002, sp(span), format!("Unknown {what} `{word}`."))
        .with_valid_values(valid.iter().copied());
    if let Some(f) = suggest::did_you_mean(word, valid.iter().copied()) {
        d = d
            .with_suggestion(format!("Did you mean `{f}`?"))
            .with_replacement(f);
    }
    ParseError::custom(d)
}
