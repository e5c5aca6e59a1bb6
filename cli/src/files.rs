//! The inputs of `cal fmt` and `cal check`, as ruff takes them: files, directories (every
//! `*.cal` below, hidden directories and `target/` skipped) and glob patterns (`q/**/*.cal`,
//! for shells that do not expand them), or standard input when none is given or `-`.

use std::path::{Path, PathBuf};

/// One input: a file, or standard input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Standard input.
    Stdin,
    /// A file.
    File(PathBuf),
}

/// Expands the arguments into inputs, in the order given, each file once; a directory's
/// files in name order. A path that does not exist and matches no glob is an error (exit 2).
pub fn expand(args: &[PathBuf]) -> Result<Vec<Source>, String> {
    if args.is_empty() {
        return Ok(vec![Source::Stdin]);
    }
    let mut out: Vec<Source> = Vec::new();
    let push = |s: Source, out: &mut Vec<Source>| {
        if !out.contains(&s) {
            out.push(s);
        }
    };
    for arg in args {
        if arg.as_os_str() == "-" {
            push(Source::Stdin, &mut out);
        } else if arg.is_dir() {
            let mut found = Vec::new();
            walk(arg, &mut found).map_err(|e| format!("cannot read {}: {e}", arg.display()))?;
            found.sort();
            for f in found {
                push(Source::File(f), &mut out);
            }
        } else if arg.exists() {
            push(Source::File(arg.clone()), &mut out);
        } else if is_glob(arg) {
            let matched = glob(arg)?;
            if matched.is_empty() {
                return Err(format!("no file matches {}", arg.display()));
            }
            for f in matched {
                push(Source::File(f), &mut out);
            }
        } else {
            return Err(format!("cannot read {}: no such file or directory", arg.display()));
        }
    }
    Ok(out)
}

/// Every `*.cal` file below `dir`, skipping hidden directories and `target`.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let kind = entry.file_type()?;
        if kind.is_dir() {
            if !name.starts_with('.') && name != "target" {
                walk(&path, out)?;
            }
        } else if path.extension().is_some_and(|e| e == "cal") {
            out.push(path);
        }
    }
    Ok(())
}

fn is_glob(p: &Path) -> bool {
    p.to_string_lossy().contains(['*', '?', '[', '{'])
}

/// The files a glob matches: walked from the pattern's longest literal directory prefix.
fn glob(pattern: &Path) -> Result<Vec<PathBuf>, String> {
    let text = pattern.to_string_lossy();
    let matcher = globset::GlobBuilder::new(&text)
        .literal_separator(true)
        .build()
        .map_err(|e| format!("invalid pattern {text}: {e}"))?
        .compile_matcher();
    let literal: PathBuf = pattern.components().take_while(|c| !is_glob(Path::new(c.as_os_str()))).collect();
    let root = if literal.as_os_str().is_empty() { PathBuf::from(".") } else { literal };
    let mut all = Vec::new();
    if root.is_dir() {
        walk_all(&root, &mut all).map_err(|e| format!("cannot read {}: {e}", root.display()))?;
    }
    let strip_dot = !text.starts_with("./");
    let mut matched: Vec<PathBuf> = all
        .into_iter()
        .map(|p| if strip_dot { p.strip_prefix("./").map(Path::to_path_buf).unwrap_or(p) } else { p })
        .filter(|p| matcher.is_match(p))
        .collect();
    matched.sort();
    Ok(matched)
}

/// Every file below `dir`, skipping hidden directories and `target`.
fn walk_all(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        if entry.file_type()?.is_dir() {
            if !name.to_string_lossy().starts_with('.') && name != "target" {
                walk_all(&entry.path(), out)?;
            }
        } else {
            out.push(entry.path());
        }
    }
    Ok(())
}

/// Reads an input as bytes, with the name messages give it.
pub fn read(source: &Source) -> Result<crate::input::Input, String> {
    match source {
        Source::Stdin => crate::input::read(None),
        Source::File(p) => crate::input::read(Some(p)),
    }
}
