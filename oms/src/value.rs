//! The value tree grains are made of: exactly the data model OMS payloads can
//! carry (§4, Appendix B), independent of MessagePack or CBOR.

use std::collections::BTreeMap;

/// A map with string keys. `BTreeMap<String, _>` orders keys by their UTF-8
/// bytes, which is the canonical MessagePack order of §4.1.
pub type Map = BTreeMap<String, Value>;

/// One payload value.
///
/// Integers are held as `i128` so that the whole MessagePack range
/// (`i64::MIN ..= u64::MAX`) has exactly one representation; the encoders
/// reject anything outside it with `ERR_RANGE`.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// nil. Omitted from maps when encoding (§4.5); kept inside arrays.
    Null,
    /// A boolean.
    Bool(bool),
    /// An integer, encoded in its smallest form (§4.2).
    Int(i128),
    /// A finite float, always encoded as float64 in MessagePack (§4.3).
    Float(f64),
    /// A UTF-8 string, NFC-normalized when encoded (§4.4).
    Str(String),
    /// Raw bytes (e.g. an RFC 3161 token in `trusted_timestamp`).
    Bin(Vec<u8>),
    /// An array; order is preserved (§4.6).
    Array(Vec<Value>),
    /// A map; keys are sorted when encoded (§4.1).
    Map(Map),
}

/// Smallest integer a payload may carry.
pub const INT_MIN: i128 = i64::MIN as i128;
/// Largest integer a payload may carry.
pub const INT_MAX: i128 = u64::MAX as i128;

impl Value {
    /// The string inside, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The integer inside, if this is an integer that fits an `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Int(i) => i64::try_from(*i).ok(),
            _ => None,
        }
    }

    /// The number inside as `f64`, for integers and floats alike.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(*i as f64),
            Value::Float(f) => Some(*f),
            _ => None,
        }
    }

    /// The boolean inside, if this is a boolean.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The array inside, if this is an array.
    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The map inside, if this is a map.
    pub fn as_map(&self) -> Option<&Map> {
        match self {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    /// A short name of the value's kind, for error messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Int(_) => "integer",
            Value::Float(_) => "float",
            Value::Str(_) => "string",
            Value::Bin(_) => "binary",
            Value::Array(_) => "array",
            Value::Map(_) => "map",
        }
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::Str(s.to_string())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::Str(s)
    }
}

impl From<i64> for Value {
    fn from(i: i64) -> Self {
        Value::Int(i128::from(i))
    }
}

impl From<u64> for Value {
    fn from(i: u64) -> Self {
        Value::Int(i128::from(i))
    }
}

impl From<f64> for Value {
    fn from(f: f64) -> Self {
        Value::Float(f)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}

impl From<Vec<Value>> for Value {
    fn from(a: Vec<Value>) -> Self {
        Value::Array(a)
    }
}

impl From<Map> for Value {
    fn from(m: Map) -> Self {
        Value::Map(m)
    }
}
