//! Building the plan of a query: one function per statement family, each
//! returning its node and its store-operation bounds (§13).

use cal_grammar::fields::names;
use cal_grammar::limits::{self, DEFAULT_BUDGET_TOKENS, DEFAULT_LIMIT, MAX_HISTORY_VERSIONS, MAX_LIMIT};
use cal_parser::ast::{
    Add, Assemble, BudgetUnit, Comparator, Condition, HistoryKind, IntLit, IntOrParam, Query, QueryBody, Recall,
    Revert, SourceBody, Stage, StageKind, Statement, Supersede, Target, TargetKind, Test, ValueKind, WithKind,
};
use cal_parser::print::statement_to_text;
use serde_json::Value as Json;

use crate::desugar::{desugar_recall, stages_text};
use crate::plan::{
    AssemblePlan, EvolveKind, EvolvePlan, HistoryPlan, LetPlan, LimitPlan, LimitSource, Node, OpBounds, Operation,
    Output, Plan, PlanStage, RecallPlan, SourcePlan, TargetPlan, ViewPlan, WorkBound, rows_of,
};

/// What the planner may know beyond the query.
#[derive(Debug, Clone, Default)]
pub struct PlanOptions {
    /// Parameter bindings, to show `LIMIT $n` with its value.
    pub params: serde_json::Map<String, Json>,
    /// Number of grains in the store, to turn the work bound into a number.
    pub store_size: Option<u64>,
}

/// Fields whose `=` is a text search rather than an equality (grammar's table).
pub const SEMANTIC_FIELDS: &[&str] = names::SEMANTIC;

/// Whether a condition makes its RECALL a text search.
pub fn is_semantic(c: &Condition) -> bool {
    SEMANTIC_FIELDS.contains(&c.field.name.as_str()) && matches!(c.test, Test::Compare { op: Comparator::Eq, .. })
}

fn view_of(r: &Recall) -> ViewPlan {
    let superseded = r.with.as_ref().is_some_and(|w| w.options.iter().any(|o| matches!(o.kind, WithKind::Superseded)));
    if superseded {
        return ViewPlan::All;
    }
    let contradicted = r.where_clause.as_ref().is_some_and(|w| {
        w.conditions.iter().any(|c| {
            c.field.name == names::CONTRADICTED
                && matches!(&c.test, Test::Compare { op: Comparator::Eq, value, .. } if value.kind == ValueKind::Bool(true))
        })
    });
    if contradicted { ViewPlan::NotSuperseded } else { ViewPlan::Current }
}

fn operation_of(r: &Recall) -> Operation {
    let search = r.where_clause.as_ref().is_some_and(|w| w.conditions.iter().any(is_semantic));
    if search { Operation::Search } else { Operation::Query }
}

/// The value of `LIMIT n` / `LIMIT $p` when known.
pub fn int_value(v: &IntOrParam, params: &serde_json::Map<String, Json>) -> Option<u64> {
    match v {
        IntOrParam::Int(i) => Some(i.value),
        IntOrParam::Param(name, _) => params.get(name.as_str()).and_then(Json::as_u64),
    }
}

/// Inserts the default `LIMIT 20` (§17.3) where no LIMIT, FIRST or COUNT
/// bounds the grains: before the first extractor or GROUP BY, else at the end.
fn effective_stages(pipeline: &[Stage]) -> Vec<PlanStage> {
    let mut out: Vec<PlanStage> =
        pipeline.iter().map(|s| PlanStage { kind: s.kind.clone(), implicit: false }).collect();
    let bounded = pipeline.iter().any(|s| matches!(s.kind, StageKind::Limit(_) | StageKind::First | StageKind::Count));
    if !bounded {
        let at = pipeline
            .iter()
            .position(|s| matches!(s.kind, StageKind::Extract(_) | StageKind::GroupBy(_)))
            .unwrap_or(pipeline.len());
        let limit = IntOrParam::Int(IntLit { value: DEFAULT_LIMIT as u64, span: Default::default() });
        out.insert(at, PlanStage { kind: StageKind::Limit(limit), implicit: true });
    }
    out
}

