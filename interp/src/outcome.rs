//! What a statement produced, as typed values: every statement module returns
//! an [`Outcome`], and the envelope turns it into the response's members in
//! one place ([`Outcome::into_members`]). The member names and their order
//! are the struct fields and their order here (§14.1, OMS §28.1), so a
//! response's shape is read in this file rather than assembled map by map
//! across the interpreter.

use serde::Serialize;
use serde_json::{Map, Value as Json};

/// The result of one statement.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Outcome {
    /// RECALL, set operations and COALESCE: grains, values, a count or groups.
    Grains(Grains),
    /// ASSEMBLE (§8.2).
    Assembly(Assembly),
    /// EXISTS.
    Existence(Existence),
    /// HISTORY, by hash (a supersession chain) or by triple.
    Versions(Versions),
    /// EXPLAIN: the plan.
    Plan(PlanOutcome),
    /// DESCRIBE: what the target lists (its members depend on the target).
    Description(Description),
    /// BATCH: one slot per entry.
    Batch(BatchOutcome),
    /// DEFINE TEMPLATE.
    TemplateDefined(TemplateDefined),
    /// ADD, SUPERSEDE or REVERT, performed (§8.8–§8.10).
    Evolved(Evolved),
}

impl Outcome {
    /// The response members, in order. Result entries are moved into the response rather than
    /// copied (`serde_json::to_value` would clone every grain), the rest goes through serde.
    pub fn into_members(self) -> Map<String, Json> {
        match self {
            Outcome::Grains(g) => g.into_members(),
            other => match serde_json::to_value(other) {
                Ok(Json::Object(m)) => m,
                // Every variant is a struct of named members; nothing else can come out.
                _ => Map::new(),
            },
        }
    }
}

impl Entry {
    /// The entry as a JSON object, moving the grain (same members, same order as `Serialize`).
    pub fn into_json(self) -> Json {
        let mut m = Map::new();
        m.insert("grain".into(), self.grain);
        m.insert("score".into(), serde_json::Number::from_f64(self.score).map_or(Json::Null, Json::Number));
        m.insert("matched_fields".into(), self.matched_fields.into());
        m.insert("content_address".into(), self.content_address.into());
        if let Some(i) = self.index {
            m.insert("index".into(), i);
        }
        if let Some(p) = self.projected {
            m.insert("projected".into(), p);
        }
        m.extend(self.notes);
        Json::Object(m)
    }
}

impl Grains {
    /// The members, moving the entries (same members, same order as `Serialize`).
    pub fn into_members(self) -> Map<String, Json> {
        let entries = |v: Vec<Entry>| Json::Array(v.into_iter().map(Entry::into_json).collect());
        let mut m = Map::new();
        m.insert("results".into(), entries(self.results));
        if let Some(c) = self.count {
            m.insert("count".into(), c.into());
        }
        if let Some(e) = self.extractor {
            m.insert("extractor".into(), e.into());
        }
        if let Some(v) = self.values {
            m.insert("values".into(), v.into());
        }
        if let Some(f) = self.group_by {
            m.insert("group_by".into(), f.into());
        }
        if let Some(gs) = self.groups {
            let gs = gs.into_iter().map(|g| {
                let mut o = Map::new();
                o.insert("key".into(), g.key);
                o.insert("count".into(), g.count.into());
                o.insert("results".into(), entries(g.results));
                Json::Object(o)
            });
            m.insert("groups".into(), Json::Array(gs.collect()));
        }
        m.insert("total".into(), self.total.into());
        m.insert("next_cursor".into(), self.next_cursor.map_or(Json::Null, Json::String));
        if let Some(f) = self.formatted {
            m.insert("formatted".into(), f.into());
        }
        if let Some(f) = self.format {
            m.insert("format".into(), f.into());
        }
        if let Some(b) = self.branch {
            m.insert("branch".into(), b.map_or(Json::Null, Json::from));
        }
        if let Some(n) = self.branches_run {
            m.insert("branches_run".into(), n.into());
        }
        m
    }
}

/// One retrieved grain as a result entry (OMS §28.1), with index state and annotations.
#[derive(Debug, Clone, Serialize)]
pub struct Entry {
    /// The grain (full OMS field names), or the SELECTed fields under CAL names.
    pub grain: Json,
    /// Relevance.
    pub score: f64,
    /// Fields that contributed to the match.
    pub matched_fields: Vec<String>,
    /// Content address, hex.
    pub content_address: String,
    /// Index-layer state that differs from the default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<Json>,
    /// `PROJECT content(…), attr(…)` (§10.3.5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub projected: Option<Json>,
    /// WITH annotations (`score_breakdown`, `explanation`, `provenance`, `contradictions`).
    #[serde(flatten)]
    pub notes: Map<String, Json>,
}

