//! The state of one check: the diagnostics found so far, the parameter
//! bindings, the LET bindings of the query, and every use of a `$parameter`
//! (judged at the end, when all uses are known).

use crate::params::Params;
use crate::values::Want;
use cal_grammar::{Code, Diagnostic, Extractor, GrainType, Span};

/// What a RECALL (or a LET binding) produces once its pipeline has run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Output {
    /// Grains (no shaping stage, or only LIMIT/OFFSET/ORDER BY/PROJECT).
    Grains,
    /// One grain (`FIRST`).
    One,
    /// A number (`COUNT`).
    Number,
    /// A list of strings or content addresses (`SUBJECTS`, `OBJECTS`, `HASHES`).
    Values(Extractor),
    /// Records with the selected fields (`SELECT`).
    Rows,
    /// Groups (`GROUP BY`).
    Groups,
}

impl Output {
    /// True when the result is grains an ASSEMBLE, a set operation or COALESCE can use.
    pub(crate) fn is_grains(self) -> bool {
        matches!(self, Output::Grains | Output::One | Output::Rows | Output::Groups)
    }

    /// How the result reads in a message.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Output::Grains => "grains",
            Output::One => "one grain",
            Output::Number => "a number (COUNT)",
            Output::Values(Extractor::Subjects) => "a list of subjects (SUBJECTS)",
            Output::Values(Extractor::Objects) => "a list of objects (OBJECTS)",
            Output::Values(Extractor::Hashes) => "a list of content addresses (HASHES)",
            Output::Rows => "selected fields (SELECT)",
            Output::Groups => "groups (GROUP BY)",
        }
    }
}

/// One `LET $name = …;` of the query being checked.
#[derive(Debug, Clone)]
pub(crate) struct LetSlot<'q> {
    /// The name without `$`.
    pub name: &'q str,
    /// Where the name is written.
    pub span: Span,
    /// What it produces, once its RECALL has been checked.
    pub output: Option<Output>,
    /// The grain type its RECALL declares.
    pub grain: Option<GrainType>,
}

/// A reference from LET `from` to the earlier LET `to` (§8.12 chaining).
#[derive(Debug, Clone, Copy)]
pub(crate) struct LetEdge {
    pub from: usize,
    pub to: usize,
    pub span: Span,
}

/// One use of a `$parameter` that is not a LET binding.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ParamUse<'q> {
    pub name: &'q str,
    pub span: Span,
    pub want: Want<'q>,
}

/// The checker's working state for one query.
pub(crate) struct Checker<'q> {
    diags: Vec<Diagnostic>,
    /// The bindings, when the caller supplied them.
    pub params: Option<&'q Params>,
    /// The query's LET bindings, in declaration order.
    pub lets: Vec<LetSlot<'q>>,
    /// The LET whose RECALL is being checked.
    pub current_let: Option<usize>,
    /// LET-to-LET references found so far.
    pub let_edges: Vec<LetEdge>,
    /// Uses of parameters, judged by [`crate::params::finish`].
    pub param_uses: Vec<ParamUse<'q>>,
    /// Subquery nesting level of the RECALL being checked (0 = not a subquery).
    pub depth: usize,
}

impl<'q> Checker<'q> {
    /// A fresh checker.
    pub(crate) fn new(params: Option<&'q Params>) -> Self {
        Checker {
            diags: Vec::new(),
            params,
            lets: Vec::new(),
            current_let: None,
            let_edges: Vec::new(),
            param_uses: Vec::new(),
            depth: 0,
        }
    }

    /// Records a diagnostic and returns it, to add a suggestion, fix, valid values or labels.
    pub(crate) fn error(&mut self, code: Code, span: Span, message: impl Into<String>) -> &mut Diagnostic {
        self.diags.push(Diagnostic::new(code, span, message));
        self.diags.last_mut().expect("just pushed")
    }

    /// The diagnostics found.
    pub(crate) fn into_diagnostics(self) -> Vec<Diagnostic> {
        self.diags
    }

    /// The index of the LET binding called `name`.
    pub(crate) fn let_index(&self, name: &str) -> Option<usize> {
        self.lets.iter().position(|l| l.name == name)
    }
}

/// Builder helpers on a diagnostic already recorded by [`Checker::error`].
pub(crate) trait Amend {
    /// Sets the suggestion.
    fn help(&mut self, s: impl Into<String>) -> &mut Self;
    /// Sets the replacement.
    fn fix(&mut self, s: impl Into<String>) -> &mut Self;
    /// Sets the example.
    fn example(&mut self, s: impl Into<String>) -> &mut Self;
    /// Sets the valid values.
    fn valid<I: IntoIterator<Item = S>, S: Into<String>>(&mut self, v: I) -> &mut Self;
    /// Adds a secondary label.
    fn note(&mut self, span: Span, s: impl Into<String>) -> &mut Self;
    /// Sets the edit elsewhere that the example is built from (`Diagnostic::rewrite`).
    fn rewrite(&mut self, span: Span, s: impl Into<String>) -> &mut Self;
}

impl Amend for Diagnostic {
    fn help(&mut self, s: impl Into<String>) -> &mut Self {
        self.suggestion = Some(s.into());
        self
    }

    fn fix(&mut self, s: impl Into<String>) -> &mut Self {
        self.replacement = Some(s.into());
        self
    }

    fn example(&mut self, s: impl Into<String>) -> &mut Self {
        self.example = Some(s.into());
        self
    }

    fn valid<I: IntoIterator<Item = S>, S: Into<String>>(&mut self, v: I) -> &mut Self {
        self.valid_values = v.into_iter().map(Into::into).collect();
        self
    }

    fn note(&mut self, span: Span, s: impl Into<String>) -> &mut Self {
        self.labels.push(cal_grammar::Label { span, message: s.into() });
        self
    }

    fn rewrite(&mut self, span: Span, s: impl Into<String>) -> &mut Self {
        self.rewrite = Some((span, s.into()));
        self
    }
}
