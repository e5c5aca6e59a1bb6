//! Turning a desugared RECALL's conditions into store filters (OMS §28.4
//! `query`/`search`, answered from indexes) and post-filters (conditions the
//! store cannot express: computed fields, arrays, semantic fields, `score`).
//!
//! Both paths implement the same semantics, including NULL semantics (§5.4):
//! a condition on a field the grain does not have never matches, `!=`
//! included. Which path a condition takes depends only on the condition, so a
//! shortcut and its desugared form always take the same one.

use cal_grammar::fields::names;
use std::collections::HashSet;

use cal_grammar::{Code, Diagnostic, Span, hash};
use cal_parser::ast::{Comparator, Condition, Recall, Test, ValueKind};
use cal_planner::{ViewPlan, conditions_text, is_semantic};
use oms::store::{CmpOp, Filter, View};
use oms::{ContentAddress, Value};

use crate::context::{Bound, Ctx};
use crate::fields;
use crate::timeexpr::{self, Interval};
use crate::values::{self, Lit};

/// Hash prefixes resolve to at most this many grains (§3.4 allows 8 hex digits).
const MAX_PREFIX_MATCHES: usize = 1000;

/// A test evaluated in memory on a field's value.
#[derive(Debug, Clone, PartialEq)]
pub enum RtTest {
    /// `field op value`.
    Cmp(Comparator, Lit),
    /// `field IN (…)`.
    In(Vec<Lit>),
    /// `field BETWEEN a AND b` on numbers (inclusive).
    Between(f64, f64),
    /// A time field against an interval: `=` inside, `!=` outside, `>=` at or after its start, …
    Time(Comparator, Interval),
    /// `INCLUDE [..]`: the array holds every value.
    Include(Vec<Lit>),
    /// `EXCLUDE [..]`: the array holds none of them (a missing array holds none).
    Exclude(Vec<Lit>),
}

/// A condition applied after retrieval.
#[derive(Debug, Clone, PartialEq)]
pub enum Post {
    /// A field test.
    Field {
        /// The CAL field.
        field: String,
        /// The test.
        test: RtTest,
    },
    /// `content = "…"` (and other semantic fields): the field's text shares a search term.
    Semantic {
        /// The CAL field.
        field: String,
        /// Search terms of the condition.
        terms: HashSet<String>,
    },
    /// Superseded versions are not visible ([`ViewPlan::NotSuperseded`]).
    NotSuperseded,
    /// `IN SCOPE "s"`: the namespace is `s` or below it (`s:…`, OMS §28.2).
    NamespaceScope(String),
}

/// The store side and the memory side of a RECALL's conditions.
#[derive(Debug, Default)]
pub struct Compiled {
    /// Store filters, ANDed.
    pub filters: Vec<Filter>,
    /// Search text (`query =`, semantic fields): the RECALL is a `search`.
    pub text: Option<String>,
    /// Post-filters, ANDed.
    pub posts: Vec<Post>,
    /// The store's temporal view.
    pub view: View,
    /// A condition can match nothing (a hash prefix of no grain): skip the store.
    pub impossible: bool,
    /// The conditions as text, for `WITH explanation`.
    pub described: Vec<String>,
}

fn cmp_op(op: Comparator) -> CmpOp {
    match op {
        Comparator::Eq => CmpOp::Eq,
        Comparator::Ne => CmpOp::Ne,
        Comparator::Ge => CmpOp::Ge,
        Comparator::Le => CmpOp::Le,
        Comparator::Gt => CmpOp::Gt,
        Comparator::Lt => CmpOp::Lt,
    }
}

/// The time interval a literal denotes.
pub fn interval(cx: &Ctx<'_>, lit: &Lit, span: Span) -> Result<Interval, Diagnostic> {
    match lit {
        Lit::Str(s) => timeexpr::resolve_text(s, cx.opts.now_ms).ok_or_else(|| timeexpr::unknown(s, span)),
        Lit::Int(_) | Lit::Float(_) => Ok(timeexpr::resolve_number(lit.as_f64().unwrap_or(0.0))),
        other => Err(Diagnostic::new(Code::E020, span, format!("{other:?} is not a time."))
            .with_suggestion(format!("Write one of {}.", timeexpr::ACCEPTED))),
    }
}

fn list(lit: Lit) -> Vec<Lit> {
    match lit {
        Lit::Array(items) => items,
        other => vec![other],
    }
}

/// The values of `IN ($let)` for `field`: extracted values as they are, or
/// the field's values on the bound grains (docs/spec-decisions-interp.md, L2).
pub fn let_values(bound: &Bound, field: &str) -> Vec<Lit> {
    match bound {
        Bound::Values(vs) => vs
            .iter()
            .map(|v| values::from_json(&serde_json::Value::String(v.clone())).unwrap_or(Lit::Str(v.clone())))
            .collect(),
        Bound::Rows(rows) => rows
            .iter()
            .filter_map(|r| fields::value(&r.hit, field))
            .map(|v| match (field, v) {
                (names::HASH, Value::Str(h)) => Lit::Hash(h),
                (_, Value::Str(s)) => Lit::Str(s),
                (_, Value::Bool(b)) => Lit::Bool(b),
                (_, Value::Int(i)) => i64::try_from(i).map_or(Lit::Float(i as f64), Lit::Int),
                (_, Value::Float(f)) => Lit::Float(f),
                (_, other) => Lit::Str(fields::to_text(&other)),
            })
            .collect(),
    }
}

