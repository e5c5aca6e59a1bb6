//! ASSEMBLE's `WITH dedup(field)` is cross-source (§8.2 "grains in multiple sources are
//! deduplicated. The copy from the highest-priority source is kept"): a grain is dropped only
//! when a higher-priority source holds a grain of the same type with the same value of the
//! field. Nothing within one source is collapsed, and a grain without the field is kept
//! (docs/spec-decisions-interp.md W7).

mod common;

use std::sync::Arc;

use cal_interp::ExecOptions;
use cal_interp::demo::{self, NOW_MS};
use cal_interp::stream::{CancelToken, EventBody};
use common::{fixture, opts};
use serde_json::Value as Json;

fn labels_and_keys(f: &common::Fixture, r: &Json) -> Vec<(String, Vec<String>)> {
    r["sources"]
        .as_array()
        .unwrap_or_else(|| panic!("no sources: {r}"))
        .iter()
        .map(|s| (s["label"].as_str().unwrap_or_default().to_string(), f.keys_of(&s["results"])))
        .collect()
}

fn grains_returned(r: &Json) -> u64 {
    r["_cal"]["budget"]["grains_returned"].as_u64().unwrap_or_else(|| panic!("no grains_returned: {r}"))
}

/// §8.2's flagship ASSEMBLE, as the spec prints it.
const FLAGSHIP: &str = cal_parser::spec_examples::ASSEMBLE_8_2;

fn demo_run(q: &str) -> Json {
    let store = Arc::new(demo::load(NOW_MS).unwrap_or_else(|e| panic!("demo memory: {e}")));
    let query = cal_parser::parse_query(q).into_result().unwrap_or_else(|e| panic!("{q}: {e:?}"));
    cal_interp::over(store).execute(&query, &ExecOptions::fixed(NOW_MS)).json
}

#[test]
fn the_spec_flagship_keeps_every_grain_no_higher_source_holds() {
    let with = demo_run(FLAGSHIP);
    let without = demo_run(&FLAGSHIP.replace(", dedup(subject)", ""));
    assert_eq!(grains_returned(&without), 7, "{without}");
    // Goals and events are all about alice, but a goal is not a copy of an event: nothing is
    // dropped, where the within-source collapse used to leave one grain.
    assert_eq!(grains_returned(&with), 7, "{with}");
    assert_eq!(with["sources"], without["sources"]);
}

#[test]
fn nothing_is_collapsed_within_one_source() {
    let f = fixture();
    let q = r#"ASSEMBLE c FROM mine: (RECALL beliefs WHERE subject = "alice") BUDGET 50 grains"#;
    let plain = f.run(q);
    let deduped = f.run(&format!("{q} WITH dedup(subject)"));
    assert!(grains_returned(&plain) > 1, "{plain}");
    assert_eq!(labels_and_keys(&f, &deduped), labels_and_keys(&f, &plain));
}

#[test]
fn a_lower_priority_copy_is_dropped_and_the_rest_of_its_source_kept() {
    let f = fixture();
    let q = r#"ASSEMBLE c FROM mine: (RECALL beliefs WHERE subject = "alice"),
        prefs: (RECALL beliefs WHERE relation IS PREFERENCE) BUDGET 50 grains PRIORITY mine > prefs"#;
    let plain = labels_and_keys(&f, &f.run(q));
    let deduped = labels_and_keys(&f, &f.run(&format!("{q} WITH dedup(subject)")));
    assert_eq!(deduped[0], plain[0], "the highest-priority source keeps all its grains");
    let kept = &deduped[1].1;
    assert!(plain[1].1.iter().any(|k| k.starts_with("alice")), "the test needs an overlap: {plain:?}");
    assert!(!kept.iter().any(|k| k.starts_with("alice")), "alice is held by `mine`: {kept:?}");
    let others: Vec<&String> = plain[1].1.iter().filter(|k| !k.starts_with("alice")).collect();
    assert!(others.len() > 1, "{plain:?}");
    assert_eq!(kept.iter().collect::<Vec<_>>(), others, "bob and dave stay, both of dave's too");
}

