//! The case format as serde reads it, and its conversion to the [`crate::case`]
//! model. Only used after the JSON Schema accepted the file, so the checks
//! here are those the schema cannot express (hex decoding).

use crate::case::{
    Body, Case, ExecuteCase, ExecuteExpect, Flag, Invariant, Level, MgCase, Origin, ParseCase, ParseExpect, Phase,
    Position, QueryInput, Rule, Shape, WireCase,
};
use serde::Deserialize;
use serde_json::{Map, Value};

#[derive(Deserialize)]
struct Common {
    id: String,
    level: Level,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    sections: Vec<String>,
    #[serde(default)]
    flags: Vec<Flag>,
    description: Option<String>,
    #[serde(default)]
    rulings: std::collections::BTreeMap<String, String>,
    kind: String,
}

#[derive(Deserialize)]
struct RawParse {
    query: Option<String>,
    query_hex: Option<String>,
    expect: RawParseExpect,
}

#[derive(Deserialize)]
struct RawParseExpect {
    accept: Option<bool>,
    well_formed: Option<bool>,
    json: Option<Value>,
    canonical: Option<String>,
    warnings: Option<Vec<String>>,
    #[serde(default)]
    round_trip: bool,
    same_tree_as: Option<String>,
    code: Option<String>,
    phase: Option<Phase>,
    position: Option<Position>,
    suggestion_contains: Option<String>,
    has_example: Option<bool>,
}

#[derive(Deserialize)]
struct RawWire {
    query: Option<String>,
    json: Option<Value>,
    expect: RawWireExpect,
}

#[derive(Deserialize)]
struct RawWireExpect {
    json: Option<Value>,
    text: Option<String>,
    error: Option<RawCodePointer>,
}

#[derive(Deserialize)]
struct RawCodePointer {
    code: String,
    pointer: Option<String>,
}

#[derive(Deserialize)]
struct RawExecute {
    fixture: String,
    query: String,
    clock: String,
    #[serde(default)]
    params: Map<String, Value>,
    capability: Option<String>,
    #[serde(default)]
    setup: Vec<String>,
    #[serde(default)]
    settings: Map<String, Value>,
    stream: Option<crate::case::StreamRequest>,
    #[serde(default)]
    then: Vec<String>,
    http: Option<crate::case::HttpExchange>,
    expect: RawExecuteExpect,
}

#[derive(Deserialize)]
struct RawStoreChange {
    #[serde(default)]
    added: Vec<Map<String, Value>>,
    #[serde(default)]
    superseded: Vec<String>,
}

#[derive(Deserialize)]
struct RawStreamEnd {
    event: String,
    code: Option<String>,
    #[serde(default)]
    errors: Vec<String>,
}

#[derive(Deserialize)]
struct RawExecuteExpect {
    results: Option<Vec<String>>,
    #[serde(default)]
    ordered: bool,
    total: Option<u64>,
    warnings: Option<Vec<String>>,
    error: Option<RawCodePointer>,
    #[serde(default)]
    ignore: Vec<String>,
    #[serde(default)]
    fields: Map<String, Value>,
    #[serde(default)]
    invariants: Vec<RawInvariant>,
    stream_end: Option<RawStreamEnd>,
    #[serde(default)]
    then: Vec<RawExecuteExpect>,
    store_change: Option<RawStoreChange>,
}

#[derive(Deserialize)]
struct RawInvariant {
    pointer: String,
    contains: Option<Vec<String>>,
    excludes: Option<Vec<String>>,
    mentions: Option<Vec<String>>,
    parses_as: Option<String>,
    is: Option<String>,
    /// HISTORY … DIFF: field → `[one value, the other]`.
    changes: Option<serde_json::Map<String, Value>>,
    /// With `changes`: fields the part showing them must not name.
    #[serde(default)]
    unchanged: Vec<String>,
    section: Option<String>,
    ruling: Option<String>,
}

