//! The runner: sends every case to an [`Implementation`] and judges the
//! answers. Execute cases load their fixture once (the first time a case
//! names it); a fixture that does not exist or does not load makes its cases
//! `errored`, not the run.
//!
//! The store is checked, not believed: right after loading a fixture the runner
//! reads the whole store ([`STORE_PROBE`]), and after every execute case it
//! reads it again — a Tier 0 query must leave the same grains behind (§2.1),
//! whatever digests the implementation reports.

use crate::capability::{self, Capability, FixtureNamespaces};
use crate::case::{Body, Case, Flag, Kind, Level, MgCase, WireCase};
use crate::compare::{self, Judgement, Mismatch, RulingCheck, ShouldCheck, json_eq};
use crate::implementation::Implementation;
use crate::protocol::Answer;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::PathBuf;

/// What became of one case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Every required check held.
    Passed,
    /// A required check did not hold.
    Failed,
    /// The implementation declined the request (a feature it does not have).
    Skipped,
    /// No usable answer: crash, timeout, malformed message, missing fixture.
    Errored,
    /// Not run: the case needs a capability the implementation declared it lacks
    /// ([`crate::capability`]); reported with the reason, neither passed nor failed.
    NotApplicable,
}

impl Status {
    /// The word used in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Failed => "failed",
            Status::Skipped => "skipped",
            Status::Errored => "errored",
            Status::NotApplicable => "not_applicable",
        }
    }
}

/// The outcome of one case.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The case id.
    pub id: String,
    /// Its kind.
    pub kind: Kind,
    /// Its level.
    pub level: Level,
    /// Whether it is a SHOULD case (never gates certification).
    pub should_case: bool,
    /// Whether it was generated.
    pub generated: bool,
    /// The verdict.
    pub status: Status,
    /// Required checks that failed.
    pub mismatches: Vec<Mismatch>,
    /// SHOULD checks.
    pub should: Vec<ShouldCheck>,
    /// Checks of project rulings (house style): scored like SHOULD, never failing the case.
    pub rulings: Vec<RulingCheck>,
    /// Why the case was skipped or errored.
    pub message: Option<String>,
    /// The spec sections the case pins, reported with its failures.
    pub sections: Vec<String>,
    /// Listed as expected to fail (`--expected-failures`, [`crate::selection`]) and did not
    /// pass: reported as an expected failure.
    pub expected_failure: bool,
}

/// How a run is configured.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Where fixture stores live: `<dir>/<name>.mg`.
    pub fixtures_dir: PathBuf,
    /// Only cases at or below this level are run (all when `None`).
    pub max_level: Option<Level>,
    /// The whole run's deadline: cases not started by then are errored, not run.
    pub deadline: Option<std::time::Duration>,
    /// After this many cases in a row on which the implementation timed out, the
    /// rest are errored, not run (a hung implementation must not cost hours).
    pub max_consecutive_timeouts: Option<usize>,
    /// The capabilities the implementation declared it lacks: cases needing them are not
    /// applicable (`Hello::lacks`).
    pub lacks: Vec<Capability>,
    /// The limits the implementation declared (`Hello::limits`): a hand-written case tagged with a
    /// configurable limit it declares at another value than the spec's is not applicable
    /// ([`crate::limits::written_at_another_value`], ruling C32).
    pub limits: serde_json::Map<String, Value>,
}

/// Runs every case (in order) and returns one outcome per case at or below
/// the level limit. Once the deadline has passed, or the implementation has
/// timed out on `max_consecutive_timeouts` cases in a row, the remaining
/// cases are errored without being run, with the reason in their message.
pub fn run(imp: &mut dyn Implementation, cases: &[Case], opts: &RunOptions) -> Vec<Outcome> {
    run_observed(imp, cases, opts, &mut || {})
}

