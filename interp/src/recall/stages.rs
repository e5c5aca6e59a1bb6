//! The pipeline (§4 `pipe_stage`): stages run in order on grains, then on
//! what the reshaping stages make of them (values, groups, a count).
//!
//! A leading run of ORDER BY / OFFSET / LIMIT / FIRST is pushed into the store
//! operation when nothing needs the whole candidate set first ([`window`]);
//! the store sorts with the same semantics (missing values last, ties by
//! content address ascending, §17.4), so pushing down never changes a result.

use cal_grammar::fields::names;
use std::cmp::Ordering;

use cal_grammar::limits::MAX_LIMIT;
use cal_grammar::{Code, Diagnostic, Span};
use cal_parser::ast::{Extractor, IntOrParam, ProjectSpec, SortDirection, StageKind};
use cal_planner::PlanStage;
use oms::Value;
use oms::store::SortKey;
use serde_json::Value as Json;

use super::eval::compare;
use crate::collate;
use crate::context::{Ctx, Row};
use crate::fields;
use crate::values::{self, Lit};

/// What flows between stages.
#[derive(Debug, Clone)]
pub enum Flow {
    /// Grains.
    Rows(Vec<Row>),
    /// Distinct values of an extractor.
    Values(Extractor, Vec<String>),
    /// Grains grouped by a field: (key, grains), groups in order of first appearance.
    Groups(String, Vec<(Json, Vec<Row>)>),
    /// A count.
    Count(u64),
}

/// How the grains are shown: SELECT's fields, PROJECT's specs.
#[derive(Debug, Clone, Default)]
pub struct Shaping {
    /// `| SELECT f, …`.
    pub select: Option<Vec<String>>,
    /// `| PROJECT …`.
    pub project: Option<Vec<ProjectSpec>>,
}

/// The part of the pipeline the store does.
#[derive(Debug, Clone, Default)]
pub struct Window {
    /// Sort keys for the store (empty: its default order).
    pub sort: Vec<SortKey>,
    /// First row kept.
    pub start: usize,
    /// Rows kept from `start`, when limited.
    pub len: Option<usize>,
    /// Which stages the window performs.
    pub consumed: Vec<bool>,
    /// Whether the cursor's skip was applied by the window.
    pub skip_used: bool,
    /// Whether a LIMIT/FIRST was consumed (so the store can stop early).
    pub limited: bool,
}

/// The value of `LIMIT n` / `OFFSET $p`, checked against MAX_LIMIT (CAL-E010) for LIMIT.
pub fn int_arg(cx: &Ctx<'_>, v: &IntOrParam, is_limit: bool) -> Result<usize, Diagnostic> {
    let (n, span) = match v {
        IntOrParam::Int(i) => (i.value, i.span),
        IntOrParam::Param(name, span) => match values::param(cx, name, *span)? {
            Lit::Int(i) if i >= 0 => (i.unsigned_abs(), *span),
            other => {
                return Err(Diagnostic::new(
                    Code::E020,
                    *span,
                    format!("`${name}` is {other:?}; it must be a non-negative integer."),
                ));
            }
        },
    };
    if is_limit && n > MAX_LIMIT as u64 {
        return Err(Diagnostic::new(Code::E010, span, format!("LIMIT {n} exceeds the maximum of {MAX_LIMIT}."))
            .with_suggestion(format!("Use LIMIT {MAX_LIMIT} or less, and OFFSET or the cursor to page.")));
    }
    Ok(usize::try_from(n).unwrap_or(usize::MAX))
}

/// Computes the pushable prefix of the pipeline. `pushable` is false when the
/// candidates must all be seen first (post-filters, dedup, diversity).
pub fn window(
    cx: &Ctx<'_>,
    stages: &[PlanStage],
    skip: usize,
    search: bool,
    locale: bool,
    pushable: bool,
) -> Result<Window, Diagnostic> {
    let mut w = Window { consumed: vec![false; stages.len()], ..Window::default() };
    if !pushable {
        return Ok(w);
    }
    let mut windowed = false;
    for (i, s) in stages.iter().enumerate() {
        match &s.kind {
            StageKind::Select(_) | StageKind::Project(_) => {}
            StageKind::OrderBy { field, direction } if !windowed && w.sort.is_empty() => {
                let desc = *direction == Some(SortDirection::Desc);
                if field.name == names::SCORE && search && desc {
                    // The store's search order: score descending, then address.
                } else if let Some(name) = fields::direct(&field.name).filter(|_| !locale && field.name != names::SCORE)
                {
                    w.sort.push(SortKey { field: name.to_string(), descending: desc });
                } else {
                    break;
                }
                w.consumed[i] = true;
                windowed = true;
            }
            StageKind::Offset(v) => {
                let n = int_arg(cx, v, false)?;
                w.start = w.start.saturating_add(n);
                w.len = w.len.map(|l| l.saturating_sub(n));
                w.consumed[i] = true;
                windowed = true;
            }
            StageKind::Limit(_) | StageKind::First => {
                let n = match &s.kind {
                    StageKind::Limit(v) => int_arg(cx, v, true)?,
                    _ => 1,
                };
                if !w.skip_used {
                    w.start = w.start.saturating_add(skip);
                    w.skip_used = true;
                }
                w.len = Some(w.len.map_or(n, |l| l.min(n)));
                w.consumed[i] = true;
                w.limited = true;
                windowed = true;
            }
            _ => break,
        }
    }
    Ok(w)
}

