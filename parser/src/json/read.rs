//! Reading `application/json+cal` text in bounded memory (issue 19).
//!
//! `serde_json::from_str` into a [`Value`] held a whole request before anything knew its
//! size: a 4.7 MB request of 100,000 conditions peaked at 113 MB before CAL-E001 refused it.
//! Here one pass of the deserializer builds each query's value while counting its JSON
//! values; a query with more than [`MAX_QUERY_VALUES`] is refused with CAL-E001 the moment
//! its next value is met, before the rest is read (ruling D3, docs/spec-decisions.md). A
//! document (an array) is taken element by element: each query is validated, decoded and
//! its JSON value dropped before the next is read, so only trees are held, and past
//! [`ReadLimits::max_queries`] the rest is only counted. The same pass refuses a repeated
//! key, as the separate pass before it did, with the same message and position.
//!
//! The diagnostics are those of reading the whole value first: schema violations of every
//! element, sorted by pointer; else the decoder's; else the length check's.

use super::decode::Items;
use super::schema::{self, Pairs};
use crate::ast::{Document, Query};
use cal_grammar::{Code, Diagnostic, Span};
use serde::de::{DeserializeSeed, Error as _, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};
use std::fmt;

/// The most JSON values (objects, arrays and scalars, counted once each) one query's JSON
/// form may hold. Every value of the form stands for at least one byte of its text/cal
/// (a keyword, a literal, a bracket or a separator), so a query over this many values is
/// over §17.3's 8,192 bytes by any margin; the bound is eight times that, generous to any
/// form the schema admits.
pub const MAX_QUERY_VALUES: usize = 8 * cal_grammar::limits::MAX_QUERY_BYTES;

/// What a reader takes before refusing: per query and per document.
#[derive(Clone, Copy, Debug)]
pub struct ReadLimits {
    /// The most JSON values one query may hold ([`MAX_QUERY_VALUES`] by default).
    pub max_query_values: usize,
    /// The most queries an array may hold; the elements after it are only counted.
    pub max_queries: usize,
}

impl Default for ReadLimits {
    fn default() -> Self {
        ReadLimits { max_query_values: MAX_QUERY_VALUES, max_queries: usize::MAX }
    }
}

/// Why a JSON document was not read.
#[derive(Debug)]
pub enum ReadError {
    /// The request's diagnostics (CAL-E002 for JSON and schema problems, CAL-E001 for size).
    Refused(Vec<Diagnostic>),
    /// The array holds this many elements, more than [`ReadLimits::max_queries`]; only
    /// the JSON syntax of those past the limit was read.
    TooManyQueries(usize),
}

/// Reads `application/json+cal` text (a query object or an array of them) within `limits`.
pub fn read_document(text: &str, limits: &ReadLimits) -> Result<Document, ReadError> {
    let mut queries = Vec::new();
    read_each(text, limits, &mut |q| queries.push(q))?;
    Ok(Document { queries })
}

/// [`read_document`] without holding the trees: each query is handed to `each` as it is
/// built, and dropped there or kept. The answer is the same as [`read_document`]'s, so
/// `each` may have seen queries of a document that is then refused; a caller that must
/// act only on a valid document reads it twice (`cal text` does).
pub fn read_each(text: &str, limits: &ReadLimits, each: &mut dyn FnMut(Query)) -> Result<usize, ReadError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let mut sink = Sink { limits: *limits, pairs: Vec::new(), items: Items::default(), over: false, elements: 0, each };
    let read = TopSeed { sink: &mut sink }.deserialize(&mut de);
    if let Err(e) = read {
        if sink.over {
            return Err(ReadError::Refused(vec![too_many_values(limits.max_query_values)]));
        }
        let offset = schema::byte_offset(text, e.line(), e.column());
        let message = if e.is_data() { format!("{e}.") } else { format!("Invalid JSON: {e}.") };
        return Err(ReadError::Refused(vec![
            Diagnostic::new(Code::E002, Span::empty(offset), message)
                .with_suggestion("Send one query object, or an array of query objects, as JSON, each key once."),
        ]));
    }
    if let Err(e) = de.end() {
        let offset = schema::byte_offset(text, e.line(), e.column());
        return Err(ReadError::Refused(vec![
            Diagnostic::new(Code::E002, Span::empty(offset), format!("Invalid JSON: {e}."))
                .with_suggestion("Send one query object, or an array of query objects, as JSON."),
        ]));
    }
    if sink.elements > limits.max_queries {
        return Err(ReadError::TooManyQueries(sink.elements));
    }
    if !sink.pairs.is_empty() {
        return Err(ReadError::Refused(schema::finish_pairs(sink.pairs)));
    }
    sink.items.finish().map_err(ReadError::Refused)
}

/// Reads any JSON text into a value of at most `max_values` values (objects, arrays and
/// scalars), for the messages that carry a request (the conformance adapter's lines). A
/// repeated key is last-wins here, as in `serde_json`; the request inside is read with
/// [`read_document`]'s rules when it is decoded.
pub fn read_value(text: &str, max_values: usize) -> Result<Value, String> {
    let mut budget = Budget { used: 0, max: max_values, over: false, unique: false };
    let mut de = serde_json::Deserializer::from_str(text);
    let value = ValueSeed { budget: &mut budget }.deserialize(&mut de).and_then(|v| de.end().map(|()| v));
    value.map_err(|e| if budget.over { format!("more than {max_values} JSON values") } else { e.to_string() })
}

