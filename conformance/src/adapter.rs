//! The adapter side of the protocol, serving our toolchain ([`InProcess`]) on
//! a reader and a writer: `cal conformance adapter` runs it on stdin/stdout,
//! which is how the protocol path itself is tested. Deliberately broken modes
//! ([`Broken`]) prove the suite can fail: an engine that accepts everything,
//! one that crashes or hangs on a given query, one that writes garbage.

use crate::implementation::Implementation;
use crate::inprocess::InProcess;
use crate::protocol::{Answer, Request, answer_message};
use crate::protocol_schema::validate;
use serde_json::{Value, json};
use std::io::{BufRead, Write};

/// A deliberately broken behaviour of the adapter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Broken {
    /// Accepts every query with an empty JSON form, returns no results, encodes nothing.
    AcceptAll,
    /// Exits (as a crash would) when a request's query contains this text.
    CrashOn(String),
    /// Never answers when a request's query contains this text.
    HangOn(String),
    /// Answers requests whose query contains this text with a line that is not JSON.
    GarbageOn(String),
}

impl Broken {
    /// Parses `accept-all`, `crash-on=TEXT`, `hang-on=TEXT` or `garbage-on=TEXT`.
    pub fn parse(spec: &str) -> Option<Broken> {
        if spec == "accept-all" {
            return Some(Broken::AcceptAll);
        }
        let (mode, text) = spec.split_once('=')?;
        let text = text.to_string();
        match mode {
            "crash-on" => Some(Broken::CrashOn(text)),
            "hang-on" => Some(Broken::HangOn(text)),
            "garbage-on" => Some(Broken::GarbageOn(text)),
            _ => None,
        }
    }
}

/// How serving ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The runner closed the input.
    Eof,
    /// A [`Broken::CrashOn`] trigger: the process should exit with a failure status.
    Crashed,
}

/// An engine's HTTP binding (§11.3, §26), for execute requests that carry `http`: the
/// conformance crate has no server, so whoever serves the adapter supplies one
/// (`cal conformance adapter` supplies ours, `cal-server`). Without one, `hello` declares the
/// `http` capability missing and those cases are not applicable.
pub trait HttpBinding {
    /// Answers one execute request with `http` over fixture `fixture` (its `.mg` file): the
    /// execute result object, with the endpoint's body as `response`.
    fn exchange(&mut self, fixture: &std::path::Path, request: &Request) -> Answer;
}

/// The most JSON values one request line may hold: a query's JSON form may hold
/// `cal_parser::json::MAX_QUERY_VALUES`, and a message carries one besides a few fields.
const MAX_MESSAGE_VALUES: usize = 4 * cal_parser::json::MAX_QUERY_VALUES;

/// Serves requests from `input` until it ends; answers go to `output`, one line each.
pub fn serve(input: impl BufRead, output: impl Write, broken: Option<&Broken>) -> std::io::Result<Ended> {
    serve_with(input, output, broken, None)
}

/// [`serve`] with an HTTP binding for the `http` requests (and the `http` capability).
pub fn serve_with(
    input: impl BufRead,
    mut output: impl Write,
    broken: Option<&Broken>,
    mut http: Option<&mut dyn HttpBinding>,
) -> std::io::Result<Ended> {
    let mut imp = InProcess::new();
    let mut fixtures: std::collections::HashMap<String, std::path::PathBuf> = std::collections::HashMap::new();
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        // A message is read within a value budget, so that a huge line cannot cost more
        // memory than the request it carries may (issue 19); the request inside is then
        // read with the JSON form's own limits.
        let message: Value = match cal_parser::json::read_value(&line, MAX_MESSAGE_VALUES) {
            Ok(v) => v,
            Err(e) => {
                let m = json!({ "id": 0, "status": "errored", "message": format!("not JSON: {e}") });
                writeln!(output, "{m}")?;
                output.flush()?;
                continue;
            }
        };
        if let (Some(binding), Some(reply)) = (http.as_deref_mut(), over_http(&message, &mut fixtures)) {
            let reply = match reply {
                Ok((id, request, path)) => answer_message(id, &binding.exchange(&path, &request)),
                Err((id, m)) => answer_message(id, &Answer::Errored(m)),
            };
            writeln!(output, "{reply}")?;
            output.flush()?;
            continue;
        }
        let reply = match react(&mut imp, &message, broken, http.is_some()) {
            Reaction::Reply(v) => v.to_string(),
            Reaction::Raw(s) => s,
            Reaction::Crash => return Ok(Ended::Crashed),
            // Long enough for any runner's timeout; finite, so a forgotten adapter ends on its own.
            Reaction::Hang => {
                std::thread::sleep(std::time::Duration::from_secs(120));
                return Ok(Ended::Eof);
            }
        };
        writeln!(output, "{reply}")?;
        output.flush()?;
    }
    Ok(Ended::Eof)
}

enum Reaction {
    Reply(Value),
    Raw(String),
    Crash,
    Hang,
}

