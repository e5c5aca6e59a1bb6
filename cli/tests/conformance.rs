//! The protocol path of the conformance suite, end to end: `cal conformance
//! adapter` as a real subprocess must give the same outcome for every case as
//! the in-process run; deliberately broken adapters must be certified at no
//! level, restarted after a crash, and cut off by the timeout.

use cal_conformance::inprocess::InProcess;
use cal_conformance::runner::{self, Outcome, RunOptions, Status};
use cal_conformance::subprocess::Subprocess;
use cal_conformance::{Case, Implementation, Kind, certify, load_corpus};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

const CAL: &str = env!("CARGO_BIN_EXE_cal");

fn conformance_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance")
}

fn selftest() -> (Vec<Case>, RunOptions) {
    let data = conformance_dir().join("tests/data");
    let corpus = load_corpus(&data.join("cases"));
    assert!(corpus.errors.is_empty(), "{:#?}", corpus.errors);
    (corpus.cases, RunOptions { fixtures_dir: data.join("fixtures"), max_level: None, ..RunOptions::default() })
}

fn adapter(extra: &str) -> Subprocess {
    Subprocess::new(&format!("'{CAL}' conformance adapter {extra}"), Duration::from_secs(20))
}

fn key(o: &Outcome) -> (String, Status, Vec<String>) {
    (
        o.id.clone(),
        o.status,
        o.mismatches.iter().map(|m| format!("{}: {} / {}", m.what, m.expected, m.actual)).collect(),
    )
}

#[test]
fn the_adapter_subprocess_gives_the_in_process_outcome_for_every_case() {
    let (mut cases, opts) = selftest();
    // A slice of the real corpus as well: every kind, the fixtures it names.
    let real = load_corpus(&conformance_dir().join("cases"));
    for kind in Kind::ALL {
        cases.extend(real.cases.iter().filter(|c| c.kind() == kind).take(60).cloned());
    }
    let real_opts =
        RunOptions { fixtures_dir: conformance_dir().join("fixtures"), max_level: None, ..RunOptions::default() };
    let (mine, real_cases): (Vec<Case>, Vec<Case>) =
        cases.into_iter().partition(|c| c.id.starts_with("t.") || c.id.starts_with("gen."));
    let mut inproc = InProcess::new();
    let mut sub = adapter("");
    let hello = sub.hello().expect("the adapter says hello");
    assert_eq!(hello.level, inproc.hello().expect("hello").level);
    let mut a = runner::run(&mut inproc, &mine, &opts);
    a.extend(runner::run(&mut inproc, &real_cases, &real_opts));
    let mut b = runner::run(&mut sub, &mine, &opts);
    b.extend(runner::run(&mut sub, &real_cases, &real_opts));
    assert_eq!(a.len(), b.len());
    let differ: Vec<_> = a.iter().zip(&b).filter(|(x, y)| key(x) != key(y)).map(|(x, y)| (key(x), key(y))).collect();
    assert!(differ.is_empty(), "in-process and protocol outcomes differ: {differ:#?}");
    assert_eq!(sub.starts(), 1, "the adapter never crashed");
    assert!(
        b.iter().all(|o| o.status != Status::Errored),
        "{:#?}",
        b.iter().filter(|o| o.status == Status::Errored).collect::<Vec<_>>()
    );
}

#[test]
fn an_adapter_that_accepts_everything_is_certified_at_no_level() {
    let (cases, opts) = selftest();
    let mut sub = adapter("--broken accept-all");
    let hello = sub.hello().expect("hello");
    assert!(hello.name.contains("broken"));
    let outcomes = runner::run(&mut sub, &cases, &opts);
    let summary = certify::summarize(hello.level, &outcomes);
    assert_eq!(summary.certified, None);
    assert!(!summary.declared_certified());
    let failed = |id: &str| outcomes.iter().find(|o| o.id == id).map(|o| (o.status, o.mismatches.clone()));
    // A query that must be rejected is accepted: the failure says so.
    let (status, mismatches) = failed("t.parse.err.009").expect("case exists");
    assert_eq!(status, Status::Failed);
    assert_eq!(mismatches[0].what, "accept");
    // An encode that gives nothing fails on the blob, an execute with no results on the results.
    assert_eq!(failed("t.mg.enc.001").expect("case").1[0].what, "hex");
    assert_eq!(failed("t.exec.001").expect("case").1[0].what, "results");
    assert!(summary.level(cal_conformance::Level::Core).failed >= 30, "{:?}", summary.levels);
}

