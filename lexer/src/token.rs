//! The CAL token type, derived with `logos`.

use cal_grammar::{ExcludedWord, Keyword};
use logos::Logos;

/// One token. Tokens borrow from the source: no token allocates.
///
/// The DFA only knows identifier-shaped words; [`crate::lex`] classifies each
/// one as a keyword, an excluded word or a name (`keywords.rs`). Keywords are
/// matched case-insensitively but only in ASCII (§16.6): a word spelled with
/// a character that merely case-folds to ASCII (`ſubjects`) is not a keyword.
#[derive(Logos, Debug, Clone, Copy, PartialEq)]
#[logos(skip r"[ \t\r\n\f]+")]
#[logos(skip(r"--[^\r\n]*", allow_greedy = true))]
pub enum Token<'src> {
    /// An active keyword (§3.2, Appendix D).
    Kw(Keyword),
    /// A word CAL excludes (§2.4); always an error, with a message explaining why.
    Excluded(ExcludedWord),
    /// Any other ASCII word: field names, grain types, labels, format names, …
    #[regex(r"[A-Za-z_][A-Za-z0-9_]*", |lex| lex.slice())]
    Ident(&'src str),
    /// The raw inside of a terminated string literal, escapes not yet resolved.
    #[regex(r#""([^"\\]|\\[\s\S])*""#, |lex| { let s = lex.slice(); &s[1..s.len() - 1] })]
    Str(&'src str),
    /// A number as written: `-?digits(.digits)?`.
    #[regex(r"-?[0-9]+(\.[0-9]+)?", |lex| lex.slice())]
    Number(&'src str),
    /// The hex digits of a valid `sha256:` literal (8–64 hex characters).
    Hash(&'src str),
    /// `$name`, without the `$`.
    #[regex(r"\$[A-Za-z_][A-Za-z0-9_]*", |lex| &lex.slice()[1..])]
    Param(&'src str),
    /// Raw template text between the braces of a template section (§10.6).
    TemplateText(&'src str),
    /// `(`
    #[token("(")]
    LParen,
    /// `)`
    #[token(")")]
    RParen,
    /// `[`
    #[token("[")]
    LBracket,
    /// `]`
    #[token("]")]
    RBracket,
    /// `{`
    #[token("{")]
    LBrace,
    /// `}`
    #[token("}")]
    RBrace,
    /// `,`
    #[token(",")]
    Comma,
    /// `;`
    #[token(";")]
    Semicolon,
    /// `:`
    #[token(":")]
    Colon,
    /// `|`
    #[token("|")]
    Pipe,
    /// `/`
    #[token("/")]
    Slash,
    /// `=`
    #[token("=")]
    Eq,
    /// `!=`
    #[token("!=")]
    Ne,
    /// `>=`
    #[token(">=")]
    Ge,
    /// `<=`
    #[token("<=")]
    Le,
    /// `>`
    #[token(">")]
    Gt,
    /// `<`
    #[token("<")]
    Lt,
    /// A piece of input that is not a token; the lexer has already reported why.
    /// The parser never reports an error of its own at an `Error` token.
    Error,
}

/// Raw patterns that are errors but deserve a precise diagnostic rather than "unexpected character".
#[derive(Logos, Debug, Clone, Copy, PartialEq)]
pub(crate) enum Malformed {
    /// A string with no closing quote (CAL-E005).
    #[regex(r#""([^"\\]|\\[\s\S])*\\?"#)]
    UnterminatedString,
    /// `sha256:` followed by anything word-like (validated for CAL-E015).
    #[regex(r"sha256:[A-Za-z0-9_]*")]
    HashLike,
    /// Numbers with junk: `1.`, `1.2.3`, `12abc`, `1e5`, `.5` (CAL-E006).
    #[regex(r"-?[0-9]+\.")]
    #[regex(r"-?[0-9]+(\.[0-9]+)?[A-Za-z_][A-Za-z0-9_]*")]
    #[regex(r"-?[0-9]+\.[0-9]+(\.[0-9]*)+")]
    #[regex(r"-?\.[0-9]+")]
    BadNumber,
    /// `'text'`: a string in single quotes (CAL-E002, one diagnostic with the fix).
    #[regex(r"'[^'\n]*'")]
    SingleQuoted,
    /// `...` or `…`: the elided part of an example copied as is (CAL-E002, one diagnostic).
    #[regex(r"(\.\.+|\u{2026})+")]
    Ellipsis,
}

/// The canonical spelling of a token for "expected …" lists and messages.
pub fn describe(token: &Token<'_>) -> String {
    match token {
        Token::Kw(k) => k.as_str().to_string(),
        Token::Excluded(e) => e.as_str().to_string(),
        Token::Ident(s) => format!("`{s}`"),
        Token::Str(_) => "string literal".into(),
        Token::Number(n) => format!("number `{n}`"),
        Token::Hash(_) => "hash literal".into(),
        Token::Param(p) => format!("parameter `${p}`"),
        Token::TemplateText(_) => "template text".into(),
        Token::LParen => "`(`".into(),
        Token::RParen => "`)`".into(),
        Token::LBracket => "`[`".into(),
        Token::RBracket => "`]`".into(),
        Token::LBrace => "`{`".into(),
        Token::RBrace => "`}`".into(),
        Token::Comma => "`,`".into(),
        Token::Semicolon => "`;`".into(),
        Token::Colon => "`:`".into(),
        Token::Pipe => "`|`".into(),
        Token::Slash => "`/`".into(),
        Token::Eq => "`=`".into(),
        Token::Ne => "`!=`".into(),
        Token::Ge => "`>=`".into(),
        Token::Le => "`<=`".into(),
        Token::Gt => "`>`".into(),
        Token::Lt => "`<`".into(),
        Token::Error => "invalid input".into(),
    }
}
