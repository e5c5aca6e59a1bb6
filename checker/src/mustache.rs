//! CAL's Mustache subset (§10.2) and its closed variable set (§10.5), as a
//! reusable tokenizer and tree builder: the checker validates templates with
//! it, and the renderer will render the same tree, so the two can never
//! disagree about what a template means.
//!
//! Supported: `{{variable}}`, `{{#section}}…{{/section}}`,
//! `{{^inverted}}…{{/inverted}}`, `{{! comment }}` and `{{#each}}…{{/each}}`.
//! Recognized so that they can be rejected precisely: partials `{{> x}}`,
//! unescaped `{{{x}}}` / `{{& x}}`, set-delimiter `{{=<% %>=}}`, and an
//! opening `{{` without `}}`. (Lambdas need no syntax of their own: no
//! variable of the closed set is a function.)
//!
//! Offsets are byte ranges into the template text given.

use cal_grammar::limits::MAX_TEMPLATE_NESTING;
use std::ops::Range;

/// The form of a `{{…}}` tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TagKind {
    /// `{{name}}`: interpolation, HTML-escaped.
    Variable,
    /// `{{#name}}`: renders its body when the value is present and true (or, for `each`, per item).
    Section,
    /// `{{^name}}`: renders its body when the value is missing or false.
    Inverted,
    /// `{{/name}}`: closes a section.
    Close,
    /// `{{! … }}`: ignored.
    Comment,
    /// `{{> name}}`: a partial — excluded by §10.2.
    Partial,
    /// `{{{name}}}` or `{{& name}}`: unescaped interpolation — excluded by §10.2.
    Unescaped,
    /// `{{=<% %>=}}`: changes the delimiters — excluded by §10.2.
    SetDelimiter,
    /// `{{` with no `}}` after it.
    Unclosed,
}

impl TagKind {
    /// True for the forms CAL templates allow.
    pub fn is_supported(self) -> bool {
        matches!(self, TagKind::Variable | TagKind::Section | TagKind::Inverted | TagKind::Close | TagKind::Comment)
    }

    /// What the form is called, for messages.
    pub fn describe(self) -> &'static str {
        match self {
            TagKind::Variable => "a variable",
            TagKind::Section => "a section",
            TagKind::Inverted => "an inverted section",
            TagKind::Close => "a section end",
            TagKind::Comment => "a comment",
            TagKind::Partial => "a partial (`{{> …}}`)",
            TagKind::Unescaped => "unescaped interpolation (`{{{…}}}` or `{{& …}}`)",
            TagKind::SetDelimiter => "a delimiter change (`{{=… …=}}`)",
            TagKind::Unclosed => "a tag without its closing `}}`",
        }
    }
}

/// One `{{…}}` tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag<'t> {
    /// Its form.
    pub kind: TagKind,
    /// The name after the sigil, trimmed (the text, for comments).
    pub name: &'t str,
    /// The whole tag, braces included.
    pub span: Range<usize>,
    /// The name.
    pub name_span: Range<usize>,
}

/// A run of literal text or a tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece<'t> {
    /// Literal text, output as is.
    Text {
        /// The text.
        text: &'t str,
        /// Where.
        span: Range<usize>,
    },
    /// A tag.
    Tag(Tag<'t>),
}

/// The pieces of a template text, in order (see [`tokenize`]).
#[derive(Debug, Clone)]
pub struct Pieces<'t> {
    text: &'t str,
    pos: usize,
}

/// Splits a template text into literal text and tags. Never fails: malformed
/// tags come out as [`TagKind::Unclosed`] or with a name [`is_valid_name`] rejects.
pub fn tokenize(text: &str) -> Pieces<'_> {
    Pieces { text, pos: 0 }
}

impl<'t> Iterator for Pieces<'t> {
    type Item = Piece<'t>;