#[test]
fn the_command_line_reports_the_broken_adapter_and_exits_1() {
    let data = conformance_dir().join("tests/data");
    let run = |extra: &[&str]| {
        Command::new(CAL)
            .args(["conformance", "run"])
            .args(extra)
            .arg("--adapter")
            .arg(format!("'{CAL}' conformance adapter --broken accept-all"))
            .arg("--cases")
            .arg(data.join("cases"))
            .arg("--fixtures")
            .arg(data.join("fixtures"))
            .output()
            .expect("cal runs")
    };
    let out = run(&[]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("certified level: none"), "{text}");
    let json = run(&["--json"]);
    let summary: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(cal_conformance::report::validate_line(&summary), Ok(()));
    assert!(summary["failures"].as_array().is_some_and(|f| f.len() > 30));
    assert!(text.contains("t.parse.err.009") && text.contains("expected false, got true"), "{text}");
}

#[test]
fn the_command_line_certifies_our_toolchain_on_the_self_test_corpus() {
    let data = conformance_dir().join("tests/data");
    let report = std::env::temp_dir().join(format!("cal-conformance-{}.jsonl", std::process::id()));
    let out = Command::new(CAL)
        .args(["conformance", "run", "--json", "--cases"])
        .arg(data.join("cases"))
        .arg("--fixtures")
        .arg(data.join("fixtures"))
        .arg("--report")
        .arg(&report)
        .output()
        .expect("cal runs");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).expect("--json prints JSON");
    assert_eq!(summary["certified_level"], "full");
    assert_eq!(summary["declared_level"], "evolve");
    let lines = std::fs::read_to_string(&report).expect("the report is written");
    let _ = std::fs::remove_file(&report);
    assert!(lines.lines().next().is_some_and(|l| l.contains("\"type\":\"header\"")));
    assert!(lines.lines().last().is_some_and(|l| l.contains("\"type\":\"summary\"")));
}

#[test]
fn an_adapter_that_crashes_is_restarted_and_the_case_is_errored() {
    let (cases, opts) = selftest();
    let mut sub = adapter("--broken 'crash-on=RECALL facts'");
    let outcomes = runner::run(&mut sub, &cases, &opts);
    let crashed: Vec<&Outcome> = outcomes.iter().filter(|o| o.status == Status::Errored).collect();
    assert!(!crashed.is_empty());
    for o in &crashed {
        assert!(o.message.as_deref().unwrap_or("").contains("crash"), "{o:?}");
    }
    assert!(crashed.iter().any(|o| o.id == "t.parse.err.009"));
    assert!(sub.starts() >= 2, "restarted after the crash");
    // Cases after the crash, including execute cases whose fixture was reloaded, still pass.
    let after = outcomes.iter().filter(|o| o.status == Status::Passed).count();
    assert!(after >= outcomes.len() - crashed.len(), "{outcomes:#?}");
    assert!(outcomes.iter().any(|o| o.id == "t.exec.015" && o.status == Status::Passed));
}

#[test]
fn an_adapter_that_hangs_hits_the_timeout() {
    let (cases, opts) = selftest();
    let few: Vec<Case> = cases.into_iter().filter(|c| c.id.starts_with("t.parse.")).take(12).collect();
    let mut sub = Subprocess::new(
        &format!("'{CAL}' conformance adapter --broken 'hang-on=DELETE beliefs'"),
        Duration::from_millis(1500),
    );
    let outcomes = runner::run(&mut sub, &few, &opts);
    let hung = outcomes.iter().find(|o| o.id == "t.parse.err.011").expect("the DELETE case ran");
    assert_eq!(hung.status, Status::Errored);
    assert!(hung.message.as_deref().unwrap_or("").contains("timeout"), "{hung:?}");
    let last = outcomes.last().expect("cases ran");
    assert_eq!(last.status, Status::Passed, "the adapter was restarted: {last:?}");
}

#[test]
fn an_adapter_that_writes_garbage_gets_errored_cases_not_a_panic() {
    let (cases, opts) = selftest();
    let few: Vec<Case> = cases.into_iter().filter(|c| c.id.starts_with("t.parse.")).take(12).collect();
    let mut sub = adapter("--broken 'garbage-on=RECALL facts'");
    let outcomes = runner::run(&mut sub, &few, &opts);
    let bad = outcomes.iter().find(|o| o.id == "t.parse.err.009").expect("ran");
    assert_eq!(bad.status, Status::Errored);
    assert!(bad.message.as_deref().unwrap_or("").contains("not JSON"), "{bad:?}");
    assert!(outcomes.iter().filter(|o| o.id != bad.id).all(|o| o.status == Status::Passed));
}