#[test]
fn the_order_of_priority_not_of_from_decides_which_copy_stays() {
    let f = fixture();
    let q = r#"ASSEMBLE c FROM mine: (RECALL beliefs WHERE subject = "alice"),
        prefs: (RECALL beliefs WHERE relation IS PREFERENCE) BUDGET 50 grains PRIORITY prefs > mine
        WITH dedup(subject)"#;
    let got = labels_and_keys(&f, &f.run(q));
    let mine = got.iter().find(|(l, _)| l == "mine").map(|(_, k)| k.clone()).unwrap_or_default();
    assert!(mine.is_empty(), "every alice belief is held by the higher-priority `prefs`: {got:?}");
}

#[test]
fn grains_of_another_type_are_not_copies() {
    let f = fixture();
    let q = r#"ASSEMBLE c FROM mine: (RECALL beliefs WHERE subject = "alice"), goals: (RECALL goals ABOUT "alice"),
        events: (RECALL events WHERE user_id = "alice") BUDGET 50 grains PRIORITY mine > goals > events"#;
    let plain = labels_and_keys(&f, &f.run(q));
    let deduped = labels_and_keys(&f, &f.run(&format!("{q} WITH dedup(subject)")));
    assert!(plain.iter().all(|(_, k)| !k.is_empty()), "{plain:?}");
    assert_eq!(deduped, plain);
}

#[test]
fn grains_without_the_field_are_kept() {
    let f = fixture();
    // Only some beliefs carry `importance`; the rest have no value to be a copy of.
    let q = r#"ASSEMBLE c FROM a: (RECALL beliefs WHERE relation IS PREFERENCE),
        b: (RECALL beliefs WHERE relation IS PREFERENCE) BUDGET 50 grains PRIORITY a > b"#;
    let plain = labels_and_keys(&f, &f.run(q));
    let deduped = labels_and_keys(&f, &f.run(&format!("{q} WITH dedup(importance)")));
    assert_eq!(deduped[0], plain[0]);
    let with_importance = ["bob-vim"];
    let want: Vec<&String> = plain[1].1.iter().filter(|k| !with_importance.contains(&k.as_str())).collect();
    assert!(want.len() < plain[1].1.len(), "the test needs a grain with importance: {plain:?}");
    assert_eq!(deduped[1].1.iter().collect::<Vec<_>>(), want);
}

#[test]
fn the_stream_reports_the_same_dedup() {
    let f = fixture();
    let q = r#"ASSEMBLE c FROM mine: (RECALL beliefs WHERE subject = "alice"),
        prefs: (RECALL beliefs WHERE relation IS PREFERENCE) BUDGET 50 grains PRIORITY mine > prefs
        WITH dedup(subject)"#;
    let whole = f.run(q);
    let query = cal_parser::parse_query(q).into_result().unwrap_or_else(|e| panic!("{e:?}"));
    let mut events = Vec::new();
    let streamed = f.interp.execute_stream(&query, &opts(), &mut events, &CancelToken::default());
    assert_eq!(streamed.json["sources"], whole["sources"]);
    let (removed, per_source) = events
        .iter()
        .find_map(|e| match &e.body {
            EventBody::DedupCompleted { removed, sources, .. } => {
                Some((*removed, sources.iter().map(|s| (s.source.clone(), s.removed, s.kept)).collect::<Vec<_>>()))
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no dedup_completed"));
    let plain = f.run(&q.replace("WITH dedup(subject)", ""));
    let candidates = |r: &Json, i: usize| r["sources"][i]["candidates"].as_u64().unwrap_or_default() as usize;
    assert_eq!(per_source[0], ("mine".to_string(), 0, candidates(&plain, 0)));
    assert_eq!(per_source[1].2, candidates(&whole, 1));
    assert_eq!(removed, candidates(&plain, 1) - candidates(&whole, 1));
    assert!(removed > 0);
}
