//! Narrowed conformance runs (`--only`, `--tag`, `--skip FILE`, `--expected-failures FILE`):
//! each reports its results, certifies nothing and records its filter (ruling C28).

use std::path::{Path, PathBuf};
use std::process::Command;

const CAL: &str = env!("CARGO_BIN_EXE_cal");

fn conformance_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance")
}

#[test]
fn only_runs_the_cases_with_the_given_id_prefixes() {
    let data = conformance_dir().join("tests/data");
    let out = Command::new(CAL)
        .args(["conformance", "run", "--json", "--only", "t.mg.", "--only", "t.wire.err.", "--cases"])
        .arg(data.join("cases"))
        .arg("--fixtures")
        .arg(data.join("fixtures"))
        .output()
        .expect("cal runs");
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(s["total"], 20, "15 mg cases and 5 wire error cases");
    assert_eq!(s["certified_level"], serde_json::Value::Null, "a filtered run certifies nothing");
    assert_eq!(s["filter"], "--only t.mg. --only t.wire.err.");
    assert_eq!(out.status.code(), Some(0), "every case that ran passed");
}

/// `--tag`, `--skip FILE` and `--expected-failures FILE` narrow a run the way toml-test,
/// test262 and Bowtie do: each such run reports, certifies nothing, and records its filter in
/// the JSON summary, the report and the published summaries. An expected failure is reported
/// as such; a listed case that passes is an unexpected pass and fails the run.
#[test]
fn tag_skip_and_expected_failures_narrow_a_run_that_certifies_nothing() {
    let data = conformance_dir().join("tests/data");
    let dir = std::env::temp_dir().join(format!("cal-selection-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).expect("list file");
        p.display().to_string()
    };
    let broken = format!("'{CAL}' conformance adapter --broken accept-all");
    let run = |args: &[&str]| {
        let out = Command::new(CAL)
            .args(["conformance", "run", "--json", "--cases"])
            .arg(data.join("cases"))
            .arg("--fixtures")
            .arg(data.join("fixtures"))
            .args(args)
            .output()
            .expect("cal runs");
        let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        if out.status.code() != Some(2) {
            assert_eq!(cal_conformance::report::validate_line(&s), Ok(()), "{s:#}");
        }
        (out.status.code(), s)
    };
    // (arguments, cases run, filter recorded, exit status)
    let skip = file("skip.txt", "# leave these out\nt.mg.enc.001\nt.parse.   # a prefix\n\n");
    let cases: Vec<(Vec<&str>, u64, String, i32)> = vec![
        (vec!["--tag", "ERR_CORRUPT"], 4, "--tag ERR_CORRUPT".into(), 0),
        (vec!["--tag", "ERR_CORRUPT", "--tag", "ERR_VERSION"], 6, "--tag ERR_CORRUPT --tag ERR_VERSION".into(), 0),
        (vec!["--only", "t.mg.", "--tag", "belief"], 2, "--only t.mg. --tag belief".into(), 0),
        (
            vec!["--only", "t.mg.", "--only", "t.parse.", "--skip", &skip],
            14,
            format!("--only t.mg. --only t.parse. --skip {skip} (2 skipped id(s) or prefix(es))"),
            0,
        ),
    ];
    for (args, total, filter, code) in &cases {
        let (status, s) = run(args);
        assert_eq!(s["total"], *total, "{args:?}");
        assert_eq!(s["filter"], filter.as_str(), "{args:?}");
        assert_eq!(s["certified_level"], serde_json::Value::Null, "{args:?}");
        assert_eq!(status, Some(*code), "{args:?}");
    }

    // The accept-all engine fails t.parse.err.009–015: listed, they are expected failures.
    let (status, s) = run(&["--adapter", &broken, "--only", "t.parse.err."]);
    assert_eq!(status, Some(1));
    let failing: Vec<String> = s["failures"]
        .as_array()
        .expect("failures")
        .iter()
        .map(|f| f["id"].as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(failing.len(), 7, "{failing:?}");
    let listed = file("xfail.txt", &format!("# accept-all\n{}\n", failing.join("\n")));
    let (status, s) = run(&["--adapter", &broken, "--only", "t.parse.err.", "--expected-failures", &listed]);
    assert_eq!(status, Some(0), "the run went as listed: {s:#}");
    assert_eq!(s["expected_failures"]["failed"].as_array().map(Vec::len), Some(7));
    assert_eq!(s["expected_failures"]["unexpected_failures"], 0);
    assert!(s["failures"].as_array().expect("failures").iter().all(|f| f["expected_failure"] == true), "{s:#}");
    assert!(s["filter"].as_str().is_some_and(|f| f.contains(&format!("--expected-failures {listed}"))), "{s:#}");
    // Part of the list: the rest are unexpected failures (t.parse.err.014 is a SHOULD case,
    // which never counts as one).
    let half = file("half.txt", &failing[..3].join("\n"));
    let (status, s) = run(&["--adapter", &broken, "--only", "t.parse.err.", "--expected-failures", &half]);
    assert_eq!(status, Some(1));
    assert_eq!(s["expected_failures"]["unexpected_failures"], 3);
    // Our engine passes them: every listed case is an unexpected pass, and an id no case has
    // is reported as not run.
    let stale = file("stale.txt", &format!("{}\nt.parse.err.999\n", failing.join("\n")));
    let (status, s) = run(&["--only", "t.parse.err.", "--expected-failures", &stale]);
    assert_eq!(status, Some(1), "an unexpected pass fails the run");
    assert_eq!(s["expected_failures"]["passed"].as_array().map(Vec::len), Some(7));
    assert_eq!(s["expected_failures"]["not_run"], serde_json::json!(["t.parse.err.999"]));

    // The report, the table and the published summaries say the same.
    let (report, md, js) = (dir.join("r.jsonl"), dir.join("s.md"), dir.join("s.json"));
    let out = Command::new(CAL)
        .args(["conformance", "run", "--adapter", &broken, "--only", "t.parse.err.", "--expected-failures", &half])
        .arg("--cases")
        .arg(data.join("cases"))
        .arg("--fixtures")
        .arg(data.join("fixtures"))
        .arg("--report")
        .arg(&report)
        .arg("--summary-md")
        .arg(&md)
        .arg("--summary-json")
        .arg(&js)
        .output()
        .expect("cal runs");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("expected failures: 3 listed, 3 failed as expected, 0 passed unexpectedly"), "{table}");
    assert!(table.contains(&format!("{} [parse core] failed (expected failure)", failing[0])), "{table}");
    let report = std::fs::read_to_string(&report).expect("report");
    let lines: Vec<serde_json::Value> = report.lines().map(|l| serde_json::from_str(l).expect("JSON line")).collect();
    for l in &lines {
        assert_eq!(cal_conformance::report::validate_line(l), Ok(()), "{l}");
    }
    let marked = lines.iter().filter(|l| l["expected_failure"] == true).count();
    assert_eq!(marked, 3);
    let last = lines.last().expect("summary line");
    assert!(last["filter"].as_str().is_some_and(|f| f.contains("--expected-failures")));
    let md = std::fs::read_to_string(&md).expect("markdown");
    assert!(md.contains("**Not certified**: a filtered run (--only t.parse.err. --expected-failures"), "{md}");
    assert!(md.contains("**Expected failures**: 3 listed") && md.contains("failed (expected failure)"), "{md}");
    let js: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&js).expect("json")).expect("JSON");
    assert_eq!(cal_conformance::publish::validate_summary(&js), Ok(()));
    assert_eq!(js["badge"]["message"], "not certified (filtered run)");
    assert_eq!(js["expected_failures"]["listed"], 3);
    let (status, _) = run(&["--skip", "/nonexistent/skip.txt"]);
    assert_eq!(status, Some(2), "an unreadable list is a usage error");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A filtered run (`--only`) reports its results but certifies nothing, and its report
/// records the filter; it exits 0 only when every required case it ran passed. (A run of
/// one case used to certify Core.)
#[test]
fn a_filtered_run_never_certifies_and_records_its_filter() {
    let run = |extra: &[&str]| {
        Command::new(CAL)
            .args(["conformance", "run", "--json", "--only", "execute.where.008", "--level", "core"])
            .args(extra)
            .output()
            .expect("cal runs")
    };
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(cal_conformance::report::validate_line(&summary), Ok(()));
    assert_eq!(summary["certified_level"], serde_json::Value::Null);
    assert_eq!(summary["declared_certified"], false);
    assert_eq!(summary["filter"], "--only execute.where.008");
    assert_eq!(summary["total"], 1);
    let broken =
        run(&["--adapter", &format!("'{CAL}' conformance adapter --broken accept-all"), "--only", "parse.err."]);
    assert_eq!(broken.status.code(), Some(1), "a filtered run with failures exits 1");
    let text = Command::new(CAL)
        .args(["conformance", "run", "--only", "execute.where.008", "--level", "core"])
        .output()
        .expect("cal runs");
    assert!(String::from_utf8_lossy(&text.stdout).contains("a filtered run never certifies: --only execute.where.008"));
}
