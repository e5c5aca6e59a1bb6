//! Deterministic CBOR (OMS §16.2, RFC 8949 §4.2.1): the alternative payload
//! encoding selected by header flag bit 5.
//!
//! Rules: definite lengths only, smallest integer heads, map keys sorted by
//! their encoded bytes (for text keys: shorter first, then bytewise), floats
//! in the shortest of binary16/32/64 that preserves the value (never turned
//! into integers), NFC strings, no duplicate keys. Like the MessagePack
//! reader, this reader checks well-formedness; canonical form is checked by
//! re-encoding one level up.

use std::borrow::Cow;

use half::f16;

use crate::canon::{self, KeyMap, Sink};
use crate::error::{CorruptReason, OmsError, Result};
use crate::value::{Map, Value};

/// A [`Sink`] writing deterministic CBOR into a byte vector.
pub(crate) struct CborSink<'a> {
    pub(crate) out: &'a mut Vec<u8>,
}

impl CborSink<'_> {
    fn head(&mut self, major: u8, n: u64) {
        let m = major << 5;
        if n < 24 {
            self.out.push(m | n as u8);
        } else if n <= 0xff {
            self.out.extend_from_slice(&[m | 24, n as u8]);
        } else if n <= 0xffff {
            self.out.push(m | 25);
            self.out.extend_from_slice(&(n as u16).to_be_bytes());
        } else if n <= 0xffff_ffff {
            self.out.push(m | 26);
            self.out.extend_from_slice(&(n as u32).to_be_bytes());
        } else {
            self.out.push(m | 27);
            self.out.extend_from_slice(&n.to_be_bytes());
        }
    }
}

impl Sink for CborSink<'_> {
    fn nil(&mut self) {
        self.out.push(0xf6);
    }
    fn boolean(&mut self, b: bool) {
        self.out.push(if b { 0xf5 } else { 0xf4 });
    }
    fn int(&mut self, i: i128) {
        if i >= 0 {
            self.head(0, i as u64);
        } else {
            self.head(1, (-1 - i) as u64);
        }
    }
    fn float(&mut self, f: f64) {
        let h = f16::from_f64(f);
        if h.to_f64().to_bits() == f.to_bits() {
            self.out.push(0xf9);
            self.out.extend_from_slice(&h.to_bits().to_be_bytes());
            return;
        }
        let s = f as f32;
        if f64::from(s).to_bits() == f.to_bits() {
            self.out.push(0xfa);
            self.out.extend_from_slice(&s.to_bits().to_be_bytes());
            return;
        }
        self.out.push(0xfb);
        self.out.extend_from_slice(&f.to_bits().to_be_bytes());
    }
    fn str(&mut self, s: &str) {
        self.head(3, s.len() as u64);
        self.out.extend_from_slice(s.as_bytes());
    }
    fn bin(&mut self, b: &[u8]) {
        self.head(2, b.len() as u64);
        self.out.extend_from_slice(b);
    }
    fn array_len(&mut self, n: usize) {
        self.head(4, n as u64);
    }
    fn map_len(&mut self, n: usize) {
        self.head(5, n as u64);
    }
    fn sort_keys(entries: &mut [(Cow<'_, str>, &Value, KeyMap)]) {
        // Encoded text keys compare by length first, then bytewise.
        entries.sort_unstable_by(|a, b| a.0.len().cmp(&b.0.len()).then_with(|| a.0.as_bytes().cmp(b.0.as_bytes())));
    }
}

/// Encodes any value as deterministic CBOR (keys written as given).
pub fn encode_value(v: &Value) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(64);
    canon::write_value(&mut CborSink { out: &mut out }, v, KeyMap::Plain, 1, canon::DEFAULT_MAX_DEPTH)?;
    Ok(out)
}

/// Reads one CBOR data item from the start of `bytes`, returning it and the
/// number of bytes consumed.
pub fn read_value(bytes: &[u8], max_depth: usize) -> Result<(Value, usize)> {
    let mut r = Reader { buf: bytes, pos: 0, max_depth };
    let v = r.item(1)?;
    Ok((v, r.pos))
}

