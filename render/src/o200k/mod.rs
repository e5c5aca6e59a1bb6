//! OpenAI's o200k_base byte-pair encoding, ready at process start (issue 20).
//!
//! `tiktoken-rs` builds its tables when first used: it decodes 199,998 base64 lines into a
//! hash map, about 150 ms of every `cal run` that counts tokens. Here `build.rs` lays the
//! vocabulary out once, as three tables compiled into the binary and read in place: the
//! tokens' bytes in rank order, where each starts, and an open-addressing table from bytes to
//! rank. Nothing is built at run time but the pre-tokenizer's regex (about 3 ms, once).
//!
//! The algorithm is tiktoken's, step for step, so the tokens are the same, not close:
//! the same pre-tokenizer pattern, run by the same engine (`fancy-regex`); a piece that is a
//! token is one token; any other piece is merged pair by pair, lowest rank first, leftmost on
//! ties (tiktoken's `_byte_pair_merge`, and its heap variant from 100 bytes on).
//! `tests/tokens_exact.rs` checks counts and token boundaries against tiktoken-rs.

mod hash;

use fancy_regex::Regex;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::OnceLock;

/// The tokens' bytes, concatenated in rank order.
static TOKENS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_tokens.bin"));
/// Little-endian u32: where rank r's bytes start in [`TOKENS`]; entry r + 1 is where they end.
static STARTS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_starts.bin"));
/// Little-endian u32 per slot: rank + 1 of the token stored there, 0 for an empty slot.
static TABLE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_table.bin"));

/// tiktoken's o200k_base pre-tokenizer pattern (`O200K_BASE_PAT_STR`), character for
/// character; `tests/tokens_exact.rs` compares it with tiktoken-rs's.
pub const PATTERN: &str = concat!(
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    "|",
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    "|",
    r"\p{N}{1,3}",
    "|",
    r" ?[^\s\p{L}\p{N}]+[\r\n/]*",
    "|",
    r"\s*[\r\n]+",
    "|",
    r"\s+(?!\S)",
    "|",
    r"\s+"
);

/// A token's rank in the vocabulary.
pub type Rank = u32;

/// Pieces from this many bytes on are merged with a heap, as tiktoken does.
const LARGE_PIECE: usize = 100;

fn u32_at(bytes: &[u8], i: usize) -> u32 {
    let mut word = [0u8; 4];
    word.copy_from_slice(&bytes[4 * i..4 * i + 4]);
    u32::from_le_bytes(word)
}

/// The bytes of the token of rank `rank` (empty for a rank the vocabulary does not have).
pub fn token_bytes(rank: Rank) -> &'static [u8] {
    let r = rank as usize;
    if r + 1 >= STARTS.len() / 4 {
        return &[];
    }
    &TOKENS[u32_at(STARTS, r) as usize..u32_at(STARTS, r + 1) as usize]
}

/// The number of ranks the table covers (the ordinary tokens; special tokens are not text).
pub fn vocabulary_len() -> usize {
    STARTS.len() / 4 - 1
}

/// The rank of the token whose bytes are exactly `bytes`, if there is one.
pub fn rank(bytes: &[u8]) -> Option<Rank> {
    let slots = TABLE.len() / 4;
    let mut at = hash::slot(bytes);
    loop {
        let entry = u32_at(TABLE, at);
        if entry == 0 {
            return None;
        }
        if token_bytes(entry - 1) == bytes {
            return Some(entry - 1);
        }
        at = (at + 1) % slots;
    }
}

fn pretokenizer() -> Option<&'static Regex> {
    static REGEX: OnceLock<Option<Regex>> = OnceLock::new();
    REGEX.get_or_init(|| Regex::new(PATTERN).ok()).as_ref()
}

/// Calls `piece` with each pre-tokenized piece of `text` and its byte offset, in order.
/// `false` when the pre-tokenizer cannot run (its pattern failed to compile, or the
/// backtracking engine gave up on a piece) or the caller's deadline has passed, in which case the pieces seen so far are all
/// there is; the caller falls back to an estimate.
fn pieces(text: &str, mut piece: impl FnMut(usize, &[u8])) -> bool {
    let Some(regex) = pretokenizer() else { return false };
    let mut watch = crate::deadline::Watch::default();
    for m in regex.find_iter(text) {
        // Past the query's deadline the count is not wanted: stop as if the pre-tokenizer
        // had given up (the caller's estimate is discarded with the answer).
        let (Ok(m), true) = (m, watch.go()) else { return false };
        piece(m.start(), m.as_str().as_bytes());
    }
    true
}

/// The byte offsets where the tokens of `piece` start, relative to the piece, in order
/// (tiktoken's `byte_pair_encode`, keeping boundaries instead of ranks).
fn split(piece: &[u8], out: &mut Vec<usize>) {
    if piece.len() <= 1 || rank(piece).is_some() {
        out.push(0);
    } else if piece.len() < LARGE_PIECE {
        merge_small(piece, out);
    } else {
        merge_large(piece, out);
    }
}

