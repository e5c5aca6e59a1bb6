//! The parser's error type and its conversion into [`Diagnostic`]s.
//!
//! Chumsky builds an error for every alternative that fails while it
//! explores a `choice`, on the happy path as much as on bad input, so this
//! type must be cheap: expected tokens are a bitset over token kinds and
//! labels a bitset over [`Expect`]. Only errors that reach the user are
//! turned into text, with the source at hand.

use cal_grammar::{Code, Diagnostic, Keyword, Span, suggest};
use cal_lexer::Token;
use chumsky::DefaultExpected;
use chumsky::error::LabelError;
use chumsky::input::Input;
use chumsky::span::SimpleSpan;
use chumsky::util::MaybeRef;

/// Named things the parser expects, for "expected a field name" rather than a token soup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Expect {
    Statement,
    GrainType,
    Field,
    Value,
    Operator,
    String,
    Integer,
    Number,
    Hash,
    Label,
    Name,
    WithOption,
    Stage,
    Format,
    DescribeTarget,
    Condition,
    Source,
    StreamOption,
    TemplateSection,
    Category,
    Parameter,
    Clause,
}

impl Expect {
    fn describe(self) -> &'static str {
        match self {
            Expect::Statement => "a statement (RECALL, ASSEMBLE, EXISTS, HISTORY, DESCRIBE, …)",
            Expect::GrainType => "a grain type",
            Expect::Field => "a field name",
            Expect::Value => "a value",
            Expect::Operator => {
                "an operator (=, !=, >=, <=, >, <, IN, BETWEEN, INCLUDE, EXCLUDE, IS)"
            }
            Expect::String => "a string literal",
            Expect::Integer => "an integer",
            Expect::Number => "a number",
            Expect::Hash => "a hash literal (sha256:…)",
            Expect::Label => "a label",
            Expect::Name => "a name",
            Expect::WithOption => "a WITH option",
            Expect::Stage => "a pipeline stage",
            Expect::Format => "a format",
            Expect::DescribeTarget => "what to describe",
            Expect::Condition => "a condition",
            Expect::Source => "a source",
            Expect::StreamOption => "a stream option",
            Expect::TemplateSection => "a template section (HEADER, ELEMENT, …)",
            Expect::Category => "a relation category",
            Expect::Parameter => "a parameter ($name)",
            Expect::Clause => "a clause",
        }
    }

    const ALL: [Expect; 22] = [
        Expect::Statement,
        Expect::GrainType,
        Expect::Field,
        Expect::Value,
        Expect::Operator,
        Expect::String,
        Expect::Integer,
        Expect::Number,
        Expect::Hash,
        Expect::Label,
        Expect::Name,
        Expect::WithOption,
        Expect::Stage,
        Expect::Format,
        Expect::DescribeTarget,
        Expect::Condition,
        Expect::Source,
        Expect::StreamOption,
        Expect::TemplateSection,
        Expect::Category,
        Expect::Parameter,
        Expect::Clause,
    ];
}

/// A parse failure: a syntax error with what was expected, or a diagnostic
/// with its own code (unknown grain type, unsupported version, …).
#[derive(Debug, Clone)]
pub(crate) struct ParseError {
    pub span: SimpleSpan,
    found: Option<u8>,
    expected: u128,
    labels: u32,
    custom: Option<Box<Diagnostic>>,
}

impl ParseError {
    /// An error that already knows its code and wording.
    pub fn custom(diag: Diagnostic) -> Self {
        ParseError {
            span: SimpleSpan::from(diag.span.range()),
            found: None,
            expected: 0,
            labels: 0,
            custom: Some(Box::new(diag)),
        }
    }
}

const KEYWORDS: usize = 79;

