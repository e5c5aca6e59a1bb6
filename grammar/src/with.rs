//! WITH options (§4 `with_option`, §9): how each is spelt and what it takes.
//!
//! The option names are [`WithOptionName`] (in `vocab`, with the other closed word sets);
//! this module adds what the parser, printer and JSON codec need besides the name — whether
//! parentheses follow, and the words that may stand inside them — so that no crate spells an
//! option or its argument words itself.

use crate::vocab::WithOptionName;
use crate::word_enum;

/// What may follow a WITH option's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WithArgument {
    /// Nothing: the option is a flag (`WITH superseded`).
    None,
    /// Parentheses may follow (`progressive_disclosure` or `progressive_disclosure(standard)`).
    Optional,
    /// Parentheses must follow (`dedup(subject)`, `cache(ttl = 60)`).
    Required,
}

impl WithOptionName {
    /// Whether the option takes a parenthesised argument (§4 `with_option`).
    pub const fn argument(self) -> WithArgument {
        match self {
            WithOptionName::Superseded
            | WithOptionName::ScoreBreakdown
            | WithOptionName::Explanation
            | WithOptionName::Provenance
            | WithOptionName::ContradictionDetection
            | WithOptionName::Summarize
            | WithOptionName::IsoTimestamps => WithArgument::None,
            WithOptionName::ProgressiveDisclosure => WithArgument::Optional,
            WithOptionName::Diversity
            | WithOptionName::Consistency
            | WithOptionName::Dedup
            | WithOptionName::Locale
            | WithOptionName::Cache => WithArgument::Required,
        }
    }
}

word_enum! {
    /// The methods of `diversity(…)` (§4 `diversity_spec`): `mmr[, lambda = x]` or
    /// `threshold, x`.
    pub enum DiversityMode { Mmr = "mmr", Threshold = "threshold" }
}

/// The named argument of `diversity(mmr, lambda = x)`.
pub const DIVERSITY_LAMBDA: &str = "lambda";

/// The named argument of `cache(ttl = n)`.
pub const CACHE_TTL: &str = "ttl";

/// Implementation-specific WITH options start with this (§25.2): `x_hnsw_ef(200)`.
pub const EXTENSION_PREFIX: &str = "x_";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_states_its_argument() {
        let with_parens: Vec<&str> =
            WithOptionName::ALL.iter().filter(|o| o.argument() != WithArgument::None).map(|o| o.as_str()).collect();
        assert_eq!(with_parens, ["progressive_disclosure", "diversity", "consistency", "dedup", "locale", "cache"]);
        // The EBNF is the spec: every option name and argument word appears in it.
        for word in WithOptionName::words().chain(DiversityMode::words()).chain([DIVERSITY_LAMBDA, CACHE_TTL]) {
            assert!(crate::EBNF.contains(&format!("\"{word}\"")), "{word} is not in cal.ebnf");
        }
    }
}