fn limit_of(stages: &[PlanStage], recent: bool, params: &serde_json::Map<String, Json>) -> LimitPlan {
    let mut applied: Option<u64> = None;
    let mut source = LimitSource::Count;
    let mut param = None;
    let mut reshaped = false;
    let mut seen_any = false;
    for s in stages {
        let (value, src) = match &s.kind {
            StageKind::Limit(v) => {
                if let IntOrParam::Param(name, _) = v
                    && !params.contains_key(name.as_str())
                {
                    param = Some(name.to_string());
                }
                let src = if s.implicit {
                    LimitSource::Default
                } else if reshaped {
                    LimitSource::AfterReshape
                } else if recent {
                    LimitSource::Recent
                } else {
                    LimitSource::Explicit
                };
                (int_value(v, params), src)
            }
            StageKind::First => (Some(1), LimitSource::First),
            StageKind::Extract(_) | StageKind::GroupBy(_) | StageKind::Count => {
                reshaped = true;
                continue;
            }
            _ => continue,
        };
        if !seen_any || value.is_some_and(|v| applied.is_none_or(|a| v < a)) {
            source = src;
        }
        seen_any = true;
        applied = match (applied, value) {
            (Some(a), Some(v)) => Some(a.min(v)),
            (None, v) => v,
            (a, None) => a,
        };
    }
    LimitPlan { applied, source, param }
}

fn output_of(stages: &[PlanStage]) -> Output {
    let mut out = Output::Grains;
    for s in stages {
        match &s.kind {
            StageKind::Count => out = Output::Count,
            StageKind::Extract(e) => out = Output::Values(*e),
            StageKind::GroupBy(f) => out = Output::Groups(f.name.to_string()),
            StageKind::Select(fields) => out = Output::Fields(fields.iter().map(|f| f.name.to_string()).collect()),
            _ => {}
        }
    }
    out
}

/// Plans one RECALL: desugars it, picks the store operation and view, inserts
/// the default limit, and plans its subqueries.
pub fn plan_recall(r: &Recall, opts: &PlanOptions) -> RecallPlan {
    let written = statement_to_text(&Statement::Recall(Box::new(r.clone())));
    let desugared = desugar_recall(r);
    let d = &desugared.recall;
    let desugared_text = statement_to_text(&Statement::Recall(Box::new(d.clone())));
    let stages = effective_stages(&d.pipeline);
    let explicit_limit = r.pipeline.iter().any(|s| matches!(s.kind, StageKind::Limit(_)));
    let limit = limit_of(&stages, r.recent.is_some() && !explicit_limit, &opts.params);
    let output = output_of(&stages);
    let mut ops = OpBounds::SCAN;
    if desugared.fallback.is_some() {
        ops = ops.maybe(OpBounds::SCAN);
    }
    if desugared.thread_from.is_some() {
        ops = OpBounds::points(1).then(ops);
    }
    let mut subqueries = Vec::new();
    if let Some(w) = &d.where_clause {
        for c in &w.conditions {
            if let Test::InSubquery(sub) = &c.test {
                let p = plan_recall(sub, opts);
                ops = p.ops.then(ops);
                subqueries.push((c.field.clone(), p));
            }
        }
    }
    let rows_max = match output {
        Output::Count => 1,
        _ => limit.applied.unwrap_or(MAX_LIMIT as u64),
    };
    let detects =
        d.with.as_ref().is_some_and(|w| w.options.iter().any(|o| matches!(o.kind, WithKind::ContradictionDetection)));
    if detects && !matches!(output, Output::Count | Output::Values(_)) {
        // One lookup of opposite relations per returned grain (docs/spec-decisions-interp.md, W5).
        ops = ops.maybe(OpBounds { min: 0, max: rows_max, scans: rows_max });
    }
    RecallPlan {
        written,
        operation: operation_of(d),
        view: view_of(d),
        desugared_text,
        stages,
        limit,
        output,
        subqueries,
        ops,
        rows_max,
        desugared,
    }
}

fn target_plan(t: &Target) -> TargetPlan {
    let text = match &t.kind {
        TargetKind::Hash(h) => format!("sha256:{h}"),
        TargetKind::Param(p) => format!("${p}"),
    };
    TargetPlan { target: t.clone(), text }
}

