//! EXPLAIN output (§8.5): the plan as JSON (the response body) and as an
//! indented outline (`cal explain`, text mode). Nothing here runs anything.

use serde_json::{Value as Json, json};

use crate::build::effective_pipeline_text;
use crate::plan::{
    AssemblePlan, EvolveKind, EvolvePlan, HistoryPlan, Node, OpBounds, Output, Plan, RecallPlan, SourcePlan,
};

fn ops_json(o: OpBounds) -> Json {
    json!({ "min": o.min, "max": o.max })
}

fn output_json(o: &Output) -> Json {
    match o {
        Output::Grains => json!("grains"),
        Output::Fields(f) => json!({ "fields": f }),
        Output::Count => json!("count"),
        Output::Values(e) => json!({ "values": e.as_str().to_lowercase() }),
        Output::Groups(f) => json!({ "groups_by": f }),
    }
}

impl RecallPlan {
    /// This RECALL's plan as JSON.
    pub fn to_json(&self) -> Json {
        let d = &self.desugared;
        json!({
            "node": "recall",
            "written": self.written,
            "shortcuts": d.expansions.iter().map(|e| json!({ "shortcut": e.shortcut, "expands_to": e.expands_to })).collect::<Vec<_>>(),
            "desugared": self.desugared_text,
            "fallback": d.fallback.as_ref().map(|f| cal_parser::print::statement_to_text(&cal_parser::ast::Statement::Recall(Box::new(f.clone())))),
            "operation": self.operation.name(),
            "fallback_operation": d.fallback.as_ref().map(|_| "search"),
            "thread_from": d.thread_from.as_ref().map(|t| match &t.kind {
                cal_parser::ast::TargetKind::Hash(h) => format!("sha256:{h}"),
                cal_parser::ast::TargetKind::Param(p) => format!("${p}"),
            }),
            "view": self.view.name(),
            "pipeline": effective_pipeline_text(&self.stages),
            "limit": { "applied": self.limit.applied, "source": self.limit.source.name(), "param": self.limit.param },
            "output": output_json(&self.output),
            "subqueries": self.subqueries.iter().map(|(f, p)| json!({ "field": f.name, "plan": p.to_json() })).collect::<Vec<_>>(),
            "store_ops": ops_json(self.ops),
            "rows_max": self.rows_max,
        })
    }
}

fn history_json(h: &HistoryPlan) -> Json {
    match h {
        HistoryPlan::Chain { target, diff } => json!({
            "node": "history",
            "form": "chain",
            "target": target.text,
            "diff": diff.as_ref().map(|d| d.text.clone()),
            "operations": ["get", "chain walk (at most 100 versions)"],
        }),
        HistoryPlan::Triple { subject, relation, as_of, namespace } => json!({
            "node": "history",
            "form": "triple",
            "subject": subject,
            "relation": relation,
            "as_of": as_of,
            "namespace": namespace,
            "operations": ["query(include_superseded = true)"],
        }),
    }
}

fn assemble_json(a: &AssemblePlan) -> Json {
    json!({
        "node": "assemble",
        "name": a.name,
        "intent": a.intent,
        "sources": a.sources.iter().map(|(label, s)| match s {
            SourcePlan::Recall(r) => json!({ "label": label, "plan": r.to_json() }),
            SourcePlan::Let(name) => json!({ "label": label, "let": format!("${name}") }),
        }).collect::<Vec<_>>(),
        "budget": { "amount": a.budget.0, "unit": a.budget.1.as_str() },
        "priority": a.priority,
        "weights": a.weights,
        "dedup": a.dedup,
    })
}

fn evolve_json(e: &EvolvePlan) -> Json {
    let name = match e.kind {
        EvolveKind::Add => "add",
        EvolveKind::Supersede => "supersede",
        EvolveKind::Revert => "revert",
    };
    json!({
        "node": name,
        "dry_run": true,
        "grain_type": e.grain_type.map(|g| g.singular()),
        "target": e.target.as_ref().map(|t| t.text.clone()),
        "set": e.sets.iter().map(|(f, v)| json!({ "field": f, "value": v })).collect::<Vec<_>>(),
        "reason": e.reason,
        "side_effects": e.side_effects,
        "requires_tier": 1,
    })
}

impl Node {
    /// This node as JSON.
    pub fn to_json(&self) -> Json {
        match self {
            Node::Recall(r) => r.to_json(),
            Node::SetOp { op, left, right } => json!({
                "node": "set_op",
                "op": op.as_str(),
                "merge": match op {
                    cal_parser::ast::SetOperator::Union => "deduplicate by content address, score = max",
                    cal_parser::ast::SetOperator::Intersect => "grains in both, score = min",
                    cal_parser::ast::SetOperator::Except => "left grains absent from right, left order",
                },
                "left": left.to_json(),
                "right": right.to_json(),
            }),
            Node::Exists(t) => json!({ "node": "exists", "target": t.text, "operations": ["exists"] }),
            Node::History(h) => history_json(h),
            Node::Explain(p) => json!({ "node": "explain", "explained": p.to_json() }),
            Node::Describe { target, grain_type } => json!({
                "node": "describe",
                "target": target.as_str(),
                "grain_type": grain_type.map(|g| g.singular()),
            }),
            Node::Batch(entries) => json!({
                "node": "batch",
                "entries": entries.iter().map(|(l, n)| json!({ "label": l, "plan": n.to_json() })).collect::<Vec<_>>(),
            }),
            Node::Coalesce(branches) => json!({
                "node": "coalesce",
                "short_circuit": "branches run left to right; the first with at least one grain wins and the rest do not run",
                "branches": branches.iter().map(RecallPlan::to_json).collect::<Vec<_>>(),
            }),
            Node::Assemble(a) => assemble_json(a),
            Node::Evolve(e) => evolve_json(e),
            Node::DefineTemplate(name) => json!({ "node": "define_template", "name": name }),
        }
    }
}

