//! The text a grain is embedded from (docs/spec-decisions-embed.md, X9): its searchable
//! projection, or the `chunk_text` of an `embedding_refs` entry made by the same model.

use cal_embed::grain_text;

fn grain(json: &str) -> oms::Grain {
    let mut grains = oms::tools::grains_from_jsonl(json).expect("a valid grain");
    grains.remove(0)
}

const BELIEF: &str = r#"{"type":"belief","subject":"alice","relation":"mg:prefers","object":"dark mode","confidence":0.9,"created_at":1770000000000,"source_type":"user_explicit","namespace":"team"}"#;

#[test]
fn a_grain_is_embedded_from_its_projection() {
    assert_eq!(grain_text(&grain(BELIEF), "any-model").as_deref(), Some("alice prefers dark mode"));
}

#[test]
fn the_chunk_text_of_the_same_model_is_honoured() {
    let with_ref = BELIEF.replace(
        r#""namespace":"team"}"#,
        r#""namespace":"team","embedding_refs":[
            {"vector_id":"v-1","model":"other-model","dimensions":3,"chunk_text":"not this one"},
            {"vector_id":"v-2","model":"bge-m3","dimensions":1024,"chunk_index":0,"chunk_text":"Alice likes dark themes"}]}"#,
    )
    .replace('\n', " ");
    let g = grain(&with_ref);
    assert_eq!(grain_text(&g, "bge-m3").as_deref(), Some("Alice likes dark themes"));
    assert_eq!(grain_text(&g, "other-model").as_deref(), Some("not this one"));
    assert_eq!(grain_text(&g, "e5").as_deref(), Some("alice prefers dark mode"), "no reference of this model");
}