#[test]
fn stats_counts_the_corpus_against_the_grammar_registry() {
    let data = conformance_dir().join("tests/data");
    let out = Command::new(CAL)
        .args(["conformance", "stats", "--json", "--cases"])
        .arg(data.join("cases"))
        .output()
        .expect("cal runs");
    assert_eq!(out.status.code(), Some(0));
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let per_code = s["per_code"].as_object().expect("per_code");
    assert_eq!(per_code.len(), cal_grammar::Code::ALL.len(), "every registry code is listed");
    assert!(per_code["CAL-E003"].as_u64() >= Some(1));
    assert!(s["codes_under_minimum"].as_array().is_some_and(|a| !a.is_empty()));
    assert_eq!(s["per_kind"]["mg"], 15);
    assert_eq!(s["limits_17_3"]["MAX_IN_SET"]["generated"], 2);
    assert!(s["per_keyword"]["RECALL"].as_u64() >= Some(3));
    let text =
        Command::new(CAL).args(["conformance", "stats", "--cases"]).arg(data.join("cases")).output().expect("cal runs");
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("error and warning codes:") && text.contains("§17.3 limits"), "{text}");
}

#[test]
fn a_crash_during_an_execute_case_reloads_the_fixture_after_the_restart() {
    let (cases, opts) = selftest();
    let exec: Vec<Case> = cases.into_iter().filter(|c| c.kind() == Kind::Execute).collect();
    let mut sub = adapter("--broken 'crash-on=RECALL goals'");
    let outcomes = runner::run(&mut sub, &exec, &opts);
    let crashed = outcomes.iter().find(|o| o.id == "t.exec.004").expect("the goals case ran");
    assert_eq!(crashed.status, Status::Errored);
    assert_eq!(sub.starts(), 2);
    let rest: Vec<_> = outcomes.iter().filter(|o| o.id != "t.exec.004").collect();
    assert!(rest.iter().all(|o| o.status == Status::Passed), "{rest:#?}");
}

#[test]
fn seeds_writes_one_file_per_case_and_target() {
    let data = conformance_dir().join("tests/data");
    let out_dir = std::env::temp_dir().join(format!("cal-seeds-{}", std::process::id()));
    let out = Command::new(CAL)
        .args(["conformance", "seeds"])
        .arg(&out_dir)
        .arg("--cases")
        .arg(data.join("cases"))
        .output()
        .expect("cal runs");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let read = |p: &str| std::fs::read(out_dir.join(p));
    assert_eq!(read("parse_bytes/case-t.parse.ok.001").expect("a text seed"), b"RECALL beliefs ABOUT \"alice\"");
    assert_eq!(
        read("check_run/case-t.exec.001").expect("an execute query"),
        b"RECALL beliefs WHERE subject = \"alice\""
    );
    let blob = read("mg_decode/case-t.mg.err.009").expect("an mg seed");
    assert_eq!(blob[0], 0, "mode byte 0: a blob");
    assert!(read("json_roundtrip/case-t.wire.err.011").is_ok());
    let _ = std::fs::remove_dir_all(&out_dir);
}

/// An engine that reports every CAL-E code on every rejected query (our adapter,
/// wrapped by `tests/adapters/sprays_codes.py`) is certified at no level: a negative
/// case passes only when its code is the first error and no other code is reported.
#[test]
fn an_adapter_that_sprays_every_code_is_certified_at_no_level() {
    let corpus = load_corpus(&conformance_dir().join("cases"));
    let rejects: Vec<Case> = corpus
        .cases
        .into_iter()
        .filter(|c| matches!(&c.body, cal_conformance::case::Body::Parse(p) if matches!(p.expect, cal_conformance::case::ParseExpect::Reject { .. })))
        .filter(|c| c.level == cal_conformance::Level::Core)
        .collect();
    assert!(rejects.len() > 100, "{} core negative cases", rejects.len());
    let opts = real_opts();
    let mut sub = wrapped("sprays_codes.py");
    let hello = sub.hello().expect("the wrapped adapter says hello");
    let outcomes = runner::run(&mut sub, &rejects, &opts);
    let summary = certify::summarize(hello.level, &outcomes);
    assert_eq!(summary.certified, None);
    let failed = outcomes.iter().filter(|o| o.status == Status::Failed).count();
    assert_eq!(failed, outcomes.len(), "every negative case must fail for a code-spraying engine");
    // The same cases through the honest adapter all pass.
    let mut honest = adapter("");
    let outcomes = runner::run(&mut honest, &rejects, &opts);
    assert!(
        outcomes.iter().all(|o| o.status == Status::Passed),
        "{:?}",
        outcomes.iter().find(|o| o.status != Status::Passed)
    );
}

