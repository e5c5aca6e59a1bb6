//! Property tests (proptest, modest case counts so CI stays fast):
//!
//! * metamorphic parsing — keyword case, whitespace and comments leave the
//!   `application/json+cal` form of every accepted corpus query unchanged;
//! * pipeline algebra on the demo memory — `LIMIT n` gives a prefix of the
//!   unlimited result, `INTERSECT` is a subset of both sides, `EXCEPT` is
//!   disjoint from its right side, adding an `AND` condition never adds results;
//! * determinism — the same query on stores loaded in different orders gives
//!   the same response, byte for byte.

use cal_conformance::case::{Body, ParseExpect, QueryInput};
use cal_conformance::load_dir;
use cal_interp::{ExecOptions, Interpreter, OmsFacade, demo};
use cal_lexer::Token;
use oms::store::Store;
use proptest::prelude::*;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::{Arc, LazyLock};

// ------------------------------------------------------------ metamorphic ----

/// Accepted queries of the self-test corpus and the real corpus, with their JSON form.
static QUERIES: LazyLock<Vec<String>> = LazyLock::new(|| {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in [root.join("tests/data/cases"), root.join("cases")] {
        if !dir.is_dir() {
            continue;
        }
        for case in load_dir(&dir).cases {
            if let Body::Parse(p) = &case.body
                && let (QueryInput::Text(t), ParseExpect::Accept { json: Some(_), .. }) = (&p.query, &p.expect)
                && !t.contains('{')
                && t.len() < 2000
            {
                out.push(t.clone());
            }
        }
    }
    out
});

fn json_of(text: &str) -> Option<Value> {
    let parsed = cal_parser::parse_document(text);
    if parsed.has_errors() {
        return None;
    }
    parsed.ast.map(|d| cal_parser::json::document_to_json(&d))
}

const SEPARATORS: [&str; 6] = [" ", "\t", "\n", "  \n\t ", " -- a comment\n", "\n-- RECALL \"not code\"\n  "];

/// Rewrites keyword case and the whitespace between tokens, driven by `choices`.
fn disguise(text: &str, choices: &[u8]) -> String {
    let lexed = cal_lexer::lex(text);
    let mut out = String::new();
    let mut last = 0;
    let mut pick = choices.iter().cycle();
    for (token, span) in &lexed.tokens {
        let range = span.range();
        let gap = &text[last..range.start];
        let c = *pick.next().unwrap_or(&0) as usize;
        if last > 0 && !gap.is_empty() && gap.bytes().all(|b| b.is_ascii_whitespace()) {
            out.push_str(SEPARATORS[c % SEPARATORS.len()]);
        } else {
            out.push_str(gap);
        }
        let word = &text[range.clone()];
        if matches!(token, Token::Kw(_)) {
            let flipped: String = word
                .chars()
                .enumerate()
                .map(|(i, ch)| if (c >> (i % 7)) & 1 == 1 { ch.to_ascii_lowercase() } else { ch.to_ascii_uppercase() })
                .collect();
            out.push_str(&flipped);
        } else {
            out.push_str(word);
        }
        last = range.end;
    }
    out.push_str(&text[last..]);
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn keyword_case_whitespace_and_comments_leave_the_json_unchanged(
        index in any::<prop::sample::Index>(),
        choices in prop::collection::vec(any::<u8>(), 1..16),
    ) {
        prop_assume!(!QUERIES.is_empty());
        let original = &QUERIES[index.index(QUERIES.len())];
        let Some(expected) = json_of(original) else { return Ok(()) };
        let variant = disguise(original, &choices);
        prop_assume!(variant.len() <= cal_grammar::limits::MAX_QUERY_BYTES);
        let got = json_of(&variant);
        prop_assert_eq!(got.as_ref(), Some(&expected), "variant: {}", variant);
    }
}

// ---------------------------------------------------------- pipeline algebra ----

static DEMO: LazyLock<Interpreter<OmsFacade>> = LazyLock::new(|| {
    let store = demo::load(demo::NOW_MS).unwrap_or_else(|_| Store::new(demo::config(demo::NOW_MS)));
    cal_interp::over(Arc::new(store))
});

