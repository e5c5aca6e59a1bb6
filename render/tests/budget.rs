//! ASSEMBLE budgets (§8.2): allocations follow the spec's PRIORITY weights for 2, 3, 4 and 5+
//! sources, surplus moves to sources that can use it, truncation is flagged per source, no
//! output exceeds its budget (tiny budgets included), the budget is filled with the real
//! formatted cost, and the reported tokens are a recount of the text.

use cal_grammar::FormatName;
use cal_render::budget::{DECAY_RATIO, split, weights};
use cal_render::{
    AssembleRequest, Assembled, Budget, BudgetUnit, GrainInput, Output, ProjectionOptions, SourceInput, assemble,
    tokens,
};
use serde_json::json;

const NOW: i64 = 1_773_565_200_000;

fn belief(i: usize) -> GrainInput {
    cal_interp::fields::grain_input_from_json(
        &json!({"type": "belief", "subject": "alice", "relation": "mg:knows", "object": format!("fact number {i}"),
               "confidence": 0.5, "created_at": NOW - 60_000}),
        1.0,
        "sha256:00",
    )
    .expect("a grain")
}

fn sources(sizes: &[usize]) -> Vec<SourceInput> {
    sizes
        .iter()
        .enumerate()
        .map(|(s, n)| SourceInput { label: format!("s{s}"), grains: (0..*n).map(|i| belief(s * 1000 + i)).collect() })
        .collect()
}

fn run(sizes: &[usize], budget: Budget, format: FormatName) -> Assembled {
    assemble(&AssembleRequest {
        name: "ctx".into(),
        intent: Some("budget test".into()),
        sources: sources(sizes),
        budget,
        output: Output::Format(format),
        projection: ProjectionOptions { now_ms: NOW, ..Default::default() },
    })
}

fn grains(out: &Assembled) -> Vec<usize> {
    out.sources.iter().map(|s| s.grains).collect()
}

#[test]
fn grain_allocations_match_the_spec_weights() {
    let g = |n| Budget::new(n, BudgetUnit::Grains);
    assert_eq!(grains(&run(&[200, 200], g(100), FormatName::Text)), [65, 35]);
    assert_eq!(grains(&run(&[200, 200, 200], g(100), FormatName::Text)), [50, 30, 20]);
    assert_eq!(grains(&run(&[200; 4], g(100), FormatName::Text)), [40, 28, 20, 12]);
    assert_eq!(grains(&run(&[200; 4], g(50), FormatName::Text)), [20, 14, 10, 6]);
    // 5+: exponential decay with ratio 0.7, remainders to the highest priorities.
    let five = grains(&run(&[200; 5], g(200), FormatName::Text));
    assert_eq!(five, split(200, &weights(5)));
    assert_eq!(five.iter().sum::<usize>(), 200);
    assert!(five.windows(2).all(|p| p[0] >= p[1]));
    let w = weights(8);
    assert!(w.windows(2).all(|p| (p[1] / p[0] - DECAY_RATIO).abs() < 1e-12));
}

#[test]
fn decay_matches_the_planner() {
    // The weights EXPLAIN and the response report (the planner's) are the ones applied.
    for n in 1..=8 {
        let ours = weights(n);
        let planner = cal_grammar::limits::default_priority_weights(n)
            .map_or_else(|| cal_planner::decay_weights(n), <[f64]>::to_vec);
        assert_eq!(ours.len(), planner.len());
        assert!(ours.iter().zip(&planner).all(|(a, b)| (a - b).abs() < 1e-12), "{n}: {ours:?} vs {planner:?}");
    }
}

#[test]
fn token_allocations_follow_the_weights() {
    // Uniform elements and plenty of candidates: tokens used per source in the 4-source ratio.
    let out = run(&[300; 4], Budget::new(2000, BudgetUnit::Tokens), FormatName::Text);
    let used: Vec<usize> = out.sources.iter().map(|s| s.tokens_used).collect();
    let total: usize = used.iter().sum();
    for (u, w) in used.iter().zip([0.40, 0.28, 0.20, 0.12]) {
        let share = *u as f64 / total as f64;
        assert!((share - w).abs() < 0.03, "{used:?}");
    }
    assert!(out.sources.iter().all(|s| s.truncated));
}