/// A hung adapter cannot make a run last hours: one that never answers is given up after
/// a few timeouts in a row, one that hangs on every other case is cut off by the run's
/// deadline; the cases not run are errored (so nothing is certified), and say why.
#[test]
fn a_hanging_adapter_ends_within_the_deadline_and_is_not_certified() {
    let (cases, base) = selftest();
    let script = conformance_dir().join("tests/adapters/hangs.py");
    for (mode, opts) in [
        ("all", RunOptions { max_consecutive_timeouts: Some(3), ..base.clone() }),
        ("half", RunOptions { deadline: Some(Duration::from_secs(3)), ..base.clone() }),
    ] {
        let mut sub = Subprocess::new(
            &format!("python3 '{}' {mode} '{CAL}' conformance adapter", script.display()),
            Duration::from_millis(300),
        );
        let hello = sub.hello().expect("hello");
        let started = std::time::Instant::now();
        let outcomes = runner::run(&mut sub, &cases, &opts);
        let took = started.elapsed();
        assert!(took < Duration::from_secs(20), "{mode}: the run took {took:?}");
        assert_eq!(outcomes.len(), cases.len());
        assert_eq!(certify::summarize(hello.level, &outcomes).certified, None, "{mode}");
        let not_run =
            outcomes.iter().filter(|o| o.message.as_deref().is_some_and(|m| m.starts_with("not run:"))).count();
        assert!(not_run > 0, "{mode}: the run never gave up");
        assert!(outcomes.iter().filter(|o| o.status == Status::Errored).count() >= not_run);
    }
}

/// An engine that accepts the §2.4 excluded words (our adapter, wrapped by
/// `tests/adapters/accepts_excluded.py`) is certified at no level: each of the 29 words
/// is tested as a statement, in lower case, as a pipeline stage and in a subquery.
#[test]
fn an_adapter_that_accepts_the_excluded_words_is_certified_at_no_level() {
    let corpus = load_corpus(&conformance_dir().join("cases"));
    let core: Vec<Case> = corpus
        .cases
        .into_iter()
        .filter(|c| c.level == cal_conformance::Level::Core && c.kind() == Kind::Parse)
        .collect();
    let opts = real_opts();
    let mut sub = wrapped("accepts_excluded.py");
    let hello = sub.hello().expect("the wrapped adapter says hello");
    let outcomes = runner::run(&mut sub, &core, &opts);
    assert_eq!(certify::summarize(hello.level, &outcomes).certified, None);
    let failed_words: std::collections::BTreeSet<&str> = outcomes
        .iter()
        .filter(|o| o.status == Status::Failed)
        .filter_map(|o| o.id.strip_prefix("gen.excluded.")?.split('.').next())
        .collect();
    assert_eq!(failed_words.len(), cal_grammar::vocab::ExcludedWord::ALL.len(), "{failed_words:?}");
}

/// Our adapter wrapped by a deliberately broken one (`conformance/tests/adapters/SCRIPT`).
fn wrapped(script: &str) -> Subprocess {
    let script = conformance_dir().join("tests/adapters").join(script);
    Subprocess::new(&format!("python3 '{}' '{CAL}' conformance adapter", script.display()), Duration::from_secs(20))
}

/// Options for the repository's corpus and fixtures.
fn real_opts() -> RunOptions {
    RunOptions { fixtures_dir: conformance_dir().join("fixtures"), max_level: None, ..RunOptions::default() }
}

/// The whole corpus run against our adapter wrapped by `conformance/tests/adapters/SCRIPT`
/// (extra arguments before the wrapped command), with the limits it declares.
fn certify_wrapped(script: &str, args: &[&str]) -> (cal_conformance::protocol::Hello, Vec<Outcome>, certify::Summary) {
    let path = conformance_dir().join("tests/adapters").join(script);
    let args: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    let mut sub = Subprocess::new(
        &format!("python3 '{}' {} '{CAL}' conformance adapter", path.display(), args.join(" ")),
        Duration::from_secs(20),
    );
    let hello = sub.hello().expect("the wrapped adapter says hello");
    let mut corpus = load_corpus(&conformance_dir().join("cases"));
    assert!(corpus.errors.is_empty(), "{:#?}", corpus.errors);
    cal_conformance::adapt_limits(&mut corpus, &hello.limits);
    let opts = RunOptions { max_consecutive_timeouts: Some(5), lacks: hello.lacks.clone(), ..real_opts() };
    let outcomes = runner::run(&mut sub, &corpus.cases, &opts);
    let summary = certify::summarize(hello.level, &outcomes);
    (hello, outcomes, summary)
}

/// The ids of the cases of `level` that did not pass.
fn not_passed(outcomes: &[Outcome], level: cal_conformance::Level) -> Vec<&Outcome> {
    outcomes.iter().filter(|o| o.level == level && !o.should_case && o.status != Status::Passed).collect()
}

