//! RECALL: its clauses in any order, conditions, WITH options and the pipeline.

use super::common::*;
use super::cursor::{Bail, Cursor, PResult};
use super::expected::Expect;
use crate::ast::*;
use cal_grammar::{Code, Diagnostic, Keyword, Span, WithOptionName};
use cal_lexer::Token;

/// Tokens at which a broken clause ends and parsing can resume.
pub(crate) fn is_clause_boundary(t: &Token<'_>) -> bool {
    matches!(
        t,
        Token::Kw(
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
        ) | Token::Pipe
            | Token::Semicolon
            | Token::Comma
    )
}

fn is_stage_start(t: Option<Token<'_>>) -> bool {
    matches!(
        t,
        Some(Token::Kw(
            Keyword::Select
                | Keyword::Order
                | Keyword::Limit
                | Keyword::Offset
                | Keyword::Count
                | Keyword::First
                | Keyword::Subjects
                | Keyword::Objects
                | Keyword::Hashes
                | Keyword::Group
                | Keyword::Project
        ))
    )
}

fn duplicate(p: &mut Cursor<'_, '_>, what: &str, first: Span, again: Span) {
    p.report(
        Diagnostic::new(Code::E002, again, format!("{what} appears twice in this RECALL."))
            .with_label(first, "first written here")
            .with_suggestion(format!("Write {what} once; combine WHERE conditions with AND.")),
    );
}

/// Stores `v` in `slot`, reporting a duplicate clause instead when it is already set.
fn once<T>(p: &mut Cursor<'_, '_>, slot: &mut Option<T>, v: T, what: &str, span: impl Fn(&T) -> Span) {
    match slot {
        Some(old) => duplicate(p, what, span(old), span(&v)),
        None => *slot = Some(v),
    }
}

/// The RECALL statement. The caller has checked that `RECALL` is next.
pub(crate) fn recall(p: &mut Cursor<'_, '_>) -> PResult<Recall> {
    p.enter()?;
    let start = p.start();
    p.expect_kw(Keyword::Recall)?;
    let mut r = Recall { my: p.eat_kw(Keyword::My), ..Recall::default() };
    p.expect_label(Expect::GrainType);
    r.grain_type = grain_type_plural(p);
    loop {
        p.expect_label(Expect::Clause);
        let clause_start = p.pos;
        if let Err(Bail) = clause(p, &mut r) {
            // Skip the rest of the broken clause; resume at the next clause keyword.
            p.skip_until(is_clause_boundary);
            if p.pos == clause_start {
                break;
            }
            continue;
        }
        if p.pos == clause_start {
            break;
        }
    }
    r.span = p.since(start);
    p.leave();
    Ok(r)
}

