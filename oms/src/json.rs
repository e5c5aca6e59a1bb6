//! JSON views of grains, for the command line and for tests: grains with
//! full field names in, grains with full field names out.
//!
//! JSON has no byte strings, so binary values travel as `{"$bin": "<hex>"}`;
//! JSON numbers written with a fraction or exponent (`1.0`) stay floats and
//! plain integers stay integers, so `1.0` is never silently turned into `1`.

use serde_json::{Map as JsonMap, Number, Value as Json};

use crate::address::{hex, unhex};
use crate::error::{CorruptReason, OmsError, Result};
use crate::grain::Grain;
use crate::value::{Map, Value};

/// Key of the single-entry object that carries binary data in JSON.
pub const BIN_KEY: &str = "$bin";

/// Converts JSON to a payload value.
pub fn from_json(j: &Json) -> Value {
    match j {
        Json::Null => Value::Null,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => {
            if let Some(u) = n.as_u64() {
                Value::Int(i128::from(u))
            } else if let Some(i) = n.as_i64() {
                Value::Int(i128::from(i))
            } else {
                Value::Float(n.as_f64().unwrap_or(f64::NAN))
            }
        }
        Json::String(s) => Value::Str(s.clone()),
        Json::Array(a) => Value::Array(a.iter().map(from_json).collect()),
        Json::Object(o) => {
            if o.len() == 1 {
                if let Some(Json::String(h)) = o.get(BIN_KEY) {
                    if let Some(bytes) = unhex(h) {
                        return Value::Bin(bytes);
                    }
                }
            }
            Value::Map(o.iter().map(|(k, v)| (k.clone(), from_json(v))).collect())
        }
    }
}

/// Converts a payload value to JSON.
pub fn to_json(v: &Value) -> Json {
    match v {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Int(i) => {
            if let Ok(u) = u64::try_from(*i) {
                Json::Number(u.into())
            } else if let Ok(s) = i64::try_from(*i) {
                Json::Number(s.into())
            } else {
                Json::String(i.to_string())
            }
        }
        Value::Float(f) => Number::from_f64(*f).map_or(Json::Null, Json::Number),
        Value::Str(s) => Json::String(s.clone()),
        Value::Bin(b) => {
            let mut o = JsonMap::new();
            o.insert(BIN_KEY.to_string(), Json::String(hex(b)));
            Json::Object(o)
        }
        Value::Array(a) => Json::Array(a.iter().map(to_json).collect()),
        Value::Map(m) => Json::Object(m.iter().map(|(k, v)| (k.clone(), to_json(v))).collect()),
    }
}

/// Converts a map to a JSON object.
pub fn map_to_json(m: &Map) -> Json {
    Json::Object(m.iter().map(|(k, v)| (k.clone(), to_json(v))).collect())
}

/// Parses JSON text (`ERR_CORRUPT` if it is not JSON).
pub fn parse_json(text: &str) -> Result<Json> {
    serde_json::from_str(text).map_err(|e| OmsError::corrupt(CorruptReason::Json(e.to_string())))
}

impl Grain {
    /// A grain from a JSON object with full field names (`ERR_NOT_MAP` if
    /// it is not an object).
    pub fn from_json(j: &Json) -> Result<Grain> {
        match from_json(j) {
            Value::Map(m) => Grain::new(m),
            _ => Err(OmsError::NotMap),
        }
    }

    /// A grain from JSON text.
    pub fn from_json_str(text: &str) -> Result<Grain> {
        Grain::from_json(&parse_json(text)?)
    }

    /// The grain as a JSON object with full field names.
    pub fn to_json(&self) -> Json {
        map_to_json(self.fields())
    }
}