/// tiktoken's `_byte_pair_merge`: a vector of (start, rank of the pair starting there),
/// merging the lowest-ranked pair (leftmost on ties) until no pair is a token.
fn merge_small(piece: &[u8], out: &mut Vec<usize>) {
    let pair = |a: usize, b: usize| rank(&piece[a..b]).unwrap_or(Rank::MAX);
    let mut parts: Vec<(usize, Rank)> = Vec::with_capacity(piece.len() + 1);
    for i in 0..piece.len() - 1 {
        parts.push((i, pair(i, i + 2)));
    }
    parts.push((piece.len() - 1, Rank::MAX));
    parts.push((piece.len(), Rank::MAX));
    let rank_after_merge = |parts: &[(usize, Rank)], i: usize| {
        if i + 3 < parts.len() { pair(parts[i].0, parts[i + 3].0) } else { Rank::MAX }
    };
    loop {
        let mut min = (Rank::MAX, usize::MAX);
        for (i, &(_, r)) in parts[..parts.len() - 1].iter().enumerate() {
            if r < min.0 {
                min = (r, i);
            }
        }
        if min.0 == Rank::MAX {
            break;
        }
        let i = min.1;
        if i > 0 {
            parts[i - 1].1 = rank_after_merge(&parts, i - 1);
        }
        parts[i].1 = rank_after_merge(&parts, i);
        parts.remove(i + 1);
    }
    out.extend(parts[..parts.len() - 1].iter().map(|&(start, _)| start));
}

/// One position of [`merge_large`]: the token starting here ends at `end`; merging it with
/// the next one would end at `next_end` and make the token `next_rank`.
struct State {
    prev: usize,
    end: usize,
    next_end: usize,
    next_rank: Rank,
}

/// tiktoken's `_byte_pair_merge_large`: the same merges in O(n log n) with a heap of
/// candidate merges (lowest rank, then leftmost, first) and lazy invalidation.
fn merge_large(piece: &[u8], out: &mut Vec<usize>) {
    let n = piece.len();
    let mut state: Vec<State> = Vec::with_capacity(n);
    state.push(State { prev: usize::MAX, end: 1, next_end: 2, next_rank: Rank::MAX });
    let mut heap = BinaryHeap::with_capacity(n);
    for i in 0..n - 1 {
        if let Some(r) = rank(&piece[i..i + 2]) {
            heap.push(Reverse((r, i)));
            state[i].next_rank = r;
        }
        state.push(State { prev: i, end: i + 2, next_end: i + 3, next_rank: Rank::MAX });
    }
    let potential =
        |state: &mut Vec<State>, heap: &mut BinaryHeap<Reverse<(Rank, usize)>>, start: usize, end: usize| {
            state[start].next_end = end;
            state[start].next_rank = Rank::MAX;
            if end <= n
                && let Some(r) = rank(&piece[start..end])
            {
                heap.push(Reverse((r, start)));
                state[start].next_rank = r;
            }
        };
    while let Some(Reverse((r, left))) = heap.pop() {
        if r == Rank::MAX {
            break;
        }
        if r != state[left].next_rank {
            continue;
        }
        let right = state[left].end;
        let right_end = state[left].next_end;
        let right_next_end = state[right].next_end;
        state[left].end = right_end;
        potential(&mut state, &mut heap, left, right_next_end);
        if right_end < state.len() {
            state[right_end].prev = left;
        }
        if left > 0 {
            let prev = state[left].prev;
            potential(&mut state, &mut heap, prev, right_end);
        }
        state[right].next_rank = Rank::MAX;
    }
    let mut i = 0;
    while i < n {
        out.push(i);
        i = state[i].end;
    }
}

/// The number of o200k_base tokens of `text` encoded as ordinary text, or `None` when the
/// pre-tokenizer cannot run on it.
pub fn count(text: &str) -> Option<usize> {
    let mut n = 0;
    let mut starts = Vec::new();
    let ok = pieces(text, |_, piece| {
        if rank(piece).is_some() {
            n += 1;
        } else {
            starts.clear();
            split(piece, &mut starts);
            n += starts.len();
        }
    });
    ok.then_some(n)
}

/// The byte offset where each token of `text` starts, in order, or `None` when the
/// pre-tokenizer cannot run on it.
pub fn starts(text: &str) -> Option<Vec<usize>> {
    let mut out = Vec::new();
    let mut local = Vec::new();
    let ok = pieces(text, |at, piece| {
        local.clear();
        split(piece, &mut local);
        out.extend(local.iter().map(|s| at + s));
    });
    ok.then_some(out)
}