fn value_text(v: &cal_parser::ast::Value) -> String {
    let c = Condition {
        field: cal_parser::ast::FieldRef { name: "x".into(), span: v.span },
        test: Test::Compare { op: Comparator::Eq, op_span: v.span, value: v.clone() },
        span: v.span,
    };
    crate::desugar::conditions_text(&[c]).trim_start_matches("x =").trim().to_string()
}

fn plan_add(a: &Add) -> EvolvePlan {
    let sets: Vec<(String, String)> = a.sets.iter().map(|s| (s.field.name.to_string(), value_text(&s.value))).collect();
    let listed = sets.iter().map(|(f, v)| format!("{f} = {v}")).collect::<Vec<_>>().join(", ");
    EvolvePlan {
        kind: EvolveKind::Add,
        grain_type: Some(a.grain_type.grain_type),
        target: None,
        reason: a.reason.as_ref().map(|r| r.value.to_string()),
        side_effects: vec![
            format!(
                "put: store 1 new {} grain ({listed}), namespace and user_id from the capability token",
                a.grain_type.grain_type.singular()
            ),
            "no existing grain is read, changed or removed; the grain count grows by one".into(),
        ],
        sets,
    }
}

fn plan_supersede(s: &Supersede) -> EvolvePlan {
    let target = target_plan(&s.target);
    let sets: Vec<(String, String)> = s.sets.iter().map(|c| (c.field.name.to_string(), value_text(&c.value))).collect();
    let listed = sets.iter().map(|(f, v)| format!("{f} = {v}")).collect::<Vec<_>>().join(", ");
    EvolvePlan {
        kind: EvolveKind::Supersede,
        grain_type: None,
        side_effects: vec![
            format!(
                "get {}: it must exist, be a belief, and not be superseded already (else CAL-E046, CAL-E042, CAL-E040)",
                target.text
            ),
            format!("put: store 1 new belief copying it with {listed}, derived_from = [{}]", target.text),
            format!(
                "supersede: set superseded_by and system_valid_to of {} in the index layer; its blob is untouched and stays readable WITH superseded",
                target.text
            ),
        ],
        target: Some(target),
        reason: s.reason.as_ref().map(|r| r.value.to_string()),
        sets,
    }
}

fn plan_revert(r: &Revert) -> EvolvePlan {
    let target = target_plan(&r.target);
    EvolvePlan {
        kind: EvolveKind::Revert,
        grain_type: None,
        side_effects: vec![
            format!("get {} and the version it superseded (CAL-E041 when it is the original)", target.text),
            "put: store 1 new grain copying the previous version's content".into(),
            format!("supersede {} by the new grain; all three versions stay readable", target.text),
        ],
        target: Some(target),
        reason: r.reason.as_ref().map(|x| x.value.to_string()),
        sets: Vec::new(),
    }
}

fn plan_assemble(a: &Assemble, opts: &PlanOptions) -> (AssemblePlan, OpBounds) {
    let mut ops = OpBounds::ZERO;
    let mut sources = Vec::new();
    for (i, s) in a.sources.iter().enumerate() {
        let label = s.label.as_ref().map_or_else(|| format!("source_{}", i + 1), |l| l.name.to_string());
        let plan = match &s.body {
            SourceBody::Recall(r) => {
                let p = plan_recall(r, opts);
                ops = ops.then(p.ops);
                SourcePlan::Recall(Box::new(p))
            }
            SourceBody::LetRef(name) => SourcePlan::Let(name.name.to_string()),
        };
        sources.push((label, plan));
    }
    let mut priority: Vec<String> =
        a.priority.as_ref().map(|p| p.labels.iter().map(|l| l.name.to_string()).collect()).unwrap_or_default();
    for (label, _) in &sources {
        if !priority.contains(label) {
            priority.push(label.clone());
        }
    }
    let weights =
        limits::default_priority_weights(sources.len()).map_or_else(|| decay_weights(sources.len()), <[f64]>::to_vec);
    let dedup = a.with.as_ref().and_then(|w| {
        w.options.iter().find_map(|o| match &o.kind {
            WithKind::Dedup(f) => Some(f.name.to_string()),
            _ => None,
        })
    });
    let budget = a.budget.map_or((DEFAULT_BUDGET_TOKENS as u64, BudgetUnit::Tokens), |b| (b.amount.value, b.unit));
    let plan = AssemblePlan {
        name: a.name.as_ref().map(|n| n.name.to_string()),
        intent: a.intent.as_ref().map(|i| i.value.to_string()),
        sources,
        budget,
        priority,
        weights,
        dedup,
    };
    (plan, ops)
}