impl RawInvariant {
    fn into_invariant(self) -> Result<Invariant, String> {
        // A JSON shape's name (`object` is not the belief field of that name).
        let shape = |s: &str| {
            [Shape::Object, Shape::Array, Shape::String, Shape::Empty]
                .into_iter()
                .find(|shape| shape.as_str() == s)
                .ok_or_else(|| format!("unknown shape {s:?}"))
        };
        if let Some(changes) = self.changes {
            let others = self.contains.is_some()
                || self.excludes.is_some()
                || self.mentions.is_some()
                || self.parses_as.is_some()
                || self.is.is_some();
            if others {
                return Err(
                    "an invariant has exactly one rule: contains, excludes, mentions, parses_as, is or changes".into(),
                );
            }
            let mut changed = Vec::new();
            for (field, pair) in changes {
                match pair.as_array().map(Vec::as_slice) {
                    Some([a, b]) => changed.push((field, a.clone(), b.clone())),
                    _ => return Err(format!("changes.{field}: expected [one value, the other]")),
                }
            }
            let rule = Rule::Changes(crate::case::Changes { changed, unchanged: self.unchanged });
            return Ok(Invariant { pointer: self.pointer, rule, section: self.section, ruling: self.ruling });
        }
        if !self.unchanged.is_empty() {
            return Err("`unchanged` goes with `changes` only".into());
        }
        let rule = match (self.contains, self.excludes, self.mentions, self.parses_as, self.is) {
            (Some(v), None, None, None, None) => Rule::Contains(v),
            (None, Some(v), None, None, None) => Rule::Excludes(v),
            (None, None, Some(v), None, None) => Rule::Mentions(v),
            // `parses_as` names a format, the grammar's (only JSON is checked this way).
            (None, None, None, Some(f), None) if f == cal_grammar::FormatName::Json.as_str() => Rule::ParsesAsJson,
            (None, None, None, None, Some(s)) => Rule::Is(shape(&s)?),
            _ => return Err("an invariant has exactly one rule: contains, excludes, mentions, parses_as or is".into()),
        };
        Ok(Invariant { pointer: self.pointer, rule, section: self.section, ruling: self.ruling })
    }
}

#[derive(Deserialize)]
struct RawMg {
    grain: Option<Value>,
    hex: Option<String>,
    expect: RawMgExpect,
}

#[derive(Deserialize)]
struct RawMgExpect {
    hex: Option<String>,
    address: Option<String>,
    grain: Option<Value>,
    error: Option<String>,
}

/// Converts one schema-valid case object; the error is a message for the case's pointer.
pub(crate) fn to_case(value: &Value, origin: Origin) -> Result<Case, String> {
    let common: Common = de(value)?;
    let body = match common.kind.as_str() {
        "parse" => Body::Parse(parse_case(de(value)?)?),
        "wire" => Body::Wire(wire_case(de(value)?)?),
        "execute" => Body::Execute(Box::new(execute_case(de(value)?)?)),
        "mg" => Body::Mg(mg_case(de(value)?)?),
        other => return Err(format!("unknown kind {other:?}")),
    };
    Ok(Case {
        id: common.id,
        level: common.level,
        tags: common.tags,
        sections: common.sections,
        flags: common.flags,
        description: common.description,
        rulings: common.rulings,
        origin,
        body,
    })
}

fn de<T: for<'de> Deserialize<'de>>(value: &Value) -> Result<T, String> {
    T::deserialize(value).map_err(|e| e.to_string())
}

fn parse_case(raw: RawParse) -> Result<ParseCase, String> {
    let query = match (raw.query, raw.query_hex) {
        (Some(text), None) => QueryInput::Text(text),
        (None, Some(hex)) => QueryInput::Bytes(decode_hex(&hex).ok_or("query_hex is not valid hex")?),
        _ => return Err("a parse case has exactly one of `query` and `query_hex`".into()),
    };
    let e = raw.expect;
    let reads_back_as = match (&query, e.round_trip, e.same_tree_as) {
        (_, true, Some(_)) => {
            return Err("a parse expectation has at most one of `round_trip` and `same_tree_as`".into());
        }
        (_, false, Some(base)) => Some(base),
        (QueryInput::Text(t), true, None) => Some(t.clone()),
        (QueryInput::Bytes(_), true, None) => return Err("`round_trip` needs a text query".into()),
        (_, false, None) => None,
    };
    let expect = match (e.accept, e.well_formed) {
        (None, Some(true)) => ParseExpect::WellFormed { reads_back_as },
        (Some(_), Some(_)) | (None, _) => {
            return Err("a parse expectation has exactly one of `accept` and `\"well_formed\": true`".into());
        }
        (Some(true), None) => {
            ParseExpect::Accept { json: e.json, canonical: e.canonical, warnings: e.warnings, reads_back_as }
        }
        (Some(false), None) => ParseExpect::Reject {
            code: e.code.ok_or("a reject expectation needs `code`")?,
            phase: e.phase.ok_or("a reject expectation needs `phase`")?,
            position: e.position,
            suggestion_contains: e.suggestion_contains,
            has_example: e.has_example,
        },
    };
    Ok(ParseCase { query, expect })
}

