//! Exact cosine search over the vectors of a store, held contiguously.
//!
//! Vectors are normalised once, on insert, so a similarity is one dot product. The scan over
//! `data` is a plain loop over `chunks_exact` that the compiler vectorises; a query allocates
//! only its answer. Exact search keeps answers reproducible (§17.4) and is fast enough at the
//! sizes the issue names (docs/performance-embed.md); an approximate index would trade both.

use oms::ContentAddress;

/// One indexed vector's grain: what a search filters on before it scores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The grain's content address.
    pub address: ContentAddress,
    /// The grain type's byte (OMS §5).
    pub grain_type: u8,
    /// The grain's namespace ("" when it has none).
    pub namespace: String,
}

/// What a search may look at: grain types and namespaces, each `None` for all.
#[derive(Debug, Clone, Copy, Default)]
pub struct Scope<'a> {
    /// Allowed grain type bytes.
    pub types: Option<&'a [u8]>,
    /// Allowed namespaces.
    pub namespaces: Option<&'a [String]>,
}

impl Scope<'_> {
    fn admits(&self, e: &Entry) -> bool {
        self.types.is_none_or(|t| t.contains(&e.grain_type)) && self.namespaces.is_none_or(|n| n.contains(&e.namespace))
    }
}

/// From how many vectors a search is split across threads (below it, starting them costs
/// more than it saves).
const PARALLEL_FROM: usize = 50_000;

/// The most threads one search uses.
const MAX_THREADS: usize = 8;

/// The vectors of a store, all of one length.
#[derive(Debug, Clone)]
pub struct VectorIndex {
    dims: usize,
    data: Vec<f32>,
    entries: Vec<Entry>,
    slot: std::collections::HashMap<ContentAddress, usize>,
}

impl VectorIndex {
    /// An empty index of `dims`-long vectors.
    pub fn new(dims: usize) -> Self {
        VectorIndex { dims, data: Vec::new(), entries: Vec::new(), slot: std::collections::HashMap::new() }
    }

    /// The vectors' length.
    pub fn dimensions(&self) -> usize {
        self.dims
    }

    /// How many grains have a vector.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no grain has a vector.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether the grain at `address` has a vector.
    pub fn contains(&self, address: &ContentAddress) -> bool {
        self.slot.contains_key(address)
    }

    /// Adds (or replaces) a grain's vector. A vector of another length, or of zero length
    /// (it has no direction), is not added; the answer says whether it was.
    pub fn insert(&mut self, entry: Entry, vector: &[f32]) -> bool {
        if vector.len() != self.dims {
            return false;
        }
        let norm = vector.iter().map(|x| f64::from(*x) * f64::from(*x)).sum::<f64>().sqrt();
        if norm == 0.0 || !norm.is_finite() {
            return false;
        }
        let unit = vector.iter().map(|x| (f64::from(*x) / norm) as f32);
        match self.slot.get(&entry.address) {
            Some(&i) => {
                for (d, v) in self.data[i * self.dims..(i + 1) * self.dims].iter_mut().zip(unit) {
                    *d = v;
                }
                self.entries[i] = entry;
            }
            None => {
                self.slot.insert(entry.address, self.entries.len());
                self.data.extend(unit);
                self.entries.push(entry);
            }
        }
        true
    }

    /// The grains in `scope` whose similarity to `query` is at least `min`, most similar
    /// first, equal similarities by content address ascending (§17.4). `query` need not be
    /// normalised; a zero or wrong-length query matches nothing.
    pub fn search(&self, query: &[f32], scope: Scope<'_>, min: f32) -> Vec<(ContentAddress, f32)> {
        let Some(q) = unit(query, self.dims) else { return Vec::new() };
        // Large indexes are scanned in as many slices as there are cores; the answer is the
        // same whatever the split, because the final order is total.
        let threads = if self.entries.len() < PARALLEL_FROM {
            1
        } else {
            std::thread::available_parallelism().map_or(1, std::num::NonZero::get).min(MAX_THREADS)
        };
        let per = self.entries.len().div_ceil(threads).max(1);
        let scan = |from: usize| -> Vec<(ContentAddress, f32)> {
            let to = (from + per).min(self.entries.len());
            let rows = self.data[from * self.dims..to * self.dims].chunks_exact(self.dims);
            let mut hits = Vec::new();
            for (row, entry) in rows.zip(&self.entries[from..to]) {
                if scope.admits(entry) {
                    let s = dot(row, &q);
                    if s >= min {
                        hits.push((entry.address, s));
                    }
                }
            }
            hits
        };
        let mut out: Vec<(ContentAddress, f32)> = if threads == 1 {
            scan(0)
        } else {
            std::thread::scope(|sc| {
                let parts: Vec<_> = (0..threads).map(|t| sc.spawn(move || scan(t * per))).collect();
                parts.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
            })
        };
        out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        out
    }

    /// The `k` most similar grains in `scope`, whatever their similarity, in the order of
    /// [`VectorIndex::search`]: a bounded selection, for benchmarks and nearest-neighbour use.
    pub fn nearest(&self, query: &[f32], scope: Scope<'_>, k: usize) -> Vec<(ContentAddress, f32)> {
        let Some(q) = unit(query, self.dims) else { return Vec::new() };
        let mut scored: Vec<(f32, usize)> = self
            .data
            .chunks_exact(self.dims)
            .enumerate()
            .filter(|(i, _)| scope.admits(&self.entries[*i]))
            .map(|(i, row)| (dot(row, &q), i))
            .collect();
        let order = |a: &(f32, usize), b: &(f32, usize)| {
            b.0.total_cmp(&a.0).then(self.entries[a.1].address.cmp(&self.entries[b.1].address))
        };
        if k < scored.len() {
            scored.select_nth_unstable_by(k, order);
            scored.truncate(k);
        }
        scored.sort_by(order);
        scored.into_iter().map(|(s, i)| (self.entries[i].address, s)).collect()
    }
}

