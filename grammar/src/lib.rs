//! # cal-grammar — the CAL/1 language as data
//!
//! Every fact of the language lives here exactly once: the EBNF we implement
//! ([`EBNF`], served verbatim by `DESCRIBE grammar`), the closed vocabularies
//! (keywords, reserved and excluded words, grain types, formats, …), the field
//! tables with their types and operators, the `mg:` relations, the closed enum
//! values, the resource limits, the error-code registry and the template
//! variables. The lexer, parser, checker, renderer, language server and
//! conformance suite all read them from here.
//!
//! This crate depends on no other crate of the workspace.

pub mod advice;
pub mod binding;
pub mod codes;
pub mod diagnostic;
pub mod display;
pub mod ebnf;
pub mod enums;
pub mod fields;
pub mod hash;
pub mod limits;
pub mod prompt;
pub mod relations;
pub mod span;
pub mod suggest;
pub mod templates;
pub mod vocab;
pub mod with;

pub use codes::{Code, CodeInfo, Phase, Severity};
pub use diagnostic::{Diagnostic, Label, apply_edits, complete_examples_together, sort_diagnostics};
pub use span::{LineIndex, Position, Span};
pub use vocab::*;

/// The grammar we implement, in EBNF, including our marked extensions to the spec's grammar.
pub const EBNF: &str = include_str!("../cal.ebnf");
