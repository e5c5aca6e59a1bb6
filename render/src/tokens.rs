//! Exact token counts of formatted text (§8.2: "the response MUST report actual tokens used").
//!
//! We count with OpenAI's `o200k_base` byte-pair encoding through `tiktoken-rs`, whose
//! vocabulary is embedded in the crate (no network, no files). o200k_base is the encoding of
//! current GPT-4o-class models; any BPE gives counts within a few percent of any other for
//! English text, and one fixed, public, well-kept vocabulary makes our figures reproducible.
//! Text is encoded as ordinary text: `<|endoftext|>` inside a grain counts as the characters
//! it is, never as a special token.

use std::sync::OnceLock;
use tiktoken_rs::CoreBPE;

fn bpe() -> Option<&'static CoreBPE> {
    static BPE: OnceLock<Option<CoreBPE>> = OnceLock::new();
    BPE.get_or_init(|| tiktoken_rs::o200k_base().ok()).as_ref()
}

/// The number of o200k_base tokens of `text`. If the embedded vocabulary could not be loaded
/// (it is compiled in, so this does not happen), falls back to one token per four bytes,
/// rounded up, so a caller never panics.
pub fn count(text: &str) -> usize {
    if text.is_empty() {
        return 0;
    }
    match bpe() {
        Some(b) => b.encode_ordinary(text).len(),
        None => text.len().div_ceil(4),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_are_real_bpe_counts() {
        assert_eq!(super::count(""), 0);
        assert_eq!(super::count("hello world"), 2);
        assert!(super::count("<|endoftext|>") > 1);
    }
}
