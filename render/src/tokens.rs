//! Exact token counts of formatted text (§8.2: "the response MUST report actual tokens used").
//!
//! We count with OpenAI's `o200k_base` byte-pair encoding ([`crate::o200k`]: tiktoken's
//! algorithm over the official vocabulary, laid out at build time so that it is ready at
//! process start; no network, no files). o200k_base is the encoding of current GPT-4o-class
//! models; any BPE gives counts within a few percent of any other for English text, and one
//! fixed, public, well-kept vocabulary makes our figures reproducible. Text is encoded as
//! ordinary text: `<|endoftext|>` inside a grain counts as the characters it is, never as a
//! special token.

use crate::o200k;

/// The number of o200k_base tokens of `text`. If the pre-tokenizer could not run (its
/// pattern is fixed and compiles, and tiktoken's backtracking limit is far above any piece
/// of text, so this does not happen), falls back to one token per four bytes, rounded up, so
/// a caller never panics.
pub fn count(text: &str) -> usize {
    if text.is_empty() {
        return 0;
    }
    o200k::count(text).unwrap_or_else(|| text.len().div_ceil(4))
}

/// The byte offset at which each o200k_base token of `text` starts, in order: the streaming
/// chunker attributes every token of a whole text to exactly one chunk, so the chunks' counts
/// add up to [`count`] of the text. With the fallback of [`count`], one start per four bytes.
pub fn starts(text: &str) -> Vec<usize> {
    o200k::starts(text).unwrap_or_else(|| (0..text.len()).step_by(4).collect())
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
