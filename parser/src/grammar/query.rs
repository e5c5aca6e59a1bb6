//! Statements, queries and documents: the entry points of the grammar.

use super::assemble::assemble;
use super::common::*;
use super::recall::recall;
use super::statements::*;
use super::{Extra, sp};
use crate::ast::*;
use crate::error::{Expect, ParseError};
use cal_grammar::{Code, Diagnostic, Keyword};
use cal_lexer::Token;
use chumsky::{input::ValueInput, prelude::*};

/// Any of the twelve statements. `None` when a part the node cannot do without
/// (the grain type of ADD) was invalid; the error has been reported.
fn statement<'t, 's: 't, I>() -> impl Parser<'t, I, Option<Statement>, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    recursive(|stmt| {
        let recall = recall();
        let operand = parenthesized(stmt.clone(), |_| None);
        let set_op = select! {
            Token::Kw(Keyword::Union) => SetOperator::Union,
            Token::Kw(Keyword::Intersect) => SetOperator::Intersect,
            Token::Kw(Keyword::Except) => SetOperator::Except,
        }
        .map_with(|op, e| (op, sp(e.span())));
        let set_expr = operand.clone().foldl_with(
            set_op.then(operand).repeated().at_least(1),
            |left, ((op, op_span), right), e| match (left, right) {
                (Some(l), Some(r)) => Some(Statement::SetOp(SetOp {
                    left: Box::new(l),
                    op,
                    op_span,
                    right: Box::new(r),
                    span: sp(e.span()),
                })),
                _ => None,
            },
        );
        let explain =
            kw(Keyword::Explain).ignore_then(stmt.clone()).validate(|inner: Option<Statement>, e, emitter| {
                if let Some(Statement::Explain(x)) = &inner {
                    emitter.emit(ParseError::custom(
                        Diagnostic::new(Code::E002, x.span, "EXPLAIN cannot explain an EXPLAIN.")
                            .with_suggestion("Remove the inner EXPLAIN."),
                    ));
                }
                inner.map(|s| Statement::Explain(Explain { statement: Box::new(s), span: sp(e.span()) }))
            });
        let batch_entry =
            label().then_ignore(punct(Token::Colon)).then(stmt.clone()).map_with(|(label, statement), e| {
                statement.map(|statement| BatchEntry { label, statement, span: sp(e.span()) })
            });
        // An entry ends at `,` or `}`. A broken entry is reported and skipped to there (keeping
        // what parsed), so that the other entries are still read.
        let entry_end = choice((punct(Token::Comma), punct(Token::RBrace))).ignored().rewind();
        let batch_entry = batch_entry
            .clone()
            .then_ignore(entry_end.clone())
            .recover_with(via_parser(batch_entry.then_ignore(skip_balanced_until(entry_end.clone()))))
            .recover_with(via_parser(skip_balanced_until(entry_end).to(None)));
        let batch = kw(Keyword::Batch)
            .ignore_then(
                batch_entry
                    .separated_by(punct(Token::Comma))
                    .allow_trailing()
                    .at_least(1)
                    .collect::<Vec<_>>()
                    .delimited_by(punct(Token::LBrace), punct(Token::RBrace)),
            )
            .map_with(|entries, e| {
                Statement::Batch(Batch { entries: entries.into_iter().flatten().collect(), span: sp(e.span()) })
            });
        choice((
            recall.clone().map(Statement::Recall).map(Some),
            assemble(recall.clone()).map(Statement::Assemble).map(Some),
            set_expr,
            explain,
            exists().map(Statement::Exists).map(Some),
            history().map(Statement::History).map(Some),
            describe().map(Statement::Describe).map(Some),
            batch.map(Some),
            coalesce(recall).map(Statement::Coalesce).map(Some),
            add().map(|a| a.map(Statement::Add)),
            supersede().map(Statement::Supersede).map(Some),
            revert().map(Statement::Revert).map(Some),
        ))
        .labelled(Expect::Statement)
        .boxed()
    })
}