/// Bit index of a token kind in the expected-set. Keywords take 0..79.
fn token_bit(t: &Token<'_>) -> u8 {
    let k = KEYWORDS as u8;
    match t {
        Token::Kw(kw) => Keyword::ALL
            .iter()
            .position(|x| x == kw)
            .map_or(127, |p| p as u8),
        Token::Excluded(_) => k,
        Token::Ident(_) => k + 1,
        Token::Str(_) => k + 2,
        Token::Number(_) => k + 3,
        Token::Hash(_) => k + 4,
        Token::Param(_) => k + 5,
        Token::TemplateText(_) => k + 6,
        Token::LParen => k + 7,
        Token::RParen => k + 8,
        Token::LBracket => k + 9,
        Token::RBracket => k + 10,
        Token::LBrace => k + 11,
        Token::RBrace => k + 12,
        Token::Comma => k + 13,
        Token::Semicolon => k + 14,
        Token::Colon => k + 15,
        Token::Pipe => k + 16,
        Token::Slash => k + 17,
        Token::Eq => k + 18,
        Token::Ne => k + 19,
        Token::Ge => k + 20,
        Token::Le => k + 21,
        Token::Gt => k + 22,
        Token::Lt => k + 23,
        Token::Error => k + 24,
    }
}

const EOI_BIT: u8 = 126;

fn bit_name(bit: u8) -> Option<&'static str> {
    let k = KEYWORDS as u8;
    Some(match bit {
        b if b < k => Keyword::ALL[b as usize].as_str(),
        b if b == k + 1 => "a name",
        b if b == k + 2 => "a string literal",
        b if b == k + 3 => "a number",
        b if b == k + 4 => "a hash literal (sha256:…)",
        b if b == k + 5 => "a parameter ($name)",
        b if b == k + 6 => "template text",
        b if b == k + 7 => "`(`",
        b if b == k + 8 => "`)`",
        b if b == k + 9 => "`[`",
        b if b == k + 10 => "`]`",
        b if b == k + 11 => "`{`",
        b if b == k + 12 => "`}`",
        b if b == k + 13 => "`,`",
        b if b == k + 14 => "`;`",
        b if b == k + 15 => "`:`",
        b if b == k + 16 => "`|`",
        b if b == k + 17 => "`/`",
        b if b == k + 18 => "`=`",
        b if b == k + 19 => "`!=`",
        b if b == k + 20 => "`>=`",
        b if b == k + 21 => "`<=`",
        b if b == k + 22 => "`>`",
        b if b == k + 23 => "`<`",
        EOI_BIT => "end of query",
        _ => return None,
    })
}

impl<'t, 's: 't, I> LabelError<'t, I, DefaultExpected<'t, Token<'s>>> for ParseError
where
    I: Input<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    fn expected_found<E: IntoIterator<Item = DefaultExpected<'t, Token<'s>>>>(
        expected: E,
        found: Option<MaybeRef<'t, Token<'s>>>,
        span: SimpleSpan,
    ) -> Self {
        let mut bits = 0u128;
        for e in expected {
            match e {
                DefaultExpected::Token(t) => bits |= 1u128 << token_bit(&t),
                DefaultExpected::EndOfInput => bits |= 1u128 << EOI_BIT,
                _ => {}
            }
        }
        ParseError {
            span,
            found: found.map(|t| token_bit(&t)),
            expected: bits,
            labels: 0,
            custom: None,
        }
    }
}

impl<'t, 's: 't, I> LabelError<'t, I, Expect> for ParseError
where
    I: Input<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    fn expected_found<E: IntoIterator<Item = Expect>>(
        expected: E,
        found: Option<MaybeRef<'t, Token<'s>>>,
        span: SimpleSpan,
    ) -> Self {
        let labels = expected
            .into_iter()
            .fold(0u32, |acc, l| acc | 1 << (l as u8));
        ParseError {
            span,
            found: found.map(|t| token_bit(&t)),
            expected: 0,
            labels,
            custom: None,
        }
    }

    fn label_with(&mut self, label: Expect) {
        if self.custom.is_none() {
            self.expected = 0;
            self.labels = 1 << (label as u8);
        }
    }
}

impl<'t, 's: 't, I> chumsky::error::Error<'t, I> for ParseError
where
    I: Input<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    fn merge(mut self, other: Self) -> Self {
        if self.custom.is_some() {
            return self;
        }
        if other.custom.is_some() {
            return other;
        }
        self.expected |= other.expected;
        self.labels |= other.labels;
        self
    }
}

