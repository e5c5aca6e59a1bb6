//! Terminal conventions: `--color`, NO_COLOR and FORCE_COLOR; shell completions; the manual
//! page; progress bars on a terminal only; a release binary without debug info.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn cal_env(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cal"));
    cmd.args(args).env_remove("FORCE_COLOR").env_remove("NO_COLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("cal runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// One run of `cal … check -` on a bad query: its arguments, environment and whether the
/// code frame on standard error must be coloured.
struct Colour {
    args: &'static [&'static str],
    env: &'static [(&'static str, &'static str)],
    coloured: bool,
}

#[test]
fn colour_follows_the_flag_then_no_color_then_force_color() {
    // Standard error is a pipe here, so `auto` alone means no colour.
    let cases = [
        Colour { args: &["check"], env: &[], coloured: false },
        Colour { args: &["check"], env: &[("FORCE_COLOR", "1")], coloured: true },
        Colour { args: &["check"], env: &[("FORCE_COLOR", "0")], coloured: false },
        Colour { args: &["check"], env: &[("NO_COLOR", "1"), ("FORCE_COLOR", "1")], coloured: false },
        Colour { args: &["--color", "always", "check"], env: &[("NO_COLOR", "1")], coloured: true },
        Colour { args: &["check", "--color", "never"], env: &[("FORCE_COLOR", "1")], coloured: false },
        Colour { args: &["--color", "always", "run", "--format", "text", "-f"], env: &[], coloured: true },
    ];
    for case in cases {
        let args: Vec<&str> = case.args.iter().copied().chain(["-"]).collect();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_cal"));
        cmd.args(&args).env_remove("FORCE_COLOR").env_remove("NO_COLOR");
        for (k, v) in case.env {
            cmd.env(k, v);
        }
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = cmd.spawn().unwrap();
        child.stdin.take().unwrap().write_all(b"RECALL belifs").unwrap();
        let out = child.wait_with_output().unwrap();
        let err = text(&out.stderr);
        assert!(err.contains("CAL-E003"), "{args:?}: {err}");
        assert_eq!(err.contains('\u{1b}'), case.coloured, "{args:?} {:?}:\n{err}", case.env);
        assert!(!text(&out.stdout).contains('\u{1b}'), "standard output is never coloured");
    }
}

#[test]
fn completions_for_every_shell() {
    for (shell, marker) in [
        ("bash", "_cal()"),
        ("zsh", "#compdef cal"),
        ("fish", "complete -c cal"),
        ("powershell", "Register-ArgumentCompleter"),
        ("elvish", "edit:completion:arg-completer[cal]"),
    ] {
        let out = cal_env(&["completions", shell], &[]);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let script = text(&out.stdout);
        assert!(script.contains(marker), "{shell}: no {marker:?}");
        for word in ["completions", "conformance", "output-format", "write"] {
            assert!(script.contains(word), "{shell}: {word} not completed");
        }
    }
    // The bash script is valid bash.
    if let Ok(out) =
        Command::new("bash").arg("-n").arg("-c").arg(text(&cal_env(&["completions", "bash"], &[]).stdout)).output()
    {
        assert!(out.status.success(), "bash -n: {}", text(&out.stderr));
    }
    assert_eq!(cal_env(&["completions", "tcsh"], &[]).status.code(), Some(2));
}

#[test]
fn the_manual_page() {
    let out = cal_env(&["man"], &[]);
    assert_eq!(out.status.code(), Some(0));
    let page = text(&out.stdout);
    assert!(page.contains(".TH cal 1") && page.contains(".SH SYNOPSIS"), "{page}");
    assert!(page.contains("completions") && page.contains("\\-\\-color"), "{page}");
    let dir = tempfile::tempdir().unwrap();
    let out = cal_env(&["man", "--dir", dir.path().to_str().unwrap()], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for page in ["cal.1", "cal-run.1", "cal-store-import.1", "cal-check.1"] {
        let roff = std::fs::read_to_string(dir.path().join(page)).unwrap_or_else(|_| panic!("{page} written"));
        assert!(roff.contains(".TH"), "{page}");
    }
}

/// Packs 3,000 grains; returns standard error, through a terminal (`script`) or a pipe.
fn pack_stderr(tty: bool) -> String {
    let dir = tempfile::tempdir().unwrap();
    let jsonl: String = (0..3000)
        .map(|i| {
            format!(
                "{{\"type\":\"belief\",\"subject\":\"u{i}\",\"relation\":\"likes\",\"object\":\"x\",\"confidence\":0.9,\
                 \"source_type\":\"user_explicit\",\"created_at\":1767600000000,\"namespace\":\"t\"}}\n"
            )
        })
        .collect();
    let input = dir.path().join("g.jsonl");
    std::fs::write(&input, jsonl).unwrap();
    let (bin, input, out) = (env!("CARGO_BIN_EXE_cal"), input.display(), dir.path().join("g.mg"));
    let command = format!("{bin} mg pack --jsonl {input} {} >/dev/null", out.display());
    let run = if tty {
        // `script` gives the command a terminal; what it wrote comes back on our stdout.
        Command::new("script").args(["-qec", &command, "/dev/null"]).output().expect("script runs")
    } else {
        Command::new("sh").args(["-c", &command]).output().expect("sh runs")
    };
    assert!(run.status.success(), "{}", text(&run.stderr));
    text(&run.stdout) + &text(&run.stderr)
}

#[test]
fn a_progress_bar_on_a_terminal_only() {
    assert!(pack_stderr(true).contains("grains encoded"), "a bar on a terminal");
    assert_eq!(pack_stderr(false), "", "nothing on a pipe");
}

#[test]
fn the_release_profile_has_no_debug_info() {
    let manifest = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.toml")).unwrap();
    let release = manifest.split("[profile.release]").nth(1).expect("a release profile");
    let section = release.split("\n[").next().unwrap();
    assert!(section.contains("debug = false"), "[profile.release]{section}");
}
