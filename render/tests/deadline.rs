//! Rendering stops at the caller's deadline (issue 19): formatting, budget fitting and
//! token counting look at `oms::interrupt`'s deadline as the store's loops do. With a
//! deadline already passed, the work stops short (the interpreter then answers CAL-E031 or
//! E075 and never shows the text); without one, nothing changes. Only what is returned is
//! asserted, never how long anything took.

use cal_grammar::FormatName;
use cal_render::{
    AssembleRequest, Budget, BudgetUnit, GrainInput, Output, ProjectionOptions, SourceInput, assemble, render_recall,
    tokens,
};
use serde_json::json;
use std::time::Instant;

const NOW: i64 = 1_773_565_200_000;

fn belief(i: usize) -> GrainInput {
    cal_interp::fields::grain_input_from_json(
        &json!({"type": "belief", "subject": format!("s{i}"), "relation": "mg:knows", "object": format!("fact number {i}"),
               "confidence": 0.5, "created_at": NOW - 60_000}),
        1.0,
        "sha256:00",
    )
    .expect("a grain")
}

fn request(n: usize, format: FormatName) -> AssembleRequest {
    AssembleRequest {
        name: "ctx".into(),
        intent: Some("deadline".into()),
        sources: vec![
            SourceInput { label: "a".into(), grains: (0..n).map(belief).collect() },
            SourceInput { label: "b".into(), grains: (n..2 * n).map(belief).collect() },
        ],
        budget: Budget::new(16_000, BudgetUnit::Tokens),
        output: Output::Format(format),
        projection: ProjectionOptions { now_ms: NOW, ..Default::default() },
    }
}

#[test]
fn a_passed_deadline_stops_assembly_recall_rendering_and_counting() {
    let grains: Vec<GrainInput> = (0..3_000).map(belief).collect();
    let opts = ProjectionOptions { now_ms: NOW, ..Default::default() };
    for format in [FormatName::Markdown, FormatName::Sml, FormatName::Json, FormatName::Toon] {
        let req = request(2_000, format);
        let whole = assemble(&req);
        let (text, count) = render_recall(&grains, format, &opts);
        assert!(!whole.text.is_empty() && count == tokens::count(&text), "{format:?}: no deadline, the whole answer");
        let _scope = oms::interrupt::within(Instant::now());
        let stopped = assemble(&req);
        assert!(stopped.text.is_empty() && stopped.sources.is_empty(), "{format:?}: assembly stopped");
        let (short, _) = render_recall(&grains, format, &opts);
        assert!(short.len() < text.len(), "{format:?}: the recall rendered fewer grains than it was given");
        // Counting a long text past the deadline gives up on the exact count.
        assert_ne!(tokens::count(&text), count, "{format:?}: counting stopped");
    }
}
