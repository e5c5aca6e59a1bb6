//! Reports: the JSON-lines report (a header line, one line per case, a
//! closing summary line), the summary as JSON, and the human summary table.

use crate::certify::Summary;
use crate::embedded::Provenance;
use crate::protocol::Hello;
use crate::runner::{Outcome, Status};
use serde_json::{Value, json};
use std::fmt::Write;

/// The report format's version (`header.report_version`).
pub const REPORT_VERSION: u64 = 1;

/// The JSON Schema of one report line (`schema/report-line.schema.json`), for report consumers.
pub const REPORT_LINE_SCHEMA: &str = include_str!("../schema/report-line.schema.json");

static LINE_VALIDATOR: std::sync::LazyLock<Result<jsonschema::Validator, String>> = std::sync::LazyLock::new(|| {
    let schema: Value = serde_json::from_str(REPORT_LINE_SCHEMA).map_err(|e| e.to_string())?;
    jsonschema::draft202012::new(&schema).map_err(|e| e.to_string())
});

/// Checks one report line (or the `--json` summary) against [`REPORT_LINE_SCHEMA`].
pub fn validate_line(line: &Value) -> Result<(), String> {
    let validator = LINE_VALIDATOR.as_ref().map_err(|e| format!("the report schema does not compile: {e}"))?;
    match validator.iter_errors(line).next() {
        None => Ok(()),
        Some(e) => Err(format!("at {}: {e}", e.instance_path().as_str())),
    }
}

/// What a report says about the corpus a run used.
#[derive(Debug, Clone, Default)]
pub struct CorpusFacts {
    /// Problems found loading the corpus (the cases concerned were not run).
    pub errors: usize,
    /// Where the case files came from, and their digest.
    pub cases: Option<Provenance>,
    /// Where the fixture stores came from, and their digest.
    pub fixtures: Option<Provenance>,
}

impl CorpusFacts {
    /// Only a count of corpus errors, no provenance (a corpus assembled in a test).
    pub fn errors(errors: usize) -> Self {
        CorpusFacts { errors, ..CorpusFacts::default() }
    }

    /// The provenance as a JSON object (`header.corpus`, the published summary's
    /// `suite.corpus`), `None` when unknown.
    pub fn to_json(&self) -> Option<Value> {
        let cases = self.cases.as_ref()?;
        let mut v = provenance_json(cases);
        if let Some(f) = &self.fixtures {
            v["fixtures"] = provenance_json(f);
        }
        Some(v)
    }

    /// One line for a person: `corpus: embedded, 83 files, sha256:…; fixtures: …`.
    pub fn line(&self) -> Option<String> {
        let cases = self.cases.as_ref()?;
        let mut line = format!("corpus: {}, {} files, {}", cases.source, cases.files, cases.short_digest());
        if let Some(f) = &self.fixtures {
            let _ = write!(line, "; fixtures: {}, {} stores, {}", f.source, f.files, f.short_digest());
        }
        Some(line)
    }
}

fn provenance_json(p: &Provenance) -> Value {
    json!({ "source": p.source, "files": p.files, "digest": p.digest })
}

/// The header line: who was tested, with which corpus.
pub fn header(hello: &Hello, cases: usize, corpus: &CorpusFacts) -> Value {
    let mut line = json!({
        "type": "header",
        "report_version": REPORT_VERSION,
        "suite": "cal-conformance",
        "suite_version": env!("CARGO_PKG_VERSION"),
        "implementation": {
            "name": hello.name,
            "version": hello.version,
            "declared_level": hello.level.as_str(),
            "limits": hello.limits,
            "lacks": hello.lacks.iter().map(|c| c.as_str()).collect::<Vec<_>>(),
        },
        "cases": cases,
        "corpus_errors": corpus.errors,
    });
    if let Some(c) = corpus.to_json() {
        line["corpus"] = c;
    }
    line
}

/// One case's line.
pub fn case_line(o: &Outcome) -> Value {
    let mut line = json!({
        "type": "case",
        "id": o.id,
        "kind": o.kind.as_str(),
        "level": o.level.as_str(),
        "status": o.status.as_str(),
    });
    if o.should_case {
        line["should"] = true.into();
    }
    if o.generated {
        line["generated"] = true.into();
    }
    if !o.mismatches.is_empty() {
        line["failures"] = serde_json::to_value(&o.mismatches).unwrap_or_default();
    }
    if !o.should.is_empty() {
        line["should_checks"] = serde_json::to_value(&o.should).unwrap_or_default();
    }
    if !o.rulings.is_empty() {
        line["ruling_checks"] = serde_json::to_value(&o.rulings).unwrap_or_default();
    }
    if let Some(m) = &o.message {
        line["message"] = m.clone().into();
    }
    if o.expected_failure {
        line["expected_failure"] = true.into();
    }
    if o.status != Status::Passed && !o.sections.is_empty() {
        line["sections"] = serde_json::to_value(&o.sections).unwrap_or_default();
    }
    line
}

