//! `cal` — the command line of the CAL reference toolchain.
//!
//! Every subcommand is a thin layer over a library crate: parse arguments,
//! read input as bytes, call the library, render the result. Exit status:
//! 0 success, 1 the input has errors, 2 a usage or I/O problem.

#[macro_use]
mod stdio;
mod commands;
mod document;
mod files;
mod input;
mod progress;
mod render;
mod report;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// The reference toolchain for CAL, the Context Assembly Language.
#[derive(Parser, Debug)]
#[command(name = "cal", version, about, long_about = None)]
struct Cli {
    /// When to colour code frames: auto (a terminal, unless NO_COLOR is set; FORCE_COLOR
    /// forces it), always or never.
    #[arg(long, value_enum, global = true, default_value_t = render::ColorWhen::Auto, value_name = "WHEN")]
    color: render::ColorWhen,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run queries against a memory (the built-in demo memory by default) and print the responses.
    Run(commands::run::RunArgs),
    /// Print the plan of each query without running it (EXPLAIN).
    Explain(commands::explain::ExplainArgs),
    /// Print the §27 CAL quick reference for an LLM, generated from the grammar (token count on stderr).
    Prompt(commands::prompt::PromptArgs),
    /// An interactive prompt: queries end with `;` or a blank line.
    Repl(commands::repl::ReplArgs),
    /// Report every diagnostic of a .cal document: lexical, syntax and semantic.
    Check(commands::check::CheckArgs),
    /// Print a .cal document in canonical form.
    Fmt(commands::fmt::FmtArgs),
    /// Convert text/cal to application/json+cal.
    Json(commands::convert::ConvertArgs),
    /// Convert application/json+cal to text/cal.
    Text(commands::convert::ConvertArgs),
    /// Memory grains: encode, decode, pack, verify, sign and disclose (OMS 1.3).
    #[command(subcommand)]
    Mg(commands::mg::MgCommand),
    /// The durable store: an SQLite file of grains that survives crashes (init, import,
    /// export, add, verify, stats).
    #[command(subcommand)]
    Store(commands::store::StoreCommand),
    /// The server key that signs capability tokens.
    #[command(subcommand)]
    Key(commands::token::KeyCommand),
    /// Capability tokens (§18.1): issue one, or inspect and verify one.
    #[command(subcommand)]
    Token(commands::token::TokenCommand),
    /// Prepare an ADD, SUPERSEDE or REVERT (§18.2): print the exact write it would make, and a
    /// single-use token for `cal execute`. Nothing is written.
    Prepare(commands::evolve::PrepareArgs),
    /// Execute what `cal prepare` printed: exactly the previewed write, or a refusal.
    Execute(commands::evolve::ExecuteArgs),
    /// The reference server: §26 REST with prepare/execute, SSE/NDJSON/WebSocket streaming,
    /// and MCP at /mcp, over one store database.
    Serve(commands::serve::ServeArgs),
    /// MCP on standard input/output, for agents that start a tool server as a subprocess.
    Mcp(commands::serve::McpArgs),
    /// The language server, on standard input/output.
    Lsp(commands::lsp::LspArgs),
    /// Certify a CAL implementation against the conformance corpus; serve this toolchain as an adapter.
    #[command(subcommand)]
    Conformance(commands::conformance::ConformanceCommand),
    /// Print a shell completion script: `cal completions bash > /etc/bash_completion.d/cal`.
    Completions(commands::manual::CompletionsArgs),
    /// Print the manual page cal(1) in roff (`cal man | man -l -`), or write one page per
    /// command into a directory.
    Man(commands::manual::ManArgs),
}

/// The command line's definition, for completions and manual pages.
pub fn cli_command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS };
        }
    };
    render::set_color(cli.color);
    match cli.command {
        Command::Completions(args) => commands::manual::completions(&args),
        Command::Man(args) => commands::manual::man(&args),
        Command::Run(args) => commands::run::run(&args),
        Command::Key(cmd) => commands::token::key(&cmd),
        Command::Token(cmd) => commands::token::token(&cmd),
        Command::Explain(args) => commands::explain::run(&args),
        Command::Prompt(args) => commands::prompt::run(&args),
        Command::Repl(args) => commands::repl::run(&args),
        Command::Check(args) => commands::check::run(&args),
        Command::Fmt(args) => commands::fmt::run(&args),
        Command::Json(args) => commands::convert::to_json(&args),
        Command::Text(args) => commands::convert::to_text(&args),
        Command::Mg(cmd) => commands::mg::run(cmd),
        Command::Store(cmd) => commands::store::run(cmd),
        Command::Prepare(args) => commands::evolve::prepare(&args),
        Command::Execute(args) => commands::evolve::execute(&args),
        Command::Serve(args) => commands::serve::serve(&args),
        Command::Mcp(args) => commands::serve::mcp(&args),
        Command::Lsp(args) => commands::lsp::run(&args),
        Command::Conformance(cmd) => commands::conformance::run(cmd),
    }
}