fn too_many_values(max: usize) -> Diagnostic {
    let bytes = cal_grammar::limits::MAX_QUERY_BYTES;
    Diagnostic::new(
        Code::E001,
        Span::default(),
        format!(
            "This query holds more than {max} JSON values, so it is more than {bytes} bytes as text/cal; at most {bytes} are allowed (§17.3), in either form."
        ),
    )
    .with_suggestion("Shorten the query: bind long value lists as $parameters, or split it.")
}

/// The diagnostics gathered element by element.
struct Sink<'e> {
    limits: ReadLimits,
    /// Schema violations so far, with their pointers (sorted once, at the end).
    pairs: Pairs,
    items: Items,
    /// A query went over [`ReadLimits::max_query_values`].
    over: bool,
    /// Elements of the array read so far (counted past the limit too).
    elements: usize,
    /// Where each query built goes.
    each: &'e mut dyn FnMut(Query),
}

impl Sink<'_> {
    /// One query, validated then decoded; `index` is its place in an array.
    fn take(&mut self, value: Value, index: Option<usize>) {
        let (pairs, value) = match index {
            // Validated inside a one-element array, so that the schema's own path (and
            // with it every message) is the one validating the whole document gives;
            // the pointer's `/0` becomes `/index`.
            Some(i) => {
                let wrapped = Value::Array(vec![value]);
                let pairs = schema::validate_pairs(&wrapped, Some(i));
                let Value::Array(mut one) = wrapped else { return };
                (pairs, one.pop().unwrap_or(Value::Null))
            }
            None => (schema::validate_pairs(&value, None), value),
        };
        self.check(pairs, &value, index);
    }

    fn check(&mut self, pairs: Pairs, value: &Value, index: Option<usize>) {
        if !pairs.is_empty() {
            self.pairs.extend(pairs);
        } else if self.pairs.is_empty() {
            self.items.decode(value, index, self.each);
        }
    }
}

/// The top-level value: an array is read element by element, anything else as one query.
struct TopSeed<'s, 'e> {
    sink: &'s mut Sink<'e>,
}

impl<'de> DeserializeSeed<'de> for TopSeed<'_, '_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TopSeed<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        loop {
            if self.sink.elements >= self.sink.limits.max_queries {
                if seq.next_element::<IgnoredAny>()?.is_none() {
                    return Ok(());
                }
                self.sink.elements += 1;
                continue;
            }
            let mut budget = Budget::query(self.sink.limits.max_query_values);
            let next = seq.next_element_seed(ValueSeed { budget: &mut budget });
            self.sink.over |= budget.over;
            let Some(value) = next? else { return Ok(()) };
            let index = self.sink.elements;
            self.sink.elements += 1;
            self.sink.take(value, Some(index));
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        let mut budget = Budget::query(self.sink.limits.max_query_values);
        let value = ValueSeed { budget: &mut budget }.visit_map(map);
        self.sink.over |= budget.over;
        self.sink.take(value?, None);
        Ok(())
    }

    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<(), E> {
        self.sink.take(Value::Bool(v), None);
        Ok(())
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<(), E> {
        self.sink.take(Value::Number(v.into()), None);
        Ok(())
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<(), E> {
        self.sink.take(Value::Number(v.into()), None);
        Ok(())
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<(), E> {
        self.sink.take(Number::from_f64(v).map_or(Value::Null, Value::Number), None);
        Ok(())
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<(), E> {
        self.sink.take(Value::String(v.to_owned()), None);
        Ok(())
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
        self.sink.take(Value::Null, None);
        Ok(())
    }
}

/// How many values the value being read may still hold.
struct Budget {
    used: usize,
    max: usize,
    over: bool,
    /// Refuse a key repeated in one object (the JSON form's rule) rather than keep the last.
    unique: bool,
}

impl Budget {
    fn query(max: usize) -> Budget {
        Budget { used: 0, max, over: false, unique: true }
    }

    fn charge<E: serde::de::Error>(&mut self) -> Result<(), E> {
        self.used += 1;
        if self.used > self.max {
            self.over = true;
            return Err(E::custom("the value holds too many JSON values"));
        }
        Ok(())
    }
}

/// A `serde_json::Value`, built as its own `Deserialize` builds it, within a [`Budget`].
struct ValueSeed<'b> {
    budget: &'b mut Budget,
}

impl<'de> DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        self.budget.charge()?;
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if self.budget.unique && out.contains_key(&key) {
                return Err(A::Error::custom(format!("the key {key:?} is repeated in one object")));
            }
            let value = map.next_value_seed(ValueSeed { budget: self.budget })?;
            out.insert(key, value);
        }
        Ok(Value::Object(out))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.budget.charge()?;
        let mut out = Vec::new();
        while let Some(value) = seq.next_element_seed(ValueSeed { budget: self.budget })? {
            out.push(value);
        }
        Ok(Value::Array(out))
    }

    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Value, E> {
        self.budget.charge()?;
        Ok(Value::Bool(v))
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Value, E> {
        self.budget.charge()?;
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Value, E> {
        self.budget.charge()?;
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Value, E> {
        self.budget.charge()?;
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Value, E> {
        self.budget.charge()?;
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Value, E> {
        self.budget.charge()?;
        Ok(Value::String(v))
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Value, E> {
        self.budget.charge()?;
        Ok(Value::Null)
    }
}
