//! Loads the corpus: every `*.json` under a cases directory is validated
//! against `schema/case-file.schema.json` before use, converted to the
//! [`Case`] model, and checked for duplicate ids across the whole corpus.
//!
//! Errors are collected, not fatal one by one: a corpus author sees every bad
//! case in one run, each named by file and JSON pointer.

use crate::case::{Case, Origin};
use crate::raw::to_case;
use jsonschema::Validator;
use serde_json::Value;
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

/// The case-file schema (draft 2020-12), as kept in the repository.
pub const CASE_FILE_SCHEMA: &str = include_str!("../schema/case-file.schema.json");

static VALIDATOR: LazyLock<Result<Validator, String>> = LazyLock::new(|| {
    let schema: Value = serde_json::from_str(CASE_FILE_SCHEMA).map_err(|e| e.to_string())?;
    jsonschema::draft202012::new(&schema).map_err(|e| e.to_string())
});

/// One problem with the corpus, named by file and JSON pointer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// The case file.
    pub file: PathBuf,
    /// JSON pointer to the offending value (empty for the whole file).
    pub pointer: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pointer = if self.pointer.is_empty() { "/" } else { &self.pointer };
        write!(f, "{}: at {pointer}: {}", self.file.display(), self.message)
    }
}

/// A loaded corpus: the cases that are usable, and every problem found.
#[derive(Debug, Default)]
pub struct Corpus {
    /// Valid cases, in file order (files sorted by path).
    pub cases: Vec<Case>,
    /// Schema violations, unreadable files and duplicate ids.
    pub errors: Vec<LoadError>,
    /// Where the case files came from (the embedded copy or a directory) and their digest.
    pub provenance: crate::embedded::Provenance,
}

/// Validates one case-file value against the schema; each violation names its pointer.
pub fn validate_case_file(value: &Value, file: &Path) -> Vec<LoadError> {
    let validator = match VALIDATOR.as_ref() {
        Ok(v) => v,
        Err(e) => {
            return vec![LoadError {
                file: file.to_path_buf(),
                pointer: String::new(),
                message: format!("the case-file schema does not compile ({e}); this is a bug in the suite"),
            }];
        }
    };
    let mut errors: Vec<LoadError> = validator
        .iter_errors(value)
        .map(|e| LoadError {
            file: file.to_path_buf(),
            pointer: e.instance_path().as_str().to_string(),
            message: e.to_string(),
        })
        .collect();
    errors.sort_by(|a, b| a.pointer.cmp(&b.pointer).then_with(|| a.message.cmp(&b.message)));
    errors.dedup();
    errors
}

/// Parses and validates the text of one case file, returning its cases or every problem.
pub fn load_str(text: &str, file: &Path) -> (Vec<Case>, Vec<LoadError>) {
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            let message = format!("invalid JSON: {e}");
            return (Vec::new(), vec![LoadError { file: file.to_path_buf(), pointer: String::new(), message }]);
        }
    };
    let schema_errors = validate_case_file(&value, file);
    let Some(items) = value.get("cases").and_then(Value::as_array) else {
        return (Vec::new(), schema_errors);
    };
    let mut cases = Vec::new();
    let mut errors = schema_errors;
    for (i, item) in items.iter().enumerate() {
        let pointer = format!("/cases/{i}");
        // A case with a schema violation is not used; the violation is already reported.
        if errors.iter().any(|e| e.pointer == pointer || e.pointer.starts_with(&format!("{pointer}/"))) {
            continue;
        }
        let origin = Origin { file: file.to_path_buf(), pointer: pointer.clone() };
        match to_case(item, origin) {
            Ok(case) => cases.push(case),
            Err(message) => errors.push(LoadError { file: file.to_path_buf(), pointer, message }),
        }
    }
    // A file-level violation (e.g. an unknown top-level key) makes the whole file suspect.
    if errors.iter().any(|e| !e.pointer.starts_with("/cases/")) {
        cases.clear();
    }
    (cases, errors)
}

/// Loads every `*.json` file under `dir` (recursively, sorted by path) and checks id uniqueness.
pub fn load_dir(dir: &Path) -> Corpus {
    let mut corpus = Corpus::default();
    match crate::embedded::Provenance::of_dir(dir, "json") {
        Ok(p) => corpus.provenance = p,
        Err(e) => corpus.provenance.source = format!("{} (unreadable: {e})", dir.display()),
    }
    let mut files = Vec::new();
    if let Err(e) = collect_json(dir, &mut files) {
        corpus.errors.push(LoadError { file: dir.to_path_buf(), pointer: String::new(), message: e });
        return corpus;
    }
    files.sort();
    for file in files {
        match std::fs::read_to_string(&file) {
            Ok(text) => {
                let (cases, errors) = load_str(&text, &file);
                corpus.cases.extend(cases);
                corpus.errors.extend(errors);
            }
            Err(e) => corpus.errors.push(LoadError { file, pointer: String::new(), message: e.to_string() }),
        }
    }
    corpus.errors.extend(duplicate_ids(&corpus.cases));
    corpus
}

/// One error per case whose id was already used by an earlier case, naming both places.
pub fn duplicate_ids(cases: &[Case]) -> Vec<LoadError> {
    let mut first: HashMap<&str, &Origin> = HashMap::new();
    let mut errors = Vec::new();
    for case in cases {
        if let Some(prev) = first.get(case.id.as_str()) {
            errors.push(LoadError {
                file: case.origin.file.clone(),
                pointer: format!("{}/id", case.origin.pointer),
                message: format!("duplicate id {:?}, first defined at {prev}", case.id),
            });
        } else {
            first.insert(&case.id, &case.origin);
        }
    }
    errors
}

fn collect_json(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_dir() {
            collect_json(&path, out)?;
        } else if path.extension().is_some_and(|x| x == "json") {
            out.push(path);
        }
    }
    Ok(())
}
