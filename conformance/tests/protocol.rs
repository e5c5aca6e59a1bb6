//! The protocol from the runner's side, with adapters written in Python
//! (`tests/adapters/*.py`): any language can be certified, skipped required
//! cases block certification, and malformed messages become `errored` cases.

use cal_conformance::runner::{self, RunOptions, Status};
use cal_conformance::subprocess::Subprocess;
use cal_conformance::{Implementation, Level, certify, load_corpus, protocol_schema};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn here() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

fn python(script: &str) -> Subprocess {
    let path = here().join("adapters").join(script);
    Subprocess::new(&format!("python3 '{}'", path.display()), Duration::from_secs(20))
}

fn selftest_cases() -> (Vec<cal_conformance::Case>, RunOptions) {
    let corpus = load_corpus(&here().join("data/cases"));
    (corpus.cases, RunOptions { fixtures_dir: here().join("data/fixtures"), max_level: None, ..RunOptions::default() })
}

#[test]
fn a_python_adapter_that_skips_everything_is_certified_at_no_level() {
    let (cases, opts) = selftest_cases();
    let mut sub = python("skip_all.py");
    let hello = sub.hello().expect("hello");
    assert_eq!(hello.level, Level::Core);
    assert_eq!(hello.limits.get("MAX_LIMIT"), Some(&json!(1000)));
    let outcomes = runner::run(&mut sub, &cases, &opts);
    let summary = certify::summarize(hello.level, &outcomes);
    assert_eq!(summary.certified, None);
    // Execute cases are skipped at load_fixture already; everything else at its own request.
    assert!(outcomes.iter().all(|o| o.status == Status::Skipped), "{outcomes:#?}");
    assert_eq!(summary.level(Level::Core).passed, 0);
    assert!(summary.level(Level::Core).skipped > 0);
}

#[test]
fn malformed_answers_are_errored_cases_naming_the_problem() {
    let (cases, opts) = selftest_cases();
    let parse: Vec<_> = cases.into_iter().filter(|c| c.id.starts_with("t.parse.")).take(8).collect();
    let mut sub = python("bad_messages.py");
    let outcomes = runner::run(&mut sub, &parse, &opts);
    assert_eq!(outcomes.len(), 8);
    for o in &outcomes {
        assert_eq!(o.status, Status::Errored, "{o:?}");
        let m = o.message.as_deref().unwrap_or("");
        assert!(m.contains("malformed") || m.contains("id is not"), "{m}");
    }
    assert!(outcomes.iter().any(|o| o.message.as_deref().unwrap_or("").contains("/result/accept")));
}

#[test]
fn a_hello_that_breaks_its_schema_is_refused() {
    let mut sub = python("bad_hello.py");
    let e = sub.hello().expect_err("an unknown level is refused");
    assert!(e.contains("hello-response") && e.contains("/level"), "{e}");
}

#[test]
fn an_adapter_command_that_does_not_exist_is_an_error_not_a_panic() {
    let mut sub = Subprocess::new("/nonexistent/adapter --flag", Duration::from_secs(5));
    assert!(sub.hello().is_err());
    let (cases, opts) = selftest_cases();
    let parse: Vec<_> = cases.into_iter().filter(|c| c.id.starts_with("t.parse.")).take(8).collect();
    let outcomes = runner::run(&mut sub, &parse, &opts);
    assert!(outcomes.iter().all(|o| o.status == Status::Errored));
    let last = outcomes.last().and_then(|o| o.message.as_deref()).unwrap_or("");
    assert!(last.contains("not retried"), "after 3 failed starts the runner stops trying: {last}");
    assert!(sub.starts() <= 4, "{} starts", sub.starts());
}

#[test]
fn every_protocol_schema_compiles_and_checks_its_messages() {
    for (name, _) in protocol_schema::SCHEMAS {
        // Compiling happens on first use; an unknown shape is reported, not a panic.
        let r = protocol_schema::validate(name, &json!({}));
        assert!(r.is_err(), "{name} accepts an empty object");
        assert!(!r.unwrap_err().contains("does not compile"), "{name}");
    }
    let ok = json!({"id": 3, "status": "ok", "result": {"accept": true, "diagnostics": []}});
    assert_eq!(protocol_schema::validate("parse-response", &ok), Ok(()));
    let req = json!({"id": 1, "type": "execute", "fixture": "f", "query": "RECALL", "clock": "2026-01-01T00:00:00Z", "params": {}});
    assert_eq!(protocol_schema::validate("execute-request", &req), Ok(()));
    let both = json!({"id": 1, "type": "parse", "query": "x", "query_hex": "00"});
    assert!(protocol_schema::validate("parse-request", &both).is_err());
}