/// One GROUP BY group.
#[derive(Debug, Clone, Serialize)]
pub struct Group {
    /// The group's value of the field.
    pub key: Json,
    /// Grains in the group.
    pub count: usize,
    /// Its grains.
    pub results: Vec<Entry>,
}

/// What a RECALL-like statement returns.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Grains {
    /// Result entries (empty for values and counts).
    pub results: Vec<Entry>,
    /// `| COUNT`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    /// The extractor of `| SUBJECTS` / `| OBJECTS` / `| HASHES`, lower case.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extractor: Option<String>,
    /// Extracted values.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<String>>,
    /// `| GROUP BY field`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group_by: Option<String>,
    /// The groups.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub groups: Option<Vec<Group>>,
    /// Matches before paging.
    pub total: usize,
    /// The next page's cursor; null on the last page.
    pub next_cursor: Option<String>,
    /// `AS fmt`: the rendered text (§10.9.8).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub formatted: Option<String>,
    /// `AS fmt`: the format it resolved to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<&'static str>,
    /// COALESCE: the winning branch (1-based), or null when none had grains.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch: Option<Option<usize>>,
    /// COALESCE: how many branches ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branches_run: Option<usize>,
}

/// EXISTS.
#[derive(Debug, Clone, Serialize)]
pub struct Existence {
    /// Whether a grain has the address (or the prefix names exactly one).
    pub exists: bool,
    /// The full address when exactly one grain matched.
    pub content_address: Option<String>,
}

/// One version in a HISTORY.
#[derive(Debug, Clone, Serialize)]
pub struct Version {
    /// 1 for the oldest of the chain.
    pub version: usize,
    /// Its content address.
    pub content_address: String,
    /// The grain.
    pub grain: Json,
    /// The grain that superseded it.
    pub superseded_by: Option<String>,
    /// When it entered the current view (RFC 3339).
    pub system_valid_from: String,
    /// When it left it (RFC 3339).
    pub system_valid_to: Option<String>,
}

/// One changed field between two versions.
#[derive(Debug, Clone, Serialize)]
pub struct Change {
    /// The OMS field name.
    pub field: String,
    /// Its value before.
    pub from: Json,
    /// Its value after.
    pub to: Json,
}

/// `HISTORY sha256:… DIFF sha256:…`.
#[derive(Debug, Clone, Serialize)]
pub struct Diff {
    /// The first version.
    pub from: String,
    /// The second.
    pub to: String,
    /// Whether both are in the same supersession chain.
    pub same_chain: bool,
    /// The fields that differ, by name.
    pub changes: Vec<Change>,
}

/// HISTORY.
#[derive(Debug, Clone, Serialize)]
pub struct Versions {
    /// `AS OF`: the instant the view was taken at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub as_of: Option<String>,
    /// Newest first.
    pub results: Vec<Version>,
    /// Versions before truncation.
    pub total: usize,
    /// Whether the response holds fewer versions than `total`.
    pub truncated: bool,
    /// By hash: the chain's current head when it is not the target (null when it is).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head: Option<Option<String>>,
    /// `DIFF`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<Diff>,
    /// Always null: a history is one page.
    pub next_cursor: Option<String>,
}

/// EXPLAIN.
#[derive(Debug, Clone, Serialize)]
pub struct PlanOutcome {
    /// The plan (planner's JSON form).
    pub plan: Json,
}

/// DESCRIBE: `target` and the members that target lists.
#[derive(Debug, Clone, Serialize)]
pub struct Description {
    /// The members, in order (`target` first).
    #[serde(flatten)]
    pub members: Map<String, Json>,
}

/// A BATCH entry's slot: its statement type and its result or error.
#[derive(Debug, Clone, Serialize)]
pub struct Slot {
    /// The entry's statement (`recall`, `exists`, …).
    pub statement_type: &'static str,
    /// What it produced.
    #[serde(flatten)]
    pub body: SlotBody,
}

/// What a BATCH entry produced.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum SlotBody {
    /// Its members.
    Done(Box<Outcome>),
    /// Its error (§22.1); the other entries still ran.
    Failed {
        /// The error object.
        error: Json,
    },
}

/// BATCH.
#[derive(Debug, Clone, Serialize)]
pub struct BatchOutcome {
    /// Slots by entry label, in entry order.
    pub results: Labelled<Slot>,
    /// Entries.
    pub total: usize,
}