/// [`run`], calling `step` once per case of `cases` as it is passed (run, skipped or not
/// run), so that a caller can show progress.
pub fn run_observed(
    imp: &mut dyn Implementation,
    cases: &[Case],
    opts: &RunOptions,
    step: &mut dyn FnMut(),
) -> Vec<Outcome> {
    let started = std::time::Instant::now();
    let mut fixtures = Fixtures::new();
    let mut out = Vec::with_capacity(cases.len());
    let mut in_a_row = 0usize;
    let mut gave_up: Option<String> = None;
    let mut namespaces = FixtureNamespaces::new(&opts.fixtures_dir);
    for case in cases {
        step();
        if opts.max_level.is_some_and(|max| case.level > max) {
            continue;
        }
        if gave_up.is_none() {
            if let Some(d) = opts.deadline.filter(|d| started.elapsed() > *d) {
                gave_up = Some(format!("not run: the run's deadline of {} s passed", d.as_secs_f64()));
            } else if let Some(n) = opts.max_consecutive_timeouts.filter(|n| in_a_row >= *n) {
                gave_up = Some(format!("not run: the implementation timed out on {n} cases in a row"));
            }
        }
        if let Some(why) = &gave_up {
            out.push(not_run(case, why));
            continue;
        }
        if !opts.lacks.is_empty() {
            let missing: Vec<Capability> =
                capability::needs(case, &mut namespaces).into_iter().filter(|c| opts.lacks.contains(c)).collect();
            if !missing.is_empty() {
                let why: Vec<String> = missing.iter().map(|c| format!("{} ({})", c.as_str(), c.what())).collect();
                let message = format!("not applicable: needs {}, which the implementation lacks", why.join(", "));
                out.push(outcome(case, Status::NotApplicable, Judgement::default(), Some(message)));
                continue;
            }
        }
        if let Some(message) = crate::limits::written_at_another_value(case, &opts.limits) {
            out.push(outcome(case, Status::NotApplicable, Judgement::default(), Some(message)));
            continue;
        }
        let before = imp.timeouts();
        out.push(run_case(imp, case, opts, &mut fixtures));
        in_a_row = if imp.timeouts() > before { in_a_row + 1 } else { 0 };
    }
    out
}

/// The outcome of a case the run gave up on before reaching it.
fn not_run(case: &Case, why: &str) -> Outcome {
    outcome(case, Status::Errored, Judgement::default(), Some(why.to_string()))
}

/// A case's outcome: its identity and level from the case, the rest as judged.
fn outcome(case: &Case, status: Status, judgement: Judgement, message: Option<String>) -> Outcome {
    Outcome {
        id: case.id.clone(),
        kind: case.kind(),
        level: case.level,
        should_case: case.is_should(),
        generated: case.has_flag(Flag::Generated),
        status,
        mismatches: judgement.mismatches,
        should: judgement.should,
        rulings: judgement.rulings,
        message,
        sections: case.sections.clone(),
        expected_failure: false,
    }
}

/// Runs one case.
pub fn run_case(imp: &mut dyn Implementation, case: &Case, opts: &RunOptions, fixtures: &mut Fixtures) -> Outcome {
    let judgement = || Judgement::for_case(&case.rulings, &case.sections);
    let verdict = match &case.body {
        Body::Parse(p) => imp.parse(&p.query).map(|r| compare::parse_in(judgement(), &p.expect, &r)),
        Body::Wire(w) => wire(imp, w, judgement()),
        Body::Execute(e) => {
            let ready = fixtures
                .entry(e.fixture.clone())
                .or_insert_with(|| load(imp, &opts.fixtures_dir, &e.fixture, &e.clock));
            match ready {
                Err(Unready::Skipped(message)) => Verdict::Skipped(message.clone()),
                Err(Unready::Failed(message)) => Verdict::Errored(message.clone()),
                Ok(loaded) => {
                    let baseline = loaded.baseline.clone();
                    // A write made by the query itself is read back in its own session, after
                    // the case's `then` queries (ruling C23).
                    let mut session = e.session.clone();
                    if e.expect.store_change.is_some() {
                        session.then.push(STORE_PROBE.to_string());
                    }
                    let answer =
                        imp.execute_in(&e.fixture, &e.query, &e.clock, &e.params, e.capability.as_deref(), &session);
                    let ordered = !case.has_flag(Flag::Nondeterministic);
                    // A crashed adapter restarts without its fixtures: load again on next use.
                    if matches!(answer, Answer::Errored(_)) {
                        fixtures.remove(&e.fixture);
                    }
                    let judge = |r: Value| {
                        let mut j = compare::execute_in(judgement(), &e.expect, &r, ordered);
                        if let Some(change) = &e.expect.store_change {
                            let read_back = r.get("then").and_then(Value::as_array).and_then(|t| t.last());
                            match &baseline {
                                Ok(before) => compare::store_change(&mut j, change, before, read_back),
                                Err(m) => {
                                    j.require("store change (read back)", "§8.8", false, json!("a baseline"), json!(m))
                                }
                            }
                        }
                        j
                    };
                    match answer.map(judge) {
                        Verdict::Judged(mut j) => {
                            let after = probe(imp, &e.fixture, &e.clock);
                            if matches!(after, Err(ref m) if m.starts_with("errored")) {
                                fixtures.remove(&e.fixture);
                            }
                            store_unchanged(&mut j, &baseline, &after);
                            Verdict::Judged(j)
                        }
                        other => other,
                    }
                }
            }
        }
        Body::Mg(m) => mg(imp, m, judgement()),
    };
    let (status, judgement, message) = match verdict {
        Verdict::Judged(j) if j.mismatches.is_empty() => (Status::Passed, j, None),
        Verdict::Judged(j) => (Status::Failed, j, None),
        Verdict::Skipped(m) => (Status::Skipped, Judgement::default(), Some(m)),
        Verdict::Errored(m) => (Status::Errored, Judgement::default(), Some(m)),
    };
    outcome(case, status, judgement, message)
}

