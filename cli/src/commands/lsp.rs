//! `cal lsp`: the language server on standard input/output, for editors.

use std::process::ExitCode;

/// Arguments of `cal lsp` (editors start it without any; `--stdio` is accepted
/// because several clients pass it by default).
#[derive(clap::Args, Debug)]
pub struct LspArgs {
    /// Serve on standard input/output (the only transport, and the default).
    #[arg(long)]
    pub stdio: bool,
    /// Milliseconds to wait after the last change before analyzing a document whose analysis
    /// is expensive (default 120). The client's `initializationOptions.debounceMs` overrides it.
    #[arg(long, value_name = "MS")]
    pub debounce_ms: Option<u64>,
    /// Analyze at once, with no wait, when the document's analysis is predicted to take fewer
    /// milliseconds than this (default 15; 0 always waits). The client's
    /// `initializationOptions.immediateBelowMs` overrides it.
    #[arg(long, value_name = "MS")]
    pub immediate_below_ms: Option<u64>,
}

/// Serves until the client sends `exit`: status 0 after `shutdown`, 1 without it (LSP
/// lifecycle).
pub fn run(args: &LspArgs) -> ExitCode {
    let flags = serde_json::json!({"debounceMs": args.debounce_ms, "immediateBelowMs": args.immediate_below_ms});
    let config = cal_lsp::server::Config::default().with_options(Some(&flags));
    match cal_lsp::serve_stdio_with(config) {
        Ok(cal_lsp::Ending::Clean) => ExitCode::SUCCESS,
        Ok(cal_lsp::Ending::Abrupt) => ExitCode::FAILURE,
        Err(e) => {
            errln!("cal lsp: {e}");
            ExitCode::FAILURE
        }
    }
}