/// Reads exactly one data item spanning all of `bytes`.
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

    fn be(&mut self, n: usize) -> Result<u64> {
        Ok(self.take(n)?.iter().fold(0u64, |acc, b| (acc << 8) | u64::from(*b)))
    }

    /// The argument of an initial byte; indefinite lengths and reserved
    /// values are rejected.
    fn arg(&mut self, initial: u8) -> Result<u64> {
        match initial & 0x1f {
            n @ 0..=23 => Ok(u64::from(n)),
            24 => self.be(1),
            25 => self.be(2),
            26 => self.be(4),
            27 => self.be(8),
            _ => Err(OmsError::corrupt(CorruptReason::BadMarker(initial))),
        }
    }

    fn len(&mut self, initial: u8) -> Result<usize> {
        let n = self.arg(initial)?;
        let n = usize::try_from(n).map_err(|_| truncated())?;
        if n > self.buf.len().saturating_sub(self.pos) {
            return Err(truncated());
        }
        Ok(n)
    }

    fn depth_check(&self, depth: usize) -> Result<()> {
        if depth > self.max_depth {
            Err(OmsError::corrupt(CorruptReason::DepthExceeded(self.max_depth)))
        } else {
            Ok(())
        }
    }

    fn item(&mut self, depth: usize) -> Result<Value> {
        let initial = self.take(1)?[0];
        let major = initial >> 5;
        Ok(match major {
            0 => Value::Int(i128::from(self.arg(initial)?)),
            1 => Value::Int(-1 - i128::from(self.arg(initial)?)),
            2 => {
                let n = self.len(initial)?;
                Value::Bin(self.take(n)?.to_vec())
            }
            3 => {
                let n = self.len(initial)?;
                let raw = self.take(n)?;
                let s = std::str::from_utf8(raw).map_err(|_| OmsError::corrupt(CorruptReason::InvalidUtf8))?;
                if s.contains('\u{feff}') {
                    return Err(OmsError::corrupt(CorruptReason::Bom));
                }
                Value::Str(s.to_string())
            }
            4 => {
                self.depth_check(depth)?;
                let n = self.len(initial)?;
                let mut items = Vec::with_capacity(n);
                for _ in 0..n {
                    items.push(self.item(depth + 1)?);
                }
                Value::Array(items)
            }
            5 => {
                self.depth_check(depth)?;
                let n = self.len(initial)?;
                let mut m = Map::new();
                for _ in 0..n {
                    let key = match self.item(depth + 1)? {
                        Value::Str(s) => s,
                        _ => return Err(OmsError::corrupt(CorruptReason::NonStringKey)),
                    };
                    let v = self.item(depth + 1)?;
                    if m.contains_key(&key) {
                        return Err(OmsError::corrupt(CorruptReason::DuplicateKey(key)));
                    }
                    m.insert(key, v);
                }
                Value::Map(m)
            }
            // Major type 6 (tags) never appears in an OMS payload.
            6 => return Err(OmsError::corrupt(CorruptReason::BadMarker(initial))),
            _ => match initial {
                0xf4 => Value::Bool(false),
                0xf5 => Value::Bool(true),
                0xf6 => Value::Null,
                0xf9 => finite(f16::from_bits(self.be(2)? as u16).to_f64())?,
                0xfa => finite(f64::from(f32::from_bits(self.be(4)? as u32)))?,
                0xfb => finite(f64::from_bits(self.be(8)?))?,
                other => return Err(OmsError::corrupt(CorruptReason::BadMarker(other))),
            },
        })
    }
}

fn finite(f: f64) -> Result<Value> {
    if f.is_finite() { Ok(Value::Float(f)) } else { Err(OmsError::FloatInvalid { path: String::new() }) }
}

/// Length in bytes of the CBOR data item at the start of `bytes`, tags
/// included (used to find the end of a COSE_Sign1 entry in a `.mg` file).
/// Only definite lengths are accepted.
pub fn item_len(bytes: &[u8], max_depth: usize) -> Result<usize> {
    let mut r = Reader { buf: bytes, pos: 0, max_depth };
    r.skip(1)?;
    Ok(r.pos)
}

impl Reader<'_> {
    fn skip(&mut self, depth: usize) -> Result<()> {
        if depth > self.max_depth {
            return Err(OmsError::corrupt(CorruptReason::DepthExceeded(self.max_depth)));
        }
        let initial = self.take(1)?[0];
        match initial >> 5 {
            0 | 1 => {
                self.arg(initial)?;
            }
            2 | 3 => {
                let n = self.len(initial)?;
                self.take(n)?;
            }
            4 => {
                for _ in 0..self.len(initial)? {
                    self.skip(depth + 1)?;
                }
            }
            5 => {
                let n = self.len(initial)?;
                for _ in 0..n.saturating_mul(2) {
                    self.skip(depth + 1)?;
                }
            }
            6 => {
                self.arg(initial)?;
                self.skip(depth + 1)?;
            }
            _ => match initial & 0x1f {
                0..=23 => {}
                24 => {
                    self.take(1)?;
                }
                25 => {
                    self.take(2)?;
                }
                26 => {
                    self.take(4)?;
                }
                27 => {
                    self.take(8)?;
                }
                _ => return Err(OmsError::corrupt(CorruptReason::BadMarker(initial))),
            },
        }
        Ok(())
    }
}