/// `[CAL/n] LET* (statement | DEFINE TEMPLATE)`.
fn query<'t, 's: 't, I>() -> impl Parser<'t, I, Option<Query>, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    let version = kw(Keyword::Cal)
        .ignore_then(punct(Token::Slash))
        .ignore_then(select! { Token::Number(n) = e => (n, e.span()) }.labelled(Expect::Integer))
        .map_with(|v, e| (v, e.span()))
        .validate(|((text, num_span), span), _, emitter| {
            let major = text.parse::<u32>().ok();
            if major != Some(1) {
                let message = if text.starts_with("1.") {
                    format!("Unsupported CAL version `CAL/{text}`: the prefix names a major version only.")
                } else {
                    format!("Unsupported CAL version `CAL/{text}`; this implementation speaks CAL/1.")
                };
                emitter.emit(ParseError::custom(
                    Diagnostic::new(Code::E100, sp(num_span), message)
                        .with_suggestion("Write `CAL/1`, or omit the version prefix.")
                        .with_replacement("1")
                        .with_valid_values(["1"]),
                ));
            }
            Version { major: major.unwrap_or(0), span: sp(span) }
        });
    let binding = kw(Keyword::Let).ignore_then(param()).then_ignore(punct(Token::Eq)).then(recall());
    // A binding whose `;` is missing is reported there and kept, so the statement after it
    // is still parsed.
    let let_binding = binding.clone().then_ignore(punct(Token::Semicolon)).recover_with(via_parser(binding)).map_with(
        |((name, name_span), recall), e| LetBinding {
            name: Ident { name, span: sp(name_span) },
            recall,
            span: sp(e.span()),
        },
    );
    let body = choice((
        define_template().map(|d| Some(QueryBody::DefineTemplate(d))),
        statement().map(|s| s.map(QueryBody::Statement)),
    ));
    version
        .or_not()
        .then(let_binding.repeated().collect::<Vec<_>>())
        .then(body)
        .map_with(|((version, lets), body), e| body.map(|body| Query { version, lets, body, span: sp(e.span()) }))
}

/// A single query, nothing after it but an optional `;`. Text after the query is
/// reported and the query kept, so that an editor still has its tree.
pub(crate) fn single_query<'t, 's: 't, I>() -> impl Parser<'t, I, Option<Query>, Extra>
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    query()
        .then_ignore(punct(Token::Semicolon).or_not())
        .then_ignore(end())
        .recover_with(via_parser(query().then_ignore(any().repeated())))
}

/// A `.cal` document: queries separated by `;`, the last `;` optional.
///
/// A query ends at `;` or at the end of the text. Text after a query that is not `;` is
/// reported and skipped to the next `;`, keeping the query; a query that does not parse is
/// skipped to the next `;`; either way the queries after it are still parsed. A `;` with no
/// query before it is an empty query (CAL-E014).
pub(crate) fn document<'t, 's: 't, I>() -> impl Parser<'t, I, Vec<Query>, Extra>
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    let semicolon = || punct(Token::Semicolon);
    let query_end = semicolon().ignored().or(end()).rewind();
    let skip_to_semicolon = || any().and_is(semicolon().not()).repeated().at_least(1);
    let terminated = query()
        .then_ignore(query_end)
        .recover_with(via_parser(query().then_ignore(skip_to_semicolon())))
        .recover_with(via_parser(skip_to_semicolon().to(None)))
        .then_ignore(semicolon().or_not());
    let empty = semicolon().validate(|s, _, emitter| {
        emitter.emit(ParseError::custom(
            Diagnostic::new(Code::E014, sp(s), "Empty query: nothing before this `;`.")
                .with_suggestion("Remove the extra `;`, or write a statement before it.")
                .with_replacement(""),
        ));
        None
    });
    choice((empty, terminated))
        .repeated()
        .collect::<Vec<_>>()
        .then_ignore(end())
        .map(|qs| qs.into_iter().flatten().collect())
}