fn kind_rank(v: &Value) -> &'static str {
    v.kind()
}

/// Orders two optional values: present before missing, then by value (locale
/// collation for strings when asked), descending reversing present values only.
pub fn order(a: Option<&Value>, b: Option<&Value>, desc: bool, locale: bool) -> Ordering {
    match (a, b) {
        (Some(x), Some(y)) => {
            let o = match (x, y) {
                (Value::Str(s), Value::Str(t)) if locale => collate::compare(s, t),
                _ => compare(x, y).unwrap_or_else(|| kind_rank(x).cmp(kind_rank(y))),
            };
            if desc { o.reverse() } else { o }
        }
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

/// Orders rows by a field (ties by address, so the order is total), keeping the first
/// `keep` when given: those are selected in linear time and only they are sorted.
fn sort_rows(rows: Vec<Row>, field: &str, desc: bool, locale: bool, keep: Option<usize>) -> Vec<Row> {
    let mut keyed: Vec<(Option<Value>, Row)> = rows.into_iter().map(|r| (fields::value(&r.hit, field), r)).collect();
    let cmp = |(va, ra): &(Option<Value>, Row), (vb, rb): &(Option<Value>, Row)| {
        order(va.as_ref(), vb.as_ref(), desc, locale).then_with(|| ra.hit.address.cmp(&rb.hit.address))
    };
    if let Some(k) = keep
        && k < keyed.len()
    {
        if k == 0 {
            keyed.clear();
        } else {
            keyed.select_nth_unstable_by(k - 1, cmp);
            keyed.truncate(k);
        }
    }
    keyed.sort_by(cmp);
    keyed.into_iter().map(|(_, r)| r).collect()
}

/// How many rows an ORDER BY at stage `at` must put in order: when only SELECT, PROJECT
/// and OFFSET stand between it and a LIMIT (or FIRST), the rows up to the end of that
/// window and one more (the LIMIT tells from it whether more rows follow); else all.
fn ordered_prefix(
    cx: &Ctx<'_>,
    stages: &[PlanStage],
    consumed: &[bool],
    at: usize,
    skip: usize,
) -> Result<Option<usize>, Diagnostic> {
    let mut start = skip;
    for (j, s) in stages.iter().enumerate().skip(at + 1) {
        if consumed.get(j).copied().unwrap_or(false) {
            continue;
        }
        let n = match &s.kind {
            StageKind::Select(_) | StageKind::Project(_) => continue,
            StageKind::Offset(v) => {
                start = start.saturating_add(int_arg(cx, v, false)?);
                continue;
            }
            StageKind::Limit(v) => int_arg(cx, v, true)?,
            StageKind::First => 1,
            _ => return Ok(None),
        };
        return Ok(Some(start.saturating_add(n).saturating_add(1)));
    }
    Ok(None)
}

fn sort_text(items: &mut [String], desc: bool, locale: bool) {
    items.sort_by(|a, b| {
        let o = if locale { collate::compare(a, b) } else { a.cmp(b) };
        if desc { o.reverse() } else { o }
    });
}

fn slice<T>(items: Vec<T>, start: usize, len: Option<usize>) -> Vec<T> {
    let it = items.into_iter().skip(start);
    match len {
        Some(n) => it.take(n).collect(),
        None => it.collect(),
    }
}

fn extract(rows: &[Row], e: Extractor) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for r in rows {
        let v = match e {
            Extractor::Subjects => fields::value(&r.hit, names::SUBJECT).map(|v| fields::to_text(&v)),
            Extractor::Objects => fields::value(&r.hit, names::OBJECT).map(|v| fields::to_text(&v)),
            Extractor::Hashes => Some(format!("sha256:{}", r.hit.address.to_hex())),
        };
        if let Some(v) = v
            && seen.insert(v.clone())
        {
            out.push(v);
        }
    }
    out
}

fn group(rows: Vec<Row>, field: &str) -> Vec<(Json, Vec<Row>)> {
    let mut groups: Vec<(Json, Vec<Row>)> = Vec::new();
    for r in rows {
        let key = fields::value(&r.hit, field).map_or(Json::Null, |v| fields::to_output(field, &v));
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(r),
            None => groups.push((key, vec![r])),
        }
    }
    groups
}