/// §8.2's "exponential decay" for five or more sources: weights proportional
/// to 0.6^i, normalized to sum to one (docs/spec-decisions-interp.md, A1).
pub fn decay_weights(n: usize) -> Vec<f64> {
    let raw: Vec<f64> = (0..n).map(|i| 0.6f64.powi(i32::try_from(i).unwrap_or(i32::MAX))).collect();
    let sum: f64 = raw.iter().sum();
    if sum == 0.0 { raw } else { raw.into_iter().map(|w| w / sum).collect() }
}

/// Plans one statement (without the query's LET bindings).
pub fn plan_statement(s: &Statement, opts: &PlanOptions) -> (Node, OpBounds) {
    match s {
        Statement::Recall(r) => {
            let p = plan_recall(r, opts);
            let ops = p.ops;
            (Node::Recall(Box::new(p)), ops)
        }
        Statement::SetOp(op) => {
            let (left, lo) = plan_statement(&op.left, opts);
            let (right, ro) = plan_statement(&op.right, opts);
            (Node::SetOp { op: op.op, left: Box::new(left), right: Box::new(right) }, lo.then(ro))
        }
        Statement::Exists(e) => (Node::Exists(target_plan(&e.target)), OpBounds::points(1)),
        Statement::History(h) => match &h.kind {
            HistoryKind::Hash { target, diff } => {
                let walk = MAX_HISTORY_VERSIONS as u64;
                let mut ops = OpBounds { min: 1, max: 1 + walk, scans: 0 };
                if diff.is_some() {
                    ops = ops.then(OpBounds::points(1));
                }
                let plan = HistoryPlan::Chain { target: target_plan(target), diff: diff.as_ref().map(target_plan) };
                (Node::History(plan), ops)
            }
            HistoryKind::Triple { scope, subject, relation, as_of } => {
                let plan = HistoryPlan::Triple {
                    subject: value_text(subject),
                    relation: value_text(relation),
                    as_of: as_of.as_ref().map(|a| a.value.to_string()),
                    namespace: scope.as_ref().map(|s| s.value.value.to_string()),
                };
                (Node::History(plan), OpBounds::SCAN)
            }
        },
        Statement::Explain(e) => {
            let inner = plan_body(&[], &e.statement, opts);
            (Node::Explain(Box::new(inner)), OpBounds::ZERO)
        }
        Statement::Describe(d) => {
            (Node::Describe { target: d.target, grain_type: d.grain_type.map(|g| g.grain_type) }, OpBounds::ZERO)
        }
        Statement::Batch(b) => {
            let mut ops = OpBounds::ZERO;
            let mut entries = Vec::new();
            for e in &b.entries {
                let (node, o) = plan_statement(&e.statement, opts);
                ops = ops.then(o);
                entries.push((e.label.name.to_string(), node));
            }
            (Node::Batch(entries), ops)
        }
        Statement::Coalesce(c) => {
            let branches: Vec<RecallPlan> = c.branches.iter().map(|b| plan_recall(b, opts)).collect();
            let mut ops = OpBounds::ZERO;
            for (i, b) in branches.iter().enumerate() {
                ops = if i == 0 { b.ops } else { ops.maybe(b.ops) };
            }
            (Node::Coalesce(branches), ops)
        }
        Statement::Assemble(a) => {
            let (plan, ops) = plan_assemble(a, opts);
            (Node::Assemble(Box::new(plan)), ops)
        }
        Statement::Add(a) => (Node::Evolve(Box::new(plan_add(a))), OpBounds::points(1)),
        Statement::Supersede(s) => (Node::Evolve(Box::new(plan_supersede(s))), OpBounds { min: 2, max: 3, scans: 0 }),
        Statement::Revert(r) => (Node::Evolve(Box::new(plan_revert(r))), OpBounds { min: 3, max: 4, scans: 0 }),
    }
}

