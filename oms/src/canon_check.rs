//! A one-pass check that a MessagePack grain blob is in canonical form (OMS §4, §6), made
//! by reading its bytes once instead of re-encoding the decoded grain and comparing
//! (issue 20: the re-encoding cost as much as the decoding itself on a bulk load).
//!
//! The check answers one question: would [`Grain::encode`] write exactly these bytes for
//! the grain they decode to? It mirrors the canonical traversal of `canon.rs` and the
//! byte layout of `MsgPackSink` token by token:
//!
//! - every integer in its smallest form, the uint family for non-negative values (§4.2);
//! - floats as float64 only (§4.3);
//! - strings, keys included, in NFC (§4.4); string, binary, array and map lengths in
//!   their smallest marker;
//! - no nil as a map value (§4.5; nil stays allowed inside arrays);
//! - map keys strictly ascending by their bytes (§4.1), which also rules out duplicates;
//! - short keys at the top level and inside `content_refs`, `embedding_refs` and
//!   `related_to` elements (§6, §4.7), exactly as the encoder compacts them, and no
//!   full name that is another field's short key;
//! - the nine header bytes equal to the header the grain implies.
//!
//! It never explains a refusal: a blob it does not accept is decoded the old way, whose
//! re-encoding gives the exact `ERR_CORRUPT` reason (`grain::decode_checked`). The old
//! path is the oracle of the property tests below: both accept exactly the same blobs.

use std::borrow::Cow;

use crate::canon::{KeyMap, nfc};
use crate::fields::{self, Nested};
use crate::grain::Grain;
use crate::header::HEADER_LEN;

/// Whether `blob`, a MessagePack blob that decodes to `grain`, is byte for byte what the
/// encoder writes for `grain`, with nesting at most `max_depth`.
pub(crate) fn is_canonical_msgpack(blob: &[u8], grain: &Grain, max_depth: usize) -> bool {
    let Ok(header) = grain.header() else { return false };
    if blob.len() < HEADER_LEN || blob[..HEADER_LEN] != header.to_bytes() {
        return false;
    }
    let mut w = Walker { buf: &blob[HEADER_LEN..], pos: 0, max_depth };
    let top = KeyMap::Top { is_action: grain.grain_type() == crate::types::GrainType::Action };
    w.top_map(top) && w.pos == w.buf.len()
}

/// A cursor over canonical MessagePack; every method returns `false` at the first byte
/// the encoder would not have written.
struct Walker<'a> {
    buf: &'a [u8],
    pos: usize,
    max_depth: usize,
}

