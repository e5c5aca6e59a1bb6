//! Execute cases that need a session (PROTOCOL.md "execute": `setup`, `settings`,
//! `stream`; ruling C22): our engine passes them, an engine that ignores those members
//! fails them with the right checks, and one that declares the capability missing gets
//! them reported not applicable. Writes made by the query itself (`then`, `expect.store_change`,
//! ruling C23) fail an engine that does not write.

use cal_conformance::capability::Capability;
use cal_conformance::case::{Body, Session};
use cal_conformance::inprocess::InProcess;
use cal_conformance::protocol::{Answer, Hello, Request};
use cal_conformance::runner::{self, RunOptions, Status};
use cal_conformance::{Case, Implementation, default_cases_dir, default_fixtures_dir, load_corpus};
use serde_json::json;

fn session_cases() -> Vec<Case> {
    let corpus = load_corpus(&default_cases_dir());
    assert!(corpus.errors.is_empty(), "{:#?}", corpus.errors);
    corpus
        .cases
        .into_iter()
        .filter(|c| matches!(&c.body, Body::Execute(e) if !e.session.is_empty() || e.expect.store_change.is_some()))
        .collect()
}

fn opts() -> RunOptions {
    RunOptions { fixtures_dir: default_fixtures_dir(), ..RunOptions::default() }
}

/// Our engine behind a transport that drops the session members: setup queries are not run,
/// settings not applied, nothing is streamed.
struct Forgetful(InProcess);

impl Implementation for Forgetful {
    fn hello(&mut self) -> Result<Hello, String> {
        self.0.hello()
    }

    fn request(&mut self, request: &Request) -> Answer {
        match request {
            Request::Execute { fixture, query, clock, params, capability, .. } => self.0.request(&Request::Execute {
                fixture: fixture.clone(),
                query: query.clone(),
                clock: clock.clone(),
                params: params.clone(),
                capability: capability.clone(),
                session: Session::default(),
            }),
            other => self.0.request(other),
        }
    }
}

#[test]
fn the_session_cases_cover_each_code_five_times_and_our_engine_passes_them() {
    let cases = session_cases();
    for code in ["E031", "E075", "E082", "E088", "E089", "W005"] {
        let n = cases.iter().filter(|c| c.tags.iter().any(|t| t == code)).count();
        assert!(n >= 5, "{code}: {n} cases");
    }
    // The HTTP cases need a server, which the in-process engine does not have (cli/tests/conformance.rs).
    let outcomes = runner::run(&mut InProcess::new(), &cases, &RunOptions { lacks: vec![Capability::Http], ..opts() });
    let bad: Vec<_> =
        outcomes.iter().filter(|o| o.status != Status::Passed && o.status != Status::NotApplicable).collect();
    assert!(bad.is_empty(), "{bad:#?}");
    let writes = outcomes.iter().filter(|o| o.id.starts_with("execute.write.")).count();
    assert!(writes >= 15, "{writes} write-as-query cases");
    let n052 = cases.iter().filter(|c| c.tags.iter().any(|t| t == "E052")).count();
    assert!(n052 >= 5, "E052: {n052} cases");
}

/// Our engine behind a transport that answers every Tier 1 write as if it succeeded but writes
/// nothing (the query becomes a read of no grain).
struct WritesNothing(InProcess);

impl Implementation for WritesNothing {
    fn hello(&mut self) -> Result<Hello, String> {
        self.0.hello()
    }

    fn request(&mut self, request: &Request) -> Answer {
        match request {
            Request::Execute { fixture, query, clock, params, capability, session }
                if ["ADD", "SUPERSEDE", "REVERT"].iter().any(|w| query.starts_with(w)) =>
            {
                self.0.request(&Request::Execute {
                    fixture: fixture.clone(),
                    query: "RECALL beliefs LIMIT 0".into(),
                    clock: clock.clone(),
                    params: params.clone(),
                    capability: capability.clone(),
                    session: session.clone(),
                })
            }
            other => self.0.request(other),
        }
    }
}

#[test]
fn an_engine_that_does_not_write_fails_the_declared_store_change() {
    let cases: Vec<Case> = session_cases().into_iter().filter(|c| c.id.starts_with("execute.write.")).collect();
    let outcomes = runner::run(&mut WritesNothing(InProcess::new()), &cases, &opts());
    // The evolve ones are the Tier 1 writes (the full ones define a template).
    for o in outcomes.iter().filter(|o| o.level == cal_conformance::Level::Evolve) {
        assert_eq!(o.status, Status::Failed, "{}: {o:?}", o.id);
        assert!(o.mismatches.iter().any(|m| m.what.starts_with("store change")), "{o:#?}");
    }
    let supersede = outcomes.iter().find(|o| o.id == "execute.write.006").expect("execute.write.006");
    assert!(supersede.mismatches.iter().any(|m| m.what == "store change: superseded" && m.source == "§8.9"));
    // An engine that drops the follow-up queries cannot pass a case judged by them.
    let forgetful = runner::run(&mut Forgetful(InProcess::new()), &cases, &opts());
    assert!(forgetful.iter().all(|o| o.status == Status::Failed), "{forgetful:#?}");
}

