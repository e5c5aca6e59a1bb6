//! RECALL (§8.1): one store operation (`query` or `search`, §13) with the
//! desugared conditions, the ABOUT fallback when nothing matches
//! structurally (§9.1), WITH options, and the pipeline.

pub mod compile;
pub mod eval;
pub mod hybrid;
pub mod options;
pub(crate) mod sealed;
pub mod stages;

use cal_grammar::fields::names;
use cal_grammar::{Code, Diagnostic, Span};
use cal_parser::ast::{Comparator, Condition, FieldRef, Target, Test, Value as AstValue, ValueKind};
use cal_planner::RecallPlan;
use oms::store::{Query, SortKey};
use oms::{ContentAddress, Value};
use serde_json::{Map, Value as Json};
use std::collections::HashMap;

use crate::context::{Bound, Ctx, Row, bug};
use crate::outcome::{Entry, Grains, Group};
use crate::values::Lit;
use crate::{envelope, fields, projection};
use compile::{Compiled, compile};
use options::Options;
use stages::{Flow, Shaping, Staged};

/// A RECALL's outcome.
#[derive(Debug)]
pub struct RecallOut {
    /// What came out of the pipeline.
    pub flow: Flow,
    /// SELECT / PROJECT.
    pub shaping: Shaping,
    /// Grains that matched, before any limit.
    pub total: usize,
    /// Whether more grains follow the page (for `next_cursor`).
    pub more: bool,
}

/// What the store returned, and how much of the pipeline it did.
struct Fetched {
    rows: Vec<Row>,
    total: usize,
    window: stages::Window,
    more: Option<bool>,
}

/// The order asked of the store. A RECALL without a pushed ORDER BY is in
/// score order (§8.1's envelope), equal scores by content address ascending
/// (§17.4). A structured `query` scores every match 1.0, so its matches come
/// in address order — never the store's own default (recency), which would
/// contradict the scores reported. A text `search` already orders by score,
/// then address.
fn store_order(window: &stages::Window, c: &Compiled) -> Vec<SortKey> {
    if !window.sort.is_empty() || c.text.is_some() {
        return window.sort.clone();
    }
    vec![SortKey { field: "content_address".into(), descending: false }]
}

fn fetch(cx: &mut Ctx<'_>, c: &Compiled, plan: &RecallPlan, o: &Options, skip: usize) -> Result<Fetched, Diagnostic> {
    cx.deadline.check()?;
    // A fused ranking is made whole before the pipeline pages it.
    let semantic = c.text.as_ref().and(cx.config.semantic.clone());
    let pushable = c.posts.is_empty() && !o.needs_all() && semantic.is_none();
    let window = stages::window(cx, &plan.stages, skip, c.text.is_some(), o.locale, pushable)?;
    if c.impossible {
        return Ok(Fetched { rows: Vec::new(), total: 0, window, more: Some(false) });
    }
    let limit = window.len.map(|l| window.start.saturating_add(l));
    let q = Query { filters: c.filters.clone(), view: c.view, sort: store_order(&window, c), limit, cursor: None };
    let (env, mut parts) = match (&c.text, semantic) {
        (Some(t), Some(retriever)) => {
            let answer = hybrid::search(cx, &retriever, t, &q, plan.recall().span)?;
            (Ok(answer.envelope), answer.parts)
        }
        (Some(t), None) => (cx.facade.search(t, &q), HashMap::new()),
        (None, _) => (cx.facade.query(&q), HashMap::new()),
    };
    let env = env.map_err(|e| cx.deadline.store_error(plan.recall().span, &e))?;
    cx.stats.store_ops += 1;
    cx.stats.scanned += env.total as u64;
    cx.deadline.check()?;
    let mut rows: Vec<Row> = env
        .results
        .into_iter()
        .map(|hit| {
            let mut row = Row::new(hit);
            if let Some(p) = parts.remove(&row.hit.address) {
                row.notes.insert(hybrid::PARTS_NOTE.into(), p);
            }
            row
        })
        .collect();
    if window.start > 0 || window.len.is_some() {
        rows = rows.into_iter().skip(window.start).collect();
        let more = window.len.map(|l| env.total > window.start.saturating_add(l));
        return Ok(Fetched { rows, total: env.total, window, more });
    }
    if !c.posts.is_empty() {
        rows.retain(|r| c.posts.iter().all(|p| eval::passes(&r.hit, p)));
    }
    let total = if pushable { env.total } else { rows.len() };
    Ok(Fetched { rows, total, window, more: None })
}