/// Parses one clause into `r`; consumes nothing when the next token starts no clause.
fn clause(p: &mut Cursor<'_, '_>, r: &mut Recall) -> PResult<()> {
    let Some(tok) = p.peek() else { return Ok(()) };
    let start = p.start();
    match tok {
        Token::Kw(Keyword::In) => {
            p.bump();
            let is_scope = p.eat_kw(Keyword::Scope).is_some();
            let value = string_lit(p)?;
            let v = InScope { is_scope, value, span: p.since(start) };
            once(p, &mut r.scope, v, "IN", |x| x.span);
        }
        Token::Kw(k @ (Keyword::About | Keyword::Like | Keyword::Since)) => {
            p.bump();
            let s = string_lit(p)?;
            let (slot, what) = match k {
                Keyword::About => (&mut r.about, "ABOUT"),
                Keyword::Like => (&mut r.like, "LIKE"),
                _ => (&mut r.since, "SINCE"),
            };
            once(p, slot, s, what, |x| x.span);
        }
        Token::Kw(Keyword::Between) => {
            p.bump();
            let low = value(p)?;
            p.expect_kw(Keyword::And)?;
            let high = value(p)?;
            let v = BetweenClause { low, high, span: p.since(start) };
            once(p, &mut r.between, v, "BETWEEN", |x| x.span);
        }
        Token::Kw(Keyword::Thread) => {
            p.bump();
            let kind = if p.eat_kw(Keyword::From).is_some() {
                ThreadKind::From(target(p)?)
            } else {
                ThreadKind::Session(string_lit(p)?)
            };
            let v = Thread { kind, span: p.since(start) };
            once(p, &mut r.thread, v, "THREAD", |x| x.span);
        }
        Token::Kw(Keyword::Where) => {
            p.bump();
            let mut conditions = vec![condition(p)];
            while p.eat_kw(Keyword::And).is_some() {
                conditions.push(condition(p));
            }
            let v = WhereClause { conditions, span: p.since(start) };
            once(p, &mut r.where_clause, v, "WHERE", |x| x.span);
        }
        Token::Kw(Keyword::With) => {
            let v = with_clause(p)?;
            match &mut r.with {
                // Two WITH clauses (one before and one after the pipeline) merge.
                Some(w) => {
                    w.span = w.span.cover(v.span);
                    w.options.extend(v.options);
                }
                None => r.with = Some(v),
            }
        }
        Token::Pipe => {
            p.bump();
            r.pipeline.push(stage(p)?);
        }
        t if is_stage_start(Some(t)) => r.pipeline.push(stage(p)?),
        Token::Kw(Keyword::Recent) => {
            p.bump();
            let v = int_lit(p)?;
            once(p, &mut r.recent, v, "RECENT", |x| x.span);
        }
        Token::Kw(Keyword::Contradictions) => {
            let v = p.bump();
            once(p, &mut r.contradictions, v, "CONTRADICTIONS", |x| *x);
        }
        Token::Kw(Keyword::As) => {
            p.bump();
            let v = format_name(p)?;
            once(p, &mut r.as_format, v, "AS", |x| x.span);
        }
        _ => {}
    }
    Ok(())
}

/// One WHERE condition. A broken test is skipped up to the next `AND` or clause.
fn condition(p: &mut Cursor<'_, '_>) -> Condition {
    let start = p.start();
    let field = match field(p) {
        Ok(f) => f,
        Err(Bail) => FieldRef { name: String::new(), span: p.span() },
    };
    let test = if field.name.is_empty() { Err(Bail) } else { test(p) };
    let test = test.unwrap_or_else(|Bail| {
        p.skip_until(|t| matches!(t, Token::Kw(Keyword::And)) || is_clause_boundary(t));
        Test::InList(Vec::new())
    });
    Condition { field, test, span: p.since(start) }
}

fn test(p: &mut Cursor<'_, '_>) -> PResult<Test> {
    let op = match p.peek() {
        Some(Token::Eq) => Some(Comparator::Eq),
        Some(Token::Ne) => Some(Comparator::Ne),
        Some(Token::Ge) => Some(Comparator::Ge),
        Some(Token::Le) => Some(Comparator::Le),
        Some(Token::Gt) => Some(Comparator::Gt),
        Some(Token::Lt) => Some(Comparator::Lt),
        _ => None,
    };
    if let Some(op) = op {
        let op_span = p.bump();
        return Ok(Test::Compare { op, op_span, value: value(p)? });
    }
    match p.peek() {
        Some(Token::Kw(Keyword::In)) => {
            p.bump();
            p.expect(Token::LParen)?;
            let t = if p.at_kw(Keyword::Recall) {
                Test::InSubquery(Box::new(recall(p)?))
            } else {
                let mut values = vec![value(p)?];
                while p.eat(Token::Comma).is_some() {
                    values.push(value(p)?);
                }
                Test::InList(values)
            };
            p.expect(Token::RParen)?;
            Ok(t)
        }
        Some(Token::Kw(Keyword::Between)) => {
            p.bump();
            let low = value(p)?;
            p.expect_kw(Keyword::And)?;
            Ok(Test::Between { low, high: value(p)? })
        }
        Some(Token::Kw(Keyword::Include)) => {
            p.bump();
            Ok(Test::Include(value(p)?))
        }
        Some(Token::Kw(Keyword::Exclude)) => {
            p.bump();
            Ok(Test::Exclude(value(p)?))
        }
        Some(Token::Kw(Keyword::Is)) => {
            p.bump();
            match p.peek() {
                Some(Token::Kw(k)) if RelationCategory::from_word(k.as_str()).is_some() => {
                    let span = p.bump();
                    Ok(Test::IsCategory(
                        RelationCategory::from_word(k.as_str()).unwrap_or(RelationCategory::Preference),
                        span,
                    ))
                }
                Some(Token::Kw(k)) => {
                    let span = p.bump();
                    p.report(
                        Diagnostic::new(Code::E002, span, format!("`{}` is not a relation category.", k.as_str()))
                            .with_valid_values(RelationCategory::words()),
                    );
                    Err(Bail)
                }
                _ => Err(p.error_expecting(Expect::Category)),
            }
        }
        _ => {
            for k in [Keyword::In, Keyword::Between, Keyword::Include, Keyword::Exclude, Keyword::Is] {
                p.at_kw(k);
            }
            Err(p.error_expecting(Expect::Operator))
        }
    }
}

