//! Progressive disclosure's three tiers (§8.2 phase 4: "When enabled, the response includes
//! three tiers: Summary, Headlines, Full"). A tier is the whole assembly rendered at one of
//! §14.3's metadata densities, each allocated and trimmed to the same budget on its own, so any
//! tier can be inserted as it is. Which tier a bare `WITH progressive_disclosure` shows first is
//! [`Disclosure::for_budget`]'s choice; the caller keeps the others beside it
//! (docs/spec-decisions-render.md, "Progressive disclosure tiers").

use crate::assemble::{AssembleRequest, Assembled, assemble};
use crate::project::Disclosure;

/// One of §8.2's three tiers, in order of increasing metadata density.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tier {
    /// Tag name, subject and content only (§14.3 `summary`).
    Summary,
    /// §14.3's middle level, `standard`: the EBNF's `disclosure_level` calls it `headlines` and
    /// §14.3's table gives it no other content, so the two names are one density.
    Headlines,
    /// Every attribute §14.3 lists (`full`).
    Full,
}

impl Tier {
    /// The three tiers in §8.2's order.
    pub const ALL: [Tier; 3] = [Tier::Summary, Tier::Headlines, Tier::Full];

    /// The tier's name as §8.2 spells it, lower-cased (the response's key).
    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Summary => "summary",
            Tier::Headlines => "headlines",
            Tier::Full => "full",
        }
    }

    /// The §14.3 metadata density the tier is rendered at.
    pub fn disclosure(self) -> Disclosure {
        match self {
            Tier::Summary => Disclosure::Summary,
            Tier::Headlines => Disclosure::Standard,
            Tier::Full => Disclosure::Full,
        }
    }

    /// The tier rendered at a disclosure level.
    pub fn of(disclosure: Disclosure) -> Tier {
        match disclosure {
            Disclosure::Summary => Tier::Summary,
            Disclosure::Standard => Tier::Headlines,
            Disclosure::Full => Tier::Full,
        }
    }
}

/// The request assembled once per tier, each at the tier's disclosure and within the request's
/// budget, in [`Tier::ALL`] order. The request's own disclosure is ignored.
pub fn assemble_tiers(req: &AssembleRequest) -> Vec<(Tier, Assembled)> {
    Tier::ALL
        .iter()
        .map(|&tier| {
            let mut r = req.clone();
            r.projection.disclosure = tier.disclosure();
            (tier, assemble(&r))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiers_and_levels_map_both_ways() {
        for t in Tier::ALL {
            assert_eq!(Tier::of(t.disclosure()), t);
        }
        assert_eq!(Tier::Headlines.disclosure().as_str(), "standard");
        assert_eq!(Tier::ALL.map(Tier::as_str), ["summary", "headlines", "full"]);
    }
}
