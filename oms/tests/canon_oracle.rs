//! The one-pass canonical-form check (`oms/src/canon_check.rs`, issue 20) against its
//! oracle, the decode that re-encodes the grain and compares bytes
//! (`oms::grain::decode_by_reencoding`): on generated grains, on their blobs with a bit
//! flipped, and on their payloads written again with the freedoms MessagePack allows and
//! canonical form forbids (wider markers, float32, nil map values, keys out of order, full
//! field names), both decoders give the same answer: the same grain, or the same error.

mod grains;

use grains::grain;
use oms::grain::decode_by_reencoding;
use oms::{DecodeOptions, Encoding, Value, decode_with, msgpack};
use proptest::prelude::*;

/// Both decoders on one blob: the same grain or the same error, with and without the
/// COSE wrapper flag and at a small nesting limit too.
fn same_answer(blob: &[u8]) -> Result<bool, TestCaseError> {
    let mut accepted = false;
    for opts in [
        DecodeOptions::default(),
        DecodeOptions { wrapped: true, ..DecodeOptions::default() },
        DecodeOptions { max_depth: 3, ..DecodeOptions::default() },
    ] {
        let fast = decode_with(blob, &opts);
        let oracle = decode_by_reencoding(blob, &opts);
        prop_assert_eq!(&fast, &oracle, "blob {:02x?}", blob);
        accepted |= fast.is_ok();
    }
    Ok(accepted)
}

/// A MessagePack writer with the freedoms the format allows: `choice` picks, value by
/// value, whether to widen a marker, write a float as float32, add a nil map entry, swap
/// two keys or spell a key in full.
struct Sloppy<'a> {
    out: Vec<u8>,
    choices: &'a [u8],
    at: usize,
}

