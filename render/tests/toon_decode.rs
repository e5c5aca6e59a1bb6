//! Our TOON decoded by the official implementation (`@toon-format/toon`, strict mode, through
//! `tests/toon-decode/decode.mjs`) gives back the values we meant: the JSON format's data for
//! the same elements. RECALL and ASSEMBLE, every grain type, every disclosure level.
//!
//! Needs node and `npm ci --prefix render/tests/toon-decode` (see render/build.rs); without
//! them the test is reported as ignored with that reason. Under `CI=true` it always runs.
//!
//! Every text is decoded exactly as we emit it. §10.9.3 prints RECALL rows at depth 0, which
//! TOON v3 decoders reject ("Expected N tabular rows, but got 0"); we indent them under their
//! header as TOON v3 requires (the erratum is in docs/spec-decisions-render.md).

mod common;

use cal_grammar::{FormatName, GrainType};
use cal_render::formats::{self, Doc};
use cal_render::project::{Element, project};
use cal_render::{AssembleRequest, Budget, BudgetUnit, Output, Project, ProjectionOptions, SourceInput, assemble};
use cal_render::{GrainInput, render_recall, render_recall_of};
use common::{LEVELS, TYPES, grains, opts, toon_decode as decode};
use serde_json::Value;

/// The JSON format's data for `els`: what the TOON rows must decode to.
fn meant(els: &[Element]) -> Vec<Value> {
    match formats::json::value(Doc::Recall(els)) {
        Value::Array(a) => a,
        _ => Vec::new(),
    }
}

/// Each decoded row against the JSON object of the same element: every column the row has is
/// a key of the element with an equal value (a column the element lacks decodes to null), and
/// `content` is always there.
fn check_rows(what: &str, rows: &[Value], want: &[Value]) {
    assert_eq!(rows.len(), want.len(), "{what}: row count");
    for (row, w) in rows.iter().zip(want) {
        let (Some(row), Some(w)) = (row.as_object(), w.as_object()) else { panic!("{what}: not objects") };
        assert_eq!(row.get("content"), w.get("content"), "{what}: content");
        for (k, v) in row {
            match (w.get(k), v) {
                (None, Value::Null) => {}
                (Some(Value::Number(a)), Value::Number(b)) => assert_eq!(a.as_f64(), b.as_f64(), "{what}: {k}"),
                (Some(x), v) => assert_eq!(x, v, "{what}: column {k}"),
                (None, v) => panic!("{what}: column {k} = {v} is not in the JSON data {w:?}"),
            }
        }
    }
}

#[test]
#[cfg_attr(not(toon_node), ignore = "needs node and `npm ci --prefix render/tests/toon-decode`")]
fn recall_toon_decodes_to_the_json_data() {
    let mut texts = Vec::new();
    let mut cases = Vec::new();
    for kind in TYPES {
        for (level, name) in LEVELS {
            let o = opts(level);
            let els: Vec<Element> = grains(kind).iter().map(|g| project(g, &o)).collect();
            let text = formats::render(FormatName::Toon, Doc::Recall(&els), &o);
            assert!(text.lines().skip(1).all(|l| l.starts_with("  ")), "rows indented under the header");
            texts.push(text);
            cases.push((format!("RECALL {kind} {name}"), els));
        }
    }
    for (r, (what, els)) in decode(&texts).into_iter().zip(&cases) {
        let v = r.unwrap_or_else(|e| panic!("{what}: the official decoder rejects our TOON: {e}"));
        let obj = v.as_object().unwrap_or_else(|| panic!("{what}: {v}"));
        assert_eq!(obj.len(), 1, "{what}: one keyed array");
        let (key, rows) = obj.iter().next().unwrap_or_else(|| panic!("{what}"));
        assert_eq!(key, &els[0].group, "{what}");
        check_rows(what, rows.as_array().map_or(&[][..], Vec::as_slice), &meant(els));
    }
}

