//! The editor-independent engine: every language feature as a pure function of
//! a [`Document`] and a byte offset, so tests need no editor and no protocol.

pub mod actions;
pub mod completion;
pub mod context;
pub mod diagnostics;
pub mod docs;
pub mod document;
pub mod format;
pub mod hover;
pub mod names;
pub mod position;
pub mod semantic;
pub mod signature;
pub mod spec_sections;
pub mod symbols;

/// The grammar file's reader is the grammar crate's (one tokenizer of `cal.ebnf`); the
/// engine's features take keyword docs, signatures and completion sets from it.
pub use cal_grammar::ebnf;
pub use document::Document;
pub use position::{Encoding, Lines};

/// A text replacement in byte offsets: the engine's answer for formatting,
/// rename and code actions; the server turns it into an LSP `TextEdit`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// What to replace.
    pub span: cal_grammar::Span,
    /// The new text.
    pub text: String,
}

/// Applies non-overlapping edits to `text` (in any order), for tests and for checking
/// that an engine answer produces what it promises.
pub fn apply_edits(text: &str, edits: &[Edit]) -> String {
    let mut sorted: Vec<&Edit> = edits.iter().collect();
    sorted.sort_by_key(|e| std::cmp::Reverse(e.span.start));
    let mut out = text.to_string();
    for e in sorted {
        let r = e.span.range();
        if r.end <= out.len() && out.is_char_boundary(r.start) && out.is_char_boundary(r.end) {
            out.replace_range(r, &e.text);
        }
    }
    out
}
