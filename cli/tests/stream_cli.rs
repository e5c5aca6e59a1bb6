//! `cal run --stream`: an ASSEMBLE's events as NDJSON on standard output (§11.3's fallback
//! binding), on the built-in demo memory.

use std::process::{Command, Output};

use serde_json::Value as Json;

fn cal(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cal")).args(args).output().expect("cal runs")
}

fn lines(out: &Output) -> Vec<Json> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not one JSON object per line: {l:?}: {e}")))
        .collect()
}

fn types(lines: &[Json]) -> Vec<&str> {
    lines.iter().map(|l| l["type"].as_str().unwrap_or("(response)")).collect()
}

const QUERY: &str = r#"ASSEMBLE alice_context FOR "helping alice"
  FROM prefs: (RECALL beliefs ABOUT "alice"), goals: (RECALL goals ABOUT "alice")
  BUDGET 300 tokens PRIORITY prefs > goals FORMAT sml"#;

#[test]
fn stream_prints_one_event_per_line_in_causal_order() {
    let q = format!("{QUERY} STREAM {{ all, chunk_size = 30 }}");
    let out = cal(&["run", "--stream", "--no-timing", &q]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let events = lines(&out);
    let t = types(&events);
    assert_eq!(t.first(), Some(&"assembly_started"));
    assert_eq!(t.last(), Some(&"assembly_completed"));
    assert!(t.iter().filter(|k| **k == "chunk").count() > 2, "{t:?}");
    let ids: Vec<&str> = events.iter().map(|e| e["assembly_id"].as_str().unwrap()).collect();
    assert!(ids.windows(2).all(|w| w[0] == w[1]));
    // The chunks are the text `cal run` prints without --stream.
    let whole = cal(&["run", "--no-timing", &q]);
    let response: Json = serde_json::from_slice(&whole.stdout).unwrap();
    let chunks: String = events.iter().filter_map(|e| e["content"].as_str()).collect();
    assert_eq!(chunks, response["formatted_context"]["text"].as_str().unwrap());
    assert!(response["_cal"]["notes"].to_string().contains("STREAM"), "without --stream the STREAM clause is noted");
}

#[test]
fn stream_options_filter_and_a_plain_assemble_streams_everything() {
    let out = cal(&["run", "--stream", &format!("{QUERY} STREAM {{ chunks }}")]);
    assert!(types(&lines(&out)).iter().all(|k| *k == "chunk"));
    let out = cal(&["run", "--stream", QUERY]);
    let events = lines(&out);
    let t = types(&events);
    for k in ["assembly_started", "source_completed", "budget_allocated", "disclosure_decided", "chunk"] {
        assert!(t.contains(&k), "{k}: {t:?}");
    }
}

#[test]
fn other_queries_print_their_response_as_one_line() {
    let out = cal(&["run", "--stream", "--no-timing", &format!(r#"RECALL goals ABOUT "alice" | LIMIT 1; {QUERY}"#)]);
    assert!(out.status.success());
    let all = lines(&out);
    assert_eq!(all[0]["_cal"]["statement_type"], "recall");
    assert_eq!(all[1]["type"], "assembly_started");
}

#[test]
fn a_failed_assembly_ends_with_an_error_event_and_exit_1() {
    let bad = "(RECALL events THREAD FROM sha256:00000000deadbeef)";
    let out = cal(&["run", "--stream", &format!("ASSEMBLE c FROM a: {bad}, b: {bad} STREAM")]);
    assert_eq!(out.status.code(), Some(1));
    let events = lines(&out);
    let last = events.last().unwrap();
    assert_eq!((last["type"].as_str(), last["error"]["code"].as_str()), (Some("error"), Some("CAL-E076")));
    assert!(String::from_utf8_lossy(&out.stderr).contains("CAL-E076"));
}

#[test]
fn stream_and_format_do_not_mix() {
    let out = cal(&["run", "--stream", "--format", "text", QUERY]);
    assert_eq!(out.status.code(), Some(2));
}
