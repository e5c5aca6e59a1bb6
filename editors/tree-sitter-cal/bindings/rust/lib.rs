//! The tree-sitter grammar of CAL, for editors and viewers that highlight with tree-sitter
//! (Helix, Neovim, GitHub). `grammar.js` is the source; `src/parser.c` is generated from it
//! by `tree-sitter generate --abi 14` and committed.

use tree_sitter_language::LanguageFn;

extern "C" {
    fn tree_sitter_cal() -> *const ();
}

/// The CAL language, for `tree_sitter::Parser::set_language(&LANGUAGE.into())`.
pub const LANGUAGE: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_cal) };

/// The highlighting queries (`queries/highlights.scm`).
pub const HIGHLIGHTS_QUERY: &str = include_str!("../../queries/highlights.scm");
