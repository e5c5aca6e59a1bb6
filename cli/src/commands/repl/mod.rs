//! `cal repl`: an interactive prompt over a memory (the demo memory by default).
//! A query ends with `;` or a blank line and may span several lines. Commands start
//! with `:` — `:help` lists them.
//!
//! On a terminal the prompt is a line editor ([`editor`], on `reedline`): editing keys,
//! a history kept in a file across sessions, Tab completion and highlighting from the
//! language server's engine, Ctrl-C to drop the query being typed or cancel the one running
//! ([`interrupt`]). Otherwise (a pipe, a
//! file) lines are read as they come, so `echo 'RECALL beliefs;' | cal repl` runs a script.

mod complete;
mod editor;
mod highlight;
mod interrupt;

use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;

use super::run::{OutputFormat, Session, SessionArgs, print};

/// Arguments of `cal repl`.
#[derive(clap::Args, Debug)]
pub struct ReplArgs {
    /// Output format of responses (`:format` changes it).
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
    /// The history file (one entry per line) kept across sessions on a terminal. Defaults to
    /// `$XDG_DATA_HOME/cal/history`, else `~/.local/share/cal/history`.
    #[arg(long, value_name = "FILE", conflicts_with = "no_history")]
    pub history: Option<PathBuf>,
    /// Keep no history file: Up recalls only the queries of this session.
    #[arg(long)]
    pub no_history: bool,
    #[command(flatten)]
    /// Memory, clock, user and parameters.
    pub session: SessionArgs,
}

/// What `:help` prints; every command it names is handled by [`Repl::command`].
const HELP: &str = "\
Type a CAL query and end it with `;` or a blank line, e.g.
  RECALL beliefs ABOUT \"alice\" RECENT 5;
Commands:
  :help            this text
  :history         the queries of this session, numbered
  :N               run query N of the history again
  :next            the next page of the last query, when its answer has one
  :explain QUERY   the plan of QUERY, without running it
  :format json|text
  :quit            leave (end of input does too)";

/// What the line editor adds to [`HELP`] on a terminal.
const KEYS: &str = "\
Keys: Tab completes, Up/Down walk the history (kept across sessions), Alt-Enter starts a
new line, Ctrl-C drops the query being typed or cancels the one running, Ctrl-D on an
empty line leaves.";

/// The state of a session: the memory, the output format and what was run.
struct Repl {
    session: Session,
    format: OutputFormat,
    /// The queries of this session, for `:history` and `:N`.
    history: Vec<String>,
    /// The last query whose answer has a next page, with that page's cursor (`:next`).
    next: Option<(String, String)>,
    /// Whether `:help` describes the line editor's keys.
    interactive: bool,
    /// Ctrl-C during a query cancels it (on a terminal).
    interrupt: Option<interrupt::Interrupt>,
}

impl Repl {
    /// Runs one entry of the prompt: a command, or queries. `false` when the entry ends
    /// the session (`:quit`).
    fn entry(&mut self, text: &str) -> bool {
        let trimmed = text.trim();
        if trimmed.starts_with(':') {
            return self.command(trimmed);
        }
        self.execute(trimmed);
        true
    }

    /// Checks and runs a query text (one or several queries) and records it in the history.
    fn execute(&mut self, text: &str) {
        let text = text.trim().trim_end_matches(';').trim().to_string();
        if text.is_empty() {
            return;
        }
        self.history.push(text.clone());
        let name = format!("[{}]", self.history.len());
        self.run_query(&name, &text, None);
    }

    /// Runs `text` from `cursor` (a page other than the first) and remembers whether its
    /// answer goes on.
    fn run_query(&mut self, name: &str, text: &str, cursor: Option<String>) {
        let Some(doc) = self.session.check(name, text) else {
            self.next = None;
            return;
        };
        self.session.opts.cursor = cursor;
        let token = self.interrupt.as_ref().map(interrupt::Interrupt::start);
        self.session.opts.cancel = token.clone();
        let cancelled = || token.as_ref().is_some_and(cal_interp::stream::CancelToken::is_cancelled);
        let mut responses = Vec::new();
        for q in &doc.queries {
            // After Ctrl-C the rest of the entry is not run either.
            if cancelled() {
                break;
            }
            responses.push(self.session.interp.execute(q, &self.session.opts));
        }
        if let Some(i) = &self.interrupt {
            i.finish();
        }
        self.session.opts.cancel = None;
        self.session.opts.cursor = None;
        if cancelled() {
            outln!("-- cancelled (Ctrl-C); the session goes on");
            self.next = None;
            return;
        }
        print(name, text, &responses, self.format);
        let next = match responses.as_slice() {
            [one] => one.json.get("next_cursor").and_then(serde_json::Value::as_str),
            _ => None,
        };
        self.next = next.map(|c| (text.to_string(), c.to_string()));
        if self.next.is_some() && self.format == OutputFormat::Text {
            outln!("-- :next shows the next page");
        }
    }