/// Runs a query on the demo memory: the content addresses, in order, or `None` when it does not check.
fn addresses(interp: &Interpreter<OmsFacade>, text: &str) -> Option<Vec<String>> {
    let a = cal_checker::analyze(text, None);
    if a.has_errors() {
        return None;
    }
    let doc = a.document?;
    let [q] = doc.queries.as_slice() else { return None };
    let r = interp.execute(q, &ExecOptions::fixed(demo::NOW_MS));
    if r.is_error() {
        return None;
    }
    let results = r.json.get("results")?.as_array()?;
    Some(results.iter().filter_map(|g| g.get("content_address")?.as_str().map(str::to_string)).collect())
}

fn grain_type() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["", "beliefs", "events", "goals", "observations", "states", "actions"])
}

fn condition() -> impl Strategy<Value = String> {
    let names = prop::sample::select(vec!["alice", "bob", "carol", "dave", "erin", "frank"]);
    prop_oneof![
        names.clone().prop_map(|n| format!("subject = \"{n}\"")),
        names.clone().prop_map(|n| format!("user_id = \"{n}\"")),
        (names.clone(), names).prop_map(|(a, b)| format!("subject IN (\"{a}\", \"{b}\")")),
        (0u8..=10).prop_map(|x| format!("importance >= {}", f64::from(x) / 10.0)),
        (0u8..=10).prop_map(|x| format!("confidence <= {}", f64::from(x) / 10.0)),
        Just("namespace = \"acme:team-alpha\"".to_string()),
    ]
}

fn recall(t: &str, cond: &str) -> String {
    format!("RECALL {t} WHERE {cond}").replace("RECALL  ", "RECALL ")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn limit_gives_a_prefix_of_the_unlimited_result(t in grain_type(), c in condition(), n in 0usize..30) {
        let q = recall(t, &c);
        let Some(all) = addresses(&DEMO, &format!("{q} | LIMIT 1000")) else { return Ok(()) };
        let Some(some) = addresses(&DEMO, &format!("{q} | LIMIT {n}")) else { return Ok(()) };
        prop_assert_eq!(&some[..], &all[..n.min(all.len())]);
    }

    #[test]
    fn intersect_is_a_subset_of_both_sides(t in grain_type(), a in condition(), b in condition()) {
        let (qa, qb) = (format!("{} | LIMIT 1000", recall(t, &a)), format!("{} | LIMIT 1000", recall(t, &b)));
        let (Some(left), Some(right)) = (addresses(&DEMO, &qa), addresses(&DEMO, &qb)) else { return Ok(()) };
        let Some(both) = addresses(&DEMO, &format!("({qa}) INTERSECT ({qb})")) else { return Ok(()) };
        let (left, right): (BTreeSet<_>, BTreeSet<_>) = (left.into_iter().collect(), right.into_iter().collect());
        for x in &both {
            prop_assert!(left.contains(x) && right.contains(x), "{} is not in both sides", x);
        }
    }

    #[test]
    fn except_is_disjoint_from_its_right_side(t in grain_type(), a in condition(), b in condition()) {
        let (qa, qb) = (format!("{} | LIMIT 1000", recall(t, &a)), format!("{} | LIMIT 1000", recall(t, &b)));
        let Some(right) = addresses(&DEMO, &qb) else { return Ok(()) };
        let Some(diff) = addresses(&DEMO, &format!("({qa}) EXCEPT ({qb})")) else { return Ok(()) };
        let right: BTreeSet<_> = right.into_iter().collect();
        prop_assert!(diff.iter().all(|x| !right.contains(x)));
    }

    #[test]
    fn adding_an_and_condition_never_adds_results(t in grain_type(), a in condition(), b in condition()) {
        let Some(wide) = addresses(&DEMO, &format!("{} | LIMIT 1000", recall(t, &a))) else { return Ok(()) };
        let Some(narrow) = addresses(&DEMO, &format!("{} AND {b} | LIMIT 1000", recall(t, &a))) else { return Ok(()) };
        let wide: BTreeSet<_> = wide.into_iter().collect();
        prop_assert!(narrow.iter().all(|x| wide.contains(x)));
        prop_assert!(narrow.len() <= wide.len());
    }
}

