//! The one-pass check accepts what the encoder writes (so a bulk load never falls back to
//! re-encoding a sound grain); that it accepts nothing else is `tests/canon_oracle.rs`.

use super::is_canonical_msgpack;
use crate::DEFAULT_MAX_DEPTH;
use crate::grain::{Grain, decode};

fn accepted(g: &Grain) -> bool {
    let blob = g.encode().expect("encodes").bytes;
    let back = decode(&blob).expect("decodes");
    is_canonical_msgpack(&blob, &back, DEFAULT_MAX_DEPTH)
}

#[test]
fn the_benchmark_grains_pass_in_one_pass() {
    for i in 0..300 {
        let g = Grain::from_json(&crate::synthetic::mixed_grain(i, 1_772_798_400_000)).expect("valid");
        assert!(accepted(&g), "grain {i}");
    }
}

#[test]
fn nested_references_actions_and_wide_values_pass_in_one_pass() {
    let long = "x".repeat(70_000);
    let grains = [
        serde_json::json!({"type": "action", "tool_name": "t", "input": {"b": 1, "a": [null, 2]},
            "content": {"k": -40, "big": 5_000_000_000_u64, "neg": -3_000_000_000_i64}, "is_error": false,
            "created_at": 1_700_000_000_000_i64}),
        serde_json::json!({"type": "belief", "subject": "é", "relation": "r", "object": long,
            "confidence": 0.25, "created_at": 1_700_000_000_000_i64,
            "related_to": [{"hash": "ab".repeat(32), "relation_type": "supports", "weight": 0.5}],
            "content_refs": [{"uri": "https://example.org/a", "modality": "image", "mime_type": "image/png"}]}),
        serde_json::json!({"type": "event", "content": "hi", "created_at": 0,
            "structural_tags": (0..20).map(|i| format!("t{i}")).collect::<Vec<_>>()}),
    ];
    for j in grains {
        let g = Grain::from_json(&j).expect("valid");
        assert!(accepted(&g), "{j}");
    }
}