#[test]
fn surplus_moves_to_sources_with_candidates_left() {
    // s0 has 3 grains for a share of 40: its 37 unused go to the others, by weight.
    let out = run(&[3, 200, 200, 200], Budget::new(100, BudgetUnit::Grains), FormatName::Text);
    let got = grains(&out);
    assert_eq!(got[0], 3);
    assert_eq!(got.iter().sum::<usize>(), 100);
    assert!(got[1] > 28 && got[2] > 20 && got[3] > 12, "{got:?}");
    assert!(got[1] > got[2] && got[2] > got[3]);
    assert!(!out.sources[0].truncated && out.sources[1..].iter().all(|s| s.truncated));
    assert!(out.sources[1].allocated > 28);
}

#[test]
fn truncation_is_reported_per_source() {
    let out = run(&[2, 500], Budget::new(600, BudgetUnit::Tokens), FormatName::Markdown);
    assert_eq!((out.sources[0].grains, out.sources[0].truncated), (2, false));
    assert!(out.sources[1].truncated && out.sources[1].grains < 500);
    assert_eq!(out.sources[1].candidates, 500);
}

#[test]
fn the_budget_is_filled_with_the_real_formatted_cost() {
    for format in [FormatName::Sml, FormatName::Markdown, FormatName::Text, FormatName::Toon, FormatName::Json] {
        // The costliest element here: a JSON object is about 30 tokens, a line under 20.
        let one = if format == FormatName::Json { 40 } else { 20 };
        for budget in [300, 2000] {
            let out = run(&[200, 200, 200], Budget::new(budget, BudgetUnit::Tokens), format);
            assert!(out.tokens <= budget, "{format:?} {budget}: {}", out.tokens);
            // One more grain would not have fitted.
            assert!(out.tokens + one > budget, "{format:?} {budget}: only {} used", out.tokens);
        }
    }
}

#[test]
fn tiny_budgets_never_overflow() {
    for format in [
        FormatName::Sml,
        FormatName::Markdown,
        FormatName::Text,
        FormatName::Toon,
        FormatName::Json,
        FormatName::Yaml,
        FormatName::Triples,
    ] {
        for budget in 0..40 {
            let out = run(&[5, 5], Budget::new(budget, BudgetUnit::Tokens), format);
            assert!(out.tokens <= budget, "{format:?} {budget}: {}", out.tokens);
            assert_eq!(out.tokens, tokens::count(&out.text));
            if out.text.is_empty() {
                // Not even the envelope fits: nothing at all, every source truncated.
                assert!(out.sources.iter().all(|s| s.truncated && s.grains == 0));
            }
        }
        // A budget of 0 always gives an empty output.
        assert_eq!(run(&[5], Budget::new(0, BudgetUnit::Tokens), format).text, "");
    }
}

#[test]
fn envelope_fits_but_no_element_does() {
    // SML's envelope (<context intent="budget test">\n</context>) is about 10 tokens; a belief
    // line about 13. With 15 tokens the envelope is written and no element.
    let out = run(&[5], Budget::new(15, BudgetUnit::Tokens), FormatName::Sml);
    assert_eq!(out.text, "<context intent=\"budget test\">\n</context>");
    assert_eq!(out.sources[0].grains, 0);
    assert!(out.sources[0].truncated);
}

#[test]
fn reported_tokens_are_a_recount() {
    for format in [FormatName::Sml, FormatName::Toon, FormatName::Yaml, FormatName::Triples] {
        for budget in [50, 500, 4000] {
            let out = run(&[30, 30, 30, 30, 30], Budget::new(budget, BudgetUnit::Tokens), format);
            assert_eq!(out.tokens, tokens::count(&out.text), "{format:?} {budget}");
            assert!(out.tokens <= budget);
        }
    }
    let g = run(&[30, 30], Budget::new(10, BudgetUnit::Grains), FormatName::Markdown);
    assert_eq!(g.tokens, tokens::count(&g.text));
    assert!(g.sources.iter().all(|s| s.tokens_used > 0));
}
