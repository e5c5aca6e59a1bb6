//! The prompt on a terminal: `reedline` with the history file, a validator that keeps an
//! unfinished query open, Tab completion ([`super::complete`]) and highlighting
//! ([`super::highlight`]).

use std::borrow::Cow;
use std::path::PathBuf;
use std::process::ExitCode;

use reedline::{
    ColumnarMenu, EditCommand, Emacs, FileBackedHistory, KeyCode, KeyModifiers, MenuBuilder, Prompt, PromptEditMode,
    PromptHistorySearch, PromptHistorySearchStatus, Reedline, ReedlineEvent, ReedlineMenu, Signal, ValidationResult,
    Validator, default_emacs_keybindings,
};

use super::Repl;

/// How many entries the history keeps (the oldest are dropped from the file).
const HISTORY_CAPACITY: usize = 1000;

/// The history file when `--history` is not given: `$XDG_DATA_HOME/cal/history`, else
/// `$HOME/.local/share/cal/history` (`%APPDATA%\cal\history` on Windows); `None` when none
/// of these is set, and the history then lasts the session.
pub fn default_history() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    let data = var("XDG_DATA_HOME")
        .filter(|p| p.is_absolute())
        .or_else(|| var("HOME").map(|h| h.join(".local").join("share")))
        .or_else(|| var("APPDATA"))?;
    Some(data.join("cal").join("history"))
}

/// Runs the session on the line editor until `:quit` or Ctrl-D; Ctrl-C drops the entry
/// being typed and the prompt comes back.
pub fn run(repl: &mut Repl, history_file: Option<PathBuf>) -> ExitCode {
    let history = match history_file {
        Some(path) => FileBackedHistory::with_file(HISTORY_CAPACITY, path.clone()).unwrap_or_else(|e| {
            errln!("warning: cannot use the history file {}: {e}; history lasts this session", path.display());
            in_memory_history()
        }),
        None => in_memory_history(),
    };
    let color = crate::render::color();
    let mut keys = default_emacs_keybindings();
    keys.add_binding(
        KeyModifiers::NONE,
        KeyCode::Tab,
        ReedlineEvent::UntilFound(vec![ReedlineEvent::Menu(MENU.to_string()), ReedlineEvent::MenuNext]),
    );
    keys.add_binding(KeyModifiers::ALT, KeyCode::Enter, ReedlineEvent::Edit(vec![EditCommand::InsertNewline]));
    let mut editor = Reedline::create()
        .with_history(Box::new(history))
        .with_validator(Box::new(QueryEnd))
        .with_completer(Box::new(super::complete::CalCompleter))
        .with_menu(ReedlineMenu::EngineCompleter(Box::new(ColumnarMenu::default().with_name(MENU))))
        .with_edit_mode(Box::new(Emacs::new(keys)))
        .with_ansi_colors(color)
        .disable_auto_pairs();
    if color {
        editor = editor.with_highlighter(Box::new(super::highlight::CalHighlighter));
    }
    loop {
        match editor.read_line(&CalPrompt) {
            Ok(Signal::Success(entry)) => {
                if let Some(e) = editor.take_history_save_error() {
                    errln!("warning: the history could not be saved: {e}");
                }
                // Written now, not only at the end: a session that is killed keeps its queries.
                let _ = editor.sync_history();
                if !repl.entry(&entry) {
                    break;
                }
            }
            Ok(Signal::CtrlC) => {}
            Ok(Signal::CtrlD) => {
                outln!();
                break;
            }
            Ok(_) => {}
            Err(e) => {
                errln!("error: the terminal failed: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let _ = editor.sync_history();
    super::super::OK
}

/// The name of the completion menu, bound to Tab.
const MENU: &str = "completion_menu";

fn in_memory_history() -> FileBackedHistory {
    FileBackedHistory::new(HISTORY_CAPACITY).unwrap_or_default()
}

/// Enter ends an entry when it is complete (a query ending with `;` or a blank line, a
/// command, an empty line); otherwise it starts a new line of the same query.
struct QueryEnd;

impl Validator for QueryEnd {
    fn validate(&self, line: &str) -> ValidationResult {
        if is_complete(line) { ValidationResult::Complete } else { ValidationResult::Incomplete }
    }
}

/// The rule of [`QueryEnd`], the same as without a line editor.
fn is_complete(entry: &str) -> bool {
    let trimmed = entry.trim();
    let blank_last_line = entry.contains('\n') && entry.rsplit('\n').next().is_some_and(|l| l.trim().is_empty());
    trimmed.is_empty() || trimmed.starts_with(':') || trimmed.ends_with(';') || blank_last_line
}

/// `cal> `, and `...> ` on the lines of a query that goes on.
struct CalPrompt;

impl Prompt for CalPrompt {
    fn render_prompt_left(&self) -> Cow<'_, str> {
        Cow::Borrowed("cal")
    }

    fn render_prompt_right(&self) -> Cow<'_, str> {
        Cow::Borrowed("")
    }

    fn render_prompt_indicator(&self, _mode: PromptEditMode) -> Cow<'_, str> {
        Cow::Borrowed("> ")
    }

    fn render_prompt_multiline_indicator(&self) -> Cow<'_, str> {
        Cow::Borrowed("...> ")
    }

    fn render_prompt_history_search_indicator(&self, search: PromptHistorySearch) -> Cow<'_, str> {
        let failing = if matches!(search.status, PromptHistorySearchStatus::Failing) { "failing " } else { "" };
        Cow::Owned(format!("({failing}search: {}) ", search.term))
    }
}

#[cfg(test)]
mod tests {
    use super::is_complete;

    #[test]
    fn a_query_ends_with_a_semicolon_or_a_blank_line() {
        assert!(is_complete(""));
        assert!(is_complete("RECALL beliefs;"));
        assert!(is_complete("RECALL beliefs\n  RECENT 5;  "));
        assert!(is_complete("RECALL beliefs\n"));
        assert!(is_complete("RECALL beliefs\n   "));
        assert!(is_complete(":help"));
        assert!(!is_complete("RECALL beliefs"));
        assert!(!is_complete("RECALL beliefs\n  RECENT 5"));
    }
}