    fn next(&mut self) -> Option<Piece<'t>> {
        let text = self.text;
        let rest = text.get(self.pos..)?;
        if rest.is_empty() {
            return None;
        }
        let start = self.pos;
        let Some(open_rel) = rest.find("{{") else {
            self.pos = text.len();
            return Some(Piece::Text { text: rest, span: start..text.len() });
        };
        if open_rel > 0 {
            self.pos = start + open_rel;
            return Some(Piece::Text { text: &rest[..open_rel], span: start..start + open_rel });
        }
        // A tag starts here.
        let (triple, inner_start, closer) =
            if rest.starts_with("{{{") { (true, start + 3, "}}}") } else { (false, start + 2, "}}") };
        let Some(close_rel) = text[inner_start..].find(closer) else {
            self.pos = text.len();
            return Some(Piece::Tag(Tag {
                kind: TagKind::Unclosed,
                name: "",
                span: start..text.len(),
                name_span: start..start,
            }));
        };
        let inner_end = inner_start + close_rel;
        let end = inner_end + closer.len();
        self.pos = end;
        let inner = &text[inner_start..inner_end];
        let lead = inner.len() - inner.trim_start().len();
        let body_start = inner_start + lead;
        let (kind, name_from) = if triple {
            (TagKind::Unescaped, body_start)
        } else {
            match inner.trim_start().chars().next() {
                Some('#') => (TagKind::Section, body_start + 1),
                Some('^') => (TagKind::Inverted, body_start + 1),
                Some('/') => (TagKind::Close, body_start + 1),
                Some('!') => (TagKind::Comment, body_start + 1),
                Some('>') => (TagKind::Partial, body_start + 1),
                Some('&') => (TagKind::Unescaped, body_start + 1),
                Some('=') => (TagKind::SetDelimiter, body_start + 1),
                _ => (TagKind::Variable, body_start),
            }
        };
        let raw = &text[name_from..inner_end];
        let name = raw.trim();
        let name_start = name_from + (raw.len() - raw.trim_start().len());
        Some(Piece::Tag(Tag { kind, name, span: start..end, name_span: name_start..name_start + name.len() }))
    }
}

/// True for a dotted name of words: `grain.content`, `timestamp`.
pub fn is_valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.split('.').all(|part| {
            let mut b = part.bytes();
            b.next().is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
                && b.all(|c| c.is_ascii_alphanumeric() || c == b'_')
        })
}

/// The section name of constrained iteration (§10.2).
pub const EACH: &str = "each";

/// A template as a tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node<'t> {
    /// Literal text.
    Text(&'t str),
    /// `{{name}}`.
    Variable {
        /// The variable.
        name: &'t str,
        /// Where the tag is.
        span: Range<usize>,
    },
    /// `{{#name}}…{{/name}}`, `{{^name}}…{{/name}}` or `{{#each}}…{{/each}}` (name `each`).
    Section {
        /// The variable tested, or [`EACH`].
        name: &'t str,
        /// True for `{{^…}}`.
        inverted: bool,
        /// The body.
        children: Vec<Node<'t>>,
        /// Where the opening tag is.
        span: Range<usize>,
    },
}

/// What is wrong with a template, before its variables are looked at.
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

/// One problem, with the byte range it is at and, for mismatches, the opening tag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateError {
    /// What.
    pub kind: ErrorKind,
    /// Where.
    pub span: Range<usize>,
    /// The related opening tag (for [`ErrorKind::Mismatched`]).
    pub related: Option<Range<usize>>,
    /// The section names involved: the open one, then the close (for messages).
    pub names: (String, String),
}

/// A template parsed into a tree, with every structural error found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template<'t> {
    /// The tree (built as far as the errors allow).
    pub nodes: Vec<Node<'t>>,
    /// Every tag, in order, so that callers can look at names.
    pub tags: Vec<Tag<'t>>,
    /// Structural errors, in source order.
    pub errors: Vec<TemplateError>,
}

struct Open<'t> {
    name: &'t str,
    inverted: bool,
    span: Range<usize>,
    children: Vec<Node<'t>>,
}