/// Turns a parse error into a diagnostic, or `None` when the offending token
/// was already reported by the lexer (an invalid or excluded token).
pub(crate) fn to_diagnostic(
    err: ParseError,
    source: &str,
    tokens: &[(Token<'_>, Span)],
) -> Option<Diagnostic> {
    if let Some(d) = err.custom {
        return Some(*d);
    }
    let span = Span::new(err.span.start, err.span.end);
    let found_token = tokens
        .iter()
        .find(|(_, s)| s.start == span.start)
        .map(|(t, _)| *t);
    if matches!(found_token, Some(Token::Error | Token::Excluded(_))) {
        return None;
    }
    let found_text = source.get(span.range()).unwrap_or("");
    let mut expected: Vec<String> = Expect::ALL
        .iter()
        .filter(|l| err.labels & (1 << (**l as u8)) != 0)
        .map(|l| l.describe().to_string())
        .collect();
    for bit in 0..128u8 {
        if err.expected & (1u128 << bit) != 0 {
            if let Some(name) = bit_name(bit) {
                if !expected.iter().any(|e| e == name) {
                    expected.push(name.to_string());
                }
            }
        }
    }
    let found_desc = match err.found {
        None => "end of query".to_string(),
        Some(_) => match found_token {
            Some(Token::Str(_)) => "string literal".to_string(),
            _ => format!("`{found_text}`"),
        },
    };
    let message = if expected.is_empty() {
        format!("Unexpected {found_desc}.")
    } else {
        format!("Unexpected {found_desc}; expected {}.", join_or(&expected))
    };
    let mut d = Diagnostic::new(Code::E002, span, message).with_expected(expected);
    d = add_hint(d, err.expected, found_token, found_text);
    Some(d)
}

fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] if init.len() < 8 => format!("{} or {last}", init.join(", ")),
        _ => format!("{}, …", items[..8].join(", ")),
    }
}

/// Targeted advice for the mistakes people (and LLMs) actually make.
fn add_hint(d: Diagnostic, expected: u128, found: Option<Token<'_>>, text: &str) -> Diagnostic {
    let expects_kw = |k: Keyword| expected & (1u128 << token_bit(&Token::Kw(k))) != 0;
    match found {
        Some(Token::Kw(Keyword::Or)) => d
            .with_suggestion("CAL combines conditions with AND only; use UNION of two RECALLs for alternatives, or `field IN (a, b)`.")
            .with_example("(RECALL WHERE subject = \"alice\") UNION (RECALL WHERE subject = \"bob\")"),
        Some(Token::Kw(Keyword::Not)) => d.with_suggestion("CAL has no NOT; use `!=`, `tags EXCLUDE [...]`, or EXCEPT."),
        Some(Token::Kw(Keyword::Null)) => {
            d.with_suggestion("CAL has no NULL tests: a missing field simply does not match (§5.4).")
        }
        Some(Token::Kw(
            Keyword::Recall
            | Keyword::Assemble
            | Keyword::Exists
            | Keyword::History
            | Keyword::Describe
            | Keyword::Batch
            | Keyword::Coalesce
            | Keyword::Explain
            | Keyword::Add
            | Keyword::Supersede
            | Keyword::Revert,
        )) if expected & (1u128 << token_bit(&Token::Semicolon)) != 0 => d
            .with_suggestion("Separate queries in a document with `;`.")
            .with_replacement(format!("; {text}")),
        Some(Token::Ident(word)) => {
            let candidates = Keyword::ALL.iter().filter(|k| expects_kw(**k)).map(|k| k.as_str());
            match suggest::did_you_mean(word, candidates) {
                Some(kw) => d.with_suggestion(format!("Did you mean `{kw}`?")).with_replacement(kw),
                None => d,
            }
        }
        Some(Token::Eq) if expects_kw(Keyword::Is) => {
            d.with_suggestion("Use `=` with a value, or `IS` with a relation category such as PREFERENCE.")
        }
        _ => d,
    }
}
