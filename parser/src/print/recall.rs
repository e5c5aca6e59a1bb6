//! RECALL: clauses in the EBNF order, conditions, WITH options and pipeline stages.

use super::values::{int_or_param, number_text, quoted, target, value, values};
use super::{Ctx, newline};
use crate::ast::*;
use cal_grammar::WithOptionName;
use cal_grammar::with::{CACHE_TTL, DIVERSITY_LAMBDA, DiversityMode};

/// A RECALL statement: on one line when it fits, else one clause per line.
pub(crate) fn recall(r: &Recall, cx: Ctx) -> String {
    let head = head(r);
    let flat_clauses = clauses(r, None);
    let mut flat = head.clone();
    for c in &flat_clauses {
        flat.push(' ');
        flat.push_str(c);
    }
    if cx.fits(&flat) {
        return flat;
    }
    let inner = cx.inner();
    let mut out = head;
    for c in clauses(r, Some(Ctx::line(inner).with_tail(cx.tail))) {
        newline(&mut out, inner);
        out.push_str(&c);
    }
    out
}

/// `RECALL [MY] [type]`.
fn head(r: &Recall) -> String {
    let mut out = String::from("RECALL");
    if r.my.is_some() {
        out.push_str(" MY");
    }
    if let Some(g) = &r.grain_type {
        out.push(' ');
        out.push_str(g.grain_type.plural());
    }
    out
}

/// The clauses after the head, in EBNF order. `cx` is `None` for the one-line
/// form, or the context of a clause starting its own line, whose tail applies to
/// the last clause. Only WHERE and WITH can break further.
fn clauses(r: &Recall, cx: Option<Ctx>) -> Vec<String> {
    let rest_empty = r.pipeline.is_empty() && r.recent.is_none() && r.contradictions.is_none() && r.as_format.is_none();
    let cx_if_last = |last: bool| match cx {
        None => Ctx::FLAT,
        Some(c) if last => c,
        Some(c) => Ctx { tail: 0, ..c },
    };
    let mut out = Vec::new();
    if let Some(s) = &r.scope {
        out.push(in_scope(s));
    }
    if let Some(s) = &r.about {
        out.push(format!("ABOUT {}", quoted(&s.value)));
    }
    if let Some(s) = &r.like {
        out.push(format!("LIKE {}", quoted(&s.value)));
    }
    if let Some(s) = &r.since {
        out.push(format!("SINCE {}", quoted(&s.value)));
    }
    if let Some(b) = &r.between {
        out.push(format!("BETWEEN {} AND {}", value(&b.low), value(&b.high)));
    }
    if let Some(t) = &r.thread {
        out.push(match &t.kind {
            ThreadKind::Session(s) => format!("THREAD {}", quoted(&s.value)),
            ThreadKind::From(t) => format!("THREAD FROM {}", target(t)),
        });
    }
    if let Some(w) = &r.where_clause {
        out.push(where_clause(w, cx_if_last(r.with.is_none() && rest_empty)));
    }
    if let Some(w) = &r.with {
        out.push(with_clause(w, cx_if_last(rest_empty)));
    }
    for s in &r.pipeline {
        out.push(format!("| {}", stage(&s.kind)));
    }
    if let Some(n) = &r.recent {
        out.push(format!("RECENT {}", n.value));
    }
    if r.contradictions.is_some() {
        out.push("CONTRADICTIONS".to_string());
    }
    if let Some(f) = &r.as_format {
        out.push(format!("AS {}", f.format.as_str()));
    }
    out
}

/// `IN "ns"` or `IN SCOPE "s"`.
pub(crate) fn in_scope(s: &InScope) -> String {
    if s.is_scope { format!("IN SCOPE {}", quoted(&s.value.value)) } else { format!("IN {}", quoted(&s.value.value)) }
}

/// `WHERE c AND c …`; when too long, each further condition starts a line with `AND`.
fn where_clause(w: &WhereClause, cx: Ctx) -> String {
    let flat =
        format!("WHERE {}", w.conditions.iter().map(|c| condition(c, Ctx::FLAT)).collect::<Vec<_>>().join(" AND "));
    if cx.fits(&flat) {
        return flat;
    }
    let mut out = String::from("WHERE ");
    let and_indent = cx.inner();
    for (i, c) in w.conditions.iter().enumerate() {
        let first_col = if i == 0 {
            cx.col + "WHERE ".len()
        } else {
            newline(&mut out, and_indent);
            out.push_str("AND ");
            and_indent + "AND ".len()
        };
        let line_indent = if i == 0 { cx.indent } else { and_indent };
        out.push_str(&condition(c, Ctx { indent: line_indent + 2, col: first_col, tail: 0, flat: false }));
    }
    out
}

