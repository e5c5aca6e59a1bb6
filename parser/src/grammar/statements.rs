//! The statements other than RECALL and ASSEMBLE.

use super::assemble::template_body;
use super::common::*;
use super::{Extra, sp};
use crate::ast::*;
use crate::error::{Expect, ParseError};
use cal_grammar::{Code, Diagnostic, Keyword};
use cal_lexer::Token;
use chumsky::{input::ValueInput, prelude::*};

/// `EXISTS target`.
pub(crate) fn exists<'t, 's: 't, I>() -> impl Parser<'t, I, Exists, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    kw(Keyword::Exists).ignore_then(target()).map_with(|target, e| Exists { target, span: sp(e.span()) })
}

/// `HISTORY target [DIFF target]` or `HISTORY [IN …] WHERE subject = v AND relation = v [AS OF "…"]`.
pub(crate) fn history<'t, 's: 't, I>() -> impl Parser<'t, I, History, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    let by_hash = target()
        .then(kw(Keyword::Diff).ignore_then(target()).or_not())
        .map(|(target, diff)| HistoryKind::Hash { target, diff });
    let eq_cond =
        |f: &'static str| word(f).ignore_then(punct(Token::Eq)).ignore_then(value()).labelled(Expect::HistoryCondition);
    let pair = choice((
        eq_cond("subject").then_ignore(kw(Keyword::And)).then(eq_cond("relation")),
        eq_cond("relation").then_ignore(kw(Keyword::And)).then(eq_cond("subject")).map(|(r, s)| (s, r)),
    ));
    let scope = kw(Keyword::In)
        .ignore_then(kw(Keyword::Scope).or_not())
        .then(string_lit())
        .map_with(|(is_scope, value), e| InScope { is_scope: is_scope.is_some(), value, span: sp(e.span()) });
    let by_triple = scope
        .or_not()
        .then_ignore(kw(Keyword::Where))
        .then(pair)
        .then(kw(Keyword::As).ignore_then(kw(Keyword::Of)).ignore_then(string_lit()).or_not())
        .map(|((scope, (subject, relation)), as_of)| HistoryKind::Triple { scope, subject, relation, as_of });
    kw(Keyword::History)
        .ignore_then(choice((by_hash, by_triple)))
        .map_with(|kind, e| History { kind, span: sp(e.span()) })
}

/// `DESCRIBE target [grain_type]`.
pub(crate) fn describe<'t, 's: 't, I>() -> impl Parser<'t, I, Describe, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    let target = ident().labelled(Expect::DescribeTarget).validate(|(w, span), _, emitter| {
        let t = DescribeTarget::from_word(w).unwrap_or_else(|| {
            emitter.emit(unknown_word("DESCRIBE target", w, span, &DescribeTarget::words().collect::<Vec<_>>(), None));
            DescribeTarget::Capabilities
        });
        (t, sp(span))
    });
    kw(Keyword::Describe).ignore_then(target).then(grain_type_singular().or_not().map(Option::flatten)).validate(
        |((target, target_span), grain_type), e, emitter| {
            if let (Some(g), false) = (&grain_type, target == DescribeTarget::Fields) {
                emitter.emit(ParseError::custom(
                    Diagnostic::new(
                        Code::E002,
                        g.span,
                        format!("Only `DESCRIBE fields` takes a grain type, not `DESCRIBE {target}`."),
                    )
                    .with_suggestion("Remove the grain type, or describe the fields of that type.")
                    .with_example("DESCRIBE fields belief"),
                ));
            }
            Describe { target, target_span, grain_type, span: sp(e.span()) }
        },
    )
}

/// `COALESCE(RECALL …, RECALL …, …)`.
pub(crate) fn coalesce<'t, 's: 't, I>(
    recall: impl Parser<'t, I, Recall, Extra> + Clone + 't,
) -> impl Parser<'t, I, Coalesce, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    kw(Keyword::Coalesce)
        .ignore_then(parenthesized(recall.separated_by(punct(Token::Comma)).at_least(1).collect::<Vec<_>>(), |_| {
            Vec::new()
        }))
        .map_with(|branches, e| Coalesce { branches, span: sp(e.span()) })
}

fn set_clause<'t, 's: 't, I>() -> impl Parser<'t, I, SetClause, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    kw(Keyword::Set)
        .ignore_then(field())
        .then_ignore(punct(Token::Eq))
        .then(value())
        .map_with(|(field, value), e| SetClause { field, value, span: sp(e.span()) })
}

fn reason<'t, 's: 't, I>() -> impl Parser<'t, I, Option<StringLit>, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    kw(Keyword::Reason).ignore_then(string_lit()).or_not()
}

/// `ADD type SET … REASON "…"`.
pub(crate) fn add<'t, 's: 't, I>() -> impl Parser<'t, I, Option<Add>, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    kw(Keyword::Add)
        .ignore_then(grain_type_singular())
        .then(set_clause().repeated().collect::<Vec<_>>())
        .then(reason())
        .map_with(|((grain_type, sets), reason), e| {
            grain_type.map(|grain_type| Add { grain_type, sets, reason, span: sp(e.span()) })
        })
}

/// `SUPERSEDE target SET … REASON "…"`.
pub(crate) fn supersede<'t, 's: 't, I>() -> impl Parser<'t, I, Supersede, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    kw(Keyword::Supersede)
        .ignore_then(target())
        .then(set_clause().repeated().collect::<Vec<_>>())
        .then(reason())
        .map_with(|((target, sets), reason), e| Supersede { target, sets, reason, span: sp(e.span()) })
}

/// `REVERT target REASON "…"`.
pub(crate) fn revert<'t, 's: 't, I>() -> impl Parser<'t, I, Revert, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    kw(Keyword::Revert).ignore_then(target()).then(reason()).map_with(|(target, reason), e| Revert {
        target,
        reason,
        span: sp(e.span()),
    })
}

/// `DEFINE TEMPLATE name [EXTENDS parent] sections…`.
pub(crate) fn define_template<'t, 's: 't, I>() -> impl Parser<'t, I, DefineTemplate, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    kw(Keyword::Define)
        .ignore_then(kw(Keyword::Template))
        .ignore_then(user_name("template"))
        .then(
            kw(Keyword::Extends).ignore_then(ident().map(|(n, s)| Ident { name: n.to_string(), span: sp(s) })).or_not(),
        )
        .then(template_body())
        .map_with(|((name, extends), body), e| DefineTemplate { name, extends, body, span: sp(e.span()) })
}
