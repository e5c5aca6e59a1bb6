//! Execution for the in-process implementation: fixture stores loaded once
//! and shared by every case that names them, an injected clock per request,
//! the capability token applied as the interpreter's confinement, and the
//! store digest (`cal_interp::store_digest`) taken before and after.

use crate::case::{Session, StreamRequest};
use crate::protocol::Answer;
use cal_checker::Params;
use cal_grammar::Diagnostic;
use cal_interp::stream::{CancelToken, Control, Event};
use cal_interp::{ExecOptions, InterpConfig, Interpreter, OmsFacade, ReadFacade, Timing, diagnostic_json};
use cal_planner::CURRENT_USER_PARAM;
use oms::store::{Store, StoreConfig};
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

/// A loaded fixture: the store, the clock cell its configuration reads, and its digest.
struct Fixture {
    /// The `.mg` bytes, for the database an evolve case writes to.
    bytes: Arc<Vec<u8>>,
    store: Arc<Store>,
    clock: Arc<AtomicI64>,
    digest: String,
    /// The fixture's grains embedded, when the implementation runs with an embedder.
    semantic: Option<Arc<cal_embed::Retriever>>,
}

/// The fixtures loaded so far, by name.
#[derive(Default)]
pub(crate) struct Fixtures {
    loaded: HashMap<String, Fixture>,
    /// The embedder every fixture's grains are embedded with (cross-lingual search, §16.4).
    pub(crate) embedder: Option<cal_embed::EmbedderConfig>,
}

impl Fixtures {
    /// Loads `path` as `name` (loading the same name again replaces it).
    pub(crate) fn load(&mut self, name: &str, path: &Path) -> Answer {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => return Answer::Errored(format!("cannot read {}: {e}", path.display())),
        };
        let clock = Arc::new(AtomicI64::new(0));
        let reader = Arc::clone(&clock);
        let config = StoreConfig {
            clock: Arc::new(move || reader.load(Ordering::SeqCst)),
            track_access: false,
            ..StoreConfig::default()
        };
        match Store::load(&bytes, config) {
            Ok(store) => {
                let digest = cal_interp::store_digest(&store);
                let grains = store.len();
                let semantic = match self.embedder.clone().map(|c| embed_fixture(&store, c)).transpose() {
                    Ok(s) => s,
                    Err(e) => {
                        return Answer::Errored(format!("{}: the grains could not be embedded: {e}", path.display()));
                    }
                };
                self.loaded.insert(
                    name.to_string(),
                    Fixture { bytes: Arc::new(bytes), store: Arc::new(store), clock, digest, semantic },
                );
                Answer::Ok(json!({ "grains": grains }))
            }
            Err(e) => Answer::Errored(format!("{}: {e} ({})", path.display(), e.code())),
        }
    }

    /// Runs one query against a loaded fixture.
    pub(crate) fn execute(
        &mut self,
        fixture: &str,
        query: &str,
        clock: &str,
        params: &Map<String, Value>,
        capability: Option<&str>,
        session: &Session,
    ) -> Answer {
        let Some(f) = self.loaded.get_mut(fixture) else {
            return Answer::Errored(format!("fixture {fixture:?} is not loaded"));
        };
        let Some(now_ms) = oms::time::parse_rfc3339_ms(clock) else {
            return Answer::Errored(format!("clock {clock:?} is not RFC 3339"));
        };
        f.clock.store(now_ms, Ordering::SeqCst);
        let before = f.digest.clone();
        let Some(now_ms) = oms::time::parse_rfc3339_ms(clock) else {
            return Answer::Errored(format!("clock {clock:?} is not RFC 3339"));
        };
        if let Some(answer) = evolve::execute(&f.bytes, &before, query, now_ms, params, capability, session) {
            return answer;
        }
        let facade = OmsFacade::new(Arc::clone(&f.store));
        let ran = match run_session(facade, query, now_ms, params, capability, session, f.semantic.clone()) {
            Ok(ran) => ran,
            Err(m) => return Answer::Errored(m),
        };
        let after = cal_interp::store_digest(&f.store);
        // A changed store is reported by the comparison; keep the new state as the baseline.
        f.digest = after.clone();
        let mut result =
            json!({ "response": ran.response, "store_digest_before": before, "store_digest_after": after });
        if let Some(events) = ran.events {
            result["events"] = Value::Array(events);
        }
        if !session.then.is_empty() {
            result["then"] = Value::Array(ran.then);
        }
        Answer::Ok(result)
    }
}

