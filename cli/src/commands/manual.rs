//! `cal completions SHELL` (`clap_complete`) and `cal man` (`clap_mangen`): written from the
//! command line's own definition, so they can never disagree with it.

use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `cal completions`.
#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, powershell or elvish.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Arguments of `cal man`.
#[derive(clap::Args, Debug)]
pub struct ManArgs {
    /// Write cal.1 and a page per command (cal-run.1, cal-store-import.1, …) into DIR
    /// (each replaced atomically) instead of printing cal(1).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Prints the completion script.
pub fn completions(args: &CompletionsArgs) -> ExitCode {
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut crate::cli_command(), "cal", &mut buf);
    out!("{}", String::from_utf8_lossy(&buf));
    super::OK
}

/// Prints cal(1), or writes every page into `--dir`.
pub fn man(args: &ManArgs) -> ExitCode {
    let mut cmd = crate::cli_command();
    cmd.build();
    let Some(dir) = &args.dir else {
        return match page(&cmd) {
            Ok(text) => {
                out!("{}", String::from_utf8_lossy(&text));
                super::OK
            }
            Err(e) => super::usage_error(&format!("cannot render the manual page: {e}")),
        };
    };
    if let Err(e) = std::fs::create_dir_all(dir) {
        return super::usage_error(&format!("cannot create {}: {e}", dir.display()));
    }
    let mut pages = Vec::new();
    collect(&cmd, "cal", &mut pages);
    for (name, cmd) in &pages {
        let path = dir.join(format!("{name}.1"));
        let written = page(cmd).map_err(|e| e.to_string()).and_then(|text| super::write_file(&path, &text));
        if let Err(e) = written {
            return super::usage_error(&e);
        }
    }
    errln!("{} manual pages written to {}", pages.len(), dir.display());
    super::OK
}

/// Every command and subcommand with its page name (`cal-store-import`); `help` is left out.
fn collect(cmd: &clap::Command, name: &str, out: &mut Vec<(String, clap::Command)>) {
    out.push((name.to_string(), cmd.clone()));
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        collect(sub, &format!("{name}-{}", sub.get_name()), out);
    }
}

fn page(cmd: &clap::Command) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd.clone()).source(format!("cal {}", env!("CARGO_PKG_VERSION"))).render(&mut buf)?;
    Ok(buf)
}