/// Whether the pipeline is only `| COUNT` (SELECT and PROJECT aside): the
/// store's `count` answers it without copying a grain out (§2.3 `count()`).
fn counts_only(plan: &RecallPlan) -> bool {
    let mut kinds = plan
        .stages
        .iter()
        .map(|s| &s.kind)
        .filter(|k| !matches!(k, cal_parser::ast::StageKind::Select(_) | cal_parser::ast::StageKind::Project(_)));
    matches!((kinds.next(), kinds.next()), (Some(cal_parser::ast::StageKind::Count), None))
}

fn count(cx: &mut Ctx<'_>, c: &Compiled) -> Result<usize, Diagnostic> {
    cx.deadline.check()?;
    if c.impossible {
        return Ok(0);
    }
    if let (Some(t), Some(retriever)) = (&c.text, cx.config.semantic.clone()) {
        let q = Query { filters: c.filters.clone(), view: c.view, sort: Vec::new(), limit: None, cursor: None };
        let n = hybrid::search(cx, &retriever, t, &q, Span::default())?.envelope.total;
        cx.stats.scanned += n as u64;
        cx.deadline.check()?;
        return Ok(n);
    }
    let q = Query { filters: c.filters.clone(), view: c.view, sort: Vec::new(), limit: Some(0), cursor: None };
    let n = cx.facade.count(c.text.as_deref(), &q).map_err(|e| cx.deadline.store_error(Default::default(), &e))?;
    cx.stats.store_ops += 1;
    cx.stats.scanned += n as u64;
    cx.deadline.check()?;
    Ok(n)
}

/// `THREAD FROM sha256:…`: the message's session (OMS §28.6), as a condition.
fn thread_condition(cx: &mut Ctx<'_>, t: &Target) -> Result<Condition, Diagnostic> {
    let hex = crate::values::target_hex(cx, t)?;
    let found = cx.resolve_visible(&hex, 2);
    cx.stats.store_ops += 1;
    let addr: ContentAddress = match found.as_slice() {
        [one] => *one,
        [] => {
            return Err(Diagnostic::new(Code::E046, t.span, format!("No grain has the address sha256:{hex}."))
                .with_suggestion("Check the hash, for example with `EXISTS sha256:…`."));
        }
        _ => return Err(ambiguous(&hex, t.span)),
    };
    let stored = cx.facade.get(&addr).ok_or_else(|| bug(t.span, "a resolved address has no grain"))?;
    cx.stats.scanned += 1;
    let session = fields::blob_value(stored.grain(), names::SESSION_ID).and_then(|v| v.as_str().map(str::to_string));
    let session = session.ok_or_else(|| {
        Diagnostic::new(Code::E020, t.span, format!("sha256:{hex} has no session_id, so it belongs to no thread."))
            .with_suggestion("THREAD FROM takes an event of a conversation (OMS §28.6).")
    })?;
    Ok(Condition {
        field: FieldRef { name: names::SESSION_ID.into(), span: t.span },
        test: Test::Compare {
            op: Comparator::Eq,
            op_span: t.span,
            value: AstValue { kind: ValueKind::String(session.into()), span: t.span },
        },
        span: t.span,
    })
}

/// A hash prefix that names several grains.
pub fn ambiguous(hex: &str, span: cal_grammar::Span) -> Diagnostic {
    Diagnostic::new(Code::E015, span, format!("sha256:{hex} is a prefix of several grains' addresses."))
        .with_suggestion("Write more hex digits (up to 64).")
}

/// The values a subquery contributes to `field IN (…)`.
fn extracted(out: RecallOut, field: &str) -> Vec<Lit> {
    let bound = match out.flow {
        Flow::Values(_, vs) => Bound::Values(vs),
        Flow::Rows(rows) => Bound::Rows(rows),
        Flow::Groups(_, gs) => Bound::Rows(gs.into_iter().flat_map(|(_, r)| r).collect()),
        Flow::Count(n) => Bound::Values(vec![n.to_string()]),
    };
    compile::let_values(&bound, field)
}