impl<'a> Walker<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.pos.checked_add(n)?;
        let s = self.buf.get(self.pos..end)?;
        self.pos = end;
        Some(s)
    }

    fn be(&mut self, n: usize) -> Option<u64> {
        Some(self.take(n)?.iter().fold(0u64, |acc, b| (acc << 8) | u64::from(*b)))
    }

    /// The top-level payload: a map, at nesting level 1.
    fn top_map(&mut self, km: KeyMap) -> bool {
        match self.take(1) {
            Some(&[m]) => self.value_after(m, km, 1),
            _ => false,
        }
    }

    /// A value whose marker byte `m` has been read; `depth` is its nesting level.
    fn value_after(&mut self, m: u8, km: KeyMap, depth: usize) -> bool {
        match m {
            0x00..=0x7f | 0xe0..=0xff | 0xc0 | 0xc2 | 0xc3 => true,
            0x80..=0x8f => self.map(usize::from(m & 0x0f), km, depth),
            0x90..=0x9f => self.array(usize::from(m & 0x0f), km, depth),
            0xa0..=0xbf => self.string(usize::from(m & 0x1f)).is_some(),
            // bin8 is the smallest binary marker; bin16 and bin32 only when it cannot hold the length.
            0xc4 => self.be(1).is_some_and(|n| self.take(n as usize).is_some()),
            0xc5 => self.be(2).is_some_and(|n| n >= 1 << 8 && self.take(n as usize).is_some()),
            0xc6 => self.be(4).is_some_and(|n| n >= 1 << 16 && self.take(n as usize).is_some()),
            // The encoder writes every float as float64 (§4.3).
            0xcb => self.be(8).is_some_and(|b| f64::from_bits(b).is_finite()),
            0xcc => self.be(1).is_some_and(|v| v >= 1 << 7),
            0xcd => self.be(2).is_some_and(|v| v >= 1 << 8),
            0xce => self.be(4).is_some_and(|v| v >= 1 << 16),
            0xcf => self.be(8).is_some_and(|v| v >= 1 << 32),
            0xd0 => self.be(1).is_some_and(|v| i64::from(v as u8 as i8) < -32),
            0xd1 => self.be(2).is_some_and(|v| i64::from(v as u16 as i16) < -128),
            0xd2 => self.be(4).is_some_and(|v| i64::from(v as u32 as i32) < -32_768),
            0xd3 => self.be(8).is_some_and(|v| (v as i64) < -2_147_483_648),
            0xd9 => self.be(1).is_some_and(|n| n >= 32 && self.string(n as usize).is_some()),
            0xda => self.be(2).is_some_and(|n| n >= 1 << 8 && self.string(n as usize).is_some()),
            0xdb => self.be(4).is_some_and(|n| n >= 1 << 16 && self.string(n as usize).is_some()),
            0xdc => self.be(2).is_some_and(|n| n >= 16 && self.array(n as usize, km, depth)),
            0xdd => self.be(4).is_some_and(|n| n >= 1 << 16 && self.array(n as usize, km, depth)),
            0xde => self.be(2).is_some_and(|n| n >= 16 && self.map(n as usize, km, depth)),
            0xdf => self.be(4).is_some_and(|n| n >= 1 << 16 && self.map(n as usize, km, depth)),
            // float32 (written as float64), 0xc1, and the ext family.
            _ => false,
        }
    }

    /// A UTF-8 string of `len` bytes, without a BOM, already in NFC.
    fn string(&mut self, len: usize) -> Option<&'a str> {
        let s = std::str::from_utf8(self.take(len)?).ok()?;
        matches!(nfc(s), Ok(Cow::Borrowed(_))).then_some(s)
    }

    fn array(&mut self, n: usize, km: KeyMap, depth: usize) -> bool {
        if depth > self.max_depth {
            return false;
        }
        for _ in 0..n {
            let Some(&[m]) = self.take(1) else { return false };
            // Array elements keep the key map of the array (a list of nested references).
            if !self.value_after(m, km, depth + 1) {
                return false;
            }
        }
        true
    }

    fn map(&mut self, n: usize, km: KeyMap, depth: usize) -> bool {
        if depth > self.max_depth {
            return false;
        }
        let mut last: Option<&[u8]> = None;
        for _ in 0..n {
            let key = match self.take(1) {
                Some(&[m @ 0xa0..=0xbf]) => self.string(usize::from(m & 0x1f)),
                Some(&[0xd9]) => self.be(1).filter(|n| *n >= 32).and_then(|n| self.string(n as usize)),
                Some(&[0xda]) => self.be(2).filter(|n| *n >= 1 << 8).and_then(|n| self.string(n as usize)),
                Some(&[0xdb]) => self.be(4).filter(|n| *n >= 1 << 16).and_then(|n| self.string(n as usize)),
                _ => None,
            };
            let Some(key) = key else { return false };
            if last.is_some_and(|prev| prev >= key.as_bytes()) {
                return false;
            }
            last = Some(key.as_bytes());
            let Some(child) = child_map(km, key) else { return false };
            match self.take(1) {
                Some(&[0xc0]) | None => return false,
                Some(&[m]) => {
                    if !self.value_after(m, child, depth + 1) {
                        return false;
                    }
                }
                Some(_) => return false,
            }
        }
        true
    }
}

/// For a key found in a map under `km`: the key map of its value, when the key is the one
/// the encoder writes for the field it decodes to (`None` otherwise).
fn child_map(km: KeyMap, key: &str) -> Option<KeyMap> {
    match km {
        KeyMap::Plain => Some(KeyMap::Plain),
        KeyMap::Top { is_action } => {
            let full = fields::expand_key(key, is_action);
            let canonical = fields::compact_key(full, is_action) == key;
            // A full name that is itself another field's short key cannot be written (§6.12).
            let writable = fields::expand_key(full, is_action) == full;
            (canonical && writable).then(|| Nested::for_field(full).map_or(KeyMap::Plain, KeyMap::Nested))
        }
        KeyMap::Nested(n) => {
            let full = n.expand(key);
            (n.compact(full) == key && n.expand(full) == full).then_some(KeyMap::Plain)
        }
    }
}

#[cfg(test)]
#[path = "canon_check_tests.rs"]
mod tests;
