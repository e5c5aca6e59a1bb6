//! # cal-planner — from a checked CAL query to a bounded plan
//!
//! The planner sits between the checker and the interpreter (§17.1). It
//!
//! * desugars every shortcut to its canonical WHERE / WITH / pipeline form
//!   exactly as §9 says ([`desugar_recall`]), relation categories to `IN`
//!   (§7.2), so the interpreter only ever sees canonical statements;
//! * decides the store operation of each RECALL (`query` or `search`, §13),
//!   the versions it sees, and the limit actually applied (default 20, §17.3);
//! * bounds the work before anything runs: store operations with their
//!   minimum and maximum counts (§13's table), rows returned, and grains
//!   examined for a store of N grains ([`Plan::work`]);
//! * renders the plan for EXPLAIN ([`Plan::to_json`], [`Plan::to_text`]) for
//!   every statement, ADD/SUPERSEDE/REVERT included as dry runs naming their
//!   side effects.
//!
//! It never touches a store: EXPLAIN is compile-time only (§13, 0 operations).

mod build;
mod desugar;
mod explain;
mod plan;

pub use build::{
    PlanOptions, SEMANTIC_FIELDS, decay_weights, effective_pipeline_text, int_value, is_semantic, plan_query,
    plan_recall, plan_statement,
};
pub use desugar::{
    CURRENT_USER_PARAM, Desugared, Expansion, conditions_text, desugar_recall, has_shortcuts, reshapes, stages_text,
};
pub use plan::{
    AssemblePlan, EvolveKind, EvolvePlan, HistoryPlan, LetPlan, LimitPlan, LimitSource, Node, OpBounds, Operation,
    Output, Plan, PlanStage, RecallPlan, SourcePlan, TargetPlan, ViewPlan, WorkBound,
};
