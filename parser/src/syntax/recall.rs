//! RECALL: its clauses in any order, conditions, WITH options and the pipeline.

use super::common::*;
use super::cursor::{Bail, Cursor, PResult};
use super::expected::Expect;
use crate::ast::*;
use cal_grammar::with::{CACHE_TTL, DIVERSITY_LAMBDA, DiversityMode, EXTENSION_PREFIX, WithArgument};
use cal_grammar::{Code, Diagnostic, Keyword, Span, WithOptionName, suggest};
use cal_lexer::Token;

/// Tokens at which a broken clause ends and parsing can resume.
pub(crate) fn is_clause_boundary(t: &Token<'_>) -> bool {
    match t {
        Token::Kw(k) => starts_clause(*k),
        Token::Pipe | Token::Semicolon | Token::Comma => true,
        _ => false,
    }
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
    recall_boxed(p).map(|r| *r)
}

/// RECALL built in place on the heap: the node is large (most clauses are optional
/// fields), and a statement or subquery keeps it boxed, so it is never moved whole.
pub(crate) fn recall_boxed(p: &mut Cursor<'_, '_>) -> PResult<Box<Recall>> {
    p.enter()?;
    // Left on every path (see `value`'s arrays).
    let r = recall_body(p);
    p.leave();
    r
}

