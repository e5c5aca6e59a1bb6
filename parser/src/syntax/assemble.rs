//! ASSEMBLE and what only it has: sources, budget, priority, format specs,
//! STREAM, and template bodies (shared with DEFINE TEMPLATE).

use super::common::*;
use super::cursor::{Bail, Cursor, PResult};
use super::expected::Expect;
use super::recall::{is_clause_boundary, recall, with_clause};
use crate::ast::*;
use cal_grammar::{Code, Diagnostic, Keyword, Span, StreamEvents};
use cal_lexer::Token;

/// ASSEMBLE [name] clauses… — clauses in any order, each at most once, FROM required.
pub(crate) fn assemble(p: &mut Cursor<'_, '_>) -> PResult<Assemble> {
    let start = p.start();
    p.expect_kw(Keyword::Assemble)?;
    let name = if matches!(p.peek(), Some(Token::Ident(_))) { Some(user_name(p)?) } else { None };
    let mut a = Assemble {
        name,
        intent: None,
        sources: Vec::new(),
        budget: None,
        priority: None,
        format: None,
        stream: None,
        with: None,
        span: Span::default(),
    };
    let mut seen: Vec<(&'static str, Span)> = Vec::new();
    let mut from_seen = false;
    loop {
        p.expect_label(Expect::Clause);
        let before = p.pos;
        let clause_start = p.start();
        let what = match clause(p, &mut a, &mut from_seen) {
            Ok(Some(what)) => what,
            Ok(None) => break,
            Err(Bail) => {
                p.skip_until(|t| is_clause_boundary(t) && !matches!(t, Token::Comma));
                if p.pos == before {
                    break;
                }
                continue;
            }
        };
        let span = p.since(clause_start);
        if let Some((_, first)) = seen.iter().find(|(w, _)| *w == what) {
            p.report(
                Diagnostic::new(Code::E002, span, format!("{what} appears twice in this ASSEMBLE."))
                    .with_label(*first, "first written here")
                    .with_suggestion(format!("Write {what} once.")),
            );
        } else {
            seen.push((what, span));
        }
    }
    a.span = p.since(start);
    if !from_seen && !matches!(p.peek(), None | Some(Token::Semicolon | Token::RParen | Token::Comma | Token::RBrace)) {
        // Something that is not a clause follows: that is the error to report.
        return Err(p.error());
    }
    if !from_seen {
        p.report(
            Diagnostic::new(
                Code::E002,
                Span::empty(a.span.end as usize),
                "ASSEMBLE needs a FROM clause with at least one source.",
            )
            .with_expected(vec!["FROM".into()])
            .with_example(
                "ASSEMBLE ctx FOR \"intent\" FROM beliefs: (RECALL beliefs ABOUT \"alice\") BUDGET 2000 tokens",
            ),
        );
    }
    Ok(a)
}

/// Parses one clause; returns its name, or `None` when no clause starts here.
/// A repeated clause keeps its first value.
fn clause(p: &mut Cursor<'_, '_>, a: &mut Assemble, from_seen: &mut bool) -> PResult<Option<&'static str>> {
    let start = p.start();
    let what = match p.peek() {
        Some(Token::Kw(Keyword::For)) => {
            p.bump();
            let s = string_lit(p)?;
            a.intent.get_or_insert(s);
            "FOR"
        }
        Some(Token::Kw(Keyword::From)) => {
            p.bump();
            *from_seen = true;
            let mut sources = vec![source(p)?];
            // Inside BATCH, `, label: RECALL …` is the next entry, not another source:
            // a source is `(…)`, `$let`, or `label:` followed by one of those.
            while p.peek() == Some(Token::Comma) && starts_source(p, 1) {
                p.bump();
                sources.push(source(p)?);
            }
            if a.sources.is_empty() {
                a.sources = sources;
            }
            "FROM"
        }
        Some(Token::Kw(Keyword::Budget)) => {
            p.bump();
            let amount = int_lit(p)?;
            let (w, s) = ident(p, Expect::Name)?;
            let unit = BudgetUnit::from_word(w).ok_or_else(|| {
                p.report(unknown_word("budget unit", w, s, &["tokens", "grains"]));
                Bail
            })?;
            a.budget.get_or_insert(Budget { amount, unit, span: p.since(start) });
            "BUDGET"
        }
        Some(Token::Kw(Keyword::Priority)) => {
            p.bump();
            let mut labels = vec![label(p)?];
            while p.eat(Token::Gt).is_some() {
                labels.push(label(p)?);
            }
            a.priority.get_or_insert(Priority { labels, span: p.since(start) });
            "PRIORITY"
        }
        Some(Token::Kw(Keyword::Format)) => {
            let f = format_spec(p)?;
            a.format.get_or_insert(f);
            "FORMAT"
        }
        Some(Token::Kw(Keyword::Stream)) => {
            let s = stream(p)?;
            a.stream.get_or_insert(s);
            "STREAM"
        }
        Some(Token::Kw(Keyword::With)) => {
            let w = with_clause(p)?;
            a.with.get_or_insert(w);
            "WITH"
        }
        _ => return Ok(None),
    };
    Ok(Some(what))
}

fn starts_source(p: &Cursor<'_, '_>, at: usize) -> bool {
    let body = |n| matches!(p.peek_at(n), Some(Token::LParen | Token::Param(_)));
    body(at) || (is_label_ahead(p, at) && body(at + 2))
}