/// `WITH option, …`.
pub(crate) fn with_clause(p: &mut Cursor<'_, '_>) -> PResult<WithClause> {
    let start = p.start();
    p.expect_kw(Keyword::With)?;
    let mut options = vec![with_option(p)?];
    // A comma continues the list only when a name follows that is not `label:`;
    // otherwise it belongs to the enclosing COALESCE, BATCH or FROM list.
    while p.peek() == Some(Token::Comma) && matches!(p.peek2(), Some(Token::Ident(_))) && !is_label_ahead(p, 1) {
        p.bump();
        options.push(with_option(p)?);
    }
    Ok(WithClause { options, span: p.since(start) })
}

fn parens<T>(p: &mut Cursor<'_, '_>, inner: impl FnOnce(&mut Cursor<'_, '_>) -> PResult<T>) -> PResult<T> {
    p.expect(Token::LParen)?;
    let v = inner(p)?;
    p.expect(Token::RParen)?;
    Ok(v)
}

fn with_option(p: &mut Cursor<'_, '_>) -> PResult<WithOption> {
    let start = p.start();
    let (word, word_span) = ident(p, Expect::WithOption)?;
    let kind = match word {
        "superseded" => WithKind::Superseded,
        "score_breakdown" => WithKind::ScoreBreakdown,
        "explanation" => WithKind::Explanation,
        "provenance" => WithKind::Provenance,
        "contradiction_detection" => WithKind::ContradictionDetection,
        "summarize" => WithKind::Summarize,
        "iso_timestamps" => WithKind::IsoTimestamps,
        "progressive_disclosure" => {
            if p.at(Token::LParen) {
                WithKind::ProgressiveDisclosure(Some(parens(p, |p| {
                    let (w, span) = ident(p, Expect::Name)?;
                    let level = DisclosureLevel::from_word(w).unwrap_or_else(|| {
                        p.report(unknown_word(
                            "disclosure level",
                            w,
                            span,
                            &DisclosureLevel::words().collect::<Vec<_>>(),
                        ));
                        DisclosureLevel::Standard
                    });
                    Ok((level, span))
                })?))
            } else {
                WithKind::ProgressiveDisclosure(None)
            }
        }
        "diversity" => WithKind::Diversity(parens(p, |p| {
            if p.eat_word("mmr").is_some() {
                let lambda = if p.eat(Token::Comma).is_some() {
                    p.eat_word("lambda").ok_or_else(|| p.error_expecting(Expect::Name))?;
                    p.expect(Token::Eq)?;
                    Some(number(p)?)
                } else {
                    None
                };
                Ok(Diversity::Mmr(lambda))
            } else if p.eat_word("threshold").is_some() {
                p.expect(Token::Comma)?;
                let (n, s) = number(p)?;
                Ok(Diversity::Threshold(n, s))
            } else {
                let span = p.span();
                p.report(unknown_word(
                    "diversity method",
                    p.src.get(span.range()).unwrap_or(""),
                    span,
                    &["mmr", "threshold"],
                ));
                Err(Bail)
            }
        })?),
        "consistency" => WithKind::Consistency(parens(p, |p| {
            if p.eat_word("eventual").is_some() {
                Ok(Consistency::Eventual)
            } else if p.eat_word("linearizable").is_some() {
                Ok(Consistency::Linearizable)
            } else if p.eat_word("bounded").is_some() {
                let (n, s) = parens(p, number)?;
                Ok(Consistency::Bounded(n, s))
            } else {
                let span = p.span();
                let text = p.src.get(span.range()).unwrap_or("");
                p.report(unknown_word("consistency level", text, span, &["eventual", "bounded", "linearizable"]));
                Err(Bail)
            }
        })?),
        "dedup" => WithKind::Dedup(parens(p, field)?),
        "locale" => WithKind::Locale(parens(p, string_lit)?),
        "cache" => WithKind::Cache(parens(p, |p| {
            p.eat_word("ttl").ok_or_else(|| p.error_expecting(Expect::Name))?;
            p.expect(Token::Eq)?;
            int_lit(p)
        })?),
        ext if ext.starts_with("x_") => {
            let args = if p.at(Token::LParen) {
                Some(parens(p, |p| {
                    let mut args = Vec::new();
                    if !p.at(Token::RParen) {
                        args.push(value(p)?);
                        while p.eat(Token::Comma).is_some() {
                            args.push(value(p)?);
                        }
                    }
                    Ok(args)
                })?)
            } else {
                None
            };
            WithKind::Extension { name: ext.to_string(), args }
        }
        other => {
            p.report(unknown_word("WITH option", other, word_span, &WithOptionName::words().collect::<Vec<_>>()));
            if p.at(Token::LParen) {
                p.bump();
                p.skip_until(|t| matches!(t, Token::RParen));
                p.eat(Token::RParen);
            }
            WithKind::Summarize
        }
    };
    Ok(WithOption { kind, span: p.since(start) })
}

