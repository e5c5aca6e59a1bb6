//! The editor set-ups the README documents are the ones tested, and they work:
//!
//! * the Neovim config (`editors/nvim/cal.lua`, also the README's block) runs in headless
//!   Neovim — Debian's 0.7 on CI — opens a file with an error and gets its diagnostic from
//!   `cal lsp`, with the code and range `cal check` gives;
//! * the Helix snippet (`editors/helix/languages.toml`, also the README's block) is TOML that
//!   names `cal lsp`, a command `cal` has.
//!
//! The VS Code package is built and its handshake tested by `.ci/run` (`editors/vscode`,
//! `npm test`).

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The fenced block of `lang` under the README heading that starts with `heading`.
fn readme_block(heading: &str, lang: &str) -> String {
    let readme = std::fs::read_to_string(repo().join("editors/README.md")).expect("editors/README.md");
    let section = readme.split("\n## ").find(|s| s.starts_with(heading)).unwrap_or_else(|| panic!("no {heading}"));
    let fence = format!("```{lang}\n");
    let start = section.find(&fence).unwrap_or_else(|| panic!("no {lang} block under {heading}")) + fence.len();
    let end = section[start..].find("```").expect("the block is closed") + start;
    section[start..end].to_string()
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(repo().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn the_readme_shows_the_tested_files() {
    assert_eq!(readme_block("Neovim", "lua"), read("editors/nvim/cal.lua"), "README's Neovim block");
    assert_eq!(readme_block("Helix", "toml"), read("editors/helix/languages.toml"), "README's Helix block");
}

#[test]
fn the_helix_snippet_is_toml_naming_cal_lsp() {
    // Python's tomllib (3.11, on every machine we build on) is an independent TOML parser.
    let script = "import sys, tomllib, json; d = tomllib.load(open(sys.argv[1], 'rb')); \
                  print(json.dumps([d['language-server']['cal'], d['language'][0]]))";
    let out = Command::new("python3")
        .args(["-c", script])
        .arg(repo().join("editors/helix/languages.toml"))
        .output()
        .expect("python3 runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let (server, language) = (&v[0], &v[1]);
    assert_eq!(server["command"], "cal");
    assert_eq!(server["args"], serde_json::json!(["lsp"]));
    assert_eq!(language["file-types"], serde_json::json!(["cal"]));
    assert_eq!(language["language-servers"], serde_json::json!(["cal"]));
    // The command it names exists.
    let help = Command::new(env!("CARGO_BIN_EXE_cal")).args(["lsp", "--help"]).output().expect("cal runs");
    assert!(help.status.success(), "{}", String::from_utf8_lossy(&help.stderr));
}

#[test]
fn neovim_shows_the_diagnostic_of_a_broken_file() {
    if Command::new("nvim").arg("--version").output().is_err() {
        assert!(std::env::var_os("CI").is_none(), "CI must have nvim (.ci/run installs Debian's)");
        eprintln!("skipped: nvim is not installed");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("broken.cal");
    std::fs::write(&file, "RECALL belifs WHERE subject = \"alice\"\n").unwrap();
    let result = dir.path().join("diagnostics.txt");
    let bin = Path::new(env!("CARGO_BIN_EXE_cal")).parent().unwrap().to_path_buf();
    let path =
        std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())))
            .unwrap();
    let out = Command::new("nvim")
        .args(["--headless", "-n", "-i", "NONE", "-u"])
        .arg(repo().join("editors/nvim/cal.lua"))
        .arg("-c")
        .arg(format!("luafile {}", repo().join("editors/nvim/test_diagnostics.lua").display()))
        .arg(&file)
        .current_dir(dir.path())
        .env("PATH", path)
        .env("CAL_NVIM_OUT", &result)
        .env("HOME", dir.path())
        .env("XDG_STATE_HOME", dir.path())
        .output()
        .expect("nvim runs");
    let text = std::fs::read_to_string(&result).unwrap_or_default();
    assert!(out.status.success(), "nvim: {}\n{text}", String::from_utf8_lossy(&out.stderr));
    let first = text.lines().next().unwrap_or("");
    // `belifs` is columns 7 to 13 of line 0: CAL-E003, as `cal check` reports it.
    assert!(first.starts_with("CAL-E003 0:7-0:13 Unknown grain type \"belifs\"."), "{text}");
}
