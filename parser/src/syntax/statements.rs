//! The statements, and the dispatch between them.

use super::assemble::{assemble, template_body};
use super::common::*;
use super::cursor::{Bail, Cursor, PResult};
use super::expected::Expect;
use super::recall::{recall, recall_boxed};
use crate::ast::*;
use cal_grammar::fields::names;
use cal_grammar::{Code, Diagnostic, Keyword};
use cal_lexer::Token;

/// Any of the twelve statements. `Ok(None)` when the statement parsed but a part
/// it cannot do without was invalid (the grain type of ADD); that was reported.
pub(crate) fn statement(p: &mut Cursor<'_, '_>) -> PResult<Option<Statement>> {
    p.expect_label(Expect::Statement);
    let stmt = match p.peek() {
        Some(Token::Kw(Keyword::Recall)) => Statement::Recall(recall_boxed(p)?),
        Some(Token::Kw(Keyword::Assemble)) => Statement::Assemble(Box::new(assemble(p)?)),
        Some(Token::LParen) => return set_expression(p),
        Some(Token::Kw(Keyword::Explain)) => return explain(p),
        Some(Token::Kw(Keyword::Exists)) => {
            let start = p.start();
            p.bump();
            let target = target(p)?;
            Statement::Exists(Exists { target, span: p.since(start) })
        }
        Some(Token::Kw(Keyword::History)) => Statement::History(history(p)?),
        Some(Token::Kw(Keyword::Describe)) => Statement::Describe(describe(p)?),
        Some(Token::Kw(Keyword::Batch)) => Statement::Batch(batch(p)?),
        Some(Token::Kw(Keyword::Coalesce)) => Statement::Coalesce(coalesce(p)?),
        Some(Token::Kw(Keyword::Add)) => return Ok(add(p)?.map(Statement::Add)),
        Some(Token::Kw(Keyword::Supersede)) => {
            let start = p.start();
            p.bump();
            let target = target(p)?;
            let sets = set_clauses(p);
            let reason = reason(p);
            Statement::Supersede(Supersede { target, sets, reason, span: p.since(start) })
        }
        Some(Token::Kw(Keyword::Revert)) => {
            let start = p.start();
            p.bump();
            let target = target(p)?;
            let reason = reason(p);
            Statement::Revert(Revert { target, reason, span: p.since(start) })
        }
        _ => return Err(p.error()),
    };
    Ok(Some(stmt))
}

/// `(a) OP (b) [OP (c) …]`, nesting to the left.
fn set_expression(p: &mut Cursor<'_, '_>) -> PResult<Option<Statement>> {
    let start = p.start();
    let mut left = operand(p)?;
    let mut ops = 0;
    loop {
        let op = match p.peek() {
            Some(Token::Kw(Keyword::Union)) => SetOperator::Union,
            Some(Token::Kw(Keyword::Intersect)) => SetOperator::Intersect,
            Some(Token::Kw(Keyword::Except)) => SetOperator::Except,
            _ => {
                if ops == 0 {
                    for k in [Keyword::Union, Keyword::Intersect, Keyword::Except] {
                        p.at_kw(k);
                    }
                    return Err(p.error());
                }
                break;
            }
        };
        ops += 1;
        let op_span = p.bump();
        let right = operand(p)?;
        left = match (left, right) {
            (Some(l), Some(r)) => Some(Statement::SetOp(SetOp {
                left: Box::new(l),
                op,
                op_span,
                right: Box::new(r),
                span: p.since(start),
            })),
            _ => None,
        };
    }
    Ok(left)
}

/// `( statement )`; a broken operand is skipped to its closing parenthesis.
fn operand(p: &mut Cursor<'_, '_>) -> PResult<Option<Statement>> {
    parenthesized(
        p,
        |p| {
            p.enter()?;
            let inner = statement(p);
            p.leave();
            inner
        },
        |_| None,
    )
}