/// Runs `cal_conformance::adapter::serve` on scripted input and returns its answer lines.
fn serve(input: &str, broken: Option<&cal_conformance::adapter::Broken>) -> Vec<serde_json::Value> {
    let mut out = Vec::new();
    let ended = cal_conformance::adapter::serve(input.as_bytes(), &mut out, broken).expect("no I/O error");
    assert_eq!(ended, cal_conformance::adapter::Ended::Eof);
    String::from_utf8(out).expect("UTF-8").lines().map(|l| serde_json::from_str(l).expect("JSON line")).collect()
}

#[test]
fn the_adapter_answers_every_line_even_broken_ones() {
    let input = [
        r#"{"type":"hello","protocol":1}"#,
        r#"{"id":1,"type":"parse","query":"RECALL beliefs"}"#,
        r#"{"id":2,"type":"parse","query_hex":"ff"}"#,
        "this is not JSON",
        r#"{"id":3,"type":"parse"}"#,
        r#"{"id":4,"type":"teleport"}"#,
        r#"{"id":5,"type":"serialize","json":{"statement":"recall"}}"#,
        r#"{"id":6,"type":"mg_decode","hex":"00"}"#,
        r#"{"id":7,"type":"execute","fixture":"nope","query":"RECALL","clock":"2026-01-01T00:00:00Z","params":{}}"#,
        "",
    ]
    .join("\n");
    let answers = serve(&input, None);
    assert_eq!(answers.len(), 9);
    assert_eq!(answers[0]["type"], "hello");
    assert_eq!(answers[0]["level"], "evolve");
    assert_eq!(protocol_schema::validate("hello-response", &answers[0]), Ok(()));
    assert_eq!(answers[1]["result"]["accept"], true);
    assert_eq!(answers[1]["result"]["canonical"], "RECALL beliefs");
    assert_eq!(answers[2]["result"]["diagnostics"][0]["code"], "CAL-E070");
    assert_eq!(answers[3]["status"], "errored");
    assert!(answers[4]["message"].as_str().is_some_and(|m| m.contains("parse-request")), "{}", answers[4]);
    assert_eq!(answers[5]["status"], "errored");
    assert_eq!(answers[6]["result"]["text"], "RECALL");
    assert_eq!(answers[7]["result"]["error"], "ERR_TOO_SHORT");
    assert!(answers[8]["message"].as_str().is_some_and(|m| m.contains("not loaded")), "{}", answers[8]);
    for (i, a) in answers.iter().enumerate().skip(1) {
        let kind = ["", "parse", "parse", "", "", "", "serialize", "mg_decode", "execute"][i];
        if !kind.is_empty() {
            assert_eq!(protocol_schema::validate(&format!("{kind}-response"), a), Ok(()), "{a}");
        }
    }
}

#[test]
fn broken_modes_parse_and_accept_all_answers_inside_the_schemas() {
    use cal_conformance::adapter::Broken;
    assert_eq!(Broken::parse("accept-all"), Some(Broken::AcceptAll));
    assert_eq!(Broken::parse("crash-on=RECALL x"), Some(Broken::CrashOn("RECALL x".into())));
    assert_eq!(Broken::parse("explode"), None);
    let input = [
        r#"{"type":"hello","protocol":1}"#,
        r#"{"id":1,"type":"parse","query":"DELETE everything"}"#,
        r#"{"id":2,"type":"mg_encode","grain":{"type":"belief"}}"#,
    ]
    .join("\n");
    let answers = serve(&input, Some(&Broken::AcceptAll));
    assert!(answers[0]["name"].as_str().is_some_and(|n| n.contains("broken")));
    assert_eq!(answers[1]["result"]["accept"], true, "accepts even DELETE");
    assert_eq!(protocol_schema::validate("parse-response", &answers[1]), Ok(()));
    assert_eq!(protocol_schema::validate("mg_encode-response", &answers[2]), Ok(()));
}

#[test]
fn every_request_type_has_a_request_and_a_response_schema() {
    use cal_conformance::protocol::Request;
    let requests = [
        Request::Parse { query: Some("RECALL".into()), query_hex: None },
        Request::Serialize { query: Some("RECALL".into()), json: None },
        Request::LoadFixture { name: "f".into(), path: "/f.mg".into() },
        Request::Execute {
            fixture: "f".into(),
            query: "RECALL".into(),
            clock: "2026-01-01T00:00:00Z".into(),
            params: serde_json::Map::new(),
            capability: None,
            session: Default::default(),
        },
        Request::MgEncode { grain: json!({"type": "belief"}) },
        Request::MgDecode { hex: "00".into() },
    ];
    let names: Vec<&str> = protocol_schema::SCHEMAS.iter().map(|(n, _)| *n).collect();
    for r in &requests {
        let t = r.type_name();
        assert!(
            names.contains(&format!("{t}-request").as_str()) && names.contains(&format!("{t}-response").as_str()),
            "{t}"
        );
        assert_eq!(protocol_schema::validate(&format!("{t}-request"), &r.to_message(9)), Ok(()), "{t}");
    }
    assert_eq!(names.len(), requests.len() * 2 + 2, "plus hello-request and hello-response");
}