fn is_full(h: &str) -> bool {
    h.len() == 64
}

impl Compiled {
    fn post(&mut self, field: &str, test: RtTest) {
        self.posts.push(Post::Field { field: field.to_string(), test });
    }

    /// `hash = sha256:…` / `hash IN (…)`: exact addresses go to the store; prefixes are resolved first.
    fn hashes(&mut self, cx: &mut Ctx<'_>, lits: &[Lit], span: Span) -> Result<(), Diagnostic> {
        let mut addrs: Vec<ContentAddress> = Vec::new();
        for l in lits {
            let Some(h) = l.as_str() else {
                return Err(Diagnostic::new(Code::E020, span, "hash takes sha256: content addresses.")
                    .with_suggestion("Write `hash = sha256:…` with 8 to 64 hex digits."));
            };
            // Only what a hash literal may hold names an address (`cal_grammar::hash`): the
            // checker reports anything else, and so does a query run without it.
            let h = h.strip_prefix(hash::HASH_PREFIX).unwrap_or(h);
            if let Err(problem) = hash::check_hex(h) {
                return Err(Diagnostic::new(
                    Code::E015,
                    span,
                    format!("\"{}\" is not a content address: {}.", l.as_str().unwrap_or(h), problem.describe(h)),
                )
                .with_suggestion("Write `hash = sha256:…` with 8 to 64 lower-case hex digits."));
            }
            if is_full(h) {
                if let Ok(a) = ContentAddress::parse(h) {
                    addrs.push(a);
                }
            } else {
                addrs.extend(cx.facade.resolve_prefix(h, MAX_PREFIX_MATCHES));
            }
        }
        addrs.sort_unstable();
        addrs.dedup();
        match addrs.as_slice() {
            [] => self.impossible = true,
            [one] => self.filters.push(Filter::Address(*one)),
            many => self.filters.push(Filter::In {
                field: names::HASH.into(),
                values: many.iter().map(|a| Value::Str(a.to_hex())).collect(),
            }),
        }
        Ok(())
    }

    fn condition(&mut self, cx: &mut Ctx<'_>, c: &Condition, sub: Option<Vec<Lit>>) -> Result<(), Diagnostic> {
        let field = c.field.name.as_str();
        if field == names::NAMESPACE && cx.config.namespace.is_some() {
            cx.stats.note(format!(
                "`namespace` condition overwritten by the token's namespace {:?} (§2.3)",
                cx.config.namespace.as_deref().unwrap_or_default()
            ));
            return Ok(());
        }
        if is_semantic(c) {
            let Test::Compare { value, .. } = &c.test else { return Ok(()) };
            let text = values::resolve(cx, value)?.as_str().map(str::to_string).ok_or_else(|| {
                Diagnostic::new(Code::E020, value.span, format!("`{field}` searches text; give it a string."))
            })?;
            let t = self.text.get_or_insert_with(String::new);
            if !t.is_empty() {
                t.push(' ');
            }
            t.push_str(&text);
            if field != names::QUERY {
                let terms = oms::store::search::tokenize(&text).into_iter().collect();
                self.posts.push(Post::Semantic { field: field.to_string(), terms });
            }
            return Ok(());
        }
        match &c.test {
            Test::Compare { op, value, .. } => {
                let lit = values::resolve(cx, value)?;
                self.compare(cx, field, *op, lit, value.span)
            }
            Test::InList(items) => {
                let mut lits = Vec::new();
                for v in items {
                    match &v.kind {
                        ValueKind::Param(name) if cx.lets.contains_key(name.as_str()) => {
                            lits.extend(let_values(&cx.lets[name.as_str()], field));
                        }
                        _ => lits.extend(list(values::resolve(cx, v)?)),
                    }
                }
                self.in_list(cx, field, lits, c.span)
            }
            Test::InSubquery(_) => self.in_list(cx, field, sub.unwrap_or_default(), c.span),
            Test::Between { low, high } => {
                let (lo, hi) = (values::resolve(cx, low)?, values::resolve(cx, high)?);
                if fields::is_temporal(field) {
                    let (a, b) = (interval(cx, &lo, low.span)?, interval(cx, &hi, high.span)?);
                    let iv = Interval { from: a.from, to: b.to.max(a.from) };
                    if field == names::TIME {
                        self.filters.push(Filter::CreatedBetween { from: Some(iv.from), to: Some(iv.to) });
                    } else {
                        self.post(field, RtTest::Time(Comparator::Eq, iv));
                    }
                } else {
                    let (Some(a), Some(b)) = (lo.as_f64(), hi.as_f64()) else {
                        return Err(Diagnostic::new(
                            Code::E020,
                            c.span,
                            format!("BETWEEN on `{field}` needs two numbers."),
                        ));
                    };
                    self.post(field, RtTest::Between(a, b));
                }
                Ok(())
            }
            Test::Include(v) | Test::Exclude(v) => {
                let lits = list(values::resolve(cx, v)?);
                let include = matches!(c.test, Test::Include(_));
                if field == names::TAGS && lits.iter().all(|l| matches!(l, Lit::Str(_))) {
                    let tags = lits.iter().filter_map(|l| l.as_str().map(str::to_string)).collect();
                    self.filters.push(if include { Filter::TagsInclude(tags) } else { Filter::TagsExclude(tags) });
                } else {
                    self.post(field, if include { RtTest::Include(lits) } else { RtTest::Exclude(lits) });
                }
                Ok(())
            }
            Test::IsCategory(..) => {
                Err(crate::context::bug(c.span, "a relation category reached the interpreter undesugared"))
            }
        }
    }

