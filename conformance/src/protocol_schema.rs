//! The protocol's JSON Schemas (`schema/protocol/*.schema.json`, draft 2020-12),
//! compiled once. The runner validates every adapter message against them and
//! the adapter every request, so a malformed message becomes an `errored`
//! answer naming its JSON pointer — never a panic, never a guess.

use jsonschema::Validator;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::LazyLock;

/// Every protocol schema by message name (`parse-request`, `parse-response`, `hello-response`, …).
pub const SCHEMAS: &[(&str, &str)] = &[
    ("execute-request", include_str!("../schema/protocol/execute-request.schema.json")),
    ("execute-response", include_str!("../schema/protocol/execute-response.schema.json")),
    ("hello-request", include_str!("../schema/protocol/hello-request.schema.json")),
    ("hello-response", include_str!("../schema/protocol/hello-response.schema.json")),
    ("load_fixture-request", include_str!("../schema/protocol/load_fixture-request.schema.json")),
    ("load_fixture-response", include_str!("../schema/protocol/load_fixture-response.schema.json")),
    ("mg_decode-request", include_str!("../schema/protocol/mg_decode-request.schema.json")),
    ("mg_decode-response", include_str!("../schema/protocol/mg_decode-response.schema.json")),
    ("mg_encode-request", include_str!("../schema/protocol/mg_encode-request.schema.json")),
    ("mg_encode-response", include_str!("../schema/protocol/mg_encode-response.schema.json")),
    ("parse-request", include_str!("../schema/protocol/parse-request.schema.json")),
    ("parse-response", include_str!("../schema/protocol/parse-response.schema.json")),
    ("serialize-request", include_str!("../schema/protocol/serialize-request.schema.json")),
    ("serialize-response", include_str!("../schema/protocol/serialize-response.schema.json")),
];

static VALIDATORS: LazyLock<HashMap<&'static str, Result<Validator, String>>> = LazyLock::new(|| {
    SCHEMAS
        .iter()
        .map(|(name, text)| {
            let compiled = serde_json::from_str::<Value>(text)
                .map_err(|e| e.to_string())
                .and_then(|schema| jsonschema::draft202012::new(&schema).map_err(|e| e.to_string()));
            (*name, compiled)
        })
        .collect()
});

/// Validates `message` against the schema called `name`; the error names the first violation's pointer.
pub fn validate(name: &str, message: &Value) -> Result<(), String> {
    match VALIDATORS.get(name) {
        None => Err(format!("no protocol schema named {name:?}")),
        Some(Err(e)) => Err(format!("the protocol schema {name} does not compile: {e}")),
        Some(Ok(v)) => match v.iter_errors(message).next() {
            None => Ok(()),
            Some(e) => {
                let pointer = e.instance_path().as_str().to_string();
                let at = if pointer.is_empty() { "/".to_string() } else { pointer };
                Err(format!("malformed {name} message at {at}: {e}"))
            }
        },
    }
}
