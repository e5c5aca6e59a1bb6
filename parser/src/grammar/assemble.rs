//! ASSEMBLE and the parts of it that only it has: sources, budget, priority,
//! format specs, STREAM, and template bodies (shared with DEFINE TEMPLATE).

use super::common::*;
use super::recall::with_clause;
use super::{Extra, sp};
use crate::ast::*;
use crate::error::{Expect, ParseError};
use cal_grammar::{Code, Diagnostic, Keyword, Span, StreamEvents};
use cal_lexer::Token;
use chumsky::{input::ValueInput, prelude::*};

#[derive(Debug, Clone)]
enum Clause {
    For(StringLit),
    From(Vec<Source>, Span),
    Budget(Budget),
    Priority(Priority),
    Format(FormatSpec),
    Stream(Stream),
    With(WithClause),
    /// Text that is no clause, already reported.
    Junk(Span),
}

/// Keywords that start an ASSEMBLE clause.
fn starts_assemble_clause(k: Keyword) -> bool {
    matches!(
        k,
        Keyword::For
            | Keyword::From
            | Keyword::Budget
            | Keyword::Priority
            | Keyword::Format
            | Keyword::Stream
            | Keyword::With
    )
}

impl Clause {
    fn name_and_span(&self) -> (&'static str, Span) {
        match self {
            Clause::Junk(s) => ("", *s),
            Clause::For(s) => ("FOR", s.span),
            Clause::From(_, s) => ("FROM", *s),
            Clause::Budget(b) => ("BUDGET", b.span),
            Clause::Priority(p) => ("PRIORITY", p.span),
            Clause::Format(f) => ("FORMAT", f.span),
            Clause::Stream(s) => ("STREAM", s.span),
            Clause::With(w) => ("WITH", w.span),
        }
    }
}

/// ASSEMBLE [name] clauses… — clauses in any order, each at most once, FROM required.
pub(crate) fn assemble<'t, 's: 't, I>(
    recall: impl Parser<'t, I, Recall, Extra> + Clone + 't,
) -> impl Parser<'t, I, Assemble, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    let source_body = parenthesized(
        choice((
            recall.clone().map(SourceBody::Recall),
            param().map(|(name, s)| SourceBody::LetRef(Ident { name, span: sp(s) })),
        )),
        |s| SourceBody::Recall(Recall { span: sp(s), ..Recall::default() }),
    );
    let bare_let = param().map(|(name, s)| SourceBody::LetRef(Ident { name, span: sp(s) }));
    let source = label()
        .then_ignore(punct(Token::Colon))
        .or_not()
        .then(choice((source_body, bare_let)))
        .map_with(|(label, body), e| Source { label, body, span: sp(e.span()) })
        .labelled(Expect::Source);

    let unit = ident().labelled(Expect::BudgetUnit).validate(|(w, span), _, emitter| {
        BudgetUnit::from_word(w).unwrap_or_else(|| {
            emitter.emit(unknown_word(
                "budget unit",
                w,
                span,
                &["tokens", "grains"],
                Some("A budget is counted in `tokens` or in `grains`."),
            ));
            BudgetUnit::Tokens
        })
    });
    let budget = kw(Keyword::Budget).ignore_then(int_lit()).then(unit).map_with(|(amount, unit), e| Budget {
        amount,
        unit,
        span: sp(e.span()),
    });

    let priority = kw(Keyword::Priority)
        .ignore_then(label().separated_by(punct(Token::Gt)).at_least(1).collect::<Vec<_>>())
        .map_with(|labels, e| Priority { labels, span: sp(e.span()) });

    let clause = choice((
        kw(Keyword::For).ignore_then(string_lit()).map(Clause::For),
        kw(Keyword::From)
            .ignore_then(source.separated_by(punct(Token::Comma)).at_least(1).collect::<Vec<_>>())
            .map_with(|s, e| Clause::From(s, sp(e.span()))),
        budget.map(Clause::Budget),
        priority.map(Clause::Priority),
        format_spec().map(Clause::Format),
        stream().map(Clause::Stream),
        with_clause().map(Clause::With),
    ))
    .labelled(Expect::Clause)
    .or(junk(starts_assemble_clause, Expect::Clause).map(Clause::Junk));

    kw(Keyword::Assemble)
        .then(user_name("context").or_not())
        .then(clause.repeated().collect::<Vec<_>>())
        .validate(|((keyword, name), clauses), e, emitter| {
            let mut a = Assemble {
                name,
                intent: None,
                sources: Vec::new(),
                budget: None,
                priority: None,
                format: None,
                stream: None,
                with: None,
                span: sp(e.span()),
            };
            let mut seen: Vec<(&'static str, Span)> = Vec::new();
            let mut has_from = false;
            for c in clauses {
                let (what, span) = c.name_and_span();
                if let Clause::Junk(_) = c {
                    continue;
                }
                if let Some((_, first)) = seen.iter().find(|(w, _)| *w == what) {
                    emitter.emit(ParseError::custom(
                        Diagnostic::new(Code::E002, span, format!("{what} appears twice in this ASSEMBLE."))
                            .with_label(*first, "first written here")
                            .with_suggestion(format!("Write {what} once.")),
                    ));
                    continue;
                }
                seen.push((what, span));
                match c {
                    Clause::For(s) => a.intent = Some(s),
                    Clause::From(s, _) => {
                        has_from = true;
                        a.sources = s;
                    }
                    Clause::Budget(b) => a.budget = Some(b),
                    Clause::Priority(p) => a.priority = Some(p),
                    Clause::Format(f) => a.format = Some(f),
                    Clause::Stream(s) => a.stream = Some(s),
                    Clause::With(w) => a.with = Some(w),
                    Clause::Junk(_) => {}
                }
            }
            if !has_from {
                emitter.emit(ParseError::custom(
                    Diagnostic::new(Code::E002, sp(keyword), "ASSEMBLE needs a FROM clause with at least one source.")
                        .with_expected(vec!["FROM".into()])
                        .with_suggestion("Add `FROM label: (RECALL …), …` with the sources to assemble.")
                        .with_example("ASSEMBLE ctx FOR \"intent\" FROM beliefs: (RECALL beliefs ABOUT \"alice\") BUDGET 2000 tokens"),
                ));
            }
            a
        })
        .boxed()
}