/// An engine that answers with addresses and counts only — no formatted text, PROJECT,
/// EXPLAIN plan or DESCRIBE content — certifies Core and fails Extended and Full, on the
/// rendered-output cases (`execute.rendered.*`).
#[test]
fn an_adapter_that_returns_only_addresses_fails_extended_and_full() {
    use cal_conformance::Level::{Core, Extended, Full};
    let (_, outcomes, summary) = certify_wrapped("addresses_only.py", &[]);
    assert_eq!(summary.certified, Some(Core), "{:?}", summary.levels);
    let rendered =
        |level| not_passed(&outcomes, level).into_iter().filter(|o| o.id.starts_with("execute.rendered.")).count();
    assert!(rendered(Extended) >= 20, "formats, ASSEMBLE FORMAT, EXPLAIN and DESCRIBE: {}", rendered(Extended));
    assert!(rendered(Full) >= 3, "PROJECT and DESCRIBE templates: {}", rendered(Full));
    let whats: std::collections::BTreeSet<&str> = outcomes
        .iter()
        .filter(|o| o.id.starts_with("execute.rendered."))
        .flat_map(|o| o.mismatches.iter().map(|m| m.what.as_str()))
        .collect();
    for what in ["/formatted contains", "/formatted_context/text contains", "/plan is", "response mentions"] {
        assert!(whats.contains(what), "{what} not among {whats:?}");
    }
}

/// An engine whose reads write to its store while it reports equal digests is refused at
/// Core: after each case the runner reads the store back and finds grains that were not there.
#[test]
fn an_adapter_that_lies_about_its_store_is_caught_by_reading_the_store_back() {
    let (_, outcomes, summary) = certify_wrapped("lies_digest.py", &[]);
    assert_eq!(summary.certified, None);
    // Every execute case that ran: those needing what the engine lacks were not run.
    let execute: Vec<&Outcome> =
        outcomes.iter().filter(|o| o.kind == Kind::Execute && o.status != Status::NotApplicable).collect();
    let caught = execute
        .iter()
        .filter(|o| o.mismatches.iter().any(|m| m.what == "store unchanged (read back)" && m.source == "§2.1"))
        .count();
    assert_eq!(caught, execute.len(), "every execute case sees the receipts its engine wrote");
    assert!(
        outcomes.iter().flat_map(|o| &o.mismatches).all(|m| m.what != "store unchanged (reported digests)"),
        "the digests it reported were equal: only the read-back caught it"
    );
    assert!(!not_passed(&outcomes, cal_conformance::Level::Core).is_empty());
}

/// The right code at the wrong position certifies (position is a SHOULD of §22.1), and its
/// SHOULD score shows the fault: every position check fails.
#[test]
fn an_adapter_with_the_right_code_at_the_wrong_position_certifies_but_its_should_score_shows_it() {
    let (hello, outcomes, summary) = certify_wrapped("wrong_position.py", &[]);
    assert!(summary.declared_certified(), "{:?}", summary.levels);
    assert!(summary.certified.is_some_and(|c| c >= hello.level), "{:?}", summary.levels);
    let positions: Vec<bool> =
        outcomes.iter().flat_map(|o| &o.should).filter(|c| c.check == "position").map(|c| c.passed).collect();
    assert!(positions.len() > 500, "{}", positions.len());
    assert!(positions.iter().all(|p| !p), "every position is one off");
    assert!(summary.should.checks_passed < summary.should.checks / 2, "{:?}", summary.should);
}

/// The right grains in the wrong order fail §17.4's determinism, a Core guarantee.
#[test]
fn an_adapter_that_reverses_result_order_is_refused_at_core() {
    let (_, outcomes, summary) = certify_wrapped("reversed_order.py", &[]);
    assert_eq!(summary.certified, None);
    let core = not_passed(&outcomes, cal_conformance::Level::Core);
    assert!(!core.is_empty());
    for o in core {
        let whats: Vec<&str> = o.mismatches.iter().map(|m| m.what.as_str()).collect();
        assert_eq!(whats, ["results (ordered)"], "{}: the same grains, only their order differs", o.id);
    }
}