fn notes_of(node: &Node, notes: &mut Vec<String>) {
    match node {
        Node::Recall(r) => recall_notes(r, notes),
        Node::SetOp { left, right, .. } => {
            notes_of(left, notes);
            notes_of(right, notes);
        }
        Node::Batch(entries) => entries.iter().for_each(|(_, n)| notes_of(n, notes)),
        Node::Coalesce(branches) => branches.iter().for_each(|b| recall_notes(b, notes)),
        Node::Assemble(a) => {
            for (_, s) in &a.sources {
                if let SourcePlan::Recall(r) = s {
                    recall_notes(r, notes);
                }
            }
        }
        Node::Evolve(_) => notes.push(
            "Tier 1 statement: executing it requires Tier 1, and is refused with CAL-E044 when Tier 1 is not enabled"
                .into(),
        ),
        Node::DefineTemplate(_) => notes.push(
            "DEFINE TEMPLATE registers the template for the request's namespace; nothing is written to memory".into(),
        ),
        Node::Exists(_) | Node::History(_) | Node::Explain(_) | Node::Describe { .. } => {}
    }
}

fn recall_notes(r: &RecallPlan, notes: &mut Vec<String>) {
    if let Some(p) = &r.limit.param {
        notes.push(format!("LIMIT ${p} is not bound yet; the bound assumes the maximum, {MAX_LIMIT}"));
    }
    for (_, sub) in &r.subqueries {
        recall_notes(sub, notes);
    }
}

fn plan_body(lets: &[cal_parser::ast::LetBinding], statement: &Statement, opts: &PlanOptions) -> Plan {
    let mut ops = OpBounds::ZERO;
    let mut let_plans = Vec::new();
    for b in lets {
        let p = plan_recall(&b.recall, opts);
        ops = ops.then(p.ops);
        let_plans.push(LetPlan { name: b.name.name.to_string(), recall: p });
    }
    let (root, root_ops) = plan_statement(statement, opts);
    ops = ops.then(root_ops);
    let mut notes = Vec::new();
    for l in &let_plans {
        recall_notes(&l.recall, &mut notes);
    }
    notes_of(&root, &mut notes);
    notes.dedup();
    let work = WorkBound {
        store_ops_max: ops.max,
        scan_ops_max: ops.scans,
        rows_max: rows_of(&root),
        grains_examined_max: opts
            .store_size
            .map(|n| ops.scans.saturating_mul(n).saturating_add(ops.max.saturating_sub(ops.scans))),
    };
    Plan {
        statement_type: statement.kind_name(),
        tier: u8::from(statement.is_tier1()),
        lets: let_plans,
        root,
        ops,
        work,
        notes,
    }
}

/// Plans a whole query: LET bindings in order, then the statement. For
/// `EXPLAIN`, the bindings belong to the explained plan: nothing runs.
pub fn plan_query(q: &Query, opts: &PlanOptions) -> Plan {
    match &q.body {
        QueryBody::Statement(Statement::Explain(e)) => {
            let inner = plan_body(&q.lets, &e.statement, opts);
            let work = WorkBound { store_ops_max: 0, scan_ops_max: 0, rows_max: 0, grains_examined_max: Some(0) };
            Plan {
                statement_type: "explain",
                tier: 0,
                lets: Vec::new(),
                root: Node::Explain(Box::new(inner)),
                ops: OpBounds::ZERO,
                work,
                notes: Vec::new(),
            }
        }
        QueryBody::Statement(s) => plan_body(&q.lets, s, opts),
        QueryBody::DefineTemplate(d) => {
            let mut notes = Vec::new();
            let root = Node::DefineTemplate(d.name.name.to_string());
            notes_of(&root, &mut notes);
            Plan {
                statement_type: "define_template",
                tier: 0,
                lets: Vec::new(),
                root,
                ops: OpBounds::ZERO,
                work: WorkBound { store_ops_max: 0, scan_ops_max: 0, rows_max: 0, grains_examined_max: Some(0) },
                notes,
            }
        }
    }
}

/// The pipeline text of a plan's stages, implicit ones included (for EXPLAIN).
pub fn effective_pipeline_text(stages: &[PlanStage]) -> String {
    let stages: Vec<Stage> = stages.iter().map(|s| Stage { kind: s.kind.clone(), span: Default::default() }).collect();
    stages_text(&stages)
}