/// One condition: a field and its test.
pub(crate) fn condition(c: &Condition, cx: Ctx) -> String {
    let field = &c.field.name;
    match &c.test {
        Test::Compare { op, value: v, .. } => format!("{field} {} {}", op.as_str(), value(v)),
        Test::InList(items) => format!("{field} IN ({})", values(items)),
        Test::InSubquery(r) => {
            let prefix = format!("{field} IN (");
            let sub = recall(r, cx.after(prefix.len()).with_tail(1));
            format!("{prefix}{sub})")
        }
        Test::Between { low, high } => format!("{field} BETWEEN {} AND {}", value(low), value(high)),
        Test::Include(v) => format!("{field} INCLUDE {}", value(v)),
        Test::Exclude(v) => format!("{field} EXCLUDE {}", value(v)),
        Test::IsCategory(cat, _) => format!("{field} IS {}", cat.as_str()),
    }
}

/// `WITH option, …`; when too long, one option per line after the first.
pub(crate) fn with_clause(w: &WithClause, cx: Ctx) -> String {
    let options: Vec<String> = w.options.iter().map(|o| with_option(&o.kind)).collect();
    let flat = format!("WITH {}", options.join(", "));
    if cx.fits(&flat) {
        return flat;
    }
    let mut out = String::from("WITH ");
    for (i, o) in options.iter().enumerate() {
        if i > 0 {
            out.push(',');
            newline(&mut out, cx.inner());
        }
        out.push_str(o);
    }
    out
}

/// One WITH option with its arguments; names and argument words are the grammar's.
fn with_option(k: &WithKind) -> String {
    if let WithKind::Extension { name, args } = k {
        return match args {
            Some(args) => format!("{name}({})", values(args)),
            None => name.to_string(),
        };
    }
    // Every option but an extension has a name in the grammar's table.
    let name = k.name().map_or("", WithOptionName::as_str);
    let arg = match k {
        WithKind::ProgressiveDisclosure(Some((level, _))) => level.as_str().to_string(),
        WithKind::Diversity(Diversity::Mmr(None)) => DiversityMode::Mmr.as_str().to_string(),
        WithKind::Diversity(Diversity::Mmr(Some((n, _)))) => {
            format!("{}, {DIVERSITY_LAMBDA} = {}", DiversityMode::Mmr, number_text(*n))
        }
        WithKind::Diversity(Diversity::Threshold(n, _)) => format!("{}, {}", DiversityMode::Threshold, number_text(*n)),
        WithKind::Consistency(Consistency::Eventual) => ConsistencyKind::Eventual.as_str().to_string(),
        WithKind::Consistency(Consistency::Bounded(n, _)) => {
            format!("{}({})", ConsistencyKind::Bounded, number_text(*n))
        }
        WithKind::Consistency(Consistency::Linearizable) => ConsistencyKind::Linearizable.as_str().to_string(),
        WithKind::Dedup(f) => f.name.to_string(),
        WithKind::Locale(s) => quoted(&s.value),
        WithKind::Cache(ttl) => format!("{CACHE_TTL} = {}", ttl.value),
        // Flags, and `progressive_disclosure` without a level.
        _ => return name.to_string(),
    };
    format!("{name}({arg})")
}

/// One pipeline stage, without the `|`.
fn stage(k: &StageKind) -> String {
    let fields = |fs: &[FieldRef]| fs.iter().map(|f| f.name.as_str()).collect::<Vec<_>>().join(", ");
    match k {
        StageKind::Select(fs) => format!("SELECT {}", fields(fs)),
        StageKind::OrderBy { field, direction: None } => format!("ORDER BY {}", field.name),
        StageKind::OrderBy { field, direction: Some(d) } => format!("ORDER BY {} {}", field.name, d.as_str()),
        StageKind::Limit(n) => format!("LIMIT {}", int_or_param(n)),
        StageKind::Offset(n) => format!("OFFSET {}", int_or_param(n)),
        StageKind::Count => "COUNT".into(),
        StageKind::First => "FIRST".into(),
        StageKind::Extract(e) => e.as_str().into(),
        StageKind::GroupBy(f) => format!("GROUP BY {}", f.name),
        StageKind::Project(specs) => format!(
            "PROJECT {}",
            specs
                .iter()
                .map(|s| format!("{}({})", if s.is_attr { "attr" } else { "content" }, fields(&s.fields)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}
