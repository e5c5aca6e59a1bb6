//! Locale-aware sorting (§16.5): `WITH locale("de")` orders strings by a
//! language-insensitive primary key (accents and case folded away, so `Äpfel`
//! sorts with `apfel`, before `Birne`), ties broken by code points.
//!
//! This is the root collation's primary level for Latin, Greek and Cyrillic
//! scripts, which is what the locales in [`SUPPORTED`] agree on. Locales with
//! tailorings it does not model (Swedish `å` after `z`, Turkish dotless `ı`,
//! Lithuanian `y`, …) are not claimed: §16.5 says an implementation that does
//! not support a locale ignores it with a warning, and so do we (CAL-W004).

use std::cmp::Ordering;

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// Languages whose ordering the primary key reproduces.
pub const SUPPORTED: &[&str] = &["und", "en", "de", "fr", "es", "it", "pt", "nl", "ca", "ga", "id", "ms", "sw", "la"];

/// Whether `locale` (a BCP 47 tag such as `de` or `de-AT`) is one we sort for.
pub fn supported(locale: &str) -> bool {
    let lang = locale.split(['-', '_']).next().unwrap_or("").to_ascii_lowercase();
    SUPPORTED.contains(&lang.as_str())
}

/// The primary collation key: decomposed, marks dropped, lower-cased.
pub fn key(s: &str) -> String {
    s.nfd().filter(|c| !is_combining_mark(*c)).flat_map(char::to_lowercase).collect()
}

/// Compares two strings under the locale's primary key, then by code points.
pub fn compare(a: &str, b: &str) -> Ordering {
    key(a).cmp(&key(b)).then_with(|| a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accents_and_case_fold_to_the_primary_key() {
        let mut words = vec!["Zebra", "Äpfel", "apfel", "Birne", "éclair", "Eclair"];
        words.sort_by(|a, b| compare(a, b));
        assert_eq!(words, ["apfel", "Äpfel", "Birne", "Eclair", "éclair", "Zebra"]);
        let mut binary = vec!["Zebra", "Äpfel", "Birne"];
        binary.sort();
        assert_eq!(binary, ["Birne", "Zebra", "Äpfel"], "code-point order puts Ä last");
    }

    #[test]
    fn locales() {
        assert!(supported("de") && supported("de-AT") && supported("EN_us"));
        assert!(!supported("sv") && !supported("tr") && !supported(""));
    }
}
