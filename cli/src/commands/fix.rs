//! `cal check --fix`: the quick fixes the language server offers as preferred (each
//! diagnostic's machine-applicable `replacement`, `cal_lsp::engine::actions`), applied
//! until none is left. A fix can reveal the next problem (a misspelt type, then a field
//! of it), so the text is checked again after each round, at most [`MAX_ROUNDS`] times.

use cal_checker::Params;
use cal_grammar::Span;
use cal_lsp::engine::{Edit, actions::actions, apply_edits};

/// The most rounds of fixing; a fix that undid another would otherwise never end.
pub const MAX_ROUNDS: usize = 10;

/// The text with every preferred fix applied, and how many were applied. Where two fixes
/// overlap, the first is applied this round and the other is looked at again in the next.
pub fn fix_all(text: &str, params: Option<&Params>) -> (String, usize) {
    let mut text = text.to_string();
    let mut applied = 0;
    for _ in 0..MAX_ROUNDS {
        let analysis = cal_checker::analyze(&text, params);
        let offered = actions(&text, analysis.document.as_ref(), &analysis.diagnostics, Span::new(0, text.len()));
        let mut edits: Vec<Edit> = offered.into_iter().filter(|a| a.preferred).flat_map(|a| a.edits).collect();
        edits.sort_by_key(|e| (e.span.start, e.span.end));
        let mut chosen: Vec<Edit> = Vec::new();
        for e in edits {
            if chosen.last().is_none_or(|last| last.span.end <= e.span.start && last.span.start < e.span.start) {
                chosen.push(e);
            }
        }
        if chosen.is_empty() {
            break;
        }
        let next = apply_edits(&text, &chosen);
        if next == text {
            break;
        }
        applied += chosen.len();
        text = next;
    }
    (text, applied)
}
