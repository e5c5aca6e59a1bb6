//! Literals, names, fields and values shared by every statement.

use super::cursor::{Cursor, PResult};
use super::expected::Expect;
use crate::ast::*;
use cal_grammar::{Code, Diagnostic, Keyword, Span, suggest};
use cal_lexer::{Token, string_value};

/// A string literal, escapes resolved and NFC-normalized.
pub(crate) fn string_lit(p: &mut Cursor<'_, '_>) -> PResult<StringLit> {
    match p.peek() {
        Some(Token::Str(raw)) => {
            let span = p.bump();
            Ok(StringLit { value: string_value(raw).into_owned(), span })
        }
        _ => Err(p.error_expecting(Expect::String)),
    }
}

fn number_error(text: &str, span: Span, what: &str) -> Diagnostic {
    Diagnostic::new(Code::E006, span, format!("Invalid number `{text}`: {what}."))
        .with_suggestion("Use a number within range, written as digits with an optional decimal part.")
}

/// A non-negative integer (`positive_integer`).
pub(crate) fn int_lit(p: &mut Cursor<'_, '_>) -> PResult<IntLit> {
    let Some(Token::Number(text)) = p.peek() else {
        return Err(p.error_expecting(Expect::Integer));
    };
    let span = p.bump();
    let value = if text.contains('.') || text.starts_with('-') {
        p.report(number_error(text, span, "a non-negative integer is required here"));
        0
    } else {
        text.parse::<u64>().unwrap_or_else(|_| {
            p.report(number_error(text, span, "it is too large"));
            0
        })
    };
    Ok(IntLit { value, span })
}

/// A number, integer or decimal; CAL-E006 when out of range.
pub(crate) fn number(p: &mut Cursor<'_, '_>) -> PResult<(Number, Span)> {
    let Some(Token::Number(text)) = p.peek() else {
        return Err(p.error_expecting(Expect::Number));
    };
    let span = p.bump();
    let n = if text.contains('.') {
        match text.parse::<f64>() {
            Ok(f) if f.is_finite() => Number::Float(f),
            _ => {
                p.report(number_error(text, span, "it is out of range"));
                Number::Float(0.0)
            }
        }
    } else {
        text.parse::<i64>().map(Number::Int).unwrap_or_else(|_| {
            p.report(number_error(text, span, "it is out of range for a 64-bit integer"));
            Number::Int(0)
        })
    };
    Ok((n, span))
}

/// `$name`.
pub(crate) fn param(p: &mut Cursor<'_, '_>) -> PResult<(String, Span)> {
    match p.peek() {
        Some(Token::Param(name)) => {
            let span = p.bump();
            Ok((name.to_string(), span))
        }
        _ => Err(p.error_expecting(Expect::Parameter)),
    }
}

/// An integer or a parameter (LIMIT, OFFSET).
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
        Some(Token::Hash(h)) => TargetKind::Hash(h.to_ascii_lowercase()),
        Some(Token::Param(name)) => TargetKind::Param(name.to_string()),
        _ => return Err(p.error_expecting(Expect::Hash)),
    };
    let span = p.bump();
    Ok(Target { kind, span })
}

/// A literal or parameter value (§4 `value`), arrays included.
pub(crate) fn value(p: &mut Cursor<'_, '_>) -> PResult<Value> {
    let start = p.start();
    let kind = match p.peek() {
        Some(Token::Str(raw)) => {
            p.bump();
            ValueKind::String(string_value(raw).into_owned())
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
            ValueKind::Param(name.to_string())
        }
        Some(Token::Hash(h)) => {
            p.bump();
            ValueKind::Hash(h.to_ascii_lowercase())
        }
        Some(Token::LBracket) => {
            p.enter()?;
            p.bump();
            let mut items = Vec::new();
            if !p.at(Token::RBracket) {
                loop {
                    items.push(value(p)?);
                    if p.eat(Token::Comma).is_none() {
                        break;
                    }
                }
            }
            p.expect(Token::RBracket)?;
            p.leave();
            ValueKind::Array(items)
        }
        _ => return Err(p.error_expecting(Expect::Value)),
    };
    Ok(Value { kind, span: p.since(start) })
}