fn explain(p: &mut Cursor<'_, '_>) -> PResult<Option<Statement>> {
    let start = p.start();
    p.bump();
    p.enter()?;
    let inner = statement(p);
    p.leave();
    let inner = inner?;
    if let Some(Statement::Explain(x)) = &inner {
        p.report(
            Diagnostic::new(Code::E002, x.span, "EXPLAIN cannot explain an EXPLAIN.")
                .with_suggestion("Remove the inner EXPLAIN."),
        );
    }
    Ok(inner.map(|s| Statement::Explain(Explain { statement: Box::new(s), span: p.since(start) })))
}

/// `HISTORY target [DIFF target]` or `HISTORY [IN …] WHERE subject = v AND relation = v [AS OF "…"]`.
fn history(p: &mut Cursor<'_, '_>) -> PResult<History> {
    let start = p.start();
    p.expect_kw(Keyword::History)?;
    if let Some(Token::Hash(_) | Token::Param(_)) = p.peek() {
        let target = target(p)?;
        let diff = if p.eat_kw(Keyword::Diff).is_some() { Some(super::common::target(p)?) } else { None };
        return Ok(History { kind: HistoryKind::Hash { target, diff }, span: p.since(start) });
    }
    p.expect_label(Expect::Hash);
    let scope = if p.at_kw(Keyword::In) {
        let s = p.start();
        p.bump();
        let is_scope = p.eat_kw(Keyword::Scope).is_some();
        let value = string_lit(p)?;
        Some(InScope { is_scope, value, span: p.since(s) })
    } else {
        None
    };
    p.expect_kw(Keyword::Where)?;
    let (first, v1) = eq_condition(p, None)?;
    p.expect_kw(Keyword::And)?;
    let (subject_first, [s, r]) = (first == names::SUBJECT, [names::SUBJECT, names::RELATION]);
    let (_, v2) = eq_condition(p, Some(if subject_first { r } else { s }))?;
    let (subject, relation) = if subject_first { (v1, v2) } else { (v2, v1) };
    let as_of = if p.eat_kw(Keyword::As).is_some() {
        p.expect_kw(Keyword::Of)?;
        Some(string_lit(p)?)
    } else {
        None
    };
    Ok(History { kind: HistoryKind::Triple { scope, subject, relation, as_of }, span: p.since(start) })
}

/// `subject = value` or `relation = value` (only `field` when given). Yields which it was.
fn eq_condition(p: &mut Cursor<'_, '_>, field: Option<&'static str>) -> PResult<(&'static str, Value)> {
    let which = match p.peek() {
        Some(Token::Ident(w)) => [names::SUBJECT, names::RELATION].into_iter().find(|f| *f == w),
        _ => None,
    };
    let Some(which) = which.filter(|w| field.is_none_or(|f| f == *w)) else {
        return Err(p.error_expecting(Expect::HistoryCondition));
    };
    p.bump();
    p.expect(Token::Eq)?;
    Ok((which, value(p)?))
}

fn describe(p: &mut Cursor<'_, '_>) -> PResult<Describe> {
    let start = p.start();
    p.expect_kw(Keyword::Describe)?;
    let (w, target_span) = ident(p, Expect::DescribeTarget)?;
    let target = DescribeTarget::from_word(w).unwrap_or_else(|| {
        p.report(unknown_word("DESCRIBE target", w, target_span, &DescribeTarget::words().collect::<Vec<_>>(), None));
        DescribeTarget::Capabilities
    });
    let grain_type = if at_grain_word(p) {
        grain_type_singular(p)?
    } else {
        p.expect_label(Expect::GrainType);
        None
    };
    if let (Some(g), false) = (&grain_type, target == DescribeTarget::Fields) {
        p.report(
            Diagnostic::new(
                Code::E002,
                g.span,
                format!("Only `DESCRIBE fields` takes a grain type, not `DESCRIBE {target}`."),
            )
            .with_suggestion("Remove the grain type, or describe the fields of that type.")
            .with_example("DESCRIBE fields belief"),
        );
    }
    Ok(Describe { target, target_span, grain_type, span: p.since(start) })
}

