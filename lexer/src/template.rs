//! The one lexer of template text (§10.2, §10.6).
//!
//! `ELEMENT { <{{grain.type}} a="{{x}}">{{grain.content}}</{{grain.type}}> }` holds
//! text that is not CAL: quotes, angle brackets and Mustache tags. Two readers
//! need to find the tags in it, and they must agree on where a tag ends:
//!
//! * the CAL lexer, which captures everything after a section keyword and `{`
//!   up to the matching `}` as one [`Token::TemplateText`]: single braces nest,
//!   and a Mustache tag `{{…}}` (or `{{{…}}}`) counts as one unit, so its
//!   braces never close the section (`section_body`);
//! * the template parser (`cal_parser::template`), which splits a captured
//!   body into literal text and tags ([`tokenize`]) and builds its tree.
//!
//! Both use `tag_extent`, so a body the lexer captured is exactly the text
//! whose tags the parser reads.

use crate::{Lexed, Token};
use cal_grammar::{Code, Diagnostic, Keyword, Span};
use std::ops::Range;

/// Section keywords whose body is raw template text.
pub(crate) fn is_section(k: Keyword) -> bool {
    matches!(
        k,
        Keyword::Header
            | Keyword::Element
            | Keyword::ElementSummary
            | Keyword::ElementOmit
            | Keyword::SourceBreak
            | Keyword::Footer
    )
}

/// If a `{` follows (after whitespace and line comments, which may separate any two tokens),
/// captures the body and returns where lexing resumes.
pub(crate) fn section_body<'s>(src: &'s str, after_kw: usize, kw: Keyword, out: &mut Lexed<'s>) -> Option<usize> {
    let open = past_trivia(src, after_kw);
    if !src[open..].starts_with('{') {
        return None;
    }
    out.tokens.push((Token::LBrace, Span::new(open, open + 1)));
    let body_start = open + 1;
    match matching_brace(&src[body_start..]) {
        Some(len) => {
            let close = body_start + len;
            out.tokens.push((Token::TemplateText(&src[body_start..close]), Span::new(body_start, close)));
            out.tokens.push((Token::RBrace, Span::new(close, close + 1)));
            Some(close + 1)
        }
        None => {
            out.tokens.push((Token::TemplateText(&src[body_start..]), Span::new(body_start, src.len())));
            out.tokens.push((Token::Error, Span::empty(src.len())));
            out.diagnostics.push(
                Diagnostic::new(
                    Code::E002,
                    Span::new(open, open + 1),
                    format!("The {} section is never closed: no matching `}}`.", kw.as_str()),
                )
                .with_suggestion("Close the section with `}`; literal braces inside a section must be balanced.")
                .with_example("DEFINE TEMPLATE t EXTENDS readable ELEMENT { - {{grain.content}} }"),
            );
            Some(src.len())
        }
    }
}

/// The first byte at or after `at` that is neither whitespace nor in a `--` line comment (§3.5).
fn past_trivia(src: &str, mut at: usize) -> usize {
    loop {
        at += src[at..].bytes().take_while(u8::is_ascii_whitespace).count();
        if !src[at..].starts_with("--") {
            return at;
        }
        at += src[at..].find('\n').unwrap_or(src.len() - at);
    }
}

/// The extent of a Mustache tag whose `{{` is at byte `open` of `text`: whether it is a
/// triple-brace tag (`{{{…}}}`), and the byte range between its delimiters, or `None` when
/// the closing `}}` (`}}}`) never comes.
fn tag_extent(text: &str, open: usize) -> (bool, Option<Range<usize>>) {
    let triple = text[open..].starts_with("{{{");
    let (inner_start, closer) = if triple { (open + 3, "}}}") } else { (open + 2, "}}") };
    (triple, text[inner_start..].find(closer).map(|len| inner_start..inner_start + len))
}

/// The length of a delimiter of a tag ([`tag_extent`]'s `triple`).
fn delimiter_len(triple: bool) -> usize {
    if triple { 3 } else { 2 }
}

/// Byte length of the body before the `}` that closes it, or None when unclosed.
fn matching_brace(body: &str) -> Option<usize> {
    let bytes = body.as_bytes();
    let mut depth = 1usize;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"{{") {
            let (triple, inner) = tag_extent(body, i);
            i = inner?.end + delimiter_len(triple);
            continue;
        }
        match bytes[i] {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The form of a `{{…}}` tag, decided by its sigil. Every Mustache form is
/// recognized, including those §10.2 excludes, so that they can be rejected
/// precisely rather than misread as variables.
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
    /// True for the forms CAL templates allow (§10.2).
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

/// One `{{…}}` tag, with the byte ranges diagnostics point at.
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

/// A run of literal text or a tag: what [`tokenize`] yields.
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

/// Splits a template text into literal text and tags; offsets are byte ranges into
/// `text`. Never fails: a `{{` without its closer comes out as [`TagKind::Unclosed`],
/// running to the end of the text.
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
        let (triple, inner) = tag_extent(text, start);
        let Some(inner) = inner else {
            self.pos = text.len();
            return Some(Piece::Tag(Tag {
                kind: TagKind::Unclosed,
                name: "",
                span: start..text.len(),
                name_span: start..start,
            }));
        };
        let end = inner.end + delimiter_len(triple);
        self.pos = end;
        let (inner_start, inner_end) = (inner.start, inner.end);
        let inner = &text[inner];
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mustache_tags_do_not_close_sections() {
        let body = " <{{grain.type}} a=\"{{x}}\">{{{raw}}}</{{grain.type}}> } tail";
        assert_eq!(matching_brace(body), Some(body.find("} tail").unwrap()));
    }

    #[test]
    fn single_braces_nest() {
        assert_eq!(matching_brace(" {a} }"), Some(5));
        assert_eq!(matching_brace(" {a} "), None);
        assert_eq!(matching_brace(" {{unclosed "), None);
    }

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
    fn a_captured_body_tokenizes_into_the_same_tags() {
        // The section ends where the lexer says, and no tag the tokenizer finds in the body
        // runs past it: the two readers share `tag_extent`.
        let src = "<{{grain.type}} a=\"{{x}}\">{{{raw}}} {nested {{#s}}}{{/s}} } tail {{y}}";
        let len = matching_brace(src).unwrap();
        let body = &src[..len];
        assert!(tokenize(body).all(|p| !matches!(p, Piece::Tag(Tag { kind: TagKind::Unclosed, .. }))));
        assert_eq!(kinds(body).len(), 5);
    }
}