/// Embeds every grain of a fixture store with `config`'s embedder.
fn embed_fixture(store: &Store, config: cal_embed::EmbedderConfig) -> Result<Arc<cal_embed::Retriever>, String> {
    let retriever = cal_embed::Retriever::new(config).map_err(|e| e.to_string())?;
    let grains: Vec<oms::store::Stored> = store.addresses().iter().filter_map(|a| store.peek(a)).collect();
    retriever.index_grains(grains.iter().map(|s| (s.address, s.grain())), |_| {}).map_err(|e| e.to_string())?;
    Ok(Arc::new(retriever))
}

#[path = "inprocess_evolve.rs"]
mod evolve;

/// What the runner's `capability` carries for us: a §18.1 token as JSON text, or a bare namespace.
#[derive(Default)]
pub(crate) struct Capability {
    pub(crate) namespace: Option<String>,
    pub(crate) user: Option<String>,
    pub(crate) tier1: bool,
    /// §18.1 `write_quota_remaining`, when the case states one.
    pub(crate) write_quota: Option<u64>,
}

impl Capability {
    pub(crate) fn parse(text: Option<&str>) -> Capability {
        let Some(text) = text else { return Capability::default() };
        match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(token)) => Capability {
                namespace: token.get("namespace").and_then(Value::as_str).map(str::to_string),
                user: token.get("user_id").and_then(Value::as_str).map(str::to_string),
                tier1: token.get("tier").and_then(Value::as_u64) == Some(1),
                write_quota: token.get("write_quota_remaining").and_then(Value::as_u64),
            },
            _ => Capability { namespace: Some(text.to_string()), ..Capability::default() },
        }
    }
}

/// Runs one execute request — query, clock, parameters, capability — against any facade, exactly
/// as the in-process implementation answers a case (minus the store digests): the differential
/// test of the durable store runs every execute case through this on both kinds of store.
/// `None` when the clock is not RFC 3339.
pub fn execute_with<F: ReadFacade>(
    facade: F,
    query: &str,
    clock: &str,
    params: &Map<String, Value>,
    capability: Option<&str>,
) -> Option<Value> {
    let now_ms = oms::time::parse_rfc3339_ms(clock)?;
    run_session(facade, query, now_ms, params, capability, &Session::default(), None).ok().map(|r| r.response)
}

/// What a session produced: the query's response, the events of a streamed delivery, and the
/// responses of the `then` queries run after it.
struct Ran {
    response: Value,
    events: Option<Vec<Value>>,
    then: Vec<Value>,
}

/// Runs one execute request in a session of its own: one interpreter configured with the
/// token and the request's settings runs the setup queries (an error in one is reported, the
/// case cannot be judged without it), then the query — streamed when asked.
fn run_session<F: ReadFacade>(
    facade: F,
    query: &str,
    now_ms: i64,
    params: &Map<String, Value>,
    capability: Option<&str>,
    session: &Session,
    semantic: Option<Arc<cal_embed::Retriever>>,
) -> Result<Ran, String> {
    let token = Capability::parse(capability);
    let (bound, opts) = request_options(params, &token, now_ms);
    let mut config = InterpConfig {
        namespace: token.namespace.clone(),
        tier1_enabled: token.tier1,
        semantic,
        ..InterpConfig::default()
    };
    apply_settings(&mut config, &session.settings)?;
    let interp = Interpreter::new(facade, config);
    for (i, text) in session.setup.iter().enumerate() {
        let response = run(&interp, text, &bound, &opts, None).response;
        if let Some(code) = response.pointer("/error/code") {
            return Err(format!("setup query {} was refused with {code}: {text}", i + 1));
        }
    }
    let mut ran = run(&interp, query, &bound, &opts, session.stream);
    ran.then = session.then.iter().map(|text| run(&interp, text, &bound, &opts, None).response).collect();
    Ok(ran)
}