/// A performed evolve statement: what was written, in the preview's words.
#[derive(Debug, Clone, Serialize)]
pub struct Evolved {
    /// The preview it performed ([`crate::evolve::Preview::to_json`]).
    pub evolve: Json,
    /// Grains written: always 1.
    pub grains_written: usize,
}

/// DEFINE TEMPLATE.
#[derive(Debug, Clone, Serialize)]
pub struct TemplateDefined {
    /// Its name.
    pub template: String,
    /// Always true: a refusal is an error.
    pub defined: bool,
    /// The preset or template it extends.
    pub extends: String,
    /// The namespace it was registered in.
    pub namespace: Option<String>,
    /// Templates now in that namespace.
    pub templates_in_namespace: usize,
    /// Always 0: a template is session state, not memory.
    pub grains_written: usize,
}

/// An ASSEMBLE source's result, as the response reports it.
#[derive(Debug, Clone, Serialize)]
pub struct SourceOutcome {
    /// The FROM label.
    pub label: String,
    /// 1 for the highest PRIORITY.
    pub priority: usize,
    /// Its budget weight.
    pub weight: Option<f64>,
    /// What it resolved to.
    #[serde(flatten)]
    pub body: SourceBody,
    /// Tokens (or grains) allocated to it.
    pub allocated: usize,
    /// What it used.
    pub tokens_used: usize,
    /// Whether grains were left out for budget.
    pub truncated: bool,
}

/// What an ASSEMBLE source resolved to.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum SourceBody {
    /// Grains: those included, matches before LIMIT, and candidates after dedup.
    Rows {
        /// The included grains.
        results: Vec<Entry>,
        /// Matches before LIMIT.
        total: usize,
        /// Candidates offered to the budget.
        candidates: usize,
    },
    /// Extracted values.
    Values {
        /// The values.
        values: Vec<String>,
        /// How many.
        total: usize,
    },
    /// The source failed; the others still ran.
    Failed {
        /// The error object.
        error: Json,
    },
    /// A cancelled stream never ran it.
    NotRun {
        /// Always `not_run`.
        status: &'static str,
    },
}

/// The ASSEMBLE budget as written.
#[derive(Debug, Clone, Serialize)]
pub struct BudgetOutcome {
    /// The amount.
    pub amount: u64,
    /// `tokens` or `grains`.
    pub unit: &'static str,
}

/// ASSEMBLE.
#[derive(Debug, Clone, Serialize)]
pub struct Assembly {
    /// The context block's name.
    pub name: Option<String>,
    /// `FOR "…"`.
    pub intent: Option<String>,
    /// `BUDGET`.
    pub budget: BudgetOutcome,
    /// PRIORITY order (labels).
    pub priority: Vec<String>,
    /// One per source.
    pub sources: Vec<SourceOutcome>,
    /// The formatted context: text, format, tokens, and the disclosure tiers when asked for.
    pub formatted_context: Map<String, Json>,
    /// A cancelled stream's `cancelled` member (§11.5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cancelled: Option<Json>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The moving conversion of grain results gives what `Serialize` gives, member for member.
    #[test]
    fn moved_grains_serialize_like_serde() {
        let entry = |i: usize| Entry {
            grain: serde_json::json!({"type": "belief", "subject": format!("s{i}")}),
            score: 0.5,
            matched_fields: vec!["subject".into()],
            content_address: format!("{i:064x}"),
            index: (i == 1).then(|| serde_json::json!({"contradicted": true})),
            projected: (i == 2).then(|| serde_json::json!({"content": "x", "attrs": {}})),
            notes: [("explanation".to_string(), Json::from("why"))].into_iter().collect(),
        };
        let full = Grains {
            results: vec![entry(0), entry(1), entry(2)],
            count: Some(3),
            extractor: Some("subjects".into()),
            values: Some(vec!["a".into()]),
            group_by: Some("subject".into()),
            groups: Some(vec![Group { key: "k".into(), count: 1, results: vec![entry(3)] }]),
            total: 9,
            next_cursor: Some("cursor:x".into()),
            formatted: Some("text".into()),
            format: Some("sml"),
            branch: Some(None),
            branches_run: Some(2),
        };
        for g in [full, Grains::default()] {
            let via_serde = serde_json::to_value(Outcome::Grains(g.clone())).unwrap();
            let moved = Json::Object(Outcome::Grains(g).into_members());
            assert_eq!(serde_json::to_string(&moved).unwrap(), serde_json::to_string(&via_serde).unwrap());
        }
    }
}

/// Labelled values, in insertion order, serialized as a JSON object in that order.
#[derive(Debug, Clone, Default)]
pub struct Labelled<T>(pub Vec<(String, T)>);

impl<T: Serialize> Serialize for Labelled<T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}
