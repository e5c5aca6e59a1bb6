//! The content projection (§10.3) where JSON output needs it: the `projected`
//! member of a result under `PROJECT content(…), attr(…)` (§10.3.5), and the
//! token estimate of what a grain costs in a context window (§8.2
//! "approximate by design").
//!
//! Both call the content layer's one projection (`cal_render::project`) on
//! the grain's CAL view, so the JSON `projected` member, the token estimates
//! and every formatted output agree; JSON shows instants as RFC 3339.

use cal_parser::ast::ProjectSpec;
use cal_render::project::{default_content, project as render_project};
use cal_render::{GrainInput, ProjectionOptions};
use oms::store::Hit;
use serde_json::{Map, Value as Json};

use crate::content::project_of;
use crate::fields;

/// Projection options for JSON: RFC 3339 instants, so nothing depends on a clock.
fn json_options(project: Option<&[ProjectSpec]>) -> ProjectionOptions {
    ProjectionOptions { iso_timestamps: true, project: project.map(project_of), ..ProjectionOptions::default() }
}

/// Approximate tokens of a grain's projected content: one per four bytes,
/// rounded up, at least one (§8.2: estimation is approximate by design).
pub fn tokens(hit: &Hit) -> u64 {
    tokens_of(&fields::content_view(hit))
}

/// [`tokens`] of a grain already in its CAL view.
pub fn tokens_of(g: &GrainInput) -> u64 {
    (default_content(g, &json_options(None)).len() as u64).div_ceil(4).max(1)
}

/// `PROJECT content(…), attr(…)` (§10.3.5) on one grain: the content text
/// composed from the listed fields (relations humanized) and the attributes.
pub fn project(hit: &Hit, specs: &[ProjectSpec]) -> Json {
    let e = render_project(&fields::grain_input(hit), &json_options(Some(specs)));
    let attrs: Map<String, Json> = e.attrs.iter().map(|a| (a.name.clone(), a.value.to_json())).collect();
    let mut out = Map::new();
    out.insert("content".into(), e.content.into());
    out.insert("attrs".into(), Json::Object(attrs));
    Json::Object(out)
}
