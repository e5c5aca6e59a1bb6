//! `cal prompt [--compact] [--tier1]`: the §27 quick reference for an LLM that writes
//! CAL, generated from the grammar tables (`cal_grammar::prompt`). The text goes to
//! standard output; its size in o200k_base tokens (`cal_render::tokens`, the counter
//! ASSEMBLE budgets use) goes to standard error, so `cal prompt > system.md` keeps only
//! the reference.

use std::process::ExitCode;

use cal_grammar::prompt::{PromptOptions, quick_reference};

/// Arguments of `cal prompt`.
#[derive(clap::Args, Debug)]
pub struct PromptArgs {
    /// The short variant: lists instead of one line per field, fewer examples.
    #[arg(long)]
    pub compact: bool,
    /// Include the Tier 1 evolve operations (ADD, SUPERSEDE, REVERT) and their rules.
    #[arg(long)]
    pub tier1: bool,
}

/// Runs `cal prompt`.
pub fn run(args: &PromptArgs) -> ExitCode {
    let text = quick_reference(PromptOptions { compact: args.compact, tier1: args.tier1 });
    out!("{text}");
    errln!("{} o200k_base tokens", cal_render::tokens::count(&text));
    super::OK
}
