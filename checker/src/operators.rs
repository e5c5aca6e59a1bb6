//! WHERE conditions: the operators each field allows (§5.2, §6.3, Appendix E:
//! `score` only `>=`/`>`, `namespace` only `=`, tags only INCLUDE/EXCLUDE,
//! `IS` only on `relation`, `IN` only where listed, BETWEEN only on temporal
//! fields), then the values (`values.rs`), IN list sizes (CAL-E011) and
//! subqueries (nesting CAL-E007, extractor CAL-E021).
//!
//! A wrong operator is CAL-E020 (an incompatible comparison), with the
//! allowed operators as valid values and, where the intent is clear, a
//! rewrite (`tags = "x"` → `tags INCLUDE ["x"]`, `confidence BETWEEN a AND b`
//! → `confidence >= a AND confidence <= b`).

use crate::context::{Amend, Checker, Output};
use crate::fields::{self, Resolved, Scope, Use};
use crate::values::{Typed, Want, check_lit, check_value};
use crate::{lets, recall, render};
use cal_grammar::fields::names;
use cal_grammar::fields::{FieldOp, ValueType};
use cal_grammar::{Code, Extractor, Span, limits};
use cal_parser::ast::{Condition, Recall, Test, Value, ValueKind};

/// Operators of a domain field outside §12.2's example list (docs/spec-decisions-grammar.md A5).
const DOMAIN_OPS: &[FieldOp] =
    &[FieldOp::Eq, FieldOp::Ne, FieldOp::Ge, FieldOp::Le, FieldOp::Gt, FieldOp::Lt, FieldOp::In];

/// The field of a condition, once resolved.
#[derive(Clone, Copy)]
struct Target<'q> {
    typed: Typed<'q>,
    ops: &'static [FieldOp],
}

/// Checks one WHERE condition of a statement with `scope`.
pub(crate) fn check_condition<'q>(cx: &mut Checker<'q>, scope: &Scope, cond: &'q Condition) {
    let t = match fields::resolve(cx, scope, &cond.field, Use::Where) {
        Resolved::Field(f) | Resolved::Alias(f) => Target { typed: Typed::field(f), ops: f.ops },
        Resolved::Domain(t) => Target { typed: t, ops: DOMAIN_OPS },
        Resolved::Extension | Resolved::Bad => {
            walk_unchecked(cx, &cond.test);
            return;
        }
    };
    match &cond.test {
        Test::Compare { op, op_span, value } => {
            let fop = FieldOp::from_comparator(*op);
            if t.ops.contains(&fop) {
                check_value(cx, value, Want::Of(t.typed));
            } else {
                compare_not_allowed(cx, &t, fop, *op_span, value);
                walk_value(cx, value);
            }
        }
        Test::InList(values) if values.is_empty() => {} // the parser's recovery placeholder
        Test::InList(values) => {
            if !allowed(cx, &t, FieldOp::In, cond, None) {
                values.iter().for_each(|v| walk_value(cx, v));
                return;
            }
            if let [v] = values.as_slice()
                && let ValueKind::Param(name) = &v.kind
                && let Some(i) = cx.let_index(name)
            {
                lets::use_in_list(cx, i, v.span, &t.typed);
                return;
            }
            if let (Some(first_extra), Some(last)) = (values.get(limits::MAX_IN_SET), values.last()) {
                cx.error(
                    Code::E011,
                    first_extra.span.cover(last.span),
                    format!(
                        "This IN list has {} values; at most {} are allowed (§17.3).",
                        values.len(),
                        limits::MAX_IN_SET
                    ),
                )
                .help("Split the list over several queries joined with UNION, or use a subquery.");
            }
            for v in values {
                match &v.kind {
                    ValueKind::Param(_) => check_value(cx, v, Want::Element(t.typed)),
                    _ => check_value(cx, v, Want::Of(t.typed)),
                }
            }
        }
        Test::InSubquery(r) => {
            let ok = allowed(cx, &t, FieldOp::In, cond, None);
            subquery(cx, r, ok.then_some(&t.typed));
        }
        Test::Between { low, high } => {
            if allowed(cx, &t, FieldOp::Between, cond, Some((low, high))) {
                check_value(cx, low, Want::Bound(t.typed));
                check_value(cx, high, Want::Bound(t.typed));
            } else {
                walk_value(cx, low);
                walk_value(cx, high);
            }
        }
        Test::Include(v) | Test::Exclude(v) => {
            let op = if matches!(cond.test, Test::Include(_)) { FieldOp::Include } else { FieldOp::Exclude };
            if allowed(cx, &t, op, cond, None) {
                check_value(cx, v, Want::Set(t.typed));
            } else {
                walk_value(cx, v);
            }
        }
        Test::IsCategory(..) => {
            allowed(cx, &t, FieldOp::Is, cond, None);
        }
    }
}

