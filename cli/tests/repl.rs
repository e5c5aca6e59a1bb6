//! `cal repl`: read from a pipe it runs a script, line by line, with the commands `:help`
//! advertises; on a terminal (driven through tmux) it edits lines, recalls the last query
//! with Up, survives Ctrl-C (dropping the line typed, or cancelling the query running),
//! leaves on Ctrl-D and keeps its history in a file.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn stdout(args: &[&str], input: &str) -> String {
    let out = common::cal(args, input.as_bytes());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn a_piped_script_runs_its_queries_whatever_ends_them() {
    let out = stdout(&["repl"], "RECALL beliefs RECENT 1;\nRECALL beliefs\n  RECENT 2\n\nRECALL beliefs RECENT 3");
    assert_eq!(out.matches("-- recall:").count(), 3, "{out}");
    for n in ["1 shown of", "2 shown of", "3 shown of"] {
        assert!(out.contains(n), "{n}: {out}");
    }
}

#[test]
fn every_command_help_lists_exists() {
    let help = stdout(&["repl"], ":help\n");
    let commands: Vec<&str> =
        help.lines().filter_map(|l| l.split_whitespace().next()).filter(|w| w.starts_with(':') && *w != ":N").collect();
    assert!(commands.contains(&":next") && !help.contains(":cursor"), "{help}");
    for c in commands {
        let out = stdout(&["repl"], &format!("{c}\n"));
        assert!(!out.contains("unknown command"), "{c}: {out}");
    }
    assert!(stdout(&["repl"], ":cursor\n").contains("unknown command :cursor"));
}

#[test]
fn next_shows_the_next_page_of_the_last_query() {
    let out = stdout(&["repl"], "RECALL beliefs RECENT 1;\n:next\n:next\n");
    assert_eq!(out.matches("-- :next shows the next page").count(), 3, "{out}");
    let grains: Vec<&str> = out.lines().filter(|l| l.starts_with("[belief]")).collect();
    assert_eq!(grains.len(), 3, "{out}");
    assert!(grains[0] != grains[1] && grains[1] != grains[2], "three different pages: {out}");
    let out = stdout(&["repl"], ":next\n");
    assert!(out.contains("no next page"), "{out}");
}