/// `v` scaled to length one, when it has the index's length and a direction.
fn unit(v: &[f32], dims: usize) -> Option<Vec<f32>> {
    if v.len() != dims {
        return None;
    }
    let norm = v.iter().map(|x| f64::from(*x) * f64::from(*x)).sum::<f64>().sqrt();
    (norm > 0.0 && norm.is_finite()).then(|| v.iter().map(|x| (f64::from(*x) / norm) as f32).collect())
}

/// The dot product, in eight independent lanes so that the loop vectorises, summed in a fixed
/// order (the same inputs always give the same bits).
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for i in 0..8 {
            lanes[i] += x[i] * y[i];
        }
    }
    let mut sum = lanes.iter().sum::<f32>();
    for (x, y) in ra.iter().zip(rb) {
        sum += x * y;
    }
    sum
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(n: u8) -> ContentAddress {
        ContentAddress::from_bytes([n; 32])
    }

    fn entry(n: u8, t: u8, ns: &str) -> Entry {
        Entry { address: addr(n), grain_type: t, namespace: ns.into() }
    }

    #[test]
    fn ranks_by_cosine_then_address_above_the_floor() {
        let mut ix = VectorIndex::new(3);
        assert!(ix.insert(entry(3, 1, "a"), &[1.0, 0.0, 0.0]));
        assert!(ix.insert(entry(1, 1, "a"), &[2.0, 0.0, 0.0])); // same direction: a tie, by address
        assert!(ix.insert(entry(2, 1, "a"), &[1.0, 1.0, 0.0]));
        assert!(ix.insert(entry(4, 1, "a"), &[0.0, 0.0, 1.0]));
        let got = ix.search(&[5.0, 0.0, 0.0], Scope::default(), 0.5);
        let order: Vec<ContentAddress> = got.iter().map(|(a, _)| *a).collect();
        assert_eq!(order, [addr(1), addr(3), addr(2)]);
        assert!((got[2].1 - std::f32::consts::FRAC_1_SQRT_2).abs() < 1e-6);
        assert_eq!(ix.nearest(&[5.0, 0.0, 0.0], Scope::default(), 2).len(), 2);
        assert_eq!(ix.nearest(&[0.0, 0.0, 1.0], Scope::default(), 1)[0].0, addr(4));
    }

    #[test]
    fn scope_filters_before_scoring() {
        let mut ix = VectorIndex::new(2);
        ix.insert(entry(1, 1, "a"), &[1.0, 0.0]);
        ix.insert(entry(2, 2, "a"), &[1.0, 0.0]);
        ix.insert(entry(3, 1, "b"), &[1.0, 0.0]);
        let ns = ["b".to_string()];
        let only_b = ix.search(&[1.0, 0.0], Scope { types: None, namespaces: Some(&ns) }, 0.0);
        assert_eq!(only_b.iter().map(|x| x.0).collect::<Vec<_>>(), [addr(3)]);
        let only_2 = ix.search(&[1.0, 0.0], Scope { types: Some(&[2]), namespaces: None }, 0.0);
        assert_eq!(only_2.iter().map(|x| x.0).collect::<Vec<_>>(), [addr(2)]);
    }

    #[test]
    fn refuses_vectors_without_length_or_direction() {
        let mut ix = VectorIndex::new(2);
        assert!(!ix.insert(entry(1, 1, ""), &[1.0, 0.0, 0.0]));
        assert!(!ix.insert(entry(1, 1, ""), &[0.0, 0.0]));
        assert!(ix.is_empty());
        assert!(ix.insert(entry(1, 1, ""), &[0.0, 1.0]));
        assert!(ix.insert(entry(1, 1, ""), &[1.0, 0.0]), "replaces");
        assert_eq!(ix.len(), 1);
        assert_eq!(ix.search(&[1.0, 0.0], Scope::default(), 0.99).len(), 1);
        assert!(ix.search(&[0.0, 0.0], Scope::default(), -1.0).is_empty());
    }

    #[test]
    fn a_split_scan_answers_as_one_scan() {
        let mut ix = VectorIndex::new(4);
        for i in 0..(PARALLEL_FROM as u32 + 1_000) {
            let b = i.to_be_bytes();
            let mut a = [0u8; 32];
            a[..4].copy_from_slice(&b);
            let v = [(i % 7) as f32, (i % 5) as f32, 1.0, (i % 3) as f32];
            ix.insert(Entry { address: ContentAddress::from_bytes(a), grain_type: 1, namespace: String::new() }, &v);
        }
        let q = [1.0, 2.0, 0.5, 0.0];
        let split = ix.search(&q, Scope::default(), 0.6);
        let mut one: Vec<(ContentAddress, f32)> = ix
            .data
            .chunks_exact(4)
            .zip(&ix.entries)
            .map(|(row, e)| (e.address, dot(row, &unit(&q, 4).unwrap())))
            .filter(|(_, s)| *s >= 0.6)
            .collect();
        one.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        assert!(split.len() > 1_000);
        assert_eq!(split, one);
    }

    #[test]
    fn dot_matches_the_plain_sum() {
        let a: Vec<f32> = (0..19).map(|i| i as f32 * 0.5).collect();
        let b: Vec<f32> = (0..19).map(|i| 1.0 - i as f32 * 0.1).collect();
        let plain: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        assert!((dot(&a, &b) - plain).abs() < 1e-3);
    }
}