impl Plan {
    /// The plan as JSON: the body of an EXPLAIN response.
    pub fn to_json(&self) -> Json {
        json!({
            "statement_type": self.statement_type,
            "tier": self.tier,
            "store_ops": ops_json(self.ops),
            "work_bound": {
                "store_ops_max": self.work.store_ops_max,
                "scan_ops_max": self.work.scan_ops_max,
                "rows_max": self.work.rows_max,
                "grains_examined_max": self.work.grains_examined_max,
            },
            "lets": self.lets.iter().map(|l| json!({ "name": l.name, "plan": l.recall.to_json() })).collect::<Vec<_>>(),
            "plan": self.root.to_json(),
            "notes": self.notes,
        })
    }

    /// The plan as an indented outline, for people.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        text_plan(self, 0, &mut out);
        out
    }
}

fn line(out: &mut String, depth: usize, text: &str) {
    for _ in 0..depth {
        out.push_str("  ");
    }
    out.push_str(text);
    out.push('\n');
}

fn text_plan(p: &Plan, depth: usize, out: &mut String) {
    let examined = p.work.grains_examined_max.map_or_else(|| format!("{} × N", p.work.scan_ops_max), |n| n.to_string());
    line(
        out,
        depth,
        &format!(
            "{} (tier {}): store ops {}..{}, rows ≤ {}, grains examined ≤ {}",
            p.statement_type, p.tier, p.ops.min, p.ops.max, p.work.rows_max, examined
        ),
    );
    for l in &p.lets {
        line(out, depth + 1, &format!("LET ${}", l.name));
        text_recall(&l.recall, depth + 2, out);
    }
    text_node(&p.root, depth + 1, out);
    for n in &p.notes {
        line(out, depth + 1, &format!("note: {n}"));
    }
}

fn text_recall(r: &RecallPlan, depth: usize, out: &mut String) {
    line(out, depth, &format!("{} [{}, view {}]", r.operation.name(), r.written, r.view.name()));
    for e in &r.desugared.expansions {
        line(out, depth + 1, &format!("{} → {}", e.shortcut, e.expands_to));
    }
    if !r.desugared.expansions.is_empty() {
        line(out, depth + 1, &format!("desugared: {}", r.desugared_text));
    }
    let limit = r.limit.applied.map_or_else(|| "unbounded before reshaping".to_string(), |n| n.to_string());
    line(out, depth + 1, &format!("pipeline: {}", effective_pipeline_text(&r.stages)));
    line(
        out,
        depth + 1,
        &format!("limit: {limit} ({}); store ops {}..{}", r.limit.source.name(), r.ops.min, r.ops.max),
    );
    for (f, sub) in &r.subqueries {
        line(out, depth + 1, &format!("subquery for {} IN (…):", f.name));
        text_recall(sub, depth + 2, out);
    }
}

fn text_node(n: &Node, depth: usize, out: &mut String) {
    match n {
        Node::Recall(r) => text_recall(r, depth, out),
        Node::SetOp { op, left, right } => {
            line(out, depth, op.as_str());
            text_node(left, depth + 1, out);
            text_node(right, depth + 1, out);
        }
        Node::Exists(t) => line(out, depth, &format!("exists {}", t.text)),
        Node::History(HistoryPlan::Chain { target, diff }) => {
            let diff = diff.as_ref().map(|d| format!(" DIFF {}", d.text)).unwrap_or_default();
            line(out, depth, &format!("get {} + chain walk (≤ 100 versions){diff}", target.text));
        }
        Node::History(HistoryPlan::Triple { subject, relation, as_of, .. }) => {
            let as_of = as_of.as_ref().map(|a| format!(" AS OF {a:?}")).unwrap_or_default();
            line(out, depth, &format!("query(include_superseded) subject = {subject}, relation = {relation}{as_of}"));
        }
        Node::Explain(p) => text_plan(p, depth, out),
        Node::Describe { target, grain_type } => {
            let g = grain_type.map(|g| format!(" {}", g.singular())).unwrap_or_default();
            line(out, depth, &format!("describe {}{g} (no store access)", target.as_str()));
        }
        Node::Batch(entries) => {
            for (label, n) in entries {
                line(out, depth, &format!("{label}:"));
                text_node(n, depth + 1, out);
            }
        }
        Node::Coalesce(branches) => {
            for (i, b) in branches.iter().enumerate() {
                line(out, depth, &format!("branch {} (runs only if the previous ones returned nothing):", i + 1));
                text_recall(b, depth + 1, out);
            }
        }
        Node::Assemble(a) => {
            line(
                out,
                depth,
                &format!(
                    "assemble {} (budget {} {})",
                    a.name.as_deref().unwrap_or("-"),
                    a.budget.0,
                    a.budget.1.as_str()
                ),
            );
            for (label, s) in &a.sources {
                match s {
                    SourcePlan::Recall(r) => {
                        line(out, depth + 1, &format!("{label}:"));
                        text_recall(r, depth + 2, out);
                    }
                    SourcePlan::Let(name) => line(out, depth + 1, &format!("{label}: ${name}")),
                }
            }
        }
        Node::Evolve(e) => {
            line(out, depth, "dry run, nothing is written:");
            for s in &e.side_effects {
                line(out, depth + 1, s);
            }
        }
        Node::DefineTemplate(name) => line(out, depth, &format!("define template {name}")),
    }
}