/// A tmux server of the test's own (its own socket), killed when the test ends, passed or not.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn run(&self, args: &[&str]) -> std::process::Output {
        Command::new("tmux").arg("-L").arg(&self.socket).args(args).output().expect("tmux runs")
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "repl"];
        args.extend_from_slice(keys);
        let out = self.run(&args);
        assert!(out.status.success(), "send-keys {keys:?}: {}", String::from_utf8_lossy(&out.stderr));
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "repl"]).stdout).into_owned()
    }

    /// Polls the screen until `ready` holds, for at most [`PATIENCE`].
    fn wait(&self, what: &str, ready: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if ready(&screen) {
                return screen;
            }
            assert!(start.elapsed() < PATIENCE, "waited for {what}; the screen:\n{screen}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

/// The longest wait for the REPL to answer (a loaded machine; no timing is asserted).
const PATIENCE: Duration = Duration::from_secs(15);

fn tmux_available() -> bool {
    Command::new("tmux").arg("-V").output().is_ok_and(|o| o.status.success())
}

/// The last line of the screen that is not blank.
fn last_line(screen: &str) -> &str {
    screen.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("")
}

fn wait_for_file(path: &Path, what: &str) -> String {
    let start = Instant::now();
    loop {
        if let Ok(text) = std::fs::read_to_string(path)
            && text.ends_with('\n')
        {
            return text;
        }
        assert!(start.elapsed() < PATIENCE, "waited for {what} in {}", path.display());
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn on_a_terminal_up_recalls_ctrl_c_cancels_and_the_history_is_kept() {
    if !tmux_available() {
        assert!(std::env::var_os("CI").is_none(), "CI must have tmux for the REPL test");
        eprintln!("skipped: tmux is not installed");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let history: PathBuf = dir.path().join("history");
    let status = dir.path().join("status");
    let tmux = Tmux { socket: format!("cal-repl-test-{}", std::process::id()) };
    let script = r#""$0" repl --history "$1"; echo "exit $?" > "$2""#;
    let out = Command::new("tmux")
        .args(["-L", &tmux.socket, "-f", "/dev/null", "new-session", "-d", "-s", "repl", "-x", "100", "-y", "40"])
        .args(["sh", "-c", script, env!("CARGO_BIN_EXE_cal")])
        .arg(&history)
        .arg(&status)
        .env_remove("NO_COLOR")
        .env_remove("FORCE_COLOR")
        .output()
        .expect("tmux starts");
    assert!(out.status.success(), "tmux new-session: {}", String::from_utf8_lossy(&out.stderr));
    let answers = |n: usize| move |s: &str| s.matches("-- recall:").count() == n && last_line(s) == "cal>";
    tmux.wait("the prompt", |s| last_line(s) == "cal>");

    // A query ending with `;` (escaped: a trailing `;` separates tmux commands).
    tmux.keys(&["RECALL beliefs RECENT 1\\;", "Enter"]);
    tmux.wait("the first answer", answers(1));

    // Up recalls it; Enter runs it again.
    tmux.keys(&["Up"]);
    tmux.wait("the recalled query", |s| last_line(s) == "cal> RECALL beliefs RECENT 1;");
    tmux.keys(&["Enter"]);
    tmux.wait("the second answer", answers(2));

    // A query on two lines: Enter inside it starts a new line, a blank line ends it.
    tmux.keys(&["RECALL beliefs", "Enter"]);
    tmux.wait("the continuation prompt", |s| last_line(s) == "...>");
    tmux.keys(&["RECENT 2", "Enter", "Enter"]);
    let screen = tmux.wait("the multi-line answer", answers(3));
    assert!(screen.contains("2 shown of"), "{screen}");

    // Ctrl-C drops the line being typed; the REPL answers the next query.
    tmux.keys(&["RECALL bel"]);
    tmux.wait("the typed line", |s| last_line(s) == "cal> RECALL bel");
    tmux.keys(&["C-c"]);
    tmux.wait("a fresh prompt", |s| last_line(s) == "cal>");
    tmux.keys(&["RECALL beliefs RECENT 3\\;", "Enter"]);
    let screen = tmux.wait("the answer after Ctrl-C", answers(4));
    assert!(screen.contains("3 shown of"), "{screen}");

    // Ctrl-D on an empty line leaves with status 0 and the history is in the file.
    tmux.keys(&["C-d"]);
    assert_eq!(wait_for_file(&status, "the exit status").trim(), "exit 0");
    let kept = std::fs::read_to_string(&history).expect("the history file");
    let lines: Vec<&str> = kept.lines().collect();
    assert!(lines.contains(&"RECALL beliefs RECENT 1;"), "{kept}");
    assert!(lines.contains(&"RECALL beliefs RECENT 3;"), "{kept}");
    assert!(lines.iter().any(|l| l.starts_with("RECALL beliefs<\\n>RECENT 2")), "multi-line entry: {kept}");
    assert!(!lines.contains(&"RECALL bel"), "a cancelled line is not history: {kept}");
}

/// A memory whose MMR diversity over every grain takes seconds: `n` beliefs packed into a `.mg`.
fn slow_memory(dir: &Path, n: usize) -> PathBuf {
    let jsonl = dir.join("grains.jsonl");
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!(
            r#"{{"type":"belief","subject":"person-{i}","relation":"prefers","object":"object number {i} of a memory large enough to be slow","confidence":0.5,"created_at":{}}}"#,
            1_700_000_000_000_i64 + i as i64
        ));
        text.push('\n');
    }
    std::fs::write(&jsonl, text).expect("grains written");
    let mg = dir.join("slow.mg");
    let out = common::cal(&["mg", "pack", mg.to_str().unwrap(), "--jsonl", jsonl.to_str().unwrap()], b"");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    mg
}

/// Ctrl-C while a query runs cancels that query (CAL-E082 inside, "cancelled" on the screen),
/// and the session goes on: the next query is answered, Ctrl-D leaves with status 0.
#[test]
fn on_a_terminal_ctrl_c_cancels_the_running_query_and_the_repl_goes_on() {
    if !tmux_available() {
        assert!(std::env::var_os("CI").is_none(), "CI must have tmux for the REPL test");
        eprintln!("skipped: tmux is not installed");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let memory = slow_memory(dir.path(), 40_000);
    let status = dir.path().join("status");
    let tmux = Tmux { socket: format!("cal-repl-cancel-{}", std::process::id()) };
    // Ctrl-C reaches the whole foreground group, the wrapping shell too: it traps SIGINT (a
    // trap, unlike an ignored signal, is not inherited) so that it lives to write the status.
    let script = r#"trap : INT; "$0" repl --no-history --store "$1"; echo "exit $?" > "$2""#;
    let out = Command::new("tmux")
        .args(["-L", &tmux.socket, "-f", "/dev/null", "new-session", "-d", "-s", "repl", "-x", "120", "-y", "40"])
        .args(["sh", "-c", script, env!("CARGO_BIN_EXE_cal")])
        .arg(&memory)
        .arg(&status)
        .output()
        .expect("tmux starts");
    assert!(out.status.success(), "tmux new-session: {}", String::from_utf8_lossy(&out.stderr));
    // Loading 40,000 grains in a debug build on a busy machine: be patient (nothing is timed).
    let start = Instant::now();
    while last_line(&tmux.screen()) != "cal>" {
        assert!(start.elapsed() < Duration::from_secs(300), "no prompt:\n{}", tmux.screen());
        std::thread::sleep(Duration::from_millis(200));
    }

    // Diversity over every grain runs for seconds (up to the 5 s query timeout). Ctrl-C is
    // sent until the REPL says the query was cancelled: one that arrives before the query
    // starts finds nothing to cancel and is ignored.
    tmux.keys(&["RECALL beliefs WITH diversity(mmr, lambda = 0.5) | LIMIT 1000\\;", "Enter"]);
    let start = Instant::now();
    let screen = loop {
        std::thread::sleep(Duration::from_millis(300));
        let screen = tmux.screen();
        if screen.contains("-- cancelled") || screen.contains("time limit") || screen.contains("-- recall:") {
            break screen;
        }
        assert!(start.elapsed() < Duration::from_secs(120), "no answer:\n{screen}");
        tmux.keys(&["C-c"]);
    };
    assert!(screen.contains("-- cancelled (Ctrl-C)"), "the query was not cancelled:\n{screen}");
    tmux.wait("the prompt after cancelling", |s| last_line(s) == "cal>");

    // The session goes on: the next query is answered.
    tmux.keys(&["RECALL beliefs RECENT 1\\;", "Enter"]);
    let screen = tmux.wait("the answer after the cancelled query", |s| {
        s.matches("-- recall:").count() == 1 && last_line(s) == "cal>"
    });
    assert!(screen.contains("1 shown of"), "{screen}");
    tmux.keys(&["C-d"]);
    // Dropping 40,000 grains takes a while too.
    let start = Instant::now();
    while !std::fs::read_to_string(&status).is_ok_and(|t| t.ends_with('\n')) {
        assert!(start.elapsed() < Duration::from_secs(120), "the REPL did not leave:\n{}", tmux.screen());
        std::thread::sleep(Duration::from_millis(200));
    }
    assert_eq!(std::fs::read_to_string(&status).unwrap().trim(), "exit 0");
}