/// The summary as JSON: declared and certified level, per-level counts, SHOULD score, failures.
pub fn summary_json(s: &Summary, outcomes: &[Outcome]) -> Value {
    let levels: serde_json::Map<String, Value> =
        s.levels.iter().map(|(l, c)| (l.as_str().to_string(), serde_json::to_value(c).unwrap_or_default())).collect();
    let failures: Vec<Value> = outcomes
        .iter()
        .filter(|o| !matches!(o.status, Status::Passed | Status::NotApplicable))
        .map(case_line)
        .collect();
    json!({
        "type": "summary",
        "declared_level": s.declared.as_str(),
        "certified_level": s.certified.map(|l| l.as_str()),
        "declared_certified": s.declared_certified(),
        "filter": s.filter,
        "expected_failures": s.expected_failures,
        "total": s.total,
        "levels": levels,
        "should": s.should,
        "rulings": s.rulings,
        "failures": failures,
    })
}

/// The whole JSON-lines report.
pub fn jsonl(hello: &Hello, outcomes: &[Outcome], summary: &Summary, corpus: &CorpusFacts) -> String {
    let mut out = String::new();
    let mut line = |v: &Value| {
        out.push_str(&v.to_string());
        out.push('\n');
    };
    line(&header(hello, outcomes.len(), corpus));
    for o in outcomes {
        line(&case_line(o));
    }
    let mut s = summary_json(summary, outcomes);
    // The per-case lines already hold every failure; the closing line keeps the counts only.
    if let Value::Object(m) = &mut s {
        m.remove("failures");
    }
    line(&s);
    out
}

/// The human summary: a table per level, the SHOULD score, then up to `max_failures` failures.
pub fn human(hello: &Hello, s: &Summary, outcomes: &[Outcome], max_failures: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "CAL conformance — {} {}", hello.name, hello.version);
    let certified = match (&s.filter, s.certified) {
        (Some(f), _) => format!("none (a filtered run never certifies: {f})"),
        (None, c) => c.map_or("none".to_string(), |l| l.as_str().to_string()),
    };
    let _ = writeln!(out, "declared level: {}    certified level: {certified}\n", s.declared);
    let _ = writeln!(
        out,
        "{:<10} {:>9} {:>8} {:>8} {:>8} {:>8} {:>6}  certified",
        "level", "required", "passed", "failed", "skipped", "errored", "n/a"
    );
    for (level, c) in &s.levels {
        let mark = match s.certified {
            Some(top) if *level <= top => "yes",
            _ => "no",
        };
        let _ = writeln!(
            out,
            "{:<10} {:>9} {:>8} {:>8} {:>8} {:>8} {:>6}  {mark}",
            level.as_str(),
            c.required,
            c.passed,
            c.failed,
            c.skipped,
            c.errored,
            c.not_applicable
        );
    }
    let sh = &s.should;
    let _ = writeln!(
        out,
        "\nSHOULD: {}/{} cases, {}/{} checks (positions, suggestions, examples, pointers)",
        sh.cases_passed, sh.cases, sh.checks_passed, sh.checks
    );
    let r = &s.rulings;
    let _ = writeln!(out, "rulings (house style, never gating): {}/{} checks followed", r.checks_passed, r.checks);
    for (ruling, t) in r.by_ruling.iter().filter(|(_, t)| t.passed < t.checks) {
        let _ = writeln!(out, "  {ruling}: {}/{} followed", t.passed, t.checks);
    }
    if let Some(e) = &s.expected_failures {
        let _ = writeln!(
            out,
            "expected failures: {} listed, {} failed as expected, {} passed unexpectedly, {} not run; \
             {} unexpected failure(s)",
            e.listed,
            e.failed.len(),
            e.passed.len(),
            e.not_run.len(),
            e.unexpected_failures
        );
        for id in e.passed.iter().take(max_failures) {
            let _ = writeln!(out, "  {id}: passed unexpectedly (take it off the list)");
        }
    }
    if !hello.lacks.is_empty() {
        let lacks: Vec<&str> = hello.lacks.iter().map(|c| c.as_str()).collect();
        let _ = writeln!(
            out,
            "lacks {} (declared): {} case(s) not applicable, not run",
            lacks.join(", "),
            outcomes.iter().filter(|o| o.status == Status::NotApplicable).count()
        );
    }
    let failing: Vec<&Outcome> =
        outcomes.iter().filter(|o| !matches!(o.status, Status::Passed | Status::NotApplicable)).collect();
    if !failing.is_empty() {
        let _ = writeln!(out, "\n{} case(s) not passed:", failing.len());
        for o in failing.iter().take(max_failures) {
            let sections =
                if o.sections.is_empty() { String::new() } else { format!(" §{}", o.sections.join(", §")) };
            let expected = if o.expected_failure { " (expected failure)" } else { "" };
            let _ =
                writeln!(out, "  {} [{} {}] {}{expected}{sections}", o.id, o.kind.as_str(), o.level, o.status.as_str());
            for m in &o.mismatches {
                let _ = writeln!(
                    out,
                    "      {} ({}): expected {}, got {}",
                    m.what,
                    m.source,
                    short(&m.expected),
                    short(&m.actual)
                );
            }
            if let Some(msg) = &o.message {
                let _ = writeln!(out, "      {msg}");
            }
        }
        if failing.len() > max_failures {
            let _ = writeln!(out, "  … and {} more (see --report)", failing.len() - max_failures);
        }
    }
    out
}

/// A value on one line, cut to a readable length (on a character boundary).
fn short(v: &Value) -> String {
    let s = v.to_string();
    match s.char_indices().nth(160) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    }
}
