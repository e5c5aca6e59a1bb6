//! Canonical MessagePack (OMS §4): a writer on top of `rmp`'s encode
//! functions, and a strict reader that rejects what §19 calls malformed.
//!
//! The reader only checks well-formedness (markers, lengths, UTF-8, BOM,
//! duplicate and non-string keys, depth). Canonical form is checked one level
//! up, by re-encoding and comparing bytes, which is exactly the round-trip
//! property of §22.6.

use std::borrow::Cow;

use crate::canon::{self, KeyMap, Sink};
use crate::error::{CorruptReason, OmsError, Result};
use crate::value::{Map, Value};

/// A [`Sink`] writing canonical MessagePack into a byte vector.
pub(crate) struct MsgPackSink<'a> {
    pub(crate) out: &'a mut Vec<u8>,
}

// Writing into a Vec cannot fail; rmp's Result types are discarded on purpose.
impl Sink for MsgPackSink<'_> {
    fn nil(&mut self) {
        let _ = rmp::encode::write_nil(self.out);
    }
    fn boolean(&mut self, b: bool) {
        let _ = rmp::encode::write_bool(self.out, b);
    }
    fn int(&mut self, i: i128) {
        // Non-negative values use the uint family and negatives the int
        // family, each in its smallest width (§4.2).
        if i >= 0 {
            let _ = rmp::encode::write_uint(self.out, i as u64);
        } else {
            let _ = rmp::encode::write_sint(self.out, i as i64);
        }
    }
    fn float(&mut self, f: f64) {
        let _ = rmp::encode::write_f64(self.out, f);
    }
    fn str(&mut self, s: &str) {
        let _ = rmp::encode::write_str(self.out, s);
    }
    fn bin(&mut self, b: &[u8]) {
        let _ = rmp::encode::write_bin(self.out, b);
    }
    fn array_len(&mut self, n: usize) {
        let _ = rmp::encode::write_array_len(self.out, n as u32);
    }
    fn map_len(&mut self, n: usize) {
        let _ = rmp::encode::write_map_len(self.out, n as u32);
    }
    fn sort_keys(entries: &mut [(Cow<'_, str>, &Value, KeyMap)]) {
        entries.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    }
}

/// Encodes any value as canonical MessagePack (used for elision hashes, §10.1.1,
/// and the `.mg` index manifest, §11.7). Keys are written as given.
pub fn encode_value(v: &Value) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(64);
    canon::write_value(&mut MsgPackSink { out: &mut out }, v, KeyMap::Plain, 1, canon::DEFAULT_MAX_DEPTH)?;
    Ok(out)
}

/// Reads one MessagePack value from the start of `bytes`, returning it and
/// the number of bytes consumed. Nesting deeper than `max_depth` fails with
/// `ERR_CORRUPT`.
pub fn read_value(bytes: &[u8], max_depth: usize) -> Result<(Value, usize)> {
    let mut r = Reader { buf: bytes, pos: 0, max_depth };
    let v = r.value(1)?;
    Ok((v, r.pos))
}

/// Reads exactly one value spanning all of `bytes`.
pub fn read_exact(bytes: &[u8], max_depth: usize) -> Result<Value> {
    let (v, used) = read_value(bytes, max_depth)?;
    if used != bytes.len() {
        return Err(OmsError::corrupt(CorruptReason::TrailingBytes));
    }
    Ok(v)
}

struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
    max_depth: usize,
}

