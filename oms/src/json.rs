//! JSON views of grains, for the command line and for tests: grains with
//! full field names in, grains with full field names out.
//!
//! JSON has no byte strings, so binary values travel as `{"$bin": "<hex>"}`;
//! JSON numbers written with a fraction or exponent (`1.0`) stay floats and
//! plain integers stay integers, so `1.0` is never silently turned into `1`;
//! only in float-typed fields does the grain builder make `1` a float
//! (`schema::coerce_float_fields`). Grain JSON text is parsed with
//! [`parse_json`], which refuses an object that repeats a key.

use std::collections::HashSet;

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
            if o.len() == 1
                && let Some(Json::String(h)) = o.get(BIN_KEY)
                && let Some(bytes) = unhex(h)
            {
                return Value::Bin(bytes);
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

/// Parses JSON text: `ERR_CORRUPT` if it is not JSON, or if any object, at
/// any depth, has the same key twice (§4.1; a JSON parser would silently keep
/// the last value, so the grain encoded would not be the one written). The
/// error names the key and the object's JSON Pointer.
pub fn parse_json(text: &str) -> Result<Json> {
    let json = serde_json::from_str(text).map_err(|e| OmsError::corrupt(CorruptReason::Json(e.to_string())))?;
    if let Some((path, key)) = duplicate_key(text) {
        return Err(OmsError::corrupt(CorruptReason::DuplicateJsonKey { key, path }));
    }
    Ok(json)
}

/// An open container met while scanning JSON text.
enum Frame {
    Object {
        /// JSON Pointer of the object.
        pointer: String,
        /// Keys seen so far.
        keys: HashSet<String>,
        /// The last key, whose value comes next.
        key: Option<String>,
        /// The next string is a key (after `{` or `,`), not a value (after `:`).
        want_key: bool,
    },
    Array {
        /// JSON Pointer of the array.
        pointer: String,
        /// Position of the current element.
        index: usize,
    },
}

/// The pointer of a container that starts inside `parent`.
fn child_pointer(parent: Option<&Frame>) -> String {
    match parent {
        None => String::new(),
        Some(Frame::Object { pointer, key, .. }) => {
            let k = key.as_deref().unwrap_or_default().replace('~', "~0").replace('/', "~1");
            format!("{pointer}/{k}")
        }
        Some(Frame::Array { pointer, index }) => format!("{pointer}/{index}"),
    }
}

/// Index of the quote that closes the string opening at `start`.
fn string_end(b: &[u8], start: usize) -> Option<usize> {
    let mut j = start + 1;
    while let Some(&c) = b.get(j) {
        match c {
            b'\\' => j += 2,
            b'"' => return Some(j),
            _ => j += 1,
        }
    }
    None
}

/// The first key that repeats within its object, with the object's JSON
/// Pointer: `(pointer, key)`. Keys are compared after unescaping, so `"a"` and
/// `"\u0061"` collide. `text` has already been accepted by serde_json, so the
/// scan only follows structure (strings, brackets, `:` and `,`); it keeps its
/// own stack instead of recursing, and gives up (`None`) on anything unexpected.
fn duplicate_key(text: &str) -> Option<(String, String)> {
    let b = text.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match c {
            b'{' => {
                let pointer = child_pointer(stack.last());
                stack.push(Frame::Object { pointer, keys: HashSet::new(), key: None, want_key: true });
            }
            b'[' => {
                let pointer = child_pointer(stack.last());
                stack.push(Frame::Array { pointer, index: 0 });
            }
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Frame::Object { want_key, .. }) => *want_key = true,
                Some(Frame::Array { index, .. }) => *index += 1,
                None => {}
            },
            b':' => {
                if let Some(Frame::Object { want_key, .. }) = stack.last_mut() {
                    *want_key = false;
                }
            }
            b'"' => {
                let end = string_end(b, i)?;
                if let Some(Frame::Object { pointer, keys, key, want_key: true }) = stack.last_mut() {
                    // Both ends are ASCII quotes, so the slice is on char boundaries.
                    let k: String = serde_json::from_str(text.get(i..=end)?).ok()?;
                    if keys.contains(&k) {
                        return Some((pointer.clone(), k));
                    }
                    keys.insert(k.clone());
                    *key = Some(k);
                }
                i = end;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

impl Grain {
    /// A grain from a JSON object with full field names (`ERR_NOT_MAP` if
    /// it is not an object). A parsed `Json` value has already lost any
    /// repeated key; use [`Grain::from_json_str`] (or [`parse_json`]) on text
    /// to have repeats refused.
    pub fn from_json(j: &Json) -> Result<Grain> {
        match from_json(j) {
            Value::Map(m) => Grain::new(m),
            _ => Err(OmsError::NotMap),
        }
    }

    /// A grain from JSON text; a key repeated in any object is `ERR_CORRUPT`.
    pub fn from_json_str(text: &str) -> Result<Grain> {
        Grain::from_json(&parse_json(text)?)
    }

    /// The grain as a JSON object with full field names.
    pub fn to_json(&self) -> Json {
        map_to_json(self.fields())
    }
}
