//! Diagnostics as the wire shows them: the §22.1 error object. Shared by the
//! envelope, BATCH slots and the stream's `error` event.

use cal_grammar::Diagnostic;
use serde_json::{Map, Value as Json, json};

/// A diagnostic as an §22.1 error object (byte offsets; the CLI adds line and column).
pub fn diagnostic_json(d: &Diagnostic) -> Json {
    let mut m = Map::new();
    m.insert("code".into(), d.code.as_str().into());
    m.insert("message".into(), d.message.clone().into());
    m.insert("suggestion".into(), d.suggestion_or_default().into());
    if let Some(e) = &d.example {
        m.insert("example".into(), e.clone().into());
    }
    if !d.valid_values.is_empty() {
        m.insert("valid_values".into(), json!(d.valid_values));
    }
    if !d.span.is_empty() {
        m.insert("position".into(), json!({ "start": d.span.start, "end": d.span.end }));
    }
    Json::Object(m)
}
