//! The canonical traversal shared by the MessagePack and CBOR writers
//! (§4.1–4.7, §16.2): NFC-normalize every string, omit nulls from maps,
//! compact keys where the spec says so, sort map keys in the encoding's
//! canonical order, reject non-finite floats, out-of-range integers, BOMs and
//! excessive nesting. The encoding-specific byte layout lives behind [`Sink`].

use std::borrow::Cow;

use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

use crate::error::{CorruptReason, OmsError, Result};
use crate::fields::{self, Nested};
use crate::value::{INT_MAX, INT_MIN, Map, Value};

/// Default nesting limit: the Extended profile of §4.10.
pub const DEFAULT_MAX_DEPTH: usize = 32;

/// Byte-level writer for one encoding.
pub(crate) trait Sink {
    fn nil(&mut self);
    fn boolean(&mut self, b: bool);
    /// `i` is already range-checked to `INT_MIN..=INT_MAX`.
    fn int(&mut self, i: i128);
    /// `f` is already known to be finite.
    fn float(&mut self, f: f64);
    fn str(&mut self, s: &str);
    fn bin(&mut self, b: &[u8]);
    fn array_len(&mut self, n: usize);
    fn map_len(&mut self, n: usize);
    /// Sorts map entries into the encoding's canonical key order.
    fn sort_keys(entries: &mut [(Cow<'_, str>, &Value, KeyMap)]);
}

/// How keys of a map are rewritten before sorting.
#[derive(Debug, Clone, Copy)]
pub(crate) enum KeyMap {
    /// Keys are written as given (after NFC).
    Plain,
    /// The grain's top-level map: full names become short keys (§6).
    Top { is_action: bool },
    /// An element of `content_refs`, `embedding_refs` or `related_to` (§4.7).
    Nested(Nested),
}

/// NFC-normalizes a string, borrowing when it already is NFC, and rejects BOMs.
pub(crate) fn nfc(s: &str) -> Result<Cow<'_, str>> {
    // ASCII holds no BOM and is NFC.
    if s.is_ascii() {
        return Ok(Cow::Borrowed(s));
    }
    if s.contains('\u{feff}') {
        return Err(OmsError::corrupt(CorruptReason::Bom));
    }
    if s.is_ascii() || is_nfc_quick(s.chars()) == IsNormalized::Yes {
        return Ok(Cow::Borrowed(s));
    }
    let n: String = s.nfc().collect();
    if n == s { Ok(Cow::Borrowed(s)) } else { Ok(Cow::Owned(n)) }
}

/// Writes one value canonically. `depth` is the nesting level of `v`
/// (the payload map is level 1).
pub(crate) fn write_value<S: Sink>(sink: &mut S, v: &Value, km: KeyMap, depth: usize, max_depth: usize) -> Result<()> {
    match v {
        Value::Null => sink.nil(),
        Value::Bool(b) => sink.boolean(*b),
        Value::Int(i) => {
            if !(INT_MIN..=INT_MAX).contains(i) {
                return Err(OmsError::range("integer", format!("{i} does not fit int64/uint64")));
            }
            sink.int(*i)
        }
        Value::Float(f) => {
            if !f.is_finite() {
                return Err(OmsError::FloatInvalid { path: String::new() });
            }
            sink.float(*f)
        }
        Value::Str(s) => sink.str(&nfc(s)?),
        Value::Bin(b) => sink.bin(b),
        Value::Array(items) => {
            check_depth(depth, max_depth)?;
            sink.array_len(items.len());
            for (i, item) in items.iter().enumerate() {
                write_value(sink, item, km, depth + 1, max_depth).map_err(|e| prefix(e, &i.to_string()))?;
            }
        }
        Value::Map(m) => {
            check_depth(depth, max_depth)?;
            write_map::<S>(sink, m, km, depth, max_depth)?;
        }
    }
    Ok(())
}

/// Writes a top-level map (nesting level 1) without wrapping it in a [`Value`].
pub(crate) fn write_map_ref<S: Sink>(sink: &mut S, m: &Map, km: KeyMap, max_depth: usize) -> Result<()> {
    check_depth(1, max_depth)?;
    write_map(sink, m, km, 1, max_depth)
}

fn check_depth(depth: usize, max_depth: usize) -> Result<()> {
    if depth > max_depth { Err(OmsError::corrupt(CorruptReason::DepthExceeded(max_depth))) } else { Ok(()) }
}

/// Adds a path segment to errors that carry a path.
fn prefix(e: OmsError, seg: &str) -> OmsError {
    match e {
        OmsError::FloatInvalid { path } if path.is_empty() => OmsError::FloatInvalid { path: seg.to_string() },
        OmsError::FloatInvalid { path } => OmsError::FloatInvalid { path: format!("{seg}.{path}") },
        other => other,
    }
}

fn write_map<S: Sink>(sink: &mut S, m: &Map, km: KeyMap, depth: usize, max_depth: usize) -> Result<()> {
    let mut entries: Vec<(Cow<'_, str>, &Value, KeyMap)> = Vec::with_capacity(m.len());
    for (k, v) in m {
        if matches!(v, Value::Null) {
            continue;
        }
        let key = nfc(k)?;
        // Nested tables are chosen by the full top-level name (§4.7).
        let child = match km {
            KeyMap::Top { .. } => Nested::for_field(&key).map_or(KeyMap::Plain, KeyMap::Nested),
            _ => KeyMap::Plain,
        };
        // The mapping is bijective (OMS §6): a full name that is itself another field's short
        // key would decode as that field, so it is refused rather than written.
        let taken = match km {
            KeyMap::Plain => None,
            KeyMap::Top { is_action } => Some(fields::expand_key(&key, is_action)).filter(|f| *f != key.as_ref()),
            KeyMap::Nested(n) => Some(n.expand(&key)).filter(|f| *f != key.as_ref()),
        };
        if let Some(full) = taken {
            return Err(OmsError::schema(
                &key,
                format!(
                    "a field cannot be named {key:?}: that is the short key of `{full}` (OMS §6.12, the mapping is bijective)"
                ),
            ));
        }
        let key = match km {
            KeyMap::Plain => key,
            KeyMap::Top { is_action } => match key {
                Cow::Borrowed(b) => Cow::Borrowed(fields::compact_key(b, is_action)),
                Cow::Owned(o) => Cow::Owned(fields::compact_key(&o, is_action).to_string()),
            },
            KeyMap::Nested(n) => match key {
                Cow::Borrowed(b) => Cow::Borrowed(n.compact(b)),
                Cow::Owned(o) => Cow::Owned(n.compact(&o).to_string()),
            },
        };
        entries.push((key, v, child));
    }
    S::sort_keys(&mut entries);
    for pair in entries.windows(2) {
        if pair[0].0 == pair[1].0 {
            return Err(OmsError::corrupt(CorruptReason::DuplicateKey(pair[0].0.to_string())));
        }
    }
    sink.map_len(entries.len());
    for (key, v, child) in &entries {
        sink.str(key);
        write_value(sink, v, *child, depth + 1, max_depth).map_err(|e| prefix(e, key))?;
    }
    Ok(())
}