/// An execute request with `http`, for the binding: its id, the request and its fixture's file
/// (`None` for every other message, which records the fixtures `load_fixture` names).
type HttpRequest = Result<(u64, Request, std::path::PathBuf), (u64, String)>;

fn over_http(
    message: &Value,
    fixtures: &mut std::collections::HashMap<String, std::path::PathBuf>,
) -> Option<HttpRequest> {
    let id = message.get("id").and_then(Value::as_u64).unwrap_or(0);
    match message.get("type").and_then(Value::as_str) {
        Some("load_fixture") => {
            if let (Some(n), Some(p)) =
                (message.get("name").and_then(Value::as_str), message.get("path").and_then(Value::as_str))
            {
                fixtures.insert(n.to_string(), p.into());
            }
            None
        }
        Some("execute") if message.get("http").is_some() => {
            if let Err(e) = validate("execute-request", message) {
                return Some(Err((id, e)));
            }
            let request = request_from(message)?;
            let fixture = message.get("fixture").and_then(Value::as_str).unwrap_or_default();
            Some(match fixtures.get(fixture) {
                Some(path) => Ok((id, request, path.clone())),
                None => Err((id, format!("fixture {fixture:?} is not loaded"))),
            })
        }
        _ => None,
    }
}

fn react(imp: &mut InProcess, message: &Value, broken: Option<&Broken>, http: bool) -> Reaction {
    let kind = message.get("type").and_then(Value::as_str).unwrap_or_default();
    if kind == "hello" {
        let mut hello = crate::inprocess::hello();
        if http {
            hello.lacks.retain(|c| *c != crate::capability::Capability::Http);
        }
        if broken.is_some() {
            hello.name = format!("{} (deliberately broken)", hello.name);
        }
        return Reaction::Reply(hello.to_message());
    }
    let id = message.get("id").and_then(Value::as_u64).unwrap_or(0);
    if let Err(e) = validate(&format!("{kind}-request"), message) {
        return Reaction::Reply(answer_message(id, &Answer::Errored(e)));
    }
    let request: Request = match request_from(message) {
        Some(r) => r,
        None => return Reaction::Reply(answer_message(id, &Answer::Errored("unreadable request".into()))),
    };
    let query = message.get("query").and_then(Value::as_str).unwrap_or_default();
    match broken {
        Some(Broken::CrashOn(t)) if query.contains(t.as_str()) => return Reaction::Crash,
        Some(Broken::HangOn(t)) if query.contains(t.as_str()) => return Reaction::Hang,
        Some(Broken::GarbageOn(t)) if query.contains(t.as_str()) => return Reaction::Raw("this is not JSON".into()),
        Some(Broken::AcceptAll) => return Reaction::Reply(answer_message(id, &Answer::Ok(accept_all(&request)))),
        _ => {}
    }
    Reaction::Reply(answer_message(id, &imp.request(&request)))
}

/// The request a schema-valid message carries.
fn request_from(m: &Value) -> Option<Request> {
    let s = |k: &str| m.get(k).and_then(Value::as_str).map(str::to_string);
    Some(match m.get("type")?.as_str()? {
        "parse" => Request::Parse { query: s("query"), query_hex: s("query_hex") },
        "serialize" => Request::Serialize { query: s("query"), json: m.get("json").cloned() },
        "load_fixture" => Request::LoadFixture { name: s("name")?, path: s("path")? },
        "execute" => Request::Execute {
            fixture: s("fixture")?,
            query: s("query")?,
            clock: s("clock")?,
            params: m.get("params").and_then(Value::as_object).cloned().unwrap_or_default(),
            capability: s("capability"),
            session: crate::case::Session {
                setup: m
                    .get("setup")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
                    .unwrap_or_default(),
                settings: m.get("settings").and_then(Value::as_object).cloned().unwrap_or_default(),
                stream: m.get("stream").and_then(|v| serde_json::from_value(v.clone()).ok()),
                then: m
                    .get("then")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
                    .unwrap_or_default(),
                http: m.get("http").and_then(|v| serde_json::from_value(v.clone()).ok()),
            },
        },
        "mg_encode" => Request::MgEncode { grain: m.get("grain")?.clone() },
        "mg_decode" => Request::MgDecode { hex: s("hex")? },
        _ => return None,
    })
}

/// The answers of an engine that accepts everything and knows nothing.
fn accept_all(request: &Request) -> Value {
    match request {
        Request::Parse { .. } => json!({ "accept": true, "json": {}, "canonical": "", "diagnostics": [] }),
        Request::Serialize { query: Some(_), .. } => json!({ "json": {} }),
        Request::Serialize { .. } => json!({ "text": "" }),
        Request::LoadFixture { .. } => json!({ "grains": 0 }),
        Request::Execute { .. } => json!({
            "response": { "results": [], "total": 0 },
            "store_digest_before": "same",
            "store_digest_after": "same"
        }),
        Request::MgEncode { .. } => json!({ "hex": "", "address": "0".repeat(64) }),
        Request::MgDecode { .. } => json!({ "grain": {} }),
    }
}