#[test]
fn an_engine_that_ignores_the_session_fails_the_cases_that_need_it() {
    let cases = session_cases();
    let outcomes = runner::run(&mut Forgetful(InProcess::new()), &cases, &opts());
    let status = |id: &str| outcomes.iter().find(|o| o.id == id).map(|o| (o.status, o.mismatches.clone())).unwrap();
    for id in [
        "execute.timeout.001",
        "execute.assemble-timeout.001",
        "execute.template-dup.001",
        "execute.template-limit.001",
        "execute.auto-toon.001",
        "execute.stream-cancel.001",
        "execute.template.003",
    ] {
        assert_eq!(status(id).0, Status::Failed, "{id}: {:?}", status(id));
    }
    let stream = status("execute.stream-cancel.001").1;
    assert!(stream.iter().any(|m| m.what == "the last stream event" && m.source == "§11.1"), "{stream:#?}");
    assert!(stream.iter().any(|m| m.what == "the stream's code"), "{stream:#?}");
    // The controls, which ask for what an engine does anyway, still pass.
    assert_eq!(status("execute.timeout.009").0, Status::Passed);
}

#[test]
fn an_engine_without_the_capabilities_gets_the_cases_not_applicable() {
    let cases = session_cases();
    let lacks =
        vec![Capability::Session, Capability::Settings, Capability::Streaming, Capability::FollowUp, Capability::Http];
    let outcomes = runner::run(&mut Forgetful(InProcess::new()), &cases, &RunOptions { lacks, ..opts() });
    assert!(outcomes.iter().all(|o| o.status == Status::NotApplicable), "{outcomes:#?}");
    let one = &outcomes[0];
    assert!(one.message.as_deref().is_some_and(|m| m.contains("not applicable: needs")), "{one:?}");
}

#[test]
fn the_session_members_travel_in_the_execute_request() {
    let session = Session {
        setup: vec!["DEFINE TEMPLATE t ELEMENT { x }".into()],
        settings: json!({"query_timeout_ms": 0}).as_object().cloned().unwrap(),
        stream: Some(cal_conformance::case::StreamRequest { cancel_after: 2 }),
        then: vec!["RECALL beliefs WHERE subject = \"zoe\"".into()],
        http: Some(Box::new(cal_conformance::case::HttpExchange {
            endpoint: "resume".into(),
            accept: Some("text/event-stream".into()),
            assembly_id: Some("asm_1".into()),
            last_event_id: Some(4),
        })),
    };
    let request = Request::Execute {
        fixture: "f".into(),
        query: "RECALL beliefs".into(),
        clock: "2026-03-06T12:00:00Z".into(),
        params: Default::default(),
        capability: None,
        session,
    };
    let message = request.to_message(3);
    assert_eq!(message["setup"], json!(["DEFINE TEMPLATE t ELEMENT { x }"]));
    assert_eq!(message["settings"], json!({"query_timeout_ms": 0}));
    assert_eq!(message["stream"], json!({"cancel_after": 2}));
    assert_eq!(message["then"], json!(["RECALL beliefs WHERE subject = \"zoe\""]));
    assert_eq!(
        message["http"],
        json!({"endpoint": "resume", "accept": "text/event-stream", "assembly_id": "asm_1", "last_event_id": 4})
    );
    assert_eq!(cal_conformance::protocol_schema::validate("execute-request", &message), Ok(()));
    let plain = Request::Execute {
        fixture: "f".into(),
        query: "RECALL beliefs".into(),
        clock: "2026-03-06T12:00:00Z".into(),
        params: Default::default(),
        capability: None,
        session: Session::default(),
    };
    let message = plain.to_message(4);
    assert!(message.get("setup").is_none() && message.get("settings").is_none() && message.get("stream").is_none());
    assert!(message.get("then").is_none() && message.get("http").is_none());
}

#[test]
fn a_setup_query_that_is_refused_errors_the_case() {
    let mut imp = InProcess::new();
    let path = default_fixtures_dir().join("beliefs-basic.mg");
    assert!(matches!(imp.load_fixture("bb", &path), Answer::Ok(_)));
    let session = Session { setup: vec!["DEFINE TEMPLATE t EXTENDS data ELEMENT { x }".into()], ..Session::default() };
    let answer =
        imp.execute_in("bb", "DESCRIBE templates", "2026-03-06T12:00:00Z", &Default::default(), None, &session);
    assert!(matches!(&answer, Answer::Errored(m) if m.contains("setup query 1 was refused")), "{answer:?}");
}
