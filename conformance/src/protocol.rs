//! The messages of the adapter protocol (`conformance/PROTOCOL.md`): what the
//! runner asks an implementation and the three shapes of answer. In-process
//! and subprocess implementations exchange exactly these values, so a case is
//! judged the same way whichever path ran it.

use crate::case::Level;
use serde::Serialize;
use serde_json::{Map, Value, json};

/// The protocol version this runner speaks (`hello.protocol`).
pub const PROTOCOL_VERSION: u64 = 1;

/// One request to an implementation (without its `id`, which the transport adds).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
// One request exists at a time (sent, answered, dropped); boxing the execute session would only
// add noise at every construction site.
#[allow(clippy::large_enum_variant)]
pub enum Request {
    /// Lex, parse and statically check one query (CAL §22 phases up to check).
    Parse {
        /// The query text, when it is valid UTF-8.
        #[serde(skip_serializing_if = "Option::is_none")]
        query: Option<String>,
        /// The query's raw bytes as hex, when it is not.
        #[serde(skip_serializing_if = "Option::is_none")]
        query_hex: Option<String>,
    },
    /// Convert between text/cal and application/json+cal (CAL §15): exactly one of the two.
    Serialize {
        /// text → JSON.
        #[serde(skip_serializing_if = "Option::is_none")]
        query: Option<String>,
        /// JSON → canonical text.
        #[serde(skip_serializing_if = "Option::is_none")]
        json: Option<Value>,
    },
    /// Load a fixture store (an OMS `.mg` file) under a name, once per run.
    LoadFixture {
        /// The name execute requests use.
        name: String,
        /// Absolute path of the `.mg` file.
        path: String,
    },
    /// Run one query against a loaded fixture.
    Execute {
        /// The fixture's name.
        fixture: String,
        /// The query text.
        query: String,
        /// The injected "now", RFC 3339 UTC.
        clock: String,
        /// Parameter bindings.
        params: Map<String, Value>,
        /// The capability token (CAL §18.1) as JSON text, or a bare namespace.
        #[serde(skip_serializing_if = "Option::is_none")]
        capability: Option<String>,
        /// Queries run first, settings, a streamed delivery (each member only when used).
        #[serde(flatten)]
        session: crate::case::Session,
    },
    /// Encode a grain (OMS JSON form) to its canonical blob.
    MgEncode {
        /// The grain.
        grain: Value,
    },
    /// Decode a blob.
    MgDecode {
        /// The blob, hex.
        hex: String,
    },
}

impl Request {
    /// The request's `type`, for reports and schema lookup.
    pub fn type_name(&self) -> &'static str {
        match self {
            Request::Parse { .. } => "parse",
            Request::Serialize { .. } => "serialize",
            Request::LoadFixture { .. } => "load_fixture",
            Request::Execute { .. } => "execute",
            Request::MgEncode { .. } => "mg_encode",
            Request::MgDecode { .. } => "mg_decode",
        }
    }

    /// The request as one protocol line's object, with its `id`.
    pub fn to_message(&self, id: u64) -> Value {
        let mut v = serde_json::to_value(self).unwrap_or(Value::Null);
        if let Value::Object(m) = &mut v {
            m.insert("id".into(), id.into());
        }
        v
    }
}

/// An implementation's answer to one request.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// The implementation answered; the value is the request type's `result` object.
    Ok(Value),
    /// The implementation does not support what was asked (a feature above its level).
    Skipped(String),
    /// The request could not be answered: a crash, a timeout, a malformed message, an internal error.
    Errored(String),
}

impl Answer {
    /// The status word of the protocol and the report.
    pub fn status(&self) -> &'static str {
        match self {
            Answer::Ok(_) => "ok",
            Answer::Skipped(_) => "skipped",
            Answer::Errored(_) => "errored",
        }
    }
}

/// What an implementation says about itself in the `hello` exchange.
#[derive(Debug, Clone, PartialEq)]
pub struct Hello {
    /// The implementation's name.
    pub name: String,
    /// Its version.
    pub version: String,
    /// The level it claims (CAL §24 "Implementations MUST declare conformance").
    pub level: Level,
    /// Its configurable limits (§17.3 "Implementation-configurable"), by the grammar's constant name.
    pub limits: Map<String, Value>,
    /// The capabilities it declared it lacks (`"capabilities": {"clock": false}`): the cases
    /// needing them are not applicable. Empty when it declares none (everything offered).
    pub lacks: Vec<crate::capability::Capability>,
}

impl Hello {
    /// The `hello` answer line.
    pub fn to_message(&self) -> Value {
        json!({
            "type": "hello",
            "protocol": PROTOCOL_VERSION,
            "name": self.name,
            "version": self.version,
            "level": self.level.as_str(),
            "limits": self.limits,
            "capabilities": crate::capability::Capability::ALL
                .iter()
                .map(|c| (c.as_str().to_string(), Value::Bool(!self.lacks.contains(c))))
                .collect::<Map<String, Value>>(),
        })
    }

    /// Reads a schema-valid `hello` answer.
    pub fn from_message(v: &Value) -> Option<Hello> {
        Some(Hello {
            name: v.get("name")?.as_str()?.to_string(),
            version: v.get("version")?.as_str()?.to_string(),
            level: Level::parse(v.get("level")?.as_str()?)?,
            limits: v.get("limits").and_then(Value::as_object).cloned().unwrap_or_default(),
            lacks: {
                let declared = v.get("capabilities").and_then(Value::as_object);
                let offered = |c: crate::capability::Capability| {
                    let said = declared.and_then(|m| m.get(c.as_str())).and_then(Value::as_bool);
                    // An opt-in capability is offered only when declared; the others unless refused.
                    if c.opt_in() { said == Some(true) } else { said != Some(false) }
                };
                crate::capability::Capability::ALL.into_iter().filter(|c| !offered(*c)).collect()
            },
        })
    }
}

/// The `hello` the runner sends first.
pub fn hello_request() -> Value {
    json!({ "type": "hello", "protocol": PROTOCOL_VERSION })
}

/// An answer as one protocol line (the adapter side).
pub fn answer_message(id: u64, answer: &Answer) -> Value {
    match answer {
        Answer::Ok(result) => json!({ "id": id, "status": "ok", "result": result }),
        Answer::Skipped(reason) => json!({ "id": id, "status": "skipped", "reason": reason }),
        Answer::Errored(message) => json!({ "id": id, "status": "errored", "message": message }),
    }
}
