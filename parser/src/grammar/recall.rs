//! RECALL: its clauses in any order, conditions, WITH options and the pipeline.

use super::common::*;
use super::{Extra, sp};
use crate::ast::*;
use crate::error::{Expect, ParseError};
use cal_grammar::{Code, Diagnostic, Keyword, Span, WithOptionName, suggest};
use cal_lexer::Token;
use chumsky::{input::ValueInput, prelude::*};

/// One clause of a RECALL before they are sorted into the [`Recall`] fields.
#[derive(Debug, Clone)]
enum Clause {
    Scope(InScope),
    About(StringLit),
    Like(StringLit),
    Since(StringLit),
    Between(BetweenClause),
    Thread(Thread),
    Where(WhereClause),
    With(WithClause),
    Stage(Stage),
    Recent(IntLit),
    Contradictions(Span),
    As(FormatRef),
    /// Text that is no clause, already reported.
    Junk,
}

/// Tokens at which a broken clause ends and parsing can resume.
pub(crate) fn clause_boundary<'t, 's: 't, I>() -> impl Parser<'t, I, (), Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    select! {
        Token::Kw(k) if starts_clause(k) => (),
        Token::Pipe => (),
        Token::RParen => (),
        Token::Semicolon => (),
        Token::Comma => (),
    }
    .or(end())
    .rewind()
}

/// The RECALL statement (recursive through `IN (RECALL …)` subqueries).
pub(crate) fn recall<'t, 's: 't, I>() -> impl Parser<'t, I, Recall, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    recursive(|recall| {
        let string_after = |k: Keyword| kw(k).ignore_then(string_lit());

        let scope = kw(Keyword::In).ignore_then(kw(Keyword::Scope).or_not()).then(string_lit()).map_with(
            |(is_scope, value), e| Clause::Scope(InScope { is_scope: is_scope.is_some(), value, span: sp(e.span()) }),
        );

        let between = kw(Keyword::Between)
            .ignore_then(value())
            .then_ignore(kw(Keyword::And))
            .then(value())
            .map_with(|(low, high), e| Clause::Between(BetweenClause { low, high, span: sp(e.span()) }));

        let thread = kw(Keyword::Thread)
            .ignore_then(choice((
                string_lit().map(ThreadKind::Session),
                kw(Keyword::From).ignore_then(target()).map(ThreadKind::From),
            )))
            .map_with(|kind, e| Clause::Thread(Thread { kind, span: sp(e.span()) }));

        // WHERE and every AND must be followed by a condition: a missing one is reported
        // where it should be and stands as a condition with an empty field name right after
        // the keyword, so that a trailing AND is not read as the start of the next clause.
        let required = condition(recall.clone()).map(Some).recover_with(via_parser(empty().to(None)));
        let after = |keyword: SimpleSpan, c: Option<Condition>| {
            c.unwrap_or_else(|| {
                let at = Span::empty(keyword.end);
                Condition {
                    field: FieldRef { name: String::new(), span: at },
                    test: Test::InList(Vec::new()),
                    span: at,
                }
            })
        };
        let where_clause = kw(Keyword::Where)
            .then(required.clone())
            .then(kw(Keyword::And).then(required).repeated().collect::<Vec<_>>())
            .map_with(move |((w, first), rest), e| {
                let mut conditions = vec![after(w, first)];
                conditions.extend(rest.into_iter().map(|(and, c)| after(and, c)));
                Clause::Where(WhereClause { conditions, span: sp(e.span()) })
            });

        let stage_clause = punct(Token::Pipe).or_not().ignore_then(stage()).map(Clause::Stage);

        let clause = choice((
            scope,
            string_after(Keyword::About).map(Clause::About),
            string_after(Keyword::Like).map(Clause::Like),
            string_after(Keyword::Since).map(Clause::Since),
            between,
            thread,
            where_clause,
            with_clause().map(Clause::With),
            stage_clause,
            kw(Keyword::Recent).ignore_then(int_lit()).map(Clause::Recent),
            kw(Keyword::Contradictions).map(|s| Clause::Contradictions(sp(s))),
            kw(Keyword::As).ignore_then(format_name()).map(Clause::As),
        ))
        .labelled(Expect::Clause)
        .or(punct(Token::Pipe)
            .ignore_then(junk(starts_clause, Expect::Stage))
            .to(Clause::Junk)
            .labelled(Expect::Clause))
        .or(junk(starts_clause, Expect::Clause).to(Clause::Junk));

        kw(Keyword::Recall)
            .ignore_then(kw(Keyword::My).or_not())
            .then(grain_type_plural().or_not().map(Option::flatten))
            .then(clause.repeated().collect::<Vec<_>>())
            .validate(|((my, grain_type), clauses), e, emitter| {
                let mut r = Recall { my: my.map(sp), grain_type, span: sp(e.span()), ..Recall::default() };
                for c in clauses {
                    if let Some(err) = place(&mut r, c) {
                        emitter.emit(err);
                    }
                }
                r
            })
            .boxed()
    })
}