/// Records parameter uses and checks subqueries of a condition whose field did not resolve.
fn walk_unchecked<'q>(cx: &mut Checker<'q>, test: &'q Test) {
    match test {
        Test::Compare { value, .. } | Test::Include(value) | Test::Exclude(value) => walk_value(cx, value),
        Test::InList(values) => values.iter().for_each(|v| walk_value(cx, v)),
        Test::Between { low, high } => {
            walk_value(cx, low);
            walk_value(cx, high);
        }
        Test::InSubquery(r) => subquery(cx, r, None),
        Test::IsCategory(..) => {}
    }
}

/// Records the parameters inside a value whose position could not be typed.
pub(crate) fn walk_value<'q>(cx: &mut Checker<'q>, v: &'q Value) {
    match &v.kind {
        ValueKind::Param(name) if cx.let_index(name).is_none() => {
            check_lit(cx, &crate::lit::Lit::Param(name), v.span, Want::Any, None);
        }
        ValueKind::Array(items) => items.iter().for_each(|i| walk_value(cx, i)),
        _ => {}
    }
}

/// True when `t` allows `op`; otherwise reports CAL-E020 on the condition.
fn allowed<'q>(
    cx: &mut Checker<'q>,
    t: &Target<'q>,
    op: FieldOp,
    cond: &'q Condition,
    between: Option<(&Value, &Value)>,
) -> bool {
    if t.ops.contains(&op) {
        return true;
    }
    let name = t.typed.name;
    let valid: Vec<&str> = t.ops.iter().map(|o| o.as_str()).collect();
    let (span, message) = match op {
        FieldOp::Is => (cond.field.span, format!("`{name}` does not take IS; only `relation IS <category>` does.")),
        _ => (cond.span, format!("`{name}` does not take {}; it takes {}.", op.as_str(), render::or_list(&valid))),
    };
    let d = cx.error(Code::E020, span, message);
    d.valid(valid.iter().copied());
    match op {
        FieldOp::Is => {
            d.help("Relation categories apply to `relation`: `relation IS PREFERENCE`.").fix(names::RELATION);
        }
        FieldOp::In => {
            d.help(format!("`{name}` matches one value at a time; join several queries with UNION to match more."));
        }
        FieldOp::Between => match between {
            Some((low, high)) if t.ops.contains(&FieldOp::Ge) && t.ops.contains(&FieldOp::Le) => {
                let fix = format!("{name} >= {} AND {name} <= {}", render::value(low), render::value(high));
                d.help(format!("BETWEEN is for times; write `{fix}`.")).fix(fix);
            }
            _ => {
                d.help("BETWEEN applies to time fields (`time`, `deadline`, `expires_at`).");
            }
        },
        FieldOp::Include | FieldOp::Exclude => {
            d.help("INCLUDE and EXCLUDE apply to array fields (`tags`, `participating_observers`).");
            if op == FieldOp::Include
                && t.ops.contains(&FieldOp::In)
                && let Test::Include(v) = &cond.test
                && let ValueKind::Array(items) = &v.kind
                && !items.is_empty()
            {
                let list: Vec<String> = items.iter().map(render::value).collect();
                d.fix(format!("{name} IN ({})", list.join(", ")));
            }
        }
        _ => {}
    }
    false
}

