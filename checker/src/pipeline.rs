//! Pipelines (§4 `pipeline`, §17.3, Appendix E): at most five stages
//! (CAL-E012); COUNT, FIRST and the extractors end a pipeline, so a stage
//! after them is a type mismatch (CAL-E021); after SELECT only the selected
//! fields can be sorted or grouped (CAL-E021); SUBJECTS/OBJECTS need belief
//! input (CAL-E022); ORDER BY, GROUP BY, SELECT and PROJECT take sortable,
//! groupable and projectable fields (CAL-E021 via `fields.rs`); LIMIT is
//! 1 to 1000 (CAL-E010).

use crate::context::{Amend, Checker, Output};
use crate::fields::{self, Resolved, Scope, Use};
use crate::values::{Want, check_limit};
use cal_grammar::{Code, Extractor, GrainType, Span, limits};
use cal_parser::ast::{FieldRef, IntOrParam, Recall, StageKind};

/// Checks the pipeline of `r` and returns what the RECALL yields.
pub(crate) fn check<'q>(cx: &mut Checker<'q>, scope: &Scope, r: &'q Recall) -> Output {
    let stages = &r.pipeline;
    if let (Some(extra), Some(last)) = (stages.get(limits::MAX_PIPELINE_STAGES), stages.last()) {
        cx.error(
            Code::E012,
            extra.span.cover(last.span),
            format!(
                "This pipeline has {} stages; at most {} are allowed (§17.3).",
                stages.len(),
                limits::MAX_PIPELINE_STAGES
            ),
        )
        .help(
            "Remove stages: one LIMIT and one ORDER BY are enough; RECENT n replaces `ORDER BY time DESC | LIMIT n`.",
        );
    }
    let mut out = Output::Grains;
    let mut terminal: Option<(&'static str, Span)> = None;
    let mut reported_after_terminal = false;
    let mut selected: Option<(&'q [FieldRef], Span)> = None;
    for s in stages {
        if let Some((name, tspan)) = terminal {
            if !reported_after_terminal {
                reported_after_terminal = true;
                cx.error(
                    Code::E021,
                    s.span,
                    format!("Nothing can follow {name}: after it the pipeline holds {}, not grains.", out.describe()),
                )
                .help(format!("Move this stage before {name}, or remove it."))
                .note(tspan, format!("{name} ends the pipeline here"));
            }
            continue;
        }
        match &s.kind {
            StageKind::Select(list) => {
                for f in list {
                    fields::resolve(cx, scope, f, Use::Select);
                }
                selected = Some((list, s.span));
                out = Output::Rows;
            }
            StageKind::OrderBy { field, .. } => {
                if resolved(cx, scope, field, Use::Sort) {
                    after_select(cx, selected, field, "ORDER BY");
                }
            }
            StageKind::GroupBy(field) => {
                if resolved(cx, scope, field, Use::Group) {
                    after_select(cx, selected, field, "GROUP BY");
                }
                out = Output::Groups;
            }
            StageKind::Project(specs) => {
                for spec in specs {
                    for f in &spec.fields {
                        fields::resolve(cx, scope, f, Use::Project);
                    }
                }
            }
            StageKind::Limit(IntOrParam::Int(n)) => check_limit(cx, n.value, n.span, "LIMIT"),
            StageKind::Limit(IntOrParam::Param(name, span)) => crate::params::use_param(cx, name, *span, Want::Limit),
            StageKind::Offset(IntOrParam::Param(name, span)) => crate::params::use_param(cx, name, *span, Want::Offset),
            StageKind::Offset(IntOrParam::Int(_)) => {}
            StageKind::Count => {
                out = Output::Number;
                terminal = Some(("COUNT", s.span));
            }
            StageKind::First => {
                out = Output::One;
                terminal = Some(("FIRST", s.span));
            }
            StageKind::Extract(ex) => {
                if matches!(ex, Extractor::Subjects | Extractor::Objects)
                    && let Some(g) = scope.grain
                    && g.grain_type != GrainType::Belief
                {
                    cx.error(
                        Code::E022,
                        s.span,
                        format!("{} needs belief input; this RECALL reads {}.", ex.as_str(), g.grain_type.plural()),
                    )
                    .help("Extract subjects and objects from `RECALL beliefs`, or use HASHES for content addresses.")
                    .note(g.span, format!("{} declared here", g.grain_type.plural()));
                }
                out = Output::Values(*ex);
                terminal = Some((ex.as_str(), s.span));
            }
        }
    }
    out
}

fn resolved<'q>(cx: &mut Checker<'q>, scope: &Scope, field: &'q FieldRef, use_: Use) -> bool {
    !matches!(fields::resolve(cx, scope, field, use_), Resolved::Bad)
}

/// After `SELECT a, b`, only `a` and `b` remain to sort or group by.
#[inline]
fn after_select(cx: &mut Checker<'_>, selected: Option<(&[FieldRef], Span)>, field: &FieldRef, clause: &str) {
    if let Some((list, span)) = selected
        && !list.iter().any(|f| f.name == field.name)
    {
        not_selected(cx, list, span, field, clause);
    }
}

#[cold]
#[inline(never)]
fn not_selected(cx: &mut Checker<'_>, list: &[FieldRef], span: Span, field: &FieldRef, clause: &str) {
    let names: Vec<&str> = list.iter().map(|f| f.name.as_str()).collect();
    cx.error(
        Code::E021,
        field.span,
        format!("`{}` is not among the selected fields, so {clause} cannot use it after SELECT.", field.name),
    )
    .help(format!("Add `{}` to SELECT, or put {clause} before SELECT.", field.name))
    .note(span, "fields selected here")
    .valid(names);
}
