//! The CAL token type, derived with `logos`.

use cal_grammar::{ExcludedWord, Keyword};
use logos::{Lexer, Logos};

/// One token. Tokens borrow from the source: no token allocates.
///
/// Keywords are matched case-insensitively but only in ASCII (§16.6): a word
/// that only matches through Unicode case folding (`ſubjects`) is an error,
/// not a keyword.
#[derive(Logos, Debug, Clone, Copy, PartialEq)]
#[logos(skip r"[ \t\r\n\f]+")]
#[logos(skip(r"--[^\n]*", allow_greedy = true))]
pub enum Token<'src> {
    /// An active keyword (§3.2, Appendix D).
    #[token("recall", |lex| ascii_word(lex, Keyword::Recall), ignore(case))]
    #[token("assemble", |lex| ascii_word(lex, Keyword::Assemble), ignore(case))]
    #[token("where", |lex| ascii_word(lex, Keyword::Where), ignore(case))]
    #[token("and", |lex| ascii_word(lex, Keyword::And), ignore(case))]
    #[token("or", |lex| ascii_word(lex, Keyword::Or), ignore(case))]
    #[token("not", |lex| ascii_word(lex, Keyword::Not), ignore(case))]
    #[token("in", |lex| ascii_word(lex, Keyword::In), ignore(case))]
    #[token("between", |lex| ascii_word(lex, Keyword::Between), ignore(case))]
    #[token("limit", |lex| ascii_word(lex, Keyword::Limit), ignore(case))]
    #[token("offset", |lex| ascii_word(lex, Keyword::Offset), ignore(case))]
    #[token("order", |lex| ascii_word(lex, Keyword::Order), ignore(case))]
    #[token("by", |lex| ascii_word(lex, Keyword::By), ignore(case))]
    #[token("asc", |lex| ascii_word(lex, Keyword::Asc), ignore(case))]
    #[token("desc", |lex| ascii_word(lex, Keyword::Desc), ignore(case))]
    #[token("with", |lex| ascii_word(lex, Keyword::With), ignore(case))]
    #[token("explain", |lex| ascii_word(lex, Keyword::Explain), ignore(case))]
    #[token("scope", |lex| ascii_word(lex, Keyword::Scope), ignore(case))]
    #[token("union", |lex| ascii_word(lex, Keyword::Union), ignore(case))]
    #[token("intersect", |lex| ascii_word(lex, Keyword::Intersect), ignore(case))]
    #[token("except", |lex| ascii_word(lex, Keyword::Except), ignore(case))]
    #[token("select", |lex| ascii_word(lex, Keyword::Select), ignore(case))]
    #[token("count", |lex| ascii_word(lex, Keyword::Count), ignore(case))]
    #[token("first", |lex| ascii_word(lex, Keyword::First), ignore(case))]
    #[token("group", |lex| ascii_word(lex, Keyword::Group), ignore(case))]
    #[token("subjects", |lex| ascii_word(lex, Keyword::Subjects), ignore(case))]
    #[token("objects", |lex| ascii_word(lex, Keyword::Objects), ignore(case))]
    #[token("hashes", |lex| ascii_word(lex, Keyword::Hashes), ignore(case))]
    #[token("project", |lex| ascii_word(lex, Keyword::Project), ignore(case))]
    #[token("include", |lex| ascii_word(lex, Keyword::Include), ignore(case))]
    #[token("exclude", |lex| ascii_word(lex, Keyword::Exclude), ignore(case))]
    #[token("is", |lex| ascii_word(lex, Keyword::Is), ignore(case))]
    #[token("null", |lex| ascii_word(lex, Keyword::Null), ignore(case))]
    #[token("true", |lex| ascii_word(lex, Keyword::True), ignore(case))]
    #[token("false", |lex| ascii_word(lex, Keyword::False), ignore(case))]
    #[token("exists", |lex| ascii_word(lex, Keyword::Exists), ignore(case))]
    #[token("history", |lex| ascii_word(lex, Keyword::History), ignore(case))]
    #[token("describe", |lex| ascii_word(lex, Keyword::Describe), ignore(case))]
    #[token("batch", |lex| ascii_word(lex, Keyword::Batch), ignore(case))]
    #[token("coalesce", |lex| ascii_word(lex, Keyword::Coalesce), ignore(case))]
    #[token("about", |lex| ascii_word(lex, Keyword::About), ignore(case))]
    #[token("recent", |lex| ascii_word(lex, Keyword::Recent), ignore(case))]
    #[token("since", |lex| ascii_word(lex, Keyword::Since), ignore(case))]
    #[token("like", |lex| ascii_word(lex, Keyword::Like), ignore(case))]
    #[token("my", |lex| ascii_word(lex, Keyword::My), ignore(case))]
    #[token("contradictions", |lex| ascii_word(lex, Keyword::Contradictions), ignore(case))]
    #[token("as", |lex| ascii_word(lex, Keyword::As), ignore(case))]
    #[token("for", |lex| ascii_word(lex, Keyword::For), ignore(case))]
    #[token("from", |lex| ascii_word(lex, Keyword::From), ignore(case))]
    #[token("budget", |lex| ascii_word(lex, Keyword::Budget), ignore(case))]
    #[token("priority", |lex| ascii_word(lex, Keyword::Priority), ignore(case))]
    #[token("format", |lex| ascii_word(lex, Keyword::Format), ignore(case))]
    #[token("let", |lex| ascii_word(lex, Keyword::Let), ignore(case))]
    #[token("thread", |lex| ascii_word(lex, Keyword::Thread), ignore(case))]
    #[token("diff", |lex| ascii_word(lex, Keyword::Diff), ignore(case))]
    #[token("add", |lex| ascii_word(lex, Keyword::Add), ignore(case))]
    #[token("supersede", |lex| ascii_word(lex, Keyword::Supersede), ignore(case))]
    #[token("revert", |lex| ascii_word(lex, Keyword::Revert), ignore(case))]
    #[token("set", |lex| ascii_word(lex, Keyword::Set), ignore(case))]
    #[token("reason", |lex| ascii_word(lex, Keyword::Reason), ignore(case))]
    #[token("stream", |lex| ascii_word(lex, Keyword::Stream), ignore(case))]
    #[token("template", |lex| ascii_word(lex, Keyword::Template), ignore(case))]
    #[token("define", |lex| ascii_word(lex, Keyword::Define), ignore(case))]
    #[token("undefine", |lex| ascii_word(lex, Keyword::Undefine), ignore(case))]
    #[token("extends", |lex| ascii_word(lex, Keyword::Extends), ignore(case))]
    #[token("header", |lex| ascii_word(lex, Keyword::Header), ignore(case))]
    #[token("element", |lex| ascii_word(lex, Keyword::Element), ignore(case))]
    #[token("element_summary", |lex| ascii_word(lex, Keyword::ElementSummary), ignore(case))]
    #[token("element_omit", |lex| ascii_word(lex, Keyword::ElementOmit), ignore(case))]
    #[token("source_break", |lex| ascii_word(lex, Keyword::SourceBreak), ignore(case))]
    #[token("footer", |lex| ascii_word(lex, Keyword::Footer), ignore(case))]
    #[token("preference", |lex| ascii_word(lex, Keyword::Preference), ignore(case))]
    #[token("knowledge", |lex| ascii_word(lex, Keyword::Knowledge), ignore(case))]
    #[token("permission", |lex| ascii_word(lex, Keyword::Permission), ignore(case))]
    #[token("interaction", |lex| ascii_word(lex, Keyword::Interaction), ignore(case))]
    #[token("agency", |lex| ascii_word(lex, Keyword::Agency), ignore(case))]
    #[token("lifecycle", |lex| ascii_word(lex, Keyword::Lifecycle), ignore(case))]
    #[token("observation", |lex| ascii_word(lex, Keyword::Observation), ignore(case))]
    #[token("cal", |lex| ascii_word(lex, Keyword::Cal), ignore(case))]
    #[token("of", |lex| ascii_word(lex, Keyword::Of), ignore(case))]
    Kw(Keyword),
    /// A word CAL excludes (§2.4); always an error, with a message explaining why.
    #[token("delete", |lex| ascii_word(lex, ExcludedWord::Delete), ignore(case))]
    #[token("drop", |lex| ascii_word(lex, ExcludedWord::Drop), ignore(case))]
    #[token("forget", |lex| ascii_word(lex, ExcludedWord::Forget), ignore(case))]
    #[token("erase", |lex| ascii_word(lex, ExcludedWord::Erase), ignore(case))]
    #[token("destroy", |lex| ascii_word(lex, ExcludedWord::Destroy), ignore(case))]
    #[token("purge", |lex| ascii_word(lex, ExcludedWord::Purge), ignore(case))]
    #[token("truncate", |lex| ascii_word(lex, ExcludedWord::Truncate), ignore(case))]
    #[token("insert", |lex| ascii_word(lex, ExcludedWord::Insert), ignore(case))]
    #[token("create", |lex| ascii_word(lex, ExcludedWord::Create), ignore(case))]
    #[token("write", |lex| ascii_word(lex, ExcludedWord::Write), ignore(case))]
    #[token("store", |lex| ascii_word(lex, ExcludedWord::Store), ignore(case))]
    #[token("key", |lex| ascii_word(lex, ExcludedWord::Key), ignore(case))]
    #[token("encrypt", |lex| ascii_word(lex, ExcludedWord::Encrypt), ignore(case))]
    #[token("decrypt", |lex| ascii_word(lex, ExcludedWord::Decrypt), ignore(case))]
    #[token("rotate", |lex| ascii_word(lex, ExcludedWord::Rotate), ignore(case))]
    #[token("master", |lex| ascii_word(lex, ExcludedWord::Master), ignore(case))]
    #[token("dek", |lex| ascii_word(lex, ExcludedWord::Dek), ignore(case))]
    #[token("secret", |lex| ascii_word(lex, ExcludedWord::Secret), ignore(case))]
    #[token("policy", |lex| ascii_word(lex, ExcludedWord::Policy), ignore(case))]
    #[token("seal", |lex| ascii_word(lex, ExcludedWord::Seal), ignore(case))]
    #[token("unseal", |lex| ascii_word(lex, ExcludedWord::Unseal), ignore(case))]
    #[token("grant", |lex| ascii_word(lex, ExcludedWord::Grant), ignore(case))]
    #[token("revoke", |lex| ascii_word(lex, ExcludedWord::Revoke), ignore(case))]
    #[token("consent", |lex| ascii_word(lex, ExcludedWord::Consent), ignore(case))]
    #[token("restrict", |lex| ascii_word(lex, ExcludedWord::Restrict), ignore(case))]
    #[token("schema", |lex| ascii_word(lex, ExcludedWord::Schema), ignore(case))]
    #[token("partition", |lex| ascii_word(lex, ExcludedWord::Partition), ignore(case))]
    #[token("index", |lex| ascii_word(lex, ExcludedWord::Index), ignore(case))]
    #[token("migration", |lex| ascii_word(lex, ExcludedWord::Migration), ignore(case))]
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
}

fn ascii_word<'s, T>(lex: &mut Lexer<'s, Token<'s>>, value: T) -> Option<T> {
    lex.slice().is_ascii().then_some(value)
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
