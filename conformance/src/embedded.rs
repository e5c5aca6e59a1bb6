//! The corpus embedded in the binary, so that `cal conformance run` works after
//! `cargo install` with no source tree at hand (docs/conformance.md, "The embedded
//! corpus").
//!
//! Every `cases/**/*.json` and every `fixtures/*.mg` of this crate is compiled in
//! with `rust-embed` (its `debug-embed` feature embeds in debug builds too, so
//! tests run exactly what an installed binary runs); `build.rs` makes cargo
//! rebuild the crate when a file is added to or removed from those folders.
//! The case-file schema, the limit templates and the protocol schemas were
//! already compiled in (`include_str!`).
//!
//! A corpus is identified by its [`Provenance`]: where it was read from, how
//! many files, and one digest over every file's relative path and SHA-256 —
//! the same for the embedded copy and the directory it was built from, so a
//! report names exactly which corpus a run used.

use crate::loader::{Corpus, LoadError, load_str};
use std::borrow::Cow;
use std::path::{Path, PathBuf};

#[derive(rust_embed::Embed)]
#[folder = "cases/"]
#[include = "*.json"]
struct Cases;

#[derive(rust_embed::Embed)]
#[folder = "fixtures/"]
#[include = "*.mg"]
struct FixtureFiles;

/// The name a run's report gives the embedded corpus (`Provenance::source`).
pub const EMBEDDED: &str = "embedded";

/// Which corpus (or fixture set) a run used: where it came from, how many files,
/// and a digest of them all.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Provenance {
    /// [`EMBEDDED`] for the copy compiled into this binary, otherwise the directory read.
    pub source: String,
    /// How many files (case files, or fixture stores).
    pub files: usize,
    /// `sha256:` and the hex SHA-256 of the lines `<relative path>\0<hex SHA-256 of the
    /// file>\n`, sorted by path (`/`-separated): equal for equal file sets wherever read from.
    pub digest: String,
}

impl Provenance {
    /// The provenance of files given as (relative path, SHA-256 of the content).
    pub fn of(source: &str, mut files: Vec<(String, [u8; 32])>) -> Self {
        files.sort();
        let mut text = Vec::new();
        for (path, sha) in &files {
            text.extend_from_slice(path.as_bytes());
            text.push(0);
            text.extend_from_slice(crate::encode_hex(sha).as_bytes());
            text.push(b'\n');
        }
        Provenance {
            source: source.to_string(),
            files: files.len(),
            digest: format!("sha256:{}", crate::encode_hex(oms::ContentAddress::of(&text).as_bytes())),
        }
    }

    /// The provenance of the files under `dir` whose name ends in `.{extension}` (recursively).
    pub fn of_dir(dir: &Path, extension: &str) -> std::io::Result<Self> {
        let mut found = Vec::new();
        walk(dir, extension, &mut found)?;
        let mut files = Vec::new();
        for path in found {
            let bytes = std::fs::read(&path)?;
            let rel = path.strip_prefix(dir).unwrap_or(&path);
            let rel: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            files.push((rel.join("/"), *oms::ContentAddress::of(&bytes).as_bytes()));
        }
        Ok(Self::of(&dir.display().to_string(), files))
    }

    /// The digest shortened for a table: `sha256:` and its first 12 hex digits.
    pub fn short_digest(&self) -> &str {
        self.digest.get(..19).unwrap_or(&self.digest)
    }
}

fn walk(dir: &Path, extension: &str, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, extension, out)?;
        } else if path.extension().is_some_and(|x| x == extension) {
            out.push(path);
        }
    }
    Ok(())
}

/// The embedded case files: relative path (`parse/statements.json`) and content, sorted by path.
pub fn case_files() -> Vec<(String, Cow<'static, [u8]>)> {
    let mut files: Vec<(String, Cow<'static, [u8]>)> =
        Cases::iter().filter_map(|p| Cases::get(&p).map(|f| (p.into_owned(), f.data))).collect();
    files.sort_by(|a, b| a.0.cmp(&b.0));
    files
}

/// The embedded fixture stores: file name (`temporal.mg`) and content, sorted by name.
pub fn fixture_files() -> Vec<(String, Cow<'static, [u8]>)> {
    let mut files: Vec<(String, Cow<'static, [u8]>)> =
        FixtureFiles::iter().filter_map(|p| FixtureFiles::get(&p).map(|f| (p.into_owned(), f.data))).collect();
    files.sort_by(|a, b| a.0.cmp(&b.0));
    files
}

/// The provenance of the embedded case files (their digests were computed at build time).
pub fn cases_provenance() -> Provenance {
    Provenance::of(
        EMBEDDED,
        Cases::iter().filter_map(|p| Cases::get(&p).map(|f| (p.into_owned(), f.metadata.sha256_hash()))).collect(),
    )
}

/// The provenance of the embedded fixture stores.
pub fn fixtures_provenance() -> Provenance {
    Provenance::of(
        EMBEDDED,
        FixtureFiles::iter()
            .filter_map(|p| FixtureFiles::get(&p).map(|f| (p.into_owned(), f.metadata.sha256_hash())))
            .collect(),
    )
}

/// The hand-written cases of the embedded corpus, loaded like [`crate::load_dir`] loads a
/// directory (each file validated against the case-file schema; ids checked for
/// uniqueness). A case's origin names its file as in the repository
/// (`conformance/cases/parse/statements.json`).
pub fn load_cases() -> Corpus {
    let mut corpus = Corpus { provenance: cases_provenance(), ..Corpus::default() };
    for (rel, data) in case_files() {
        let file = Path::new("conformance/cases").join(&rel);
        match std::str::from_utf8(&data) {
            Ok(text) => {
                let (cases, errors) = load_str(text, &file);
                corpus.cases.extend(cases);
                corpus.errors.extend(errors);
            }
            Err(e) => corpus.errors.push(LoadError { file, pointer: String::new(), message: e.to_string() }),
        }
    }
    corpus.errors.extend(crate::loader::duplicate_ids(&corpus.cases));
    corpus
}

/// The embedded fixture stores written to a fresh temporary directory (removed when
/// dropped): the adapter protocol hands an engine a fixture by path (PROTOCOL.md
/// `load_fixture`), so the stores must exist as files while a run lasts.
#[derive(Debug)]
pub struct FixtureDir {
    dir: tempfile::TempDir,
}

impl FixtureDir {
    /// Writes every embedded fixture store under a new temporary directory.
    pub fn write() -> std::io::Result<Self> {
        let dir = tempfile::Builder::new().prefix("cal-conformance-fixtures-").tempdir()?;
        for (name, data) in fixture_files() {
            std::fs::write(dir.path().join(name), &data)?;
        }
        Ok(FixtureDir { dir })
    }

    /// The directory holding `<name>.mg` for every fixture.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}
