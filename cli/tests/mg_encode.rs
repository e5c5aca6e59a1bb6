//! `cal mg encode`: SHOULD-level findings (OMS §17.2) are printed on standard error and
//! the grain is encoded all the same; refusals exit 1 with their `ERR_*` code.

mod common;

use common::cal;

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("cal writes UTF-8")
}

#[test]
fn a_missing_observer_model_is_a_warning_on_stderr_not_a_refusal() {
    let llm = br#"{"type":"observation","observer_id":"o-1","observer_type":"llm","created_at":1700000000000}"#;
    let out = cal(&["mg", "encode"], llm);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let summary: serde_json::Value = serde_json::from_str(&stdout).expect("stdout is the JSON summary only");
    assert!(summary["content_address"].is_string(), "{summary}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("warning: WARN_OBSERVER_MODEL: observer_model:"), "{stderr}");

    let with_model = br#"{"type":"observation","observer_id":"o-1","observer_type":"llm","observer_model":"m","created_at":1700000000000}"#;
    let out = cal(&["mg", "encode"], with_model);
    assert_eq!((out.status.code(), text(&out.stderr)), (Some(0), String::new()));
}

#[test]
fn refusals_name_their_code() {
    for (json, code, detail) in [
        (
            &br#"{"type":"observation","observer_id":"o","observer_type":"human","observer_model":"m","created_at":1}"#
                [..],
            "ERR_SCHEMA",
            "observer_model",
        ),
        (br#"{"type":"event","created_at":1,"content":"a","content":"b"}"#, "ERR_CORRUPT", "duplicate key \"content\""),
    ] {
        let out = cal(&["mg", "encode"], json);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains(code) && stderr.contains(detail), "{stderr}");
        assert!(out.stdout.is_empty());
    }
}
