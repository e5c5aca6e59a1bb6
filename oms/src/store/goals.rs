//! Goal dependencies (OMS §8.7): "A Goal grain with depends_on references
//! MUST NOT transition to goal_state: "active" until all referenced Goal
//! grains have goal_state: "satisfied"." `put` and `supersede` refuse to
//! write such a goal `active` early. A dependency is judged by the current
//! head of its version chain (goals change state by supersession, so the
//! address a plan names is usually a first version), and fails closed when
//! that head cannot be established. Importing a file does not judge this:
//! a file records states that held when they were written (see
//! docs/spec-decisions-oms.md S26).

use std::collections::HashSet;

use super::Inner;
use super::record::{Record, str_field};
use crate::address::ContentAddress;
use crate::error::{OmsError, Result};
use crate::grain::Grain;
use crate::types::GrainType;
use crate::value::Value;

impl Inner {
    /// Whether `g` may be written: unless it is a Goal with `goal_state:
    /// "active"` and a `depends_on`, always. Otherwise every entry must be
    /// the content address of a stored Goal (`ERR_SCHEMA` when it is not an
    /// address or names another type) whose current version is `satisfied`
    /// (`ERR_CONFLICT` when it is not, or when it or its current version is
    /// not in the store).
    pub(crate) fn check_dependencies(&self, g: &Grain) -> Result<()> {
        if g.grain_type() != GrainType::Goal || str_field(g, "goal_state") != Some("active") {
            return Ok(());
        }
        let Some(list) = g.get("depends_on") else { return Ok(()) };
        let entries =
            list.as_array().ok_or_else(|| OmsError::schema("depends_on", "must be an array of content addresses"))?;
        for entry in entries {
            let address = entry
                .as_str()
                .and_then(|s| ContentAddress::parse(s).ok())
                .ok_or_else(|| OmsError::schema("depends_on", format!("{entry:?} is not a content address")))?;
            let waiting = |why: String| OmsError::Conflict {
                reason: format!("a goal cannot be active while it depends on {address}: {why} (§8.7)"),
            };
            let dep = self.by_addr(&address).ok_or_else(|| waiting("that goal is not in the store".into()))?;
            if dep.body.grain().grain_type() != GrainType::Goal {
                return Err(OmsError::schema(
                    "depends_on",
                    format!(
                        "{address} is a {} grain, not a goal",
                        str_field(dep.body.grain(), "type").unwrap_or("non-goal")
                    ),
                ));
            }
            let head = self.head_of(dep).ok_or_else(|| {
                waiting("its current version (superseded_by) is not in the store, so it cannot be judged".into())
            })?;
            match str_field(head.body.grain(), "goal_state") {
                Some("satisfied") => {}
                state => {
                    let state = state.map_or_else(|| "no goal_state".to_string(), |s| format!("goal_state {s:?}"));
                    let at = if head.address == address { String::new() } else { format!(" (at {})", head.address) };
                    return Err(waiting(format!("its current version{at} has {state}, not \"satisfied\"")));
                }
            }
        }
        Ok(())
    }

    /// The current version of `r`: `superseded_by` followed to the end, or
    /// `None` when a link leads out of the store (or round in a circle).
    fn head_of<'a>(&'a self, mut r: &'a Record) -> Option<&'a Record> {
        let mut seen = HashSet::new();
        while let Some(next) = r.state.superseded_by {
            if !seen.insert(r.address) {
                return None;
            }
            r = self.by_addr(&next)?;
        }
        Some(r)
    }
}

/// The addresses a grain's `depends_on` names, for callers that must load
/// them before the check (the durable store's working set).
pub(crate) fn depends_on(g: &Grain) -> Vec<ContentAddress> {
    g.get("depends_on")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).filter_map(|s| ContentAddress::parse(s).ok()).collect())
        .unwrap_or_default()
}