/// A field reference: a word (`subject`, `scope`) or a domain field (`hc:patient_id`).
pub(crate) fn field(p: &mut Cursor<'_, '_>) -> PResult<FieldRef> {
    let start = p.start();
    match p.peek() {
        Some(Token::Ident(prefix)) => {
            p.bump();
            if let (Some(Token::Colon), Some(Token::Ident(name))) = (p.peek(), p.peek2()) {
                p.bump();
                p.bump();
                return Ok(FieldRef { name: format!("{prefix}:{name}"), span: p.since(start) });
            }
            Ok(FieldRef { name: prefix.to_string(), span: p.since(start) })
        }
        // `scope` is both the consent field and the SCOPE keyword of `IN SCOPE "…"`.
        Some(Token::Kw(Keyword::Scope)) => {
            let span = p.bump();
            Ok(FieldRef { name: "scope".into(), span })
        }
        _ => Err(p.error_expecting(Expect::Field)),
    }
}

/// A comma-separated list of fields (SELECT, PROJECT). Stops before `word :`,
/// which starts the next BATCH entry.
pub(crate) fn field_list(p: &mut Cursor<'_, '_>) -> PResult<Vec<FieldRef>> {
    let mut fields = vec![field(p)?];
    while p.peek() == Some(Token::Comma)
        && matches!(p.peek2(), Some(Token::Ident(_) | Token::Kw(Keyword::Scope)))
        && !is_label_ahead(p, 1)
    {
        p.bump();
        fields.push(field(p)?);
    }
    Ok(fields)
}

/// True when the tokens at `offset` and `offset + 1` are `word :` — a label.
pub(crate) fn is_label_ahead(p: &Cursor<'_, '_>, offset: usize) -> bool {
    // `hc:patient_id` is a domain field, not a label: a label is never followed by a name.
    matches!(p.peek_at(offset), Some(Token::Ident(_) | Token::Kw(_)))
        && p.peek_at(offset + 1) == Some(Token::Colon)
        && !matches!(p.peek_at(offset + 2), Some(Token::Ident(_)))
}

/// A label: any word, keywords included (the spec's own examples use `history:` and `recent:`).
/// Keywords are case-insensitive, so a keyword used as a label is normalized to lower case.
pub(crate) fn label(p: &mut Cursor<'_, '_>) -> PResult<Ident> {
    let name = match p.peek() {
        Some(Token::Ident(s)) => s.to_string(),
        Some(Token::Kw(k)) => k.as_str().to_ascii_lowercase(),
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

/// A user-chosen name that may not be a reserved word (context and template names).
pub(crate) fn user_name(p: &mut Cursor<'_, '_>) -> PResult<Ident> {
    let (s, span) = ident(p, Expect::Name)?;
    if cal_grammar::is_reserved(s) {
        p.report(
            Diagnostic::new(
                Code::E002,
                span,
                format!("`{s}` is a reserved word and cannot be used as a name (Appendix D)."),
            )
            .with_suggestion(format!("Choose another name, e.g. `{s}_context`."))
            .with_replacement(format!("{s}_context")),
        );
    }
    Ok(Ident { name: s.to_string(), span })
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

/// Reports an unknown word in a closed-vocabulary position with "did you mean" and valid values.
pub(crate) fn unknown_word(what: &str, word: &str, span: Span, valid: &[&'static str]) -> Diagnostic {
    let mut d =
        Diagnostic::new(Code::E002, span, format!("Unknown {what} `{word}`.")).with_valid_values(valid.iter().copied());
    if let Some(f) = suggest::did_you_mean(word, valid.iter().copied()) {
        d = d.with_suggestion(format!("Did you mean `{f}`?")).with_replacement(f);
    }
    d
}

/// A format or preset name (after AS or FORMAT).
pub(crate) fn format_name(p: &mut Cursor<'_, '_>) -> PResult<FormatRef> {
    let (word, span) = ident(p, Expect::Format)?;
    let format = FormatName::from_word(word).unwrap_or_else(|| {
        p.report(unknown_word("format", word, span, &FormatName::words().collect::<Vec<_>>()));
        FormatName::Json
    });
    Ok(FormatRef { format, span })
}
