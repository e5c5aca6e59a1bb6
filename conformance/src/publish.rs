//! The summary fit to publish (`cal conformance run --summary-md FILE --summary-json FILE`):
//! what an implementer puts in a README or on a website — the certified level as a badge,
//! the per-level table, the SHOULD and ruling scores, and the cases not passed with the spec
//! section each failure comes from. Modelled on the published result pages of toml-test,
//! Bowtie and test262: one line to paste (the badge), one table to read, details below.
//!
//! The JSON document (`schema/summary.schema.json`) carries the same facts, plus a `badge`
//! object in shields.io's endpoint format, so a host can serve it as a live badge.

use crate::case::{Kind, Level};
use crate::certify::Summary;
use crate::protocol::Hello;
use crate::report::CorpusFacts;
use crate::runner::{Outcome, Status};
use serde_json::{Value, json};
use std::fmt::Write;

/// The JSON Schema of the published JSON summary.
pub const SUMMARY_SCHEMA: &str = include_str!("../schema/summary.schema.json");

static SUMMARY_VALIDATOR: std::sync::LazyLock<Result<jsonschema::Validator, String>> = std::sync::LazyLock::new(|| {
    let schema: Value = serde_json::from_str(SUMMARY_SCHEMA).map_err(|e| e.to_string())?;
    jsonschema::draft202012::new(&schema).map_err(|e| e.to_string())
});

/// Checks a published JSON summary against [`SUMMARY_SCHEMA`].
pub fn validate_summary(doc: &Value) -> Result<(), String> {
    let validator = SUMMARY_VALIDATOR.as_ref().map_err(|e| format!("the summary schema does not compile: {e}"))?;
    match validator.iter_errors(doc).next() {
        None => Ok(()),
        Some(e) => Err(format!("at {}: {e}", e.instance_path().as_str())),
    }
}

/// How many cases not passed the Markdown summary lists (the JSON lists them all).
pub const MARKDOWN_FAILURES: usize = 50;

/// The badge: shields.io's endpoint format (`schemaVersion`, `label`, `message`, `color`),
/// the certified level, or why there is none.
pub fn badge(s: &Summary) -> Value {
    let (message, color) = match (&s.filter, s.certified) {
        (Some(_), _) => ("not certified (filtered run)".to_string(), "lightgrey"),
        (None, None) => ("none".to_string(), "red"),
        (None, Some(Level::Core)) => ("core".to_string(), "yellowgreen"),
        (None, Some(Level::Extended)) => ("extended".to_string(), "green"),
        (None, Some(l)) => (l.as_str().to_string(), "brightgreen"),
    };
    // A certificate earned without some cases says so on its face.
    let message = match s.not_applicable_certified() {
        n if n > 0 && s.filter.is_none() && s.certified.is_some() => format!("{message} ({n} n/a)"),
        _ => message,
    };
    json!({ "schemaVersion": 1, "label": "CAL conformance", "message": message, "color": color })
}

/// The badge as one line of Markdown (a static shields.io image, alt text saying the same).
pub fn badge_markdown(s: &Summary) -> String {
    let b = badge(s);
    let message = b["message"].as_str().unwrap_or("none");
    let color = b["color"].as_str().unwrap_or("red");
    let escape =
        |t: &str| t.replace('-', "--").replace('_', "__").replace(' ', "%20").replace('(', "%28").replace(')', "%29");
    format!(
        "![CAL conformance: {message}](https://img.shields.io/badge/{}-{}-{color})",
        escape("CAL conformance"),
        escape(message)
    )
}

/// Cases run and passed per kind, required cases only.
fn per_kind(outcomes: &[Outcome]) -> Vec<(Kind, usize, usize)> {
    Kind::ALL
        .iter()
        .map(|k| {
            let of: Vec<&Outcome> = outcomes
                .iter()
                .filter(|o| o.kind == *k && !o.should_case && o.status != Status::NotApplicable)
                .collect();
            (*k, of.len(), of.iter().filter(|o| o.status == Status::Passed).count())
        })
        .collect()
}