/// One pipeline stage (after an optional `|`).
fn stage(p: &mut Cursor<'_, '_>) -> PResult<Stage> {
    let start = p.start();
    let kind = match p.peek() {
        Some(Token::Kw(Keyword::Select)) => {
            p.bump();
            StageKind::Select(field_list(p)?)
        }
        Some(Token::Kw(Keyword::Order)) => {
            p.bump();
            p.expect_kw(Keyword::By)?;
            let field = field(p)?;
            let direction = if p.eat_kw(Keyword::Asc).is_some() {
                Some(SortDirection::Asc)
            } else if p.eat_kw(Keyword::Desc).is_some() {
                Some(SortDirection::Desc)
            } else {
                None
            };
            StageKind::OrderBy { field, direction }
        }
        Some(Token::Kw(Keyword::Limit)) => {
            p.bump();
            StageKind::Limit(int_or_param(p)?)
        }
        Some(Token::Kw(Keyword::Offset)) => {
            p.bump();
            StageKind::Offset(int_or_param(p)?)
        }
        Some(Token::Kw(Keyword::Count)) => {
            p.bump();
            StageKind::Count
        }
        Some(Token::Kw(Keyword::First)) => {
            p.bump();
            StageKind::First
        }
        Some(Token::Kw(k @ (Keyword::Subjects | Keyword::Objects | Keyword::Hashes))) => {
            p.bump();
            StageKind::Extract(match k {
                Keyword::Subjects => Extractor::Subjects,
                Keyword::Objects => Extractor::Objects,
                _ => Extractor::Hashes,
            })
        }
        Some(Token::Kw(Keyword::Group)) => {
            p.bump();
            p.expect_kw(Keyword::By)?;
            StageKind::GroupBy(field(p)?)
        }
        Some(Token::Kw(Keyword::Project)) => {
            p.bump();
            let mut specs = vec![project_spec(p)?];
            while p.peek() == Some(Token::Comma)
                && matches!(p.peek2(), Some(Token::Ident("content" | "attr")))
                && !is_label_ahead(p, 1)
            {
                p.bump();
                specs.push(project_spec(p)?);
            }
            StageKind::Project(specs)
        }
        _ => return Err(p.error_expecting(Expect::Stage)),
    };
    Ok(Stage { kind, span: p.since(start) })
}

fn project_spec(p: &mut Cursor<'_, '_>) -> PResult<ProjectSpec> {
    let start = p.start();
    let is_attr = if p.eat_word("content").is_some() {
        false
    } else if p.eat_word("attr").is_some() {
        true
    } else {
        p.expect_label(Expect::Name);
        return Err(p.error());
    };
    let fields = parens(p, |p| {
        let mut fields = vec![field(p)?];
        while p.eat(Token::Comma).is_some() {
            fields.push(field(p)?);
        }
        Ok(fields)
    })?;
    Ok(ProjectSpec { is_attr, fields, span: p.since(start) })
}
