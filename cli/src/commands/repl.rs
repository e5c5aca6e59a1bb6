//! `cal repl`: an interactive prompt over a memory (the demo memory by default).
//! A query ends with `;` or a blank line and may span several lines; history
//! is kept for the session. Commands start with `:` — `:help` lists them.

use std::io::{BufRead, IsTerminal};
use std::process::ExitCode;

use super::run::{OutputFormat, Session, SessionArgs, print};

/// Arguments of `cal repl`.
#[derive(clap::Args, Debug)]
pub struct ReplArgs {
    /// Output format of responses (`:format` changes it).
    #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
    pub format: OutputFormat,
    #[command(flatten)]
    /// Memory, clock, user and parameters.
    pub session: SessionArgs,
}

const HELP: &str = "\
Type a CAL query and end it with `;` or a blank line, e.g.
  RECALL beliefs ABOUT \"alice\" RECENT 5;
Commands:
  :help            this text
  :history         the queries of this session, numbered
  :N               run query N of the history again
  :explain QUERY   the plan of QUERY, without running it
  :format json|text
  :quit            leave (end of input does too)";

struct Repl {
    session: Session,
    format: OutputFormat,
    history: Vec<String>,
}

impl Repl {
    fn execute(&mut self, text: &str) {
        let text = text.trim().trim_end_matches(';').trim().to_string();
        if text.is_empty() {
            return;
        }
        self.history.push(text.clone());
        let name = format!("[{}]", self.history.len());
        if let Some(doc) = self.session.check(&name, &text) {
            let responses: Vec<_> =
                doc.queries.iter().map(|q| self.session.interp.execute(q, &self.session.opts)).collect();
            print(&name, &text, &responses, self.format);
        }
    }

    fn command(&mut self, line: &str) -> bool {
        let (cmd, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        match cmd {
            ":quit" | ":q" | ":exit" => return false,
            ":help" | ":h" => outln!("{HELP}"),
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

/// Runs `cal repl` until `:quit` or the end of input.
pub fn run(args: &ReplArgs) -> ExitCode {
    let session = match Session::open(&args.session) {
        Ok(s) => s,
        Err(e) => return e.report(),
    };
    let interactive = std::io::stdin().is_terminal();
    if interactive {
        outln!(
            "cal repl on the {} memory ({} grains). :help for help.",
            session.label,
            cal_interp::ReadFacade::grain_count(session.interp.facade())
        );
    }
    let mut repl = Repl { session, format: args.format, history: Vec::new() };
    let mut buffer = String::new();
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        if interactive {
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