/// The published JSON summary: who was tested with what, the badge, the certified level and
/// every count, and every case not passed (its failures with their sources).
pub fn summary_document(hello: &Hello, s: &Summary, outcomes: &[Outcome], corpus: &CorpusFacts, date: &str) -> Value {
    let mut doc = crate::report::summary_json(s, outcomes);
    doc["type"] = json!("published-summary");
    doc["date"] = json!(date);
    doc["suite"] =
        json!({ "name": "cal-conformance", "version": env!("CARGO_PKG_VERSION"), "corpus_errors": corpus.errors });
    if let Some(c) = corpus.to_json() {
        doc["suite"]["corpus"] = c;
    }
    doc["implementation"] = json!({
        "name": hello.name,
        "version": hello.version,
        "declared_level": hello.level.as_str(),
        "lacks": hello.lacks.iter().map(|c| c.as_str()).collect::<Vec<_>>(),
    });
    doc["badge"] = badge(s);
    doc["badge_markdown"] = json!(badge_markdown(s));
    doc["per_kind"] = per_kind(outcomes)
        .into_iter()
        .map(|(k, run, passed)| (k.as_str().to_string(), json!({ "required": run, "passed": passed })))
        .collect::<serde_json::Map<_, _>>()
        .into();
    doc
}

/// The published Markdown summary.
pub fn summary_markdown(hello: &Hello, s: &Summary, outcomes: &[Outcome], corpus: &CorpusFacts, date: &str) -> String {
    let corpus_errors = corpus.errors;
    let mut o = String::new();
    let _ = writeln!(o, "# CAL conformance: {} {}\n", hello.name, hello.version);
    let _ = writeln!(o, "{}\n", badge_markdown(s));
    let certified = match (&s.filter, s.certified) {
        (Some(f), _) => format!("**Not certified**: a filtered run ({f}) certifies nothing"),
        (None, None) => "**Certified: none**".to_string(),
        (None, Some(l)) => format!("**Certified: {}**", title(l)),
    };
    let _ = writeln!(
        o,
        "{certified} (declared: {}). CAL 1.0 §24, cal-conformance {}, {} cases run on {date}{}.\n",
        hello.level,
        env!("CARGO_PKG_VERSION"),
        s.total,
        if corpus_errors > 0 { format!(", {corpus_errors} corpus errors") } else { String::new() }
    );
    if let Some(c) = &corpus.cases {
        let _ = write!(o, "Corpus: {}, {} case files, `{}`", c.source, c.files, c.digest);
        if let Some(f) = &corpus.fixtures {
            let _ = write!(o, "; fixtures: {}, {} stores, `{}`", f.source, f.files, f.digest);
        }
        let _ = writeln!(o, ".\n");
    }
    let _ = writeln!(o, "| level | required | passed | failed | skipped | errored | not applicable | certified |");
    let _ = writeln!(o, "|---|---:|---:|---:|---:|---:|---:|---|");
    for (level, c) in &s.levels {
        let yes = s.filter.is_none() && s.certified.is_some_and(|top| *level <= top);
        let _ = writeln!(
            o,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            title(*level),
            c.required,
            c.passed,
            c.failed,
            c.skipped,
            c.errored,
            c.not_applicable,
            if yes { "yes" } else { "no" }
        );
    }
    let _ = writeln!(o, "\n| kind | required | passed |\n|---|---:|---:|");
    for (k, run, passed) in per_kind(outcomes) {
        let _ = writeln!(o, "| {} | {run} | {passed} |", k.as_str());
    }
    let sh = &s.should;
    let _ = writeln!(
        o,
        "\n**SHOULD** (scored, never gating): {}/{} cases, {}/{} checks (error positions, suggestions, examples, pointers).",
        sh.cases_passed, sh.cases, sh.checks_passed, sh.checks
    );
    let r = &s.rulings;
    let _ = writeln!(
        o,
        "\n**Project rulings** (our house style where the spec is silent; scored, never gating): {}/{} checks followed.",
        r.checks_passed, r.checks
    );
    if !r.by_ruling.is_empty() {
        let _ = writeln!(o, "\n| ruling | followed |\n|---|---:|");
        for (ruling, t) in &r.by_ruling {
            let _ = writeln!(o, "| {ruling} | {}/{} |", t.passed, t.checks);
        }
    }
    if !hello.lacks.is_empty() {
        let lacks: Vec<String> = hello.lacks.iter().map(|c| format!("{} ({})", c.as_str(), c.what())).collect();
        let _ = writeln!(
            o,
            "\n**Not applicable**: the implementation declared it lacks {}; the {} cases that need it were not run \
             (they neither pass nor block a level).",
            lacks.join(", "),
            outcomes.iter().filter(|x| x.status == Status::NotApplicable).count()
        );
    }
    if let Some(e) = &s.expected_failures {
        let _ = writeln!(
            o,
            "\n**Expected failures**: {} listed, {} failed as expected, {} passed unexpectedly, {} not run; {} \
             unexpected failure(s).",
            e.listed,
            e.failed.len(),
            e.passed.len(),
            e.not_run.len(),
            e.unexpected_failures
        );
        for id in &e.passed {
            let _ = writeln!(o, "- `{id}`: passed unexpectedly");
        }
    }
    let failing: Vec<&Outcome> =
        outcomes.iter().filter(|x| !matches!(x.status, Status::Passed | Status::NotApplicable)).collect();
    if failing.is_empty() {
        let _ = writeln!(o, "\nEvery case passed.");
        return o;
    }
    let _ = writeln!(o, "\n## Cases not passed ({})\n", failing.len());
    for x in failing.iter().take(MARKDOWN_FAILURES) {
        let should = if x.should_case { ", SHOULD" } else { "" };
        let expected = if x.expected_failure { " (expected failure)" } else { "" };
        let _ = writeln!(o, "- `{}` ({}, {}{should}): {}{expected}", x.id, x.kind.as_str(), x.level, x.status.as_str());
        for m in &x.mismatches {
            let _ = writeln!(
                o,
                "  - {} ({}): expected `{}`, got `{}`",
                m.what,
                m.source,
                cell(&m.expected),
                cell(&m.actual)
            );
        }
        if let Some(msg) = &x.message {
            let _ = writeln!(o, "  - {}", msg.replace('\n', " "));
        }
    }
    if failing.len() > MARKDOWN_FAILURES {
        let _ = writeln!(o, "\n… and {} more (the JSON summary lists them all).", failing.len() - MARKDOWN_FAILURES);
    }
    o
}

