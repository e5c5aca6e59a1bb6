//! Limit-boundary pairs: for every row of the grammar's [`LIMITS`] table that
//! has a template in `conformance/templates/limits.json`, a case at the limit
//! (accepted) and one past it (rejected with the row's code). The values come
//! from the grammar crate, never from the templates, so changing a limit
//! changes its cases.
//!
//! A template is a query with one placeholder, expanded to exactly `n` of the
//! limited thing:
//!
//! * `{n}` — the number itself (`LIMIT {n}`);
//! * `{list}` — `n` copies of `item` (`{i}` is the 0-based index) joined by
//!   `sep`, or the first `n` of `items`;
//! * `{repeat}` — `n` copies of `repeat` (characters of a text);
//! * `{pad}` — `pad` repeated until the whole query is `n + pad_extra` bytes;
//! * `{nest}` — `nest_base` wrapped `n - 1` times in `nest_wrap` (`{inner}`).

use crate::case::{Body, Case, Flag, Level, Origin, ParseCase, ParseExpect, Phase, QueryInput};
use cal_grammar::limits::{LIMITS, LimitInfo, LimitKind};
use serde::Deserialize;
use std::path::Path;

/// The ruling that gives a code to the limits the spec states without one
/// (`LimitInfo::code_from_spec` false).
pub const RULING_B1: &str = "spec-decisions-grammar.md B1";

/// The templates file, as kept in the repository.
pub const TEMPLATES: &str = include_str!("../templates/limits.json");

/// One template of `templates/limits.json`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Template {
    /// The constant's name in `cal_grammar::limits` (`MAX_IN_SET`).
    pub limit: String,
    /// The level of both cases.
    pub level: Level,
    /// Extra tags.
    #[serde(default)]
    pub tags: Vec<String>,
    /// The query with one placeholder.
    pub query: String,
    /// `{list}`: the item, with `{i}` for the index.
    pub item: Option<String>,
    /// `{list}`: explicit items (the first `n` are used).
    pub items: Option<Vec<String>>,
    /// `{list}`: the separator.
    #[serde(default)]
    pub sep: String,
    /// `{repeat}`: the text repeated.
    pub repeat: Option<String>,
    /// `{pad}`: the padding text.
    pub pad: Option<String>,
    /// `{pad}`: bytes of the query that do not count towards the limit.
    #[serde(default)]
    pub pad_extra: usize,
    /// `{nest}`: the innermost query.
    pub nest_base: Option<String>,
    /// `{nest}`: one level of nesting around `{inner}`.
    pub nest_wrap: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(rename = "$comment", default)]
    _comment: Option<String>,
    templates: Vec<Template>,
}

/// The parsed templates; an error message names the problem.
pub fn templates() -> Result<Vec<Template>, String> {
    serde_json::from_str::<File>(TEMPLATES).map(|f| f.templates).map_err(|e| format!("templates/limits.json: {e}"))
}

impl Template {
    /// The query with exactly `n` of the limited thing, or `None` when the template cannot express `n`.
    pub fn render(&self, n: usize) -> Option<String> {
        let q = &self.query;
        if q.contains("{n}") {
            return Some(q.replace("{n}", &n.to_string()));
        }
        if q.contains("{list}") {
            let list: Vec<String> = match (&self.item, &self.items) {
                (Some(item), None) => (0..n).map(|i| item.replace("{i}", &i.to_string())).collect(),
                (None, Some(items)) => items.get(..n)?.to_vec(),
                _ => return None,
            };
            return Some(q.replace("{list}", &list.join(&self.sep)));
        }
        if q.contains("{repeat}") {
            return Some(q.replace("{repeat}", &self.repeat.as_deref()?.repeat(n)));
        }
        if q.contains("{pad}") {
            let pad = self.pad.as_deref().filter(|p| !p.is_empty())?;
            let fixed = q.len() - "{pad}".len();
            let want = (n + self.pad_extra).checked_sub(fixed)?;
            if want % pad.len() != 0 {
                return None;
            }
            return Some(q.replace("{pad}", &pad.repeat(want / pad.len())));
        }
        if q.contains("{nest}") {
            let mut inner = self.nest_base.clone()?;
            for _ in 1..n {
                inner = self.nest_wrap.as_deref()?.replace("{inner}", &inner);
            }
            return Some(q.replace("{nest}", &inner));
        }
        None
    }
}

/// The boundary pairs of every templated limit at the grammar's values; problems (unknown
/// limit, no code, a template that cannot render) are returned as messages.
pub fn boundary_cases() -> (Vec<Case>, Vec<String>) {
    boundary_cases_for(&serde_json::Map::new())
}