// ------------------------------------------------------------- determinism ----

/// The demo memory's entries, in file order.
static ENTRIES: LazyLock<Vec<Vec<u8>>> = LazyLock::new(|| {
    let Ok(file) = oms::mg::MgFile::open(demo::DEMO_MG) else { return Vec::new() };
    (0..file.len()).filter_map(|i| file.entry(i).ok().map(<[u8]>::to_vec)).collect()
});

const DETERMINISM_QUERIES: [&str; 6] = [
    "RECALL beliefs ABOUT \"alice\"",
    "RECALL events RECENT 7",
    "RECALL WHERE importance >= 0.5 | LIMIT 1000",
    "RECALL beliefs WHERE subject IN (\"bob\", \"carol\") | ORDER BY confidence DESC",
    "(RECALL beliefs) UNION (RECALL goals) | LIMIT 50",
    "RECALL beliefs WITH superseded | LIMIT 1000",
];

fn responses(interp: &Interpreter<OmsFacade>) -> Vec<String> {
    DETERMINISM_QUERIES
        .iter()
        .map(|text| {
            let doc =
                cal_checker::analyze(text, None).document.unwrap_or(cal_parser::ast::Document { queries: vec![] });
            doc.queries.iter().map(|q| interp.execute(q, &ExecOptions::fixed(demo::NOW_MS)).json.to_string()).collect()
        })
        .collect()
}

/// A store holding the demo memory's entries in the given order (a `.mg` file packed without a manifest).
fn store_in_order(order: &[usize]) -> Result<Store, String> {
    let entries: Vec<&[u8]> = order.iter().map(|i| ENTRIES[*i].as_slice()).collect();
    let packed = oms::mg::pack(entries, None, &oms::mg::PackOptions::default()).map_err(|e| e.to_string())?;
    Store::load(&packed, demo::config(demo::NOW_MS)).map_err(|e| e.to_string())
}

/// The responses on the demo entries packed in file order: the baseline every shuffle must match.
static BASELINE: LazyLock<Vec<String>> = LazyLock::new(|| {
    let order: Vec<usize> = (0..ENTRIES.len()).collect();
    store_in_order(&order).map(|s| responses(&cal_interp::over(Arc::new(s)))).unwrap_or_default()
});

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    #[test]
    fn the_same_query_on_a_store_loaded_in_another_order_gives_the_same_response(
        order in Just((0..ENTRIES.len()).collect::<Vec<usize>>()).prop_shuffle(),
    ) {
        prop_assume!(!ENTRIES.is_empty());
        prop_assert_eq!(BASELINE.len(), DETERMINISM_QUERIES.len());
        prop_assert!(BASELINE.iter().all(|r| r.contains("\"results\"")), "every baseline query ran");
        let store = store_in_order(&order);
        prop_assert!(store.is_ok(), "{:?}", store.err());
        let interp = cal_interp::over(Arc::new(store.unwrap_or_else(|_| Store::new(demo::config(0)))));
        let got = responses(&interp);
        for (i, (a, b)) in got.iter().zip(BASELINE.iter()).enumerate() {
            prop_assert!(a == b, "{:?} answers differently on a shuffled store", DETERMINISM_QUERIES[i]);
        }
    }
}

/// The generated queries are not vacuous: each form the properties build runs and finds grains.
#[test]
fn the_query_forms_of_the_properties_run_on_the_demo_memory() {
    let a = "RECALL beliefs WHERE subject IN (\"alice\", \"bob\") | LIMIT 1000";
    let b = "RECALL beliefs WHERE importance >= 0.6 | LIMIT 1000";
    for q in [
        a.to_string(),
        format!("({a}) INTERSECT ({b})"),
        format!("({a}) EXCEPT ({b})"),
        "RECALL WHERE user_id = \"alice\" AND confidence <= 0.9 | LIMIT 1000".into(),
        "RECALL events WHERE namespace = \"acme:team-alpha\" | LIMIT 3".into(),
    ] {
        let found = addresses(&DEMO, &q);
        assert!(found.as_ref().is_some_and(|f| !f.is_empty()), "{q} gives {found:?}");
    }
    assert_eq!(BASELINE.len(), DETERMINISM_QUERIES.len());
}