/// A level's name as a title (`Extended`).
fn title(l: Level) -> String {
    let s = l.as_str();
    s[..1].to_ascii_uppercase() + &s[1..]
}

/// A value inline in Markdown code: one line, at most 120 characters, no backticks.
fn cell(v: &Value) -> String {
    let s = v.to_string().replace('`', "'").replace('\n', " ");
    match s.char_indices().nth(120) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    }
}

/// Today's date (UTC, `YYYY-MM-DD`) from the system clock, for the published summary.
pub fn today() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let days = (secs / 86_400) as i64;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_badge_says_the_certified_level_and_a_filtered_run_certifies_nothing() {
        let mut s = crate::certify::summarize(Level::Extended, &[]);
        assert_eq!(badge(&s)["message"], "none");
        s.certified = Some(Level::Extended);
        assert_eq!(badge(&s)["color"], "green");
        assert_eq!(
            badge_markdown(&s),
            "![CAL conformance: extended](https://img.shields.io/badge/CAL%20conformance-extended-green)"
        );
        let f = s.filtered("--only parse.".into());
        assert!(badge_markdown(&f).contains("not%20certified%20%28filtered%20run%29-lightgrey"));
    }

    #[test]
    fn today_is_a_date() {
        let t = today();
        assert_eq!(t.len(), 10);
        assert!(t.starts_with("20"), "{t}");
        assert_eq!(t.as_bytes()[4], b'-');
    }
}