/// Runs a RECALL. `skip` is the cursor's offset, applied before the first LIMIT.
pub fn run(cx: &mut Ctx<'_>, plan: &RecallPlan, skip: usize) -> Result<RecallOut, Diagnostic> {
    cx.deadline.check()?;
    let mut subs = Vec::new();
    for (field, sub) in &plan.subqueries {
        let out = run(cx, sub, 0)?;
        subs.push(extracted(out, &field.name));
    }
    let mut extra = Vec::new();
    if let Some(t) = &plan.desugared.thread_from {
        extra.push(thread_condition(cx, t)?);
    }
    let r = plan.recall();
    let o = Options::of(cx, r);
    let mut compiled = compile(cx, r, plan.view, &subs, &extra)?;
    let hash_span = r.where_clause.iter().flat_map(|w| w.conditions.iter()).find(|c| c.field.name == names::HASH);
    sealed::report_selected(cx, &compiled, hash_span.map_or(r.span, |c| c.span));
    if counts_only(plan) && compiled.posts.is_empty() && !o.needs_all() {
        let mut n = count(cx, &compiled)?;
        if n == 0
            && let Some(fb) = &plan.desugared.fallback
        {
            cx.stats.note("ABOUT found nothing with subject = …; it fell back to WHERE query = … (§9.1)");
            compiled = compile(cx, fb, plan.view, &subs, &extra)?;
            if compiled.posts.is_empty() {
                n = count(cx, &compiled)?;
            } else {
                let f = fetch(cx, &compiled, plan, &o, 0)?;
                n = f.rows.len();
            }
        }
        return Ok(RecallOut { flow: Flow::Count(n as u64), shaping: Shaping::default(), total: n, more: false });
    }
    let mut fetched = fetch(cx, &compiled, plan, &o, skip)?;
    if fetched.total == 0
        && let Some(fb) = &plan.desugared.fallback
    {
        cx.stats.note("ABOUT found nothing with subject = …; it fell back to WHERE query = … (§9.1)");
        compiled = compile(cx, fb, plan.view, &subs, &extra)?;
        fetched = fetch(cx, &compiled, plan, &o, skip)?;
    }
    let Fetched { mut rows, total, window, more: fetched_more } = fetched;
    if let Some(f) = &o.dedup {
        rows = options::dedup(rows, f);
    }
    let needed = first_window_end(cx, plan, skip)?;
    if let Some(d) = o.diversity {
        rows = options::diversify(rows, d, needed, &cx.deadline)?;
    }
    let total = if o.needs_all() { rows.len() } else { total };
    let skip_left = if window.skip_used { 0 } else { skip };
    let Staged { mut flow, shaping, more } =
        stages::run(cx, &plan.stages, &window.consumed, Flow::Rows(rows), o.locale, skip_left)?;
    match &mut flow {
        Flow::Rows(rows) => options::annotate(cx, &o, rows, &compiled)?,
        Flow::Groups(_, groups) => {
            for (_, rows) in groups.iter_mut() {
                options::annotate(cx, &o, rows, &compiled)?;
            }
        }
        Flow::Values(..) | Flow::Count(_) => {}
    }
    Ok(RecallOut { flow, shaping, total, more: fetched_more.or(more).unwrap_or(false) })
}

/// The end of the first LIMIT's window, when it comes before any reshaping:
/// how many candidates diversity must order.
fn first_window_end(cx: &Ctx<'_>, plan: &RecallPlan, skip: usize) -> Result<Option<usize>, Diagnostic> {
    let mut start = skip;
    for s in &plan.stages {
        match &s.kind {
            cal_parser::ast::StageKind::Offset(v) => start = start.saturating_add(stages::int_arg(cx, v, false)?),
            cal_parser::ast::StageKind::Limit(v) => {
                return Ok(Some(start.saturating_add(stages::int_arg(cx, v, true)?)));
            }
            cal_parser::ast::StageKind::First => return Ok(Some(start.saturating_add(1))),
            cal_parser::ast::StageKind::OrderBy { .. }
            | cal_parser::ast::StageKind::Select(_)
            | cal_parser::ast::StageKind::Project(_) => {}
            _ => return Ok(None),
        }
    }
    Ok(None)
}

/// Evaluates a LET binding (§8.12).
pub fn bind(cx: &mut Ctx<'_>, plan: &RecallPlan) -> Result<Bound, Diagnostic> {
    let out = run(cx, plan, 0)?;
    Ok(match out.flow {
        Flow::Rows(rows) => Bound::Rows(rows),
        Flow::Values(_, vs) => Bound::Values(vs),
        Flow::Groups(_, gs) => Bound::Rows(gs.into_iter().flat_map(|(_, r)| r).collect()),
        Flow::Count(n) => Bound::Values(vec![n.to_string()]),
    })
}