/// An adapter that crashes halfway and then cannot start again: the run ends promptly, the
/// cases before the crash keep their results, every later case is errored, nothing certifies.
#[test]
fn an_adapter_that_crashes_halfway_ends_the_run_cleanly() {
    let marker = std::env::temp_dir().join(format!("cal-crashed-{}", std::process::id()));
    let _ = std::fs::remove_file(&marker);
    let started = std::time::Instant::now();
    let (_, outcomes, summary) = certify_wrapped("crashes_halfway.py", &["3500", &marker.display().to_string()]);
    let took = started.elapsed();
    let _ = std::fs::remove_file(&marker);
    assert!(took < Duration::from_secs(120), "the run took {took:?}");
    assert_eq!(summary.certified, None);
    let first_errored = outcomes.iter().position(|o| o.status == Status::Errored).expect("it crashed");
    assert!(first_errored > 1500, "the first half ran: {first_errored}");
    assert!(outcomes[..first_errored].iter().all(|o| o.status != Status::Errored));
    let after = &outcomes[first_errored..];
    assert!(after.len() > 1500, "the second half: {}", after.len());
    assert!(after.iter().all(|o| o.status == Status::Errored), "every later case is errored");
    assert!(after.iter().all(|o| o.message.is_some()), "with the reason");
}

/// A correct engine that lays its canonical text out differently certifies what our toolchain
/// certifies (canonical text is compared by re-parsing, §15.3); the ruling score for our
/// layout shows the difference (C14).
#[test]
fn an_adapter_with_another_canonical_layout_certifies_and_its_ruling_score_shows_it() {
    let (hello, outcomes, summary) = certify_wrapped("relaid_canonical.py", &[]);
    assert!(summary.declared_certified(), "{:?}", summary.levels);
    assert!(summary.certified.is_some_and(|c| c >= hello.level), "{:?}", summary.levels);
    let layout = summary.rulings.by_ruling[cal_conformance::compare::CANONICAL_LAYOUT_RULING];
    assert!(layout.passed < layout.checks && layout.checks > 1000, "{layout:?}");
    assert!(outcomes.iter().flat_map(|o| &o.mismatches).all(|m| m.what != "canonical" && m.what != "text"));
}

/// An engine that answers Core in text only — no JSON form, no serialize — certifies Core
/// (§24 lists the JSON form under Extended) and nothing above.
#[test]
fn an_adapter_answering_core_in_text_only_certifies_core() {
    let (hello, outcomes, summary) = certify_wrapped("core_text_only.py", &[]);
    assert_eq!(hello.level, cal_conformance::Level::Core);
    assert!(summary.declared_certified(), "{:?}", not_passed(&outcomes, cal_conformance::Level::Core));
    assert_eq!(summary.certified, Some(cal_conformance::Level::Core));
    let json_forms = outcomes.iter().filter(|o| o.id.ends_with(".json-form") && o.status == Status::Failed).count();
    assert!(json_forms >= 180, "the Extended JSON-form cases fail: {json_forms}");
}

/// `--summary-md` and `--summary-json` write the summary fit to publish: a badge line with the
/// certified level, the per-level table, the SHOULD and ruling scores, the cases not passed;
/// the JSON is valid against `schema/summary.schema.json` and its badge is a shields.io
/// endpoint. A broken engine's badge says "none", a filtered run's "not certified".
#[test]
fn the_published_summary_has_a_badge_the_table_and_the_failures() {
    let data = conformance_dir().join("tests/data");
    let dir = std::env::temp_dir().join(format!("cal-summary-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let run = |name: &str, extra: &[&str]| {
        let (md, js) = (dir.join(format!("{name}.md")), dir.join(format!("{name}.json")));
        let out = Command::new(CAL)
            .args(["conformance", "run", "--cases"])
            .arg(data.join("cases"))
            .arg("--fixtures")
            .arg(data.join("fixtures"))
            .args(extra)
            .arg("--summary-md")
            .arg(&md)
            .arg("--summary-json")
            .arg(&js)
            .output()
            .expect("cal runs");
        let md = std::fs::read_to_string(&md).expect("the Markdown summary is written");
        let js: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&js).expect("the JSON summary is written")).expect("JSON");
        assert_eq!(cal_conformance::publish::validate_summary(&js), Ok(()), "{name}");
        (out.status.code(), md, js)
    };
    let (code, md, js) = run("ours", &[]);
    assert_eq!(code, Some(0));
    assert!(md.starts_with("# CAL conformance: cal (reference toolchain)"), "{md}");
    assert!(
        md.contains("![CAL conformance: full](https://img.shields.io/badge/CAL%20conformance-full-brightgreen)"),
        "{md}"
    );
    assert!(md.contains("**Certified: Full** (declared: evolve)") && md.contains("| Core |"), "{md}");
    assert!(md.contains("**Project rulings**") && md.contains("Every case passed."), "{md}");
    assert_eq!(
        js["badge"],
        serde_json::json!({"schemaVersion": 1, "label": "CAL conformance", "message": "full", "color": "brightgreen"})
    );
    assert_eq!(js["implementation"]["declared_level"], "evolve");
    assert_eq!(js["failures"], serde_json::json!([]));

    let broken = format!("'{CAL}' conformance adapter --broken accept-all");
    let (code, md, js) = run("broken", &["--adapter", &broken]);
    assert_eq!(code, Some(1));
    assert!(md.contains("![CAL conformance: none]") && md.contains("**Certified: none**"), "{md}");
    assert!(md.contains("## Cases not passed") && md.contains("- `t.parse.err.009` (parse, core): failed"), "{md}");
    assert!(md.contains("accept (§"), "each failure names its source: {md}");
    assert!(js["failures"].as_array().is_some_and(|f| f.len() > 30));
    assert_eq!(js["badge"]["color"], "red");

    let (_, md, js) = run("filtered", &["--only", "t.mg."]);
    assert!(md.contains("**Not certified**: a filtered run (--only t.mg.)"), "{md}");
    assert_eq!(js["badge"]["message"], "not certified (filtered run)");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An engine without an injectable clock that says so in `hello` gets the clock-dependent
