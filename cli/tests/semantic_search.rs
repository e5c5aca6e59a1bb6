//! Hybrid, cross-lingual retrieval (§9.1, §16.4), as a user runs it: a real HTTP embedder on
//! loopback (`tests/embedder/embedder.py`, deterministic, multilingual), a store database
//! configured with `cal store embedder`, grains embedded on import, by backfill and on ADD,
//! and `cal run` ranking by keywords and vectors fused. Also the failures: an embedder that
//! is down, slow, or answers the wrong dimensions gives CAL-W901 and the keyword ranking.

mod common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use common::cal;
use serde_json::Value;

/// The test embedder, served on 127.0.0.1 for the life of the value.
struct Embedder {
    child: Child,
    port: u16,
}

impl Embedder {
    fn start() -> Embedder {
        let mut child = Command::new("python3")
            .arg(script())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("python3 runs the test embedder");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let port = line.trim().strip_prefix("listening ").and_then(|p| p.parse().ok()).expect("the embedder's port");
        Embedder { child, port }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }
}

impl Drop for Embedder {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/embedder/embedder.py")
}

fn demo_mg() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../interp/demo/demo.mg").to_str().unwrap().to_string()
}

fn ok(args: &[&str]) -> String {
    let out = cal(args, b"");
    assert!(out.status.success(), "cal {args:?}: {}\n{}", out.status, String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&ok(args)).unwrap()
}

const MODEL: &str = "cal-test-multilingual";

/// A database of the demo memory with the test embedder configured (`model`) before the
/// import, so that the import embeds.
fn store(dir: &Path, embedder: &Embedder, model: &str, extra: &[&str]) -> String {
    let db = dir.join(format!("{model}.db")).to_str().unwrap().to_string();
    ok(&["store", "init", &db]);
    let url = embedder.url();
    let mut args = vec![
        "store",
        "embedder",
        &db,
        "--url",
        &url,
        "--model",
        model,
        "--dimensions",
        "64",
        "--languages",
        "en,fr,es,de,ja",
    ];
    if !extra.contains(&"--timeout-ms") {
        // Generous: CI machines are shared, and a slow answer is not what these tests are about.
        args.extend_from_slice(&["--timeout-ms", "30000"]);
    }
    args.extend_from_slice(extra);
    ok(&args);
    ok(&["store", "import", &db, &demo_mg()]);
    db
}

/// The `--embed-*` flags naming the test embedder as a command (`--stdio`), with time to
/// spare on a loaded machine (python starts once per batch).
fn command_embedder(command: &str) -> [&str; 8] {
    ["--embed-command", command, "--embed-model", MODEL, "--embed-dimensions", "64", "--embed-timeout-ms", "60000"]
}

/// A database of the demo memory without an embedder.
fn plain_store(dir: &Path) -> String {
    let db = dir.join("plain.db").to_str().unwrap().to_string();
    ok(&["store", "init", &db]);
    ok(&["store", "import", &db, &demo_mg()]);
    db
}

fn recall(db: &str, query: &str) -> Value {
    json(&["run", "--store", db, "--no-timing", query])
}