fn duplicate(what: &str, first: Span, again: Span) -> ParseError {
    ParseError::custom(
        Diagnostic::new(Code::E002, again, format!("{what} appears twice in this RECALL."))
            .with_label(first, "first written here")
            .with_suggestion(format!("Write {what} once; combine WHERE conditions with AND.")),
    )
}

/// Stores a clause in its field; returns an error when the field is already set.
fn place(r: &mut Recall, c: Clause) -> Option<ParseError> {
    macro_rules! once {
        ($field:ident, $v:expr, $what:literal, $span:expr) => {{
            if let Some(old) = &r.$field {
                #[allow(clippy::redundant_closure_call)]
                return Some(duplicate($what, ($span)(old), ($span)(&$v)));
            }
            r.$field = Some($v);
        }};
    }
    match c {
        Clause::Scope(v) => once!(scope, v, "IN", |x: &InScope| x.span),
        Clause::About(v) => once!(about, v, "ABOUT", |x: &StringLit| x.span),
        Clause::Like(v) => once!(like, v, "LIKE", |x: &StringLit| x.span),
        Clause::Since(v) => once!(since, v, "SINCE", |x: &StringLit| x.span),
        Clause::Between(v) => once!(between, v, "BETWEEN", |x: &BetweenClause| x.span),
        Clause::Thread(v) => once!(thread, v, "THREAD", |x: &Thread| x.span),
        Clause::Where(v) => once!(where_clause, v, "WHERE", |x: &WhereClause| x.span),
        Clause::With(v) => match &mut r.with {
            // Two WITH clauses (one before and one after the pipeline) merge.
            Some(w) => {
                w.span = w.span.cover(v.span);
                w.options.extend(v.options);
            }
            None => r.with = Some(v),
        },
        Clause::Stage(s) => r.pipeline.push(s),
        Clause::Recent(v) => once!(recent, v, "RECENT", |x: &IntLit| x.span),
        Clause::Contradictions(v) => once!(contradictions, v, "CONTRADICTIONS", |x: &Span| *x),
        Clause::As(v) => once!(as_format, v, "AS", |x: &FormatRef| x.span),
        Clause::Junk => {}
    }
    None
}

