//! The §27 quick reference as the MCP prompt: the same text `cal prompt` prints, generated
//! from the grammar tables (`cal_grammar::prompt`).

/// The quick reference; with the evolve section when the caller may write.
pub fn quick_reference(tier1: bool) -> String {
    cal_grammar::prompt::quick_reference(cal_grammar::prompt::PromptOptions { compact: false, tier1 })
}