/// The boundary pairs with the values an implementation declared in `hello` for its
/// configurable limits (§17.3 "Implementation-configurable"); other limits keep the
/// grammar's value whatever is declared.
pub fn boundary_cases_for(declared: &serde_json::Map<String, serde_json::Value>) -> (Vec<Case>, Vec<String>) {
    let templates = match templates() {
        Ok(t) => t,
        Err(e) => return (Vec::new(), vec![e]),
    };
    let mut cases = Vec::new();
    let mut problems = Vec::new();
    for (i, t) in templates.iter().enumerate() {
        let Some(info) = LIMITS.iter().find(|l| l.name == t.limit) else {
            problems
                .push(format!("templates/limits.json#/templates/{i}: no limit {:?} in cal_grammar::limits", t.limit));
            continue;
        };
        let value = match declared.get(&t.limit).and_then(serde_json::Value::as_u64) {
            Some(v) if info.configurable => v,
            _ => info.value,
        };
        match pair(t, info, value, i) {
            Ok(pair) => cases.extend(pair),
            Err(e) => problems.push(format!("templates/limits.json#/templates/{i} ({}): {e}", t.limit)),
        }
    }
    (cases, problems)
}

fn pair(t: &Template, info: &LimitInfo, value: u64, index: usize) -> Result<[Case; 2], String> {
    let code = info.code.ok_or("the limit has no error code")?;
    let at = usize::try_from(value).map_err(|e| e.to_string())?;
    let past = match info.kind {
        LimitKind::Max => at + 1,
        LimitKind::Min => at.checked_sub(1).ok_or("a minimum of 0 has no value below it")?,
        _ => return Err("only Max and Min limits have a boundary pair".into()),
    };
    let phase = match code.info().phase {
        cal_grammar::Phase::Prelex => Phase::Lex,
        cal_grammar::Phase::Parse => Phase::Parse,
        _ => Phase::Check,
    };
    let name = t.limit.to_ascii_lowercase();
    let mut tags = vec!["limit-boundary".to_string(), t.limit.clone(), code.as_str().trim_start_matches("CAL-").into()];
    tags.extend(t.tags.iter().cloned());
    let sections: Vec<String> = info.section.split(',').map(|s| s.trim().to_string()).collect();
    let origin = |which: &str| Origin {
        file: Path::new("conformance/templates/limits.json").to_path_buf(),
        pointer: format!("/templates/{index}+{which}"),
    };
    // Where the spec gives the limit no code, the code is grammar ruling B1's: the case over the
    // limit then requires a rejection in the right phase and scores the code like a SHOULD.
    let rulings: crate::case::Rulings =
        if info.code_from_spec { Default::default() } else { [("code".to_string(), RULING_B1.to_string())].into() };
    let make = |id: String, n: usize, expect: ParseExpect, which: &str| -> Result<Case, String> {
        let query = t.render(n).ok_or_else(|| format!("the template cannot render {n}"))?;
        let rulings = if matches!(expect, ParseExpect::Reject { .. }) { rulings.clone() } else { Default::default() };
        Ok(Case {
            id,
            level: t.level,
            tags: tags.clone(),
            sections: sections.clone(),
            flags: vec![Flag::Generated],
            description: Some(format!("{} = {n} ({which} the limit {value})", t.limit)),
            rulings,
            origin: origin(which),
            body: Body::Parse(ParseCase { query: QueryInput::Text(query), expect }),
        })
    };
    let accept = ParseExpect::Accept { json: None, canonical: None, warnings: None, reads_back_as: None };
    let reject = ParseExpect::Reject {
        code: code.as_str().to_string(),
        phase,
        position: None,
        suggestion_contains: None,
        has_example: None,
    };
    let past_word = if info.kind == LimitKind::Max { "over" } else { "under" };
    Ok([
        make(format!("gen.limit.{name}.at"), at, accept, "at")?,
        make(format!("gen.limit.{name}.{past_word}"), past, reject, past_word)?,
    ])
}

/// Why a hand-written case cannot judge this implementation: it is tagged with a configurable
/// limit (`MAX_ADD_PER_MINUTE`) and written at the spec's value, which the implementation
/// declared otherwise in `hello` (§17.3 "implementation-configurable"; ruling C32). Generated
/// boundary pairs follow the declared value instead ([`boundary_cases_for`]), so they are never
/// excused.
pub fn written_at_another_value(case: &Case, declared: &serde_json::Map<String, serde_json::Value>) -> Option<String> {
    if case.has_flag(crate::case::Flag::Generated) || declared.is_empty() {
        return None;
    }
    case.tags.iter().find_map(|tag| {
        let limit = LIMITS.iter().find(|l| l.configurable && l.name == tag)?;
        let value = declared.get(limit.name)?.as_u64()?;
        (value != limit.value).then(|| {
            format!(
                "not applicable: written at §17.3's {} = {}, and the implementation declares {value}",
                limit.name, limit.value
            )
        })
    })
}