fn recall_body(p: &mut Cursor<'_, '_>) -> PResult<Box<Recall>> {
    let start = p.start();
    p.expect_kw(Keyword::Recall)?;
    let mut r = Box::<Recall>::default();
    r.my = p.eat_kw(Keyword::My);
    p.expect_label(Expect::GrainType);
    r.grain_type = grain_type_plural(p);
    loop {
        p.expect_label(Expect::Clause);
        let clause_start = p.pos;
        // A token already reported (`WHERE NOT …`, `WHERE IN …`) is not read again as a clause.
        if p.reported_here() && junk(p, starts_clause, Expect::Clause) {
            continue;
        }
        if let Err(Bail) = clause(p, &mut r) {
            // Skip the rest of the broken clause; resume at the next clause keyword.
            p.skip_until(is_clause_boundary);
            if p.pos == clause_start {
                break;
            }
            continue;
        }
        // No clause starts here: a stretch of text that is none is reported and skipped.
        if p.pos == clause_start && !junk(p, starts_clause, Expect::Clause) {
            break;
        }
    }
    r.span = p.since(start);
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
            let keyword = p.bump();
            let mut conditions = list(condition(p, keyword));
            while let Some(and) = p.eat_kw(Keyword::And) {
                conditions.push(condition(p, and));
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
            if is_stage_start(p.peek()) {
                push_listed(&mut r.pipeline, stage(p)?);
            } else {
                // `| LIMT 5`: the stretch after `|` is no stage.
                p.expect_label(Expect::Stage);
                if !junk(p, starts_clause, Expect::Stage) {
                    return Err(p.error());
                }
            }
        }
        t if is_stage_start(Some(t)) => push_listed(&mut r.pipeline, stage(p)?),
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

/// One WHERE condition after `keyword` (WHERE or AND). A broken test is skipped up to
/// the next `AND` or clause; a missing condition is reported and stands as one with an
/// empty field name right after the keyword, so that a trailing AND is not read as the
/// start of the next clause.
fn condition(p: &mut Cursor<'_, '_>, keyword: Span) -> Condition {
    let start = p.start();
    if !matches!(p.peek(), Some(Token::Ident(_) | Token::Kw(Keyword::Scope))) {
        p.relabel(Expect::Condition);
        let _ = p.error();
        let at = Span::empty(keyword.end as usize);
        return Condition {
            field: FieldRef { name: Text::default(), span: at },
            test: Test::InList(Vec::new()),
            span: at,
        };
    }
    let field = match field(p) {
        Ok(f) => f,
        Err(Bail) => FieldRef { name: Text::default(), span: p.span() },
    };
    let test = test(p).unwrap_or_else(|Bail| {
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
        return Ok(Test::Compare { op, op_span, value: value_in_place(p)? });
    }
    match p.peek() {
        Some(Token::Kw(Keyword::In)) => {
            p.bump();
            parenthesized(
                p,
                |p| {
                    if p.at_kw(Keyword::Recall) {
                        return Ok(Test::InSubquery(recall_boxed(p)?));
                    }
                    let mut values = list(value(p)?);
                    while p.eat(Token::Comma).is_some() {
                        values.push(value(p)?);
                    }
                    Ok(Test::InList(values))
                },
                |_| Test::InList(Vec::new()),
            )
        }
        Some(Token::Kw(Keyword::Between)) => {
            p.bump();
            let low = value(p)?;
            p.expect_kw(Keyword::And)?;
            Ok(Test::Between { low, high: value(p)? })
        }
        Some(Token::Kw(Keyword::Include)) => {
            p.bump();
            Ok(Test::Include(value_in_place(p)?))
        }
        Some(Token::Kw(Keyword::Exclude)) => {
            p.bump();
            Ok(Test::Exclude(value_in_place(p)?))
        }
        Some(Token::Kw(Keyword::Is)) => {
            p.bump();
            category(p)
        }
        _ => Err(p.error_expecting(Expect::Operator)),
    }
}

/// The word after IS. Any word is taken, so that a wrong one is reported as such and is
/// not also read as the start of the next clause (`IS RECENT`).
fn category(p: &mut Cursor<'_, '_>) -> PResult<Test> {
    let (word, keyword) = match p.peek() {
        Some(Token::Kw(k)) => (k.as_str(), Some(k)),
        Some(Token::Ident(w)) => (w, None),
        _ => return Err(p.error_expecting(Expect::Category)),
    };
    let span = p.bump();
    let category = match keyword {
        Some(k) => RelationCategory::from_word(k.as_str()),
        None => RelationCategory::from_word(&word.to_ascii_uppercase()),
    };
    if category.is_none() {
        let upper = word.to_ascii_uppercase();
        let mut d = Diagnostic::new(Code::E002, span, format!("`{word}` is not a relation category."))
            .with_valid_values(RelationCategory::words());
        d = if keyword == Some(Keyword::Null) {
            d.with_suggestion("CAL has no NULL tests: a missing field simply does not match (§5.4).")
        } else if let Some(f) = suggest::did_you_mean(&upper, RelationCategory::words()) {
            d.with_suggestion(format!("Did you mean `{f}`?")).with_replacement(f)
        } else {
            d.with_suggestion("IS takes a relation category (§7.2); to compare with a value use `=`.")
        };
        p.report(d);
    }
    Ok(Test::IsCategory(category.unwrap_or(RelationCategory::Preference), span))
}

/// `WITH option, …`.
#[inline(always)]
pub(crate) fn with_clause(p: &mut Cursor<'_, '_>) -> PResult<WithClause> {
    let start = p.start();
    p.expect_kw(Keyword::With)?;
    let mut options = Vec::new();
    // A broken option is skipped (with its arguments) to the next `,` or clause, so the
    // others still count.
    let mut option = |p: &mut Cursor<'_, '_>| {
        let at = p.pos;
        match with_option(p) {
            Ok(o) => push_listed(&mut options, o),
            Err(Bail) => match p.matching_close(at + 1) {
                Some(end) if end > p.pos && matches!(p.token_at(at + 1), Some(Token::LParen)) => p.skip_to(end),
                _ => {
                    p.skip_until(is_clause_boundary);
                }
            },
        }
    };
    option(p);
    // A comma continues the list only when a name follows that is not `label:`;
    // otherwise it belongs to the enclosing COALESCE, BATCH or FROM list.
    while matches!(p.peek(), Some(Token::Comma)) {
        match p.peek2() {
            Some(Token::Ident(_)) if !is_label_ahead(p, 1) => {
                p.bump();
                option(p);
            }
            Some(Token::Ident(_) | Token::Kw(_)) => break,
            // `WITH superseded, | LIMIT 5`: if nothing else takes the comma, the option is what is missing.
            _ => {
                p.expect_after(1, Expect::WithOption);
                break;
            }
        }
    }
    if options.is_empty() {
        return Err(Bail);
    }
    Ok(WithClause { options, span: p.since(start) })
}

fn parens<T>(p: &mut Cursor<'_, '_>, inner: impl FnOnce(&mut Cursor<'_, '_>) -> PResult<T>) -> PResult<T> {
    p.expect(Token::LParen)?;
    let v = inner(p)?;
    p.expect(Token::RParen)?;
    Ok(v)
}

/// An argument word that is none of `valid`: reported, and skipped with whatever follows it
/// up to the closing `)`, so that the option still stands (as its default) and the clause
/// goes on.
fn unknown_argument(p: &mut Cursor<'_, '_>, what: &str, valid: &[&'static str]) -> PResult<()> {
    let (word, span) = ident(p, Expect::Name)?;
    p.report(unknown_word(what, word, span, valid, None));
    p.skip_until(|t| matches!(t, Token::RParen));
    Ok(())
}

#[inline(always)]
fn with_option(p: &mut Cursor<'_, '_>) -> PResult<WithOption> {
    let start = p.start();
    let (word, word_span, is_keyword) = match p.peek() {
        Some(Token::Ident(w)) => (w, p.bump(), false),
        // Not an option, but taken as one so that it is reported as such (`WITH supersede`).
        Some(Token::Kw(k)) if !starts_clause(k) => (k.as_str(), p.bump(), true),
        _ => return Err(p.error_expecting(Expect::WithOption)),
    };
    let name = if is_keyword { None } else { WithOptionName::from_word(word) };
    let kind = match name {
        Some(n) if n.argument() == WithArgument::None => {
            WithKind::flag(n).ok_or_else(|| p.error_expecting(Expect::WithOption))?
        }
        Some(WithOptionName::ProgressiveDisclosure) => {
            if p.at(Token::LParen) {
                WithKind::ProgressiveDisclosure(Some(parens(p, |p| {
                    let (w, span) = ident(p, Expect::Name)?;
                    let level = DisclosureLevel::from_word(w).unwrap_or_else(|| {
                        p.report(unknown_word(
                            "disclosure level",
                            w,
                            span,
                            &DisclosureLevel::words().collect::<Vec<_>>(),
                            None,
                        ));
                        DisclosureLevel::Standard
                    });
                    Ok((level, span))
                })?))
            } else {
                WithKind::ProgressiveDisclosure(None)
            }
        }
        Some(WithOptionName::Diversity) => WithKind::Diversity(parens(p, |p| {
            if p.eat_word(DiversityMode::Mmr.as_str()).is_some() {
                let lambda = if p.eat(Token::Comma).is_some() {
                    p.eat_word(DIVERSITY_LAMBDA).ok_or_else(|| p.error_expecting(Expect::Name))?;
                    p.expect(Token::Eq)?;
                    Some(number(p)?)
                } else {
                    None
                };
                Ok(Diversity::Mmr(lambda))
            } else if p.eat_word(DiversityMode::Threshold.as_str()).is_some() {
                p.expect(Token::Comma)?;
                let (n, s) = number(p)?;
                Ok(Diversity::Threshold(n, s))
            } else {
                unknown_argument(p, "diversity method", &DiversityMode::words().collect::<Vec<_>>())?;
                Ok(Diversity::Mmr(None))
            }
        })?),
        Some(WithOptionName::Consistency) => WithKind::Consistency(parens(p, |p| {
            if p.eat_word(ConsistencyKind::Eventual.as_str()).is_some() {
                Ok(Consistency::Eventual)
            } else if p.eat_word(ConsistencyKind::Linearizable.as_str()).is_some() {
                Ok(Consistency::Linearizable)
            } else if p.eat_word(ConsistencyKind::Bounded.as_str()).is_some() {
                let (n, s) = parens(p, number)?;
                Ok(Consistency::Bounded(n, s))
            } else {
                let valid = [ConsistencyKind::Eventual, ConsistencyKind::Bounded, ConsistencyKind::Linearizable];
                unknown_argument(p, "consistency level", &valid.map(ConsistencyKind::as_str))?;
                Ok(Consistency::Eventual)
            }
        })?),
        Some(WithOptionName::Dedup) => WithKind::Dedup(parens(p, field)?),
        Some(WithOptionName::Locale) => WithKind::Locale(parens(p, string_lit)?),
        Some(WithOptionName::Cache) => WithKind::Cache(parens(p, |p| {
            p.eat_word(CACHE_TTL).ok_or_else(|| p.error_expecting(Expect::Name))?;
            p.expect(Token::Eq)?;
            int_lit(p)
        })?),
        // The flags, taken by the first arm.
        Some(_) => return Err(p.error_expecting(Expect::WithOption)),
        None if !is_keyword && word.starts_with(EXTENSION_PREFIX) => {
            let ext = word;
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
            WithKind::Extension { name: ext.into(), args }
        }
        None => {
            let other = if is_keyword { word.to_ascii_lowercase().into() } else { std::borrow::Cow::Borrowed(word) };
            p.report(unknown_word(
                "WITH option",
                &other,
                word_span,
                &WithOptionName::words().collect::<Vec<_>>(),
                Some("Implementation-specific options start with `x_`, e.g. `WITH x_hnsw_ef(200)` (§25.2)."),
            ));
            // Its arguments, up to the first `)`, are part of the same mistake.
            if matches!(p.peek(), Some(Token::LParen))
                && let Some(close) = (p.pos..).map_while(|i| p.token_at(i)).position(|t| t == Token::RParen)
            {
                let close = p.pos + close;
                p.skip_to(close + 1);
            }
            WithKind::Summarize
        }
    };
    Ok(WithOption { kind, span: p.since(start) })
}

/// One pipeline stage (after an optional `|`).
#[inline(always)]
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
            let mut specs = list(project_spec(p)?);
            while matches!(p.peek(), Some(Token::Comma)) {
                if matches!(p.peek2(), Some(Token::Ident("content" | "attr"))) && !is_label_ahead(p, 1) {
                    p.bump();
                    specs.push(project_spec(p)?);
                } else {
                    if !is_label_ahead(p, 1) {
                        // `PROJECT content(a), | LIMIT 5`: `content` or `attr` is what is missing.
                        p.expect_token_after(1, Token::Ident(""));
                    }
                    break;
                }
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
        let mut fields = list(field(p)?);
        while p.eat(Token::Comma).is_some() {
            fields.push(field(p)?);
        }
        Ok(fields)
    })?;
    Ok(ProjectSpec { is_attr, fields, span: p.since(start) })
}
