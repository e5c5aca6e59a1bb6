//! "Did you mean …?" — nearest words by edit distance over a closed vocabulary.

/// Damerau–Levenshtein distance (optimal string alignment) over characters, ASCII case folded.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().map(|c| c.to_ascii_lowercase()).collect();
    let b: Vec<char> = b.chars().map(|c| c.to_ascii_lowercase()).collect();
    let (n, m) = (a.len(), b.len());
    let mut prev2 = vec![0usize; m + 1];
    let mut prev: Vec<usize> = (0..=m).collect();
    let mut cur = vec![0usize; m + 1];
    for i in 1..=n {
        cur[0] = i;
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(prev2[j - 2] + 1);
            }
            cur[j] = v;
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[m]
}

/// The closest candidate to `word`, if it is close enough to be a plausible typo:
/// within a third of the word's length (at least 1, at most 3 edits), or equal
/// ignoring case, or one being a prefix of the other (`belief` for `beliefs`).
/// Ties go to the earliest candidate, so results are deterministic.
pub fn did_you_mean<'a, I>(word: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let chars = word.chars().count();
    let limit = (chars / 3).clamp(1, 3);
    let mut best: Option<(usize, &'a str)> = None;
    for c in candidates {
        // Lengths more than three apart are more than `limit` edits apart and too far for the
        // prefix rule: skip before paying for the distance (a 5 MB word must not cost seconds).
        if c == word || c.chars().count().abs_diff(chars) > 3 {
            continue;
        }
        let d = if c.eq_ignore_ascii_case(word) { 0 } else { edit_distance(word, c) };
        let plausible = d <= limit
            || (word.len() >= 3 && (c.starts_with(word) || word.starts_with(c)) && c.len().abs_diff(word.len()) <= 2);
        if plausible && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_huge_word_is_no_typo_of_anything_and_costs_nothing() {
        let huge = "b".repeat(5_000_000);
        assert_eq!(did_you_mean(&huge, ["beliefs", "goals"]), None);
        // At the edge: three letters more is still within three edits, four is not.
        assert_eq!(did_you_mean("beliefsxyz", ["beliefs"]), Some("beliefs"));
        assert_eq!(did_you_mean("beliefsxyzw", ["beliefs"]), None);
    }

    #[test]
    fn distances() {
        assert_eq!(edit_distance("beliefs", "beleifs"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("subjet", "subject"), 1);
    }

    #[test]
    fn suggestions() {
        let fields = ["subject", "relation", "object", "confidence"];
        assert_eq!(did_you_mean("subjct", fields), Some("subject"));
        assert_eq!(did_you_mean("confidnce", fields), Some("confidence"));
        assert_eq!(did_you_mean("zzzzzz", fields), None);
        assert_eq!(did_you_mean("SUBJECT", fields), Some("subject"));
        assert_eq!(did_you_mean("belief", ["beliefs", "events"]), Some("beliefs"));
    }
}