fn mismatch(stage: &str, flow: &Flow) -> Diagnostic {
    let what = match flow {
        Flow::Rows(_) => "grains",
        Flow::Values(..) => "values",
        Flow::Groups(..) => "groups",
        Flow::Count(_) => "a count",
    };
    Diagnostic::new(Code::E021, Span::default(), format!("{stage} cannot follow a stage that produced {what}."))
        .with_suggestion("Put ORDER BY, LIMIT and OFFSET before COUNT, extractors and GROUP BY.")
}

/// The result of running the stages.
#[derive(Debug)]
pub struct Staged {
    /// What came out.
    pub flow: Flow,
    /// SELECT / PROJECT.
    pub shaping: Shaping,
    /// Whether rows remained after the first LIMIT (for `next_cursor`).
    pub more: Option<bool>,
}

/// Runs the stages not performed by the store, in order.
pub fn run(
    cx: &Ctx<'_>,
    stages: &[PlanStage],
    consumed: &[bool],
    mut flow: Flow,
    locale: bool,
    mut skip: usize,
) -> Result<Staged, Diagnostic> {
    let mut shaping = Shaping::default();
    let mut more = None;
    for (i, s) in stages.iter().enumerate() {
        cx.deadline.check()?;
        if consumed.get(i).copied().unwrap_or(false) {
            continue;
        }
        flow = match (&s.kind, flow) {
            (StageKind::Select(fs), f) => {
                shaping.select = Some(fs.iter().map(|f| f.name.to_string()).collect());
                f
            }
            (StageKind::Project(specs), f) => {
                shaping.project = Some(specs.clone());
                f
            }
            (StageKind::OrderBy { field, direction }, f) => {
                let desc = *direction == Some(SortDirection::Desc);
                match f {
                    Flow::Rows(rows) => {
                        let keep = ordered_prefix(cx, stages, consumed, i, skip)?;
                        Flow::Rows(sort_rows(rows, &field.name, desc, locale, keep))
                    }
                    Flow::Values(e, mut vs) => {
                        sort_text(&mut vs, desc, locale);
                        Flow::Values(e, vs)
                    }
                    Flow::Groups(g, mut groups) => {
                        groups.sort_by(|a, b| {
                            let o = a.0.to_string().cmp(&b.0.to_string());
                            if desc { o.reverse() } else { o }
                        });
                        Flow::Groups(g, groups)
                    }
                    other => return Err(mismatch("ORDER BY", &other)),
                }
            }
            (StageKind::Limit(_) | StageKind::First | StageKind::Offset(_), Flow::Count(n)) => {
                return Err(mismatch(
                    if matches!(s.kind, StageKind::Offset(_)) { "OFFSET" } else { "LIMIT" },
                    &Flow::Count(n),
                ));
            }
            (StageKind::Limit(_) | StageKind::First | StageKind::Offset(_), f) => {
                let (start, len) = match &s.kind {
                    StageKind::Offset(v) => (int_arg(cx, v, false)?, None),
                    StageKind::Limit(v) => (std::mem::take(&mut skip), Some(int_arg(cx, v, true)?)),
                    _ => (std::mem::take(&mut skip), Some(1)),
                };
                let size = match &f {
                    Flow::Rows(r) => r.len(),
                    Flow::Values(_, v) => v.len(),
                    Flow::Groups(_, g) => g.len(),
                    Flow::Count(_) => 0,
                };
                if let (None, Some(n)) = (more, len) {
                    more = Some(size > start.saturating_add(n));
                }
                match f {
                    Flow::Rows(r) => Flow::Rows(slice(r, start, len)),
                    Flow::Values(e, v) => Flow::Values(e, slice(v, start, len)),
                    Flow::Groups(g, gs) => Flow::Groups(g, slice(gs, start, len)),
                    Flow::Count(n) => Flow::Count(n),
                }
            }
            (StageKind::Count, f) => Flow::Count(match f {
                Flow::Rows(r) => r.len() as u64,
                Flow::Values(_, v) => v.len() as u64,
                Flow::Groups(_, g) => g.len() as u64,
                Flow::Count(_) => return Err(mismatch("COUNT", &f)),
            }),
            (StageKind::Extract(e), Flow::Rows(rows)) => Flow::Values(*e, extract(&rows, *e)),
            (StageKind::GroupBy(field), Flow::Rows(rows)) => {
                Flow::Groups(field.name.to_string(), group(rows, &field.name))
            }
            (StageKind::Extract(e), other) => return Err(mismatch(e.as_str(), &other)),
            (StageKind::GroupBy(_), other) => return Err(mismatch("GROUP BY", &other)),
        };
    }
    Ok(Staged { flow, shaping, more })
}