/// One WHERE condition: a field and its test. A broken test is skipped to the next `AND`.
fn condition<'t, 's: 't, I>(
    recall: impl Parser<'t, I, Recall, Extra> + Clone + 't,
) -> impl Parser<'t, I, Condition, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    let comparator = select! {
        Token::Eq => Comparator::Eq,
        Token::Ne => Comparator::Ne,
        Token::Ge => Comparator::Ge,
        Token::Le => Comparator::Le,
        Token::Gt => Comparator::Gt,
        Token::Lt => Comparator::Lt,
    };
    let compare = comparator
        .map_with(|op, e| (op, sp(e.span())))
        .then(value())
        .map(|((op, op_span), value)| Test::Compare { op, op_span, value });
    let in_test = kw(Keyword::In).ignore_then(parenthesized(
        choice((
            recall.map(|r| Test::InSubquery(Box::new(r))),
            value().separated_by(punct(Token::Comma)).at_least(1).collect::<Vec<_>>().map(Test::InList),
        )),
        |_| Test::InList(Vec::new()),
    ));
    let between = kw(Keyword::Between)
        .ignore_then(value())
        .then_ignore(kw(Keyword::And))
        .then(value())
        .map(|(low, high)| Test::Between { low, high });
    // Any word after IS is taken, so that a wrong one is reported as such and is not also
    // read as the start of the next clause (`IS RECENT`).
    let category = kw(Keyword::Is).ignore_then(
        select! {
            Token::Kw(k) = e => (k.as_str().to_string(), Some(k), e.span()),
            Token::Ident(w) = e => (w.to_string(), None, e.span()),
        }
        .labelled(Expect::Category)
        .validate(|(word, k, span), _, emitter| {
            let upper = word.to_ascii_uppercase();
            let category = RelationCategory::from_word(&upper);
            if category.is_none() {
                let mut d = Diagnostic::new(Code::E002, sp(span), format!("`{word}` is not a relation category."))
                    .with_valid_values(RelationCategory::words());
                d = if k == Some(Keyword::Null) {
                    d.with_suggestion("CAL has no NULL tests: a missing field simply does not match (§5.4).")
                } else if let Some(f) = suggest::did_you_mean(&upper, RelationCategory::words()) {
                    d.with_suggestion(format!("Did you mean `{f}`?")).with_replacement(f)
                } else {
                    d.with_suggestion("IS takes a relation category (§7.2); to compare with a value use `=`.")
                };
                emitter.emit(ParseError::custom(d));
            }
            Test::IsCategory(category.unwrap_or(RelationCategory::Preference), sp(span))
        }),
    );
    let test = choice((
        compare,
        in_test,
        between,
        kw(Keyword::Include).ignore_then(value()).map(Test::Include),
        kw(Keyword::Exclude).ignore_then(value()).map(Test::Exclude),
        category,
    ))
    .labelled(Expect::Operator);

    let boundary = kw(Keyword::And).ignored().rewind().or(clause_boundary());
    field()
        .then(test.recover_with(via_parser(skip_balanced_until(boundary).to(Test::InList(Vec::new())))))
        .map_with(|(field, test), e| Condition { field, test, span: sp(e.span()) })
        .labelled(Expect::Condition)
}

/// `WITH option, …`.
pub(crate) fn with_clause<'t, 's: 't, I>() -> impl Parser<'t, I, WithClause, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    kw(Keyword::With)
        .ignore_then(with_option().separated_by(punct(Token::Comma)).at_least(1).collect::<Vec<_>>())
        .map_with(|options, e| WithClause { options, span: sp(e.span()) })
        .boxed()
}

fn parens<'t, 's: 't, I, O>(inner: impl Parser<'t, I, O, Extra> + Clone) -> impl Parser<'t, I, O, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    inner.delimited_by(punct(Token::LParen), punct(Token::RParen))
}