fn truncated() -> OmsError {
    OmsError::corrupt(CorruptReason::Truncated)
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self.pos.checked_add(n).ok_or_else(truncated)?;
        let s = self.buf.get(self.pos..end).ok_or_else(truncated)?;
        self.pos = end;
        Ok(s)
    }

    fn u8(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }

    fn be(&mut self, n: usize) -> Result<u64> {
        Ok(self.take(n)?.iter().fold(0u64, |acc, b| (acc << 8) | u64::from(*b)))
    }

    fn string(&mut self, len: usize) -> Result<String> {
        let raw = self.take(len)?;
        let s = std::str::from_utf8(raw).map_err(|_| OmsError::corrupt(CorruptReason::InvalidUtf8))?;
        if !s.is_ascii() && s.contains('\u{feff}') {
            return Err(OmsError::corrupt(CorruptReason::Bom));
        }
        Ok(s.to_string())
    }

    fn depth_check(&self, depth: usize) -> Result<()> {
        if depth > self.max_depth {
            Err(OmsError::corrupt(CorruptReason::DepthExceeded(self.max_depth)))
        } else {
            Ok(())
        }
    }

    /// Guards allocations: every element needs at least one byte.
    fn plausible(&self, n: usize) -> Result<()> {
        if n > self.buf.len().saturating_sub(self.pos) { Err(truncated()) } else { Ok(()) }
    }

    fn value(&mut self, depth: usize) -> Result<Value> {
        let m = self.u8()?;
        Ok(match m {
            0x00..=0x7f => Value::Int(i128::from(m)),
            0x80..=0x8f => self.map(usize::from(m & 0x0f), depth)?,
            0x90..=0x9f => self.array(usize::from(m & 0x0f), depth)?,
            0xa0..=0xbf => Value::Str(self.string(usize::from(m & 0x1f))?),
            0xc0 => Value::Null,
            0xc2 => Value::Bool(false),
            0xc3 => Value::Bool(true),
            0xc4 => {
                let n = self.be(1)? as usize;
                Value::Bin(self.take(n)?.to_vec())
            }
            0xc5 => {
                let n = self.be(2)? as usize;
                Value::Bin(self.take(n)?.to_vec())
            }
            0xc6 => {
                let n = self.be(4)? as usize;
                Value::Bin(self.take(n)?.to_vec())
            }
            0xca => {
                let bits = self.be(4)? as u32;
                let f = f32::from_bits(bits);
                if !f.is_finite() {
                    return Err(OmsError::FloatInvalid { path: String::new() });
                }
                Value::Float(f64::from(f))
            }
            0xcb => {
                let f = f64::from_bits(self.be(8)?);
                if !f.is_finite() {
                    return Err(OmsError::FloatInvalid { path: String::new() });
                }
                Value::Float(f)
            }
            0xcc => Value::Int(i128::from(self.be(1)?)),
            0xcd => Value::Int(i128::from(self.be(2)?)),
            0xce => Value::Int(i128::from(self.be(4)?)),
            0xcf => Value::Int(i128::from(self.be(8)?)),
            0xd0 => Value::Int(i128::from(self.be(1)? as u8 as i8)),
            0xd1 => Value::Int(i128::from(self.be(2)? as u16 as i16)),
            0xd2 => Value::Int(i128::from(self.be(4)? as u32 as i32)),
            0xd3 => Value::Int(i128::from(self.be(8)? as i64)),
            0xd9 => {
                let n = self.be(1)? as usize;
                Value::Str(self.string(n)?)
            }
            0xda => {
                let n = self.be(2)? as usize;
                Value::Str(self.string(n)?)
            }
            0xdb => {
                let n = self.be(4)? as usize;
                Value::Str(self.string(n)?)
            }
            0xdc => {
                let n = self.be(2)? as usize;
                self.array(n, depth)?
            }
            0xdd => {
                let n = self.be(4)? as usize;
                self.array(n, depth)?
            }
            0xde => {
                let n = self.be(2)? as usize;
                self.map(n, depth)?
            }
            0xdf => {
                let n = self.be(4)? as usize;
                self.map(n, depth)?
            }
            0xe0..=0xff => Value::Int(i128::from(m as i8)),
            // 0xc1 (never used) and the ext family 0xc7–0xc9, 0xd4–0xd8.
            other => return Err(OmsError::corrupt(CorruptReason::BadMarker(other))),
        })
    }

    fn array(&mut self, n: usize, depth: usize) -> Result<Value> {
        self.depth_check(depth)?;
        self.plausible(n)?;
        let mut items = Vec::with_capacity(n);
        for _ in 0..n {
            items.push(self.value(depth + 1)?);
        }
        Ok(Value::Array(items))
    }

    fn map(&mut self, n: usize, depth: usize) -> Result<Value> {
        self.depth_check(depth)?;
        self.plausible(n.saturating_mul(2))?;
        // Keys in ascending order (as a canonical blob has them) are gathered and the map is
        // built from them in one pass; at the first key that is not above the one before,
        // the map is made of those read so far and grows one key at a time, checked for a
        // duplicate as every key was before (the same error at the same key).
        let mut sorted: Vec<(String, Value)> = Vec::with_capacity(n);
        let mut m: Option<Map> = None;
        for _ in 0..n {
            let key = match self.value(depth + 1)? {
                Value::Str(s) => s,
                _ => return Err(OmsError::corrupt(CorruptReason::NonStringKey)),
            };
            let v = self.value(depth + 1)?;
            if m.is_none() && sorted.last().is_none_or(|(last, _)| last.as_bytes() < key.as_bytes()) {
                sorted.push((key, v));
                continue;
            }
            let m = m.get_or_insert_with(|| std::mem::take(&mut sorted).into_iter().collect());
            if m.contains_key(&key) {
                return Err(OmsError::corrupt(CorruptReason::DuplicateKey(key)));
            }
            m.insert(key, v);
        }
        Ok(Value::Map(m.unwrap_or_else(|| sorted.into_iter().collect())))
    }
}
