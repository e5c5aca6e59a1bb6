//! A section's text into a tree: literal text, variables and sections, with
//! every structural error found (unbalanced or overlapping sections, excluded
//! forms, names that are not dotted words, nesting over the limit).

use cal_grammar::limits::MAX_TEMPLATE_NESTING;
use cal_lexer::template::{Piece, Tag, TagKind, tokenize};
use std::ops::Range;

/// The section name of constrained iteration (§10.2): `{{#each}}…{{/each}}`, the only
/// section that names no variable.
pub const EACH: &str = "each";

/// True for a dotted name of words: `grain.content`, `timestamp`. Anything else between
/// the braces is not a name (`{{grain type}}`, `{{}}`).
pub fn is_valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.split('.').all(|part| {
            let mut b = part.bytes();
            b.next().is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
                && b.all(|c| c.is_ascii_alphanumeric() || c == b'_')
        })
}

/// A template as a tree: what a renderer walks. It owns its text, so that a template
/// can be kept (a namespace's registry) longer than the query that defined it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// Literal text.
    Text(String),
    /// `{{name}}`.
    Variable {
        /// The variable.
        name: String,
        /// Where the tag is, in the section's text.
        span: Range<usize>,
    },
    /// `{{#name}}…{{/name}}`, `{{^name}}…{{/name}}` or `{{#each}}…{{/each}}` (name [`EACH`]).
    Section {
        /// The variable tested, or [`EACH`].
        name: String,
        /// True for `{{^…}}`.
        inverted: bool,
        /// The body.
        children: Vec<Node>,
        /// Where the opening tag is, in the section's text.
        span: Range<usize>,
    },
}

/// What is wrong with a template's structure, before its variables are looked at. The
/// checker maps each kind to its code (CAL-E091, E093, E094) and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    /// A form §10.2 excludes, or a tag without `}}`.
    Unsupported(TagKind),
    /// A tag whose name is not a dotted word (`{{grain type}}`, `{{}}`).
    InvalidName,
    /// `each` used other than as `{{#each}}` with no argument.
    EachForm,
    /// A section opened and never closed.
    Unclosed,
    /// A `{{/name}}` with no open section.
    Unopened,
    /// A `{{/name}}` that closes a different section than the innermost open one.
    Mismatched,
    /// A section nested deeper than [`MAX_TEMPLATE_NESTING`].
    TooDeep,
}

/// One structural problem, with the byte range it is at and, for mismatches, the opening tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// What.
    pub kind: ErrorKind,
    /// Where, in the section's text.
    pub span: Range<usize>,
    /// The related opening tag (for [`ErrorKind::Mismatched`]).
    pub related: Option<Range<usize>>,
    /// The section names involved: the open one, then the close (for messages).
    pub names: (String, String),
}

/// One section's text parsed: the tree, every tag (so that callers can look at the names
/// as written, with their spans) and every structural error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedSection<'t> {
    /// The tree (built as far as the errors allow).
    pub nodes: Vec<Node>,
    /// Every tag, in order.
    pub tags: Vec<Tag<'t>>,
    /// Structural errors, in source order.
    pub errors: Vec<SyntaxError>,
}

struct Open {
    name: String,
    inverted: bool,
    span: Range<usize>,
    children: Vec<Node>,
}

fn push(stack: &mut [Open], root: &mut Vec<Node>, node: Node) {
    match stack.last_mut() {
        Some(open) => open.children.push(node),
        None => root.push(node),
    }
}

/// Parses one section's text. Never fails: problems are collected in
/// [`ParsedSection::errors`], and a close tag that matches an outer section closes that one
/// and leaves the inner ones open, so that each mistake is reported once.
pub fn parse(text: &str) -> ParsedSection<'_> {
    let mut stack: Vec<Open> = Vec::new();
    let mut root: Vec<Node> = Vec::new();
    let mut tags = Vec::new();
    let mut errors = Vec::new();
    let err = |kind, span: Range<usize>| SyntaxError { kind, span, related: None, names: Default::default() };
    for piece in tokenize(text) {
        let tag = match piece {
            Piece::Text { text, .. } => {
                push(&mut stack, &mut root, Node::Text(text.to_string()));
                continue;
            }
            Piece::Tag(tag) => tag,
        };
        tags.push(tag.clone());
        if !tag.kind.is_supported() {
            errors.push(err(ErrorKind::Unsupported(tag.kind), tag.span.clone()));
            continue;
        }
        if tag.kind == TagKind::Comment {
            continue;
        }
        let each_like = tag.name == EACH || tag.name.starts_with("each ") || tag.name.starts_with("each\t");
        if each_like && (tag.name != EACH || tag.kind == TagKind::Inverted || tag.kind == TagKind::Variable) {
            errors.push(err(ErrorKind::EachForm, tag.span.clone()));
            if matches!(tag.kind, TagKind::Section | TagKind::Inverted) {
                // Still opens an `each` block, so that its `{{/each}}` is not reported again.
                stack.push(Open { name: EACH.into(), inverted: false, span: tag.span.clone(), children: Vec::new() });
            }
            continue;
        }
        if !is_valid_name(tag.name) {
            errors.push(err(ErrorKind::InvalidName, tag.span.clone()));
            continue;
        }
        match tag.kind {
            TagKind::Variable => {
                push(&mut stack, &mut root, Node::Variable { name: tag.name.to_string(), span: tag.span.clone() });
            }
            TagKind::Section | TagKind::Inverted => {
                if stack.len() == MAX_TEMPLATE_NESTING {
                    errors.push(err(ErrorKind::TooDeep, tag.span.clone()));
                }
                stack.push(Open {
                    name: tag.name.to_string(),
                    inverted: tag.kind == TagKind::Inverted,
                    span: tag.span.clone(),
                    children: Vec::new(),
                });
            }
            TagKind::Close => match stack.iter().rposition(|o| o.name == tag.name) {
                None => {
                    let mut e = err(ErrorKind::Unopened, tag.span.clone());
                    e.names.1 = tag.name.to_string();
                    errors.push(e);
                }
                Some(at) => {
                    if at + 1 != stack.len()
                        && let Some(inner) = stack.last()
                    {
                        errors.push(SyntaxError {
                            kind: ErrorKind::Mismatched,
                            span: tag.span.clone(),
                            related: Some(inner.span.clone()),
                            names: (inner.name.clone(), tag.name.to_string()),
                        });
                    }
                    // Close the section named, leaving the ones opened inside it open, so that
                    // their own closing tags still match (one error per mistake).
                    let open = stack.remove(at);
                    let node = Node::Section {
                        name: open.name,
                        inverted: open.inverted,
                        children: open.children,
                        span: open.span,
                    };
                    let parent = at.checked_sub(1).and_then(|p| stack.get_mut(p));
                    match parent {
                        Some(p) => p.children.push(node),
                        None => root.push(node),
                    }
                }
            },
            _ => {}
        }
    }
    while let Some(open) = stack.pop() {
        let mut e = err(ErrorKind::Unclosed, open.span.clone());
        e.names.0 = open.name.clone();
        errors.push(e);
        let node = Node::Section { name: open.name, inverted: open.inverted, children: open.children, span: open.span };
        push(&mut stack, &mut root, node);
    }
    errors.sort_by_key(|e| e.span.start);
    ParsedSection { nodes: root, tags, errors }
}