fn with_option<'t, 's: 't, I>() -> impl Parser<'t, I, WithOption, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    let flag = |w: &'static str, k: WithKind| word(w).to(k);
    let level = ident().validate(|(w, span), _, emitter| {
        let l = DisclosureLevel::from_word(w).unwrap_or_else(|| {
            emitter.emit(unknown_word(
                "disclosure level",
                w,
                span,
                &["summary", "headlines", "standard", "full"],
                None,
            ));
            DisclosureLevel::Standard
        });
        (l, sp(span))
    });
    let num = || number().map(|(n, s)| (n, sp(s)));
    let diversity = word("diversity").ignore_then(parens(choice((
        word("mmr")
            .ignore_then(
                punct(Token::Comma)
                    .ignore_then(word("lambda"))
                    .ignore_then(punct(Token::Eq))
                    .ignore_then(num())
                    .or_not(),
            )
            .map(Diversity::Mmr),
        word("threshold").ignore_then(punct(Token::Comma)).ignore_then(num()).map(|(n, s)| Diversity::Threshold(n, s)),
    ))));
    let consistency = word("consistency").ignore_then(parens(choice((
        word("eventual").to(Consistency::Eventual),
        word("bounded").ignore_then(parens(num())).map(|(n, s)| Consistency::Bounded(n, s)),
        word("linearizable").to(Consistency::Linearizable),
    ))));
    let extension = select! { Token::Ident(s) if s.starts_with("x_") => s.to_string() }
        .then(parens(value().separated_by(punct(Token::Comma)).collect::<Vec<_>>()).or_not())
        .map(|(name, args)| WithKind::Extension { name, args });
    // Any other word, keywords included (`WITH supersede` is a keyword), but not one that
    // starts a clause: `WITH superseded, LIMIT 5` stops at LIMIT.
    let unknown = select! {
        Token::Ident(w) = e => (w.to_string(), e.span()),
        Token::Kw(k) = e if !starts_clause(k) => (k.as_str().to_ascii_lowercase(), e.span()),
    }
    .then_ignore(parens(any().and_is(punct(Token::RParen).not()).repeated()).or_not())
    .validate(|(w, span), _, emitter| {
        emitter.emit(unknown_word(
            "WITH option",
            &w,
            span,
            &WithOptionName::words().collect::<Vec<_>>(),
            Some("Implementation-specific options start with `x_`, e.g. `WITH x_hnsw_ef(200)` (§25.2)."),
        ));
        WithKind::Summarize
    });
    choice((
        flag("superseded", WithKind::Superseded),
        flag("score_breakdown", WithKind::ScoreBreakdown),
        flag("explanation", WithKind::Explanation),
        flag("provenance", WithKind::Provenance),
        flag("contradiction_detection", WithKind::ContradictionDetection),
        flag("summarize", WithKind::Summarize),
        flag("iso_timestamps", WithKind::IsoTimestamps),
        word("progressive_disclosure").ignore_then(parens(level).or_not()).map(WithKind::ProgressiveDisclosure),
        diversity.map(WithKind::Diversity),
        consistency.map(WithKind::Consistency),
        word("dedup").ignore_then(parens(field())).map(WithKind::Dedup),
        word("locale").ignore_then(parens(string_lit())).map(WithKind::Locale),
        word("cache")
            .ignore_then(parens(word("ttl").ignore_then(punct(Token::Eq)).ignore_then(int_lit())))
            .map(WithKind::Cache),
        extension,
        unknown,
    ))
    .then_ignore(not_label())
    .map_with(|kind, e| WithOption { kind, span: sp(e.span()) })
    .labelled(Expect::WithOption)
}

/// One pipeline stage (without the `|`).
fn stage<'t, 's: 't, I>() -> impl Parser<'t, I, Stage, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    let int_or_param = choice((int_lit().map(IntOrParam::Int), param().map(|(p, s)| IntOrParam::Param(p, sp(s)))));
    let field_list = field().then_ignore(not_label()).separated_by(punct(Token::Comma)).at_least(1).collect::<Vec<_>>();
    let direction = select! {
        Token::Kw(Keyword::Asc) => SortDirection::Asc,
        Token::Kw(Keyword::Desc) => SortDirection::Desc,
    };
    let project_spec = choice((word("content").to(false), word("attr").to(true)))
        .then(parens(field().separated_by(punct(Token::Comma)).at_least(1).collect::<Vec<_>>()))
        .then_ignore(not_label())
        .map_with(|(is_attr, fields), e| ProjectSpec { is_attr, fields, span: sp(e.span()) });
    choice((
        kw(Keyword::Select).ignore_then(field_list).map(StageKind::Select),
        kw(Keyword::Order)
            .ignore_then(kw(Keyword::By))
            .ignore_then(field())
            .then(direction.or_not())
            .map(|(field, direction)| StageKind::OrderBy { field, direction }),
        kw(Keyword::Limit).ignore_then(int_or_param.clone()).map(StageKind::Limit),
        kw(Keyword::Offset).ignore_then(int_or_param).map(StageKind::Offset),
        kw(Keyword::Count).to(StageKind::Count),
        kw(Keyword::First).to(StageKind::First),
        kw(Keyword::Subjects).to(StageKind::Extract(Extractor::Subjects)),
        kw(Keyword::Objects).to(StageKind::Extract(Extractor::Objects)),
        kw(Keyword::Hashes).to(StageKind::Extract(Extractor::Hashes)),
        kw(Keyword::Group).ignore_then(kw(Keyword::By)).ignore_then(field()).map(StageKind::GroupBy),
        kw(Keyword::Project)
            .ignore_then(project_spec.separated_by(punct(Token::Comma)).at_least(1).collect::<Vec<_>>())
            .map(StageKind::Project),
    ))
    .map_with(|kind, e| Stage { kind, span: sp(e.span()) })
    .labelled(Expect::Stage)
}
