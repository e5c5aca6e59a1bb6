//! Tab completion: the language server's completion engine
//! (`cal_lsp::engine::completion`) at the cursor, and the REPL's `:` commands.

use cal_lsp::engine::completion::{self, ItemKind};
use reedline::{Completer, CompletionResult, Span, Suggestion};

/// The completer the line editor asks on Tab.
pub struct CalCompleter;

impl Completer for CalCompleter {
    fn complete(&mut self, line: &str, pos: usize) -> CompletionResult {
        CompletionResult::fresh(suggestions(line, pos))
    }
}

/// The proposals for `entry` with the cursor at byte `pos`: command names while the first
/// word starts with `:`, else the engine's items (for the query after `:explain` too) whose
/// label starts with the word being typed, ignoring case.
pub fn suggestions(entry: &str, pos: usize) -> Vec<Suggestion> {
    let Some(before) = entry.get(..pos) else { return Vec::new() };
    let Some(start) = super::cal_start(entry).filter(|s| *s <= pos) else {
        return commands(before);
    };
    let text = &entry[start..];
    let found = completion::complete(text, pos - start);
    let replace = found.replace.start as usize..found.replace.end as usize;
    let typed = text.get(replace.start..pos - start).unwrap_or("").to_lowercase();
    found
        .items
        .into_iter()
        .filter(|item| item.label.to_lowercase().starts_with(&typed))
        .map(|item| Suggestion {
            append_whitespace: item.insert.is_none() && item.kind != ItemKind::Value,
            value: item.insert.unwrap_or_else(|| item.label.clone()),
            description: (!item.detail.is_empty()).then_some(item.detail),
            span: Span::new(start + replace.start, start + replace.end.max(replace.start)),
            ..Suggestion::default()
        })
        .collect()
}

/// The command names that complete the word before the cursor (the whole entry so far).
fn commands(before: &str) -> Vec<Suggestion> {
    let word = before.trim_start();
    if word.contains(char::is_whitespace) {
        return Vec::new();
    }
    let lead = before.len() - word.len();
    super::COMMANDS
        .iter()
        .filter(|c| c.starts_with(word))
        .map(|c| Suggestion { value: (*c).to_string(), span: Span::new(lead, before.len()), ..Suggestion::default() })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::suggestions;

    fn values(entry: &str) -> Vec<String> {
        suggestions(entry, entry.len()).into_iter().map(|s| s.value).collect()
    }

    #[test]
    fn a_statement_keyword_completes_from_its_prefix() {
        assert!(values("REC").contains(&"RECALL".to_string()), "{:?}", values("REC"));
        assert!(values("REC").iter().all(|v| v.to_lowercase().starts_with("rec")));
    }

    #[test]
    fn grain_types_follow_recall() {
        let v = values("RECALL bel");
        assert!(v.contains(&"beliefs".to_string()), "{v:?}");
    }

    #[test]
    fn the_query_after_explain_completes_and_commands_complete_by_name() {
        assert!(values(":explain RECALL bel").contains(&"beliefs".to_string()));
        assert_eq!(values(":ne"), [":next"]);
        let s = suggestions(":explain REC", 12);
        assert!(s.iter().any(|s| s.value == "RECALL" && s.span.start == 9 && s.span.end == 12));
        assert!(values(":format x").is_empty());
    }

    #[test]
    fn a_position_inside_a_character_completes_nothing() {
        assert!(suggestions("RECALL \"é\"", 9).is_empty());
    }
}
