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

/// The byte offset at which each o200k_base token of `text` starts, in order: the streaming
/// chunker attributes every token of a whole text to exactly one chunk, so the chunks' counts
/// add up to [`count`] of the text. With the fallback of [`count`], one start per four bytes.
pub fn starts(text: &str) -> Vec<usize> {
    let Some(b) = bpe() else { return (0..text.len()).step_by(4).collect() };
    let mut out = Vec::new();
    let mut at = 0;
    for t in b.encode_ordinary(text) {
        out.push(at);
        at += b.decode_bytes(&[t]).map_or(0, |bytes| bytes.len());
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_are_real_bpe_counts() {
        assert_eq!(super::count(""), 0);
        assert_eq!(super::count("hello world"), 2);
        assert!(super::count("<|endoftext|>") > 1);
        let text = "<context>\n<belief subject=\"alice\">prefers dark mode</belief>\n</context>";
        let starts = super::starts(text);
        assert_eq!(starts.len(), super::count(text));
        assert_eq!(starts.first(), Some(&0));
        assert!(starts.windows(2).all(|w| w[0] < w[1]) && starts.iter().all(|s| text.is_char_boundary(*s)));
    }
}
