//! Reciprocal rank fusion (Cormack, Clarke and Büttcher, 2009) of a keyword ranking and a
//! vector ranking into one.
//!
//! Every grain in either list is in the answer: fusion only orders, it never drops, so a grain
//! matched by its keywords alone or by its vector alone survives. A grain's fused score is
//! `1/(k + rank)` summed over the lists it is in (ranks from 1); equal scores are ordered by
//! content address ascending, so the same inputs always give the same order (§17.4).

use std::collections::HashMap;

use oms::ContentAddress;

/// The RRF constant: 60, the value of the original paper and of most hybrid search engines.
pub const RRF_K: f64 = 60.0;

/// One grain of a fused ranking, with where it stood in each list.
#[derive(Debug, Clone, PartialEq)]
pub struct Fused {
    /// The grain.
    pub address: ContentAddress,
    /// Its fused score: the sum of `1/(k + rank)` over the lists it is in.
    pub rrf: f64,
    /// Its keyword rank (from 1) and score, when the keyword search found it.
    pub keyword: Option<(usize, f64)>,
    /// Its vector rank (from 1) and cosine similarity, when the vector search found it.
    pub vector: Option<(usize, f32)>,
}

/// Fuses two rankings, each best first and without repeats (a repeat keeps its first rank).
pub fn fuse(keyword: &[(ContentAddress, f64)], vector: &[(ContentAddress, f32)], k: f64) -> Vec<Fused> {
    let mut out: Vec<Fused> = Vec::with_capacity(keyword.len() + vector.len());
    let mut at: HashMap<ContentAddress, usize> = HashMap::with_capacity(out.capacity());
    for (i, (a, s)) in keyword.iter().enumerate() {
        if at.contains_key(a) {
            continue;
        }
        at.insert(*a, out.len());
        out.push(Fused { address: *a, rrf: 0.0, keyword: Some((i + 1, *s)), vector: None });
    }
    for (i, (a, s)) in vector.iter().enumerate() {
        match at.get(a) {
            Some(&j) if out[j].vector.is_none() => out[j].vector = Some((i + 1, *s)),
            Some(_) => {}
            None => {
                at.insert(*a, out.len());
                out.push(Fused { address: *a, rrf: 0.0, keyword: None, vector: Some((i + 1, *s)) });
            }
        }
    }
    for f in &mut out {
        // Summed in one fixed order (keyword, then vector), so equal inputs give equal bits.
        let from_keyword = f.keyword.map_or(0.0, |(r, _)| 1.0 / (k + r as f64));
        let from_vector = f.vector.map_or(0.0, |(r, _)| 1.0 / (k + r as f64));
        f.rrf = from_keyword + from_vector;
    }
    out.sort_by(|a, b| b.rrf.total_cmp(&a.rrf).then(a.address.cmp(&b.address)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn addr(n: u8) -> ContentAddress {
        ContentAddress::from_bytes([n; 32])
    }

    #[test]
    fn both_lists_survive_and_agreement_wins() {
        let keyword = [(addr(1), 1.0), (addr(2), 0.5)];
        let vector = [(addr(3), 0.9), (addr(2), 0.8)];
        let got = fuse(&keyword, &vector, RRF_K);
        let order: Vec<ContentAddress> = got.iter().map(|f| f.address).collect();
        // 2 is in both lists; 1 and 3 tie at 1/61 and are ordered by address.
        assert_eq!(order, [addr(2), addr(1), addr(3)]);
        assert_eq!(got[0].keyword, Some((2, 0.5)));
        assert_eq!(got[0].vector, Some((2, 0.8)));
        assert_eq!(got[2].keyword, None);
    }

    /// The brute-force reference: each grain's score straight from the definition.
    fn reference(keyword: &[u8], vector: &[u8], k: f64) -> Vec<(u8, f64)> {
        let mut all: Vec<u8> = keyword.iter().chain(vector).copied().collect();
        all.sort_unstable();
        all.dedup();
        let rank = |list: &[u8], x: u8| list.iter().position(|y| *y == x).map(|p| p + 1);
        let mut scored: Vec<(u8, f64)> = all
            .into_iter()
            .map(|x| {
                let a = rank(keyword, x).map_or(0.0, |r| 1.0 / (k + r as f64));
                let b = rank(vector, x).map_or(0.0, |r| 1.0 / (k + r as f64));
                (x, a + b)
            })
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        scored
    }

    fn distinct(v: Vec<u8>) -> Vec<u8> {
        let mut seen = std::collections::HashSet::new();
        v.into_iter().filter(|x| seen.insert(*x)).collect()
    }

    proptest! {
        /// Keyword-only and vector-only grains all survive, and the order is the reference's.
        #[test]
        fn fusion_is_the_reference_ranking(
            keyword in prop::collection::vec(0u8..40, 0..30).prop_map(distinct),
            vector in prop::collection::vec(0u8..40, 0..30).prop_map(distinct),
        ) {
            let kw: Vec<(ContentAddress, f64)> = keyword.iter().map(|n| (addr(*n), 1.0)).collect();
            let vc: Vec<(ContentAddress, f32)> = vector.iter().map(|n| (addr(*n), 0.9)).collect();
            let got = fuse(&kw, &vc, RRF_K);
            let want = reference(&keyword, &vector, RRF_K);
            prop_assert_eq!(got.len(), want.len());
            for (g, (n, s)) in got.iter().zip(&want) {
                prop_assert_eq!(g.address, addr(*n));
                prop_assert_eq!(g.rrf.to_bits(), s.to_bits());
            }
            for n in keyword.iter().chain(&vector) {
                prop_assert!(got.iter().any(|g| g.address == addr(*n)), "{} was dropped", n);
            }
        }
    }
}