/// cases reported as not applicable, with the reason, and certifies the rest; the same engine
/// saying nothing fails them (C20).
#[test]
fn a_capability_declared_missing_makes_its_cases_not_applicable_not_failed() {
    let (hello, outcomes, summary) = {
        let path = conformance_dir().join("tests/adapters/no_clock.py");
        let mut sub = Subprocess::new(
            &format!("python3 '{}' declare '{CAL}' conformance adapter", path.display()),
            Duration::from_secs(20),
        );
        let hello = sub.hello().expect("hello");
        let corpus = load_corpus(&conformance_dir().join("cases"));
        let opts = RunOptions { lacks: hello.lacks.clone(), ..real_opts() };
        let outcomes = runner::run(&mut sub, &corpus.cases, &opts);
        let summary = certify::summarize(hello.level, &outcomes);
        (hello, outcomes, summary)
    };
    // Cross-lingual search is opt-in, and our adapter runs without an embedder.
    use cal_conformance::capability::Capability::{Clock, CrossLingualSearch};
    assert_eq!(hello.lacks, [Clock, CrossLingualSearch]);
    assert!(summary.declared_certified(), "{:?}", summary.levels);
    let na: Vec<&Outcome> = outcomes.iter().filter(|o| o.status == Status::NotApplicable).collect();
    assert!(na.len() >= 40, "{}", na.len());
    assert!(na.iter().all(|o| {
        o.message.as_deref().is_some_and(|m| m.contains("needs clock") || m.contains("needs cross_lingual_search"))
    }));
    assert!(summary.level(cal_conformance::Level::Core).not_applicable > 0);
    assert!(summary.not_applicable_certified() >= 40);
    assert!(cal_conformance::publish::badge(&summary)["message"].as_str().is_some_and(|m| m.ends_with("n/a)")));
    let (_, _, silent) = certify_wrapped("no_clock.py", &["silent"]);
    assert_eq!(silent.certified, None, "without the declaration the same cases fail");
}

