//! `textDocument/hover`: what the word under the cursor means, from the
//! grammar tables; on a statement's first keyword, its canonical text, its
//! desugared form and its EXPLAIN plan (from the planner).

use super::context::{self, Kind, Tok};
use super::{docs, names};
use cal_grammar::fields::{self, FieldResolution};
use cal_grammar::{Code, DescribeTarget, FormatName, GrainType, Keyword, RelationCategory, Span, WithOptionName};
use cal_parser::ast::{Document, QueryBody, Statement};
use cal_parser::print::{recall_to_text, statement_to_text};

/// A hover: the markdown and the span it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hover {
    /// The hovered text.
    pub span: Span,
    /// What to show.
    pub markdown: String,
}

/// Hover at byte `offset` of `text`; `document` is the latest analysis (possibly stale or partial).
pub fn hover(text: &str, document: Option<&Document>, offset: usize) -> Option<Hover> {
    if let Some(h) = code_at(text, offset) {
        return Some(h);
    }
    let all = context::tokens_near(text, offset);
    let i = all
        .iter()
        .position(|t| (t.span.start as usize) <= offset && offset < t.span.end as usize)
        .or_else(|| all.iter().position(|t| t.span.end as usize == offset))?;
    let tok = &all[i];
    let seg_start = all[..i].iter().rposition(|t| t.is(";")).map_or(0, |j| j + 1);
    let before = &all[seg_start..i];
    let markdown = match &tok.kind {
        Kind::Kw(k) => keyword(*k, tok, before, document, text)?,
        Kind::Ident(w) => ident(w, before)?,
        Kind::Str(s) => {
            let field = before.len().checked_sub(2).and_then(|j| before[j].ident());
            docs::string_value(field, s)?
        }
        Kind::Param(name) => {
            let (_, def) = context::visible_lets(&all, offset).into_iter().rev().find(|(n, _)| n == name)?;
            let binding = names::let_binding_text(text, &all, def)?;
            format!("**${name}** — LET binding\n\n```cal\n{binding}\n```")
        }
        Kind::Other(_) => return None,
    };
    Some(Hover { span: tok.span, markdown })
}

fn code_at(text: &str, offset: usize) -> Option<Hover> {
    let b = text.as_bytes();
    let is_code_byte = |c: u8| c.is_ascii_alphanumeric() || c == b'-';
    let mut s = offset.min(b.len());
    while s > 0 && is_code_byte(b[s - 1]) {
        s -= 1;
    }
    let mut e = offset.min(b.len());
    while e < b.len() && is_code_byte(b[e]) {
        e += 1;
    }
    let code = Code::parse(text.get(s..e)?)?;
    Some(Hover { span: Span::new(s, e), markdown: docs::code(code) })
}

fn keyword(k: Keyword, tok: &Tok, before: &[Tok], document: Option<&Document>, text: &str) -> Option<String> {
    if let Some(cat) = RelationCategory::from_word(k.as_str())
        && before.last().is_some_and(|t| t.is_kw(Keyword::Is))
    {
        return Some(docs::category(cat));
    }
    let mut s = docs::keyword(k);
    if let Some(stmt) = document.and_then(|d| statement_at(d, tok.span.start)) {
        s.push_str("\n\n---\n\n");
        s.push_str(&statement(stmt, text));
    }
    Some(s)
}

/// The statement of `document` whose first byte is `start` (top level, inside EXPLAIN, or a set operand).
fn statement_at(document: &Document, start: u32) -> Option<&Statement> {
    fn find(s: &Statement, start: u32) -> Option<&Statement> {
        if s.span().start == start {
            return Some(s);
        }
        match s {
            Statement::Explain(e) => find(&e.statement, start),
            Statement::SetOp(op) => find(&op.left, start).or_else(|| find(&op.right, start)),
            Statement::Batch(b) => b.entries.iter().find_map(|e| find(&e.statement, start)),
            _ => None,
        }
    }
    document.queries.iter().find_map(|q| match &q.body {
        QueryBody::Statement(s) if q.span.start <= start && start < q.span.end.max(q.span.start.saturating_add(1)) => {
            find(s, start)
        }
        _ => None,
    })
}

/// Canonical text, desugared form (RECALL with shortcuts) and the EXPLAIN plan of a statement.
pub fn statement(stmt: &Statement, _text: &str) -> String {
    let mut s =
        format!("**{}** statement — canonical form\n\n```cal\n{}\n```", stmt.kind_name(), statement_to_text(stmt));
    let planned = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let desugared = match stmt {
            Statement::Recall(r) if cal_planner::has_shortcuts(r) => {
                Some(recall_to_text(&cal_planner::desugar_recall(r).recall))
            }
            _ => None,
        };
        let (node, _) = cal_planner::plan_statement(stmt, &cal_planner::PlanOptions::default());
        (desugared, node)
    }));
    if let Ok((desugared, node)) = planned {
        if let Some(d) = desugared {
            s.push_str(&format!("\n\nDesugared:\n\n```cal\n{d}\n```"));
        }
        let plan = serde_json::to_string_pretty(&node.to_json()).unwrap_or_default();
        s.push_str(&format!("\n\nEXPLAIN plan:\n\n```json\n{plan}\n```"));
    }
    s
}

fn ident(w: &str, before: &[Tok]) -> Option<String> {
    let prev = before.last();
    if let Some(g) = GrainType::from_plural(w).or_else(|| GrainType::from_singular(w))
        && prev.is_some_and(|t| matches!(t.kind, Kind::Kw(_)))
    {
        return Some(docs::grain_type(g));
    }
    if let Some(f) = FormatName::from_word(w)
        && prev.is_some_and(|t| t.is_kw(Keyword::As) || t.is_kw(Keyword::Format))
    {
        return Some(docs::format(f));
    }
    if WithOptionName::from_word(w).is_some() && prev.is_some_and(|t| t.is_kw(Keyword::With) || t.is(",")) {
        return Some(docs::with_option(w));
    }
    if DescribeTarget::from_word(w).is_some() && prev.is_some_and(|t| t.is_kw(Keyword::Describe)) {
        return Some(docs::grammar_block(w, 1));
    }
    let grain = context::recall_grain(before);
    match fields::resolve(grain, w) {
        FieldResolution::Common(f) | FieldResolution::TypeSpecific(f) => Some(docs::field(f)),
        FieldResolution::Domain { field: Some(f), .. } => Some(docs::field(f)),
        FieldResolution::NotOnGrainType { field, owners } => {
            let names: Vec<&str> = owners.iter().map(|o| o.plural()).collect();
            Some(format!("{}\n\n⚠ not a field of this grain type; only of {}", docs::field(field), names.join(", ")))
        }
        FieldResolution::NeedsGrainType { owners } => {
            let f = owners.first().and_then(|o| fields::type_field(*o, w))?;
            Some(format!("{}\n\n⚠ needs a grain type after RECALL", docs::field(f)))
        }
        _ => GrainType::from_plural(w).or_else(|| GrainType::from_singular(w)).map(docs::grain_type),
    }
}
