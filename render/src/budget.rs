//! ASSEMBLE budget allocation (§8.2): default PRIORITY weights, splitting a
//! budget by weight, surplus redistribution, and picking each source's grains
//! so that the formatted output never exceeds the budget.

use cal_grammar::limits::{self, default_priority_weights};

/// The unit of a BUDGET clause (§8.2 "Budget Units").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum BudgetUnit {
    /// Tokens of formatted output (default 4,000, max 16,000).
    #[default]
    Tokens,
    /// Grains included in total (default 50, max 200).
    Grains,
}

impl BudgetUnit {
    /// The unit's word (`{{budget.unit}}`).
    pub fn as_str(self) -> &'static str {
        match self {
            BudgetUnit::Tokens => "tokens",
            BudgetUnit::Grains => "grains",
        }
    }

    /// The amount an ASSEMBLE without BUDGET gets.
    pub fn default_amount(self) -> usize {
        match self {
            BudgetUnit::Tokens => limits::DEFAULT_BUDGET_TOKENS,
            BudgetUnit::Grains => limits::DEFAULT_BUDGET_GRAINS,
        }
    }

    /// The largest amount allowed (the checker reports CAL-E030 above it; here it is a clamp).
    pub fn max_amount(self) -> usize {
        match self {
            BudgetUnit::Tokens => limits::MAX_BUDGET_TOKENS,
            BudgetUnit::Grains => limits::MAX_BUDGET_GRAINS,
        }
    }
}

/// A BUDGET clause.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Budget {
    /// How much.
    pub amount: usize,
    /// Of what.
    pub unit: BudgetUnit,
}

impl Budget {
    /// `BUDGET amount unit`, clamped to the unit's maximum.
    pub fn new(amount: usize, unit: BudgetUnit) -> Self {
        Budget { amount: amount.min(unit.max_amount()), unit }
    }

    /// The budget of an ASSEMBLE without a BUDGET clause: 4,000 tokens.
    pub fn default_tokens() -> Self {
        Budget::new(BudgetUnit::Tokens.default_amount(), BudgetUnit::Tokens)
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget::default_tokens()
    }
}

/// Ratio of consecutive weights for five or more sources. §8.2 says only "exponential decay";
/// the planner fixed the curve first (docs/spec-decisions-interp.md A1, `decay_weights`: 0.6^i,
/// normalized) and reports those weights in EXPLAIN and in each source's `weight`, so the
/// allocator uses the same ratio: the weight a response shows is the weight that was applied.
pub const DECAY_RATIO: f64 = 0.6;

/// The default PRIORITY weights for `n` sources, highest priority first, summing to 1.
/// One source takes everything; two to four use §8.2's table; five or more decay by
/// [`DECAY_RATIO`].
pub fn weights(n: usize) -> Vec<f64> {
    if let Some(w) = default_priority_weights(n) {
        return w.to_vec();
    }
    let raw: Vec<f64> = (0..n).map(|i| DECAY_RATIO.powi(i32::try_from(i).unwrap_or(i32::MAX))).collect();
    let sum: f64 = raw.iter().sum();
    raw.into_iter().map(|w| w / sum).collect()
}

/// Splits `total` by `weights`: each share is the floor of its weighted part, and the units
/// left by rounding go one each to the highest-priority sources. The shares sum to `total`
/// exactly (when there is at least one weight).
pub fn split(total: usize, weights: &[f64]) -> Vec<usize> {
    let sum: f64 = weights.iter().sum();
    if weights.is_empty() || sum <= 0.0 {
        return vec![0; weights.len()];
    }
    let mut shares: Vec<usize> = weights.iter().map(|w| (total as f64 * w / sum).floor() as usize).collect();
    let mut left = total.saturating_sub(shares.iter().sum());
    let mut i = 0;
    while left > 0 {
        if let Some(s) = shares.get_mut(i % weights.len()) {
            *s += 1;
        }
        left -= 1;
        i += 1;
    }
    shares
}

/// The result of [`allocate`]: per source, how many of its candidates fit and what they cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allocation {
    /// The initial share of each source, by weight.
    pub initial: Vec<usize>,
    /// The final share after surplus redistribution.
    pub allocated: Vec<usize>,
    /// How many leading candidates of each source are taken.
    pub taken: Vec<usize>,
    /// What those candidates cost, in the budget's unit.
    pub used: Vec<usize>,
}

