// Shared by `build.rs` (which lays out the table) and `o200k::Vocabulary` (which probes it):
// the two must hash alike, and `tokens_exact.rs` looks every token up to prove it.

/// log2 of the number of slots of the rank table: 2^19 = 524,288 slots for 199,998 tokens,
/// a load of 38%, so a lookup probes about 1.3 slots.
pub const TABLE_BITS: u32 = 19;

/// The slot where the search for `bytes` starts: FNV-1a over the bytes, finished by a
/// multiplicative mix so that the top bits, which pick the slot, depend on every byte.
pub fn slot(bytes: &[u8]) -> usize {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h ^= h >> 29;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    (h >> (64 - TABLE_BITS)) as usize
}