/// After a restart, a fixture that fails to reload is dropped: the requests that need it are
/// errored with the reason, the start succeeds, and every other request — another fixture's,
/// a parse — goes on (it used to fail the whole start, and after three such starts every later
/// case, parse ones too). `reload_fails.py` reloads "a", refuses "b" and dies reloading "c".
#[test]
fn a_fixture_that_fails_to_reload_errors_only_its_own_cases() {
    use cal_conformance::protocol::{Answer, Request};
    let state = std::env::temp_dir().join(format!("cal-reload-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&state);
    std::fs::create_dir_all(&state).expect("state dir");
    let script = here().join("adapters/reload_fails.py");
    let mut sub =
        Subprocess::new(&format!("python3 '{}' '{}'", script.display(), state.display()), Duration::from_secs(20));
    sub.hello().expect("hello");
    let load = |name: &str| Request::LoadFixture { name: name.into(), path: format!("/fixtures/{name}.mg") };
    let exec = |fixture: &str, query: &str| Request::Execute {
        fixture: fixture.into(),
        query: query.into(),
        clock: "2026-03-06T12:00:00Z".into(),
        params: serde_json::Map::new(),
        capability: None,
        session: Default::default(),
    };
    let parse = Request::Parse { query: Some("RECALL beliefs".into()), query_hex: None };
    for name in ["a", "b", "c"] {
        assert!(matches!(sub.request(&load(name)), Answer::Ok(_)), "{name} loads the first time");
    }
    assert!(matches!(sub.request(&exec("a", "RECALL beliefs")), Answer::Ok(_)));
    assert!(matches!(sub.request(&exec("b", "crash")), Answer::Errored(_)), "the adapter dies");
    // The restart reloads "a", refuses "b", dies on "c" and is started once more with "a".
    // (table: request, answered ok?, what an error message names)
    let table: Vec<(Request, bool, &str)> = vec![
        (exec("a", "RECALL beliefs"), true, ""),
        (exec("b", "RECALL beliefs"), false, "the store b is locked"),
        (exec("c", "RECALL beliefs"), false, "fixture \"c\" failed to reload"),
        (parse.clone(), true, ""),
        (exec("b", "RECALL goals"), false, "fixture \"b\" failed to reload after the adapter restarted"),
        (exec("a", "RECALL goals"), true, ""),
        (parse, true, ""),
    ];
    for (request, ok, names) in &table {
        match sub.request(request) {
            Answer::Ok(_) => assert!(ok, "{request:?} was answered"),
            Answer::Errored(m) => assert!(!ok && m.contains(names), "{request:?}: {m}"),
            Answer::Skipped(m) => panic!("{request:?} skipped: {m}"),
        }
    }
    assert_eq!(sub.starts(), 3, "the first start, the restart that lost c, and the one after it");
    // A load_fixture request itself is still sent (this adapter refuses it again).
    assert!(matches!(sub.request(&load("b")), Answer::Errored(m) if m.contains("locked")));
    let _ = std::fs::remove_dir_all(&state);
}

/// A diagnostic code has one shape in every answer that carries one (PROTOCOL.md, ruling
/// C31): a CAL code or the engine's own, any non-empty string without spaces. The schema
/// judges the shape; the case judges the code. (code, accepted by the schemas?)
#[test]
fn parse_and_serialize_answers_accept_the_same_codes() {
    let table = [
        ("CAL-E002", true),
        ("CAL-W005", true),
        ("CAL-E9001", true),
        ("ACME-SYNTAX-17", true),
        ("E_PARSE", true),
        ("", false),
        ("CAL E002", false),
        ("CAL-E002\n", false),
    ];
    for (code, ok) in table {
        let parse = json!({"id": 1, "status": "ok", "result": {"accept": false,
            "diagnostics": [{"code": code, "message": "m", "severity": "error", "phase": "parse"}]}});
        let serialize = json!({"id": 1, "status": "ok", "result": {"error": {"code": code, "message": "m"}}});
        assert_eq!(protocol_schema::validate("parse-response", &parse).is_ok(), ok, "parse {code:?}");
        assert_eq!(protocol_schema::validate("serialize-response", &serialize).is_ok(), ok, "serialize {code:?}");
    }
}