#[test]
fn an_installed_binary_runs_the_embedded_corpus_with_no_source_tree_at_hand() {
    // As after `cargo install`: the binary alone, in a directory of its own, run from there.
    let home = tempfile::tempdir().expect("a temporary directory");
    let cal = home.path().join(if cfg!(windows) { "cal.exe" } else { "cal" });
    std::fs::copy(CAL, &cal).expect("the binary copied");
    let out = Command::new(&cal)
        .args(["conformance", "run", "--report", "report.jsonl", "--summary-json", "summary.json"])
        .current_dir(home.path())
        .output()
        .expect("cal runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("certified level: full"), "{text}");
    assert!(text.contains("corpus: embedded,"), "{text}");
    let report = std::fs::read_to_string(home.path().join("report.jsonl")).expect("the report");
    let header: serde_json::Value = serde_json::from_str(report.lines().next().unwrap()).expect("JSON");
    assert_eq!(cal_conformance::report::validate_line(&header), Ok(()));
    let repo = cal_conformance::embedded::Provenance::of_dir(&conformance_dir().join("cases"), "json").unwrap();
    let fixtures = cal_conformance::embedded::Provenance::of_dir(&conformance_dir().join("fixtures"), "mg").unwrap();
    assert_eq!(header["corpus"]["source"], "embedded");
    assert_eq!(header["corpus"]["digest"], repo.digest.as_str(), "the repository's corpus was embedded");
    assert_eq!(header["corpus"]["fixtures"]["digest"], fixtures.digest.as_str());
    assert_eq!(header["corpus_errors"], 0);
    assert!(header["cases"].as_u64().is_some_and(|n| n > 5_000), "{header}");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(home.path().join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["suite"]["corpus"]["digest"], repo.digest.as_str());
    // The same from the copied binary serving as an adapter, a slice of every kind.
    let out = Command::new(&cal)
        .args(["conformance", "run", "--json", "--only", "parse.stmt.", "--only", "execute.where.", "--only", "mg."])
        .arg("--adapter")
        .arg(format!("'{}' conformance adapter", cal.display()))
        .current_dir(home.path())
        .output()
        .expect("cal runs");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    let stats = Command::new(&cal).args(["conformance", "stats", "--json"]).current_dir(home.path()).output().unwrap();
    assert_eq!(stats.status.code(), Some(0));
}

#[test]
fn corpus_names_a_directory_instead_of_the_embedded_copy() {
    let data = conformance_dir().join("tests/data");
    let out = Command::new(CAL)
        .args(["conformance", "run", "--corpus"])
        .arg(data.join("cases"))
        .arg("--fixtures")
        .arg(data.join("fixtures"))
        .output()
        .expect("cal runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains(&format!("corpus: {},", data.join("cases").display())), "{text}");
    let missing = Command::new(CAL).args(["conformance", "run", "--corpus", "/nonexistent/cases"]).output().unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no corpus directory at /nonexistent/cases"));
}

#[test]
fn examples_writes_the_published_appendix_b_pairs() {
    let out = Command::new(CAL).args(["conformance", "examples"]).output().expect("cal runs");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let published = std::fs::read(conformance_dir().join("cal-examples.json")).expect("the published file");
    assert!(out.stdout == published, "conformance/cal-examples.json differs from `cal conformance examples`");
}

/// The walkthrough of docs/conformance.md: its Python adapter, with `cal` as the engine,
/// passes every required Core `parse` case; and the `parse` function the page shows is the
/// adapter's own, word for word.
#[test]
fn the_walkthrough_adapter_passes_every_core_parse_case() {
    let adapter = conformance_dir().join("tests/adapters/walkthrough.py");
    let out = Command::new(CAL)
        .args(["conformance", "run", "--only", "parse", "--level", "core", "--json", "--adapter"])
        .arg(format!("python3 '{}' '{CAL}'", adapter.display()))
        .output()
        .expect("cal runs");
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).expect("--json prints JSON");
    let core = &summary["levels"]["core"];
    assert!(core["required"].as_u64().unwrap_or(0) > 500, "{core}");
    assert_eq!(core["passed"], core["required"], "{core}");
    let page = std::fs::read_to_string(conformance_dir().join("../docs/conformance.md")).expect("the page");
    let shown = page.split("```python\n").nth(1).and_then(|s| s.split("```").next()).expect("a python block");
    let code = std::fs::read_to_string(&adapter).expect("the adapter");
    assert!(code.contains(shown), "docs/conformance.md shows a parse() that is not the adapter's");
}

/// The transport codes (CAL-E079, E081) are reached through the `http` member of an execute
/// request (ruling C24): `cal conformance adapter` sends them to our server on loopback and
/// passes every case; the in-process engine, which has no server, declares `http` missing and
/// gets them reported not applicable.
#[test]
fn the_http_cases_pass_through_the_adapter_and_are_not_applicable_in_process() {
    let real = load_corpus(&conformance_dir().join("cases"));
    let cases: Vec<Case> = real.cases.into_iter().filter(|c| c.id.starts_with("execute.transport-")).collect();
    for code in ["E079", "E081"] {
        let n = cases.iter().filter(|c| c.tags.iter().any(|t| t == code)).count();
        assert!(n >= 5, "{code}: {n} cases");
    }
    let opts = RunOptions { fixtures_dir: conformance_dir().join("fixtures"), ..RunOptions::default() };
    let mut sub = adapter("");
    let hello = sub.hello().expect("the adapter says hello");
    let cross_lingual = cal_conformance::capability::Capability::CrossLingualSearch;
    assert_eq!(hello.lacks, [cross_lingual], "everything but the opt-in cross-lingual search");
    let outcomes = runner::run(&mut sub, &cases, &opts);
    assert!(outcomes.iter().all(|o| o.status == Status::Passed), "{outcomes:#?}");
    assert!(outcomes.iter().all(|o| o.rulings.iter().all(|r| r.passed)), "{outcomes:#?}");
    let lacks = InProcess::new().hello().expect("hello").lacks;
    assert_eq!(lacks, vec![cal_conformance::capability::Capability::Http, cross_lingual]);
    let in_process = runner::run(&mut InProcess::new(), &cases, &RunOptions { lacks, ..opts });
    assert!(in_process.iter().all(|o| o.status == Status::NotApplicable), "{in_process:#?}");
}