#[test]
#[cfg_attr(not(toon_node), ignore = "needs node and `npm ci --prefix render/tests/toon-decode`")]
fn assemble_toon_decodes_to_the_json_data() {
    let mut texts = Vec::new();
    let mut cases = Vec::new();
    for (level, name) in LEVELS {
        // Every type in its own source, plus a mixed source and a type repeated across sources.
        let mut sources: Vec<SourceInput> =
            TYPES.iter().map(|t| SourceInput { label: format!("{t}_source"), grains: grains(t) }).collect();
        let mixed = vec![grains("belief")[0].clone(), grains("goal")[0].clone(), grains("belief")[1].clone()];
        sources.push(SourceInput { label: "mixed".into(), grains: mixed });
        let req = AssembleRequest {
            name: "agent_context".into(),
            intent: Some("review: \"Q1\", metrics".into()),
            sources: sources.clone(),
            budget: Budget::new(16_000, BudgetUnit::Tokens),
            output: Output::Format(FormatName::Toon),
            projection: opts(level),
        };
        let out = assemble(&req);
        assert!(out.sources.iter().all(|s| !s.truncated), "{name}: everything fits");
        texts.push(out.text.clone());
        cases.push((name, req, out.tokens));
    }
    for (r, (name, req, tokens)) in decode(&texts).into_iter().zip(&cases) {
        let v = r.unwrap_or_else(|e| panic!("ASSEMBLE {name}: the official decoder rejects our TOON: {e}"));
        let obj = v.as_object().unwrap_or_else(|| panic!("{v}"));
        assert_eq!(obj["context"], "agent_context");
        assert_eq!(obj["intent"], "review: \"Q1\", metrics");
        assert_eq!(obj["tokens"], format!("{tokens}/16000"));
        // Groups: per source, one per type in order of first appearance (§10.9.4).
        let mut want: Vec<Vec<Value>> = Vec::new();
        for s in &req.sources {
            let els: Vec<Element> = s.grains.iter().map(|g| project(g, &req.projection)).collect();
            let mut types: Vec<&str> = Vec::new();
            for e in &els {
                if !types.contains(&e.tag.as_str()) {
                    types.push(&e.tag);
                }
            }
            for t in types {
                let same: Vec<Element> = els.iter().filter(|e| e.tag == t).cloned().collect();
                want.push(meant(&same));
            }
        }
        let groups: Vec<&Value> = obj
            .iter()
            .filter(|(k, _)| !matches!(k.as_str(), "context" | "intent" | "tokens"))
            .map(|(_, v)| v)
            .collect();
        assert_eq!(groups.len(), want.len(), "ASSEMBLE {name}: groups {:?}", obj.keys().collect::<Vec<_>>());
        for (i, (g, w)) in groups.iter().zip(&want).enumerate() {
            check_rows(&format!("ASSEMBLE {name} group {i}"), g.as_array().map_or(&[][..], Vec::as_slice), w);
        }
    }
}

#[test]
#[cfg_attr(not(toon_node), ignore = "needs node and `npm ci --prefix render/tests/toon-decode`")]
fn empty_recall_toon_is_a_header_that_decodes_to_no_rows() {
    let mut texts = Vec::new();
    let mut cases = Vec::new();
    for t in GrainType::ALL {
        for (level, name) in LEVELS {
            let (text, n) = render_recall_of(Some(*t), &[], FormatName::Toon, &opts(level));
            assert!(text.starts_with(&format!("{}[0]", t.plural())) && text.ends_with(':'), "{text}");
            assert_eq!(n, cal_render::tokens::count(&text));
            texts.push(text);
            cases.push((format!("empty RECALL {} {name}", t.plural()), Some(t.plural())));
        }
    }
    let (untyped, _) = render_recall(&[], FormatName::Toon, &opts(LEVELS[1].0));
    assert_eq!(untyped, "[0]:");
    texts.push(untyped);
    cases.push(("empty RECALL of no type".into(), None));
    for (r, (what, key)) in decode(&texts).into_iter().zip(&cases) {
        let v = r.unwrap_or_else(|e| panic!("{what}: the official decoder rejects our TOON: {e}"));
        match key {
            Some(k) => assert_eq!(v, serde_json::json!({ *k: [] }), "{what}"),
            None => assert_eq!(v, serde_json::json!([]), "{what}"),
        }
    }
}

#[test]
#[cfg_attr(not(toon_node), ignore = "needs node and `npm ci --prefix render/tests/toon-decode`")]
fn multi_type_and_projected_recall_toon_decode_as_is() {
    let all: Vec<GrainInput> = TYPES.iter().flat_map(|t| grains(t)).collect();
    let o = opts(LEVELS[1].0);
    let (mixed, _) = render_recall(&all, FormatName::Toon, &o);
    let spec = Project { content: vec!["object".into()], attrs: vec!["subject".into(), "confidence".into()] };
    let po = ProjectionOptions { project: Some(spec), ..o.clone() };
    let (projected, _) = render_recall(&grains("belief"), FormatName::Toon, &po);
    assert!(projected.starts_with("beliefs[2]{content,subject,confidence}:\n  "), "{projected}");
    let decoded = decode(&[mixed, projected]);
    let mut it = decoded.into_iter();
    let mixed = it.next().and_then(Result::ok).unwrap_or_else(|| panic!("multi-type RECALL rejected"));
    let obj = mixed.as_object().unwrap_or_else(|| panic!("{mixed}"));
    assert_eq!(obj.len(), TYPES.len(), "one keyed array per type");
    for (kind, (key, rows)) in TYPES.iter().zip(obj) {
        let els: Vec<Element> = grains(kind).iter().map(|g| project(g, &o)).collect();
        assert_eq!(key, &els[0].group);
        check_rows(&format!("multi-type RECALL {kind}"), rows.as_array().map_or(&[][..], Vec::as_slice), &meant(&els));
    }
    let projected = it.next().and_then(Result::ok).unwrap_or_else(|| panic!("projected RECALL rejected"));
    let rows = projected["beliefs"].as_array().cloned().unwrap_or_default();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["content"], "dark mode, always");
    assert_eq!(rows[1]["subject"], "bob");
}