/// A request's parameters (with `$current_user_id` bound to the token's user unless given) and
/// its options: the injected clock, the user, fixed timing.
pub(crate) fn request_options(params: &Map<String, Value>, token: &Capability, now_ms: i64) -> (Params, ExecOptions) {
    let mut bound = Params::from_json_object(params);
    if let Some(user) = &token.user
        && bound.get(CURRENT_USER_PARAM).is_none()
    {
        bound.bind(CURRENT_USER_PARAM, Value::String(user.clone()));
    }
    let opts = ExecOptions {
        now_ms,
        user: token.user.clone(),
        params: bound.iter().map(|(k, v)| (k.to_string(), v.clone())).collect(),
        timing: Timing::Fixed(0),
        ..ExecOptions::default()
    };
    (bound, opts)
}

/// A request's deployment settings applied to the interpreter's configuration.
fn apply_settings(config: &mut InterpConfig, settings: &Map<String, Value>) -> Result<(), String> {
    for (name, value) in settings {
        match (name.as_str(), value) {
            ("query_timeout_ms", v) if v.is_u64() => config.query_timeout_ms = v.as_u64().unwrap_or_default(),
            ("assemble_timeout_ms", v) if v.is_u64() => config.assemble_timeout_ms = v.as_u64().unwrap_or_default(),
            ("auto_toon", Value::Bool(b)) => config.auto_toon = *b,
            _ => return Err(format!("unknown setting {name:?} = {value}")),
        }
    }
    Ok(())
}

/// Parses, checks and runs one query; static errors become an error response like a run-time
/// one. With `stream`, an ASSEMBLE's events are collected, and the assembly cancelled once
/// `cancel_after` of them arrived.
fn run<F: ReadFacade>(
    interp: &Interpreter<F>,
    query: &str,
    params: &Params,
    opts: &ExecOptions,
    stream: Option<StreamRequest>,
) -> Ran {
    let plain = |response| Ran { response, events: stream.map(|_| Vec::new()), then: Vec::new() };
    let analysis = cal_checker::analyze(query, Some(params));
    // What §17.1's pipeline reports (C37): a query the parser refused is not validated.
    let reported = analysis.pipeline_diagnostics();
    let warnings: Vec<Value> = reported.iter().filter(|d| !d.is_error()).map(|d| diagnostic_json(d)).collect();
    if let Some(first) = reported.into_iter().find(|d| d.is_error()) {
        return plain(static_error(first, warnings));
    }
    let Some(doc) = analysis.document else {
        return plain(json!({ "error": { "code": "CAL-E014", "message": "no query" } }));
    };
    let [q] = doc.queries.as_slice() else {
        return plain(json!({ "error": { "code": "CAL-E002", "message": "an execute case holds exactly one query" } }));
    };
    let (mut response, events) = match stream {
        None => (interp.execute(q, opts).json, None),
        Some(s) => {
            let mut events: Vec<Value> = Vec::new();
            let mut sink = |e: &Event| {
                events.push(e.to_json());
                if events.len() as u64 >= s.cancel_after {
                    Control::Cancel("the client cancelled".into())
                } else {
                    Control::Continue
                }
            };
            let response = interp.execute_stream(q, opts, &mut sink, &CancelToken::new()).json;
            (response, Some(events))
        }
    };
    if !warnings.is_empty() {
        merge_warnings(&mut response, warnings);
    }
    Ran { response, events, then: Vec::new() }
}

/// A static error in the shape of the §14.1 envelope's `error` member.
pub(crate) fn static_error(d: &Diagnostic, warnings: Vec<Value>) -> Value {
    let mut r = json!({ "_cal": { "version": cal_interp::CAL_VERSION }, "error": diagnostic_json(d) });
    if !warnings.is_empty() {
        r["_cal"]["warnings"] = Value::Array(warnings);
    }
    r
}

/// Static warnings join the run's own in `_cal.warnings`, without duplicates.
fn merge_warnings(response: &mut Value, warnings: Vec<Value>) {
    let Some(cal) = response.get_mut("_cal").and_then(Value::as_object_mut) else { return };
    let list = cal.entry("warnings").or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(items) = list {
        for w in warnings {
            if !items.iter().any(|i| i.get("code") == w.get("code")) {
                items.push(w);
            }
        }
    }
}
