//! `cal lsp`: the language server on standard input/output, for editors.

use std::process::ExitCode;

/// Arguments of `cal lsp` (editors start it without any; `--stdio` is accepted
/// because several clients pass it by default).
#[derive(clap::Args, Debug)]
pub struct LspArgs {
    /// Serve on standard input/output (the only transport, and the default).
    #[arg(long)]
    pub stdio: bool,
}

/// Serves until the client sends `exit`: status 0 after `shutdown`, 1 without it (LSP
/// lifecycle).
pub fn run(_args: &LspArgs) -> ExitCode {
    match cal_lsp::serve_stdio() {
        Ok(cal_lsp::Ending::Clean) => ExitCode::SUCCESS,
        Ok(cal_lsp::Ending::Abrupt) => ExitCode::FAILURE,
        Err(e) => {
            errln!("cal lsp: {e}");
            ExitCode::FAILURE
        }
    }
}