fn wire_case(raw: RawWire) -> Result<WireCase, String> {
    match (raw.query, raw.json, raw.expect) {
        (Some(query), None, RawWireExpect { json: Some(json), .. }) => Ok(WireCase::TextToJson { query, json }),
        (None, Some(json), RawWireExpect { text: Some(text), error: None, .. }) => {
            Ok(WireCase::JsonToText { json, text })
        }
        (None, Some(json), RawWireExpect { error: Some(err), text: None, .. }) => {
            Ok(WireCase::JsonRejected { json, code: err.code, pointer: err.pointer })
        }
        _ => Err("a wire case is query→expect.json, json→expect.text or json→expect.error".into()),
    }
}

fn execute_case(raw: RawExecute) -> Result<ExecuteCase, String> {
    Ok(ExecuteCase {
        fixture: raw.fixture,
        query: raw.query,
        clock: raw.clock,
        params: raw.params,
        capability: raw.capability,
        session: crate::case::Session {
            setup: raw.setup,
            settings: raw.settings,
            stream: raw.stream,
            then: raw.then,
            http: raw.http.map(Box::new),
        },
        expect: execute_expect(raw.expect)?,
    })
}

fn execute_expect(e: RawExecuteExpect) -> Result<ExecuteExpect, String> {
    let invariants = e.invariants.into_iter().map(RawInvariant::into_invariant).collect::<Result<Vec<_>, _>>()?;
    Ok(ExecuteExpect {
        results: e.results,
        ordered: e.ordered,
        total: e.total,
        warnings: e.warnings,
        error: e.error.map(|c| c.code),
        ignore: e.ignore,
        fields: e.fields,
        invariants,
        stream_end: e.stream_end.map(|s| crate::case::StreamEnd { event: s.event, code: s.code, errors: s.errors }),
        then: e.then.into_iter().map(execute_expect).collect::<Result<Vec<_>, _>>()?,
        store_change: e.store_change.map(|c| crate::case::StoreChange { added: c.added, superseded: c.superseded }),
    })
}

fn mg_case(raw: RawMg) -> Result<MgCase, String> {
    let e = raw.expect;
    match (raw.grain, raw.hex) {
        (Some(grain), None) => Ok(MgCase::Encode {
            grain,
            hex: e.hex.ok_or("an encode case needs expect.hex")?.to_ascii_lowercase(),
            address: e.address.ok_or("an encode case needs expect.address")?,
        }),
        (None, Some(hex)) => {
            decode_hex(&hex).ok_or("hex is not valid hex")?;
            match (e.grain, e.error) {
                (Some(grain), None) => Ok(MgCase::Decode { hex, grain, address: e.address }),
                (None, Some(error)) => Ok(MgCase::Reject { hex, error }),
                _ => Err("a decode case expects exactly one of `grain` and `error`".into()),
            }
        }
        _ => Err("an mg case has exactly one of `grain` and `hex`".into()),
    }
}

/// Decodes hex (either case); `None` when malformed.
pub fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    let digit = |b: u8| (b as char).to_digit(16);
    hex.as_bytes().chunks(2).map(|p| Some((digit(p[0])? * 16 + digit(p[1])?) as u8)).collect()
}

/// Lowercase hex of bytes.
pub fn encode_hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}