fn batch(p: &mut Cursor<'_, '_>) -> PResult<Batch> {
    let start = p.start();
    p.expect_kw(Keyword::Batch)?;
    p.expect(Token::LBrace)?;
    let mut entries = Vec::new();
    loop {
        if p.at(Token::RBrace) && !entries.is_empty() {
            break;
        }
        let entry_start = p.start();
        match batch_entry(p, entry_start) {
            Ok(Some(e)) => entries.push(e),
            Ok(None) => {}
            Err(Bail) => {
                p.skip_until(|t| matches!(t, Token::Comma));
            }
        }
        if p.eat(Token::Comma).is_some() {
            continue;
        }
        if !p.at(Token::RBrace) {
            // Report what follows the entry, then resume at the next entry.
            let _ = p.error();
            p.skip_until(|t| matches!(t, Token::Comma));
            if p.eat(Token::Comma).is_some() {
                continue;
            }
        }
        break;
    }
    p.expect(Token::RBrace)?;
    Ok(Batch { entries, span: p.since(start) })
}

fn batch_entry(p: &mut Cursor<'_, '_>, entry_start: u32) -> PResult<Option<BatchEntry>> {
    let label = label(p)?;
    p.expect(Token::Colon)?;
    p.enter()?;
    let stmt = statement(p);
    p.leave();
    Ok(stmt?.map(|statement| BatchEntry { label, statement, span: p.since(entry_start) }))
}

fn coalesce(p: &mut Cursor<'_, '_>) -> PResult<Coalesce> {
    let start = p.start();
    p.expect_kw(Keyword::Coalesce)?;
    let branches = parenthesized(
        p,
        |p| {
            let mut branches = Vec::new();
            loop {
                if !p.at_kw(Keyword::Recall) {
                    return Err(p.error());
                }
                branches.push(recall(p)?);
                if p.eat(Token::Comma).is_none() {
                    return Ok(branches);
                }
            }
        },
        |_| Vec::new(),
    )?;
    Ok(Coalesce { branches, span: p.since(start) })
}

/// `SET field = value …`. A SET that does not parse ends the list where it starts; its error
/// is the one reported (a combinator's "furthest failure").
fn set_clauses(p: &mut Cursor<'_, '_>) -> Vec<SetClause> {
    let mut sets = Vec::new();
    while p.at_kw(Keyword::Set) {
        let mark = p.mark();
        match set_clause(p) {
            Ok(s) => sets.push(s),
            Err(Bail) => {
                p.reset(mark);
                break;
            }
        }
    }
    sets
}

fn set_clause(p: &mut Cursor<'_, '_>) -> PResult<SetClause> {
    let start = p.start();
    p.bump();
    let field = field(p)?;
    p.expect(Token::Eq)?;
    let value = value(p)?;
    Ok(SetClause { field, value, span: p.since(start) })
}

/// `[REASON "…"]`; a REASON without its string ends the statement before it, as [`set_clauses`].
fn reason(p: &mut Cursor<'_, '_>) -> Option<StringLit> {
    let mark = p.mark();
    p.eat_kw(Keyword::Reason)?;
    match string_lit(p) {
        Ok(s) => Some(s),
        Err(Bail) => {
            p.reset(mark);
            None
        }
    }
}

fn add(p: &mut Cursor<'_, '_>) -> PResult<Option<Add>> {
    let start = p.start();
    p.expect_kw(Keyword::Add)?;
    let grain_type = grain_type_singular(p)?;
    let sets = set_clauses(p);
    let reason = reason(p);
    Ok(grain_type.map(|grain_type| Add { grain_type, sets, reason, span: p.since(start) }))
}

/// `DEFINE TEMPLATE name [EXTENDS parent] sections…`.
pub(crate) fn define_template(p: &mut Cursor<'_, '_>) -> PResult<DefineTemplate> {
    let start = p.start();
    p.expect_kw(Keyword::Define)?;
    p.expect_kw(Keyword::Template)?;
    let name = user_name(p, "template")?;
    let extends = if p.eat_kw(Keyword::Extends).is_some() {
        let (n, s) = ident(p, Expect::Name)?;
        Some(Ident { name: n.into(), span: s })
    } else {
        None
    };
    let body = template_body(p)?;
    Ok(DefineTemplate { name, extends, body, span: p.since(start) })
}
