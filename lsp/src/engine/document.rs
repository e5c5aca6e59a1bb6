//! One open document: its text, version, and the latest analysis of it.

use super::position::{Encoding, Lines};
use cal_checker::Analysis;

/// An open `.cal` document as the engine sees it. The analysis is recomputed
/// by [`Document::analyze`] (the server debounces that) and may lag behind
/// the text between an edit and the next analysis; the features that need
/// up-to-date structure re-lex the text themselves, which is cheap.
#[derive(Debug, Clone)]
pub struct Document {
    /// The current text.
    pub text: String,
    /// The client's version number of the text.
    pub version: i32,
    /// Parse and check result for [`Document::analyzed_version`].
    pub analysis: Analysis,
    /// The version the analysis belongs to.
    pub analyzed_version: i32,
}

impl Document {
    /// A document analyzed right away.
    pub fn new(text: impl Into<String>, version: i32) -> Self {
        let text = text.into();
        let analysis = analyze(&text);
        Document { text, version, analysis, analyzed_version: version }
    }

    /// Re-runs the parser and checker (the same `analyze` as `cal check`).
    pub fn analyze(&mut self) {
        self.analysis = analyze(&self.text);
        self.analyzed_version = self.version;
    }

    /// True when the analysis belongs to the current text.
    pub fn is_fresh(&self) -> bool {
        self.analyzed_version == self.version
    }

    /// Replaces the whole text (full sync).
    pub fn replace_all(&mut self, text: String, version: i32) {
        self.text = text;
        self.version = version;
    }

    /// Applies one incremental change given as LSP (line, character) positions in `encoding`.
    /// Positions outside the text are clamped, so no edit can fail.
    pub fn apply_change(&mut self, start: (u32, u32), end: (u32, u32), new_text: &str, encoding: Encoding) {
        let lines = Lines::new(&self.text, encoding);
        let a = lines.offset(start.0, start.1) as usize;
        let b = lines.offset(end.0, end.1) as usize;
        let (a, b) = (a.min(b), a.max(b));
        self.text.replace_range(a..b, new_text);
    }

    /// Records the version after a batch of changes.
    pub fn set_version(&mut self, version: i32) {
        self.version = version;
    }
}

/// The most query trees a document keeps for the features that read them (hover, symbols,
/// code actions): the first 10,000, as many as `cal run` takes from one document. A huge
/// document's diagnostics are all computed, but the trees past these are dropped as they
/// are checked, so opening 10 MB costs what its first queries do (issue 19).
pub const MAX_KEPT_QUERIES: usize = 10_000;

fn analyze(text: &str) -> Analysis {
    let mut queries = Vec::new();
    let diagnostics = cal_checker::analyze_each(text, None, |q| {
        let room = MAX_KEPT_QUERIES.saturating_sub(queries.len());
        queries.extend(q.into_iter().take(room));
    });
    Analysis { document: Some(cal_parser::ast::Document { queries }), diagnostics }
}
