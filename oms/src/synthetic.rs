//! Deterministic synthetic data for large test and benchmark stores.
//!
//! The store, interpreter and ASSEMBLE benchmarks each build a million-grain
//! store; they share this vocabulary so their figures describe the same kind
//! of text (5,000 pronounceable words, Zipf-like frequencies) and so the
//! generators cannot drift apart. Everything is a pure function of its seed.

/// One step of a 64-bit linear congruential generator (Knuth's MMIX constants).
pub fn lcg(x: u64) -> u64 {
    x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407)
}

/// Word `i` (modulo 5,000) of a pronounceable pseudo-word vocabulary.
pub fn word(i: u64) -> String {
    const SYL: [&str; 20] = [
        "ka", "lo", "mi", "ne", "ru", "sa", "te", "vi", "zo", "pa", "qu", "ri", "do", "fe", "gu", "ha", "ji", "bo",
        "ce", "wy",
    ];
    let i = i % 5_000;
    format!("{}{}{}", SYL[(i % 20) as usize], SYL[((i / 20) % 20) as usize], SYL[((i / 400) % 20) as usize])
}

/// A word index from a random value, skewed like natural text: small indexes are much more frequent.
pub fn skewed(r: u64) -> u64 {
    let u = (r >> 11) as f64 / (1u64 << 53) as f64;
    ((5000f64).powf(u) - 1.0) as u64 % 5000
}

/// Three to eight skewed words, a pure function of `seed`.
pub fn text(seed: u64) -> String {
    let mut r = lcg(seed);
    let len = 3 + r % 6;
    (0..len)
        .map(|_| {
            r = lcg(r);
            word(skewed(r))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The store size a benchmark should build: the environment variable `var` when it holds a
/// number (for quick runs), else one million.
pub fn size_from_env(var: &str) -> usize {
    std::env::var(var).ok().and_then(|s| s.parse().ok()).unwrap_or(1_000_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vocabulary_is_deterministic_and_bounded() {
        assert_eq!(word(0), word(5_000));
        assert_eq!(text(7), text(7));
        assert!((0..10_000).map(|i| skewed(lcg(i))).all(|w| w < 5_000));
        let t = text(42);
        let n = t.split(' ').count();
        assert!((3..=8).contains(&n), "{t}");
    }
}