/// Parses a template text. Never fails: problems are collected in [`Template::errors`].
pub fn parse(text: &str) -> Template<'_> {
    let mut stack: Vec<Open<'_>> = Vec::new();
    let mut root: Vec<Node<'_>> = Vec::new();
    let mut tags = Vec::new();
    let mut errors = Vec::new();
    let err = |kind, span: Range<usize>| TemplateError { kind, span, related: None, names: Default::default() };
    fn push<'t>(stack: &mut [Open<'t>], root: &mut Vec<Node<'t>>, node: Node<'t>) {
        match stack.last_mut() {
            Some(open) => open.children.push(node),
            None => root.push(node),
        }
    }
    for piece in tokenize(text) {
        let tag = match piece {
            Piece::Text { text, .. } => {
                push(&mut stack, &mut root, Node::Text(text));
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
                stack.push(Open { name: EACH, inverted: false, span: tag.span.clone(), children: Vec::new() });
            }
            continue;
        }
        if !is_valid_name(tag.name) {
            errors.push(err(ErrorKind::InvalidName, tag.span.clone()));
            continue;
        }
        match tag.kind {
            TagKind::Variable => push(&mut stack, &mut root, Node::Variable { name: tag.name, span: tag.span.clone() }),
            TagKind::Section | TagKind::Inverted => {
                if stack.len() == MAX_TEMPLATE_NESTING {
                    errors.push(err(ErrorKind::TooDeep, tag.span.clone()));
                }
                stack.push(Open {
                    name: tag.name,
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
                        errors.push(TemplateError {
                            kind: ErrorKind::Mismatched,
                            span: tag.span.clone(),
                            related: Some(inner.span.clone()),
                            names: (inner.name.to_string(), tag.name.to_string()),
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
        e.names.0 = open.name.to_string();
        errors.push(e);
        let node = Node::Section { name: open.name, inverted: open.inverted, children: open.children, span: open.span };
        push(&mut stack, &mut root, node);
    }
    errors.sort_by_key(|e| e.span.start);
    Template { nodes: root, tags, errors }
}

/// The type of a template variable's value (§10.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VarType {
    /// Text.
    String,
    /// A whole number.
    Integer,
    /// A number.
    Number,
    /// true / false.
    Boolean,
    /// Only meaningful as a section (`{{#grain.is_full}}`).
    Section,
}

/// Which level of the assembly a variable describes (§10.5's three tables).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// The whole assembly.
    Assembly,
    /// One source.
    Source,
    /// One grain.
    Grain,
}

/// One variable of the closed set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TemplateVariable {
    /// Its name, as written between the braces.
    pub name: &'static str,
    /// Its type.
    pub var_type: VarType,
    /// Its level.
    pub level: Level,
    /// §10.5's description.
    pub doc: &'static str,
}

const fn var(name: &'static str, var_type: VarType, level: Level, doc: &'static str) -> TemplateVariable {
    TemplateVariable { name, var_type, level, doc }
}

/// The closed variable set of §10.5, in its order. Anything else is CAL-E090.
#[rustfmt::skip]
pub static VARIABLES: &[TemplateVariable] = &[
    var("assembly.name", VarType::String, Level::Assembly, "Context name"),
    var("assembly.intent", VarType::String, Level::Assembly, "FOR clause text"),
    var("assembly.source_count", VarType::Integer, Level::Assembly, "Number of sources"),
    var("assembly.grain_count", VarType::Integer, Level::Assembly, "Total grains included"),
    var("budget.total", VarType::Integer, Level::Assembly, "Total budget"),
    var("budget.used", VarType::Integer, Level::Assembly, "Budget consumed"),
    var("budget.remaining", VarType::Integer, Level::Assembly, "Remaining budget"),
    var("budget.unit", VarType::String, Level::Assembly, "\"tokens\" or \"grains\""),
    var("budget.utilization", VarType::Number, Level::Assembly, "0.0-1.0 utilization ratio"),
    var("disclosure.level", VarType::String, Level::Assembly, "Disclosure level"),
    var("timestamp", VarType::String, Level::Assembly, "ISO 8601 assembly timestamp"),
    var("source.label", VarType::String, Level::Source, "Source label"),
    var("source.index", VarType::Integer, Level::Source, "0-based position"),
    var("source.priority", VarType::Integer, Level::Source, "1-based priority rank"),
    var("source.grain_count", VarType::Integer, Level::Source, "Grains in this source"),
    var("source.tokens_used", VarType::Integer, Level::Source, "Tokens consumed"),
    var("source.truncated", VarType::Boolean, Level::Source, "Whether grains were cut for budget"),
    var("grain.content", VarType::String, Level::Grain, "Projected text content (per Section 10.3.2 content rules)"),
    var("grain.type", VarType::String, Level::Grain, "Grain type (used as SML element name)"),
    var("grain.subject", VarType::String, Level::Grain, "Triple subject"),
    var("grain.relation", VarType::String, Level::Grain, "Raw triple relation (with namespace)"),
    var("grain.humanized_relation", VarType::String, Level::Grain, "Humanized relation (namespace stripped, underscores replaced)"),
    var("grain.object", VarType::String, Level::Grain, "Triple object"),
    var("grain.confidence", VarType::Number, Level::Grain, "Confidence [0.0, 1.0]"),
    var("grain.importance", VarType::Number, Level::Grain, "Importance [0.0, 1.0]"),
    var("grain.tags", VarType::String, Level::Grain, "Comma-separated tags"),
    var("grain.created_at", VarType::String, Level::Grain, "ISO 8601 timestamp"),
    var("grain.relative_time", VarType::String, Level::Grain, "Humanized relative time (e.g., \"2h ago\")"),
    var("grain.score", VarType::Number, Level::Grain, "Relevance score"),
    var("grain.hash", VarType::String, Level::Grain, "Content address (for machine envelope use, not LLM output)"),
    var("grain.is_full", VarType::Section, Level::Grain, "True when disclosure = full"),
    var("grain.is_summary", VarType::Section, Level::Grain, "True when disclosure = summary"),
];

/// The variable called `name`, if it is in the closed set.
pub fn variable(name: &str) -> Option<&'static TemplateVariable> {
    VARIABLES.iter().find(|v| v.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(TagKind, &str)> {
        tokenize(text)
            .filter_map(|p| match p {
                Piece::Tag(t) => Some((t.kind, t.name)),
                Piece::Text { .. } => None,
            })
            .collect()
    }

    #[test]
    fn tokenizes_every_form() {
        let k = kinds("a{{x}}{{# s }}{{^i}}{{/s}}{{! c }}{{>p}}{{{u}}}{{&u}}{{=<% %>=}}{{ grain.type }}");
        assert_eq!(
            k,
            [
                (TagKind::Variable, "x"),
                (TagKind::Section, "s"),
                (TagKind::Inverted, "i"),
                (TagKind::Close, "s"),
                (TagKind::Comment, "c"),
                (TagKind::Partial, "p"),
                (TagKind::Unescaped, "u"),
                (TagKind::Unescaped, "u"),
                (TagKind::SetDelimiter, "<% %>="),
                (TagKind::Variable, "grain.type"),
            ]
        );
        assert_eq!(kinds("x {{ open")[0].0, TagKind::Unclosed);
        assert!(kinds("no tags } { }}").is_empty());
    }

    #[test]
    fn spans_point_into_the_text() {
        let text = "ab{{  grain.type }}cd";
        let tag = tokenize(text).find_map(|p| if let Piece::Tag(t) = p { Some(t) } else { None }).unwrap();
        assert_eq!(&text[tag.span.clone()], "{{  grain.type }}");
        assert_eq!(&text[tag.name_span.clone()], "grain.type");
        let pieces: Vec<_> = tokenize(text).collect();
        assert_eq!(pieces.len(), 3);
    }

    #[test]
    fn builds_a_tree_and_finds_structural_errors() {
        let t = parse("{{#a}}x{{^b}}{{c}}{{/b}}{{/a}}");
        assert!(t.errors.is_empty());
        assert_eq!(t.nodes.len(), 1);
        let errs = |s| parse(s).errors.into_iter().map(|e| e.kind).collect::<Vec<_>>();
        assert_eq!(errs("{{#a}}"), [ErrorKind::Unclosed]);
        assert_eq!(errs("{{/a}}"), [ErrorKind::Unopened]);
        assert_eq!(errs("{{#a}}{{#b}}{{/a}}{{/b}}"), [ErrorKind::Mismatched]);
        assert_eq!(errs("{{#a}}{{#b}}{{/a}}"), [ErrorKind::Unclosed, ErrorKind::Mismatched]);
        assert_eq!(errs("{{#each}}{{grain.type}}{{/each}}"), []);
        assert_eq!(errs("{{#each grains}}{{/each}}"), [ErrorKind::EachForm]);
        assert_eq!(errs("{{grain type}}"), [ErrorKind::InvalidName]);
        assert_eq!(errs("{{>p}}"), [ErrorKind::Unsupported(TagKind::Partial)]);
        let deep = "{{#a}}".repeat(MAX_TEMPLATE_NESTING) + &"{{/a}}".repeat(MAX_TEMPLATE_NESTING);
        assert_eq!(errs(&deep), []);
        let deeper = "{{#a}}".repeat(MAX_TEMPLATE_NESTING + 1) + &"{{/a}}".repeat(MAX_TEMPLATE_NESTING + 1);
        assert_eq!(errs(&deeper), [ErrorKind::TooDeep]);
    }

    #[test]
    fn the_variable_set_is_section_10_5() {
        assert_eq!(VARIABLES.len(), 32);
        assert!(VARIABLES.iter().all(|v| is_valid_name(v.name)));
        assert_eq!(variable("grain.is_full").unwrap().var_type, VarType::Section);
        assert!(variable("grain.nope").is_none());
        assert_eq!(VARIABLES.iter().filter(|v| v.level == Level::Source).count(), 6);
    }
}