impl Sloppy<'_> {
    /// The next choice, 0..=255 (0 when the choices run out: canonical from there on).
    fn pick(&mut self) -> u8 {
        let c = self.choices.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        c
    }

    fn len_marker(&mut self, n: usize, fix: u8, fix_max: usize, m8: Option<u8>, m16: u8, m32: u8) {
        let wide = self.pick() % 8;
        if n <= fix_max && wide != 1 && wide != 2 && wide != 3 {
            self.out.push(fix | n as u8);
        } else if let Some(m8) = m8.filter(|_| n < 256 && wide != 2 && wide != 3) {
            self.out.extend([m8, n as u8]);
        } else if n < 65_536 && wide != 3 {
            self.out.push(m16);
            self.out.extend((n as u16).to_be_bytes());
        } else {
            self.out.push(m32);
            self.out.extend((n as u32).to_be_bytes());
        }
    }

    fn str(&mut self, s: &str) {
        self.len_marker(s.len(), 0xa0, 31, Some(0xd9), 0xda, 0xdb);
        self.out.extend(s.as_bytes());
    }

    fn int(&mut self, i: i128) {
        let wide = self.pick() % 6;
        if i >= 0 {
            let u = i as u64;
            match wide {
                1 if u < 256 => self.out.extend([0xcc, u as u8]),
                2 if u < 65_536 => self.out.extend([[0xcd].as_slice(), &(u as u16).to_be_bytes()].concat()),
                3 => self.out.extend([[0xcf].as_slice(), &u.to_be_bytes()].concat()),
                4 if u <= i64::MAX as u64 => self.out.extend([[0xd3].as_slice(), &(u as i64).to_be_bytes()].concat()),
                _ => rmp::encode::write_uint(&mut self.out, u).map(drop).expect("vec"),
            }
        } else {
            let s = i as i64;
            match wide {
                1 if s >= -128 => self.out.extend([0xd0, s as i8 as u8]),
                2 => self.out.extend([[0xd3].as_slice(), &s.to_be_bytes()].concat()),
                _ => rmp::encode::write_sint(&mut self.out, s).map(drop).expect("vec"),
            }
        }
    }

    fn value(&mut self, v: &Value) {
        match v {
            Value::Null => self.out.push(0xc0),
            Value::Bool(b) => self.out.push(if *b { 0xc3 } else { 0xc2 }),
            Value::Int(i) => self.int(*i),
            Value::Float(f) => {
                if self.pick() % 5 == 1 && f64::from(*f as f32) == *f {
                    self.out.push(0xca);
                    self.out.extend((*f as f32).to_be_bytes());
                } else {
                    self.out.push(0xcb);
                    self.out.extend(f.to_be_bytes());
                }
            }
            Value::Str(s) => self.str(s),
            Value::Bin(b) => {
                let n = b.len();
                if self.pick() % 4 == 1 {
                    self.out.push(0xc5);
                    self.out.extend((n as u16).to_be_bytes());
                } else {
                    self.out.extend([0xc4, n as u8]);
                }
                self.out.extend(b);
            }
            Value::Array(items) => {
                self.len_marker(items.len(), 0x90, 15, None, 0xdc, 0xdd);
                for item in items {
                    self.value(item);
                }
            }
            Value::Map(m) => {
                let mut entries: Vec<(String, &Value)> = m.iter().map(|(k, v)| (k.clone(), v)).collect();
                match self.pick() % 8 {
                    1 => entries.push(("zz-nil".to_string(), &Value::Null)),
                    2 if entries.len() >= 2 => entries.swap(0, 1),
                    3 => {
                        // A short key spelled in full (or a full name that is not canonical).
                        for (k, _) in &mut entries {
                            let full = oms::fields::expand_key(k, false);
                            if full != k {
                                *k = full.to_string();
                                break;
                            }
                        }
                    }
                    _ => {}
                }
                self.len_marker(entries.len(), 0x80, 15, None, 0xde, 0xdf);
                for (k, v) in entries {
                    self.str(&k);
                    self.value(v);
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn canonical_blobs_decode_alike(g in grain()) {
        let blob = g.encode().unwrap();
        prop_assert!(same_answer(&blob.bytes)?, "a canonical blob is refused");
    }

    #[test]
    fn flipped_bits_are_judged_alike(g in grain(), at in any::<prop::sample::Index>(), bit in 0u8..8) {
        let mut bytes = g.encode().unwrap().bytes;
        let i = at.index(bytes.len());
        bytes[i] ^= 1 << bit;
        same_answer(&bytes)?;
    }

    #[test]
    fn sloppy_encodings_are_judged_alike(g in grain(), choices in prop::collection::vec(any::<u8>(), 0..64)) {
        let mut g = g;
        g.options.encoding = Encoding::MsgPack;
        let blob = g.encode().unwrap().bytes;
        let payload = msgpack::read_exact(&blob[9..], 64).unwrap();
        let mut w = Sloppy { out: blob[..9].to_vec(), choices: &choices, at: 0 };
        w.value(&payload);
        let accepted = same_answer(&w.out)?;
        // Whatever is accepted is the canonical blob itself: there is one encoding per grain.
        prop_assert!(!accepted || w.out == blob, "a non-canonical spelling was accepted");
    }
}

#[test]
fn each_freedom_is_refused_alike() {
    let g = oms::Grain::from_json(&serde_json::json!({
        "type": "belief", "subject": "alice", "relation": "likes", "object": "tea",
        "confidence": 0.5, "created_at": 1_700_000_000_000_i64, "namespace": "n",
        "structural_tags": ["a"], "x-count": 3, "x-neg": -5, "x-list": [1, null, "s"]
    }))
    .unwrap();
    let mut fields = g.into_fields();
    fields.insert("x-bin".into(), Value::Bin(vec![1, 2, 3]));
    let blob = oms::Grain::new(fields).unwrap().encode().unwrap().bytes;
    let payload = msgpack::read_exact(&blob[9..], 64).unwrap();
    // Each single choice at each position: one freedom taken at one place. Every choice
    // takes some freedom somewhere (a wider marker, float32, nil, swapped or full keys).
    let mut refused = [0usize; 8];
    for pos in 0..40 {
        for c in 1..8u8 {
            let mut choices = vec![0u8; pos];
            choices.push(c);
            let mut w = Sloppy { out: blob[..9].to_vec(), choices: &choices, at: 0 };
            w.value(&payload);
            let accepted = same_answer(&w.out).unwrap();
            assert_eq!(accepted, w.out == blob, "choice {c} at {pos}: {:02x?}", w.out);
            refused[usize::from(c)] += usize::from(!accepted);
        }
    }
    assert!(refused[1..].iter().all(|n| *n > 0), "some choice never changed the bytes: {refused:?}");
}