/// `[label:] (RECALL …)`, `[label:] ($let)` or `[label:] $let`.
fn source(p: &mut Cursor<'_, '_>) -> PResult<Source> {
    let start = p.start();
    let label = if is_label_ahead(p, 0) {
        let l = label(p)?;
        p.bump();
        Some(l)
    } else {
        None
    };
    let body = match p.peek() {
        Some(Token::Param(_)) => {
            let (name, span) = param(p)?;
            SourceBody::LetRef(Ident { name, span })
        }
        Some(Token::LParen) => {
            p.bump();
            let body = if let Some(Token::Param(_)) = p.peek() {
                let (name, span) = param(p)?;
                SourceBody::LetRef(Ident { name, span })
            } else {
                p.at_kw(Keyword::Recall);
                match p.peek() {
                    Some(Token::Kw(Keyword::Recall)) => match recall(p) {
                        Ok(r) => SourceBody::Recall(r),
                        Err(Bail) => {
                            p.skip_until(|t| matches!(t, Token::RParen));
                            SourceBody::Recall(Recall { span: p.since(start), ..Recall::default() })
                        }
                    },
                    _ => {
                        p.expect_label(Expect::Parameter);
                        return Err(p.error());
                    }
                }
            };
            p.expect(Token::RParen)?;
            body
        }
        _ => return Err(p.error_expecting(Expect::Source)),
    };
    Ok(Source { label, body, span: p.since(start) })
}

/// `FORMAT markdown | FORMAT TEMPLATE name | FORMAT TEMPLATE { … }`.
fn format_spec(p: &mut Cursor<'_, '_>) -> PResult<FormatSpec> {
    let start = p.start();
    p.expect_kw(Keyword::Format)?;
    let kind = if p.eat_kw(Keyword::Template).is_some() {
        if p.eat(Token::LBrace).is_some() {
            let body = template_body(p)?;
            p.expect(Token::RBrace)?;
            FormatKind::Inline(body)
        } else {
            let (n, s) = ident(p, Expect::Name)?;
            FormatKind::Template(Ident { name: n.to_string(), span: s })
        }
    } else {
        FormatKind::Named(format_name(p)?.format)
    };
    Ok(FormatSpec { kind, span: p.since(start) })
}

/// `STREAM` or `STREAM { option, … }`.
fn stream(p: &mut Cursor<'_, '_>) -> PResult<Stream> {
    let start = p.start();
    p.expect_kw(Keyword::Stream)?;
    let mut options = Vec::new();
    if p.eat(Token::LBrace).is_some() {
        loop {
            options.push(stream_option(p)?);
            if p.eat(Token::Comma).is_none() {
                break;
            }
        }
        p.expect(Token::RBrace)?;
    }
    Ok(Stream { options, span: p.since(start) })
}

fn stream_option(p: &mut Cursor<'_, '_>) -> PResult<StreamOption> {
    let start = p.start();
    let word = match p.peek() {
        Some(Token::Ident(w)) => w,
        // `budget` is also the BUDGET keyword.
        Some(Token::Kw(Keyword::Budget)) => "budget",
        _ => return Err(p.error_expecting(Expect::StreamOption)),
    };
    let span = p.bump();
    let kind = if word == "chunk_size" || (p.peek() == Some(Token::Eq) && StreamEvents::from_word(word).is_none()) {
        if word != "chunk_size" {
            let mut d = Diagnostic::new(Code::E077, span, format!("Unknown stream option `{word}`."))
                .with_valid_values(["progress", "budget", "chunks", "all", "chunk_size"]);
            if cal_grammar::suggest::did_you_mean(word, ["chunk_size"]).is_some() {
                d = d.with_suggestion("Did you mean `chunk_size`?").with_replacement("chunk_size");
            }
            p.report(d);
        }
        p.expect(Token::Eq)?;
        StreamOptionKind::ChunkSize(int_lit(p)?)
    } else if let Some(ev) = StreamEvents::from_word(word) {
        StreamOptionKind::Events(ev)
    } else {
        let valid = ["progress", "budget", "chunks", "all", "chunk_size"];
        let mut d =
            Diagnostic::new(Code::E077, span, format!("Unknown stream option `{word}`.")).with_valid_values(valid);
        d = match cal_grammar::suggest::did_you_mean(word, valid) {
            Some(f) => d.with_suggestion(format!("Did you mean `{f}`?")).with_replacement(f),
            None => d.with_suggestion("Stream options are progress, budget, chunks, all and chunk_size = N."),
        };
        p.report(d);
        StreamOptionKind::Events(StreamEvents::All)
    };
    Ok(StreamOption { kind, span: p.since(start) })
}

/// One or more template sections; the lexer has captured each body as raw text.
pub(crate) fn template_body(p: &mut Cursor<'_, '_>) -> PResult<TemplateBody> {
    let start = p.start();
    let mut sections = Vec::new();
    loop {
        let section_start = p.start();
        let kind = match p.peek() {
            Some(Token::Kw(Keyword::Header)) => TemplateSectionKind::Header,
            Some(Token::Kw(Keyword::Element)) => TemplateSectionKind::Element,
            Some(Token::Kw(Keyword::ElementSummary)) => TemplateSectionKind::ElementSummary,
            Some(Token::Kw(Keyword::ElementOmit)) => TemplateSectionKind::ElementOmit,
            Some(Token::Kw(Keyword::SourceBreak)) => TemplateSectionKind::SourceBreak,
            Some(Token::Kw(Keyword::Footer)) => TemplateSectionKind::Footer,
            _ if !sections.is_empty() => break,
            _ => return Err(p.error_expecting(Expect::TemplateSection)),
        };
        p.bump();
        p.expect(Token::LBrace)?;
        let (text, text_span) = match p.peek() {
            Some(Token::TemplateText(t)) => (t.to_string(), p.bump()),
            _ => return Err(p.error()),
        };
        p.expect(Token::RBrace)?;
        sections.push(TemplateSection { kind, text, text_span, span: p.since(section_start) });
    }
    Ok(TemplateBody { sections, span: p.since(start) })
}
