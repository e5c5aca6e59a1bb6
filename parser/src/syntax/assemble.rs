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
    let keyword = p.expect_kw(Keyword::Assemble)?;
    let name = match p.peek() {
        Some(Token::Ident(_)) => Some(user_name(p, "context")?),
        Some(Token::Kw(k)) if can_be_name(k) => Some(user_name(p, "context")?),
        _ => {
            p.expect_label(Expect::Name);
            None
        }
    };
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
        p.expect_label(Expect::AssembleClause);
        let before = p.pos;
        let clause_start = p.start();
        let what = match clause(p, &mut a, &mut from_seen) {
            Ok(Some(what)) => what,
            // No clause starts here: a stretch of text that is none is reported and skipped.
            Ok(None) if junk(p, starts_assemble_clause, Expect::AssembleClause) => continue,
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
    if !from_seen {
        p.report(
            Diagnostic::new(Code::E002, keyword, "ASSEMBLE needs a FROM clause with at least one source.")
                .with_expected(vec!["FROM".into()])
                .with_suggestion("Add `FROM label: (RECALL …), …` with the sources to assemble.")
                .with_example(
                    "ASSEMBLE ctx FOR \"intent\" FROM beliefs: (RECALL beliefs ABOUT \"alice\") BUDGET 2000 tokens",
                ),
        );
    }
    Ok(a)
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
            let mut sources = list(source(p)?);
            // Inside BATCH, `, label: RECALL …` is the next entry, not another source:
            // a source is `(…)`, `$let`, or `label:` followed by one of those.
            while matches!(p.peek(), Some(Token::Comma)) {
                if starts_source(p, 1) {
                    p.bump();
                    sources.push(source(p)?);
                } else {
                    // `FROM a: (…), BUDGET 5`: if nothing else takes the comma, a source is missing.
                    expect_source(p, 1);
                    break;
                }
            }
            if a.sources.is_empty() {
                a.sources = sources;
            }
            "FROM"
        }
        Some(Token::Kw(Keyword::Budget)) => {
            p.bump();
            let amount = int_lit(p)?;
            let (w, s) = ident(p, Expect::BudgetUnit)?;
            let unit = BudgetUnit::from_word(w).unwrap_or_else(|| {
                p.report(unknown_word(
                    "budget unit",
                    w,
                    s,
                    &["tokens", "grains"],
                    Some("A budget is counted in `tokens` or in `grains`."),
                ));
                BudgetUnit::Tokens
            });
            a.budget.get_or_insert(Budget { amount, unit, span: p.since(start) });
            "BUDGET"
        }
        Some(Token::Kw(Keyword::Priority)) => {
            p.bump();
            let mut labels = list(label(p)?);
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

/// Records what a source `at` tokens ahead lacks, as if it had been read there: after
/// a word, the `:` of a label; after `label:`, the `(` or `$let`; otherwise a source.
fn expect_source(p: &mut Cursor<'_, '_>, at: usize) {
    match (p.peek_at(at), p.peek_at(at + 1)) {
        (Some(Token::Ident(_) | Token::Kw(_)), Some(Token::Colon)) => {
            p.expect_token_after(at + 2, Token::LParen);
            p.expect_after(at + 2, Expect::Parameter);
        }
        (Some(Token::Ident(_) | Token::Kw(_)), _) => p.expect_token_after(at + 1, Token::Colon),
        _ => p.expect_after(at, Expect::Source),
    }
}

/// `[label:] (RECALL …)`, `[label:] ($let)` or `[label:] $let`.
fn source(p: &mut Cursor<'_, '_>) -> PResult<Source> {
    let start = p.start();
    // `word :` is a label here, whatever follows (a source is never a domain field).
    let label = if matches!(p.peek(), Some(Token::Ident(_) | Token::Kw(_))) && matches!(p.peek2(), Some(Token::Colon)) {
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
        Some(Token::LParen) => parenthesized(
            p,
            |p| {
                if let Some(Token::Param(_)) = p.peek() {
                    let (name, span) = param(p)?;
                    return Ok(SourceBody::LetRef(Ident { name, span }));
                }
                if p.at_kw(Keyword::Recall) {
                    return recall(p).map(SourceBody::Recall);
                }
                Err(p.error_expecting(Expect::Parameter))
            },
            |span| SourceBody::Recall(Recall { span, ..Recall::default() }),
        )?,
        _ if label.is_some() => {
            p.at(Token::LParen);
            return Err(p.error_expecting(Expect::Parameter));
        }
        _ => {
            expect_source(p, 0);
            return Err(p.error_expecting(Expect::Source));
        }
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
            FormatKind::Template(Ident { name: n.into(), span: s })
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
    let options = if matches!(p.peek(), Some(Token::LBrace)) {
        delimited(
            p,
            Token::LBrace,
            Token::RBrace,
            |p| {
                let mut options = list(stream_option(p)?);
                while p.eat(Token::Comma).is_some() {
                    options.push(stream_option(p)?);
                }
                Ok(options)
            },
            |_| Vec::new(),
        )?
    } else {
        p.at(Token::LBrace);
        Vec::new()
    };
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
    let kind = if word == "chunk_size" {
        p.expect(Token::Eq)?;
        StreamOptionKind::ChunkSize(int_lit(p)?)
    } else if let Some(ev) = StreamEvents::from_word(word) {
        StreamOptionKind::Events(ev)
    } else {
        // Any other word, with its value if one is written (`chunksize = 200`), is reported once.
        if p.at(Token::Eq) {
            if starts_value(p.peek2()) {
                p.bump();
                value(p)?;
            } else {
                p.expect_after(1, Expect::Value);
            }
        }
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
            _ if !sections.is_empty() => {
                p.expect_label(Expect::TemplateSection);
                break;
            }
            _ => return Err(p.error_expecting(Expect::TemplateSection)),
        };
        p.bump();
        p.expect(Token::LBrace)?;
        let (text, text_span) = match p.peek() {
            Some(Token::TemplateText(t)) => (t.to_string(), p.bump()),
            _ => return Err(p.error()),
        };
        p.expect(Token::RBrace)?;
        sections.push(TemplateSection { kind, text: text.into(), text_span, span: p.since(section_start) });
    }
    Ok(TemplateBody { sections, span: p.since(start) })
}