fn index_json(row: &Row) -> Option<Json> {
    let st = &row.hit.index;
    let mut m = Map::new();
    if let Some(a) = st.superseded_by {
        m.insert("superseded_by".into(), a.to_hex().into());
    }
    if let Some(t) = st.system_valid_to {
        m.insert("system_valid_to".into(), t.into());
    }
    if let Some(v) = st.verification_status.as_deref().filter(|v| *v != "unverified") {
        m.insert("verification_status".into(), v.into());
    }
    if fields::value(&row.hit, names::CONTRADICTED) == Some(Value::Bool(true)) {
        m.insert("contradicted".into(), true.into());
    }
    (!m.is_empty()).then_some(Json::Object(m))
}

/// Grains as §28.1 result entries (`grain`, `score`, `matched_fields`,
/// `content_address`), plus index state and annotations; counts them in the budget.
pub fn entries(cx: &mut Ctx<'_>, rows: &[Row], shaping: &Shaping) -> Vec<Entry> {
    rows.iter()
        .map(|r| {
            cx.stats.returned += 1;
            cx.stats.tokens += projection::tokens(&r.hit);
            let grain = match &shaping.select {
                Some(fs) => {
                    let mut m = Map::new();
                    for f in fs {
                        let v = fields::value(&r.hit, f).map_or(Json::Null, |v| fields::to_output(f, &v));
                        m.insert(f.clone(), v);
                    }
                    Json::Object(m)
                }
                None => r.hit.grain().to_json(),
            };
            Entry {
                grain,
                score: r.hit.score,
                matched_fields: r.hit.matched_fields.clone(),
                content_address: r.hit.address.to_hex(),
                index: index_json(r),
                projected: shaping.project.as_ref().map(|specs| projection::project(&r.hit, specs)),
                notes: r.notes.clone(),
            }
        })
        .collect()
}

/// The outcome of a RECALL run: its entries, values, count or groups, with the next page's
/// cursor when `cursor_ok` (a top-level RECALL) and there is one.
pub fn outcome(cx: &mut Ctx<'_>, out: RecallOut, skip: usize, cursor_ok: bool) -> Grains {
    let page = match &out.flow {
        Flow::Rows(rows) => rows.len(),
        _ => 0,
    };
    let mut g = Grains { total: out.total, ..Grains::default() };
    match out.flow {
        Flow::Rows(rows) => g.results = entries(cx, &rows, &out.shaping),
        Flow::Count(n) => g.count = Some(n),
        Flow::Values(e, vs) => {
            g.extractor = Some(e.as_str().to_lowercase());
            g.values = Some(vs);
        }
        Flow::Groups(field, groups) => {
            let gs = groups
                .into_iter()
                .map(|(key, rows)| Group { key, count: rows.len(), results: entries(cx, &rows, &out.shaping) })
                .collect();
            g.group_by = Some(field);
            g.groups = Some(gs);
        }
    }
    g.next_cursor = (cursor_ok && out.more && page > 0).then(|| envelope::cursor(&cx.query_hash, skip + page));
    g
}

/// Runs a top-level RECALL (honouring the request's cursor) and returns its response members.
pub fn body(cx: &mut Ctx<'_>, plan: &RecallPlan, top: bool) -> Result<Grains, Diagnostic> {
    let skip = match (&cx.opts.cursor, top) {
        (Some(c), true) => envelope::decode_cursor(c, &cx.query_hash)?,
        _ => 0,
    };
    let out = run(cx, plan, skip)?;
    let Some(f) = plan.recall().as_format else { return Ok(outcome(cx, out, skip, top)) };
    let rows: Vec<Row> = match &out.flow {
        Flow::Rows(rows) => rows.clone(),
        Flow::Groups(_, gs) => gs.iter().flat_map(|(_, r)| r.iter().cloned()).collect(),
        Flow::Values(..) | Flow::Count(_) => return Ok(outcome(cx, out, skip, top)),
    };
    let project = out.shaping.project.clone();
    let before = cx.stats.tokens;
    let mut g = outcome(cx, out, skip, top);
    cx.stats.tokens = before;
    let limit = plan.limit.applied.map(|l| usize::try_from(l).unwrap_or(usize::MAX));
    let with = plan.recall().with.as_ref();
    let grain_type = plan.recall().grain_type.as_ref().map(|t| t.grain_type);
    let (text, format) =
        crate::content::recall_formatted(cx, grain_type, &rows, f.format, with, limit, project.as_deref())?;
    g.formatted = Some(text);
    g.format = Some(format);
    Ok(g)
}
