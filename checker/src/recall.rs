//! RECALL (§8.1): puts the rule families together for one statement — the
//! shortcuts, each WHERE condition, the BETWEEN and THREAD shortcuts, WITH
//! options, the pipeline and RECENT — and checks that what it returns fits
//! where it is used (CAL-E021).

use crate::context::{Amend, Checker, Output};
use crate::fields::{Profiles, Scope};
use crate::values::{Typed, Want, check_limit, check_value};
use crate::{operators, pipeline, shortcuts, with};
use cal_grammar::Span;
use cal_grammar::fields::names;
use cal_grammar::{Code, fields};
use cal_parser::ast::{Recall, TargetKind, Test, ThreadKind, ValueKind};

/// Where a RECALL's result goes, which decides what it must return.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Site {
    /// The statement of a query, a BATCH entry or an EXPLAIN: anything.
    Top,
    /// A LET binding: anything; each use checks the result.
    Let,
    /// `field IN (RECALL …)`: checked by the condition.
    Subquery,
    /// An ASSEMBLE source: grains.
    Source,
    /// An operand of UNION / INTERSECT / EXCEPT: grains.
    SetOperand,
    /// A COALESCE branch: grains.
    Coalesce,
}

impl Site {
    fn needs_grains(self) -> Option<&'static str> {
        match self {
            Site::Source => Some("An ASSEMBLE source"),
            Site::SetOperand => Some("An operand of a set operation"),
            Site::Coalesce => Some("A COALESCE branch"),
            Site::Top | Site::Let | Site::Subquery => None,
        }
    }
}

/// Checks a RECALL and returns what it yields.
pub(crate) fn check_recall<'q>(cx: &mut Checker<'q>, r: &'q Recall, site: Site) -> Output {
    // `RECALL` is six letters whatever its case; after `MY` when that is written.
    let slot = r.my.map_or(r.span.start as usize + "RECALL".len(), |m| m.end as usize);
    let grain_slot = r.grain_type.is_none().then(|| Span::empty(slot));
    let scope = Scope { grain: r.grain_type, profiles: profiles(cx, r), grain_slot };
    shortcuts::check(cx, r);
    if let Some(w) = &r.where_clause {
        for c in &w.conditions {
            operators::check_condition(cx, &scope, c);
        }
    }
    if let Some(b) = &r.between
        && let Some(time) = fields::common_field(names::TIME)
    {
        check_value(cx, &b.low, Want::Bound(Typed::field(time)));
        check_value(cx, &b.high, Want::Bound(Typed::field(time)));
    }
    if let Some(t) = &r.thread
        && let ThreadKind::From(target) = &t.kind
        && let TargetKind::Param(name) = &target.kind
    {
        crate::params::use_param(cx, name, target.span, Want::Hash);
    }
    if let Some(w) = &r.with {
        with::check_options(cx, &scope, &w.options);
    }
    let out = pipeline::check(cx, &scope, r);
    if let Some(n) = r.recent {
        check_limit(cx, n.value, n.span, "RECENT");
    }
    if let Some(what) = site.needs_grains()
        && !out.is_grains()
    {
        let span = r.pipeline.last().map_or(r.span, |s| s.span);
        cx.error(Code::E021, span, format!("{what} must return grains; this RECALL returns {}.", out.describe()))
            .help("Remove the COUNT or SUBJECTS/OBJECTS/HASHES stage.");
    }
    out
}

/// The `profile:` tags a RECALL selects with `tags INCLUDE [...]` (§12.1).
fn profiles(cx: &Checker<'_>, r: &Recall) -> Profiles {
    let mut tags = Vec::new();
    let Some(w) = &r.where_clause else { return Profiles::Known(tags) };
    for c in &w.conditions {
        let Test::Include(v) = &c.test else { continue };
        if c.field.name != names::TAGS {
            continue;
        }
        match &v.kind {
            ValueKind::Array(items) => {
                for i in items {
                    match &i.kind {
                        ValueKind::String(s) => tags.push(s.to_string()),
                        ValueKind::Param(p) => match cx.params.and_then(|ps| ps.get(p)) {
                            Some(serde_json::Value::String(s)) => tags.push(s.clone()),
                            _ => return Profiles::Unknown,
                        },
                        _ => {}
                    }
                }
            }
            ValueKind::Param(p) => match cx.params.and_then(|ps| ps.get(p)) {
                Some(serde_json::Value::Array(items)) => {
                    tags.extend(items.iter().filter_map(|i| i.as_str().map(str::to_string)));
                }
                _ => return Profiles::Unknown,
            },
            _ => {}
        }
    }
    Profiles::Known(tags)
}
