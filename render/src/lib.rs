//! # cal-render — CAL's content layer
//!
//! Turns grains the interpreter has already retrieved into what goes into an
//! LLM's context window (§10, §14.2–14.4): the Content Projection Model with
//! `humanize()`, time humanization against an injected clock and PROJECT;
//! progressive disclosure and its three tiers; the seven output formats, one module each, for
//! RECALL (`AS`) and ASSEMBLE (`FORMAT`); ASSEMBLE budget allocation (§8.2);
//! rendering of Mustache-subset templates (parsed by `cal_parser::template`,
//! validated by the checker); and exact token counts (o200k_base).
//!
//! The crate is pure: no store, no clock, no IO; its only outside input is the caller's
//! deadline, which long loops look at ([`deadline`], `oms::interrupt`). Entry points:
//! [`render_recall`], [`assemble()`] and [`assemble_tiers`].

pub mod assemble;
pub mod budget;
pub mod chunk;
pub(crate) mod deadline;
pub mod formats;
pub mod grain;
pub mod o200k;
pub mod project;
pub mod template;
pub mod tiers;
pub mod time;
pub mod tokens;

pub use assemble::{
    AssembleRequest, Assembled, Output, SourceInput, SourceReport, assemble, render_recall, render_recall_of,
};
pub use budget::{Budget, BudgetUnit};
pub use grain::GrainInput;
pub use project::{Disclosure, Project, ProjectionOptions};
pub use tiers::{Tier, assemble_tiers};