    fn compare(
        &mut self,
        cx: &mut Ctx<'_>,
        field: &str,
        op: Comparator,
        lit: Lit,
        span: Span,
    ) -> Result<(), Diagnostic> {
        if field == names::HASH && op == Comparator::Eq {
            return self.hashes(cx, &[lit], span);
        }
        if field == names::TYPE && op == Comparator::Eq {
            let t = lit.as_str().and_then(oms::GrainType::from_name);
            match t {
                Some(t) => self.filters.push(Filter::Type(t)),
                None => self.impossible = true,
            }
            return Ok(());
        }
        if fields::is_temporal(field) {
            let iv = interval(cx, &lit, span)?;
            if field == names::TIME && op == Comparator::Eq {
                self.filters.push(Filter::CreatedBetween { from: Some(iv.from), to: Some(iv.to) });
            } else {
                self.post(field, RtTest::Time(op, iv));
            }
            return Ok(());
        }
        let storable = match &lit {
            Lit::Str(_) | Lit::Bool(_) => true,
            Lit::Int(_) | Lit::Float(_) => true,
            Lit::Hash(_) | Lit::Array(_) => false,
        };
        match fields::direct(field) {
            Some(name) if storable => {
                self.filters.push(Filter::Cmp { field: name.to_string(), op: cmp_op(op), value: lit.to_store() });
            }
            _ => self.post(field, RtTest::Cmp(op, lit)),
        }
        Ok(())
    }

    fn in_list(&mut self, cx: &mut Ctx<'_>, field: &str, lits: Vec<Lit>, span: Span) -> Result<(), Diagnostic> {
        if field == names::HASH {
            return self.hashes(cx, &lits, span);
        }
        let scalar = lits.iter().all(|l| matches!(l, Lit::Str(_) | Lit::Int(_) | Lit::Float(_) | Lit::Bool(_)));
        match fields::direct(field) {
            Some(name) if scalar && !fields::is_temporal(field) => {
                self.filters
                    .push(Filter::In { field: name.to_string(), values: lits.iter().map(Lit::to_store).collect() });
            }
            _ => self.post(field, RtTest::In(lits)),
        }
        Ok(())
    }
}

/// Compiles a desugared RECALL. `subqueries` holds the extracted values of its
/// `IN (RECALL …)` conditions in order; `extra` are conditions added at run
/// time (THREAD FROM's session).
pub fn compile(
    cx: &mut Ctx<'_>,
    r: &Recall,
    view: ViewPlan,
    subqueries: &[Vec<Lit>],
    extra: &[Condition],
) -> Result<Compiled, Diagnostic> {
    let mut out = Compiled {
        view: match view {
            ViewPlan::Current => View::Current,
            ViewPlan::NotSuperseded | ViewPlan::All => View::All,
        },
        ..Compiled::default()
    };
    if view == ViewPlan::NotSuperseded {
        out.posts.push(Post::NotSuperseded);
    }
    if let Some(g) = r.grain_type
        && let Ok(t) = oms::GrainType::from_byte(g.grain_type.oms_code())
    {
        out.filters.push(Filter::Type(t));
    }
    match (&cx.config.namespace, &r.scope) {
        (Some(ns), scope) => {
            if scope.is_some() {
                cx.stats.note(format!("IN clause overwritten by the token's namespace {ns:?} (§2.3)"));
            }
            out.filters.push(Filter::Cmp {
                field: names::NAMESPACE.into(),
                op: CmpOp::Eq,
                value: Value::Str(ns.clone()),
            });
        }
        (None, Some(s)) if s.is_scope => out.posts.push(Post::NamespaceScope(s.value.value.to_string())),
        (None, Some(s)) => {
            out.filters.push(Filter::Cmp {
                field: names::NAMESPACE.into(),
                op: CmpOp::Eq,
                value: Value::Str(s.value.value.to_string()),
            });
        }
        (None, None) => {}
    }
    let mut subs = subqueries.iter();
    let conditions = extra.iter().chain(r.where_clause.iter().flat_map(|w| w.conditions.iter()));
    for c in conditions {
        cx.deadline.check()?;
        let sub = matches!(c.test, Test::InSubquery(_)).then(|| subs.next().cloned().unwrap_or_default());
        out.condition(cx, c, sub)?;
        out.described.push(conditions_text(std::slice::from_ref(c)));
    }
    Ok(out)
}