fn addresses(response: &Value) -> Vec<String> {
    response["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["content_address"].as_str().unwrap()[..12].to_string())
        .collect()
}

fn warning_codes(response: &Value) -> Vec<String> {
    response["_cal"]["warnings"]
        .as_array()
        .map(|w| w.iter().map(|d| d["code"].as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

/// The demo memory's meeting preferences.
const MEETINGS: [&str; 3] = ["aaabf44ff1af", "9eaa3090642d", "c772e4c5d031"];

#[test]
fn meeting_preferences_are_found_in_five_languages() {
    let embedder = Embedder::start();
    let dir = tempfile::tempdir().unwrap();
    let db = store(dir.path(), &embedder, MODEL, &[]);
    let plain = &plain_store(dir.path());
    for phrase in ["préférences de réunions", "preferencias de reuniones", "Vorlieben für Besprechungen", "会議の好み"]
    {
        let query = format!("RECALL beliefs LIKE \"{phrase}\"");
        let found = addresses(&recall(&db, &query));
        assert_eq!(found, MEETINGS, "{phrase}: the meeting preferences, best first");
        // Keywords alone find nothing in another language: the embedder is what finds them.
        assert!(addresses(&recall(plain, &query)).is_empty(), "{phrase} without an embedder");
    }
    let english = addresses(&recall(&db, "RECALL beliefs LIKE \"meeting preferences\""));
    assert_eq!(english[..3], MEETINGS, "English finds them first too");
}

#[test]
fn structural_about_is_unchanged_and_answers_are_byte_identical() {
    let embedder = Embedder::start();
    let dir = tempfile::tempdir().unwrap();
    let db = store(dir.path(), &embedder, MODEL, &[]);
    let plain = &plain_store(dir.path());
    for q in ["RECALL beliefs ABOUT \"alice\"", "RECALL goals ABOUT \"erin\" | LIMIT 3", "RECALL events RECENT 5"] {
        assert_eq!(
            ok(&["run", "--store", &db, "--no-timing", q]),
            ok(&["run", "--store", plain, "--no-timing", q]),
            "{q}"
        );
    }
    let q = "RECALL beliefs LIKE \"réunions dark mode\" WITH score_breakdown";
    assert_eq!(ok(&["run", "--store", &db, "--no-timing", q]), ok(&["run", "--store", &db, "--no-timing", q]), "§17.4");
}

#[test]
fn keyword_only_and_vector_only_hits_both_survive_with_their_components() {
    let embedder = Embedder::start();
    let dir = tempfile::tempdir().unwrap();
    let db = store(dir.path(), &embedder, MODEL, &[]);
    // "helix" is a word of one grain and of no concept; "réunions" is a concept no English
    // keyword shares.
    let r = recall(&db, "RECALL beliefs LIKE \"helix réunions\" WITH score_breakdown");
    let results = r["results"].as_array().unwrap();
    let by = |prefix: &str| {
        results.iter().find(|x| x["content_address"].as_str().unwrap().starts_with(prefix)).unwrap_or_else(|| {
            panic!("{prefix} was dropped: {r:#}");
        })
    };
    let helix = &by("3ad0e6f1f954")["score_breakdown"];
    assert_eq!(helix["method"], "hybrid_rrf");
    assert!(helix["text_relevance"].as_f64().unwrap() > 0.0 && helix["vector_similarity"].is_null(), "{helix}");
    let meeting = &by("9eaa3090642d")["score_breakdown"];
    assert!(meeting["text_relevance"].is_null() && meeting["vector_similarity"].as_f64().unwrap() >= 0.5, "{meeting}");
    assert_eq!(meeting["rrf_k"], 60.0);
    assert!(by("9eaa3090642d")["matched_fields"].as_array().unwrap().iter().any(|f| f == "embedding"));
}

#[test]
fn describe_reports_the_embedder_truthfully() {
    let embedder = Embedder::start();
    let dir = tempfile::tempdir().unwrap();
    let db = store(dir.path(), &embedder, MODEL, &[]);
    let caps = &recall(&db, "DESCRIBE capabilities")["capabilities"];
    assert_eq!(caps["cross_lingual_search"], true);
    assert_eq!(caps["embedding_model"], MODEL);
    assert_eq!(caps["supported_languages"], serde_json::json!(["en", "fr", "es", "de", "ja"]));
    let demo = &json(&["run", "DESCRIBE capabilities"])["capabilities"];
    assert_eq!(demo["cross_lingual_search"], false);
    assert!(demo["embedding_model"].is_null());
}

#[test]
fn backfill_is_resumable_and_idempotent_and_a_new_model_is_not_mixed_in() {
    let embedder = Embedder::start();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("late.db");
    let db = db.to_str().unwrap();
    ok(&["store", "init", db]);
    ok(&["store", "import", db, &demo_mg()]);
    let url = embedder.url();
    ok(&["store", "embedder", db, "--url", &url, "--model", MODEL, "--dimensions", "64", "--timeout-ms", "30000"]);
    let first = json(&["store", "embed", db]);
    assert_eq!(first["embedded"], 283, "every grain of the demo memory has text: {first}");
    assert_eq!(first["without_text"], 0, "{first}");
    let again = json(&["store", "embed", db]);
    assert_eq!((again["embedded"].as_u64(), again["already"].as_u64()), (Some(0), Some(283)), "{again}");
    // Another model: none of the old vectors count for it, and they are not used.
    ok(&[
        "store",
        "embedder",
        db,
        "--url",
        &url,
        "--model",
        "other-model",
        "--dimensions",
        "64",
        "--timeout-ms",
        "30000",
    ]);
    let shown = json(&["store", "embedder", db]);
    assert_eq!(shown["embedded"], 0, "{shown}");
    assert_eq!(shown["vectors_by_model"][format!("{MODEL}@64")], 283, "{shown}");
    let before = recall(db, "RECALL beliefs LIKE \"préférences de réunions\"");
    assert!(addresses(&before).is_empty(), "no vector of other-model yet: {before}");
    assert_eq!(json(&["store", "embed", db])["embedded"], 283);
    assert_eq!(addresses(&recall(db, "RECALL beliefs LIKE \"préférences de réunions\"")), MEETINGS);
}

#[test]
fn a_failing_embedder_gives_w901_and_the_keyword_ranking() {
    let embedder = Embedder::start();
    let dir = tempfile::tempdir().unwrap();
    let db = store(dir.path(), &embedder, MODEL, &[]);
    let keywords = "RECALL beliefs LIKE \"meeting preferences\"";
    let plain = plain_store(dir.path());
    let plain_order = addresses(&recall(&plain, keywords));
    // Wrong dimensions: configured without the check that would have refused it.
    let url = embedder.url();
    let wrong = dir.path().join("wrong.db");
    let wrong = wrong.to_str().unwrap();
    ok(&["store", "init", wrong]);
    ok(&["store", "import", wrong, &demo_mg()]);
    let refused = cal(&["store", "embedder", wrong, "--url", &url, "--model", "wrong-dims", "--dimensions", "64"], b"");
    assert_eq!(refused.status.code(), Some(2), "the check refuses it");
    assert!(String::from_utf8_lossy(&refused.stderr).contains("65 dimensions"), "{refused:?}");
    ok(&["store", "embedder", wrong, "--url", &url, "--model", "wrong-dims", "--dimensions", "64", "--no-check"]);
    let r = recall(wrong, keywords);
    assert_eq!(warning_codes(&r), ["CAL-W901"], "{r}");
    assert!(r["_cal"]["warnings"][0]["message"].as_str().unwrap().contains("wrong_dimensions"), "{r}");
    assert_eq!(addresses(&r), plain_order, "the keyword ranking, whole");

    // Slow: the embedder's own timeout ends the wait.
    let slow = store(dir.path(), &embedder, "slow", &["--timeout-ms", "300", "--no-check"]);
    let r = recall(&slow, keywords);
    assert!(r["_cal"]["warnings"][0]["message"].as_str().unwrap().contains("timeout"), "{r}");
    assert_eq!(addresses(&r), plain_order);

    // Down: the server is gone.
    drop(embedder);
    let r = recall(&db, keywords);
    assert_eq!(warning_codes(&r), ["CAL-W901"], "{r}");
    assert!(r["_cal"]["warnings"][0]["message"].as_str().unwrap().contains("unavailable"), "{r}");
    assert_eq!(addresses(&r), plain_order);
    // A store without an embedder never warns.
    assert!(warning_codes(&recall(&plain, keywords)).is_empty());
}

#[test]
fn mg_stores_take_an_http_or_a_command_embedder_from_the_command_line() {
    let embedder = Embedder::start();
    let url = embedder.url();
    let q = "RECALL beliefs LIKE \"préférences de réunions\"";
    let by_http = json(&[
        "run",
        "--store",
        &demo_mg(),
        "--no-timing",
        "--embed-url",
        &url,
        "--embed-model",
        MODEL,
        "--embed-dimensions",
        "64",
        "--embed-timeout-ms",
        "60000",
        q,
    ]);
    assert_eq!(addresses(&by_http), MEETINGS);
    let command = format!("python3 {} --stdio", script().display());
    let by_command = json(&[&["run", "--no-timing"][..], &command_embedder(&command), &[q]].concat());
    assert_eq!(addresses(&by_command), MEETINGS, "the demo memory, embedded by a command");
    let refused = cal(&["run", "--embed-url", &url, q], b"");
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--embed-model"));
}

#[test]
fn a_grain_added_through_prepare_and_execute_is_found_by_meaning_at_once() {
    let embedder = Embedder::start();
    let dir = tempfile::tempdir().unwrap();
    let db = store(dir.path(), &embedder, MODEL, &[]);
    let key = dir.path().join("server.key");
    let key = key.to_str().unwrap();
    ok(&["key", "new", key]);
    let token = ok(&[
        "token",
        "issue",
        "--key",
        key,
        "--namespace",
        "team",
        "--user",
        "gina",
        "--tier",
        "1",
        "--types",
        "belief",
        "--quota",
        "5",
        "--ttl",
        "1h",
        "--max-uses",
        "10",
    ]);
    let token = token.trim();
    let add = "ADD belief SET subject = \"gina\" SET relation = \"prefers\" SET object = \"short standup meetings\" REASON \"told us\"";
    let prepared = ok(&["prepare", "--store", &db, "--token", token, "--key", key, add]);
    let file = dir.path().join("prepared.json");
    std::fs::write(&file, prepared).unwrap();
    let done = json(&["execute", "--store", &db, "--key", key, file.to_str().unwrap()]);
    assert!(done["_cal"]["warnings"].is_null(), "embedded without a warning: {done}");
    let found = recall(&db, "RECALL beliefs LIKE \"préférences de réunions\" IN \"team\"");
    let subjects: Vec<&str> =
        found["results"].as_array().unwrap().iter().map(|r| r["grain"]["subject"].as_str().unwrap()).collect();
    assert_eq!(subjects, ["gina"], "{found}");
}

#[test]
fn the_conformance_suite_runs_its_cross_lingual_cases_only_with_an_embedder() {
    let command = format!("python3 {} --stdio", script().display());
    let only = ["conformance", "run", "--only", "execute.cross-lingual", "--json"];
    let with = cal(&[&only[..], &command_embedder(&command)].concat(), b"");
    assert!(with.status.success(), "{}", String::from_utf8_lossy(&with.stdout));
    let report: Value = serde_json::from_slice(&with.stdout).unwrap();
    let extended = &report["levels"]["extended"];
    assert_eq!((extended["passed"].as_u64(), extended["not_applicable"].as_u64()), (Some(7), Some(0)), "{report:#}");
    let without = cal(&only, b"");
    let report: Value = serde_json::from_slice(&without.stdout).unwrap();
    let extended = &report["levels"]["extended"];
    assert_eq!((extended["passed"].as_u64(), extended["not_applicable"].as_u64()), (Some(0), Some(7)), "{report:#}");
}
