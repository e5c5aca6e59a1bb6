//! The syntax of CAL's template sub-language (§10.2): what the text of a
//! `HEADER { … }`, `ELEMENT { … }` or other section means as a tree.
//!
//! Supported: `{{variable}}`, `{{#section}}…{{/section}}`,
//! `{{^inverted}}…{{/inverted}}`, `{{! comment }}` and `{{#each}}…{{/each}}`.
//! Recognized so that they can be rejected precisely: partials `{{> x}}`,
//! unescaped `{{{x}}}` / `{{& x}}`, set-delimiter `{{=<% %>=}}`, and an
//! opening `{{` without `}}`. (Lambdas need no syntax of their own: no
//! variable of the closed set is a function.)
//!
//! One reading for everyone: the tags come from the lexer's template lexer
//! (`cal_lexer::template`, re-exported here), the one that also decides where a
//! section's text ends; this module builds the tree ([`parse`]); the checker
//! turns its [`SyntaxError`]s into CAL-E091/E093/E094 and judges the rest of a
//! definition (CAL-E086–E095, with the facts in `cal_grammar::templates`); the
//! renderer walks a [`Template`]. Offsets are byte ranges into a section's text.

mod tree;

pub use cal_lexer::template::{Piece, Pieces, Tag, TagKind, tokenize};
pub use tree::{EACH, ErrorKind, Node, ParsedSection, SyntaxError, is_valid_name, parse};

use crate::ast::TemplateBody;
use cal_grammar::templates::DEFAULT_TEMPLATE_PARENT;
use cal_grammar::{FormatName, TemplateSectionKind};

/// A template ready to render: the preset it extends and each of its sections as a tree.
///
/// It exists so that a template is parsed once, where it is defined, and a renderer
/// never meets a malformed one: the only way to build it is [`Template::parse`] (or
/// [`Template::from_body`]), which fails on any structural error. Whether its
/// variables and parent are allowed is the checker's judgement, made before it is built
/// for a definition (`cal_checker::validate_definition`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Template {
    extends: Option<FormatName>,
    sections: Vec<(TemplateSectionKind, Vec<Node>)>,
}

/// Why [`Template::parse`] failed: the first structural error of the first section that
/// has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SectionError {
    /// The position of the section among those given.
    pub index: usize,
    /// Its first error, by position in the section's text.
    pub error: SyntaxError,
}

impl Template {
    /// Parses each section's text, in order. A section kind given twice is kept twice
    /// (the checker reports it, CAL-E095); [`Template::section`] returns the first.
    pub fn parse<'a>(
        extends: Option<FormatName>,
        sections: impl IntoIterator<Item = (TemplateSectionKind, &'a str)>,
    ) -> Result<Template, SectionError> {
        let sections = sections
            .into_iter()
            .enumerate()
            .map(|(index, (kind, text))| {
                let parsed = parse(text);
                match parsed.errors.into_iter().next() {
                    Some(error) => Err(SectionError { index, error }),
                    None => Ok((kind, parsed.nodes)),
                }
            })
            .collect::<Result<_, _>>()?;
        Ok(Template { extends, sections })
    }

    /// [`Template::parse`] over the sections of a parsed body (`FORMAT TEMPLATE { … }`, or a
    /// DEFINE TEMPLATE's); [`SectionError::index`] indexes `body.sections`.
    pub fn from_body(extends: Option<FormatName>, body: &TemplateBody) -> Result<Template, SectionError> {
        Template::parse(extends, body.sections.iter().map(|s| (s.kind, s.text.as_str())))
    }

    /// The preset named by EXTENDS, when one was.
    pub fn extends(&self) -> Option<FormatName> {
        self.extends
    }

    /// The preset whose sections fill the ones the template does not define: EXTENDS, or
    /// `readable` (§10.7).
    pub fn parent(&self) -> FormatName {
        self.extends.unwrap_or(DEFAULT_TEMPLATE_PARENT)
    }

    /// The template's own section of `kind` (the first, should it be given twice).
    pub fn section(&self, kind: TemplateSectionKind) -> Option<&[Node]> {
        self.sections.iter().find(|(k, _)| *k == kind).map(|(_, nodes)| nodes.as_slice())
    }
}

#[cfg(test)]
mod tests;
