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

/// Relations of the generated beliefs.
const RELATIONS: [&str; 8] =
    ["mg:prefers", "mg:knows", "works_on", "mg:avoids", "member_of", "mg:requires", "status", "mg:infers"];

/// Grain `i` of the benchmark store, as OMS JSON: beliefs (70%), events (20%) and
/// observations (10%) about 50,000 subjects (`entity-{i / 20}`), objects of 3–8 skewed
/// words, 8 relations, 1,000 users, 16 namespaces (`bench-0` … `bench-15`), creation
/// times over the year before `now_ms`.
pub fn mixed_grain(i: usize, now_ms: i64) -> serde_json::Value {
    let r = lcg(i as u64 ^ 0x9e37_79b9_7f4a_7c15);
    let namespace = format!("bench-{}", (r >> 36) % 16);
    let subject = format!("entity-{}", i / 20);
    let created = now_ms - 365 * 86_400_000 + (r % (365 * 86_400_000)) as i64;
    let kind = r % 10;
    if kind < 7 {
        serde_json::json!({ "type": "belief", "subject": subject, "relation": RELATIONS[(r >> 8) as usize % 8],
            "object": text(r), "confidence": ((r >> 20) % 100) as f64 / 100.0, "created_at": created,
            "namespace": namespace, "user_id": format!("user-{}", i % 1000),
            "structural_tags": ["bench", if r.is_multiple_of(3) { "hot" } else { "cold" }] })
    } else if kind < 9 {
        serde_json::json!({ "type": "event", "subject": subject, "content": text(r),
            "role": if r.is_multiple_of(2) { "user" } else { "assistant" }, "session_id": format!("sess-{}", i / 40),
            "created_at": created, "namespace": namespace, "user_id": format!("user-{}", i % 1000) })
    } else {
        serde_json::json!({ "type": "observation", "subject": subject, "observer_id": format!("obs-{}", i % 50),
            "observer_type": "agent:monitor", "object": text(r), "created_at": created, "namespace": namespace })
    }
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
