//! `textDocument/semanticTokens/full`: a classification of every token, so
//! editors without the TextMate grammar still colour CAL, and field names and
//! grain types are told apart from plain identifiers.

use super::context::{self, Kind};
use cal_grammar::fields;
use cal_grammar::{FormatName, GrainType, Span, WithOptionName};

/// The token types, in legend order (the index is what the protocol sends).
pub const LEGEND: &[&str] =
    &["keyword", "type", "property", "string", "number", "operator", "variable", "enumMember", "comment"];

/// One classified token (single line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SemanticToken {
    /// Where.
    pub span: Span,
    /// Index into [`LEGEND`].
    pub kind: u32,
}

/// Classifies the tokens and comments of `text`, in source order.
pub fn tokens(text: &str) -> Vec<SemanticToken> {
    tokens_upto(text, usize::MAX)
}

/// The first `max` (or a few more) of [`tokens`], computed without classifying the rest:
/// what the server sends for a huge document (`MAX_SEMANTIC_TOKENS`, issue 19).
pub fn tokens_upto(text: &str, max: usize) -> Vec<SemanticToken> {
    let mut out = Vec::new();
    let mut prev_end = 0usize;
    let mut complete = true;
    context::tokens_while(text, |t| {
        if out.len() >= max {
            complete = false;
            return false;
        }
        comments(text, prev_end, t.span.start as usize, &mut out);
        prev_end = t.span.end as usize;
        let kind = match &t.kind {
            Kind::Kw(_) => Some(0),
            Kind::Ident(w) if GrainType::from_plural(w).is_some() || GrainType::from_singular(w).is_some() => Some(1),
            Kind::Ident(w) if fields::common_field(w).is_some() || !fields::owners_of(w).is_empty() => Some(2),
            Kind::Ident(w) if FormatName::from_word(w).is_some() || WithOptionName::from_word(w).is_some() => Some(7),
            Kind::Ident(_) => Some(6),
            Kind::Str(_) => Some(3),
            Kind::Param(_) => Some(6),
            Kind::Other(o) if o == "number" || o == "hash" => Some(4),
            Kind::Other(o) if ["=", "!=", ">=", "<=", ">", "<", "|"].contains(&o.as_str()) => Some(5),
            Kind::Other(_) => None,
        };
        if let Some(kind) = kind {
            let single_line = text.get(t.span.range()).is_some_and(|s| !s.contains('\n'));
            if single_line {
                out.push(SemanticToken { span: t.span, kind });
            }
        }
        true
    });
    if complete {
        comments(text, prev_end, text.len(), &mut out);
    }
    out
}

fn comments(text: &str, from: usize, to: usize, out: &mut Vec<SemanticToken>) {
    let Some(gap) = text.get(from..to) else { return };
    let mut at = 0;
    while let Some(i) = gap[at..].find("--") {
        let start = at + i;
        let end = gap[start..].find(['\r', '\n']).map_or(gap.len(), |j| start + j);
        out.push(SemanticToken { span: Span::new(from + start, from + end), kind: 8 });
        at = end;
    }
}