/// A comparator the field does not allow (CAL-E020 on the operator).
fn compare_not_allowed(cx: &mut Checker<'_>, t: &Target<'_>, op: FieldOp, op_span: Span, value: &Value) {
    let name = t.typed.name;
    let valid: Vec<&str> = t.ops.iter().map(|o| o.as_str()).collect();
    let array_field = t.typed.ty == ValueType::Array && !t.typed.domain;
    if array_field && matches!(op, FieldOp::Eq | FieldOp::Ne) && t.ops.contains(&FieldOp::Include) {
        let set_op = if op == FieldOp::Eq || !t.ops.contains(&FieldOp::Exclude) { "INCLUDE" } else { "EXCLUDE" };
        let array = match &value.kind {
            ValueKind::Array(_) => render::value(value),
            ValueKind::String(_) | ValueKind::Param(_) => format!("[{}]", render::value(value)),
            _ => String::new(),
        };
        let d = cx.error(
            Code::E020,
            op_span.cover(value.span),
            format!(
                "`{name}` is a set of values: test it with {} rather than `{}`.",
                render::or_list(&valid),
                op.as_str()
            ),
        );
        d.valid(valid.iter().copied());
        if !array.is_empty() {
            let fix = format!("{set_op} {array}");
            d.help(format!("Write `{name} {fix}`.")).fix(fix);
        }
        return;
    }
    let d = cx.error(
        Code::E020,
        op_span,
        format!("`{name}` does not take `{}`; it takes {}.", op.as_str(), render::or_list(&valid)),
    );
    d.valid(valid.iter().copied());
    match t.typed.ty {
        ValueType::Temporal if !t.typed.domain => {
            d.help(format!("For a range of times write `{name} BETWEEN <from> AND <to>`."));
        }
        _ if name == names::SCORE => {
            d.help("`score` is a minimum relevance: use `score >= x` or `score > x`.");
        }
        _ if valid == ["="] => {
            d.help(format!("`{name}` is only compared with `=`.")).fix("=");
        }
        _ => {
            d.help(format!("Use {}.", render::or_list(&valid)));
        }
    }
}

/// `field IN (RECALL … | EXTRACTOR)`: nesting (CAL-E007) and the extractor (CAL-E021).
fn subquery<'q>(cx: &mut Checker<'q>, r: &'q Recall, field: Option<&Typed<'q>>) {
    let level = cx.depth + 1;
    if level == limits::MAX_SUBQUERY_DEPTH + 1 {
        cx.error(
            Code::E007,
            r.span,
            format!(
                "This subquery is nested {level} levels deep; at most {} are allowed (§17.3).",
                limits::MAX_SUBQUERY_DEPTH
            ),
        )
        .help("Flatten the query: bind an inner result with LET and use `field IN ($name)`.");
    }
    cx.depth = level;
    let out = recall::check_recall(cx, r, recall::Site::Subquery);
    cx.depth = level - 1;
    if let Some(t) = field {
        extractor_fits(cx, t, out, r);
    }
}

/// The extractor a field's IN list needs: content addresses for `depends_on`, strings otherwise.
pub(crate) fn wanted_extractors(field: &Typed<'_>) -> &'static [Extractor] {
    if field.name == names::DEPENDS_ON { &[Extractor::Hashes] } else { &[Extractor::Subjects, Extractor::Objects] }
}

fn extractor_fits(cx: &mut Checker<'_>, t: &Typed<'_>, out: Output, r: &Recall) {
    let wanted = wanted_extractors(t);
    if let Output::Values(ex) = out
        && wanted.contains(&ex)
    {
        return;
    }
    let names: Vec<String> = wanted.iter().map(|e| format!("| {}", e.as_str())).collect();
    let (span, fix) = match r.pipeline.last() {
        Some(stage) if matches!(out, Output::Values(_)) => (stage.span, None),
        _ => {
            let fix = match t.name {
                names::SUBJECT => Some(" | SUBJECTS"),
                names::OBJECT => Some(" | OBJECTS"),
                names::DEPENDS_ON => Some(" | HASHES"),
                _ => None,
            };
            (Span::empty(r.span.end as usize), fix)
        }
    };
    let d = cx.error(
        Code::E021,
        span,
        format!(
            "A subquery in `{} IN (…)` must end with {}; this one returns {}.",
            t.name,
            render::or_list(&names),
            out.describe()
        ),
    );
    d.help(format!("End the subquery with {} so that it yields values to compare.", render::or_list(&names)));
    d.valid(wanted.iter().map(|e| e.as_str()));
    if let Some(f) = fix {
        d.fix(f);
    }
}

/// Whether a field's values are of the kind an extractor yields (used by LET references).
pub(crate) fn extractor_matches(field: &Typed<'_>, ex: Extractor) -> bool {
    wanted_extractors(field).contains(&ex)
}
