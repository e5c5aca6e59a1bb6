//! Every command that takes a query answers on standard output in JSON for every outcome
//! (issue 21): a parse error, a check error and an execution error alike are §22.1 objects
//! in the §14.1 envelope, one per query of a document, in order, with exit status 1. In
//! text mode each error is shown once, as a code frame on standard error.
//! The rule for documents is L1 of docs/spec-decisions-cli.md.

mod common;

use serde_json::Value as Json;

struct Case {
    name: &'static str,
    args: &'static [&'static str],
    /// Expected exit status.
    status: i32,
}

/// What each case prints on standard output, snapshotted: the envelopes as a program reads them.
const CASES: &[Case] = &[
    Case { name: "run_parse_error", args: &["run", "RECALL beliefs WHRE subject = \"alice\""], status: 1 },
    Case { name: "run_check_error", args: &["run", "RECALL belifs ABOUT \"alice\""], status: 1 },
    Case {
        name: "run_execution_error",
        args: &["run", "--no-timing", "--cursor", "cursor:bogus", "RECALL beliefs ABOUT \"alice\""],
        status: 1,
    },
    Case {
        name: "run_document_mixed",
        args: &[
            "run",
            "--no-timing",
            "RECALL beliefs ABOUT \"alice\" | LIMIT 1; RECALL belifs; garbage here; EXISTS goals ABOUT \"alice\"",
        ],
        status: 1,
    },
    Case { name: "run_json_form_error", args: &["run", "{\"statement\": \"recall\", \"grain_type\": 3}"], status: 1 },
    Case { name: "explain_check_error", args: &["explain", "RECALL events WHERE goal_state = \"active\""], status: 1 },
    Case {
        name: "explain_document_mixed",
        args: &["explain", "RECALL beliefs ABOUT \"alice\" RECENT 2; RECALL beliefs WHERE nope = 1"],
        status: 1,
    },
    Case {
        // Refused before the token or key is read: the statement itself does not check.
        name: "prepare_check_error",
        args: &["prepare", "--token", "unused", "--key", "/nonexistent", "ADD belif SET subject = \"a\""],
        status: 1,
    },
];

#[test]
fn every_outcome_is_json_on_stdout() {
    for case in CASES {
        let out = common::cal(case.args, b"");
        let stdout = String::from_utf8(out.stdout).expect("UTF-8");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(case.status), "{}: {stderr}", case.name);
        let json: Json =
            serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{}: not JSON ({e}):\n{stdout}", case.name));
        let envelopes = match &json {
            Json::Array(items) => items.clone(),
            one => vec![one.clone()],
        };
        for e in &envelopes {
            assert_eq!(e["_cal"]["version"], "1.0", "{}: every answer is a §14.1 envelope", case.name);
            if let Some(error) = e.get("error") {
                for field in ["code", "message", "suggestion"] {
                    assert!(error[field].is_string(), "{}: §22.1 requires {field}: {error}", case.name);
                }
            }
        }
        insta::with_settings!({ description => case.args.join(" "), omit_expression => true }, {
            insta::assert_snapshot!(case.name, stdout);
        });
    }
}

#[test]
fn a_static_error_is_the_servers_refusal() {
    let out = common::cal(&["run", "RECALL belifs"], b"");
    let json: Json = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["_cal"], serde_json::json!({"version": "1.0", "tier": 0}));
    assert_eq!(json["error"]["code"], "CAL-E003");
}

#[test]
fn invalid_utf8_from_a_file_is_an_envelope_too() {
    let out = common::cal(&["run", "-f", "-"], b"RECALL beliefs ABOUT \"a\xffb\"");
    assert_eq!(out.status.code(), Some(1));
    let json: Json = serde_json::from_slice(&out.stdout).expect("an envelope");
    assert_eq!(json["error"]["code"], "CAL-E070");
}

#[test]
fn text_mode_shows_each_error_once() {
    let cases: &[&[&str]] = &[
        &["run", "--format", "text", "RECALL belifs ABOUT \"alice\""],
        &["run", "--format", "text", "--cursor", "cursor:bogus", "RECALL beliefs"],
        &["explain", "--format", "text", "RECALL belifs"],
    ];
    for args in cases {
        let out = common::cal(args, b"");
        let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let shown = stdout.matches("CAL-E").count() + stderr.matches("[CAL-E").count();
        assert_eq!(shown, 1, "{args:?}: the error once\nstdout:\n{stdout}\nstderr:\n{stderr}");
    }
}

#[test]
fn the_other_queries_of_a_document_still_run() {
    let out = common::cal(&["run", "--format", "text", "RECALL belifs; RECALL beliefs ABOUT \"alice\" | LIMIT 1"], b"");
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("[belief]"), "the second query ran:\n{stdout}");
}