/// The read that takes stock of a fixture store: every current grain (Core: RECALL with
/// LIMIT, the largest LIMIT §17.3 allows; every fixture holds fewer grains).
pub const STORE_PROBE: &str = "RECALL LIMIT 1000";

/// The fixtures loaded so far in a run, by name.
pub type Fixtures = HashMap<String, Result<Loaded, Unready>>;

/// A loaded fixture: what a read of the whole store gave right after loading (the content
/// addresses, sorted), or why that read failed.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The store's grains as [`STORE_PROBE`] saw them, or why it could not read them.
    pub baseline: Result<Vec<String>, String>,
}

/// Reads the whole store back: the sorted content addresses, or why there are none.
fn probe(imp: &mut dyn Implementation, fixture: &str, clock: &str) -> Result<Vec<String>, String> {
    let answer = imp.execute(fixture, STORE_PROBE, clock, &serde_json::Map::new(), None);
    let result = match answer {
        Answer::Ok(v) => v,
        Answer::Skipped(m) => return Err(format!("skipped: {m}")),
        Answer::Errored(m) => return Err(format!("errored: {m}")),
    };
    let response = result.get("response").unwrap_or(&Value::Null);
    if let Some(code) = response.pointer("/error/code") {
        return Err(format!("the read was rejected with {code}"));
    }
    let Some(results) = response.get("results").and_then(Value::as_array) else {
        return Err("the read returned no results array".into());
    };
    let mut addresses: Vec<String> = results
        .iter()
        .filter_map(|r| r.get("content_address")?.as_str())
        .map(|a| a.strip_prefix("sha256:").unwrap_or(a).to_ascii_lowercase())
        .collect();
    addresses.sort_unstable();
    Ok(addresses)
}

/// The check that the store holds what it held after loading (§2.1: Tier 0 changes nothing),
/// made by reading it back rather than trusting reported digests.
fn store_unchanged(j: &mut Judgement, baseline: &Result<Vec<String>, String>, after: &Result<Vec<String>, String>) {
    let what = "store unchanged (read back)";
    match (baseline, after) {
        (Ok(before), Ok(now)) => {
            if before != now {
                let gone: Vec<&String> = before.iter().filter(|a| !now.contains(a)).collect();
                let new: Vec<&String> = now.iter().filter(|a| !before.contains(a)).collect();
                j.require(
                    what,
                    "§2.1",
                    false,
                    json!({ "grains": before.len() }),
                    json!({ "grains": now.len(), "gone": gone, "new": new }),
                );
            }
        }
        (Err(m), _) | (_, Err(m)) => {
            j.require(what, "§2.1", false, json!(format!("the store read back with {STORE_PROBE:?}")), json!(m))
        }
    }
}

/// Why a fixture is not ready: the implementation declined it, or it could not be loaded.
#[derive(Debug, Clone)]
pub enum Unready {
    /// `load_fixture` was skipped: the execute cases are skipped too.
    Skipped(String),
    /// The file is missing or did not load: the execute cases are errored.
    Failed(String),
}

