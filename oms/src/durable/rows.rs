//! How index rows are encoded: posting segments as delta-coded varints, text
//! postings as (id delta, term frequency, document length) triples, index
//! state as its canonical manifest entry, and a checksum over every row
//! that is not content-addressed, so a flipped bit in an index row is an
//! integrity error when it is read, never a silently different answer.

use crate::error::{CorruptReason, OmsError, Result};
use crate::mg::IndexState;
use crate::msgpack;
use crate::store::indexes::Id;

/// A 64-bit hash of length-prefixed parts, eight bytes at a time, as
/// SQLite's signed integer. Not cryptographic: it detects damage, and keys
/// posting lists, where a collision only adds candidates that the filters
/// then drop.
pub(crate) fn checksum(parts: &[&[u8]]) -> i64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |w: u64| {
        h = (h ^ w).wrapping_mul(K).rotate_left(29);
    };
    for p in parts {
        eat(p.len() as u64);
        let mut chunks = p.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            eat(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        let mut w = [0u8; 8];
        w[..rest.len()].copy_from_slice(rest);
        eat(u64::from_le_bytes(w) ^ ((rest.len() as u64) << 59));
    }
    // Final avalanche (splitmix64), so that nearby inputs land far apart.
    let mut z = h;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) as i64
}

/// The key of a posting list: a hash of the indexed value.
pub(crate) fn value_hash(value: &str) -> i64 {
    checksum(&[b"value", value.as_bytes()])
}

/// The checksum of the `stats` row.
pub(crate) fn stats_sum(grains: i64, docs: i64, total_len: i64) -> i64 {
    checksum(&[b"stats", &grains.to_le_bytes(), &docs.to_le_bytes(), &total_len.to_le_bytes()])
}

/// The checksum of a `postings` row.
pub(crate) fn postings_sum(key: i64, hash: i64, seg: i64, ids: &[u8]) -> i64 {
    checksum(&[b"postings", &key.to_le_bytes(), &hash.to_le_bytes(), &seg.to_le_bytes(), ids])
}

/// The checksum of a `posting_counts` row.
pub(crate) fn posting_count_sum(key: i64, hash: i64, n: i64) -> i64 {
    checksum(&[b"posting_counts", &key.to_le_bytes(), &hash.to_le_bytes(), &n.to_le_bytes()])
}

/// The checksum of a `term_counts` row.
pub(crate) fn term_count_sum(term: &str, n: i64) -> i64 {
    checksum(&[b"term_counts", term.as_bytes(), &n.to_le_bytes()])
}

/// The checksum of a `terms` row.
pub(crate) fn terms_sum(term: &str, seg: i64, postings: &[u8]) -> i64 {
    checksum(&[b"terms", term.as_bytes(), &seg.to_le_bytes(), postings])
}

/// The checksum of a `grain_state` row.
pub(crate) fn state_sum(id: i64, state: &[u8]) -> i64 {
    checksum(&[b"state", &id.to_le_bytes(), state])
}

/// The integrity error for a row whose checksum does not match.
pub(crate) fn damaged(what: impl Into<String>) -> OmsError {
    OmsError::Integrity { what: format!("{} (the store file is damaged; run `cal store verify`)", what.into()) }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn get_varint(bytes: &[u8], pos: &mut usize) -> Option<u64> {
    let mut v: u64 = 0;
    for shift in (0..64).step_by(7) {
        let b = *bytes.get(*pos)?;
        *pos += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

/// Encodes ascending ids as deltas.
pub(crate) fn encode_ids(ids: &[Id]) -> Vec<u8> {
    let mut out = Vec::with_capacity(ids.len() * 2);
    let mut prev = 0u64;
    for id in ids {
        let id = u64::from(*id);
        put_varint(&mut out, id - prev);
        prev = id;
    }
    out
}

/// Decodes a posting segment, appending to `out`.
pub(crate) fn decode_ids(bytes: &[u8], out: &mut Vec<Id>) -> Option<()> {
    let mut pos = 0;
    let mut prev = 0u64;
    while pos < bytes.len() {
        prev = prev.checked_add(get_varint(bytes, &mut pos)?)?;
        out.push(Id::try_from(prev).ok()?);
    }
    Some(())
}

/// One text posting: a document, the term's frequency in it, and its length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TermPosting {
    pub(crate) id: Id,
    pub(crate) tf: u32,
    pub(crate) dl: u32,
}

/// Encodes text postings ordered by id.
pub(crate) fn encode_terms(postings: &[TermPosting]) -> Vec<u8> {
    let mut out = Vec::with_capacity(postings.len() * 4);
    let mut prev = 0u64;
    for p in postings {
        let id = u64::from(p.id);
        put_varint(&mut out, id - prev);
        put_varint(&mut out, u64::from(p.tf));
        put_varint(&mut out, u64::from(p.dl));
        prev = id;
    }
    out
}

/// Decodes a text posting segment, appending to `out`.
pub(crate) fn decode_terms(bytes: &[u8], out: &mut Vec<TermPosting>) -> Option<()> {
    let mut pos = 0;
    let mut prev = 0u64;
    while pos < bytes.len() {
        prev = prev.checked_add(get_varint(bytes, &mut pos)?)?;
        let tf = u32::try_from(get_varint(bytes, &mut pos)?).ok()?;
        let dl = u32::try_from(get_varint(bytes, &mut pos)?).ok()?;
        out.push(TermPosting { id: Id::try_from(prev).ok()?, tf, dl });
    }
    Some(())
}

/// Index state as its canonical manifest entry (MessagePack).
pub(crate) fn encode_state(state: &IndexState) -> Result<Vec<u8>> {
    msgpack::encode_value(&state.to_value())
}

/// Reads an index state row back.
pub(crate) fn decode_state(bytes: &[u8]) -> Result<IndexState> {
    let v = msgpack::read_exact(bytes, 8)
        .map_err(|e| OmsError::corrupt(CorruptReason::Container(format!("index state row: {e}"))))?;
    IndexState::from_value(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        let ids = [0, 1, 2, 127, 128, 300, 1 << 20, u32::MAX];
        let mut out = Vec::new();
        decode_ids(&encode_ids(&ids), &mut out).unwrap();
        assert_eq!(out, ids);
    }

    #[test]
    fn terms_round_trip() {
        let p = [TermPosting { id: 3, tf: 1, dl: 9 }, TermPosting { id: 70_000, tf: 300, dl: 1 }];
        let mut out = Vec::new();
        decode_terms(&encode_terms(&p), &mut out).unwrap();
        assert_eq!(out, p);
    }

    #[test]
    fn a_truncated_segment_is_refused() {
        let bytes = encode_ids(&[1, 1000]);
        let mut out = Vec::new();
        assert!(decode_ids(&bytes[..bytes.len() - 1], &mut out).is_none());
    }

    #[test]
    fn checksums_see_every_part() {
        assert_ne!(postings_sum(1, 5, 0, b"x"), postings_sum(1, 5, 0, b"y"));
        assert_ne!(postings_sum(1, 5, 0, b"x"), postings_sum(1, 6, 0, b"x"));
        assert_ne!(postings_sum(1, 5, 0, b"x"), postings_sum(2, 5, 0, b"x"));
        assert_ne!(checksum(&[b"ab", b"c"]), checksum(&[b"a", b"bc"]));
        assert_ne!(checksum(&[b"a"]), checksum(&[b"a\0"]));
        assert_ne!(value_hash("alice"), value_hash("alicf"));
    }
}