    /// Runs a `:` command. `false` for `:quit`.
    fn command(&mut self, line: &str) -> bool {
        let (cmd, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        match cmd {
            ":quit" | ":q" | ":exit" => return false,
            ":help" | ":h" => {
                outln!("{HELP}");
                if self.interactive {
                    outln!("{KEYS}");
                }
            }
            ":history" => {
                for (i, q) in self.history.iter().enumerate() {
                    outln!("{:>3}  {}", i + 1, q.split_whitespace().collect::<Vec<_>>().join(" "));
                }
            }
            ":format" => match rest.trim() {
                "json" => self.format = OutputFormat::Json,
                "text" => self.format = OutputFormat::Text,
                other => outln!("unknown format {other:?}: json or text"),
            },
            ":explain" => {
                if let Some(doc) = self.session.check("<explain>", rest) {
                    for q in &doc.queries {
                        out!("{}", self.session.interp.plan(q, &self.session.opts).to_text());
                    }
                }
            }
            ":next" => match self.next.clone() {
                Some((text, cursor)) => self.run_query("[next]", &text, Some(cursor)),
                None => outln!("no next page: the last query's answer was complete"),
            },
            n if n[1..].parse::<usize>().is_ok() => {
                let i = n[1..].parse::<usize>().unwrap_or(0);
                match i.checked_sub(1).and_then(|i| self.history.get(i)).cloned() {
                    Some(q) => {
                        outln!("{q}");
                        self.execute(&q);
                    }
                    None => outln!("no query {i} in the history"),
                }
            }
            other => outln!("unknown command {other}; :help lists them"),
        }
        true
    }
}

/// The commands, for completion ([`complete`]); `:N` is not a word to complete.
const COMMANDS: &[&str] = &[":help", ":history", ":next", ":explain ", ":format ", ":quit"];

/// Where the CAL text of a prompt entry starts: 0 for a query, after the command word for
/// `:explain QUERY`; `None` for other commands. Completion and highlighting read from there.
fn cal_start(entry: &str) -> Option<usize> {
    let lead = entry.len() - entry.trim_start().len();
    let rest = &entry[lead..];
    if !rest.starts_with(':') {
        return Some(0);
    }
    let word = rest.find(char::is_whitespace).unwrap_or(rest.len());
    (&rest[..word] == ":explain" && word < rest.len()).then(|| lead + word + 1)
}

/// Runs `cal repl` until `:quit`, Ctrl-D or the end of input.
pub fn run(args: &ReplArgs) -> ExitCode {
    let session = match Session::open(&args.session) {
        Ok(s) => s,
        Err(e) => return e.exit(),
    };
    let terminal = std::io::stdin().is_terminal();
    let editing = terminal && std::io::stdout().is_terminal();
    if terminal {
        outln!(
            "cal repl on the {} memory ({} grains). :help for help{}.",
            session.label,
            cal_interp::ReadFacade::grain_count(session.interp.facade()),
            if editing { ", Tab completes, Ctrl-D leaves" } else { "" }
        );
    }
    let mut repl =
        Repl { session, format: args.format, history: Vec::new(), next: None, interactive: editing, interrupt: None };
    if editing {
        repl.interrupt = interrupt::Interrupt::install()
            .map_err(|e| errln!("warning: Ctrl-C cannot cancel queries ({e}); it ends the session"))
            .ok();
        let history = if args.no_history { None } else { args.history.clone().or_else(editor::default_history) };
        return editor::run(&mut repl, history);
    }
    read_lines(&mut repl, terminal)
}

/// The prompt without a line editor: lines as they come, a query ending with `;` or a
/// blank line, commands on a line of their own.
fn read_lines(repl: &mut Repl, prompt: bool) -> ExitCode {
    let mut buffer = String::new();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        if prompt {
            out!("{}", if buffer.is_empty() { "cal> " } else { "...> " });
            crate::stdio::flush_out();
        }
        let Some(Ok(line)) = lines.next() else { break };
        let trimmed = line.trim();
        if buffer.is_empty() && trimmed.starts_with(':') {
            if !repl.command(trimmed) {
                return super::OK;
            }
            continue;
        }
        if trimmed.is_empty() {
            if !buffer.trim().is_empty() {
                repl.execute(&std::mem::take(&mut buffer));
            }
            continue;
        }
        buffer.push_str(&line);
        buffer.push('\n');
        if trimmed.ends_with(';') {
            repl.execute(&std::mem::take(&mut buffer));
        }
    }
    if !buffer.trim().is_empty() {
        repl.execute(&buffer);
    }
    super::OK
}
