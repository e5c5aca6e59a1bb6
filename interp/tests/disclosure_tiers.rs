//! Bare `WITH progressive_disclosure` on an ASSEMBLE gives the three tiers of §8.2 ("the response
//! includes three tiers: Summary, Headlines, Full"): `formatted_context.tiers` holds the context
//! at each, with its exact tokens, and `formatted_context.text` is the tier §14.3's "When Used"
//! column picks for the budget, named by `formatted_context.tier`. With an explicit level there
//! is one text and no tiers (docs/spec-decisions-interp.md W8).

mod common;

use cal_interp::stream::{CancelToken, EventBody};
use common::{fixture, opts};
use serde_json::Value as Json;

const SOURCES: &str = r#"FROM mine: (RECALL beliefs WHERE subject = "alice"), goals: (RECALL goals ABOUT "alice"),
    events: (RECALL events ABOUT "alice") PRIORITY mine > goals > events"#;

fn assemble(budget: &str, rest: &str) -> String {
    format!(r#"ASSEMBLE ctx FOR "helping alice" {SOURCES} BUDGET {budget} {rest}"#)
}

fn fc(r: &Json) -> &Json {
    &r["formatted_context"]
}

#[test]
fn bare_progressive_disclosure_gives_three_tiers_with_their_tokens() {
    let f = fixture();
    for format in ["FORMAT markdown", "FORMAT sml", "FORMAT toon", "FORMAT json"] {
        let r = f.run(&assemble("2000 tokens", &format!("{format} WITH progressive_disclosure")));
        let tiers = fc(&r)["tiers"].as_object().unwrap_or_else(|| panic!("{format}: no tiers: {r}"));
        assert_eq!(tiers.keys().collect::<Vec<_>>(), ["summary", "headlines", "full"], "{format}");
        for (name, level) in [("summary", "summary"), ("headlines", "headlines"), ("full", "full")] {
            let tier = &tiers[name];
            // Each tier is what the explicit level renders, with its exact token count.
            let one = f.run(&assemble("2000 tokens", &format!("{format} WITH progressive_disclosure({level})")));
            assert_eq!(tier["text"], fc(&one)["text"], "{format} {name}");
            let text = tier["text"].as_str().unwrap_or_default();
            assert_eq!(tier["tokens"], cal_render::tokens::count(text), "{format} {name}");
            assert!(tier["tokens"].as_u64().unwrap_or(u64::MAX) <= 2000, "{format} {name}: within the budget");
            assert_eq!(tier["grains"], one["_cal"]["budget"]["grains_returned"], "{format} {name}");
            assert!(fc(&one).get("tiers").is_none(), "an explicit level has no tiers");
        }
        assert_eq!(tiers["summary"]["level"], "summary");
        assert_eq!(tiers["headlines"]["level"], "standard", "§14.3's middle level");
        assert_eq!(tiers["full"]["level"], "full");
        let texts: Vec<&str> = tiers.values().map(|t| t["text"].as_str().unwrap_or_default()).collect();
        assert!(texts[0] != texts[1] && texts[1] != texts[2], "{format}: three densities: {texts:?}");
        // The text shown first is the tier the budget picks (2,000 tokens: headlines).
        assert_eq!(fc(&r)["tier"], "headlines", "{format}");
        assert_eq!(fc(&r)["text"], tiers["headlines"]["text"]);
        assert_eq!(fc(&r)["tokens"], tiers["headlines"]["tokens"]);
        assert_eq!(r["_cal"]["budget"]["tokens_used"], fc(&r)["tokens"], "tokens_used counts the text shown");
    }
}

#[test]
fn the_budget_picks_the_tier_shown_first() {
    let f = fixture();
    for (budget, tier) in [("900 tokens", "summary"), ("2000 tokens", "headlines"), ("8000 tokens", "full")] {
        let r = f.run(&assemble(budget, "FORMAT sml WITH progressive_disclosure"));
        assert_eq!(fc(&r)["tier"], tier, "{budget}");
        assert_eq!(fc(&r)["text"], fc(&r)["tiers"][tier]["text"], "{budget}");
    }
}

#[test]
fn headlines_summary_and_full_differ_in_metadata_only() {
    let f = fixture();
    let r = f.run(&assemble("8000 tokens", "FORMAT sml WITH progressive_disclosure"));
    let t = |name: &str| fc(&r)["tiers"][name]["text"].as_str().unwrap_or_default().to_string();
    let (summary, headlines, full) = (t("summary"), t("headlines"), t("full"));
    assert!(!summary.contains("confidence="), "{summary}");
    assert!(headlines.contains("confidence=") && !headlines.contains("source="), "{headlines}");
    assert!(full.contains("confidence=") && full.contains("source="), "{full}");
    // The same elements at each level (everything fits 8,000 tokens).
    let count = |s: &str| s.matches("<belief ").count();
    assert_eq!((count(&summary), count(&headlines)), (count(&full), count(&full)));
}

#[test]
fn explicit_levels_and_no_option_give_one_text() {
    let f = fixture();
    let none = f.run(&assemble("2000 tokens", "FORMAT sml"));
    assert!(fc(&none).get("tiers").is_none() && fc(&none).get("tier").is_none(), "{none}");
    let headlines = f.run(&assemble("2000 tokens", "FORMAT sml WITH progressive_disclosure(headlines)"));
    let standard = f.run(&assemble("2000 tokens", "FORMAT sml WITH progressive_disclosure(standard)"));
    assert_eq!(fc(&headlines)["text"], fc(&standard)["text"], "headlines is §14.3's standard");
    assert_eq!(fc(&headlines)["text"], fc(&none)["text"], "standard is the default");
    let summary = f.run(&assemble("2000 tokens", "FORMAT sml WITH progressive_disclosure(summary)"));
    assert!(!fc(&summary)["text"].as_str().unwrap_or_default().contains("confidence="));
}

#[test]
fn templates_get_tiers_too() {
    let f = fixture();
    let r = f.run(&assemble(
        "2000 tokens",
        "FORMAT TEMPLATE { HEADER { CTX {{context.name}} } ELEMENT { * {{grain.content}} } } WITH progressive_disclosure",
    ));
    assert_eq!(fc(&r)["format"], "template");
    assert_eq!(fc(&r)["tiers"].as_object().map(|t| t.len()), Some(3), "{r}");
}

#[test]
fn the_stream_decides_the_tier_and_the_response_carries_all_three() {
    let f = fixture();
    let q = assemble("2000 tokens", "FORMAT markdown WITH progressive_disclosure STREAM");
    let whole = f.run(&q);
    let query = cal_parser::parse_query(&q).into_result().unwrap_or_else(|e| panic!("{e:?}"));
    let mut events = Vec::new();
    let streamed = f.interp.execute_stream(&query, &opts(), &mut events, &CancelToken::default());
    assert_eq!(fc(&streamed.json), fc(&whole), "the streamed response has the same tiers");
    let (level, chosen_by, tiers) = events
        .iter()
        .find_map(|e| match &e.body {
            EventBody::DisclosureDecided { level, chosen_by, tiers } => {
                Some((level.clone(), chosen_by.clone(), tiers.clone()))
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no disclosure_decided"));
    assert_eq!((level.as_str(), chosen_by.as_str()), ("standard", "budget"));
    let named: Vec<(String, String, usize, usize)> =
        tiers.iter().map(|t| (t.tier.clone(), t.level.clone(), t.tokens, t.grains)).collect();
    let want: Vec<(String, String, usize, usize)> = ["summary", "headlines", "full"]
        .iter()
        .map(|n| {
            let t = &fc(&whole)["tiers"][*n];
            let num = |k: &str| t[k].as_u64().unwrap_or_default() as usize;
            (n.to_string(), t["level"].as_str().unwrap_or_default().to_string(), num("tokens"), num("grains"))
        })
        .collect();
    assert_eq!(named, want);
    let chunks: String = events
        .iter()
        .filter_map(|e| match &e.body {
            EventBody::Chunk { content, .. } => Some(content.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(chunks, fc(&whole)["text"].as_str().unwrap_or_default(), "the chunks are the tier shown");
}

#[test]
fn a_cancelled_stream_has_no_tiers() {
    let f = fixture();
    let q = assemble("2000 tokens", "FORMAT markdown WITH progressive_disclosure STREAM { chunk_size = 20 }");
    let query = cal_parser::parse_query(&q).into_result().unwrap_or_else(|e| panic!("{e:?}"));
    let mut n = 0;
    let mut cancel_after_first_chunk = |e: &cal_interp::stream::Event| {
        if matches!(e.body, EventBody::Chunk { .. }) {
            n += 1;
            if n == 1 {
                return cal_interp::stream::Control::Cancel("enough".into());
            }
        }
        cal_interp::stream::Control::Continue
    };
    let r = f.interp.execute_stream(&query, &opts(), &mut cancel_after_first_chunk, &CancelToken::default());
    assert_eq!(fc(&r.json)["partial"], true, "{}", r.json);
    assert!(fc(&r.json).get("tiers").is_none() && fc(&r.json).get("tier").is_none(), "{}", r.json);
}

#[test]
fn the_spec_flagship_on_the_demo_memory_has_three_tiers() {
    let store = std::sync::Arc::new(cal_interp::demo::load(cal_interp::demo::NOW_MS).unwrap_or_else(|e| panic!("{e}")));
    let q = r#"ASSEMBLE user_context FOR "conversation about alice's preferences and goals"
        FROM beliefs: (RECALL beliefs ABOUT "alice" WHERE relation = "prefers" LIMIT 20),
        goals: (RECALL goals ABOUT "alice" RECENT 10), events: (RECALL events WHERE user_id = "alice" RECENT 5),
        history: (RECALL beliefs ABOUT "alice" WHERE relation = "prefers" WITH superseded | ORDER BY time DESC | LIMIT 3)
        BUDGET 2000 tokens PRIORITY beliefs > goals > events > history FORMAT markdown
        WITH progressive_disclosure, dedup(subject)"#;
    let query = cal_parser::parse_query(q).into_result().unwrap_or_else(|e| panic!("{e:?}"));
    let r = cal_interp::over(store).execute(&query, &cal_interp::ExecOptions::fixed(cal_interp::demo::NOW_MS)).json;
    let tiers = fc(&r)["tiers"].as_object().unwrap_or_else(|| panic!("{r}"));
    let figures: Vec<(&str, u64)> =
        tiers.iter().map(|(k, t)| (k.as_str(), t["grains"].as_u64().unwrap_or_default())).collect();
    assert_eq!(figures, [("summary", 7), ("headlines", 7), ("full", 7)]);
    let tokens: Vec<u64> = tiers.values().map(|t| t["tokens"].as_u64().unwrap_or_default()).collect();
    assert!(tokens[0] < tokens[1] && tokens[1] < tokens[2], "{tokens:?}");
    assert_eq!(fc(&r)["tier"], "headlines");
}