/// `FORMAT markdown | FORMAT TEMPLATE name | FORMAT TEMPLATE { … }`.
fn format_spec<'t, 's: 't, I>() -> impl Parser<'t, I, FormatSpec, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    kw(Keyword::Format)
        .ignore_then(choice((
            kw(Keyword::Template).ignore_then(choice((
                template_body().delimited_by(punct(Token::LBrace), punct(Token::RBrace)).map(FormatKind::Inline),
                ident().map(|(n, s)| FormatKind::Template(Ident { name: n.to_string(), span: sp(s) })),
            ))),
            format_name().map(|f| FormatKind::Named(f.format)),
        )))
        .map_with(|kind, e| FormatSpec { kind, span: sp(e.span()) })
}

/// `STREAM` or `STREAM { option, … }`.
fn stream<'t, 's: 't, I>() -> impl Parser<'t, I, Stream, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    let chunk_size =
        word("chunk_size").ignore_then(punct(Token::Eq)).ignore_then(int_lit()).map(StreamOptionKind::ChunkSize);
    let events = select! {
        Token::Ident(w) if StreamEvents::from_word(w).is_some() => w,
        // `budget` is also the BUDGET keyword.
        Token::Kw(Keyword::Budget) => "budget",
    }
    .map(|w| StreamOptionKind::Events(StreamEvents::from_word(w).unwrap_or(StreamEvents::All)));
    // Any other word, with its value if one is written (`chunksize = 200`), is reported once.
    let unknown = select! { Token::Ident(w) = e => (w, e.span()) }
        .then_ignore(punct(Token::Eq).ignore_then(value()).or_not())
        .validate(|(w, span), _, emitter| {
            let valid = ["progress", "budget", "chunks", "all", "chunk_size"];
            let mut d =
                Diagnostic::new(Code::E077, sp(span), format!("Unknown stream option `{w}`.")).with_valid_values(valid);
            if let Some(f) = cal_grammar::suggest::did_you_mean(w, valid) {
                d = d.with_suggestion(format!("Did you mean `{f}`?")).with_replacement(f);
            } else {
                d = d.with_suggestion("Stream options are progress, budget, chunks, all and chunk_size = N.");
            }
            emitter.emit(ParseError::custom(d));
            StreamOptionKind::Events(StreamEvents::All)
        });
    let option = choice((chunk_size, events, unknown))
        .map_with(|kind, e| StreamOption { kind, span: sp(e.span()) })
        .labelled(Expect::StreamOption);
    kw(Keyword::Stream)
        .ignore_then(
            braced(option.separated_by(punct(Token::Comma)).at_least(1).collect::<Vec<_>>(), |_| Vec::new()).or_not(),
        )
        .map_with(|options, e| Stream { options: options.unwrap_or_default(), span: sp(e.span()) })
}

/// One or more template sections; the lexer has captured each body as raw text.
pub(crate) fn template_body<'t, 's: 't, I>() -> impl Parser<'t, I, TemplateBody, Extra> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    let kind = select! {
        Token::Kw(Keyword::Header) => TemplateSectionKind::Header,
        Token::Kw(Keyword::Element) => TemplateSectionKind::Element,
        Token::Kw(Keyword::ElementSummary) => TemplateSectionKind::ElementSummary,
        Token::Kw(Keyword::ElementOmit) => TemplateSectionKind::ElementOmit,
        Token::Kw(Keyword::SourceBreak) => TemplateSectionKind::SourceBreak,
        Token::Kw(Keyword::Footer) => TemplateSectionKind::Footer,
    }
    .labelled(Expect::TemplateSection);
    let text = select! { Token::TemplateText(t) = e => (t.to_string(), sp(e.span())) };
    kind.then(text.delimited_by(punct(Token::LBrace), punct(Token::RBrace)))
        .map_with(|(kind, (text, text_span)), e| TemplateSection { kind, text, text_span, span: sp(e.span()) })
        .repeated()
        .at_least(1)
        .collect::<Vec<_>>()
        .map_with(|sections, e| TemplateBody { sections, span: sp(e.span()) })
}
