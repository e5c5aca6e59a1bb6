//! Raw capture of template section bodies (§10.6).
//!
//! `ELEMENT { <{{grain.type}} a="{{x}}">{{grain.content}}</{{grain.type}}> }` holds
//! text that is not CAL: quotes, angle brackets and Mustache tags. After a
//! section keyword and `{`, everything up to the matching `}` is one
//! [`Token::TemplateText`]. Single braces nest; a Mustache tag `{{…}}` (or
//! `{{{…}}}`) counts as one unit, so its braces never close the section.

use crate::{Lexed, Token};
use cal_grammar::{Code, Diagnostic, Keyword, Span};

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

/// If a `{` follows (after whitespace), captures the body and returns where lexing resumes.
pub(crate) fn section_body<'s>(src: &'s str, after_kw: usize, kw: Keyword, out: &mut Lexed<'s>) -> Option<usize> {
    let ws = src[after_kw..].bytes().take_while(u8::is_ascii_whitespace).count();
    let open = after_kw + ws;
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
                .with_example("ELEMENT { - {{grain.content}} }"),
            );
            Some(src.len())
        }
    }
}

/// Byte length of the body before the `}` that closes it, or None when unclosed.
fn matching_brace(body: &str) -> Option<usize> {
    let bytes = body.as_bytes();
    let mut depth = 1usize;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"{{") {
            let triple = bytes[i..].starts_with(b"{{{");
            let (open, close): (usize, &[u8]) = if triple { (3, b"}}}") } else { (2, b"}}") };
            let rest = &bytes[i + open..];
            let end = rest.windows(close.len()).position(|w| w == close)?;
            i += open + end + close.len();
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

#[cfg(test)]
mod tests {
    use super::matching_brace;

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
}