impl Allocation {
    /// True when source `i` had candidates left out.
    pub fn truncated(&self, i: usize, candidates: usize) -> bool {
        self.taken.get(i).is_some_and(|t| *t < candidates)
    }
}

fn take(costs: &[usize], share: usize) -> (usize, usize) {
    let mut used = 0;
    for (i, c) in costs.iter().enumerate() {
        if used + c > share {
            return (i, used);
        }
        used += c;
    }
    (costs.len(), used)
}

/// Allocates `total` among sources in priority order (`costs[i]` are the costs of source i's
/// candidates in rank order, in the budget's unit: tokens, or 1 per grain).
///
/// Each source first gets its weighted share and takes candidates in rank order while they fit
/// (stopping at the first that does not, so ranks are never skipped). What a source leaves
/// unused — because it ran out of candidates or the next one did not fit — is surplus, given
/// to the sources that still have candidates, by their weights, until nobody can use more.
/// The sum of `used` never exceeds `total`.
pub fn allocate(total: usize, costs: &[Vec<usize>], weights: &[f64]) -> Allocation {
    let n = costs.len();
    let initial = split(total, weights);
    let mut allocated = initial.clone();
    let mut taken = vec![0; n];
    let mut used = vec![0; n];
    for _ in 0..=n * 4 + 8 {
        for i in 0..n {
            let (t, u) = take(&costs[i], allocated[i]);
            taken[i] = t;
            used[i] = u;
        }
        let surplus: usize = (0..n).map(|i| allocated[i] - used[i]).sum();
        let hungry: Vec<usize> = (0..n).filter(|&i| taken[i] < costs[i].len()).collect();
        if surplus == 0 || hungry.is_empty() {
            break;
        }
        // Everyone keeps what they use; the rest is pooled and re-split among the hungry.
        let hw: Vec<f64> = hungry.iter().map(|&i| weights.get(i).copied().unwrap_or(0.0)).collect();
        let extra = split(surplus, &hw);
        let before = taken.clone();
        allocated.copy_from_slice(&used);
        for (k, &i) in hungry.iter().enumerate() {
            allocated[i] += extra[k];
        }
        let progressed = (0..n).any(|i| take(&costs[i], allocated[i]).0 > before[i]);
        if !progressed {
            break;
        }
    }
    Allocation { initial, allocated, taken, used }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_match_the_spec() {
        assert_eq!(weights(2), [0.65, 0.35]);
        assert_eq!(weights(3), [0.5, 0.3, 0.2]);
        assert_eq!(weights(4), [0.4, 0.28, 0.2, 0.12]);
        for n in 5..=8 {
            let w = weights(n);
            assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            assert!(w.windows(2).all(|p| (p[1] / p[0] - DECAY_RATIO).abs() < 1e-9));
        }
        assert_eq!(split(2000, &weights(4)), [800, 560, 400, 240]);
        assert_eq!(split(2000, &weights(2)), [1300, 700]);
        assert_eq!(split(10, &weights(3)), [5, 3, 2]);
        assert_eq!(split(7, &weights(3)).iter().sum::<usize>(), 7);
    }

    #[test]
    fn surplus_moves_to_sources_that_can_use_it() {
        // Source 0 needs only 100 of its 650; source 1 has plenty of candidates.
        let costs = vec![vec![50, 50], vec![100; 20]];
        let a = allocate(1000, &costs, &weights(2));
        assert_eq!(a.initial, [650, 350]);
        assert_eq!(a.taken, [2, 9]);
        assert_eq!(a.used, [100, 900]);
        assert!(!a.truncated(0, 2) && a.truncated(1, 20));
        assert!(a.used.iter().sum::<usize>() <= 1000);
    }

    #[test]
    fn never_over_budget() {
        let costs = vec![vec![7, 13, 29, 3], vec![11; 9], vec![101, 1], vec![5; 40]];
        for total in [0, 1, 10, 50, 100, 333, 1000] {
            let a = allocate(total, &costs, &weights(4));
            assert!(a.used.iter().sum::<usize>() <= total, "{total}");
            for (i, c) in costs.iter().enumerate() {
                assert_eq!(c[..a.taken[i]].iter().sum::<usize>(), a.used[i]);
            }
        }
    }
}