fn load(imp: &mut dyn Implementation, dir: &std::path::Path, name: &str, clock: &str) -> Result<Loaded, Unready> {
    let path = dir.join(format!("{name}.mg"));
    if !path.is_file() {
        return Err(Unready::Failed(format!("fixture {name:?} not found at {}", path.display())));
    }
    let path = path.canonicalize().unwrap_or(path);
    match imp.load_fixture(name, &path) {
        Answer::Ok(_) => Ok(Loaded { baseline: probe(imp, name, clock) }),
        Answer::Skipped(m) => Err(Unready::Skipped(format!("load_fixture skipped: {m}"))),
        Answer::Errored(m) => Err(Unready::Failed(format!("load_fixture failed: {m}"))),
    }
}

/// An answer turned into a judgement, or why there is none.
enum Verdict {
    Judged(Judgement),
    Skipped(String),
    Errored(String),
}

impl Answer {
    fn map(self, f: impl FnOnce(Value) -> Judgement) -> Verdict {
        match self {
            Answer::Ok(v) => Verdict::Judged(f(v)),
            Answer::Skipped(m) => Verdict::Skipped(m),
            Answer::Errored(m) => Verdict::Errored(m),
        }
    }
}

/// Runs the requests of one step and continues with its result.
macro_rules! step {
    ($answer:expr) => {
        match $answer {
            Answer::Ok(v) => v,
            Answer::Skipped(m) => return Verdict::Skipped(m),
            Answer::Errored(m) => return Verdict::Errored(m),
        }
    };
}

fn wire(imp: &mut dyn Implementation, w: &WireCase, mut j: Judgement) -> Verdict {
    match w {
        WireCase::TextToJson { query, json } => {
            let r = step!(imp.serialize_text(query));
            let actual = r.get("json").cloned().unwrap_or_else(|| r.clone());
            j.require("json", "§15.2", json_eq(json, &actual), json.clone(), actual);
            // The other direction: the expected JSON prints to a text that reads back as the same JSON.
            let t = step!(imp.serialize_json(json));
            match t.get("text").and_then(Value::as_str) {
                Some(text) => {
                    let back = step!(imp.serialize_text(text));
                    let back = back.get("json").cloned().unwrap_or(back);
                    j.require("round trip json→text→json", "§15.3", json_eq(json, &back), json.clone(), back);
                }
                None => j.require("json→text", "§15.2", false, json!("a text"), t),
            }
        }
        WireCase::JsonToText { json, text } => {
            let r = step!(imp.serialize_json(json));
            let actual = r.get("text").cloned().unwrap_or_else(|| r.clone());
            compare::canonical_text(&mut j, "text", text, &actual);
        }
        WireCase::JsonRejected { json, code, pointer } => {
            let r = step!(imp.serialize_json(json));
            let actual = r.pointer("/error/code").cloned();
            j.require("error", "§15.5", actual.as_ref().and_then(Value::as_str) == Some(code), json!(code), r.clone());
            if let Some(p) = pointer {
                j.should("pointer", "§22.1", r.pointer("/error/pointer").and_then(Value::as_str) == Some(p));
            }
        }
    }
    Verdict::Judged(j)
}

fn mg(imp: &mut dyn Implementation, m: &MgCase, mut j: Judgement) -> Verdict {
    let source = j.case_source("OMS 4");
    match m {
        MgCase::Encode { grain, hex, address } => {
            let r = step!(imp.mg_encode(grain));
            let got_hex = r.get("hex").and_then(Value::as_str).map(str::to_ascii_lowercase);
            let got_hex_value = r.get("hex").cloned().unwrap_or(r.clone());
            j.require("hex", &source, got_hex.as_deref() == Some(hex), json!(hex), got_hex_value);
            let got = r.get("address").cloned().unwrap_or(Value::Null);
            j.require("address", &source, got.as_str() == Some(address), json!(address), got);
        }
        MgCase::Decode { hex, grain, address } => {
            let r = step!(imp.mg_decode(hex));
            let got = r.get("grain").cloned().unwrap_or_else(|| r.clone());
            j.require("grain", &source, json_eq(grain, &got), grain.clone(), got);
            if let Some(a) = address {
                let got = r.get("address").cloned().unwrap_or(Value::Null);
                j.require("address", &source, got.as_str() == Some(a), json!(a), got);
            }
        }
        MgCase::Reject { hex, error } => {
            let r = step!(imp.mg_decode(hex));
            let got = r.get("error").cloned().unwrap_or_else(|| r.clone());
            j.require("error", &source, got.as_str() == Some(error), json!(error), got);
        }
    }
    Verdict::Judged(j)
}
