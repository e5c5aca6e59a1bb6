//! When diagnostics follow an edit (issue 20): at once when the document's analysis is cheap,
//! after a quiet period when it is not, so that a burst of edits costs one analysis; both
//! settable from `initializationOptions`. The tests pin the behaviour, not the timing (the
//! latency is measured in docs/performance-lsp.md): they run on tokio's paused clock, which
//! moves only when every task waits on a timer, so "at once" is exactly zero virtual time and
//! a quiet period is exactly its length, however loaded the machine.

mod common;

use cal_lsp::server::Config;
use common::Client;
use serde_json::{Value, json};
use std::time::Duration;
use tokio::time::Instant;

const URI: &str = "file:///tmp/delay.cal";

fn versions_published(notifications: &[Value]) -> Vec<i64> {
    notifications
        .iter()
        .filter(|m| m["method"] == "textDocument/publishDiagnostics")
        .filter_map(|m| m["params"]["version"].as_i64())
        .collect()
}

fn codes(diagnostics: &Value) -> Vec<&str> {
    diagnostics["diagnostics"].as_array().unwrap().iter().filter_map(|d| d["code"].as_str()).collect()
}

const HOVER: fn() -> Value = || json!({"textDocument": {"uri": URI}, "position": {"line": 0, "character": 1}});

/// A cheap document is analyzed on the edit itself: with a quiet period of ten seconds, the
/// diagnostics of each version come without the clock moving, and the request sent after the
/// edit is answered on the current analysis.
#[tokio::test(flavor = "current_thread", start_paused = true)]
async fn cheap_edits_publish_at_once() {
    let mut c = Client::start_with(Config { debounce: Duration::from_secs(10), ..Config::default() });
    c.initialize(&["utf-16"]).await;
    c.open(URI, "RECALL beliefs").await;
    assert_eq!(codes(&c.diagnostics(Some(1)).await), Vec::<&str>::new());
    for (version, text, code) in
        [(2, "RECALL facts", Some("CAL-E003")), (3, "RECALL beliefs", None), (4, "RECALL goalz", Some("CAL-E003"))]
    {
        let edited = Instant::now();
        c.replace(URI, version, text).await;
        c.request("textDocument/hover", HOVER()).await;
        let d = c.diagnostics(Some(version)).await;
        assert_eq!(edited.elapsed(), Duration::ZERO, "version {version} waited");
        assert_eq!(codes(&d), code.into_iter().collect::<Vec<_>>());
        assert_eq!(versions_published(&c.notifications), Vec::<i64>::new());
    }
}

/// The same through `initializationOptions`: a server started with the adaptive path off is
/// switched to "at once" by the client.
#[tokio::test(flavor = "current_thread", start_paused = true)]
async fn initialization_options_choose_the_delay() {
    let mut c = Client::start_with(Config { debounce: Duration::from_secs(10), immediate_below: Duration::ZERO });
    c.initialize_with(&["utf-16"], json!({"immediateBelowMs": 10_000})).await;
    c.open(URI, "RECALL beliefs").await;
    c.diagnostics(Some(1)).await;
    let edited = Instant::now();
    c.replace(URI, 2, "RECALL facts").await;
    assert_eq!(codes(&c.diagnostics(Some(2)).await), vec!["CAL-E003"]);
    assert_eq!(edited.elapsed(), Duration::ZERO);
}

/// Debounced edits coalesce: three quick edits to a document analyzed only after a quiet
/// period give one analysis, of the last version, a quiet period after the last edit; the
/// earlier versions are never published.
#[tokio::test(flavor = "current_thread", start_paused = true)]
async fn debounced_edits_coalesce() {
    let quiet = Duration::from_millis(1_000);
    let mut c = Client::start_with(Config::default());
    c.initialize_with(&["utf-16"], json!({"immediateBelowMs": 0, "debounceMs": 1_000})).await;
    c.open(URI, "RECALL beliefs").await;
    c.diagnostics(Some(1)).await;
    c.replace(URI, 2, "RECALL facts").await;
    c.replace(URI, 3, "RECALL goalz").await;
    c.replace(URI, 4, "RECALL goals WHERE goal_state = \"active\"").await;
    let edited = Instant::now();
    c.request("textDocument/hover", HOVER()).await;
    let d = c.diagnostics(Some(4)).await;
    assert_eq!(edited.elapsed(), quiet);
    assert_eq!(codes(&d), Vec::<&str>::new());
    // Past every quiet period: only version 4 was ever published.
    tokio::time::sleep(2 * quiet).await;
    c.request("shutdown", json!(null)).await;
    assert_eq!(versions_published(&c.notifications), Vec::<i64>::new(), "{:?}", c.notifications);
}
