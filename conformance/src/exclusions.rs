//! The §2.4 exclusions, every one of them, wherever a keyword could stand:
//! for each excluded word of the grammar crate (`ExcludedWord::ALL`, so the
//! list has one owner), a query that uses it as a statement (upper and lower
//! case), as a pipeline stage, as a statement inside a subquery and as a
//! stage inside a subquery — each rejected with CAL-E002 at the word — and
//! the JSON form naming it as a statement, as a stage, as the statement of a
//! subquery and as a stage inside a subquery, which the schema rejects
//! (CAL-E002 at the pointer). An engine that accepts FORGET or PURGE
//! anywhere fails Core. Each case is tagged `excluded:<WORD>` and
//! `excluded-as:<position>` ([`POSITIONS`]), which `cal conformance stats` counts.

use crate::case::{Body, Case, Flag, Level, Origin, ParseCase, ParseExpect, Phase, Position, QueryInput, WireCase};
use cal_grammar::vocab::ExcludedWord;
use serde_json::json;
use std::path::PathBuf;

/// Every position an excluded word is tried in: five in text (Core), four in the JSON form
/// (Extended). Each word has one case per position.
pub const POSITIONS: [&str; 9] = [
    "statement",
    "statement-lower",
    "stage",
    "subquery-statement",
    "subquery-stage",
    "json-statement",
    "json-stage",
    "json-subquery-statement",
    "json-subquery-stage",
];

/// The tag naming a case's position.
pub fn position_tag(form: &str) -> String {
    format!("excluded-as:{form}")
}

/// Where the generated cases say they come from.
fn origin(word: &str, form: &str) -> Origin {
    Origin { file: PathBuf::from("conformance/src/exclusions.rs"), pointer: format!("{word}/{form}") }
}

/// A text query that must be rejected with CAL-E002 on the word, which starts at byte `at`.
fn text_case(word: &str, form: &str, query: String, at: u64, len: u64) -> Case {
    Case {
        id: format!("gen.excluded.{}.{form}", word.to_ascii_lowercase()),
        level: Level::Core,
        tags: vec!["excluded-word".into(), "E002".into(), format!("excluded:{word}"), position_tag(form)],
        sections: vec!["2.4".into()],
        flags: vec![Flag::Generated],
        description: Some(format!("{word} is not part of CAL ({form}), §2.4")),
        rulings: Default::default(),
        origin: origin(word, form),
        body: Body::Parse(ParseCase {
            query: QueryInput::Text(query),
            expect: ParseExpect::Reject {
                code: "CAL-E002".into(),
                phase: Phase::Parse,
                position: Some(Position { start: at, end: at + len, line: Some(1), col: Some(at + 1) }),
                suggestion_contains: None,
                has_example: None,
            },
        }),
    }
}

/// A JSON form the schema must reject with CAL-E002 at `pointer`.
fn json_case(word: &str, form: &str, json: serde_json::Value, pointer: &str) -> Case {
    Case {
        id: format!("gen.excluded.{}.{form}", word.to_ascii_lowercase()),
        level: Level::Extended,
        tags: vec![
            "excluded-word".into(),
            "json-schema".into(),
            "wire".into(),
            format!("excluded:{word}"),
            position_tag(form),
        ],
        sections: vec!["2.4".into(), "15.5".into()],
        flags: vec![Flag::Generated],
        description: Some(format!("{word} is not part of CAL's JSON form either ({form}), §2.4")),
        rulings: Default::default(),
        origin: origin(word, form),
        body: Body::Wire(WireCase::JsonRejected { json, code: "CAL-E002".into(), pointer: Some(pointer.into()) }),
    }
}

/// Nine cases per excluded word, one per [`POSITIONS`]: five texts (Core) and four JSON forms
/// (Extended). A subquery's JSON form has no `statement` member (it is a RECALL's clauses), so
/// naming the word there is refused at `/where/0/subquery/statement` whatever the word; the
/// stage inside a subquery is refused at its `stage` (ruling C30).
pub fn exclusion_cases() -> Vec<Case> {
    let mut out = Vec::new();
    for w in ExcludedWord::ALL {
        let word = w.as_str();
        let len = word.len() as u64;
        let lower = word.to_ascii_lowercase();
        out.push(text_case(word, "statement", format!("{word} beliefs WHERE subject = \"a\""), 0, len));
        out.push(text_case(word, "statement-lower", format!("{lower} beliefs"), 0, len));
        let stage = "RECALL beliefs | ";
        out.push(text_case(word, "stage", format!("{stage}{word}"), stage.len() as u64, len));
        let sub = "RECALL beliefs WHERE subject IN (";
        out.push(text_case(word, "subquery-statement", format!("{sub}{word} beliefs)"), sub.len() as u64, len));
        let sub_stage = "RECALL beliefs WHERE subject IN (RECALL beliefs | ";
        out.push(text_case(
            word,
            "subquery-stage",
            format!("{sub_stage}{word} | SUBJECTS)"),
            sub_stage.len() as u64,
            len,
        ));
        out.push(json_case(word, "json-statement", json!({ "statement": lower }), "/statement"));
        out.push(json_case(
            word,
            "json-stage",
            json!({ "statement": "recall", "grain_type": "beliefs", "pipeline": [{ "stage": lower }] }),
            "/pipeline/0/stage",
        ));
        let in_subquery = |subquery: serde_json::Value| {
            json!({
                "statement": "recall",
                "grain_type": "beliefs",
                "where": [{ "field": "subject", "op": "IN", "subquery": subquery }],
            })
        };
        out.push(json_case(
            word,
            "json-subquery-statement",
            in_subquery(json!({ "statement": lower, "grain_type": "beliefs" })),
            "/where/0/subquery/statement",
        ));
        out.push(json_case(
            word,
            "json-subquery-stage",
            in_subquery(json!({ "grain_type": "beliefs", "pipeline": [{ "stage": lower }, { "stage": "subjects" }] })),
            "/where/0/subquery/pipeline/0/stage",
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_excluded_word_has_a_case_in_every_position() {
        let cases = exclusion_cases();
        assert_eq!(cases.len(), ExcludedWord::ALL.len() * POSITIONS.len());
        assert_eq!(ExcludedWord::ALL.len(), 29, "§2.4 lists 29 words (ruling C30)");
        for w in ExcludedWord::ALL {
            for p in POSITIONS {
                let n = cases
                    .iter()
                    .filter(|c| {
                        c.tags.contains(&format!("excluded:{}", w.as_str())) && c.tags.contains(&position_tag(p))
                    })
                    .count();
                assert_eq!(n, 1, "{} as {p}", w.as_str());
            }
        }
        let mut ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), cases.len(), "ids are unique");
    }
}
