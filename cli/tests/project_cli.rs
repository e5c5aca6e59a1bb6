//! `cal fmt` and `cal check` on projects, as ruff works: files, directories and globs;
//! `fmt --write` (atomic), `--check` and `--diff`; `check --fix` applying the language
//! server's preferred quick fixes; reports as JSON (with fixes and end positions), GitHub
//! annotations and SARIF.

use std::path::Path;
use std::process::{Command, Output};

/// `cal args`, run in `dir` so that the paths it prints are the relative ones given.
fn cal_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cal")).args(args).current_dir(dir).output().expect("cal runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A project: two unformatted files (one nested), one with fixable errors, one in a hidden
/// directory and one under `target/` that a directory walk skips.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    for sub in ["q/deep", ".git", "target"] {
        std::fs::create_dir_all(p.join(sub)).unwrap();
    }
    std::fs::write(p.join("q/a.cal"), "recall beliefs about \"alice\"\n").unwrap();
    std::fs::write(p.join("q/deep/b.cal"), "-- goals\nrecall goals  where subject = \"bob\" | limit 3;\n").unwrap();
    std::fs::write(p.join("q/deep/notes.txt"), "not CAL").unwrap();
    std::fs::write(p.join(".git/x.cal"), "not CAL at all").unwrap();
    std::fs::write(p.join("target/y.cal"), "not CAL either").unwrap();
    std::fs::write(p.join("typos.cal"), "RECALL belifs WHERE subjct = \"alice\"\n").unwrap();
    dir
}

#[test]
fn fmt_write_formats_a_directory_in_place_and_check_then_passes() {
    let dir = project();
    let p = dir.path();
    let out = cal_in(p, &["fmt", "--check", "q"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("q/a.cal: not in canonical form") && err.contains("q/deep/b.cal: not in canonical form"),
        "{err}"
    );
    let out = cal_in(p, &["fmt", "--write", "q"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "2 files reformatted, 0 left unchanged\n");
    assert_eq!(std::fs::read_to_string(p.join("q/a.cal")).unwrap(), "RECALL beliefs ABOUT \"alice\"\n");
    assert_eq!(cal_in(p, &["fmt", "--check", "q"]).status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(p.join("q/deep/notes.txt")).unwrap(), "not CAL", "only *.cal files");
    // A second --write changes nothing.
    assert_eq!(text(&cal_in(p, &["fmt", "--write", "q"]).stderr), "0 files reformatted, 2 left unchanged\n");
}

#[test]
fn fmt_diff_shows_the_change_and_changes_nothing() {
    let dir = project();
    let out = cal_in(dir.path(), &["fmt", "--diff", "q/a.cal"]);
    assert_eq!(out.status.code(), Some(1));
    insta::assert_snapshot!("fmt_diff", text(&out.stdout));
    assert_eq!(std::fs::read_to_string(dir.path().join("q/a.cal")).unwrap(), "recall beliefs about \"alice\"\n");
}

#[test]
fn globs_name_files_for_shells_that_do_not_expand_them() {
    let dir = project();
    let out = cal_in(dir.path(), &["fmt", "--check", "q/**/*.cal"]);
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 2, "{err}");
    let out = cal_in(dir.path(), &["fmt", "--check", "nothing/*.cal"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no file matches nothing/*.cal"));
}

#[test]
fn usage_errors_of_fmt_and_check() {
    let dir = project();
    let cases: &[(&[&str], &str)] = &[
        (&["fmt", "q"], "several inputs: pass --write"),
        (&["fmt", "--write"], "standard input has no file to write"),
        (&["check", "--fix", "-"], "standard input has no file to write"),
        (&["check", "missing.cal"], "cannot read missing.cal"),
    ];
    for (args, message) in cases {
        let out = cal_in(dir.path(), args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).contains(message), "{args:?}: {}", text(&out.stderr));
    }
}

#[test]
fn check_takes_a_directory() {
    let dir = project();
    let out = cal_in(dir.path(), &["check", "."]);
    assert_eq!(out.status.code(), Some(1), "typos.cal has errors");
    let err = text(&out.stderr);
    assert!(err.contains("q/a.cal: ok") && err.contains("[CAL-E003]"), "{err}");
    assert!(!err.contains("x.cal") && !err.contains("y.cal"), "hidden and target/ skipped: {err}");
}

#[test]
fn check_fix_makes_a_file_clean() {
    let dir = project();
    let p = dir.path();
    let out = cal_in(p, &["check", "--fix", "typos.cal"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).starts_with("2 fixes applied\n"), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(p.join("typos.cal")).unwrap(), "RECALL beliefs WHERE subject = \"alice\"\n");
    assert_eq!(cal_in(p, &["check", "typos.cal"]).status.code(), Some(0));
}

/// The machine reports of one file with two fixable errors, snapshotted.
#[test]
fn reports_for_programs() {
    let dir = project();
    for (name, args) in [
        ("check_json", &["check", "--json", "typos.cal"][..]),
        ("check_github", &["check", "--output-format", "github", "typos.cal"]),
        ("check_sarif", &["check", "--output-format", "sarif", "typos.cal"]),
    ] {
        let out = cal_in(dir.path(), args);
        assert_eq!(out.status.code(), Some(1), "{name}");
        let shown = match serde_json::from_slice::<serde_json::Value>(&out.stdout) {
            Ok(json) => format!("{json:#}"),
            Err(_) => text(&out.stdout),
        };
        insta::with_settings!({ description => args.join(" "), omit_expression => true }, {
            insta::assert_snapshot!(name, shown);
        });
    }
}

#[test]
fn the_shipped_examples_are_canonical_and_clean() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let out = cal_in(root, &["fmt", "--check", "examples"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = cal_in(root, &["check", "examples"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}
